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

#: Characters no string in a game log may hold (tab and newline included: every field
#: is one line of text).
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f"          # C0 controls, DEL, C1 controls
    "\ud800-\udfff"                # surrogates (invalid UTF-8 in an argument)
    "\u2028\u2029"                 # line and paragraph separators
    "\u202a-\u202e\u2066-\u2069"   # bidirectional embeddings, overrides and isolates
    "\ufdd0-\ufdef\ufffe\uffff"    # noncharacters
    "\U0001fffe\U0001ffff\U0002fffe\U0002ffff\U0003fffe\U0003ffff\U0004fffe\U0004ffff"
    "\U0005fffe\U0005ffff\U0006fffe\U0006ffff\U0007fffe\U0007ffff\U0008fffe\U0008ffff"
    "\U0009fffe\U0009ffff\U000afffe\U000affff\U000bfffe\U000bffff\U000cfffe\U000cffff"
    "\U000dfffe\U000dffff\U000efffe\U000effff\U000ffffe\U000fffff\U0010fffe\U0010ffff]")
#: The same, but keeping newlines and tabs: for multi-line output (posts, PMs, reports).
_UNSAFE_IN_OUTPUT = re.compile(_UNSAFE.pattern.replace("\x00-\x1f", "\x00-\x08\x0b-\x1f"))


def unsafe(text: str) -> str | None:
    """A description of the first character of ``text`` a log may not hold, or None."""
    found = _UNSAFE.search(text)
    if found is None:
        return None
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:  # how Python passes on a byte that is not UTF-8
        return f"byte 0x{code - 0xDC00:02X} that is not UTF-8 text"
    what = "a control character" if code < 0xA0 else "an invisible or formatting character"
    return f"character U+{code:04X} ({what})"


def escaped(text: str) -> str:
    """``text`` with every character a log may not hold shown as a visible escape
    (``\\x1b``, ``\\u202e``); newlines and tabs are kept."""
    return _UNSAFE_IN_OUTPUT.sub(_escape, text)


def one_line(text: str) -> str:
    """``text`` escaped as :func:`escaped` does, newlines and tabs included: one line."""
    return _UNSAFE.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"
