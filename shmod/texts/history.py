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
from shmod.game.terms import EXECUTE, INVESTIGATE, PEEK, SPECIAL, Power
from shmod.texts import glossary
from shmod.texts.catalog import Language, get as language
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


def elections(view: PublicView, lang: Language | None = None) -> list[Election]:
    """Every election in order, leaving out what corrections voided, worded in ``lang``
    (English by default)."""
    t = lang or language(None)
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
            votes = [DEAD if vote is None else glossary.ballot(vote) for _, vote in ev.votes]
            result = (t._p("history result", "Hitler elected (Eva Braun)") if ev.eva_braun
                      else t._p("history result", "elected") if ev.elected
                      else t._p("history result", "failed"))
            rows.append(Election(round_, ev.president, ev.chancellor, votes, result))
            if ev.not_hitler:
                rows[-1].notes.append(t._p("history note", "{name} not Hitler",
                                           name=ev.chancellor))
        elif not rows:
            continue
        elif isinstance(ev, Enacted) and not ev.chaos:
            rows[-1].policy = glossary.policy(t, ev.policy)
        elif isinstance(ev, Chaos):
            # TRANSLATORS: the policy column of the voting record: chaos enacted the top
            # policy ({policy} is its party word, e.g. "Liberal").
            rows[-1].policy = t._p("history policy", "chaos: {policy}",
                                   policy=glossary.policy(t, ev.policy))
        elif isinstance(ev, Vetoed):
            rows[-1].policy = t._p("history policy", "vetoed")
        elif isinstance(ev, VetoProposed):
            rows[-1].notes.append(t._p("history note", "veto proposed"))
        elif isinstance(ev, VetoAnswered) and not ev.accepted:
            rows[-1].notes.append(t._p("history note", "veto refused"))
        elif isinstance(ev, (Investigated, SpecialElectionCalled, Executed)):
            # TRANSLATORS: a power used in this government, and on whom.
            rows[-1].notes.append(t._p("history note", "{power}: {name}",
                                       power=glossary.power(t, POWER_USED[type(ev)]),
                                       name=ev.target))
        elif isinstance(ev, Peeked):
            rows[-1].notes.append(glossary.power(t, PEEK))
        elif isinstance(ev, GameOver):
            rows[-1].notes.append(t._p("history note", "the {team} win",
                                       team=glossary.team(t, ev.win.team)))
    return rows


def history_text(view: PublicView, fmt: Plain, *, bbcode_table: bool = False) -> str:
    """The grid as ``fmt``'s engine shows tables (:meth:`~shmod.texts.formats.Plain.table`:
    a Markdown table, XenForo's ``[table]``, an aligned ``[code]`` block on boards without
    one, aligned plain text); ``bbcode_table``: ``[table]`` in the generic ``bbcode``
    profile (the others write what their engine has)."""
    t = fmt.lang
    was = dict(view.replacing)  # a seat that changed hands shows both names: who voted then
    # TRANSLATORS: a seat of the voting record that changed hands: who sat there first,
    # then who took it over.
    seats = [t._p("history column", "{before}→{after}", before=was[name], after=name)
             if name in was else name for name in view.players]
    header = [t._p("history column", "Round"), t._p("history column", "President"),
              t._p("history column", "Chancellor"), *seats, t._p("history column", "Result"),
              t._p("history column", "Policy"), t._p("history column", "Notes")]
    rows = [[str(r.round), r.president, r.chancellor, *r.votes, r.result, r.policy,
             "; ".join(r.notes)] for r in elections(view, t)]
    # Not nested in the call below: Babel's extractor would lose that message's plural.
    record = fmt.bold(t._("Voting record"))
    # TRANSLATORS: the voting record's title; {record} is "Voting record" in bold, {dead}
    # the mark of a seat that was dead at the vote.
    title = t._n("{record} ({n} election; {dead} = dead)",
                 "{record} ({n} elections; {dead} = dead)", len(rows), record=record,
                 dead=DEAD)
    if not rows:
        return t._("{title}: no election yet.", title=title)
    if bbcode_table and isinstance(fmt, BBCode) and fmt.name == "bbcode":  # generic BBCode
        grid = fmt.tag_table(header, rows)
    else:
        grid = fmt.table(header, rows)
    return fmt.blocks([title, grid])
