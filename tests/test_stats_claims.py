"""Issue 36: ``shmod stats`` counts each player's claims (R-CLAIM) and, in the finished
games it counts, how often they were true as a Liberal and on the Fascist team
(docs/stats.md). A hand-made game whose every claim is counted by hand here (a seat that
changes hands, a claim voided by a correction), and random games in which each claim is
made true or false on purpose, Liberals truthful four times in five and the Fascist team
three times in ten: the figures are exactly the ones planted."""
from __future__ import annotations

import random
from typing import Any

from scripted import Table
from stats_games import head, write

from shmod.audit.forum_stats import collect
from shmod.audit.random_games import random_game
from shmod.forum import claims, engine
from shmod.forum.names import Seating
from shmod.forum.setup import parse_setup, start
from shmod.forum.steps import Claim, Correct, Replace
from shmod.game.rules import parse_cards
from shmod.game.terms import FASCIST, LIBERAL, RESHUFFLE, ROLES, Policy
from shmod.log.store import log_text

AT = "2026-01-01T00:00:00Z"


def claim(t: Table, who: str, about: str, round_: int = 0, cards: str = "",
          role: str | None = None) -> int:
    t.apply(Claim(t.seat(who), about, round_, parse_cards(cards),  # type: ignore[arg-type]
                  role=role))  # type: ignore[arg-type]
    return t.state.entries


def hand_made() -> Table:
    """Ann Hitler, Bob Fascist, Cat Dan Eve Liberal, every hand L, F, F: five Liberal
    policies. Dan is replaced by Fay after round 2."""
    t = Table(head(["Ann", "Bob", "Cat", "Dan", "Eve"], "Ann", ["Bob"], "LFF" * 5,
                   "2026-04-10T20:00:00Z"), forum=True)
    t.elect("Cat")
    t.discard("F")
    claim(t, "Ann", "president", 1, "FFL")        # Ann: true
    claim(t, "Cat", "chancellor", 1, "FL")        # Cat: true
    t.enact("L")
    t.session("Dan", "F", "L")
    claim(t, "Bob", "president", 2, "FFF")        # Bob: false
    claim(t, "Dan", "chancellor", 2, "FL")        # Dan: true, before he leaves
    voided = claim(t, "Bob", "role", role="liberal")
    t.apply(Correct((voided,), "it was Cat who said it"))
    t.apply(Replace(target=3, name="Fay"))
    t.seating = Seating(t.game.players)
    claim(t, "Fay", "role", role="liberal")       # Fay: true (the seat is Liberal)
    t.session("Eve", "F", "L")
    claim(t, "Eve", "chancellor", 3, "LL")        # Eve: false
    claim(t, "Ann", "role", role="liberal")       # Ann (Hitler): false
    t.session("Ann", "F", "L")
    t.session("Bob", "F", "L")
    assert t.game.winner == "Liberals"
    return t


#: name -> (claims made, as a Liberal (made, true), on the Fascist team (made, true)).
BY_HAND = {"Ann": (2, (0, 0), (2, 1)), "Bob": (1, (0, 0), (1, 0)), "Cat": (1, (1, 1), (0, 0)),
           "Dan": (1, (1, 1), (0, 0)), "Fay": (1, (1, 1), (0, 0)), "Eve": (1, (1, 0), (0, 0))}


def test_each_players_claims_counted_by_hand(tmp_path):
    stats = collect([write(tmp_path, "g.yaml", hand_made())])
    got = {}
    for career in stats.careers.values():
        made = career.to_json()["claims"]
        got[career.name] = (made["made"], (made["liberal"]["claims"], made["liberal"]["true"]),
                            (made["fascist"]["claims"], made["fascist"]["true"]))
    assert got == BY_HAND
    ann = stats.careers["ann"].to_json()["claims"]
    assert ann["fascist"]["rate"] == 0.5 and ann["liberal"]["rate"] is None


def other(rng: random.Random, cards: tuple[Policy, ...]) -> tuple[Policy, ...]:
    """A hand of as many policies that is not ``cards`` (one policy changed)."""
    changed = list(cards)
    at = rng.randrange(len(changed))
    changed[at] = FASCIST if changed[at] == LIBERAL else LIBERAL
    return tuple(changed)


#: How often a claim is true, by the claimant's side.
HONEST = {"liberal": 0.8, "fascist": 0.3}


