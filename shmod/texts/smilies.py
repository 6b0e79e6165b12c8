"""Smiley codes a forum engine turns into pictures, so that typed text keeps them literal.

A player named ``Eve :)`` or ``Hal 8-)`` would show as a smiley on every engine shmod
writes for but plain text: phpBB replaces its default smilies, XenForo its own, Discourse
its emoji shortcuts (``enable_emoji_shortcuts`` is on by default) and every ``:name:`` of
an emoji. A profile cuts each code in typed text (names, words, reasons) after its first
character (:func:`split`) and joins the pieces with what its engine reads as nothing: an
empty ``[i][/i]`` in BBCode (the engine matches codes in the text between tags), a word
joiner (U+2060, invisible) on Discourse (whose emoji rule reads the text after Markdown's
escapes are resolved, so a backslash would not stop it). Every occurrence is cut, whatever
is around it: what comes before and after a name in a post is not the name's to know.
"""
from __future__ import annotations

import re

#: phpBB's 42 default smilies (phpBB/install/schemas/schema_data.sql), matched as typed.
PHPBB_CODES = (
    ":D", ":-D", ":grin:", ":)", ":-)", ":smile:", ";)", ";-)", ":wink:", ":(", ":-(",
    ":sad:", ":o", ":-o", ":eek:", ":shock:", ":?", ":-?", ":???:", "8-)", ":cool:", ":lol:",
    ":x", ":-x", ":mad:", ":P", ":-P", ":razz:", ":oops:", ":cry:", ":evil:", ":twisted:",
    ":roll:", ":!:", ":?:", ":idea:", ":arrow:", ":|", ":-|", ":mrgreen:", ":geek:",
    ":ugeek:")
#: XenForo 2's default smilies with their alternative texts, matched in any case.
XENFORO_CODES = (
    ":)", ":-)", ";)", ";-)", ":(", ":-(", ":mad:", ">:(", ":confused:", ":cool:", "8-)",
    ":p", ":-p", ":D", ":-D", ":eek:", ":o", ":oops:", ":rolleyes:", "o_O", "O_o", "o.O",
    "O.o", ":cautious:", ":censored:", ":cry:", ":'(", ":love:", "<3", ":LOL:", ":ROFLMAO:",
    ":sick:", ":sleep:", ":sneaky:", "(y)", ":thumbsup:", "(n)", ":thumbsdown:", ":unsure:",
    ":whistle:", ":coffee:", ":giggle:", ":alien:", ":devilish:", ":geek:", ":poop:")
#: Discourse's emoji shortcuts (pretty-text's ``translations``), matched as typed.
DISCOURSE_CODES = (
    ":)", ":-)", "^_^", "^__^", ":(", ":-(", ";)", ";-)", ":'(", ":'-(", ":-'(", ":p", ":P",
    ":-P", ":O", ":-O", ":D", ":-D", ":|", ":-|", ":/", "8-)", ";P", ";-P", ":$", ":-$")
#: Discourse's ``:name:`` emoji: a colon, an emoji's name, a colon (the name is looked up
#: in lower case; any such name is cut, a known emoji or not).
EMOJI_NAME = r":[\w+-]+:"


#: Each engine's codes, the patterns among them, and whether the engine ignores case.
ENGINES: dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]] = {
    "phpbb": (PHPBB_CODES, (), False), "xenforo": (XENFORO_CODES, (), True),
    "discourse": (DISCOURSE_CODES, (EMOJI_NAME,), False)}
_FOUND: dict[str, re.Pattern[str]] = {}


def codes(engine: str) -> re.Pattern[str]:
    """What finds where any code of ``engine`` (:data:`ENGINES`) starts, overlapping ones
    too (compiled once, when first asked for)."""
    if engine not in _FOUND:
        found, patterns, ignore_case = ENGINES[engine]
        alternatives = [re.escape(c) for c in sorted(found, key=len, reverse=True)]
        _FOUND[engine] = re.compile(f"(?=(?:{'|'.join([*alternatives, *patterns])}))",
                                    re.IGNORECASE if ignore_case else 0)
    return _FOUND[engine]


def split(text: str, engine: str) -> list[str]:
    """``text`` cut after the first character of every code of ``engine`` in it: no piece
    holds a whole code, so pieces joined by what the engine reads as nothing show the text
    as typed."""
    cuts = sorted({found.start() + 1 for found in codes(engine).finditer(text)})
    return [text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)])]
