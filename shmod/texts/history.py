"""``shmod history``: every election, the post forum players ask for most.

Built from the public view only (its ``history`` of public events): round, President,
Chancellor, each seat's vote in seating order, the result, the policy enacted or chaos,
vetoes and powers used. One block a round, the votes listed by ballot in seating order
(``Ja (3): Ann, Bob, Dan``), so that it reads on a phone and at 80 columns (plain text
folds its lines there, keeping names whole); a lapsed vote is marked as the tally marks
it. ``grid``: the wide table of the old record, a column per seat, in whatever form the
output profile's forum shows a table (:mod:`shmod.texts.formats`), for a screen wide
enough to hold it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from shmod.base.records import Record, field
from shmod.forum.deadlines import late_votes
from shmod.forum.events import (
    Claimed,
    Corrected,
    DeadlineSet,
    DeadlineSpent,
    Dealt,
    HandedOver,
    Lapsed,
    ModeratorsChanged,
    Removed,
    Renamed,
    Replaced,
    Started,
)
from shmod.game.events import (
    Chaos,
    Enacted,
    Executed,
    GameOver,
    Investigated,
    Nominated,
    Peeked,
    PowerGranted,
    PowerSkipped,
    Public,
    Reshuffled,
    RoundBegan,
    SpecialElectionCalled,
    Tallied,
    VetoAnswered,
    Vetoed,
    VetoProposed,
    VetoVoted,
)
from shmod.game.terms import EXECUTE, INVESTIGATE, PEEK, SPECIAL, Power
from shmod.texts import claim_texts, glossary
from shmod.texts.catalog import Language, get as language
from shmod.texts.formats import BBCode, Plain
from shmod.texts.markup import marks
from shmod.texts.views import PublicView, removed_names

DEAD = "†"  # a seat that was dead at the vote
REMOVED = "×"  # a seat the moderator had removed by the vote (R-MODKILL)
#: The power each targeted power's event says was used.
POWER_USED: dict[type[Public], Power] = {
    Investigated: INVESTIGATE, SpecialElectionCalled: SPECIAL, Executed: EXECUTE}


class Election(Record, frozen=False):
    """One election and what followed it: ``votes`` in seating order, each seat's player
    then and their vote (None for the dead); ``late``: the votes a lapse cast (R-LAPSE)."""

    round: int
    president: str
    chancellor: str
    votes: list[tuple[str, bool | None]]
    result: str
    policy: str = ""
    notes: list[str] = field(default_factory=list)
    late: tuple[str, ...] = ()

    def grid(self, removed: frozenset[str] = frozenset()) -> list[str]:
        """The votes as the grid's cells: Ja, Nein, † for a dead seat, or × for a seat of
        ``removed`` (the moderator removed it)."""
        return [(REMOVED if name in removed else DEAD) if vote is None
                else glossary.ballot(vote) for name, vote in self.votes]


class VotingRecord(Record, frozen=False):
    """The voting record as it is read, event by event: the elections so far, the round
    the next one is in, and the votes each lapse cast (R-LAPSE)."""

    t: Language
    late: dict[int, tuple[str, ...]]
    rows: list[Election] = field(default_factory=list)
    round: int = 1


#: What one public event writes in the voting record as it is read (a row of
#: :data:`HISTORY_CELLS`).
HistoryCell = Callable[[VotingRecord, Any], None]
E = TypeVar("E", bound=Public)


def elections(view: PublicView, lang: Language | None = None) -> list[Election]:
    """Every election in order, leaving out what corrections voided, worded in ``lang``
    (English by default): each event's row of :data:`HISTORY_CELLS`."""
    events = view.history
    gone = {number for ev in events if isinstance(ev, Corrected) for number, _ in ev.voided}
    record = VotingRecord(lang or language(None), late_votes(events))
    for ev in events:
        cell = HISTORY_CELLS[type(ev)]
        if ev.entry not in gone and cell is not None:
            cell(record, ev)
    return record.rows


def _round_began(record: VotingRecord, ev: RoundBegan) -> None:
    record.round = ev.round


def _tallied(record: VotingRecord, ev: Tallied) -> None:
    t = record.t
    result = (t._p("history result", "Hitler elected (Eva Braun)") if ev.eva_braun
              else t._p("history result", "elected") if ev.elected
              else t._p("history result", "failed"))
    record.rows.append(Election(record.round, ev.president, ev.chancellor, list(ev.votes),
                                result, late=record.late.get(ev.entry, ())))
    if ev.not_hitler:
        record.rows[-1].notes.append(t._p("history note", "{name} not Hitler",
                                          name=ev.chancellor))


