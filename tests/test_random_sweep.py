"""A large sweep of random legal games (shmod.audit.random_games.random_game) over every player count
and every combination of variants, replayed step by step with invariants checked after
each step against an independent bookkeeping of the public record."""
import itertools
import random

import pytest

from shmod.audit.random_games import random_game
from shmod.base.errors import IllegalStep
from shmod.base.records import fields
from shmod.forum import engine
from shmod.forum.setup import parse_setup, start
from shmod.forum.table import Table as State
from shmod.forum.turns import legal_steps
from shmod.game.events import Chaos, RoundBegan, SpecialElectionCalled, Tallied
from shmod.game.steps import Nominate, Step, Vote
from shmod.game.terms import NOMINATE, OVER, POWER, RESHUFFLE, VOTE
from shmod.log import store

pytestmark = pytest.mark.slow  # long: CI runs it; `pytest -m 'not slow'` skips it


VARIANT_SETS = [
    [f"term5={a}", f"veto={b}", f"tracker_reset={c}"]
    for a, b, c in itertools.product(("alive", "seated"), ("rulebook", "secret-vote"),
                                     ("enactment", "election"))
]
GAMES_PER_CASE = 40
SECRET_KEYS = {"cards", "hand", "role", "roles", "party", "deck", "chosen", "knows"}


def next_living(alive, seat):
    n = len(alive)
    return next((seat + k) % n for k in range(1, n + 1) if alive[(seat + k) % n])


class Oracle:
    """What the rules say, recomputed from the public record, not from the engine's fields."""

    def __init__(self, state: State) -> None:
        self.last_government: tuple[int, int] | None = None
        self.anchor = state.game.president
        self.seen = len(state.public)
        self.alive = sum(state.game.alive)

    def limited(self, state: State) -> set[int]:
        if self.last_government is None:
            return set()
        pres, chan = self.last_government
        rules = state.game.rules
        five = rules.players == 5 if rules.term5 == "seated" else len(state.game.living) <= 5
        return {chan} if five else {pres, chan}

    def before(self, state: State, step: Step) -> None:
        if isinstance(step, Nominate):
            assert state.game.alive[step.chancellor] and step.chancellor != state.game.president
            assert step.chancellor not in self.limited(state), "R-TERM: a term-limited nominee"
        if isinstance(step, Vote):
            assert state.game.alive[step.by], "R-VOTE: a dead player voted"

    def after(self, state: State) -> None:
        seat = {name: s for s, name in enumerate(state.game.players)}
        for event in state.public[self.seen:]:
            assert not SECRET_KEYS & set(fields(event)), f"R-THREAD: {event!r} carries a secret"
            if isinstance(event, Tallied):
                votes = event.votes
                assert [v is None for _, v in votes] == [not up for up in state.game.alive]
                if event.elected:
                    self.last_government = (seat[event.president], seat[event.chancellor])
            elif isinstance(event, Chaos):
                self.last_government = None  # R-CHAOS: term limits forgotten
            elif isinstance(event, SpecialElectionCalled):
                assert state.game.president == seat[event.target]
            elif isinstance(event, RoundBegan) and event.special:
                assert state.game.president == seat[event.president]  # the anchor stays
            elif isinstance(event, RoundBegan):
                expected = next_living(state.game.alive, self.anchor)
                assert seat[event.president] == expected, "R-ROTATE / R-SPECIAL"
                self.anchor = expected
        self.seen = len(state.public)
        assert sum(state.game.alive) <= self.alive  # nobody comes back
        self.alive = sum(state.game.alive)


def check(state: State) -> None:
    """Invariants that hold after every step."""
    s, rules = state.game, state.game.rules
    cards = s.draw + s.discard + s.hand
    assert len(cards) + s.liberal + s.fascist == 17, "R-DECK: policies conserved"
    assert cards.count("L") + s.liberal == 6
    assert s.hitler not in s.not_hitler
    assert s.liberal <= 5 and s.fascist <= 6
    if s.phase == OVER:
        assert s.win is not None
        if s.win.rule == "R-WIN-LIB":
            assert s.winner == "Liberals" and (s.liberal == 5 or not s.alive[s.hitler])
        elif s.win.rule == "R-WIN-FAS":
            assert s.winner == "Fascists" and s.fascist == 6
        else:
            assert s.win.rule == "R-HITLER-ELECTED" and s.chancellor == s.hitler and s.fascist >= 3
        assert legal_steps(state) == []
        return
    assert s.liberal < 5 and s.fascist < 6 and s.alive[s.hitler]
    assert s.alive[s.president], "a dead President"
    if s.phase != RESHUFFLE:
        assert s.tracker < rules.chaos_at
    if s.phase == NOMINATE:
        assert len(s.draw) >= 3, "R-RESHUFFLE: fewer than three at a nomination"
        assert s.chancellor is None and s.hand == [] and s.power is None
    if s.phase == VOTE:
        assert s.chancellor is not None and s.alive[s.chancellor]
    if s.phase == POWER:
        assert s.power == rules.power_at(s.fascist)


def refuses_the_rest(state: State) -> None:
    """Every nomination moves.legal_steps leaves out is refused, without a change."""
    legal = {step.chancellor for step in legal_steps(state) if isinstance(step, Nominate)}
    for target in range(len(state.game.players)):
        if target in legal:
            continue
        before = (state.entries, state.game.phase, len(state.public))
        with pytest.raises(IllegalStep, match=r"^R-(NOMINATE|TERM): "):
            engine.apply(state, Nominate(by=state.game.president, chancellor=target))
        assert (state.entries, state.game.phase, len(state.public)) == before


@pytest.mark.parametrize("players", range(5, 11))
@pytest.mark.parametrize("variants", VARIANT_SETS, ids=lambda v: ",".join(x.split("=")[1] for x in v))
def test_random_games_keep_the_invariants(players, variants):
    winners = set()
    for n in range(GAMES_PER_CASE):
        rng = random.Random(f"{players}-{variants}-{n}")
        sim = random_game(players, rng, variants=variants)
        assert sim.state.game.phase == OVER, "a random game did not end"
        state = start(parse_setup(sim.header))
        oracle = Oracle(state)
        check(state)
        for step in sim.steps:
            if state.game.phase == NOMINATE and n % 5 == 0:
                refuses_the_rest(state)
            oracle.before(state, step)
            engine.apply(state, step)
            oracle.after(state)
            check(state)
        assert state.public == sim.state.public and state.secrets == sim.state.secrets
        winners.add(state.game.win and state.game.win.rule)
    assert len(winners) >= 2  # the sweep reaches more than one ending


def test_random_games_reach_every_ending_and_replay_from_the_log(tmp_path):
    endings = set()
    path = tmp_path / "g.yaml"
    for n in range(200):
        players = 5 + n % 6
        sim = random_game(players, random.Random(n), variants=VARIANT_SETS[n % len(VARIANT_SETS)])
        executed = not sim.state.game.alive[sim.state.game.hitler]
        assert sim.state.game.win is not None
        endings.add(sim.state.game.win.rule + (" (Hitler executed)" if executed else ""))
        if n % 20 == 0:
            path.write_text(store.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z"))
            loaded = store.load(str(path))
            assert loaded.table.public == sim.state.public and loaded.chain == []
    assert endings == {"R-WIN-LIB", "R-WIN-LIB (Hitler executed)", "R-WIN-FAS", "R-HITLER-ELECTED"}
