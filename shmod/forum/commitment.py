"""The fair-setup commitment, and the secret it rests on (R-COMMIT).

The commitment is SHA-256 over the canonical bytes of the secret setup. Printed at
``shmod new`` for the opening thread post; checked at the end by
``shmod audit LOG --commitment HEX``. The bytes are UTF-8 text, one line each, every
line ending in ``\\n`` (docs/verify.md spells them out so a player can rebuild them)::

    shmod-commitment 1
    players "Alice" "Bob" …            (seating order, each a JSON string)
    first_president "Alice"            (or, in a game dealt from the players' words
                                        without a chosen first President: first_president drawn)
    variants eva_braun=off first_president=random rebalanced=off term5=alive …   (sorted;
                                        late_vote, late_nomination and late_choice only
                                        when they are not wait)
    custom {"deck":…}                  (only in a custom game: canonical JSON)
    roles liberal hitler …             (in seat order; a game dealt from the players'
    deck FFLFL…                         words has the line "deal players" instead of these two)
    seed "…"                           (or: seed none)
    salt "…"                           (or: salt none)
    moderator_key "…"                  (format 2 and later: the public key the thread's
                                        checkpoints are signed with, or: moderator_key none)
    seed_source drawn                  (format 5: who chose the seed, or: seed_source none)
    first_chosen false                 (format 5: whether the moderator chose the first
                                        President, R-FIRST)

The version is the log's format number (``shmod-commitment 4`` in a log of format 4): it
pins the format, and with it how the words deal and how a lapse draws, so a commitment
posted for one cannot be kept for a log of another. The lines after the salt are the ones
the format frames (``LogFormat.frames``, :mod:`shmod.forum.log_formats`): the
``moderator_key`` line from format 2 on, none in a log of format 1 (an earlier shmod),
which keeps its bytes. docs/verify.md states every line to the byte.

With a seed, the seed fixes every later reshuffle (R-RESHUFFLE, checked by the audit),
so the commitment covers the roles and every shuffle of the game.

A commitment hides the setup only if the bytes hold something a player cannot guess:
the **salt**, at least 128 random bits that shmod draws for every game. The same salt
keys the thread's checkpoints (:mod:`shmod.log.checkpoints`), so they too say nothing
before the reveal publishes it. :func:`weaknesses` says what a setup lacks.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from shmod.base import digest, patterns
from shmod.base.errors import BadInput
from shmod.forum.house import LATER_VARIANTS
from shmod.forum.table import Setup
from shmod.forum.terms import VARIANTS

_HEX = patterns.later(r"^[0-9a-f]{64}$")
#: A secret of at least 128 bits, as shmod writes one: 32 or more hexadecimal digits.
STRONG = patterns.later(r"[0-9a-fA-F]{32,}")
SECRET_BITS = 128


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _optional(value: str | None) -> str:
    return "none" if value is None else _quoted(value)


#: What each line a log format frames after the salt holds (``LogFormat.frames``).
_FRAMED: dict[str, Callable[[Setup], str]] = {
    "moderator_key": lambda setup: _optional(setup.moderator_key),
    "seed_source": lambda setup: setup.seed_source or "none",
    "first_chosen": lambda setup: "true" if setup.first_chosen else "false",
}


def canonical_bytes(setup: Setup) -> bytes:
    """The exact bytes the commitment hashes (see the module docstring)."""
    first = "drawn" if setup.first is None else _quoted(setup.players[setup.first])
    dealt = (["deal players"] if setup.deal == "players" else
             ["roles " + " ".join(setup.roles), "deck " + "".join(setup.deck)])
    lines = [
        f"shmod-commitment {setup.format.number}",
        "players " + " ".join(_quoted(name) for name in setup.players),
        "first_president " + first,
        "variants " + " ".join(f"{k}={v}" for k, v in sorted(setup.variants.items())
                               if k not in LATER_VARIANTS or v != VARIANTS[k][0]),
        *(["custom " + json.dumps(setup.custom, sort_keys=True, separators=(",", ":"),
                                   ensure_ascii=False)] if setup.custom else []),
        *dealt,
        "seed " + _optional(setup.seed),
        "salt " + _optional(setup.salt),
        *(f"{frame} {_FRAMED[frame](setup)}" for frame in setup.format.frames),
    ]
    return ("\n".join(lines) + "\n").encode()


def commitment(setup: Setup) -> str:
    """The commitment to ``setup``: SHA-256 of :func:`canonical_bytes`, 64 hex digits."""
    return digest.sha256_hex(canonical_bytes(setup))


#: Secrets printed in shmod's own documentation and example games (docs/audit.md, games/):
#: anyone can try them first, so a header that reuses one hides nothing
#: (tests/test_fair_setup.py checks that every one printed there is listed).
PUBLISHED = frozenset({
    "9f86d081884c7d659a2feaa0c55ad015", "3a7bd3e2360a3d29eea436fcfb7e44c7",  # docs/audit.md
    "e3e70682c2094cac629f6fbed82c07cd", "388a9540a9e0541c5223566f1f0bd1b5",  # games/
    "c393fd0e1cc62be5783646bf0324aac3", "a31aa6b0eb59899311e72717cbd669ac",
    "9c1e4f07a2b35d68e0f4a7b1c3d5e7f9",
    "04edfdc680dfc73793b3b5a9ba7b8011", "32177cb25273f2ae585838835c25c81c",
    "60481af65f4a6a716f80511d20bbf7d4", "f6e61eeafe9293a6369bc070f5331d9b",
    "580b4f279b2de3d3238d4a28601693f1", "35f1d67d5f1d0bb854981ebad5aa7de6",
    "6f62bd39a7667b14123adb261a8a276e",  # games/words-dealt-8-players.yaml since issue 35
})


def strong(secret: str | None) -> bool:
    """Whether ``secret`` has the form of a secret no script can guess: 128 bits or more."""
    return secret is not None and STRONG.fullmatch(secret) is not None


def guessable(secret: str, names: Iterable[str] = ()) -> str | None:
    """Why a secret long enough to be strong was still not drawn at random (R-COMMIT), or
    None: one printed in shmod's own docs or example games, a pattern, or the MD5, SHA-1
    or SHA-256 of a text a player tries first: nothing, the players' ``names``, a common
    word (:mod:`shmod.forum.guesses`). 128 random bits show at least 6 distinct
    hexadecimal digits and 17 distinct pairs of adjacent digits but once in about 10^12
    draws (a digit repeated, ``0123…`` repeated: far fewer)."""
    value = secret.lower()
    if value in PUBLISHED:
        return "it is printed in shmod's own documentation or example games"
    pairs = {value[i:i + 2] for i in range(len(value) - 1)}
    if len(set(value)) <= 5 or len(pairs) <= 16:
        return "it is a pattern, not drawn at random"
    from shmod.forum.recipes import pattern

    shape = pattern(value)
    if shape:
        return f"it is a pattern, not drawn at random: {shape}"
    from shmod.forum.guesses import guessed

    return guessed(value, names)


def unguessable(value: str | None, names: Iterable[str] = ()) -> bool:
    """Whether ``value`` is a secret no player can guess: strong, and not guessable."""
    return strong(value) and guessable(value or "", names) is None


def weaknesses(setup: Setup) -> list[str]:
    """What makes this setup's commitment, checkpoints or deal guessable (R-COMMIT)."""
    found = []
    if setup.salt is None:
        found.append("the header has no secret salt, so the commitment posted at the start hid "
                     "nothing: anyone could compute the roles and the deck from it by trying "
                     "every deal; it proves only that the setup did not change afterwards")
    elif not strong(setup.salt):
        found.append(f"the header's salt has fewer than {SECRET_BITS} bits (32 hexadecimal "
                     "digits), so the commitment posted at the start can be inverted by "
                     "guessing: it hid nothing")
    elif guessable(setup.salt, setup.players):
        found.append(f"the header's salt {setup.salt!r} can be guessed "
                     f"({guessable(setup.salt, setup.players)}), "
                     "so the commitment posted at the start and the thread's checkpoints hid "
                     "nothing from a player who tried it")
    if setup.seed_source == "guessable" and strong(setup.seed) \
            and not guessable(setup.seed or "", setup.players):
        found.append("the moderator supplied the seed and accepted it unchecked (`shmod new "
                     "--guessable`, seed_source: guessable): if it is the hash of a number, a "
                     "time or a word, a player who finds it can deal the game themselves")
    if setup.seed is not None and not strong(setup.seed):
        found.append(f"the seed {setup.seed!r} has fewer than {SECRET_BITS} bits (32 "
                     "hexadecimal digits): a player who guesses it can deal the game "
                     "themselves and learn every role and every card")
    elif setup.seed is not None and guessable(setup.seed, setup.players):
        found.append(f"the seed {setup.seed!r} can be guessed "
                     f"({guessable(setup.seed, setup.players)}): a "
                     "player who tries it can deal the game themselves and learn every role "
                     "and every card")
    return found


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
                       f"found by trying many setups (8 digits take minutes on one computer), so "
                       f"a prefix would not prove that the setup was fixed at the start")
    raise BadInput(f"a commitment is 64 hexadecimal digits (SHA-256), not {text[:70]!r}")


def verify(setup: Setup, expected: str) -> str | None:
    """``None`` when ``setup`` matches the commitment ``expected``, else why not."""
    actual = commitment(setup)
    if actual == parse_hex(expected):
        return None
    return (f"the setup in this log (roles, deck, seed, salt, seating) hashes to "
            f"{actual}, not to the commitment {parse_hex(expected)}: the secret setup "
            f"is not the one committed at the start")