def _last(cell: Callable[[Election, E, Language], None]) -> HistoryCell:
    """A cell of the last election: an event before the first one writes nothing."""
    def write(record: VotingRecord, ev: E) -> None:
        if record.rows:
            cell(record.rows[-1], ev, record.t)
    return write


def _enacted(row: Election, ev: Enacted, t: Language) -> None:
    if not ev.chaos:
        row.policy = glossary.policy(t, ev.policy)


def _chaos(row: Election, ev: Chaos, t: Language) -> None:
    # TRANSLATORS: the policy column of the voting record: chaos enacted the top
    # policy ({policy} is its party word, e.g. "Liberal").
    row.policy = t._p("history policy", "chaos: {policy}", policy=glossary.policy(t, ev.policy))


def _vetoed(row: Election, ev: Vetoed, t: Language) -> None:
    row.policy = t._p("history policy", "vetoed")


def _veto_proposed(row: Election, ev: VetoProposed, t: Language) -> None:
    row.notes.append(t._p("history note", "veto proposed"))


def _veto_answered(row: Election, ev: VetoAnswered, t: Language) -> None:
    if not ev.accepted:
        row.notes.append(t._p("history note", "veto refused"))


def _power_used(row: Election, ev: Investigated | SpecialElectionCalled | Executed,
                t: Language) -> None:
    # TRANSLATORS: a power used in this government, and on whom.
    row.notes.append(t._p("history note", "{power}: {name}",
                          power=glossary.power(t, POWER_USED[type(ev)]), name=ev.target))


def _peeked(row: Election, ev: Peeked, t: Language) -> None:
    row.notes.append(glossary.power(t, PEEK))


def _game_over(row: Election, ev: GameOver, t: Language) -> None:
    row.notes.append(t._p("history note", "the Liberals win") if ev.win.team == "Liberals"
                     else t._p("history note", "the Fascists win"))


#: What each public event writes in the voting record, one row per event class: ``None``
#: for an event the record does not show (a deadline, a nomination, the forum's events).
HISTORY_CELLS: dict[type[Public], HistoryCell | None] = {
    RoundBegan: _round_began, Tallied: _tallied, Enacted: _last(_enacted),
    Chaos: _last(_chaos), Vetoed: _last(_vetoed), VetoProposed: _last(_veto_proposed),
    VetoAnswered: _last(_veto_answered), Investigated: _last(_power_used),
    SpecialElectionCalled: _last(_power_used), Executed: _last(_power_used),
    Peeked: _last(_peeked), GameOver: _last(_game_over),
    Nominated: None, VetoVoted: None, Reshuffled: None, PowerGranted: None,
    PowerSkipped: None, Started: None, Dealt: None, DeadlineSet: None, Lapsed: None,
    DeadlineSpent: None, Renamed: None, Replaced: None, Corrected: None, Removed: None,
    ModeratorsChanged: None, HandedOver: None, Claimed: None,
}


def history_text(view: PublicView, fmt: Plain, *, grid: bool = False,
                 bbcode_table: bool = False) -> str:
    """The voting record: a block a round (:func:`rounds`), or with ``grid`` the wide table
    (:func:`grid_text`)."""
    t = fmt.lang
    rows = elections(view, t)
    # Not nested in the call below: Babel's extractor would lose that message's plural.
    record = fmt.bold(t._("Voting record"))
    # TRANSLATORS: the voting record's title; {record} is "Voting record" in bold.
    title = t._n("{record} ({n} election)", "{record} ({n} elections)", len(rows),
                 record=record)
    if not rows:
        return t._("{title}: no election yet.", title=title)
    if grid or bbcode_table:
        return fmt.blocks([title, grid_text(view, rows, fmt, bbcode_table=bbcode_table)])
    if view.replacing:  # each round names who voted then: say whose seat each took
        # TRANSLATORS: {seats} lists the seats that changed hands, each "Cy→Zed".
        title = fmt.lines([title, fmt.fold(t._p("history", "Seats that changed hands: "
                                                "{seats}.", seats=", ".join(
                                                    _seat(t, fmt.escape(was), fmt.escape(name))
                                                    for name, was in view.replacing)))])
    return "\n\n".join([title, *(rounds(row, fmt) for row in rows)])  # a blank line each


