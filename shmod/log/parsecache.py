"""A private cache of parsed logs: a command that reads a log it has seen (``status``,
``prods``, ``post``) skips PyYAML, its import and its parse.

What is kept, per log, is what :func:`shmod.log.logfile.parse` returned for the log's bytes
(header, entries, line numbers). The cache only ever saves time; a problem with it means
it is not used, never that a command fails or sees something the log does not hold:

- **Where.** A folder (``$XDG_CACHE_HOME/shmod``, else ``~/.cache/shmod``;
  ``%LOCALAPPDATA%\\shmod`` on Windows; ``SHMOD_CACHE=DIR`` or ``off``), one file per log,
  holding what the log holds. Like ssh with its key files, shmod uses the folder only if
  it is a real folder (not a link) owned by the user and closed to others
  (``mode & 0o077 == 0``), and a file in it only if it is a regular file, owned by the
  user, closed to others and small; otherwise the cache is neither read nor written.
  Files are opened without following a link and without blocking (a FIFO is refused,
  not waited on), relative to the open folder, so the path cannot be swapped in between.
- **What is trusted.** A file is the stamp's digest, then the parse as JSON. The digest
  is a BLAKE2b keyed with the *stamp*: a digest of the log's exact bytes and of the code
  that parses them (the modules of the layers below, PyYAML, Python). It is checked
  before a byte of JSON is decoded, so a damaged or stale file is refused unread, and JSON
  cannot allocate more than a small multiple of the file's size (unlike ``marshal``). The
  JSON encoding keeps every type of a parse (:func:`_encode`), and a parse is kept only
  if it decodes back exactly, types and order included.
- **Writing.** A temporary file with an unpredictable name is created exclusively
  (``O_CREAT | O_EXCL | O_NOFOLLOW``, 0600) in the checked folder, then renamed over the
  cache file (``os.replace``): a link planted in the folder is never written through.
- **Bounded.** The folder keeps at most :data:`MAX_FILES` parses (64 MiB at most, a few
  MB as logs go): writing one more removes the ones written longest ago. Files that are
  not the cache's own (by name) are never touched.
- **Still not the log.** Whoever can write the folder can forge a correct stamp, so a hit
  is used only when :func:`shmod.log.logfile.anchored` pins it to the log's bytes and
  :func:`shmod.log.store.load` replays it with no chain note; a step is recorded from the
  log's own bytes only (:func:`shmod.log.store.record`), and ``shmod audit`` never reads
  the cache. Shell completion reads it but never writes it.

*Windows* has no ``O_NOFOLLOW``, no folder descriptors and no owner or mode bits in
``st_mode``: there the folder must be a real folder and a file a regular file, and the
folder's access list (a folder under the user's profile) is what keeps it private; the
owner and mode checks are skipped. Deleting the cache is always safe.
"""
from __future__ import annotations

import json
import os
import stat
import sys
from typing import Any

from shmod.base import digest, patterns
from shmod.log import oslock

FORMAT = 2
MAGIC = f"shmod parse cache {FORMAT}\n".encode()
DIGEST = 32  # bytes of BLAKE2b after the magic
MAX_BYTES = 1024 * 1024  # a 256 KiB log's parse is about as long as JSON; larger: not kept
MAX_FILES = 64  # parses kept: the games in play and the last few read; the oldest go first
#: The cache's own files: a parse, and a temporary file being written (or left by a crash).
_OWN = patterns.later(r"[0-9a-f]{24}\.parsed"
                      r"|\.[0-9a-f]{24}\.(?:parsed|seen|gitattr)\.[0-9a-f]{16}\.tmp")
