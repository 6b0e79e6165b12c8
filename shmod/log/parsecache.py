"""A private cache of parsed logs: a command that reads a log it has seen (``status``,
``prods``, ``post``, and the load before every step) skips PyYAML, its import and its parse.

What is kept, per log, is what :func:`shmod.log.logfile.parse` returned for the log's bytes
(header, entries, line numbers), stamped with a BLAKE2b digest of exactly those bytes and
of the code that parsed them. It is used only when the log's bytes, and that code, are
the same: a log changed by even one byte, or parsed by another version of shmod or PyYAML,
is parsed again. Only a successful parse is kept; a log that is refused is refused every
time. The replay (every rule, the hash chain) runs on every command as before; ``shmod
audit`` never uses the cache.

The cache is a folder readable by its owner only (``$XDG_CACHE_HOME/shmod``, else
``~/.cache/shmod``; ``%LOCALAPPDATA%\\shmod`` on Windows), one file per log, holding what
the log holds. ``SHMOD_CACHE=DIR`` puts it elsewhere, ``SHMOD_CACHE=off`` turns it off;
deleting it is always safe.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
from typing import Any

FORMAT = 1
MAX_BYTES = 8 * 1024 * 1024  # far above what a 256 KB log parses to
#: The packages whose code decides what a log parses to: the log layer and the layers
#: below it, all a log layer module may import (docs/architecture.md). A change to any of
#: their files (a new shmod, an edited checkout) makes every cached parse stale.
_LAYERS = ("base", "core", "log")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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


def _file(path: str) -> str | None:
    where = folder()
    if where is None:
        return None
    real = os.path.realpath(path).encode("utf-8", "surrogateescape")
    return os.path.join(where, hashlib.blake2b(real, digest_size=12).hexdigest() + ".parsed")


def _stamp(data: bytes) -> bytes:
    """The digest of the log's bytes and of the code (and PyYAML) that parses them."""
    digest = hashlib.blake2b(data, digest_size=32)
    code = code_files()
    yaml_spec = _yaml_origin()
    if yaml_spec:
        code.append(yaml_spec)
    for name in code:
        try:
            info = os.stat(name)
        except OSError:
            continue
        digest.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\0".encode(
            "utf-8", "surrogateescape"))
    digest.update(f"{FORMAT}\0{marshal.version}\0{sys.version}".encode())
    return digest.digest()


def code_files() -> list[str]:
    """Every module of the layers in :data:`_LAYERS`, in a fixed order."""
    found = []
    for layer in _LAYERS:
        folder = os.path.join(_PACKAGE, layer)
        try:
            found += sorted(os.path.join(folder, name) for name in os.listdir(folder)
                            if name.endswith(".py"))
        except OSError:
            continue
    return found


def _yaml_origin() -> str | None:
    """The file of the installed PyYAML, found without importing it."""
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec("yaml")
    return spec.origin if spec is not None else None


def get(path: str, data: bytes) -> Parsed | None:
    """The cached parse of ``data``, the bytes of the log at ``path``, if there is one."""
    name = _file(path)
    if name is None:
        return None
    try:
        with open(name, "rb") as handle:
            blob = handle.read(MAX_BYTES + 1)
        stamp, parsed = marshal.loads(blob)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if len(blob) > MAX_BYTES or stamp != _stamp(data) or not _well_formed(parsed):
        return None
    return parsed  # type: ignore[no-any-return]


def _well_formed(parsed: Any) -> bool:
    return (isinstance(parsed, tuple) and len(parsed) == 6 and isinstance(parsed[0], dict)
            and isinstance(parsed[1], list) and isinstance(parsed[2], list)
            and isinstance(parsed[3], dict) and isinstance(parsed[4], bool)
            and isinstance(parsed[5], str))


def put(path: str, data: bytes, parsed: Parsed) -> None:
    """Keep ``parsed``, the parse of ``data``, for the log at ``path``. Never fails: a
    cache that cannot be written is simply not used."""
    name = _file(path)
    if name is None:
        return
    try:
        blob = marshal.dumps((_stamp(data), parsed))
    except ValueError:  # not marshallable: cannot happen for a plain parse, but never fail
        return
    temp = f"{name}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(name), mode=0o700, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0),
                     0o600)
        try:
            while blob:
                blob = blob[os.write(fd, blob):]
        finally:
            os.close(fd)
        os.replace(temp, name)
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass
