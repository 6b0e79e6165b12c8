"""The rules engine: a pure fold of :class:`~shmod.core.steps.Step` over
:class:`~shmod.core.state.State`.

:func:`apply` checks a step in a fixed order (game over, wrong phase, wrong actor, the
rule itself) and raises an :class:`~shmod.base.errors.IllegalStep` naming the rule id
*before* changing anything, so a refused step leaves the state as it was. The moves it
knows are the game's own (:mod:`shmod.core.play`) and the forum's
(:mod:`shmod.core.forum`), both :class:`~shmod.core.turns.Move` tables.
"""
from __future__ import annotations

from typing import Any

from shmod.base.errors import IllegalStep
from shmod.core import absence, deadlines, dealing, forum, play
from shmod.core.legal import can_propose_veto, expected_reshuffle
from shmod.core.state import State
from shmod.core.steps import Step
from shmod.core.turns import Move, check_turn, waiting_for

__all__ = ["MOVES", "apply", "can_propose_veto", "expected_reshuffle", "waiting_for"]


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
    if not move.bookkeeping or move.kept:
        state.history.append((state.entries, step))
        if state.clock is not None:
            state.times[state.entries] = state.clock
    deadlines.note_time(state)


#: Every kind of step, by its class. A correction replays steps through :func:`apply` itself.
MOVES: dict[type[Step], Move[Any]] = {move.step: move for move in (
    *dealing.MOVES, *play.MOVES, *deadlines.MOVES, *absence.MOVES, *forum.moves(apply))}