def planted(rng: random.Random, state) -> tuple[Claim, bool] | None:  # type: ignore[no-untyped-def]
    """A claim by a living player about the last session or power or their role, made
    true with the probability :data:`HONEST` gives their side, and whether it is."""
    game = state.game
    sessions, powers = claims.record(state)
    options: list[tuple[int, str, Any]] = [(rng.choice(game.living), "role", None)]
    if sessions:
        options.append((sessions[-1].president, "president", sessions[-1]))
        if sessions[-1].passed_at is not None:
            options.append((sessions[-1].chancellor, "chancellor", sessions[-1]))
    if powers:
        options.append((powers[-1].president, "power", powers[-1]))
    seat, about, what = rng.choice(options)
    if not game.alive[seat]:
        return None
    role = game.roles[seat]
    true = rng.random() < HONEST["liberal" if role == "liberal" else "fascist"]
    if about == "president":
        return Claim(seat, "president", what.round,
                     what.drawn if true else other(rng, what.drawn)), true
    if about == "chancellor":
        return Claim(seat, "chancellor", what.round,
                     what.passed if true else other(rng, what.passed)), true
    if about == "power" and what.target is None:
        return Claim(seat, "peek", what.round, what.cards if true else other(rng, what.cards)), true
    if about == "power":
        party = what.party if true else {"Liberal": "Fascist", "Fascist": "Liberal"}[what.party]
        return Claim(seat, "investigation", what.round, target=what.target, party=party), true
    return Claim(seat, "role", role=role if true else rng.choice(
        [r for r in ROLES if r != role])), true


def test_planted_truthfulness_is_counted_exactly(tmp_path):
    """Random finished games at 5 to 8 players (seats named alike across games), claims
    inserted after random steps, each made true or false on purpose before it is
    recorded: the stats give exactly the claims planted, per player and side."""
    rng = random.Random(36)
    want: dict[str, list[int]] = {}  # name -> [made, liberal, liberal true, fascist, true]
    paths = []
    for number in range(16):
        sim = random_game(5 + number % 4, rng)
        state = start(parse_setup(sim.header))
        steps = []
        for step in sim.steps:
            engine.apply(state, step)
            steps.append(step)
            made = None if state.game.phase == RESHUFFLE or rng.random() > 0.3 else \
                planted(rng, state)
            if made is None:
                continue
            engine.apply(state, made[0])
            steps.append(made[0])
            liberal = state.game.roles[made[0].by] == "liberal"
            row = want.setdefault(state.game.players[made[0].by], [0, 0, 0, 0, 0])
            row[0] += 1
            row[1 if liberal else 3] += 1
            row[2 if liberal else 4] += made[1]
        assert state.game.winner is not None
        sim.header["created"] = f"2026-05-{number + 1:02d}T20:00:00Z"
        path = tmp_path / f"g{number}.yaml"
        path.write_text(log_text(sim.header, steps, at=AT))
        paths.append(str(path))
    stats = collect(paths)
    got = {}
    for career in stats.careers.values():
        c = career.to_json()["claims"]
        got[career.name] = [c["made"], c["liberal"]["claims"], c["liberal"]["true"],
                            c["fascist"]["claims"], c["fascist"]["true"]]
    assert {k: v for k, v in got.items() if v[0]} == want
    total = [sum(row[i] for row in want.values()) for i in range(5)]
    assert total[1] > 40 and total[3] > 40, total
    assert 0.65 < total[2] / total[1] < 0.95 and 0.15 < total[4] / total[3] < 0.45, total


def test_the_terminal_and_the_csv_show_the_claims(run, tmp_path):
    write(tmp_path, "g.yaml", hand_made())
    code, out, err = run("stats", str(tmp_path), "--sort", "claims")
    assert code == 0, err
    played = out.split("How they played")[1] if "How they played" in out else out
    header = next(line for line in played.splitlines() if "Claims" in line)
    assert "True as Lib." in header and "True as Fas." in header
    ann = next(line for line in played.splitlines() if "│ Ann " in line)
    assert "50% of 2" in ann and [c.strip() for c in ann.split("│")][9] == "2", ann
    code, out, _ = run("stats", str(tmp_path), "--csv")
    rows = out.splitlines()
    assert "claims_made" in rows[0] and "claims_fascist_true" in rows[0]
