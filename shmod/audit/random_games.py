"""Random legal games, each step drawn from :func:`shmod.game.legal.legal_steps` (which
the tests import from here), played at a forum's table as a log replays them.

Used by ``shmod simulate`` and by the tests as a source of games at scale.
"""
from __future__ import annotations

import random

from shmod.base.records import Record, replace
from shmod.forum import engine
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.table import Setup, Table
from shmod.forum.turns import legal_steps
from shmod.game.legal import voters
from shmod.game.steps import (
    Act,
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    Peek,
    Reshuffle,
    SpecialElection,
    Step,
    Veto,
    Vote,
)
from shmod.game.terms import ENACT, FASCIST, LIBERAL, OVER, VOTE
from shmod.log.signing import public_key


class Simulated(Record, frozen=False):
    """A random legal game: its header and entries, ready to write as a log."""

    header: dict[str, object]
    steps: list[Step]
    state: Table


def random_game(players: int, rng: random.Random, *, variants: list[str] | None = None,
                seed: str | None = None, max_steps: int = 5000,
                custom: dict[str, object] | None = None) -> Simulated:
    """Play a random legal game to the end, with a mild bias towards elections passing."""
    names = [f"Player{n}" for n in range(1, players + 1)]
    seed = seed or f"{rng.getrandbits(128):032x}"  # 128 bits, as a real game's (R-COMMIT)
    salt = f"{rng.getrandbits(128):032x}"
    header = new_header(names, seed=seed, variants=variants, salt=salt,
                        created="2026-01-01T00:00:00Z", custom=custom)
    setup: Setup = parse_setup(header)
    state = start(setup)
    game = state.game
    steps: list[Step] = []
    yes = rng.uniform(0.45, 0.8)
    while game.phase != OVER and len(steps) < max_steps:
        options = legal_steps(state)
        if game.phase == VOTE:
            voter = rng.choice(voters(game))
            step: Step = Vote(voter, rng.random() < yes)
        elif game.phase == ENACT and rng.random() < 0.3:
            step = options[-1]
        else:
            step = rng.choice(options)
        engine.apply(state, step)
        steps.append(step)
    # The moderator's key pair (R-CHECKPOINT), drawn last so that the game's own draws are
    # those of a seed before keys existed.
    signing = f"{rng.getrandbits(256):064x}"
    header = new_header(names, seed=seed, variants=variants, salt=salt,
                        created="2026-01-01T00:00:00Z", custom=custom,
                        keys=(signing, public_key(signing)))
    state.setup = keyed = parse_setup(header)  # the key changes nothing but the opening post's
    state.public[0] = replace(state.public[0], commitment=keyed.commitment,
                              key=keyed.moderator_key)
    return Simulated(header, steps, state)


def command_for(step: Step, players: tuple[str, ...]) -> list[str]:
    """The ``shmod`` arguments a moderator types to record ``step`` (names, never seat
    numbers; ``--by`` always given where the command takes it)."""
    by = ["--by", players[step.by]] if isinstance(step, Act) else []
    if isinstance(step, Vote):
        return ["vote", players[step.by], "ja" if step.vote else "nein"]
    if isinstance(step, (Discard, Enact)):
        return [step.kind, "liberal" if step.policy == LIBERAL else "fascist", *by]
    if isinstance(step, Veto):
        return ["veto", step.answer, *by]
    if isinstance(step, Peek):
        return ["peek", *by]
    if isinstance(step, Reshuffle):
        return ["reshuffle", "".join(step.deck)]
    assert isinstance(step, (Nominate, Investigate, SpecialElection, Execute))
    target = step.chancellor if isinstance(step, Nominate) else step.target
    return [step.kind.replace("_", "-"), players[target], *by]


__all__ = ["FASCIST", "LIBERAL", "Simulated", "command_for", "legal_steps", "random_game"]
