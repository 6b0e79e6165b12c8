"""Auditing many logs: find them, audit one at a time, keep only the totals."""
from __future__ import annotations

import os
from typing import Any

from shmod.audit.audit import INVALID, UNREADABLE, VALID, Report
from shmod.base.errors import BadInput
from shmod.base.records import Record, field
from shmod.game.terms import FASCISTS, LIBERALS

LOG_SUFFIXES = (".yaml", ".yml")


def find_logs(paths: list[str]) -> list[str]:
    """The log files named by ``paths``: files as given, folders searched recursively."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                found += [os.path.join(root, f) for f in sorted(files)
                          if f.endswith(LOG_SUFFIXES)]
        elif os.path.exists(path):
            found.append(path)
        else:
            raise BadInput(f"{path}: no such file or folder")
    return found


class Totals(Record, frozen=False):
    """What a batch audit keeps: counts, each invalid game's first problem, win rates."""

    games: int = 0
    valid: int = 0
    invalid: list[tuple[str, str]] = field(default_factory=list)
    unreadable: int = 0
    by_players: dict[int, dict[str, int]] = field(default_factory=dict)
    by_how: dict[str, int] = field(default_factory=dict)
    finished: int = 0

    def add(self, report: Report) -> None:
        """Count one game's report (the report itself is not kept)."""
        self.games += 1
        if report.valid:
            self.valid += 1
        else:
            first = report.problems[0]
            self.invalid.append((report.path, f"{first.where(report.path)}: "
                                 + (f"{first.rule}: " if first.rule and first.kind == "rule"
                                    else "") + first.message))
            self.unreadable += report.unreadable
        summary = report.summary
        if not report.valid or summary is None or summary.winner is None:
            return
        self.finished += 1
        row = self.by_players.setdefault(summary.players, {"games": 0, LIBERALS: 0, FASCISTS: 0})
        row["games"] += 1
        row[summary.winner] += 1
        key = summary.how or ""
        self.by_how[key] = self.by_how.get(key, 0) + 1

    @property
    def exit_code(self) -> int:
        if self.unreadable:
            return UNREADABLE
        return INVALID if self.invalid else VALID

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "valid": self.valid,
            "invalid": len(self.invalid),
            "unreadable": self.unreadable,
            "finished": self.finished,
            "first_problems": [{"path": p, "problem": m} for p, m in self.invalid],
            "wins_by_players": {str(n): row for n, row in sorted(self.by_players.items())},
            "wins_by_condition": dict(sorted(self.by_how.items())),
        }