STALE_TEMP = 60.0  # seconds after which a temporary file is a crash's leftover
#: The packages whose code decides what a log parses to: the log layer and the layers
#: below it, all a log layer module may import (docs/architecture.md). A change to any of
#: their files (a new shmod, an edited checkout) makes every cached parse stale.
_LAYERS = ("base", "game", "forum", "log")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX only
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_PRIVATE = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOINHERIT", 0)  # not inherited
_READ = os.O_RDONLY | _NOFOLLOW | oslock.NONBLOCK | oslock.BINARY | _PRIVATE
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | oslock.BINARY | _PRIVATE
#: Files named relative to an open folder (POSIX); Windows names them by path.
_DIR_FD = {os.open, os.rename, os.unlink} <= os.supports_dir_fd
_TUPLE, _DICT = "\0t", "\0d"  # tags; no key of a plain JSON object here starts with "\0"

Parsed = tuple[dict[str, Any], list[Any], list[int], dict[str, int], bool, str]


def folder() -> str | None:
    """Where the cache lives, or None when it is off."""
    setting = os.environ.get("SHMOD_CACHE")
    if setting is not None:
        return None if setting.strip().lower() in ("", "off", "0", "no", "false") else setting
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "shmod") if base else None


def located(path: str) -> tuple[str, str] | None:
    """The cache folder and the name in it of the log at ``path``; None when off."""
    where = folder()
    if where is None:
        return None
    real = os.path.realpath(path).encode("utf-8", "surrogateescape")
    return where, digest.blake2b(real, digest_size=12).hexdigest() + ".parsed"


def get(path: str, data: bytes) -> Parsed | None:
    """The cached parse of ``data``, the bytes of the log at ``path``, if there is one."""
    place = located(path)
    opened = _Folder.open(place[0]) if place else None
    if place is None or opened is None:
        return None
    try:
        blob = opened.read(place[1])
    finally:
        opened.close()
    return None if blob is None else unsealed(blob, data)


def put(path: str, data: bytes, parsed: Parsed) -> None:
    """Keep ``parsed``, the parse of ``data``, for the log at ``path``. Never fails: a
    cache that cannot be written safely is simply not used."""
    place = located(path)
    blob = sealed(parsed, data) if place else None
    if place is None or blob is None:
        return
    try:
        os.makedirs(place[0], mode=0o700, exist_ok=True)
    except (OSError, RecursionError):  # makedirs recurses once per missing folder
        return
    opened = _Folder.open(place[0])
    if opened is not None:
        try:
            opened.write(place[1], blob)
            opened.trim(place[1])
        finally:
            opened.close()


def read_beside(path: str, suffix: str) -> bytes | None:
    """The private file the cache folder keeps for the log at ``path`` under ``suffix``
    (:mod:`shmod.log.seen`'s ``.seen``), read as a parse is: only a small, regular file
    of this user's, closed to others, in a folder that is too. Never evicted like a parse."""
    place = located(path)
    opened = _Folder.open(place[0]) if place else None
    if place is None or opened is None:
        return None
    try:
        return opened.read(place[1].removesuffix(".parsed") + suffix)
    finally:
        opened.close()


def write_beside(path: str, suffix: str, blob: bytes) -> None:
    """Replace the file :func:`read_beside` reads by ``blob``; never fails (a folder that
    cannot be written safely is simply not used)."""
    place = located(path)
    if place is None or len(blob) > MAX_BYTES:
        return
    try:
        os.makedirs(place[0], mode=0o700, exist_ok=True)
    except (OSError, RecursionError):
        return
    opened = _Folder.open(place[0])
    if opened is not None:
        try:
            opened.write(place[1].removesuffix(".parsed") + suffix, blob)
        finally:
            opened.close()


def remove_beside(path: str, suffix: str) -> bool:
    """Remove the file :func:`read_beside` reads; whether there was one."""
    place = located(path)
    opened = _Folder.open(place[0]) if place else None
    if place is None or opened is None:
        return False
    try:
        opened._unlink(place[1].removesuffix(".parsed") + suffix)
    except OSError:
        return False
    finally:
        opened.close()
    return True


# -- the file: digest, then JSON ------------------------------------------------------


