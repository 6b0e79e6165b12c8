"""The standard streams as every command writes them (installed by :func:`shmod.cli.main.main`).

- **A closed stream** (``shmod status >&-``): its file descriptor is given the null device,
  so no file shmod opens (the log) can take its number, and the stream is noted as lost
  once something is written to it (a recording command writes nothing on stdout).
- **An encoding that cannot hold a character** (``PYTHONIOENCODING=latin-1``, a Windows
  console's legacy code page): the box drawing and typography shmod prints fall back to
  ASCII (``─`` as ``-``, ``…`` as ``...``); any other character (a player's name) is shown
  as its escape (``\\u0411``), so two names never print alike.
- **A reader that went away** (``| head -1``, EPIPE): what is left is dropped, and the
  command ends with its own status.
- **Any other failure to write** (a full disk, ``>/dev/full``, an I/O error): noted and
  the rest dropped; the command ends with exit 74 (:class:`OutputLost`). A recording
  command checks its output is open before it records anything (:func:`require_open`),
  and once it has recorded, says that it did and how to see its output again
  (:func:`check`).
"""
from __future__ import annotations

import codecs
import os
import sys
from typing import Any, TextIO

from shmod.base.errors import OutputLost

#: What shmod prints outside ASCII, as ASCII (box drawing by its shape, see _ascii).
ASCII = {"…": "...", "·": ".", "—": "-", "\u2013": "-", "→": "->", "←": "<-", "×": "x", "†": "+",
         "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "•": "*", "≥": ">=",
         "≤": "<=", "\u00a0": " "}
HANDLER = "shmod-ascii"


def _ascii(char: str) -> str:
    if char in ASCII:
        return ASCII[char]
    code = ord(char)
    if 0x2500 <= code <= 0x257F:  # box drawing: lines, then corners, tees and crosses
        return "=" if char == "═" else "|" if char in "│┃║╎╏┆┇┊┋" else \
            "-" if char in "─━╌╍┄┅┈┉" else "+"
    if 0x2580 <= code <= 0x259F:  # block elements
        return "#"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _fallback(err: UnicodeError) -> tuple[str, int]:
    """The codec error handler: what the output's encoding cannot hold, in ASCII."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return "".join(map(_ascii, err.object[err.start:err.end])), err.end


codecs.register_error(HANDLER, _fallback)


class Stream:
    """``sys.stdout`` or ``sys.stderr`` that never raises: a write that fails is noted
    (:attr:`lost`, unless the reader merely went away) and the rest is dropped. Every
    other attribute is the stream's own."""

    def __init__(self, stream: TextIO, lost: str | None = None) -> None:
        self._stream = stream
        self.lost: str | None = None  # why the output could not be written, if it could not
        self.closed = lost  # why it cannot be written at all: lost once written to
        self.cut = False  # the reader went away (EPIPE): the rest was dropped
        self._dropping = lost is not None
        if hasattr(stream, "reconfigure") and not str(
                getattr(stream, "encoding", "utf-8")).lower().replace("-", "").startswith("utf"):
            stream.reconfigure(errors=HANDLER)

    def write(self, text: str) -> int:
        if text and self.closed is not None:
            self.lost = self.closed  # a command that writes nothing here loses nothing
        if not self._dropping:
            try:
                self._stream.write(text)
            except OSError as err:
                self._failed(err)
        return len(text)

    def flush(self) -> None:
        if not self._dropping:
            try:
                self._stream.flush()
            except OSError as err:
                self._failed(err)

    def _failed(self, err: OSError) -> None:
        if not isinstance(err, BrokenPipeError):
            self.lost = err.strerror or str(err)
        self.cut = True
        self._dropping = True
        try:  # what is still buffered goes nowhere, and no flush at exit fails again
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self._stream.fileno())
            finally:
                os.close(null)
        except (OSError, ValueError, AttributeError):
            pass  # no descriptor of its own (a test's stream): dropped all the same

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def install() -> None:
    """Wrap the standard streams (anew for each command run in one process)."""
    closed = [fd for fd in (0, 1, 2) if not _open(fd)]
    for fd in closed:
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if isinstance(stream, Stream):
            stream = stream._stream
        lost = None
        if stream is None:  # closed when Python started
            stream, lost = open(os.devnull, "w", encoding="utf-8"), "it is closed"  # noqa: SIM115
        setattr(sys, name, Stream(stream, lost))


def _open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def lost() -> str | None:
    """Why the standard output could not be written, once written and flushed, if it
    could not."""
    sys.stdout.flush()
    return getattr(sys.stdout, "lost", None)


def whole() -> str | None:
    """Why the standard output did not take all it was given, once flushed, if it did not:
    it could not be written (:func:`lost`), or its reader went away before the end."""
    reason = lost()
    if reason is None and getattr(sys.stdout, "cut", False):
        reason = "its reader went away before the end"
    return reason


def require_open() -> None:
    """Refuse, before the log is touched, to record a step whose output (its PMs, its
    post) is known already to go nowhere."""
    reason = getattr(sys.stdout, "lost", None) or getattr(sys.stdout, "closed", None)
    if reason and isinstance(reason, str):
        raise OutputLost(f"nothing was changed: the output cannot be written ({reason}), so "
                         "what this command shows (PMs, a post) would be lost; run it again "
                         "with its output open")


def check(done: str, again: str) -> None:
    """After a recording command has shown its output: if that could not be written, say
    that ``done`` (what was recorded) and how to see it again (``again``)."""
    reason = lost()
    if reason:
        raise OutputLost(f"{done}, but the output could not be written ({reason}); do not "
                         f"record it again: {again}")
