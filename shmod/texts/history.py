"""``shmod history``: every election as a grid, the post forum players ask for most.

Built from the public view only (its ``history`` of public events): round, President,
Chancellor, each seat's vote in seating order (dead marked), the result, the policy
enacted or chaos, vetoes and powers used. Markdown gets a table; BBCode a ``[code]``
block aligned in monospace (most forums have no table tag), or ``[table]`` on request;
plain text an aligned grid.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from shmod.core.rules import POLICY_NAMES, POWER_NAMES
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView

DEAD = "†"  # a seat that was dead at the vote


@dataclass
class Election:
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
    gone = {number for ev in events if ev.kind == "correction"
            for number, _ in ev.data["voided"]}
    rows: list[Election] = []
    round_ = 1
    for ev in events:
        if ev.entry in gone:
            continue
        d = ev.data
        if ev.kind == "round":
            round_ = d["round"]
        elif ev.kind == "tally":
            votes = [DEAD if vote is None else "Ja" if vote else "Nein" for _, vote in d["votes"]]
            result = ("Hitler elected (Eva Braun)" if d.get("eva_braun") else
                      "elected" if d["elected"] else "failed")
            rows.append(Election(round_, d["president"], d["chancellor"], votes, result))
            if d.get("not_hitler"):
                rows[-1].notes.append(f"{d['chancellor']} not Hitler")
        elif not rows:
            continue
        elif ev.kind == "enact" and not d["chaos"]:
            rows[-1].policy = POLICY_NAMES[d["policy"]]
        elif ev.kind == "chaos":
            rows[-1].policy = f"chaos: {POLICY_NAMES[d['policy']]}"
        elif ev.kind == "vetoed":
            rows[-1].policy = "vetoed"
        elif ev.kind == "veto_proposed":
            rows[-1].notes.append("veto proposed")
        elif ev.kind == "veto_answered" and not d["accepted"]:
            rows[-1].notes.append("veto refused")
        elif ev.kind in ("investigate", "special_election", "execute"):
            rows[-1].notes.append(f"{POWER_NAMES[ev.kind]}: {d['target']}")
        elif ev.kind == "peek":
            rows[-1].notes.append(POWER_NAMES["peek"])
        elif ev.kind == "game_over":
            rows[-1].notes.append(f"the {d['winner']} win")
    return rows


def history_text(view: PublicView, fmt: Plain, *, bbcode_table: bool = False) -> str:
    """The grid in ``fmt``: a Markdown table, a BBCode ``[code]`` block (or ``[table]``),
    or aligned plain text."""
    header = ["Round", "President", "Chancellor", *view.players, "Result", "Policy", "Notes"]
    rows = [[str(r.round), r.president, r.chancellor, *r.votes, r.result, r.policy,
             "; ".join(r.notes)] for r in elections(view)]
    count = f"{len(rows)} election" + ("" if len(rows) == 1 else "s")
    title = fmt.bold("Voting record") + f" ({count}; {DEAD} = dead)"
    if not rows:
        return f"{title}: no election yet."
    if fmt.name == "markdown":
        def cells(row: list[str]) -> str:
            return "| " + " | ".join(fmt.escape(c) or " " for c in row) + " |"
        table = [cells(header), "|" + "---|" * len(header), *map(cells, rows)]
        return title + "\n\n" + "\n".join(table)
    if fmt.name == "bbcode" and bbcode_table:
        def tr(row: list[str], tag: str) -> str:
            return "[tr]" + "".join(f"[{tag}]{fmt.escape(c)}[/{tag}]" for c in row) + "[/tr]"
        return (title + "\n[table]" + tr(header, "th") + "".join(tr(r, "td") for r in rows)
                + "[/table]")
    grid = _aligned([header, *rows])
    if fmt.name == "bbcode":  # tags are not read inside [code]; only its end must not occur
        grid = re.sub(r"\[/code\]", "[/co de]", grid, flags=re.IGNORECASE)
        return f"{title}\n[code]{grid}[/code]"
    return f"{title}\n{grid}"


def _aligned(rows: list[list[str]]) -> str:
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
