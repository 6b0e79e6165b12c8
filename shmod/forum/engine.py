"""The forum's engine: a pure fold of every kind of entry over a
:class:`~shmod.forum.table.Table`.

Every entry is first checked for the moderator who recorded it
(:func:`shmod.forum.moderators.check_recorder`, R-MODERATORS, R-HANDOVER). A step of the
game goes to the game's engine (:func:`shmod.game.engine.apply`), which
checks and applies it; before the deal from the players' words it is out of turn
(R-DEAL). A forum entry is checked by :func:`shmod.forum.turns.check_turn` and applied by
its handler, a row of the forum's table (:mod:`shmod.forum.moves`), counted as the next
entry through the game's hook (:func:`shmod.game.hooks.entry`). Either raises an
:class:`~shmod.base.errors.IllegalStep` naming the rule before changing anything. The
steps in effect and their times are kept for corrections (R-CORRECT), and when the
decision awaited fell due for lapses (R-LAPSE).
"""
from __future__ import annotations

from typing import Any

from shmod.forum import moves
from shmod.forum.deadlines import note_time
from shmod.forum.moderators import check_recorder
from shmod.forum.table import Table
from shmod.forum.turns import Move, before_deal, check_turn
from shmod.game import engine, hooks, turns
from shmod.game.steps import Step


def apply(table: Table, step: Step) -> None:
    """Apply one entry to ``table`` (counted as the next entry) or raise without change."""
    game = table.game
    check_recorder(table, step)
    move = FORUM.get(type(step))
    if move is None:
        before_deal(table, engine.MOVES[type(step)])
        engine.apply(game, step)
    else:
        check_turn(table, step, move)
        hooks.entry(game, lambda: move.handler(table, step))
    if move is None or not move.bookkeeping or move.kept:
        table.history.append((table.entries, step))
        if table.clock is not None:
            table.times[table.entries] = table.clock
    note_time(table)


#: The forum's moves, by their step class. A correction replays through :func:`apply`.
FORUM: dict[type[Step], Move[Any]] = {move.step: move for move in moves.moves(apply)}
#: Every kind of entry, by its class: the game's moves and the forum's.
MOVES: dict[type[Step], turns.Move[Any] | Move[Any]] = {**engine.MOVES, **FORUM}


def noun(step: type[Step]) -> str:
    """How a refusal names an entry of this kind ("a nomination"), or "" where none does."""
    move = MOVES.get(step)
    return move.noun if move else ""
