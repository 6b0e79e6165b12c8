"""SHA-256, HMAC-SHA256, BLAKE2b (and MD5, SHA-1) from CPython's built-in modules.

Every command hashes the whole log (its chain, its checkpoints), so this is on every
command's path. ``hashlib`` loads OpenSSL at import (about 2.5 ms of a ~70 ms command on
a two-core machine); CPython's own ``_sha2`` (3.12+) / ``_sha256`` (3.11) and ``_blake2``
give the same digests without it. Where they are missing, ``hashlib`` is used. HMAC is
RFC 2104, which ``hmac`` implements the same way.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    class Hash(Protocol):
        """What a hash object gives (``hashlib``'s interface)."""

        def update(self, data: bytes, /) -> None: ...
        def digest(self) -> bytes: ...
        def hexdigest(self) -> str: ...

_BLOCK = 64  # SHA-256's block size in bytes


def _sha256_factory() -> Callable[..., Hash]:
    try:
        from _sha2 import sha256 as built_in  # type: ignore[import-not-found]
    except ImportError:
        try:
            from _sha256 import sha256 as built_in  # type: ignore[import-not-found]
        except ImportError:
            from hashlib import sha256 as built_in
    return built_in  # type: ignore[no-any-return]


def _blake2b_factory() -> Callable[..., Hash]:
    try:
        from _blake2 import blake2b as built_in
    except ImportError:
        from hashlib import blake2b as built_in
    return built_in


_sha256 = _sha256_factory()
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


def sha256(data: bytes) -> Hash:
    """A SHA-256 hash object over ``data`` (``hashlib.sha256``'s interface)."""
    return _sha256(data)


def sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` as 64 hex digits."""
    return str(_sha256(data).hexdigest())


def hmac_sha256(key: bytes, message: bytes) -> str:
    """HMAC-SHA256 of ``message`` under ``key`` (RFC 2104) as 64 hex digits."""
    if len(key) > _BLOCK:
        key = _sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = _sha256(key.translate(_INNER) + message).digest()
    return str(_sha256(key.translate(_OUTER) + inner).hexdigest())


_blake2b: list[Callable[..., Hash]] = []  # made on first use: only the parse cache needs it


def blake2b(data: bytes = b"", **options: Any) -> Hash:
    """A BLAKE2b hash object (``hashlib.blake2b``'s interface)."""
    if not _blake2b:
        _blake2b.append(_blake2b_factory())
    return _blake2b[0](data, **options)


_weak: list[Callable[..., Hash]] = []  # made on first use: only a seed's check needs them


def weak_hex(data: bytes) -> tuple[str, str]:
    """MD5 and SHA-1 of ``data`` as hex digits: never for security, only to recognise a
    secret someone made with ``md5sum`` or ``sha1sum`` (:mod:`shmod.forum.guesses`)."""
    if not _weak:
        try:
            from _md5 import md5  # type: ignore[import-not-found]
            from _sha1 import sha1  # type: ignore[import-not-found]
        except ImportError:
            from hashlib import md5, sha1
        _weak.extend((md5, sha1))
    return str(_weak[0](data).hexdigest()), str(_weak[1](data).hexdigest())
