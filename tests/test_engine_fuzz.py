"""Random entries, legal or not, thrown at the engine between legal steps: each is either
accepted or refused with a rule id (IllegalStep) or a form error (BadInput), and a refusal
leaves the state exactly as it was. No other exception may escape (a traceback for a user).
Whatever is accepted is one of moves.legal_steps, and what it lists is accepted: simulate
and the sweep rely on it."""
import copy
import random

import pytest

from shmod.audit.random_games import random_game
from shmod.base.errors import BadInput, IllegalStep
from shmod.base.records import values
from shmod.forum import engine
from shmod.forum.names import Seating
from shmod.forum.setup import parse_setup, start
from shmod.forum.table import Table
from shmod.forum.turns import legal_steps
from shmod.game import moves
from shmod.game.state import State
from shmod.game.terms import OVER
from shmod.log.entries import KINDS, parse_step

VALUES = {
    "by": lambda r, names: r.choice([*names, "Nobody", 0, len(names) + 1, True]),
    "chancellor": lambda r, names: r.choice([*names, "Nobody", "1"]),
    "target": lambda r, names: r.choice([*names, "Nobody", str(len(names))]),
    "policy": lambda r, names: r.choice(["L", "F", "liberal", "fascist", "blue", 3]),
    "vote": lambda r, names: r.choice(["ja", "nein", True, False, "maybe"]),
    "answer": lambda r, names: r.choice(["propose", "accept", "refuse", "ja", "nein", "no", "huh"]),
    "deck": lambda r, names: "".join(r.choice("LF") for _ in range(r.randint(0, 17))),
}


#: The game's own steps (moderation entries such as deadline or posted have their own tests).
GAME_KINDS = [move.step.kind for move in moves.MOVES if set(KINDS[move.step.kind][0]) <= set(VALUES)]


def shallow(table: Table) -> Table:
    """A copy of ``table`` and its game whose fields hold copies (they hold immutables)."""
    game = State(**{k: copy.copy(v) for k, v in values(table.game).items()})
    return Table(**{**{k: copy.copy(v) for k, v in values(table).items()}, "game": game})


def random_entry(rng: random.Random, names: tuple[str, ...]) -> dict:
    kind = rng.choice([*GAME_KINDS, "coup"])
    fields = KINDS.get(kind, (("by",), ""))[0]
    return {"kind": kind, **{f: VALUES[f](rng, names) for f in fields if rng.random() < 0.95}}


@pytest.mark.parametrize("players", range(5, 11))
def test_random_entries_are_accepted_or_refused_cleanly(players):
    rng = random.Random(players)
    accepted = refused = 0
    for n in range(25):
        variants = [rng.choice(["term5=alive", "term5=seated"]), rng.choice(["veto=rulebook", "veto=secret-vote"]),
                    rng.choice(["tracker_reset=enactment", "tracker_reset=election"])]
        sim = random_game(players, random.Random(n), variants=variants)
        state = start(parse_setup(sim.header))
        seating = Seating(state.game.players)
        while state.game.phase != OVER:
            for _ in range(3):
                raw = random_entry(rng, state.game.players)
                before = values(shallow(state))
                legal = legal_steps(state)
                try:
                    step = parse_step(raw, seating)
                    engine.apply(state, step)
                    accepted += 1
                    assert step in legal, f"{step} was accepted but moves.legal_steps omits it"
                except (IllegalStep, BadInput) as err:
                    refused += 1
                    assert str(err) and "\n" not in str(err)
                    if isinstance(err, IllegalStep):
                        assert str(err).startswith(err.rule + ": ") and err.rule.startswith("R-")
                    assert values(state) == before and values(state.game) == values(before["game"]), \
                        f"{raw} was refused but changed the state"
                if state.game.phase == OVER:
                    break
            if state.game.phase != OVER:
                options = legal_steps(state)
                for step in rng.sample(options, min(3, len(options))):
                    engine.apply(shallow(state), step)
                engine.apply(state, rng.choice(options))
    assert accepted > 50 and refused > 1000
