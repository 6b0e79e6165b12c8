"""The YAML game log on disk: safe bounded loading, line numbers, the hash chain,
and locked, fsync'd, append-only writes.

The file is a YAML mapping whose last key is ``log:``; each entry below it is one line
``- {kind: …, by: …, at: …, hash: …}``. shmod never rewrites a byte it wrote before.
"""
from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from shmod.base import digest, patterns, plaintext
from shmod.base.errors import BadInput, LogError
from shmod.base.records import Record, field
from shmod.log import oslock

MAX_BYTES = 256 * 1024  # a 10-player game is ~25 KB; a long one with every aid under 100 KB
LOCK_TIMEOUT = 30.0  # seconds to wait for another shmod's write to finish
HASH_LEN = 32
_LOG_LINE = patterns.later(r"^log:[ \t]*(#.*)?$")
_PLAIN = patterns.later(r"^[A-Za-z_][A-Za-z0-9_.'-]*(?: [A-Za-z0-9_.'-]+)*$")
_RESERVED = {"y", "n", "yes", "no", "true", "false", "on", "off", "null"}
_KEY_LINE = patterns.later(r"^\s*([A-Za-z_]+)\s*:")
_KIND = patterns.later(r"kind:\s*([a-z_]+)")


class LogWarning(UserWarning):
    """Something the moderator should fix that does not stop shmod (e.g. file mode)."""


class TornTail(LogError):
    """The log's last line was cut off mid-write; ``shmod repair`` moves it aside."""


class LogFile(Record, frozen=False):
    """A log as read: header mapping, raw entries with their line numbers."""

    path: str
    header: dict[str, Any]
    entries: list[Any]
    lines: list[int]
    size: int
    torn: bool = False
    warnings: list[str] = field(default_factory=list)
    key_lines: dict[str, int] = field(default_factory=dict)
    tail: str = ""
    data: bytes = b""  # the bytes read: a new entry is read back after them before it is written
    cached: bool = False  # the parse came from the parse cache, not from parsing ``data``

    def line_of(self, index: int) -> int:
        """The file line of entry ``index`` (0-based)."""
        return self.lines[index] if index < len(self.lines) else 0

    def header_line(self, message: str) -> int:
        """The line of the header field a header problem is most likely about (else 1)."""
        words = message.replace("R-ROLES", "roles").replace("R-DECK", "deck")
        words = words.replace("R-COUNT", "players").replace("player name", "players")
        for key in ("first_president", "players", "variants", "roles", "deck", "seed", "salt",
                    "deal", "secret", "created", "shmod"):
            if key in words and key in self.key_lines:
                return self.key_lines[key]
        return 1

    def torn_error(self) -> TornTail:
        """The error for this log's cut-off last line: where it is and what was cut."""
        return torn_error(self.path, self.tail)


def torn_error(path: str, tail: str) -> TornTail:
    """A :class:`TornTail` for a log whose cut-off last line is ``tail``."""
    kind = _KIND.search(tail)
    what = "an entry"
    if kind:
        from shmod.forum.engine import noun as noun_of  # only on this error: words for it
        from shmod.log.entries import STEPS

        step = STEPS.get(kind.group(1))
        noun = noun_of(step) if step else None
        what = f"the entry for {noun}" if noun else what
    size = len(tail.encode("utf-8", "replace"))
    return TornTail(path, None, f"torn final entry: the last line ({size} bytes of {what}) "
                    "was cut off mid-write (shmod was interrupted?); nothing is built on it "
                    "until `shmod repair` moves it aside")


def read(path: str, *, cached: bool = False) -> LogFile:
    """Read and parse ``path`` as a game log (form only; :mod:`shmod.log.store` replays it).

    With ``cached``, the parse of exactly these bytes may come from the moderator's
    private cache (:func:`parse_cached`; ``audit`` does not use it).
    ``LogFile.warnings`` notes a file others may read; :func:`shmod.log.store.load` warns
    about it while the game is still secret (a finished game's log may be published).
    """
    data, info = read_bytes(path, MAX_BYTES, "no such game log (create one with `shmod new`)")
    log = parse_cached(path, data) if cached else parse(path, data)
    if oslock.others_may_read(info):
        note = (f"{path} can be read by others (mode {stat.S_IMODE(info.st_mode):04o}) but "
                f"holds every secret of the game; make it private with: chmod 600 {path}")
        log.warnings.append(note)
    return log


