"""``shmod history``: every election as a grid, the post forum players ask for most.

Built from the public view only (its ``history`` of public events): round, President,
Chancellor, each seat's vote in seating order (dead marked), the result, the policy
enacted or chaos, vetoes and powers used, as a table in whatever form the output
profile's forum shows one (:mod:`shmod.texts.formats`).
"""
from __future__ import annotations

from shmod.base.records import Record, field
from shmod.forum.events import Corrected
from shmod.game.events import (
    Chaos,
    Enacted,
    Executed,
    GameOver,
    Investigated,
    Peeked,
    Public,
    RoundBegan,
    SpecialElectionCalled,
    Tallied,
    VetoAnswered,
    Vetoed,
    VetoProposed,
)
from shmod.game.terms import EXECUTE, INVESTIGATE, PEEK, POLICY_NAMES, POWER_NAMES, SPECIAL, Power
from shmod.texts.formats import BBCode, Plain
from shmod.texts.views import PublicView

DEAD = "†"  # a seat that was dead at the vote
#: The power each targeted power's event says was used.
POWER_USED: dict[type[Public], Power] = {
    Investigated: INVESTIGATE, SpecialElectionCalled: SPECIAL, Executed: EXECUTE}


class Election(Record, frozen=False):
    """One row: an election and what followed it."""

    round: int
    president: str
    chancellor: str
    votes: list[str]
    result: str
    policy: str = ""
    notes: list[str] = field(default_factory=list)


def elections(view: PublicView) -> list[Election]:
    """Every election in order, leaving out what corrections voided."""
    events = view.history
    gone = {number for ev in events if isinstance(ev, Corrected) for number, _ in ev.voided}
    rows: list[Election] = []
    round_ = 1
    for ev in events:
        if ev.entry in gone:
            continue
        if isinstance(ev, RoundBegan):
            round_ = ev.round
        elif isinstance(ev, Tallied):
            votes = [DEAD if vote is None else "Ja" if vote else "Nein" for _, vote in ev.votes]
            result = ("Hitler elected (Eva Braun)" if ev.eva_braun else
                      "elected" if ev.elected else "failed")
            rows.append(Election(round_, ev.president, ev.chancellor, votes, result))
            if ev.not_hitler:
                rows[-1].notes.append(f"{ev.chancellor} not Hitler")
        elif not rows:
            continue
        elif isinstance(ev, Enacted) and not ev.chaos:
            rows[-1].policy = POLICY_NAMES[ev.policy]
        elif isinstance(ev, Chaos):
            rows[-1].policy = f"chaos: {POLICY_NAMES[ev.policy]}"
        elif isinstance(ev, Vetoed):
            rows[-1].policy = "vetoed"
        elif isinstance(ev, VetoProposed):
            rows[-1].notes.append("veto proposed")
        elif isinstance(ev, VetoAnswered) and not ev.accepted:
            rows[-1].notes.append("veto refused")
        elif isinstance(ev, (Investigated, SpecialElectionCalled, Executed)):
            rows[-1].notes.append(f"{POWER_NAMES[POWER_USED[type(ev)]]}: {ev.target}")
        elif isinstance(ev, Peeked):
            rows[-1].notes.append(POWER_NAMES[PEEK])
        elif isinstance(ev, GameOver):
            rows[-1].notes.append(f"the {ev.win.team} win")
    return rows


def history_text(view: PublicView, fmt: Plain, *, bbcode_table: bool = False) -> str:
    """The grid as ``fmt``'s engine shows tables (:meth:`~shmod.texts.formats.Plain.table`:
    a Markdown table, XenForo's ``[table]``, an aligned ``[code]`` block on boards without
    one, aligned plain text); ``bbcode_table``: ``[table]`` in the generic ``bbcode``
    profile (the others write what their engine has)."""
    was = dict(view.replacing)  # a seat that changed hands shows both names: who voted then
    seats = [f"{was[name]}→{name}" if name in was else name for name in view.players]
    header = ["Round", "President", "Chancellor", *seats, "Result", "Policy", "Notes"]
    rows = [[str(r.round), r.president, r.chancellor, *r.votes, r.result, r.policy,
             "; ".join(r.notes)] for r in elections(view)]
    count = f"{len(rows)} election" + ("" if len(rows) == 1 else "s")
    title = fmt.bold("Voting record") + f" ({count}; {DEAD} = dead)"
    if not rows:
        return f"{title}: no election yet."
    if bbcode_table and isinstance(fmt, BBCode) and fmt.name == "bbcode":  # generic BBCode
        grid = fmt.tag_table(header, rows)
    else:
        grid = fmt.table(header, rows)
    return fmt.blocks([title, grid])
