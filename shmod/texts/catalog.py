"""Every word players read, from one message catalog per language (GNU gettext).

A game has a language (its header's ``language``, ``shmod new --language de``; English
when absent). Every text a player reads (posts, PMs and their subjects, the rules card,
the reveal, the history grid, the replay page, the board picture, the stats post) is made
where it is rendered, from the :class:`Language` that the output profile carries
(``fmt.lang``, :mod:`shmod.texts.formats`). The moderator's own terminal (headings,
notes, refusals) stays English in code.

How a sentence is written (docs/architecture.md, "Words"):

- The English text is the message id. ``t._("Round {round}", round=3)`` looks it up and
  fills its named fields with ``str.format``; the fields are values already marked up
  (a bold name, a coloured policy), never words to translate.
- A word the sentence marks up itself (a policy in its colour, a bold phrase) stays in the
  message between the fields ``{on}`` and ``{off}`` (:func:`shmod.texts.markup.marks`), so
  that a translation inflects it: ``"… enacted a {on}Liberal{off} policy."``. A glossary
  term is a field only where it stands alone (a list of cards, a power's name).
- A word that means more than one thing, and every term of the glossary (roles, parties,
  policies, powers, offices), has a context: ``t._p("policy", "Liberal")``. The glossary
  is the catalog's entries whose context starts with ``term:``.
- A sentence with a count has real plural forms: ``t._n("{n} vote", "{n} votes", n)``
  (``n`` is a field too); Polish has three.
- A table of words defined once at module level marks its entries with :func:`N_` (or
  :func:`Np_` with a context) so that the extractor finds them, and translates them where
  they are rendered (``t._(HOUSE_RULES[key])``, ``t.term(POWER[p])``).
- Names are never inflected: where a language would decline a name, its translation uses
  a layout ("Kanzler: Ann") instead. shmod records no gender: translations are
  gender-neutral.

The catalogs are ``shmod/texts/locale/<code>/LC_MESSAGES/shmod.po`` with their compiled
``.mo`` beside them (shipped, so ``pip install .`` has them), and the template
``shmod/texts/locale/shmod.pot``; ``python tools/catalog.py`` runs Babel's extract, update
and compile cycle, and ``tests/test_catalog.py`` fails when any of them is stale. English
needs no catalog (its message ids are its text); ``qps`` is a pseudo-language for tests:
every letter accented and each message lengthened by a third, so an English word left in
a post is a word that bypassed the catalog. A catalog is read only when a game in its
language is rendered.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from shmod.base.errors import BadInput
from shmod.base.records import Record

if TYPE_CHECKING:
    import gettext

LOCALE = Path(__file__).with_name("locale")
DOMAIN = "shmod"
ENGLISH = "en"
PSEUDO = "qps"


class Term(Record):
    """A message id with its context, defined in a table and translated where rendered (a
    record: a ``NamedTuple`` class costs every command a quarter of a millisecond)."""

    context: str
    msgid: str


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the extractor; translated later with ``Language._``."""
    return msgid


def Np_(context: str, msgid: str) -> Term:
    """Mark ``msgid`` in ``context`` for the extractor; translated later with
    :meth:`Language.term`."""
    return Term(context, msgid)


class Language:
    """One language's words: English as written, or a gettext catalog."""

    def __init__(self, code: str, catalog: gettext.NullTranslations | None = None) -> None:
        self.code = code
        self._catalog = catalog

    def _(self, msgid: str, /, **fields: object) -> str:
        """``msgid`` in this language, its ``{fields}`` filled."""
        text = self._catalog.gettext(msgid) if self._catalog else msgid
        return text.format(**fields) if fields else text

    def _p(self, context: str, msgid: str, /, **fields: object) -> str:
        """``msgid`` in ``context`` in this language, its ``{fields}`` filled."""
        text = self._catalog.pgettext(context, msgid) if self._catalog else msgid
        return text.format(**fields) if fields else text

    def _n(self, singular: str, plural: str, n: int, /, **fields: object) -> str:
        """The plural form for ``n`` in this language; ``{n}`` is a field too."""
        if self._catalog:
            text = self._catalog.ngettext(singular, plural, n)
        else:
            text = singular if n == 1 else plural
        return text.format(n=n, **fields)

    def _np(self, context: str, singular: str, plural: str, n: int, /,
            **fields: object) -> str:
        """The plural form for ``n`` in ``context``; ``{n}`` is a field too."""
        if self._catalog:
            text = self._catalog.npgettext(context, singular, plural, n)
        else:
            text = singular if n == 1 else plural
        return text.format(n=n, **fields)

    def term(self, marked: Term, /, **fields: object) -> str:
        """A :func:`Np_`-marked message in this language."""
        return self._p(marked.context, marked.msgid, **fields)

    def __repr__(self) -> str:
        return f"Language({self.code!r})"


def codes() -> list[str]:
    """Every language shmod speaks: English, each shipped catalog, and the pseudo-language
    (last: it is for tests)."""
    import os

    shipped = sorted(code for code in os.listdir(LOCALE)
                     if os.path.isfile(LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.mo"))
    return [ENGLISH, *shipped, PSEUDO]


_LOADED: dict[str, Language] = {}


def get(code: str | None) -> Language:
    """The language called ``code`` (English for ``None``); its catalog is read once."""
    code = code or ENGLISH
    if code in _LOADED:
        return _LOADED[code]
    if code == ENGLISH:
        found = Language(ENGLISH)
    elif code == PSEUDO:
        found = Language(PSEUDO, _pseudo())
    else:
        path = LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if not path.is_file():
            raise BadInput(f"shmod does not speak language {code!r} "
                           f"(it speaks {', '.join(codes())})")
        import gettext

        with path.open("rb") as file:
            found = Language(code, gettext.GNUTranslations(file))
    _LOADED[code] = found
    return found


# -- the pseudo-language -------------------------------------------------------------

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ"
_ACCENT = str.maketrans(_PLAIN, _ACCENTED)
#: What lengthens a pseudo message by a third: a middle dot is no markup in any profile.
_PAD = "·"


def pseudo(text: str) -> str:
    """``text`` with every letter accented outside its ``{fields}``, lengthened by a third
    (at the end of each line, so that line breaks stay where they were)."""
    out, depth = [], 0
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        out.append(char if depth else char.translate(_ACCENT))
    lines = "".join(out).split("\n")
    return "\n".join(line + _PAD * math.ceil(len(line) / 3) if line.strip() else line
                     for line in lines)


def _pseudo() -> gettext.NullTranslations:
    """The pseudo-language as a catalog that accents whatever it is asked for."""
    import gettext

    class Pseudo(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return pseudo(message)

        def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
            return pseudo(msgid1 if n == 1 else msgid2)

        def pgettext(self, context: str, message: str) -> str:
            return pseudo(message)

        def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
            return pseudo(msgid1 if n == 1 else msgid2)

    return Pseudo()
