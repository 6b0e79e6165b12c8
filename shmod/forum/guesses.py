"""The secrets a player tries first (R-COMMIT): the hash of a text anyone can think of.

A moderator who makes a "random" seed with ``md5sum`` or ``sha256sum`` makes one a player
can find in seconds: 32 hexadecimal digits that look like 128 random bits are the MD5 of
nothing (``d41d8cd98f00b204e9800998ecf8427e``), of a player's name, or of a common word.
:func:`guessed` says whether a secret is the MD5, SHA-1 or SHA-256 of such a text, cut to
the secret's length (a longer secret, or one that is no such hash, is not found here).
The texts tried, each as it is and followed by a newline (``echo TEXT | md5sum`` hashes
``TEXT\\n``):

- the empty text;
- each player's name as written and in lower case;
- the seating, in seating order and in alphabetical order, as written and in lower case,
  joined by nothing, a space, a comma, a comma and a space, or a newline;
- the shipped list of common words and passwords (:mod:`shmod.forum.common_words`, each
  in lower case as listed).

The common words are looked up through an index of their hashes' first 8 hexadecimal
digits (sorted, in the same generated module), so a check costs one binary search, not
24,000 hashes; only a secret whose first digits are in the index is hashed against the
words, to name the word or clear it. Nothing is read until a secret is checked.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from shmod.base import digest

ALGORITHMS = ("MD5", "SHA-1", "SHA-256")
PREFIX = 8  # hexadecimal digits of each hash kept in the index
_JOINS = ("", " ", ",", ", ", "\n")


def hashes(text: str) -> Iterator[tuple[str, str]]:
    """``text``'s MD5, SHA-1 and SHA-256, each as (algorithm, hex digits)."""
    data = text.encode("utf-8")
    weak = digest.weak_hex(data)
    yield from zip(ALGORITHMS, (*weak, digest.sha256_hex(data)))


def variants(text: str) -> tuple[str, str]:
    """``text`` as typed, and as ``echo`` hands it to a hash tool (a newline after it)."""
    return text, text + "\n"


def name_texts(names: Iterable[str]) -> Iterator[tuple[str, str]]:
    """The texts made of the players' names, each with what it is."""
    seated = list(names)
    for name in dict.fromkeys([*seated, *(n.lower() for n in seated)]):
        yield name, f"the player name {name!r}"
    orders = {"the seating": seated, "the names in alphabetical order": sorted(seated)}
    for what, order in orders.items():
        for lower in (False, True):
            words = [n.lower() for n in order] if lower else order
            for join in _JOINS:
                yield join.join(words), what + (" in lower case" if lower else "") + \
                    f" joined by {join!r}"


def _found(secret: str, texts: Iterable[tuple[str, str]]) -> str | None:
    for text, what in texts:
        for typed in variants(text):
            for algorithm, hexed in hashes(typed):
                if hexed[:len(secret)] == secret:
                    said = what if typed == text else f"{what} and a newline"
                    return f"it is the {algorithm} of {said}"
    return None


def guessed(secret: str, names: Iterable[str] = ()) -> str | None:
    """Why ``secret`` (hexadecimal digits) can be guessed as the hash of a text anyone can
    think of (see the module docstring), or None."""
    value = secret.lower()
    if not 0 < len(value) <= 64:
        return None
    found = _found(value, [("", "the empty text"), *name_texts(names)])
    if found or not _indexed(value[:PREFIX]):
        return found
    from shmod.forum.common_words import WORDS

    return _found(value, ((word, f"the common word {word!r}") for word in words(WORDS)))


def words(text: str) -> list[str]:
    """The common words of the generated module's ``WORDS`` (comma-separated)."""
    return [w for w in text.replace("\n", "").split(",") if w]


def index(listed: Iterable[str]) -> str:
    """The index of ``listed`` words: every hash's first :data:`PREFIX` digits, sorted,
    one after the other (what ``tools/make_common_words.py`` writes as ``INDEX``)."""
    found = {hexed[:PREFIX] for word in listed for typed in variants(word)
             for _, hexed in hashes(typed)}
    return "".join(sorted(found))


def _indexed(prefix: str) -> bool:
    """Whether ``prefix`` (8 hex digits) begins a hash of a common word: a binary search."""
    from shmod.forum.common_words import INDEX

    low, high = 0, len(INDEX) // PREFIX
    while low < high:
        middle = (low + high) // 2
        if INDEX[middle * PREFIX:(middle + 1) * PREFIX] < prefix:
            low = middle + 1
        else:
            high = middle
    return INDEX[low * PREFIX:(low + 1) * PREFIX] == prefix
