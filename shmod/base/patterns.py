"""Regular expressions compiled when first used, not when their module is imported.

Compiling a pattern costs 50 to 350 microseconds; shmod's modules define some thirty at
module level, and a command uses a few of them (``shmod status`` none of the thread's,
the Markdown's or the words'), so compiling them all at every start cost a command about
two milliseconds. :func:`later` returns a stand-in that compiles on the first use of
any of its attributes and from then on holds the compiled pattern's methods as its own:
a later ``PATTERN.search(text)`` costs what it costs on a compiled pattern.
"""
from __future__ import annotations

import re
from typing import Any, cast

#: What the stand-in takes over from the compiled pattern at its first use.
_KEPT = ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer",
         "pattern", "flags", "groups", "groupindex")


class _Later:
    """``re.compile(source, flags)``, done when an attribute is first asked for."""

    def __init__(self, source: str, flags: int) -> None:
        self._source = (source, flags)

    def __getattr__(self, name: str) -> Any:  # only for what the instance lacks
        compiled = re.compile(*self._source)
        for key in _KEPT:
            setattr(self, key, getattr(compiled, key))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"pattern({self._source[0]!r})"


def later(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, compiled on first use (a stand-in with its methods)."""
    return cast("re.Pattern[str]", _Later(source, flags))
