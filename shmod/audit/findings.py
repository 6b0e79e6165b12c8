"""One finding of an audit, located (shared by the audit of a log and of its thread)."""
from __future__ import annotations

from shmod.base.records import Record


class Problem(Record):
    """One finding. ``kind``: header, format, rule, chain, commitment or unreadable;
    ``entry`` is 1-based; ``line`` is the file line (None for the header as a whole)."""

    kind: str
    message: str
    line: int | None = None
    entry: int | None = None
    rule: str | None = None

    def where(self, path: str) -> str:
        place = f"{path}:{self.line}" if self.line else path
        return place + (f": entry {self.entry}" if self.entry else "")


def ranges(numbers: list[int]) -> str:
    """``1-3, 5, 7-8``."""
    out: list[tuple[int, int]] = []  # (first, last) of each run
    for number in numbers:
        if out and out[-1][1] == number - 1:
            out[-1] = (out[-1][0], number)
        else:
            out.append((number, number))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in out)
