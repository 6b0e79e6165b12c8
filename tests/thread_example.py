"""A full example game and the thread a moderator would post for it (shared by tests)."""
from __future__ import annotations

import random

from shmod.audit.random_games import random_game
from shmod.forum import engine
from shmod.forum.setup import parse_setup, start
from shmod.forum.steps import Posted
from shmod.forum.table import Setup, Table as State
from shmod.game.steps import Step
from shmod.game.terms import NOMINATE, OVER
from shmod.texts import thread_posts
from shmod.texts.formats import Plain

#: A seven-player game with chaos, a veto, every 7-8 board power and a reshuffle.
EXAMPLE = (7, 4)


def example_game() -> tuple[Setup, list[Step]]:
    players, seed = EXAMPLE
    sim = random_game(players, random.Random(seed))
    return parse_setup(sim.header), sim.steps


def thread(fmt: Plain) -> tuple[list[str], State]:
    """The posts, made whenever a round starts or the game ends, each marked ``posted``."""
    setup, steps = example_game()
    state = start(setup)
    made = []
    for step in [None, *steps]:
        if step is not None:
            engine.apply(state, step)
        if state.game.phase in (NOMINATE, OVER) and thread_posts.unposted(state):
            made.append(thread_posts.render(state, thread_posts.unposted(state), fmt))
            engine.apply(state, Posted(upto=state.entries))
    return made, state
