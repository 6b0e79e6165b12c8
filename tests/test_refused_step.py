"""A refused step leaves the state exactly as it was, its entry count included (core fix)."""
from __future__ import annotations

import copy
import random

import pytest

from shmod.audit.random_games import random_game
from shmod.base.errors import IllegalStep
from shmod.forum import engine
from shmod.forum.setup import parse_setup, start
from shmod.game.steps import Nominate


def test_refused_rule_leaves_the_entry_count_alone():
    sim = random_game(5, random.Random(4))
    state = start(parse_setup(sim.header))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalStep, match="R-NOMINATE"):
        engine.apply(state, Nominate(by=state.game.president, chancellor=state.game.president))
    assert state == before
    engine.apply(state, sim.steps[0])
    assert state.public[-1].entry == 1
