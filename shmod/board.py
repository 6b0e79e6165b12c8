"""``shmod status``: the public board rendered with rich for the moderator's terminal."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from shmod.rules import POWER_NAMES
from shmod.views import PublicView

SHORT = {"investigate": "Investigate", "special_election": "Special Election",
         "peek": "Peek", "execute": "Execution"}


def track(view: PublicView) -> Table:
    """Both policy tracks, each slot with its power, and the Election Tracker."""
    table = Table(title="Board", show_header=True, header_style="bold")
    table.add_column("Track")
    slots = max(view.liberal_win, view.fascist_win)
    for n in range(1, slots + 1):
        table.add_column(str(n), justify="center")
    lib = [Text("L", style="bold white on blue") if n <= view.liberal else Text("·")
           for n in range(1, view.liberal_win + 1)]
    lib[-1] = lib[-1] if view.liberal >= view.liberal_win else Text("win", style="blue")
    fas: list[Text] = []
    for n in range(1, view.fascist_win + 1):
        power = view.powers[n - 1] if n <= len(view.powers) else None
        label = SHORT[power] if power else ("win" if n == view.fascist_win else "·")
        if n <= view.fascist:
            fas.append(Text("F", style="bold white on red"))
        else:
            fas.append(Text(label, style="red" if power or n == view.fascist_win else ""))
    table.add_row(Text("Liberal", style="blue"), *lib, *([""] * (slots - len(lib))))
    table.add_row(Text("Fascist", style="red"), *fas, *([""] * (slots - len(fas))))
    return table


def seating(view: PublicView) -> Table:
    """The seats with President, Chancellor, term-limit, not-Hitler and dead markers."""
    table = Table(title="Seating", show_header=True, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Markers")
    limited = dict(view.term_limited)
    voting = view.phase == "vote"
    for seat, (name, up) in enumerate(zip(view.players, view.alive), 1):
        marks = []
        if name == view.president and view.winner is None:
            marks.append("President" if view.phase not in ("nominate", "vote")
                         else "Presidential Candidate")
        if name == view.chancellor and view.winner is None:
            marks.append("Chancellor" if view.phase not in ("nominate", "vote")
                         else "Chancellor nominee")
        if name in limited:
            marks.append(f"term-limited ({limited[name]})")
        if name in view.not_hitler:
            marks.append("not Hitler")
        if name in dict(view.replacing):
            marks.append(f"replacing {dict(view.replacing)[name]}")
        if name in view.investigated:
            marks.append("investigated")
        if voting and up:
            marks.append("voted" if name in view.voted else "not voted yet")
        if not up:
            marks.append("dead")
        style = "dim strike" if not up else ("bold" if name == view.president else "")
        table.add_row(str(seat), Text(name, style=style), Text(", ".join(marks)))
    return table


def show(view: PublicView, console: Console | None = None) -> None:
    """Print the whole board."""
    console = console or Console(highlight=False, emoji=False)
    console.print(track(view))
    console.print(
        f"Election Tracker: [bold]{view.tracker}[/bold]/{view.chaos_at}   "
        f"Draw pile: [bold]{view.draw_size}[/bold]   Discard pile: "
        f"[bold]{view.discard_size}[/bold]   Board: {view.board} players   "
        f"Alive: {view.living}/{len(view.players)}"
    )
    console.print(seating(view))
    if view.winner:
        console.print(Text(f"Game over: the {view.winner} won ({view.win_reason}).",
                           style="bold"))
        return
    power = f" — {POWER_NAMES[view.power]}" if view.power else ""
    console.print(Text.assemble(f"Round {view.round}, phase: ", (view.phase, "bold"), power))
    console.print(Text(f"Waiting for {view.waiting}"))
    from shmod import forum, forum_texts

    deadline = forum_texts.deadline_line(view, forum.now_utc())
    if deadline:
        console.print(Text(deadline, style="bold red" if "OVERDUE" in deadline else ""))
    if view.next_president:
        console.print(Text(f"Next Presidential Candidate after this round: {view.next_president}"))