def sealed(parsed: Parsed, data: bytes) -> bytes | None:
    """The cache file for ``parsed``, the parse of ``data``; None if it would not decode
    back exactly (a type JSON cannot keep, a float NaN) or is too large."""
    try:
        payload = json.dumps(_encode(parsed), ensure_ascii=False, separators=(",", ":"),
                             allow_nan=False).encode("utf-8")
        if not same(_decode(payload), parsed):
            return None
    except (TypeError, ValueError, RecursionError):
        return None
    blob = MAGIC + _digest(payload, data) + payload
    return blob if len(blob) <= MAX_BYTES else None


def unsealed(blob: bytes, data: bytes) -> Parsed | None:
    """The parse a cache file holds, if its digest matches ``data`` and the code; the
    JSON is decoded only then."""
    start = len(MAGIC) + DIGEST
    if len(blob) < start or not blob.startswith(MAGIC):
        return None
    payload = blob[start:]
    if blob[len(MAGIC):start] != _digest(payload, data):
        return None
    try:
        parsed = _decode(payload)
    except (ValueError, TypeError, RecursionError):  # only a forged file gets this far
        return None
    return parsed if _well_formed(parsed) else None


def _digest(payload: bytes, data: bytes) -> bytes:
    return digest.blake2b(payload, digest_size=DIGEST, key=_stamp(data)).digest()


def _encode(value: Any) -> Any:
    """``value`` as JSON data, tagged where JSON would lose its type: a tuple, and a
    mapping with a key that is not text (or that starts with a tag's ``\\0``)."""
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(item) for item in value]}
    if isinstance(value, dict):
        if all(type(key) is str and not key.startswith("\0") for key in value):
            return {key: _encode(item) for key, item in value.items()}
        return {_DICT: [[_encode(key), _encode(item)] for key, item in value.items()]}
    if value is None or type(value) in (str, int, float, bool):
        return value
    raise TypeError(f"a parse holds no {type(value).__name__}")


def _untag(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        if _TUPLE in obj:
            return tuple(obj[_TUPLE])
        if _DICT in obj:
            return {key: item for key, item in obj[_DICT]}
    return obj


_DECODER = json.JSONDecoder(object_hook=_untag)


def _decode(payload: bytes) -> Any:
    return _DECODER.decode(payload.decode("utf-8"))


def same(one: Any, other: Any) -> bool:
    """Equal, and of the same types throughout, in the same order (``1 == True`` and
    ``[1] == [1.0]`` are not the same parse)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, dict):
        return len(one) == len(other) and all(
            same(k1, k2) and same(v1, v2) for (k1, v1), (k2, v2) in zip(one.items(), other.items()))
    if isinstance(one, (list, tuple)):
        return len(one) == len(other) and all(map(same, one, other))
    return bool(one == other)


def _well_formed(parsed: Any) -> bool:
    return (type(parsed) is tuple and len(parsed) == 6 and type(parsed[0]) is dict
            and type(parsed[1]) is list and type(parsed[2]) is list
            and all(type(line) is int for line in parsed[2])
            and type(parsed[3]) is dict and type(parsed[4]) is bool
            and type(parsed[5]) is str)


def _stamp(data: bytes) -> bytes:
    """The digest of the log's bytes and of the code (and PyYAML) that parses them."""
    stamp = digest.blake2b(data, digest_size=32)
    code = code_files()
    yaml_spec = _yaml_origin()
    if yaml_spec:
        code.append(yaml_spec)
    for name in code:
        try:
            info = os.stat(name)
        except OSError:
            continue
        stamp.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\0".encode(
            "utf-8", "surrogateescape"))
    stamp.update(f"{FORMAT}\0{sys.version}".encode())
    return bytes(stamp.digest())


def code_files() -> list[str]:
    """Every module of the layers in :data:`_LAYERS`, in a fixed order."""
    found = []
    for layer in _LAYERS:
        where = os.path.join(_PACKAGE, layer)
        try:
            found += sorted(os.path.join(where, name) for name in os.listdir(where)
                            if name.endswith(".py"))
        except OSError:
            continue
    return found


