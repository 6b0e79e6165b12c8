"""What text a game log may hold, and how text from a log is printed.

A log may be published and audited by anyone, so it must never carry characters that a
terminal or a forum would act on: control characters (C0, DEL, C1), unpaired surrogates
(what invalid UTF-8 on a command line turns into), Unicode noncharacters, line and
paragraph separators, and the bidirectional overrides that make text read other than it
is stored. :func:`unsafe` is the one test of that, used by the loader for every string in
a log; anything a command is about to append is read back through that loader first.
"""
from __future__ import annotations

import re

from shmod.base import patterns

#: Characters no string in a game log may hold (tab and newline included: every field
#: is one line of text), in the Basic Multilingual Plane...
_BMP = (
    "[\x00-\x1f\x7f-\x9f"          # C0 controls, DEL, C1 controls
    "\ud800-\udfff"                # surrogates (invalid UTF-8 in an argument)
    "\u2028\u2029"                 # line and paragraph separators
    "\u202a-\u202e\u2066-\u2069"   # bidirectional embeddings, overrides and isolates
    "\ufdd0-\ufdef\ufffe\uffff]")  # noncharacters
#: ... and beyond it: the last two code points of every plane are noncharacters. A
#: separate pattern: one class holding both searches a whole file ten times slower.
_ASTRAL = patterns.later("[" + "".join(chr(plane << 16 | low) for plane in range(1, 17)
                                   for low in (0xFFFE, 0xFFFF)) + "]")
#: In a whole text (a file, a post, a PM): the same, less its own line breaks and tabs.
_IN_TEXT = patterns.later(_BMP.replace("\x00-\x1f", "\x00-\x08\x0b\x0c\x0e-\x1f"))
_ONE_LINE = patterns.later(_BMP)


def _first(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of ``pattern`` or of an astral noncharacter in ``text``."""
    found = pattern.search(text)
    if text.isascii():
        return found
    far = _ASTRAL.search(text, 0, found.start() if found else len(text))
    return far or found


def _sub(pattern: re.Pattern[str], text: str) -> str:
    text = pattern.sub(_escape, text)
    return text if text.isascii() else _ASTRAL.sub(_escape, text)


def unsafe(text: str) -> str | None:
    """A description of the first character of ``text`` a log may not hold, or None."""
    found = _first(_ONE_LINE, text)
    if found is None:
        return None
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:  # how Python passes on a byte that is not UTF-8
        return f"byte 0x{code - 0xDC00:02X} that is not UTF-8 text"
    what = "a control character" if code < 0xA0 else "an invisible or formatting character"
    return f"character U+{code:04X} ({what})"


def unsafe_in_file(text: str) -> tuple[int, str] | None:
    """Where and what the first character of a file's text is that no string in a log
    may hold (newlines and tabs are the file's own); None if there is none. One search
    over the whole text: what the reader checks string by string when the text holds
    an escape (a backslash), the only way a string gets what the file lacks (the log
    reader refuses a tab before it reads any string)."""
    found = _first(_IN_TEXT, text)
    return None if found is None else (found.start(), unsafe(found.group()) or "")


def escaped(text: str) -> str:
    """``text`` with every character a log may not hold shown as a visible escape
    (``\\x1b``, ``\\u202e``); line breaks and tabs are kept."""
    return _sub(_IN_TEXT, text)


def one_line(text: str) -> str:
    """``text`` escaped as :func:`escaped` does, newlines and tabs included: one line."""
    return _sub(_ONE_LINE, text)


def typed(text: str, limit: int = 40) -> str:
    """What someone typed, quoted for an error message (``repr``): a text longer than
    ``limit`` characters is cut, saying how long it was, so that an error stays one line."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"
