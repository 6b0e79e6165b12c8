"""Auditing many logs: find them, audit one at a time, keep only the totals."""
from __future__ import annotations

import os
from typing import Any

from shmod.audit.log_audit import INVALID, UNREADABLE, VALID, Report
from shmod.base.errors import BadInput
from shmod.base.records import Record, field
from shmod.game.terms import FASCISTS, LIBERALS

LOG_SUFFIXES = (".yaml", ".yml")


def find_logs(paths: list[str], odd: list[tuple[str, str, bool]] | None = None) -> list[str]:
    """The log files named by ``paths``: files as given, folders searched recursively.

    Given ``odd``, an entry of a folder named like a log that is no file to read goes
    there with why and whether it is a fault (:func:`not_a_log`), instead of among the
    logs (a link to nothing, a folder named ``*.yaml``, which is searched as a folder all
    the same, a link to a folder, which is not followed, a pipe or a device). ``shmod
    stats`` and the batch audit both name them."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                named = sorted(f for f in (*files, *dirs) if f.endswith(LOG_SUFFIXES))
                for name in named:
                    full = os.path.join(root, name)
                    why = None if odd is None else not_a_log(full)
                    if why is not None and odd is not None:
                        odd.append((full, *why))
                    elif name in files:
                        found.append(full)
        elif os.path.exists(path):
            found.append(path)
        else:
            raise BadInput(f"{path}: no such file or folder")
    return found


def not_a_log(path: str) -> tuple[str, bool] | None:
    """Why the folder entry ``path`` is not a file to read as a log, and whether that is a
    fault (a name that promises a log nobody can read: a link to nothing, a pipe); None
    for a file to read."""
    if os.path.islink(path) and not os.path.exists(path):
        return f"a link to nothing: {os.readlink(path)!r} does not exist", True
    if os.path.isdir(path):
        if os.path.islink(path):
            return "a link to a folder, not a log: not followed", False
        return "a folder, not a log: searched as a folder", False
    if not os.path.isfile(path):
        return "not a regular file (a pipe, a socket or a device)", True
    return None


class Totals(Record, frozen=False):
    """What a batch audit keeps: counts, each invalid game's first problem, win rates."""

    games: int = 0
    valid: int = 0
    invalid: list[tuple[str, str]] = field(default_factory=list)
    unreadable: int = 0
    by_players: dict[int, dict[str, int]] = field(default_factory=dict)
    by_how: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    left_out: list[tuple[str, str]] = field(default_factory=list)  # named like a log, not one

    def skip(self, path: str, why: str, fault: bool) -> None:
        """A folder entry named like a log that is not a file to read (:func:`not_a_log`),
        named with why; a fault (a link to nothing) counts as an unreadable game."""
        self.left_out.append((path, why))
        if fault:
            self.games += 1
            self.unreadable += 1
            self.invalid.append((path, f"{path}: {why}"))

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
            "left_out": [{"path": p, "why": w} for p, w in self.left_out],
        }