def parse_cached(path: str, data: bytes) -> LogFile:
    """The cached parse of exactly ``data`` (:mod:`shmod.log.parsecache`) if there is one
    and it is :func:`anchored` in ``data``, else :func:`parse`. Nothing is kept here:
    :func:`shmod.log.store.load` keeps a parse once it has replayed it cleanly."""
    from shmod.log import parsecache

    hit = parsecache.get(path, data)
    if hit is not None:
        header, entries, lines, keys, torn, tail = hit
        log = LogFile(path, header, entries, lines, len(data), torn, key_lines=keys,
                      tail=tail, data=data, cached=True)
        if anchored(log):
            return log
    return parse(path, data)


def reparse(log: LogFile) -> LogFile:
    """:func:`parse` of the bytes ``log`` was read from, with its warnings."""
    fresh = parse(log.path, log.data)
    fresh.warnings = log.warnings
    return fresh


def keep(log: LogFile) -> None:
    """Cache the parse of a log's bytes (:mod:`shmod.log.parsecache`), if it is
    :func:`anchored` in them (else the cache could never use it)."""
    from shmod.log import parsecache

    if anchored(log):
        parsecache.put(log.path, log.data, (log.header, log.entries, log.lines,
                                            log.key_lines, log.torn, log.tail))


def anchored(log: LogFile) -> bool:
    """Whether a parse is pinned to the log's bytes, so that if it also replays with no
    chain note (:func:`shmod.log.store.load`) it is what those bytes say, up to SHA-256:
    every entry carries a hash found on the entry's own line, lines in order, the last
    entry on the file's last line (none dropped); the header is pinned by the first
    entry's hash, or for a log without entries must be byte for byte shmod's header text.
    A log in another form (hand-added lines, a torn end) is simply parsed each time."""
    data = log.data
    if log.torn or log.tail or log.size != len(data) or not data.endswith(b"\n") \
            or len(log.lines) != len(log.entries):
        return False
    if not log.entries:
        try:
            return data == header_text(log.header).encode("utf-8")
        except Exception:  # noqa: BLE001 - a cached header of any shape: simply not used
            return False
    rows = data.split(b"\n")
    if log.lines[-1] != len(rows) - 1:
        return False
    previous = 0
    for entry, line in zip(log.entries, log.lines):
        stored = entry.get("hash") if isinstance(entry, dict) else None
        if not (isinstance(stored, str) and len(stored) == HASH_LEN and previous < line
                and stored.encode("utf-8") in rows[line - 1]):
            return False
        previous = line
    return True


