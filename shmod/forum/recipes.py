"""Seeds made by a one-line recipe (R-COMMIT): what a moderator types to "make a random seed"
and a player searches in seconds.

``echo $RANDOM | md5sum`` has 32,768 outcomes, ``date +%s | sha256sum`` one a second, and
``deadbeefcafebabe8badf00dfeedface`` is a pattern anyone tries: each looks like 128 random
bits and is none. Two kinds of check, both on the seed's hexadecimal digits (case ignored):

- :func:`pattern` (cheap; :func:`shmod.forum.commitment.guessable` runs it on every seed
  and salt it checks, the audit too): a repeated unit (``abcd`` four times, ``01`` sixteen
  times), digits that count up or down or stay the same, alone or interleaved (``0123…``,
  ``fedc…``, ``a1b2c3…``: at least three in four neighbours at some distance up to four
  apart differ by -1, 0 or 1 modulo 16; random digits do so once in about five), and words
  spelt in hexadecimal (``dead``, ``beef``, ``cafe``, ``c0ffee``: the seed made of them
  alone, :data:`HEXSPEAK`);
- :func:`hashed` (a search, run by ``shmod new`` on a seed the moderator supplies without
  ``--guessable``): the MD5, SHA-1 or SHA-256 (whole, or cut to the seed's length) of a
  number from 0 to :data:`NUMBERS` - 1 (``$RANDOM``, ``shuf``, a counter) or of a Unix time
  from :data:`BEFORE` seconds before now to :data:`AFTER` after (``date +%s``), each as
  typed and as ``echo`` hands it on (a newline after it).

The search is bounded by what ``shmod new`` can afford in Python (some 0.5 microseconds a
hash, six hashes a candidate): every number below a hundred thousand and the last six
hours' times are 0.7 million hashes, well under a second on a quiet machine; a million
numbers would take seconds, and two years of times (63 million) minutes, on every ``shmod
new --seed``. Whatever recipe made a supplied seed, the header records that it was supplied
(``seed_source``, under the commitment), and the opening post and the audit say so.
"""
from __future__ import annotations

import hashlib

#: Numbers searched: 0 to this - 1 (bash's ``$RANDOM`` is 0 to 32,767).
NUMBERS = 100_000
#: Unix times searched: this many seconds before now to :data:`AFTER` after.
BEFORE = 6 * 3600
AFTER = 600
#: Words spelt in hexadecimal digits (0 for o, 1 for i or l, 5 for s, 8 for b), the ones a
#: moderator reaches for: a seed made of these alone is a pattern.
HEXSPEAK = frozenset("""
dead beef cafe babe bad 8bad f00d feed face fade deaf decaf decade facade faced faded
c0de c0ffee c0c0a d00d b00b b00c 0ff1ce 1ce 5eed 5afe 5ca1ab1e 10ca1 ab1e acce55
acce55ed ace add bed bee cab dab ebb fab fee abba acdc a1fa be5t c0ffee5 dec0de defaced
effaced b1ade b0a7 ba5e ba11 be11 b0d1e5 c0ca c01a dea1 f1ee f1a5 1ead 10ad 0dd 0b0e
5a1ad
""".split())  # noqa: SIM905 - a list read as prose
#: A seed is counting when at least this share of digit pairs at one distance step by -1,
#: 0 or 1 (random digits: 3 in 16).
COUNTING = 0.75
_ALGORITHMS = (("MD5", hashlib.md5), ("SHA-1", hashlib.sha1), ("SHA-256", hashlib.sha256))


def pattern(secret: str) -> str | None:
    """Why ``secret`` (hexadecimal digits) is a pattern, not drawn at random; None when it
    is none of :mod:`this module <shmod.forum.recipes>`'s patterns."""
    value = secret.lower()
    if len(value) < 8:
        return None
    for unit in range(1, len(value) // 2 + 1):
        if value == (value[:unit] * (len(value) // unit + 1))[:len(value)]:
            return f"it repeats {value[:unit]!r}"
    digits = [int(c, 16) for c in value if c in "0123456789abcdef"]
    if len(digits) == len(value):
        for lag in range(1, 5):
            steps = [(b - a) % 16 for a, b in zip(digits, digits[lag:])]
            if sum(step in (15, 0, 1) for step in steps) >= COUNTING * len(steps):
                return "its digits count up or down"
    if _spelt(value):
        return "it spells words in hexadecimal digits (deadbeef…)"
    return None


def _spelt(value: str) -> bool:
    """Whether ``value`` splits wholly into :data:`HEXSPEAK` words."""
    longest = max(map(len, HEXSPEAK))
    reach = [True] + [False] * len(value)
    for end in range(1, len(value) + 1):
        reach[end] = any(reach[start] and value[start:end] in HEXSPEAK
                         for start in range(max(0, end - longest), end - 2))
    return reach[-1]


def hashed(secret: str, now: int) -> str | None:
    """What ``secret`` is the hash of, among the numbers and times the module docstring
    lists (``now``: the Unix time now); None when it is none of them."""
    value = secret.lower()
    if not 32 <= len(value) <= 64 or any(c not in "0123456789abcdef" for c in value):
        return None
    searched: list[tuple[str, range]] = [
        ("the number", range(NUMBERS)), ("the Unix time", range(now - BEFORE, now + AFTER + 1))]
    for what, numbers in searched:
        found = _search(value, numbers)
        if found is not None:
            text, algorithm = found
            return f"it is the {algorithm} of {what} {text}"
    return None


def _search(value: str, numbers: range) -> tuple[str, str] | None:
    """The text (a number as typed, or with a newline after it) and the hash whose first
    hexadecimal digits ``value`` is, or None. The digests are joined and searched at C's
    speed: a match must fall on a digest's start."""
    target = bytes.fromhex(value[:len(value) // 2 * 2])
    texts = [str(n).encode() for n in numbers]
    for name, algorithm in _ALGORITHMS:
        size = algorithm().digest_size
        if size * 2 < len(value):
            continue
        for ending in (b"", b"\n"):
            candidates = [text + ending for text in texts] if ending else texts
            joined = b"".join([algorithm(text).digest() for text in candidates])
            at = joined.find(target)
            while at >= 0:
                if at % size == 0:
                    made = candidates[at // size]
                    if algorithm(made).hexdigest().startswith(value):
                        shown = repr(made.decode().rstrip("\n"))
                        return shown + (" followed by a newline" if ending else ""), name
                at = joined.find(target, at + 1)
    return None