def _yaml_origin() -> str | None:
    """The file of the installed PyYAML, found without importing it."""
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec("yaml")
    return spec.origin if spec is not None else None


# -- the folder -----------------------------------------------------------------------


def _user() -> int:
    return os.geteuid()


def private(info: os.stat_result) -> bool:
    """Owned by this user and closed to others (POSIX; on Windows the folder's access
    list decides, which shmod does not read)."""
    return not oslock.PERMISSIONS or (info.st_uid == _user() and not info.st_mode & 0o077)


class _Folder:
    """The cache folder, checked and open: its files are named relative to it (``dir_fd``)
    where the OS allows, so another folder cannot be swapped in after the check."""

    def __init__(self, path: str, fd: int | None) -> None:
        self.path = path
        self.fd = fd

    @classmethod
    def open(cls, path: str) -> _Folder | None:
        """The folder at ``path`` if it is a real folder (not a link) and :func:`private`."""
        try:
            if not _DIR_FD:
                info = os.lstat(path)
                usable = stat.S_ISDIR(info.st_mode) and private(info)
                return cls(path, None) if usable else None
            fd = os.open(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _PRIVATE)
        except OSError:
            return None
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode) and private(info):
            return cls(path, fd)
        os.close(fd)
        return None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)

    def _open(self, name: str, flags: int) -> int:
        if self.fd is None:
            return os.open(os.path.join(self.path, name), flags, 0o600)
        return os.open(name, flags, 0o600, dir_fd=self.fd)

    def _replace(self, name: str, by: str) -> None:
        if self.fd is None:
            os.replace(os.path.join(self.path, by), os.path.join(self.path, name))
        else:
            os.replace(by, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def _unlink(self, name: str) -> None:
        if self.fd is None:
            os.unlink(os.path.join(self.path, name))
        else:
            os.unlink(name, dir_fd=self.fd)

    def read(self, name: str) -> bytes | None:
        """The file ``name``'s bytes if it is a small, regular, private file; never
        follows a link or waits on a FIFO."""
        try:
            with open(self._open(name, _READ), "rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode) or not private(info) \
                        or info.st_size > MAX_BYTES:
                    return None
                return handle.read(info.st_size)  # not a byte more than it has
        except OSError:
            return None

    def trim(self, kept: str) -> None:
        """Remove the parses written longest ago beyond :data:`MAX_FILES` (never ``kept``,
        the one just written), and temporary files a crash left behind."""
        try:
            names = [n for n in os.listdir(self.path if self.fd is None else self.fd)
                     if _OWN.fullmatch(n)]
        except OSError:
            return
        if len(names) <= MAX_FILES:
            return
        import time

        parses: list[tuple[float, str]] = []
        leftovers: list[str] = []
        for name in names:
            try:
                info = (os.lstat(os.path.join(self.path, name)) if self.fd is None
                        else os.stat(name, dir_fd=self.fd, follow_symlinks=False))
            except OSError:
                continue
            if name.endswith(".tmp"):
                if time.time() - info.st_mtime > STALE_TEMP:
                    leftovers.append(name)
            elif name != kept:
                parses.append((info.st_mtime, name))
        oldest = [name for _, name in sorted(parses)[:max(0, len(parses) + 1 - MAX_FILES)]]
        for name in leftovers + oldest:
            try:
                self._unlink(name)
            except OSError:
                pass

    def write(self, name: str, blob: bytes) -> None:
        """Replace the file ``name`` by ``blob``, through a new private temporary file
        with an unpredictable name."""
        temp = f".{name}.{os.urandom(8).hex()}.tmp"
        try:
            fd = self._open(temp, _CREATE)
        except OSError:
            return
        try:
            with open(fd, "wb") as handle:
                handle.write(blob)
            self._replace(name, temp)
        except OSError:
            try:
                self._unlink(temp)
            except OSError:
                pass
