"""R-DEAL: what a game's forum shows otherwise than a player typed it, in a word for the deal.

A word is typed as the thread shows it; a word whose text the forum renders as something
else has two transcriptions, what was typed and what shows (``apple :P`` shows an apple and
a smiley; ``~~banana~~ apple`` shows a struck-out banana), and a moderator could pick either.
:func:`refuse` refuses such a word, naming what the forum shows, with what each output
profile's engine renders (:mod:`shmod.texts.formats`, :mod:`shmod.texts.smilies`):

- every engine but plain text turns its smiley codes into pictures (``:P``, ``:D``, ``<3``,
  ``o_O``; :data:`shmod.texts.smilies.ENGINES`): phpBB's on ``phpbb``, ``phpbb-spoiler`` and
  ``bbcode``, XenForo's on ``xenforo``, Discourse's emoji shortcuts on ``discourse``;
- Markdown (``markdown``, ``discourse``) strikes out ``~~text~~`` and shows a link's text
  alone (``[text](address)``);
- Discourse's typographer writes ``(c)``, ``(r)``, ``(tm)`` and ``+-`` as ``©``, ``®``, ``™``,
  ``±``.

A game that names no forum (``plain``) is played on one shmod does not know: a word any of
these engines shows otherwise is refused. The log's layers below cannot read a profile, so
the check is made where a word is typed (``shmod word``), for log formats that refuse it
(``Words.forum``, :mod:`shmod.forum.log_formats`); what is recorded is the same either way.
"""
from __future__ import annotations

import re

from shmod.base.errors import RuleBroken
from shmod.texts import smilies
from shmod.texts.formats import FORMATS, BBCode, Discourse, Markdown, Plain

#: Markdown's strike-through and a link (its text shown, its address hidden).
_STRUCK = re.compile(r"~~(.+?)~~")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
#: Discourse's typographer (markdown-it's replacements, on by default).
_TYPOGRAPHER = {"(c)": "\u00a9", "(r)": "\u00ae", "(tm)": "\u2122", "+-": "\u00b1"}


def shown_otherwise(text: str, profile: Plain) -> list[str]:
    """What ``profile``'s engine shows otherwise in ``text``, each as ``'CODE' as WHAT``
    (empty: it shows as typed). A plain profile stands for every engine shmod knows."""
    if type(profile) is Plain:
        engines: dict[str, list[str]] = {}
        for other in FORMATS.values():
            if other is not Plain:
                for item in shown_otherwise(text, other(profile.lang)):
                    engines.setdefault(item, []).append(other.name)
        return [f"{item} on {', '.join(names)}" for item, names in engines.items()]
    found: list[str] = []
    engine = (profile.smiley_codes if isinstance(profile, BBCode) else
              "discourse" if isinstance(profile, Discourse) else None)
    if engine is not None:
        found += [f"{m.group()!r} as a smiley picture" for m in _codes(engine).finditer(text)]
    if isinstance(profile, Markdown):
        found += [f"{m.group()!r} as {m.group(1)!r} struck through"
                  for m in _STRUCK.finditer(text)]
        found += [f"{m.group()!r} as a link showing {m.group(1)!r}" for m in _LINK.finditer(text)]
    if isinstance(profile, Discourse):
        lowered = text.lower()
        found += [f"{text[at:at + len(typed)]!r} as {sign!r}" for typed, sign in
                  _TYPOGRAPHER.items() for at in _starts(lowered, typed)]
    return found


_CODES: dict[str, re.Pattern[str]] = {}


def _codes(engine: str) -> re.Pattern[str]:
    """What matches a whole smiley code of ``engine`` (:data:`shmod.texts.smilies.ENGINES`),
    the longest first."""
    if engine not in _CODES:
        found, patterns, ignore_case = smilies.ENGINES[engine]
        alternatives = [re.escape(c) for c in sorted(found, key=len, reverse=True)]
        _CODES[engine] = re.compile("|".join([*patterns, *alternatives]),
                                    re.IGNORECASE if ignore_case else 0)
    return _CODES[engine]


def _starts(text: str, part: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(part), text)]


def refuse(text: str, profile: Plain) -> None:
    """R-DEAL: refuse ``text`` if the game's forum (``profile``) shows any of it otherwise
    than typed, naming what it shows (:func:`shown_otherwise`)."""
    found = shown_otherwise(text, profile)
    if found:
        forum = ("a forum" if type(profile) is Plain else profile.name)
        raise RuleBroken("R-DEAL", f"the word {text[:60]!r} is shown otherwise than typed on "
                         f"{forum}: {'; '.join(found)}. The thread's readers see that, not the "
                         "text: ask the player for a word in plain letters or digits")
