"""The YAML game log on disk: safe bounded loading, line numbers, the hash chain,
and locked, fsync'd, append-only writes.

The file is a YAML mapping whose last key is ``log:``; each entry below it is one line
``- {kind: …, by: …, at: …, hash: …}``. shmod never rewrites a byte it wrote before.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import yaml

from shmod.errors import LogError

MAX_BYTES = 2 * 1024 * 1024
HASH_LEN = 32
MAX_DEPTH = 1000
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LOG_LINE = re.compile(r"^log:[ \t]*(#.*)?$")
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.'-]*(?: [A-Za-z0-9_.'-]+)*$")
_RESERVED = {"y", "n", "yes", "no", "true", "false", "on", "off", "null"}


class _StrictLoader(_Loader):  # type: ignore[misc, valid-type]
    """Plain data only: safe tags, no anchors/aliases, no merge keys."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "anchors and aliases (&, *) are not allowed in a game log",
                node.start_mark)
        return super().construct_object(node, deep)

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        for key, _ in node.value:
            if key.tag == "tag:yaml.org,2002:merge":
                raise yaml.constructor.ConstructorError(
                    None, None, "merge keys (<<) are not allowed in a game log", key.start_mark)
        super().flatten_mapping(node)


_STR, _MAP, _SEQ = (f"tag:yaml.org,2002:{t}" for t in ("str", "map", "seq"))


class _NotPlain(Exception):
    """The document needs PyYAML's general constructor."""


class _PlainLoader(_Loader):  # type: ignore[misc, valid-type]
    """For documents without anchors, aliases or merge keys (checked by the caller):
    builds plain maps, lists and strings directly, with the same result as the safe
    constructor; anything else (other tags, non-scalar keys) falls back to it."""

    def construct_document(self, node: yaml.Node) -> Any:
        try:
            return self._plain(node)
        except _NotPlain:
            return super().construct_document(node)

    def _plain(self, node: yaml.Node) -> Any:
        tag = node.tag
        if isinstance(node, yaml.ScalarNode):
            return node.value if tag == _STR else self.construct_object(node)
        if isinstance(node, yaml.MappingNode) and tag == _MAP:
            out = {}
            for key, value in node.value:
                if not isinstance(key, yaml.ScalarNode) or (
                        key.tag != _STR and key.tag.endswith(("merge", "value"))):
                    raise _NotPlain
                out[self._plain(key)] = self._plain(value)
            return out
        if isinstance(node, yaml.SequenceNode) and tag == _SEQ:
            return [self._plain(item) for item in node.value]
        raise _NotPlain


@dataclass
class LogFile:
    """A log as read: header mapping, raw entries with their line numbers."""

    path: str
    header: dict[str, Any]
    entries: list[Any]
    lines: list[int]
    size: int
    torn: bool = False
    warnings: list[str] = field(default_factory=list)

    def line_of(self, index: int) -> int:
        """The file line of entry ``index`` (0-based)."""
        return self.lines[index] if index < len(self.lines) else 0


def read(path: str) -> LogFile:
    """Read and parse ``path`` as a game log (form only; :mod:`shmod.game` replays it)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise LogError(path, None, "no such game log (create one with `shmod new`)") from None
    except OSError as err:
        raise LogError(path, None, f"cannot read: {err.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise LogError(path, None, "not a regular file")
    if info.st_size > MAX_BYTES:
        raise LogError(path, None, f"{info.st_size} bytes is too large for a game log "
                       f"(the limit is {MAX_BYTES})")
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    return parse(path, data)


def parse(path: str, data: bytes) -> LogFile:
    """Parse the bytes of a log. Errors carry the file and line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise LogError(path, line, "not UTF-8 text") from None
    torn = bool(text) and not text.endswith("\n")
    last_line = text.count("\n") + 1
    try:
        if _too_deep(text):
            raise LogError(path, None, "malformed YAML: nested too deeply")
        # Anchors, aliases and merge keys need these characters; without them the
        # plain safe loader gives the same result, faster.
        strict = "&" in text or "*" in text or "<<" in text
        doc = yaml.load(text, Loader=_StrictLoader if strict else _PlainLoader)  # noqa: S506
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        if err.context_mark and (err.context or "").startswith("while parsing a flow"):
            mark = err.context_mark  # an unclosed one-line entry: its own line, not the next
        line = mark.line + 1 if mark else None
        if torn and (line is None or line >= last_line - 1):
            raise LogError(path, last_line, _TORN) from None
        problem = err.problem or err.context or "malformed YAML"
        raise LogError(path, line, f"malformed YAML: {problem}") from None
    except yaml.YAMLError as err:
        raise LogError(path, None, f"malformed YAML: {err}") from None
    except RecursionError:
        raise LogError(path, None, "malformed YAML: nested too deeply") from None
    if not isinstance(doc, dict):
        raise LogError(path, 1, "a game log is a YAML mapping (players, secret, log)")
    entries = doc.pop("log", None)
    if entries is None:
        entries = []
    if not isinstance(entries, list):
        raise LogError(path, None, "'log' must be a list of entries")
    lines = _entry_lines(text, len(entries))
    if lines is None:
        lines = _entry_lines_slow(text)
    log = LogFile(path, doc, entries, lines, len(data), torn)
    if torn and entries and not isinstance(entries[-1], dict):
        raise LogError(path, last_line, _TORN)
    return log


