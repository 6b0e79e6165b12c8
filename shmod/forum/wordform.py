"""R-DEAL, log format 4: a word as it enters the deal, plain Latin letters and digits.

A word a player posts is recorded as :func:`latin_word` makes it, or refused:

1. Refused first: a word holding a character that shows nothing or formats text (Unicode
   categories Cc, Cf, Cs, Co, Cn, Zl, Zp, and the default-ignorable code points
   :data:`IGNORABLE` lists: zero-width spaces and joiners, soft hyphens, direction marks,
   variation selectors, fillers, ...), or markup a forum shows otherwise than it is
   written (:data:`MARKUP`: ``&shy;``, ``&#173;``, ``<b>``, ``[b]``, ``:heart:``).
2. Unicode NFKD, then every combining mark dropped (categories Mn, Mc, Me): accents go.
3. :data:`TRANSLITERATION` maps the letters that do not decompose (``ß`` to ``ss``,
   ``ł`` to ``l``, a dotless ``i`` to ``i``, ...): fixed for format 4, never changed.
4. Everything that is not a letter or a number (categories L*, N*) is dropped: spaces,
   punctuation, symbols, emoji.
5. ASCII capitals become small letters. What is left must be ``a``-``z`` and ``0``-``9``
   only, at least one and at most :data:`MAX_WORD`; a letter of another alphabet (Cyrillic,
   Greek, CJK) is refused, saying what to ask the player for.

The log records the result, and the deal reads only that (:func:`shmod.forum.dealing.
words_seed`), so replaying and auditing a word needs no Unicode data at all. Any two
Pythons that both accept a word give it the same form: a code point the running Python
does not know (Cn) is refused, every other code point's NFKD mapping is fixed by Unicode's
normalization stability policy, the letters kept are ASCII or in the fixed table, and what
a category decides otherwise (a mark, a symbol or a space dropped; a letter refused) either
drops the character on both Pythons or makes one of them refuse the word (docs/verify.md).
"""
from __future__ import annotations

from collections.abc import Sequence

from shmod.base import patterns
from shmod.base.errors import RuleBroken

