"""Reproducible shuffles derived from one seed (documented in docs/log-format.md).

For a seed string ``S`` and a label ``L`` (``roles``, ``first-president``, ``deck``,
``reshuffle-1``, ``reshuffle-2``, …) the random stream is the concatenation of
``SHA-256(f"shmod/v1/{S}/{L}/{i}")`` for i = 0, 1, 2, … (UTF-8). Numbers below ``n``
take 8 bytes at a time as a big-endian unsigned integer ``x``, rejecting
``x >= 2**64 - 2**64 % n`` and returning ``x % n``. A shuffle is Fisher-Yates: for
``i`` from the last index down to 1, swap item ``i`` with item ``rand_below(i + 1)``.
Only SHA-256 is used, so the result is the same on every Python and platform.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

from shmod.base import digest
from shmod.game.terms import FASCIST, LIBERAL, Policy

T = TypeVar("T")
_SPACE = 2**64


def new_seed() -> str:
    """A fresh 128-bit seed from the OS's cryptographic source, as hex."""
    import secrets  # only `shmod new` needs it; keeps start-up light

    return secrets.token_hex(16)


def _stream(seed: str, label: str) -> Iterator[int]:
    block = 0
    while True:
        block_bytes = digest.sha256(f"shmod/v1/{seed}/{label}/{block}".encode()).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(block_bytes[offset : offset + 8], "big")
        block += 1


def _below(stream: Iterator[int], n: int) -> int:
    limit = _SPACE - _SPACE % n
    while True:
        x = next(stream)
        if x < limit:
            return x % n


def shuffled(items: Sequence[T], seed: str, label: str) -> list[T]:
    """``items`` in the order the seed gives them under ``label``."""
    out = list(items)
    stream = _stream(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = _below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def pick(count: int, seed: str, label: str) -> int:
    """One number in ``range(count)`` drawn from the seed under ``label``."""
    return _below(_stream(seed, label), count)


def policy_pile(liberal: int, fascist: int, seed: str, label: str) -> list[Policy]:
    """A pile of ``liberal`` L and ``fascist`` F shuffled: Liberals first, then Fascists."""
    pile: list[Policy] = [LIBERAL] * liberal
    pile += [FASCIST] * fascist
    return shuffled(pile, seed, label)


def reshuffle_label(number: int) -> str:
    """The label of the ``number``-th reshuffle of a game (1-based)."""
    return f"reshuffle-{number}"
