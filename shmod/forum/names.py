"""Player names that players can tell apart, and players looked up by the names a
moderator types (:class:`Seating`).

A name is seated in one Unicode form (NFC), with nothing in it that cannot be seen
(format characters, default-ignorable code points: zero-width spaces, direction marks,
variation selectors, tags, fillers), and no two seated names may look the same: their
confusable *skeletons* (Unicode's UTS #39: NFD, every character replaced by its
prototype, NFD again) are compared ignoring case, as shmod compares names.

All-ASCII names, the usual case, need neither :mod:`unicodedata` nor the table: the
table's ASCII rows are :data:`ASCII_PROTOTYPES`. The whole table
(:mod:`shmod.forum.lookalike_table`) is read only for a name that is not all ASCII.

:class:`Seating` reads a player as a moderator types one: a name in any case or Unicode
form, a seat number, the start of a name or of any word of it (R-SEAT); the name of a
player who left a seat or had it corrected is said as such (R-REPLACE, R-RENAME).
"""
from __future__ import annotations

from collections.abc import Sequence

from shmod.base import plaintext
from shmod.base.errors import BadInput

#: The rows of Unicode's confusables table whose source is ASCII (``m`` looks like
#: ``rn``, ``0`` like ``O``, ``1`` and ``I`` like ``l``); their prototypes are in NFD.
ASCII_PROTOTYPES = {'"': "''", "%": "\u00ba/\u2080", "0": "O", "1": "l", "I": "l",
                    "`": "'", "m": "rn", "|": "l"}