def read_bytes(path: str, limit: int, missing: str) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file ``path`` (at most ``limit``), without ever blocking on
    a FIFO or a device put in its place."""
    try:
        flags = os.O_RDONLY | oslock.NONBLOCK | oslock.BINARY
        with os.fdopen(os.open(path, flags), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise LogError(path, None, "not a regular file")
            if info.st_size > limit:
                raise too_large(path, info.st_size, limit)
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise LogError(path, None, missing) from None
    except IsADirectoryError:
        raise LogError(path, None, "is a folder, not a file") from None
    except OSError as err:
        raise LogError(path, None, f"cannot read: {err.strerror}") from None
    if len(data) > limit:
        raise too_large(path, len(data), limit)
    return data, info


def read_plain_yaml(path: str, limit: int = 64 * 1024) -> dict[str, Any]:
    """A small YAML mapping (a custom setup) read as strictly and safely as a log:
    bounded size and depth, plain data only, errors with file and line."""
    data, _ = read_bytes(path, limit, "no such file")
    if not data.endswith(b"\n"):
        data += b"\n"  # a hand-written file's last line is not a torn entry
    return parse(path, data, "must be a YAML mapping of setup fields").header


def too_large(path: str, size: int, limit: int = MAX_BYTES) -> LogError:
    what = "a game log" if limit == MAX_BYTES else "this file"
    return LogError(path, None, f"{size} bytes is too large for {what} (the limit is {limit})")


def parse(path: str, data: bytes,
          shape: str = "a game log is a YAML mapping (players, secret, log)") -> LogFile:
    """Parse the bytes of a log. Errors carry the file and line; ``shape`` says what the
    document must be when it is not a mapping."""
    if len(data) > MAX_BYTES:
        raise too_large(path, len(data))
    torn = bool(data) and not data.endswith(b"\n")
    text = _decoded(path, data, torn)
    last_line = text.count("\n") + 1
    tail = text[text.rfind("\n") + 1:] if torn else ""
    doc = _loaded(path, text, torn, tail, last_line)
    if not isinstance(doc, dict):
        raise LogError(path, 1, shape)
    keys = _key_lines(text)
    entries = doc.pop("log", None)
    if entries is None:
        entries = []
    if not isinstance(entries, list):
        raise LogError(path, keys.get("log", 1), "'log' must be a list of entries")
    from shmod.log import logyaml  # imported by _loaded already

    lines = _entry_lines(text, len(entries))
    if lines is None:
        lines = logyaml.entry_lines_slow(text)
    log = LogFile(path, doc, entries, lines, len(data), torn, key_lines=keys, tail=tail,
                  data=data)
    if len(entries) > logyaml.MAX_ENTRIES:
        raise logyaml.too_many_entries(path, log.line_of(logyaml.MAX_ENTRIES))
    if torn and entries and not isinstance(entries[-1], dict):
        raise at_line(log.torn_error(), last_line)
    if "\\" in text or plaintext.unsafe_in_file(text):
        _refuse_unsafe_text(log, text)
    return log


def _decoded(path: str, data: bytes, torn: bool) -> str:
    """The log's bytes as text, or an error at the line of the first that is not UTF-8 (a
    torn last line's, if it is there)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        if torn and b"\n" not in data[err.start:]:
            tail = data[data.rfind(b"\n") + 1:].decode("utf-8", "replace")
            raise at_line(torn_error(path, tail), line) from None
        raise LogError(path, line, "not UTF-8 text") from None


def _loaded(path: str, text: str, torn: bool, tail: str, last_line: int) -> Any:
    """The YAML document ``text`` holds, or an error with its line (a torn last line's, if
    the YAML breaks there)."""
    import yaml

    from shmod.log import logyaml

    try:
        logyaml.check_plain(path, text)
        return logyaml.load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        if err.context_mark and (err.context or "").startswith("while parsing a flow"):
            mark = err.context_mark  # an unclosed one-line entry: its own line, not the next
        marked = mark.line + 1 if mark else None
        if torn and (marked is None or marked >= last_line - 1):
            raise at_line(torn_error(path, tail), last_line) from None
        problem = err.problem or err.context or "malformed YAML"
        if "nesting depth" in problem:  # PyYAML >= 6.0.3 has a depth limit of its own
            problem = f"nested more than {logyaml.MAX_DEPTH} levels deep"
        raise LogError(path, marked, f"malformed YAML: {problem}") from None
    except yaml.reader.ReaderError as err:
        line = text[: err.position].count("\n") + 1
        raise LogError(path, line, f"not plain text: character #x{err.character:04x} "
                       "is not allowed") from None
    except yaml.YAMLError as err:
        raise LogError(path, 1, f"malformed YAML: {err}") from None
    except RecursionError:
        raise LogError(path, 1, "malformed YAML: nested too deeply") from None


def _refuse_unsafe_text(log: LogFile, text: str) -> None:
    """Refuse a string in ``log``'s header or entries, or a comment in ``text``, that a
    log may not hold: an escape can make a character the file does not show."""
    path, keys = log.path, log.key_lines
    for key, value in log.header.items():
        _refuse_unsafe(value, path, keys.get(str(key), 1), f"header {key}", key)
    for index, entry in enumerate(log.entries):
        _refuse_unsafe(entry, path, log.line_of(index), f"entry {index + 1}")
    found = plaintext.unsafe_in_file(text)
    if found is not None:  # in a comment
        raise LogError(path, text.count("\n", 0, found[0]) + 1,
                       f"{found[1]} is not allowed in a game log")


