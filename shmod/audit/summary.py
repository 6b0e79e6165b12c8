"""The summary of a replayed game, built from its public record (R-THREAD) only."""
from __future__ import annotations

from typing import Any

from shmod.base.records import Record, field, values
from shmod.forum.corrections import voided
from shmod.forum.events import Lapsed, Removed, Replaced
from shmod.forum.table import Table
from shmod.game.events import (
    Chaos,
    Enacted,
    Executed,
    Investigated,
    Peeked,
    PowerSkipped,
    Reshuffled,
    SpecialElectionCalled,
    Tallied,
    Vetoed,
    VetoProposed,
)
from shmod.game.explain import win_text
from shmod.game.state import State
from shmod.game.terms import FASCISTS, LIBERAL, LIBERALS, POWER_NAMES

#: How a game was won: the win conditions of R-WIN-LIB and R-WIN-FAS (with Eva Braun's tie),
#: and the forum's one: Hitler's seat removed (R-MODKILL).
HOW = {
    "liberal_policies": "five Liberal policies (R-WIN-LIB)",
    "hitler_executed": "Hitler executed (R-WIN-LIB)",
    "hitler_removed": "Hitler removed by the moderator (R-MODKILL)",
    "fascist_policies": "six Fascist policies (R-WIN-FAS)",
    "hitler_elected": "Hitler elected Chancellor (R-HITLER-ELECTED)",
    "hitler_elected_tie": "Hitler elected Chancellor on a tied vote (R-EVA-BRAUN)",
}


class Summary(Record, frozen=False):
    """What happened in a game, counted from the public events of its replay."""

    players: int
    winner: str | None = None
    how: str | None = None
    rule: str | None = None
    reason: str | None = None
    rounds: int = 0
    elections: int = 0
    elected: int = 0
    failed: int = 0
    governments: list[list[str]] = field(default_factory=list)
    liberal: int = 0
    fascist: int = 0
    enacted: list[dict[str, Any]] = field(default_factory=list)
    chaos: int = 0
    powers: list[dict[str, Any]] = field(default_factory=list)
    powers_skipped: int = 0
    vetoes_proposed: int = 0
    vetoes: int = 0
    deaths: list[str] = field(default_factory=list)
    reshuffles: int = 0
    removals: list[str] = field(default_factory=list)  # R-MODKILL: the seats' names
    replacements: list[list[str]] = field(default_factory=list)  # R-REPLACE: [old, new]
    lapses: list[dict[str, Any]] = field(default_factory=list)  # R-LAPSE: phase, late

    def to_json(self) -> dict[str, Any]:
        return values(self)


def summarize(table: Table) -> Summary:
    """Count the public record of ``table`` (a finished or partly replayed game)."""
    state = table.game
    out = Summary(players=len(state.players), rounds=state.round)
    void = voided(table)
    for event in (ev for ev in table.public if ev.entry not in void):
        if isinstance(event, Tallied):
            out.elections += 1
            if event.elected:
                out.elected += 1
                out.governments.append([event.president, event.chancellor])
            else:
                out.failed += 1
        elif isinstance(event, Enacted):
            by = "chaos" if event.chaos else "government"
            item = {"policy": "Liberal" if event.policy == LIBERAL else "Fascist", "by": by}
            if not event.chaos:
                item.update(president=event.president, chancellor=event.chancellor)
            out.enacted.append(item)
        elif isinstance(event, Chaos):
            out.chaos += 1
        elif isinstance(event, (Investigated, SpecialElectionCalled, Executed, Peeked)):
            target = None if isinstance(event, Peeked) else event.target
            out.powers.append({"power": event.kind, "president": event.president,
                               "target": target})
            if isinstance(event, Executed):
                out.deaths.append(event.target)
        elif isinstance(event, PowerSkipped):
            out.powers_skipped += 1
        elif isinstance(event, VetoProposed):
            out.vetoes_proposed += 1
        elif isinstance(event, Vetoed):
            out.vetoes += 1
        elif isinstance(event, Reshuffled):
            out.reshuffles += 1
        elif isinstance(event, Removed):
            out.removals.append(event.name)
        elif isinstance(event, Replaced):
            out.replacements.append([event.old, event.new])
        elif isinstance(event, Lapsed):
            out.lapses.append({"phase": event.phase, "late": list(event.late)})
    out.liberal, out.fascist = state.liberal, state.fascist
    if state.win:
        out.winner, out.rule, out.reason = state.win.team, state.win.rule, win_text(state.win)
        out.how = how_won(state)
    return out


def how_won(state: State) -> str | None:
    """The key in :data:`HOW` of the way the game was won, if it is over."""
    if state.winner == LIBERALS:
        if state.win and state.win.rule == "R-MODKILL":
            return "hitler_removed"
        return "hitler_executed" if not state.alive[state.hitler] else "liberal_policies"
    if state.winner == FASCISTS:
        return {"R-HITLER-ELECTED": "hitler_elected",
                "R-EVA-BRAUN": "hitler_elected_tie"}.get(state.win.rule if state.win else "",
                                                         "fascist_policies")
    return None


def lines(summary: Summary) -> list[str]:
    """The summary as short lines of text for the terminal."""
    if summary.winner:
        head = f"Winner: the {summary.winner}: {summary.reason} ({summary.rule})"
    else:
        head = "Winner: none yet (the game is not over)"
    gov = sum(1 for e in summary.enacted if e["by"] == "government")
    by_whom = ", ".join(
        f"{e['policy'][0]} by {e['president']}+{e['chancellor']}" if e["by"] == "government"
        else f"{e['policy'][0]} by chaos" for e in summary.enacted)
    powers = ", ".join(
        f"{POWER_NAMES.get(p['power'], p['power'])} by {p['president']}"
        + (f" on {p['target']}" if p["target"] else "") for p in summary.powers) or "none"
    return [
        head,
        f"Rounds: {summary.rounds}   Elections: {summary.elections} held, "
        f"{summary.elected} elected, {summary.failed} failed   Governments: "
        f"{len(summary.governments)}",
        f"Policies: {summary.liberal} Liberal, {summary.fascist} Fascist "
        f"({gov} by governments, {summary.chaos} by chaos): {by_whom or 'none'}",
        f"Powers used: {powers}" + (f" ({summary.powers_skipped} skipped, R-NO-TARGET)"
                                    if summary.powers_skipped else ""),
        f"Vetoes: {summary.vetoes_proposed} proposed, {summary.vetoes} vetoed   "
        f"Deaths: {', '.join(summary.deaths) or 'none'}   Reshuffles: {summary.reshuffles}",
        _seats_and_clock(summary),
    ]


def _seats_and_clock(summary: Summary) -> str:
    """The forum's part: seats removed (R-MODKILL) and replaced (R-REPLACE), and the
    deadlines that lapsed (R-LAPSE), each with the phase it lapsed in and who was late."""
    replaced = ", ".join(f"{old} by {new}" for old, new in summary.replacements)
    lapses = "; ".join(lapse["phase"] + (f": {', '.join(lapse['late'])} late"
                                         if lapse["late"] else "") for lapse in summary.lapses)
    return (f"Removed: {', '.join(summary.removals) or 'none'}   Replaced: {replaced or 'none'}"
            f"   Lapses: {len(summary.lapses)}" + (f" ({lapses})" if lapses else ""))


__all__ = ["HOW", "Summary", "how_won", "lines", "summarize"]
