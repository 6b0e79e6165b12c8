"""R-DEAL, log format 5: symbols refused, and the deal keyed by a word's look-alike key.

A word is recorded as in format 4 (:func:`shmod.forum.wordform.latin_word`: plain ``a``-``z``
and ``0``-``9``), after :func:`refuse_symbols` refused what format 4 dropped silently though
it shows as, or draws, a letter: a symbol (Unicode categories Sm, Sc, Sk, So: ``🅰``,
``\u237a``, ``\u212e``, ``×``, ``|``, ``$``), a mathematical, circled or squared letter or
digit (``\U0001d41a``, ``ⓐ``, ``\u2113``), a bracket or a slash (``(``, ``]``, ``/``,
``\\``: ``\\/\\/`` draws a ``w``, ``()`` an ``o``), and the punctuation Unicode's confusables
data maps to a letter or digit (``¡``, ``\u05c0``, ``‖``). So ``🅰pple`` is refused, where
format 4 recorded ``pple`` while the thread showed "apple".

The deal does not read the recorded word itself but its **look-alike key**
(:func:`lookalike_key`), a fixed fold of ``a``-``z`` and ``0``-``9`` that gives every
sequence a forum's font can show alike one form: ``rnodern`` and ``modern`` deal alike, so
how the moderator transcribes a post cannot move the deal. Three steps, each fixed for
format 5 and never changed (docs/verify.md section 5.3 has the table and test vectors):

1. every character in :data:`FOLD` is replaced by its row (``0`` by ``o``; ``1`` and ``i`` by
   ``l``, as a capital ``I`` shows; ``d`` by ``cl``; ``m`` by ``lvl``, as ``IVI`` shows;
   ``w`` by ``vv``), the others kept;
2. every ``rn`` is replaced by ``lvl`` (``rn`` shows as ``m``);
3. read from the left, every ``lvl`` is written ``m``, every ``cl`` ``d`` and every ``vv``
   ``w`` (:data:`CONTRACT`, so the key reads as a word: ``modern``'s is ``modem``).

Steps 1 and 2 give every look-alike spelling of a word the same letters (a character's row
and a sequence it shows as are made the same; step 2 replaces a pair whose letters appear
in no row's result and in no other pair, so the order of replacements cannot matter), and
step 3 is a function of those letters: two spellings that look alike have one key.
Different words may share a key (``clear`` and ``dear``): that is harmless, since nobody
can choose which word a player posts; a choice of transcription is not.
"""
from __future__ import annotations

from collections.abc import Sequence

from shmod.base.errors import RuleBroken

#: Step 1: each character of ``a``-``z`` and ``0``-``9`` that shows like another, and the
#: one form its class is written in. Capitals count, since a word is recorded in small
#: letters whatever case the post used: ``I`` is ``i``, ``B`` is ``b``, ``S`` is ``s``.
FOLD: dict[str, str] = {
    "0": "o",  # 0 O o
    "1": "l",  # 1 l I
    "i": "l",  # I (a capital i) l
    "2": "z",  # 2 Z
    "5": "s",  # 5 S
    "6": "b",  # 6 b
    "8": "b",  # 8 B
    "9": "g",  # 9 g q
    "q": "g",  # q g
    "d": "cl",  # d cl
    "m": "lvl",  # m rn IVI
    "w": "vv",  # w vv VV
}
#: Step 2: a pair of letters that shows as one, replaced by what step 1 writes that one as.
PAIRS: dict[str, str] = {"rn": "lvl"}
#: Step 3: what step 1 and 2 wrote, read back as one letter, from the left (first match).
CONTRACT: tuple[tuple[str, str], ...] = (("lvl", "m"), ("cl", "d"), ("vv", "w"))

#: Punctuation a forum shows as, or that draws, a letter or digit: refused (step 1 of
#: format 5's recording). Brackets and slashes of every kind draw letters in any font
#: (``()`` an ``o``, ``\\/`` a ``v``, ``|<`` a ``k``); ``¡`` is an ``i`` upside down.
DRAWN = frozenset("()[]{}/\\\u00a1")
#: A compatibility decomposition that styles a letter or digit as a symbol: mathematical
#: alphanumerics and letter-like signs (U+1D41A, U+2113, U+2102), circled and squared ones.
STYLED = ("<font>", "<circle>", "<square>")
ASK = ("ask the player for a word in letters (a-z; accents are fine) or digits, without "
       "symbols, emoji or brackets")