def check_strings(value: Any, where: str) -> None:
    """Refuse (:class:`BadInput`) what :func:`parse` would refuse in ``value``'s strings."""
    for text in _strings(value):
        problem = plaintext.unsafe(text)
        if problem:
            raise BadInput(f"{where}: {problem} is not allowed in a game log")


def _refuse_unsafe(value: Any, path: str, line: int, where: str, key: Any = "") -> None:
    """Refuse a string, anywhere in ``value`` (keys too), that a log may not hold
    (:func:`shmod.base.plaintext.unsafe`): a log may be printed on anyone's terminal."""
    for text in _strings(value, key):
        problem = plaintext.unsafe(text)
        if problem:
            raise LogError(path, line, f"{where}: {problem} is not allowed in a game log")


def _strings(value: Any, key: Any = "") -> Iterator[str]:
    if isinstance(key, str):
        yield key
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def at_line(error: LogError, line: int) -> LogError:
    """``error`` placed at ``line``."""
    return type(error)(error.path, line, error.reason, rule=error.rule)


def _key_lines(text: str) -> dict[str, int]:
    """The first line of each header key (up to ``log:``)."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = _KEY_LINE.match(line)
        if match:
            found.setdefault(match.group(1), number)
            if match.group(1) == "log" and not line[0].isspace():
                break
    return found


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


# -- the hash chain -----------------------------------------------------------------


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              default=str)


def canonical(value: Any) -> bytes:
    """The canonical bytes of a mapping: JSON, sorted keys, no spaces, UTF-8."""
    try:
        return _json(value)
    except TypeError:  # keys of mixed types (1 and "Alice") cannot be sorted: use their text
        return _json(_text_keys(value))


def _json(value: Any) -> bytes:
    return _CANONICAL.encode(value).encode()


def _text_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k if isinstance(k, str) else json.dumps(k, default=str): _text_keys(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_text_keys(v) for v in value]
    return value


def header_link(header: dict[str, Any]) -> str:
    """The chain's starting value: a hash of the whole header but the moderator's private
    signing key (``secret.signing_key``, format 2), which is never published, and, in a
    game dealt from the players' words, ``secret.roles``, which only the published log has
    (the roles the words dealt): the log ``shmod publish`` writes chains exactly as the
    moderator's own."""
    secret = header.get("secret")
    if isinstance(secret, dict) and header.get("deal") == "players" and "roles" in secret:
        header = {**header, "secret": {k: v for k, v in secret.items() if k != "roles"}}
    return digest.sha256_hex(b"shmod-header\n" + canonical(published(header)))[:HASH_LEN]


def published(header: dict[str, Any]) -> dict[str, Any]:
    """``header`` as it may be published: without ``secret.signing_key`` (format 2)."""
    secret = header.get("secret")
    if isinstance(secret, dict) and "signing_key" in secret:
        return {**header, "secret": {k: v for k, v in secret.items() if k != "signing_key"}}
    return header


def link(previous: str, entry: dict[str, Any]) -> str:
    """An entry's hash: SHA-256 of the previous link, a newline and the entry (less
    its ``hash``) as canonical JSON, as hex, first 32 digits."""
    body = {k: v for k, v in entry.items() if k != "hash"}
    return digest.sha256_hex(previous.encode() + b"\n" + canonical(body))[:HASH_LEN]


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
        *[f"{key}: {scalar(header[key])}" for key in ("title", "zone") if key in header],
        "players:  # seating order",
        *[f"- {scalar(name)}" for name in header["players"]],
        *([f"moderators: {flow(header['moderators'])}  # each entry names who recorded it"]
          if "moderators" in header else []),
        f"variants: {flow(header['variants'])}",
        *([f"deal: {scalar(header['deal'])}  # dealt once every player has posted a word"]
          if "deal" in header else []),
        *([f"first_president: {scalar(header['first_president'])}"]
          if "first_president" in header else []),
        *([f"first_chosen: {scalar(header['first_chosen'])}  # by the moderator, not drawn"]
          if "first_chosen" in header else []),
        "secret:",
    ]
    if "custom" in header:
        out.insert(-1, f"custom: {flow(header['custom'])}")
    if "commitment" in header:
        out.insert(-1, f"commitment: {scalar(header['commitment'])}  # post it in the opening post")
    if "forum" in header:
        out.insert(-1, f"forum: {scalar(header['forum'])}  # posts are written for this forum")
    if "language" in header:
        out.insert(-1, f"language: {scalar(header['language'])}  # players read this language")
    if "moderator_key" in header:
        out.insert(-1, f"moderator_key: {scalar(header['moderator_key'])}  # public: every "
                   "post's checkpoint is signed with it")
    if "seed_source" in header:
        out.insert(-1, f"seed_source: {scalar(header['seed_source'])}  # who chose the seed: "
                   "shmod (drawn) or the moderator")
    for key in ("seed", "salt"):
        if secret.get(key) is not None:
            out.append(f"  {key}: {scalar(secret[key])}")
    if "signing_key" in secret:
        out.append(f"  signing_key: {scalar(secret['signing_key'])}  # NEVER publish: "
                   "`shmod publish` writes the log without it")
    if "roles" in secret:
        out.append("  roles:")
        out += [f"    {scalar(name)}: {scalar(role)}" for name, role in secret["roles"].items()]
    if "deck" in secret:
        out.append(f"  deck: {flow(secret['deck'])}  # top first")
    out.append("log:")
    return "\n".join(out) + "\n"