MAX_WORD = 40
#: Categories refused outright: controls, format characters, surrogates, private use,
#: unassigned code points, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Default-ignorable code points whose category is not one of those (variation selectors
#: and the combining grapheme joiner are marks, fillers are letters, the blank braille
#: pattern a symbol): inclusive ranges, fixed for format 4.
IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
             (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
             (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
             (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
#: Markup a forum renders otherwise than it is written: an HTML character reference or
#: entity (``&shy;``, ``&#173;``, ``&#xad;``, even without its ``;``), an HTML tag or
#: comment (``<b>``, ``</i>``, ``<!--``), a BBCode tag (``[b]``, ``[/b]``, ``[*]``), an
#: emoji code (``:heart:``).
MARKUP = patterns.later(r"&[#A-Za-z]|<[A-Za-z/!?]|\[[A-Za-z/*]|:[A-Za-z0-9_+-]+:")
#: Letters NFKD leaves as they are, and what each is written as: fixed for format 4.
#: Modifier letters that read as an apostrophe or a stress mark are dropped like
#: punctuation.
TRANSLITERATION: dict[str, str] = {
    "\u00df": "ss", "\u1e9e": "ss",  # ß ẞ sharp s
    "\u00e6": "ae", "\u00c6": "ae",  # æ Æ
    "\u0153": "oe", "\u0152": "oe",  # œ Œ
    "\u00f8": "o", "\u00d8": "o",  # ø Ø
    "\u0142": "l", "\u0141": "l",  # ł Ł
    "\u0111": "d", "\u0110": "d",  # đ Đ
    "\u00f0": "d", "\u00d0": "d",  # ð Ð eth
    "\u00fe": "th", "\u00de": "th",  # þ Þ thorn
    "\u0131": "i",  # ı dotless i  # noqa: RUF003
    "\u0237": "j",  # ȷ dotless j
    "\u0127": "h", "\u0126": "h",  # ħ Ħ
    "\u0167": "t", "\u0166": "t",  # ŧ Ŧ
    "\u014b": "n", "\u014a": "n",  # ŋ Ŋ eng
    "\u0138": "k",  # ĸ kra
    "\u0192": "f", "\u0191": "f",  # ƒ Ƒ
    "\u0253": "b", "\u0181": "b",  # ɓ Ɓ
    "\u0257": "d", "\u018a": "d",  # ɗ Ɗ
    "\u0256": "d", "\u0189": "d",  # ɖ Ɖ
    "\u0199": "k", "\u0198": "k",  # ƙ Ƙ
    "\u01b4": "y", "\u01b3": "y",  # ƴ Ƴ
    "\u025b": "e", "\u0190": "e",  # ɛ Ɛ open e
    "\u02b9": "", "\u02ba": "", "\u02bb": "", "\u02bc": "", "\u02bd": "",  # noqa: RUF003 ʹ ʺ ʻ ʼ ʽ
    "\u02be": "", "\u02bf": "", "\u02c8": "", "\u02cc": "", "\u02d0": "",  # noqa: RUF003 ʾ ʿ ˈ ˌ ː
    "\u02d1": "", "\u02ee": "",  # ˑ ˮ
}
#: A recorded word of format 4 (what replay and audit check, with no Unicode data).
RECORDED = patterns.later(rf"[a-z0-9]{{1,{MAX_WORD}}}")
ASK = "ask the player for a word in Latin letters (a-z; accents are fine) or digits"


def ignorable(char: str) -> bool:
    """Whether ``char`` is one of the default-ignorable code points :data:`IGNORABLE` lists."""
    code = ord(char)
    return any(low <= code <= high for low, high in IGNORABLE)


def latin_word(text: str) -> str:
    """R-DEAL (format 4): ``text`` as the deal reads it, ``a``-``z`` and ``0``-``9`` only;
    :class:`RuleBroken` saying what to do when it is refused (see the module docstring)."""
    import unicodedata

    for char in text:
        kind = unicodedata.category(char)
        if kind == "Cn":
            raise RuleBroken("R-DEAL", f"the word {_quoted(text)} holds U+{ord(char):04X}, a "
                             f"code point this Python's Unicode ({unicodedata.unidata_version}) "
                             f"does not know, so no form can be given to it: {ASK}")
        if kind == "Co":
            raise RuleBroken("R-DEAL", f"the word {_quoted(text)} holds U+{ord(char):04X}, a "
                             f"private-use character that every computer shows otherwise: {ASK}")
        if kind in REFUSED_CATEGORIES or ignorable(char):
            raise RuleBroken("R-DEAL", f"the word {_quoted(text)} holds {_named(char)}, which "
                             "shows nothing or formats text: type the word as the thread shows "
                             "it, without it")
    markup = MARKUP.search(text)
    if markup:
        shown = text[markup.start():markup.start() + 10]
        raise RuleBroken("R-DEAL", f"the word {_quoted(text)} holds markup ({shown!r}: an HTML "
                         "entity, a tag or an emoji code), which a forum shows otherwise than it "
                         "is written: type the word as the thread shows it (its punctuation may "
                         "be left out)")
    out = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.category(char)[0] == "M":
            continue
        char = TRANSLITERATION.get(char, char)
        if char.isascii():  # a letter or a digit kept, small; anything else dropped
            out += [c.lower() for c in char if c.isalnum()]
        elif unicodedata.category(char)[0] in "LN":
            raise RuleBroken("R-DEAL", f"the word {_quoted(text)} holds {_named(char)}, which is "
                             f"not a Latin letter a-z or a digit once accents are taken off: "
                             f"{ASK}")
    word = "".join(out)
    if not word:
        raise RuleBroken("R-DEAL", f"the word {_quoted(text)} has no letter or digit "
                         f"(spaces, punctuation and symbols are dropped): {ASK}")
    if len(word) > MAX_WORD:
        raise RuleBroken("R-DEAL", f"a word is at most {MAX_WORD} letters and digits; "
                         f"{word[:20]!r}… has {len(word)}")
    return word


def check_4(word: str) -> None:
    """A recorded word of format 4 (R-DEAL): ``a``-``z`` and ``0``-``9`` only, checked with
    no Unicode data."""
    if not RECORDED.fullmatch(word):
        raise RuleBroken("R-DEAL", f"the word {_quoted(word)} is not recorded in its "
                         f"canonical form: {MAX_WORD} or fewer letters a-z and digits 0-9 "
                         "(`shmod word` writes that form: accents and punctuation dropped, "
                         "capitals small), so that nobody chooses how a post is "
                         "transcribed")


def message_4(words: Sequence[str], names: Sequence[str]) -> str:
    """Format 4: ``shmod-words 4``, then each seat's number and recorded word as it is."""
    return "shmod-words 4\n" + "".join(f"{seat} {word}\n" for seat, word in enumerate(words, 1))


def _quoted(text: str) -> str:
    """``text`` for a refusal: quoted, every character that shows nothing escaped."""
    import unicodedata

    shown = "".join((f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
                    if unicodedata.category(c) in REFUSED_CATEGORIES or ignorable(c) else c
                    for c in text[:60])
    return f"'{shown}{'…' if len(text) > 60 else ''}'"


def _named(char: str) -> str:
    """``U+00AD SOFT HYPHEN``."""
    import unicodedata

    return f"U+{ord(char):04X} {unicodedata.name(char, '')}".rstrip()