def refuse_symbols(text: str) -> None:
    """R-DEAL (format 5): refuse ``text`` if it holds a symbol, a styled letter or digit, or
    punctuation that shows as or draws a letter (see the module docstring), naming it."""
    import unicodedata

    from shmod.forum.names import skeleton

    for char in text:
        kind = unicodedata.category(char)
        what = None
        if kind[0] == "S":
            what = "a symbol"
        elif unicodedata.decomposition(char).startswith(STYLED):
            what = "a letter or digit styled as a symbol"
        elif char in DRAWN or kind in ("Ps", "Pe"):
            what = "a bracket or slash, which can draw a letter"
        elif kind[0] == "P" and not char.isascii() and any(
                c.isascii() and c.isalnum() for c in skeleton(char)):
            what = "punctuation that looks like a letter"
        if what is not None:
            name = unicodedata.name(char, "")
            raise RuleBroken("R-DEAL", f"the word {text[:60]!r} holds {char!r} (U+{ord(char):04X}"
                             f"{' ' + name if name else ''}), {what}, which the deal cannot "
                             f"read as the thread shows it: {ASK}")


def record_5(text: str) -> str:
    """A typed word as format 5 records it: symbols refused (:func:`refuse_symbols`), then
    as format 4 (:func:`shmod.forum.wordform.latin_word`)."""
    from shmod.forum.wordform import latin_word

    refuse_symbols(text)
    return latin_word(text)


def lookalike_key(word: str) -> str:
    """R-DEAL (format 5): the look-alike key of a recorded word (``a``-``z``, ``0``-``9``):
    steps 1 to 3 of the module docstring. ``rnodern``, ``modern`` and ``IVIodern`` (recorded
    ``iviodern``) all give ``modem``."""
    spelled = "".join(FOLD.get(char, char) for char in word)
    for pair, written in PAIRS.items():
        spelled = spelled.replace(pair, written)
    out, at = [], 0
    while at < len(spelled):
        for sequence, letter in CONTRACT:
            if spelled.startswith(sequence, at):
                out.append(letter)
                at += len(sequence)
                break
        else:
            out.append(spelled[at])
            at += 1
    return "".join(out)


def message_5(words: Sequence[str], names: Sequence[str]) -> str:
    """Format 5: ``shmod-words 5``, then each seat's number and its word's look-alike key."""
    return "shmod-words 5\n" + "".join(f"{seat} {lookalike_key(word)}\n"
                                       for seat, word in enumerate(words, 1))


def choice_5(words: Sequence[str]) -> str | None:
    """What format 5's words deal left the moderator to choose: nothing the audit names."""
    return None


#: The letters and digits a format-4 word could have been transcribed otherwise in: every
#: character of a class of :data:`FOLD` (its sources and what they are written as).
_ALIKE = frozenset(FOLD) | {written for written in FOLD.values() if len(written) == 1}


def choice_4(words: Sequence[str]) -> str | None:
    """What format 4's words deal left the moderator to choose (the audit warns): it dealt
    each word as recorded, so a word holding a letter or digit that shows like another
    (``0`` and ``o``, ``1``, ``i`` and ``l``, ``rn`` and ``m``, ``cl`` and ``d``, ``vv`` and
    ``w``, ...) could have been transcribed otherwise and dealt otherwise."""
    alike = [w for w in words if _ALIKE & set(w) or any(p in w for p in ("rn", "cl", "vv"))]
    if not alike:
        return None
    return ("format 4 dealt each word as it was transcribed, letter by letter: a look-alike "
            "spelling of a posted word (rn for m, 0 for o, 1 or I for l, cl for d, vv for w; "
            f"here {', '.join(map(repr, alike))}) could have moved the deal; format 5 deals by "
            "each word's look-alike key")