def create(path: str, text: str) -> None:
    """Write a new log, readable by its owner only (0600); never overwrite one, nor write
    through a link. A folder that does not exist yet (``games/`` in an empty folder) is
    created. :func:`shmod.log.outfiles.write` writes it: a crash leaves either no log or
    the whole header, never half of one, and no temporary file holding the roles."""
    if os.path.lexists(path):
        if os.path.islink(path):
            where = ("a link to a file that does not exist" if not os.path.exists(path)
                     else f"a link (to {os.path.realpath(path)})")
            raise LogError(path, None, f"is {where}; shmod never writes through one: name "
                           "the new log's own file")
        if os.path.isdir(path):
            raise LogError(path, None, "is a folder, not a file; name the new log's file")
        if not os.path.isfile(path):
            raise LogError(path, None, "not a regular file")
        raise _taken(path)
    from shmod.log import outfiles  # only ``new`` writes a whole log

    try:
        outfiles.write(path, text.encode(), mode=0o600, replace=False)
    except FileExistsError:
        raise _taken(path) from None


def _taken(path: str) -> LogError:
    """The refusal of a new log's name where a file is: a game log, or what else it is
    (a hard link to another file names that file's content, not a log's)."""
    from shmod.log import outfiles

    try:
        info = os.stat(path)
    except OSError:
        info = None
    if outfiles.is_game_log(path) or info is None:
        return LogError(path, None, "a game log already exists here; shmod never "
                        "overwrites one")
    what = ("an empty file" if info.st_size == 0 else
            f"a file of {info.st_size} bytes that is not a game log")
    if info.st_nlink > 1:
        what += f" (one of {info.st_nlink} names of the same file: a hard link)"
    return LogError(path, None, f"is {what}; shmod never overwrites a file: name the new "
                    "log's own file")



def replace(path: str, data: bytes) -> None:
    """Put ``data`` in place of the game log ``path`` at once (a merged log): written by
    :func:`shmod.log.outfiles.write` beside it and renamed over it, so a crash leaves the
    old file or the new one, never half of one; readable by its owner only (0600)."""
    from shmod.log import outfiles

    try:
        outfiles.write(path, data, mode=0o600, replace=True, over_log=True)
    except BadInput as err:
        raise LogError(path, None, f"{err}; the file was left as it was") from None

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX only; islink checks first everywhere


def _linked(path: str) -> LogError:
    """The refusal of a log path that is a link, naming its target."""
    target = os.path.realpath(path)
    where = ("a link to a file that does not exist" if not os.path.exists(path)
             else f"a link (to {target})")
    return LogError(path, None, f"is {where}; shmod never writes through one: nothing was "
                    "recorded; name the log's own file")


def batch_note(path: str) -> str:
    """The note beside ``path`` that a write of several entries leaves while it runs
    (:func:`append`): ``.NAME.batch``, private, gone once the write is whole."""
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.batch")


