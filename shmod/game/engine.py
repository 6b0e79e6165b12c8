"""The rules engine: a pure fold of :class:`~shmod.game.steps.Step` over
:class:`~shmod.game.state.State`.

:func:`apply` checks a step in a fixed order (game over, wrong phase, wrong actor, the
rule itself) and raises an :class:`~shmod.base.errors.IllegalStep` naming the rule id
*before* changing anything, so a refused step leaves the state as it was. The moves it
knows are the game's, the :class:`~shmod.game.turns.Move` table in :mod:`shmod.game.moves`.
A forum's engine (:mod:`shmod.forum.engine`) hands the game's steps to this one.
"""
from __future__ import annotations

from typing import Any

from shmod.base.errors import IllegalStep
from shmod.game import moves
from shmod.game.state import State
from shmod.game.steps import Step
from shmod.game.turns import Move, check_turn


def apply(state: State, step: Step) -> None:
    """Apply one step to ``state`` (counted as the next entry) or raise without change."""
    move = MOVES[type(step)]
    check_turn(state, step, move)
    state.entries += 1
    try:
        move.handler(state, step)
    except IllegalStep:
        state.entries -= 1  # handlers raise before changing anything else
        raise


#: Every kind of step of the game, by its class.
MOVES: dict[type[Step], Move[Any]] = {move.step: move for move in moves.MOVES}
