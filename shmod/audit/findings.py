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