def pending_batch(path: str) -> tuple[int, int, str] | None:
    """The write of several entries a crash cut off, as its note says: (where it starts,
    how many bytes, their SHA-256); None when no note is there. A note shmod cannot read
    is reported as a cut-off write at an unknown place."""
    try:
        with open(batch_note(path), "rb") as note:
            words = note.read(200).split()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise LogError(path, None, f"cannot read {batch_note(path)}: {err.strerror}") from None
    if len(words) == 4 and words[0] == b"shmod-batch" and words[1].isdigit() \
            and words[2].isdigit():
        return int(words[1]), int(words[2]), words[3].decode("ascii", "replace")
    raise LogError(path, None, f"{batch_note(path)} is not a note shmod wrote; move it away "
                   "if no shmod is writing to this log")


@contextmanager
def locked(path: str, timeout: float = LOCK_TIMEOUT, *, repairing: bool = False) -> Iterator[int]:
    """Hold the OS's exclusive lock on the log for a read-check-append cycle
    (:mod:`shmod.log.oslock`: flock on Unix, msvcrt.locking on Windows).

    Waits up to ``timeout`` seconds for another shmod to finish; the lock dies with its
    process, so it never goes stale. A log path that is a link is refused, naming where it
    points (and opened with ``O_NOFOLLOW`` where the system has it, so a link put in its
    place meanwhile is refused too): an append through ``g.yaml -> other.yaml`` would write
    into another game's log.
    """
    if os.path.islink(path):
        raise _linked(path)
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | oslock.BINARY | _NOFOLLOW)
    except FileNotFoundError:
        raise LogError(path, None, "no such game log (create one with `shmod new`)") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise _linked(path) from None
        raise LogError(path, None, f"cannot open for appending: {err.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LogError(path, None, "not a regular file")
        if not oslock.lock(fd, timeout):
            raise LogError(path, None, f"another shmod has been writing to this log for "
                           f"{timeout:.0f} s; nothing was recorded, try again")
        try:
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except OSError:
                same = False
            if not same:
                raise LogError(path, None, "the log was moved or replaced while shmod "
                               "waited for it; nothing was recorded, run the command again")
            if not repairing and pending_batch(path) is not None:
                raise LogError(path, None, "its last step was cut off while it was written (a "
                               "crash): `shmod repair` moves what of it was written aside, "
                               "whole; nothing was recorded")
            yield fd
        finally:
            oslock.unlock(fd)
    finally:
        os.close(fd)  # closing would release the lock too


def append(fd: int, text: str, path: str) -> None:
    """Append ``text`` (one step: every entry one command records) in one write, then
    fsync, on a locked descriptor.

    If the write fails part-way (a full disk), the bytes just written are cut off
    again, so the log is left as it was and nothing is recorded. A step of several entries
    (a batch of votes, a step and its post) is all or nothing across a crash too: a note
    beside the log (:func:`batch_note`: where the step starts, its length and SHA-256) is
    written and synced first and removed once the step is; a process killed inside the
    write (the system may have written some of its lines) leaves the note, every later
    write is refused, and ``shmod repair`` moves the part written aside, whole.
    """
    start = os.lseek(fd, 0, os.SEEK_END)
    data = text.encode()
    note = batch_note(path) if data.count(b"\n") > 1 else None
    if note is not None:
        from shmod.log import outfiles

        try:
            outfiles.write(note, f"shmod-batch {start} {len(data)} "
                           f"{digest.sha256_hex(data)}\n".encode(), mode=0o600)
        except BadInput as err:
            raise LogError(path, None, f"{err}; nothing was recorded") from None
    try:
        _write_all(fd, data)
        os.fsync(fd)
    except OSError as err:
        try:
            os.ftruncate(fd, start)
            left = "the log was left as it was"
        except OSError:
            left = "the log may end in a torn entry (`shmod repair` moves it aside)"
        else:
            _remove(note)
        raise LogError(path, None, f"cannot write: {err.strerror}; nothing was recorded "
                       f"and {left}") from None
    _remove(note)


def _remove(note: str | None) -> None:
    """Remove a write's note (:func:`batch_note`) once the log holds all of it or none."""
    if note is not None:
        try:
            os.unlink(note)
        except FileNotFoundError:
            pass


def _write_all(fd: int, data: bytes) -> None:
    while data:
        written = os.write(fd, data)
        data = data[written:]
