"""``shmod status``: the public board as text for the moderator's terminal.

Plain aligned text with box lines, bold and colour only on a terminal that wants them
(not with ``NO_COLOR``): a start-up of a few milliseconds, where a terminal-drawing
library would cost more than everything else ``status`` does.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TextIO

from shmod.base.plaintext import escaped
from shmod.forum.explain import waiting_text, who_records
from shmod.game.explain import TERM_LIMIT, win_text
from shmod.game.terms import POWER_NAMES
from shmod.texts.views import PublicView

if TYPE_CHECKING:
    from datetime import datetime

    Cell = tuple[str, tuple[str, ...]]  # a table cell: its text and its styles

SHORT = {"investigate": "Investigate", "special_election": "Special Election",
         "peek": "Peek", "execute": "Execution"}
_STYLES = {"bold": "1", "dim": "2", "red": "31", "blue": "34", "strike": "9"}


class Ink:
    """ANSI emphasis when writing to a terminal, none otherwise."""

    def __init__(self, out: TextIO) -> None:
        self.on = out.isatty() and "NO_COLOR" not in os.environ and \
            os.environ.get("TERM") != "dumb"

    def __call__(self, text: str, *styles: str) -> str:
        if not self.on or not styles:
            return text
        codes = ";".join(_STYLES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"


def table(title: str, header: list[str], rows: list[list[Cell]],
          ink: Ink, right: frozenset[int] = frozenset()) -> list[str]:
    """A boxed table: ``rows`` of ``(text, styles)`` cells, column widths from the text
    (shown escaped: a log may come from anyone)."""
    rows = [[(escaped(text), styles) for text, styles in row] for row in rows]
    widths = [max([len(header[c])] + [len(row[c][0]) for row in rows])
              for c in range(len(header))]

    def line(cells: list[Cell]) -> str:
        shown = [ink(text.rjust(w) if c in right else text.ljust(w), *styles)
                 for c, ((text, styles), w) in enumerate(zip(cells, widths))]
        return "│ " + " │ ".join(shown) + " │"

    rule = "─┼─".join("─" * w for w in widths)
    out = [ink(title, "bold"), "┌─" + "─┬─".join("─" * w for w in widths) + "─┐",
           line([(h, ("bold",)) for h in header]), "├─" + rule + "─┤"]
    out += [line(row) for row in rows]
    out.append("└─" + "─┴─".join("─" * w for w in widths) + "─┘")
    return out


def track(view: PublicView, ink: Ink) -> list[str]:
    """Both policy tracks, each slot with its power, and the Election Tracker."""
    slots = max(view.liberal_win, view.fascist_win)
    lib: list[Cell] = [("L", ("bold", "blue")) if n <= view.liberal else ("·", ())
           for n in range(1, view.liberal_win + 1)]
    if view.liberal < view.liberal_win:
        lib[-1] = ("win", ("blue",))
    fas: list[Cell] = []
    for n in range(1, view.fascist_win + 1):
        power = view.powers[n - 1] if n <= len(view.powers) else None
        label = SHORT[power] if power else ("win" if n == view.fascist_win else "·")
        fas.append(("F", ("bold", "red")) if n <= view.fascist
                   else (label, ("red",) if power or n == view.fascist_win else ()))
    blank: Cell = ("", ())
    rows = [[("Liberal", ("blue",)), *lib, *[blank] * (slots - len(lib))],
            [("Fascist", ("red",)), *fas, *[blank] * (slots - len(fas))]]
    return table("Board", ["Track", *map(str, range(1, slots + 1))], rows, ink)


def seating(view: PublicView, ink: Ink) -> list[str]:
    """The seats with President, Chancellor, term-limit, not-Hitler and dead markers."""
    limited = dict(view.term_limited)
    replacing = dict(view.replacing)
    prods = dict(view.prods)
    voting = view.phase == "vote"
    rows: list[list[Cell]] = []
    for seat, (name, up) in enumerate(zip(view.players, view.alive), 1):
        marks = []
        if name == view.president and view.winner is None:
            marks.append("President" if view.phase not in ("nominate", "vote")
                         else "Presidential Candidate")
        if name == view.chancellor and view.winner is None:
            marks.append("Chancellor" if view.phase not in ("nominate", "vote")
                         else "Chancellor nominee")
        if name in limited:
            marks.append(f"term-limited ({TERM_LIMIT[limited[name]]})")
        if name in view.not_hitler:
            marks.append("not Hitler")
        if name in replacing:
            marks.append(f"replacing {replacing[name]}")
        if name in view.investigated:
            marks.append("investigated")
        if voting and up:
            marks.append("voted" if name in view.voted else "not voted yet")
        if view.phase == "deal":
            marks.append("word posted" if name in view.voted else "no word yet")
        if name in prods:
            marks.append(f"prodded {prods[name]}×")
        if not up:
            marks.append("removed" if name in view.removed else "dead")
        style = ("dim", "strike") if not up else ("bold",) if name == view.president else ()
        rows.append([(str(seat), ()), (name, style), (", ".join(marks), ())])
    return table("Seating", ["#", "Player", "Markers"], rows, ink, right=frozenset({0}))


def lines(view: PublicView, ink: Ink, now: datetime | None) -> list[str]:
    """The whole board, line by line, as it stands at ``now`` (the deadline's time left;
    only needed when a deadline is in force)."""
    out = track(view, ink)
    out.append(f"Election Tracker: {ink(str(view.tracker), 'bold')}/{view.chaos_at}   "
               f"Draw pile: {ink(str(view.draw_size), 'bold')}   Discard pile: "
               f"{ink(str(view.discard_size), 'bold')}   Board: {view.board} players   "
               f"Alive: {view.living}/{len(view.players)}")
    out += seating(view, ink)
    if view.win:
        out.append(ink(escaped(f"Game over: the {view.winner} won ({win_text(view.win)})."),
                       "bold"))
        return out
    power = f" — {POWER_NAMES[view.power]}" if view.power else ""
    out.append(f"Round {view.round}, phase: {ink(view.phase, 'bold')}{power}")
    out.append(escaped(f"Waiting for {waiting_text(view.waiting)}"))
    from shmod.texts import forum_texts

    deadline = forum_texts.deadline_line(view, now) if now is not None else None
    if deadline:
        deadline = escaped(deadline)
        out.append(ink(deadline, "bold", "red") if "OVERDUE" in deadline else deadline)
    if view.next_president:
        out.append(escaped(f"Next Presidential Candidate after this round: "
                           f"{view.next_president}"))
    if view.backups:
        out.append(escaped("Backup players, in order: " + ", ".join(view.backups)))
    out += [escaped(line) for line in who_records(view.moderators, view.handover, view.taken)]
    return out


def show(view: PublicView, now: datetime | None, out: TextIO | None = None) -> None:
    """Print the whole board as it stands at ``now``."""
    out = out or sys.stdout
    out.write("\n".join(lines(view, Ink(out), now)) + "\n")
