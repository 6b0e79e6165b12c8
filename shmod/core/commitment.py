"""The fair-setup commitment: SHA-256 over the canonical bytes of the secret setup.

Printed at ``shmod new`` for the opening thread post; checked at the end by
``shmod audit LOG --commitment HEX``. The bytes are UTF-8 text, one line each, every
line ending in ``\\n`` (docs/audit.md spells them out so a player can rebuild them)::

    shmod-commitment 1
    players "Alice" "Bob" …            (seating order, each a JSON string)
    first_president "Alice"
    variants eva_braun=off first_president=random rebalanced=off term5=alive …   (sorted)
    custom {"deck":…}                  (only in a custom game: canonical JSON)
    roles liberal hitler …             (in seat order)
    deck FFLFL…                        (the first draw pile, top first)
    seed "…"                           (or: seed none)
    salt "…"                           (or: salt none)

With a seed, the seed fixes every later reshuffle (R-RESHUFFLE, checked by the audit),
so the commitment covers the roles and every shuffle of the game.
"""
from __future__ import annotations

import hashlib
import json
import re

from shmod.base.errors import BadInput
from shmod.core.state import Setup

VERSION = 1
_HEX = re.compile(r"^[0-9a-f]{64}$")


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _optional(value: str | None) -> str:
    return "none" if value is None else _quoted(value)


def canonical_bytes(setup: Setup) -> bytes:
    """The exact bytes the commitment hashes (see the module docstring)."""
    lines = [
        f"shmod-commitment {VERSION}",
        "players " + " ".join(_quoted(name) for name in setup.players),
        "first_president " + _quoted(setup.players[setup.first]),
        "variants " + " ".join(f"{k}={v}" for k, v in sorted(setup.variants.items())),
        *(["custom " + json.dumps(setup.custom, sort_keys=True, separators=(",", ":"),
                                   ensure_ascii=False)] if setup.custom else []),
        "roles " + " ".join(setup.roles),
        "deck " + "".join(setup.deck),
        "seed " + _optional(setup.seed),
        "salt " + _optional(setup.salt),
    ]
    return ("\n".join(lines) + "\n").encode()


def commitment(setup: Setup) -> str:
    """The commitment to ``setup``: SHA-256 of :func:`canonical_bytes`, 64 hex digits."""
    return hashlib.sha256(canonical_bytes(setup)).hexdigest()


def parse_hex(text: str) -> str:
    """A commitment as typed by a user: 64 hex digits (case and spaces ignored)."""
    value = "".join(text.split()).lower()
    if _HEX.match(value):
        return value
    digits = value.rstrip(".…")
    if digits and len(digits) < 64 and all(c in "0123456789abcdef" for c in digits):
        raise BadInput(f"a commitment is all 64 hexadecimal digits (SHA-256), as `shmod new` "
                       f"printed it; {text[:70]!r} has only {len(digits)}. A prefix is not "
                       f"accepted: a setup whose commitment starts with the same digits can be "
                       f"found by trying many setups (8 digits take minutes on one computer), so a prefix "
                       f"would not prove that the setup was fixed at the start")
    raise BadInput(f"a commitment is 64 hexadecimal digits (SHA-256), not {text[:70]!r}")


def verify(setup: Setup, expected: str) -> str | None:
    """``None`` when ``setup`` matches the commitment ``expected``, else why not."""
    actual = commitment(setup)
    if actual == parse_hex(expected):
        return None
    return (f"the setup in this log (roles, deck, seed, salt, seating) hashes to "
            f"{actual}, not to the commitment {parse_hex(expected)}: the secret setup "
            f"is not the one committed at the start")