def record_text(view: PublicView, fmt: Plain, truth: claim_texts.Truth | None = None, *,
                grid: bool = False, bbcode_table: bool = False, over: bool = False) -> str:
    """``shmod history``: the voting record, then every claim (R-CLAIM) after a blank line,
    marked true or false with ``truth`` (a finished game); ``over`` without ``truth``: the
    game is over but the claims' truth is told elsewhere (:func:`claim_texts.lines_text`)."""
    said = (claim_texts.table_text(view.history, fmt, truth, bbcode_table=bbcode_table)
            if grid or bbcode_table
            else claim_texts.lines_text(view.history, fmt, truth, over=over))
    return "\n\n".join(filter(None, [history_text(view, fmt, grid=grid,
                                                     bbcode_table=bbcode_table), said]))


def _seat(t: Language, before: str, after: str) -> str:
    # TRANSLATORS: a seat of the voting record that changed hands: who sat there first,
    # then who took it over.
    return t._p("history column", "{before}→{after}", before=before, after=after)


def rounds(row: Election, fmt: Plain) -> str:
    """One election as a block of lines: who, the result and the policy; each ballot's
    voters in seating order (a lapsed vote marked); the notes."""
    e, t = fmt.escape, fmt.lang
    # TRANSLATORS: the first line of an election in the voting record; {on} and {off} put
    # "Round {round}" in bold; {president} and {chancellor} are players' names.
    said = [t._p("history", "{on}Round {round}{off} · President {president} · Chancellor "
                 "{chancellor}", round=row.round, president=e(row.president),
                 chancellor=e(row.chancellor), **marks(fmt.bold)), row.result]
    first = " · ".join([*said, row.policy] if row.policy else said)
    lines, whole = [first], [name for name, _ in row.votes]  # what a fold keeps whole
    for ballot in (True, False):
        voters = [t._p("history", "{name} (no vote by the deadline)", name=e(name))
                  if name in row.late else e(name)
                  for name, vote in row.votes if vote is ballot]
        whole += voters
        # TRANSLATORS: one ballot's voters in the voting record: {ballot} is Ja or Nein,
        # the same in every language, {count} how many cast it, {names} who, in seating
        # order (a dash for nobody).
        lines.append(t._p("history", "{ballot} ({count}): {names}",
                          ballot=glossary.ballot(ballot), count=len(voters),
                          names=", ".join(voters) or "—"))
    if row.notes:
        # TRANSLATORS: what else happened in this government: powers, vetoes, the winner.
        lines.append(t._p("history", "Notes: {notes}", notes=e("; ".join(row.notes))))
    return fmt.lines([fmt.fold(line, whole) for line in lines])


def grid_text(view: PublicView, rows: list[Election], fmt: Plain, *,
              bbcode_table: bool = False) -> str:
    """The grid as ``fmt``'s engine shows tables (:meth:`~shmod.texts.formats.Plain.table`:
    a Markdown table, XenForo's ``[table]``, an aligned ``[code]`` block on boards without
    one, aligned plain text); ``bbcode_table``: ``[table]`` in the generic ``bbcode``
    profile (the others write what their engine has). A seat's column shows its votes
    (``†`` dead); wide: for a screen that holds a column per seat."""
    t = fmt.lang
    was = dict(view.replacing)  # a seat that changed hands shows both names: who voted then
    seats = [_seat(t, was[name], name) if name in was else name for name in view.players]
    header = [t._p("history column", "Round"), t._p("history column", "President"),
              t._p("history column", "Chancellor"), *seats, t._p("history column", "Result"),
              t._p("history column", "Policy"), t._p("history column", "Notes")]
    removed = removed_names(view.history)
    cells = [[str(r.round), r.president, r.chancellor, *r.grid(removed), r.result, r.policy,
              "; ".join(r.notes)] for r in rows]
    # TRANSLATORS: under the grid: the mark of a seat that was dead at the vote.
    legend = t._("{dead} = dead", dead=DEAD)
    if any(REMOVED in row for row in cells):
        # TRANSLATORS: under the grid, after the mark of a dead seat: the mark of a seat
        # the moderator had removed from the game by the vote.
        legend = t._("{dead}; {removed} = removed", dead=legend, removed=REMOVED)
    if bbcode_table and isinstance(fmt, BBCode) and fmt.name == "bbcode":  # generic BBCode
        return fmt.blocks([fmt.tag_table(header, cells), legend])
    return fmt.blocks([fmt.table(header, cells), legend])
