"""``shmod send --copy``: a text put on the clipboard instead of standard output.

The system's clipboard where the platform has one, through pyperclip (Windows, macOS,
X11's xclip or xsel, Wayland's wl-copy: imported here only, by ``--copy``), read back to
be sure it holds the text; otherwise the terminal's own clipboard, through the OSC 52
sequence ``ESC ] 52 ; c ; <base64> BEL`` written to ``/dev/tty`` (never to standard
output, which may be a file or a pipe), wrapped in tmux's pass-through when ``$TMUX`` is
set. A text too long for OSC 52 is refused. Either way the caller is told which was used,
and records a delivery only once this returned.
"""
from __future__ import annotations

import base64
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from shmod.base.errors import BadInput

#: The longest OSC 52 sequence written: terminals drop longer ones (xterm's and
#: hterm's limits are about 100,000 bytes), and a text lost silently must not be
#: recorded as delivered.
MAX_OSC52 = 100_000
TTY = "/dev/tty"
#: How often, and how far apart, the system's clipboard is read back: xclip and xsel
#: return before the process they leave behind has taken the selection, so the first
#: read may still find the old text.
READ_BACKS, READ_BACK_PAUSE = 40, 0.05


def osc52(text: str, tmux: bool) -> bytes:
    """The OSC 52 sequence that sets the terminal's clipboard (``c``) to ``text``
    (UTF-8, base64); inside tmux, wrapped as a DCS pass-through (``ESC P tmux;`` the
    sequence with each ESC doubled, ``ESC \\``)."""
    sequence = b"\x1b]52;c;" + base64.b64encode(text.encode("utf-8")) + b"\x07"
    if tmux:
        sequence = b"\x1bPtmux;" + sequence.replace(b"\x1b", b"\x1b\x1b") + b"\x1b\\"
    return sequence


#: How much of a text's first line a caution quotes.
QUOTED = 40


class Copied(NamedTuple):
    """Where a text was copied to, in a few words, and, when that clipboard cannot be read
    back (OSC 52), a caution for the moderator: a terminal that ignores OSC 52 leaves
    the clipboard holding what it held before, often the last item, another player's PM."""

    where: str
    caution: str = ""


def copy(text: str) -> Copied:
    """Put ``text`` on a clipboard; says which one, and what to check when it is unread."""
    system = _system()
    if system is None:
        return _terminal(text, "no system clipboard was found")
    name, put, get = system
    if _put_and_read_back(put, get, text):
        return Copied(f"the clipboard ({name})")
    return _terminal(text, f"the system clipboard ({name}) did not take the text")


def caution(text: str) -> str:
    """What to check before sending a text copied through OSC 52: how it begins."""
    first = text.strip().split("\n", 1)[0].strip()
    start = first if len(first) <= QUOTED else first[:QUOTED].rstrip() + "…"
    return (f"The terminal's clipboard cannot be read back: if what you paste does not begin "
            f"\"{start}\", your terminal did not take it and the clipboard still holds what it "
            "held before: do not send that.")


def _put_and_read_back(put: Callable[[str], None], get: Callable[[], str], text: str) -> bool:
    """Whether the system's clipboard holds ``text`` once ``put`` gave it: read back until
    it does, a bounded number of times (a clipboard program may take the selection a
    moment after it returned)."""
    try:
        with _quiet():  # xclip lives on, serving the text: not on our output streams
            put(text)
    except Exception:  # noqa: BLE001 - a clipboard program that fails
        return False
    for _ in range(READ_BACKS):
        try:
            if get() == text:
                return True
        except Exception:  # noqa: BLE001 - one that cannot read back (yet)
            pass
        time.sleep(READ_BACK_PAUSE)
    return False


def _system() -> tuple[str, Callable[[str], None], Callable[[], str]] | None:
    """pyperclip's copy and paste for this platform, if it has a clipboard (its stand-in
    for none is false)."""
    import pyperclip  # type: ignore[import-untyped]  # no stubs; used here only

    put, get = pyperclip.determine_clipboard()
    if not put:
        return None
    name = getattr(put, "__name__", "") or type(put).__name__
    return name.removeprefix("copy_") or "pyperclip", put, get


def _terminal(text: str, why: str) -> Copied:
    """``text`` to the terminal's clipboard with OSC 52, written to ``/dev/tty``; ``why``
    says why the system's clipboard was not used."""
    sequence = osc52(text, bool(os.environ.get("TMUX")))
    if len(sequence) > MAX_OSC52:
        raise BadInput(f"nothing was recorded: the text is too long for the terminal's "
                       f"clipboard ({len(sequence)} bytes as OSC 52, at most {MAX_OSC52}) "
                       "and no system clipboard was found; run `shmod send` without --copy")
    try:
        fd = os.open(TTY, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise BadInput(f"nothing was recorded: {why} and there is no "
                       f"terminal to copy through ({TTY}: {err.strerror}); run `shmod "
                       "send` without --copy") from None
    try:
        os.write(fd, sequence)
    finally:
        os.close(fd)
    return Copied("the terminal's clipboard (OSC 52" + (", through tmux)" if os.environ.get(
        "TMUX") else ")"), caution(text))


@contextmanager
def _quiet() -> Iterator[None]:
    """Standard output and error pointed at the null device while a clipboard program is
    started: one that stays to serve the text (xclip) must not hold our pipes open."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(fd) for fd in (1, 2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            os.dup2(null, fd)
        yield
    finally:
        for fd, old in zip((1, 2), saved):
            os.dup2(old, fd)
            os.close(old)
        os.close(null)