#: Code points that show nothing, beyond the format characters (category Cf): Unicode's
#: Default_Ignorable_Code_Point ranges (variation selectors, tags, Hangul fillers, ...)
#: and the blank braille pattern.
_UNSEEN = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
           (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
           (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
           (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
           (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def tidy(text: str) -> str:
    """``text`` as a name is seated: trimmed, runs of spaces made one, in NFC."""
    name = " ".join(text.split())
    if name.isascii():
        return name
    import unicodedata

    return unicodedata.normalize("NFC", name)


def unseen(name: str) -> str | None:
    """A description of the first character of ``name`` that cannot be seen, or None."""
    if name.isascii():
        return None
    import unicodedata

    for char in name:
        code = ord(char)
        if unicodedata.category(char) == "Cf" or any(low <= code <= high
                                                      for low, high in _UNSEEN):
            what = unicodedata.name(char, "")
            return f"an invisible character, U+{code:04X}{' ' + what if what else ''}"
    return None


def shown(name: str) -> str:
    """``name`` quoted as ``repr`` quotes it, with every character that cannot be seen
    as an escape (``repr`` leaves a variation selector or a filler as it is)."""
    return "".join((f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
                   if unseen(c) else c for c in repr(name))


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character replaced by its prototype, NFD
    again. Two strings with the same skeleton look the same."""
    if text.isascii():  # NFD changes no ASCII, nor any ASCII row's prototype
        return "".join(ASCII_PROTOTYPES.get(char, char) for char in text)
    import unicodedata

    split = unicodedata.normalize("NFD", text)
    if _DOT_ABOVE in split:  # a dot above on i or j replaces its own dot: it shows nothing
        split = "".join(char for at, char in enumerate(split)
                        if not (char == _DOT_ABOVE and at and split[at - 1] in SOFT_DOTTED))
    mapped = "".join(_prototype(char) for char in split)
    return unicodedata.normalize("NFD", mapped)


#: COMBINING DOT ABOVE, and the letters whose own dot it replaces when it sits on them
#: (Unicode's Soft_Dotted letters in common use): ``li\u0307z`` shows as ``liz``.
_DOT_ABOVE = "\u0307"
SOFT_DOTTED = "ij\u0456\u0458\u0249\u0268\u029d\u03f3"


def _prototype(char: str) -> str:
    """The prototype ``char`` looks like (itself when the table has no row for it)."""
    if char.isascii():
        return ASCII_PROTOTYPES.get(char, char)
    from shmod.forum.lookalike_table import DATA

    key = f"{ord(char):X}:"
    for separator in (" ", "\n"):
        at = DATA.find(separator + key)
        if at >= 0:
            codes = DATA[at + 1 + len(key):at + 200].split(None, 1)[0]
            return "".join(chr(int(code, 16)) for code in codes.split("+"))
    return char


def looks(name: str) -> tuple[str, str]:
    """What ``name`` looks like, in any case: its skeleton case-folded (``Ian`` looks
    like ``lan``), and the skeleton of it case-folded (``Ιan``, with a Greek capital
    iota, looks like ``ian``)."""  # noqa: RUF002
    return skeleton(name).casefold(), skeleton(name.casefold())


def look_alike(first: str, second: str) -> bool:
    """Whether two names look the same, ignoring case."""
    return any(a == b for a, b in zip(looks(first), looks(second)))


def lookalike_pair(names: list[str]) -> tuple[int, int] | None:
    """The first two seats (in seating order) whose names look the same, or None."""
    seen: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for seat, name in enumerate(names):
        for kind, key in enumerate(looks(name)):
            if key in seen[kind]:
                return seen[kind][key], seat
            seen[kind][key] = seat
    return None


def why_alike(first: str, second: str) -> str:
    """What makes two look-alike names look the same, in words for an error."""
    a, b = _difference(first, second)
    for which, part in (("second", b), ("first", a)):
        odd = next((char for char in part if not char.isascii()), None)
        if odd is not None:
            return f"the {which} holds {_described(odd)}"
    return f"the first has {a!r} where the second has {b!r}"


def _difference(first: str, second: str) -> tuple[str, str]:
    """The parts of two names that differ (ignoring case) once what they share at the
    start and the end is taken off."""
    short = min(len(first), len(second))
    start = 0
    while start < short and first[start].casefold() == second[start].casefold():
        start += 1
    end = 0
    while end < short - start and first[-1 - end].casefold() == second[-1 - end].casefold():
        end += 1
    return first[start:len(first) - end], second[start:len(second) - end]


def _described(char: str) -> str:
    """``a Cyrillic о, U+043E``; a combining mark by its code point and name alone."""  # noqa: RUF002
    import unicodedata

    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    if not name or unicodedata.category(char).startswith("M"):
        return f"the character {code}{' ' + name if name else ''}"
    script = name.split()[0].capitalize()
    return f"{'an' if script[0] in 'AEIOU' else 'a'} {script} {char}, {code}"


def seat_number(text: str, count: int) -> int | None:
    """``text`` as a seat number 1..``count`` (R-SEAT), or None when it is not one."""
    if text.isdecimal() and 1 <= int(text) <= count:
        return int(text)
    return None


def folded(text: str) -> str:
    """``text`` as names are matched when typed: case-folded, accents taken off (``Zoë``
    as ``zoe``), and the letters that do not decompose written as R-DEAL's words write
    them (``Łukasz`` as ``lukasz``, ``Søren`` as ``soren``, ``ß`` as ``ss``)."""
    text = text.casefold()
    if text.isascii():
        return text
    import unicodedata

    from shmod.forum.wordform import TRANSLITERATION

    return "".join(TRANSLITERATION.get(char, char)
                   for char in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(char))


#: How German writes an umlaut without its dots (``juergen`` for ``Jürgen``).
_UMLAUTS = {"\u00e4": "ae", "\u00f6": "oe", "\u00fc": "ue"}


def folds(name: str) -> tuple[str, ...]:
    """The ways a name may be typed, folded: :func:`folded`, and for a name with an umlaut
    the German way too (``jurgen`` and ``juergen`` for ``Jürgen``)."""
    plain = folded(name)
    if name.isascii():
        return (plain,)
    import unicodedata

    composed = unicodedata.normalize("NFC", name.casefold())
    if not any(umlaut in composed for umlaut in _UMLAUTS):
        return (plain,)
    german = folded("".join(_UMLAUTS.get(char, char) for char in composed))
    return (plain, german) if german != plain else (plain,)


def _words(name: str) -> list[str]:
    """The words of a folded name, and the name itself: ``el guapo``, ``el``, ``guapo``."""
    import re

    return [name, *(word for word in re.split(r"[\W_]+", name) if word)]


#: The fewest characters typed that may match inside a name (``walrus`` for
#: ``TheWalrus``); shorter, a name is matched by its words' starts only.
ANY_PART = 3


class Seating:
    """Looks players up as typed, case and accents ignored (``Zoe`` for ``Zoë``; the
    letters that do not decompose as R-DEAL writes them, ``lukasz`` for ``Łukasz``; an
    umlaut also as German types it, ``juergen`` for ``Jürgen``), level by
    level: the whole name, the seat number, the start of the name or of any word of it
    (``guapo`` for ``El Guapo``), a former name (R-REPLACE, R-RENAME: refused, saying
    who sits there now), then any part of the name of at least :data:`ANY_PART`
    characters (``walrus`` for ``TheWalrus``). A level is taken only when it finds exactly
    one player (``ann`` stays Ann beside Joanna); when it finds several, each is named."""

    def __init__(self, players: tuple[str, ...],
                 replaced: Sequence[tuple[int, str, str, int]] = (),
                 renamed: Sequence[tuple[int, str, str, int]] = ()) -> None:
        self.players = players
        self._exact = {tidy(name).casefold(): seat for seat, name in enumerate(players)}
        #: R-REPLACE: a player who left, by name: (seat, entry of the replacement)
        self._former = {tidy(old).casefold(): (seat, entry)
                        for seat, old, _new, entry in replaced}
        #: R-RENAME: a name corrected: (seat, entry of the correction)
        self._renamed = {tidy(old).casefold(): (seat, entry)
                         for seat, old, _new, entry in renamed}

    def seat(self, value: object, *, prefixes: bool = True) -> int:
        """The seat of ``value``; an unknown or ambiguous name lists the candidates."""
        if isinstance(value, bool) or value is None:
            raise BadInput(f"{value!r} is not a player")
        text = tidy(str(value))
        key = text.casefold()
        if key in self._exact:
            return self._exact[key]
        number = seat_number(text, len(self.players))
        if number is not None:
            return number - 1
        typed = folded(key) if prefixes else ""
        found = self._one(text, [s for s, name in enumerate(self.players) if typed and any(
            word.startswith(typed) for way in folds(name) for word in _words(way))])
        if found is not None:
            return found
        if key in self._renamed and key not in self._former:
            seat, entry = self._renamed[key]
            raise BadInput(f"{text} is now called {self.players[seat]} (entry {entry}); name "
                           f"{self.players[seat]} or seat {seat + 1} instead")
        if key in self._former:
            seat, entry = self._former[key]
            raise BadInput(f"{text} was replaced by {self.players[seat]} (entry {entry}); "
                           f"name {self.players[seat]} or seat {seat + 1} instead")
        found = self._one(text, [s for s, name in enumerate(self.players)
                                 if len(typed) >= ANY_PART
                                 and any(typed in way for way in folds(name))])
        if found is not None:
            return found
        listing = ", ".join(f"{s + 1}. {n}" for s, n in enumerate(self.players))
        raise BadInput(f"unknown player {plaintext.typed(text)} (players: {listing})")

    def _one(self, text: str, hits: list[int]) -> int | None:
        """One level of the lookup: the one seat it found, None when it found none; several
        are refused, each candidate named (a vote is final: shmod never guesses)."""
        if len(hits) > 1:
            names = ", ".join(f"{self.players[s]} (seat {s + 1})" for s in hits)
            raise BadInput(f"{text!r} is ambiguous: it could be {names}; name one in "
                           "full or by seat number")
        return hits[0] if hits else None
