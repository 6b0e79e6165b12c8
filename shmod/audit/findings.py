"""One finding of an audit, located (shared by the audit of a log and of its thread)."""
from __future__ import annotations

from typing import Any

from shmod.base.records import Record


class Problem(Record):
    """One finding. ``kind``: header, format, rule, chain, commitment or unreadable;
    ``entry`` is 1-based; ``line`` is the file line (None for the header as a whole).

    ``message`` is the audit's sentence, in English, for the terminal and ``--json``;
    ``cause`` and ``facts`` are what a page in the game's language words it from (the
    replay page, :mod:`shmod.audit.replay`): which of its kind's findings it is, and its
    values as (name, value) pairs. chain: ``moved`` (``after``: the entry it was written
    right after, 0 the header; ``line``: that entry's), ``first`` (the first entry or the
    header changed) or ``changed``; checkpoint: ``posted`` (``post``, ``mark``,
    ``upto``); commitment: ``header`` (``stated``, ``computed``) or ``given``
    (``actual``, ``expected``); any kind: ``more`` (``count``, ``limit``: the findings
    of the kind left unlisted). ``cause`` None: worded by its kind and rule alone."""

    kind: str
    message: str
    line: int | None = None
    entry: int | None = None
    rule: str | None = None
    cause: str | None = None
    facts: tuple[tuple[str, int | str], ...] = ()

    def where(self, path: str) -> str:
        place = f"{path}:{self.line}" if self.line else path
        return place + (f": entry {self.entry}" if self.entry else "")

    def to_json(self) -> dict[str, Any]:
        """The documented ``--json`` shape (docs/audit.md): kind, message, line, entry,
        rule."""
        return {"kind": self.kind, "message": self.message, "line": self.line,
                "entry": self.entry, "rule": self.rule}


def ranges(numbers: list[int]) -> str:
    """``1-3, 5, 7-8``."""
    out: list[tuple[int, int]] = []  # (first, last) of each run
    for number in numbers:
        if out and out[-1][1] == number - 1:
            out[-1] = (out[-1][0], number)
        else:
            out.append((number, number))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in out)