def _too_deep(text: str) -> bool:
    """Nesting deeper than :data:`MAX_DEPTH` (libyaml's composer would overflow the C
    stack and crash on some tens of thousands of levels). Only texts with that many
    nesting indicators are walked event by event."""
    indicators = sum(text.count(c) for c in ("[", "{", "- ", "-\n", "-\t", "? ", "?\n", "?\t"))
    if indicators <= MAX_DEPTH:
        return False
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    return True
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return False  # the loader reports it, with its line
    return False


_TORN = ("torn final entry: the last line was cut off mid-write (shmod was interrupted?); "
         "nothing is built on it until `shmod repair` moves it aside")


def _entry_lines(text: str, count: int) -> list[int] | None:
    """Fast path: entries are the column-0 ``- `` lines after ``log:``."""
    lines: list[int] = []
    in_log = False
    for number, line in enumerate(text.splitlines(), 1):
        if not in_log:
            in_log = bool(_LOG_LINE.match(line))
        elif line.startswith("-") and (len(line) == 1 or line[1] in " \t"):
            lines.append(number)
        elif line and not line[0].isspace() and not line.startswith("#"):
            return None
    return lines if len(lines) == count else None


def _entry_lines_slow(text: str) -> list[int]:
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    for key, value in node.value:
        if key.value == "log" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


# -- the hash chain -----------------------------------------------------------------


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              default=str)


def canonical(value: Any) -> bytes:
    """The canonical bytes of a mapping: JSON, sorted keys, no spaces, UTF-8."""
    return _CANONICAL.encode(value).encode()


def header_link(header: dict[str, Any]) -> str:
    """The chain's starting value: a hash of the whole header."""
    return hashlib.sha256(b"shmod-header\n" + canonical(header)).hexdigest()[:HASH_LEN]


def link(previous: str, entry: dict[str, Any]) -> str:
    """An entry's hash: SHA-256 of the previous link, a newline and the entry (less
    its ``hash``) as canonical JSON, as hex, first 32 digits."""
    body = {k: v for k, v in entry.items() if k != "hash"}
    return hashlib.sha256(previous.encode() + b"\n" + canonical(body)).hexdigest()[:HASH_LEN]


# -- writing ------------------------------------------------------------------------


def scalar(value: Any) -> str:
    """One YAML flow scalar that reads back as ``value``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(value: Any) -> str:
    """A value as one line of YAML flow style."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def entry_line(entry: dict[str, Any]) -> str:
    return "- " + flow(entry) + "\n"


def header_text(header: dict[str, Any]) -> str:
    """The header of a new log, block style, readable, ending with ``log:``."""
    secret = header["secret"]
    out = [
        "# shmod game log. Append-only: shmod adds one line per step at the end, and a",
        "# moderator may append entries by hand. SECRET until the game is over: it holds",
        "# every role and the order of the deck. Format: docs/log-format.md",
        f"shmod: {header['shmod']}",
        f"created: {scalar(header['created'])}",
        "players:  # seating order",
        *[f"- {scalar(name)}" for name in header["players"]],
        f"variants: {flow(header['variants'])}",
        f"first_president: {scalar(header['first_president'])}",
        "secret:",
    ]
    if "custom" in header:
        out.insert(-1, f"custom: {flow(header['custom'])}")
    if "commitment" in header:
        out.insert(-1, f"commitment: {scalar(header['commitment'])}  # post it in the opening post")
    for key in ("seed", "salt"):
        if secret.get(key) is not None:
            out.append(f"  {key}: {scalar(secret[key])}")
    out.append("  roles:")
    out += [f"    {scalar(name)}: {scalar(role)}" for name, role in secret["roles"].items()]
    out.append(f"  deck: {flow(secret['deck'])}  # top first")
    out.append("log:")
    return "\n".join(out) + "\n"


def create(path: str, text: str) -> None:
    """Write a new log, readable by its owner only (0600); never overwrite one."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise LogError(path, None, "a game log already exists here; shmod never "
                       "overwrites one") from None
    except OSError as err:
        raise LogError(path, None, f"cannot create: {err.strerror}") from None
    try:
        os.fchmod(fd, 0o600)
        _write_all(fd, text.encode())
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def locked(path: str) -> Iterator[int]:
    """Hold the OS's exclusive lock (flock) on the log for a read-check-append cycle."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
    except FileNotFoundError:
        raise LogError(path, None, "no such game log (create one with `shmod new`)") from None
    except OSError as err:
        raise LogError(path, None, f"cannot open for appending: {err.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def append(fd: int, text: str) -> None:
    """Append ``text`` in one write, then fsync, on a locked descriptor."""
    _write_all(fd, text.encode())
    os.fsync(fd)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        written = os.write(fd, data)
        data = data[written:]
