"""Whose turn it is at a forum's table: the forum's :class:`Move` (a row of its table,
:mod:`shmod.forum.moves`), the checks before a forum move's own rule, and what the table
waits for.

A forum move is checked like a game's (:mod:`shmod.game.turns`): the game is over, the
wrong phase, then the rule (the handler). Bookkeeping (no phases) is accepted in any
phase, even after the game is over. Before the deal from the players' words the table
waits for the words (R-DEAL), so a step of the game is out of turn then.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from shmod.base.errors import GameIsOver, OutOfTurn
from shmod.base.records import Record, replace
from shmod.forum.explain import waiting_text
from shmod.forum.steps import Word
from shmod.forum.table import Table
from shmod.game import legal, turns
from shmod.game.events import Waiting
from shmod.game.explain import over_text
from shmod.game.steps import Step
from shmod.game.terms import DEAL, OVER

S = TypeVar("S", bound=Step)


class Move(Record, Generic[S]):
    """One kind of forum entry, of class ``step``: ``handler`` checks its rule and applies
    it, raising an :class:`~shmod.base.errors.IllegalStep` before changing anything.

    ``phases``: the game's phases it is accepted in (None: bookkeeping, accepted in any
    phase and after the game is over); ``rule``: the rule an out-of-turn one breaks;
    ``noun``: how such an entry is named in that error; ``kept``: bookkeeping that builds
    forum state, so a correction replays it in order with the game's steps (a backup
    list, R-CORRECT). Other bookkeeping is never replayed: what it records stays as it
    was."""

    step: type[S]
    handler: Callable[[Table, S], None]
    phases: tuple[str, ...] | None
    rule: str = ""
    noun: str = ""
    kept: bool = False

    @property
    def bookkeeping(self) -> bool:
        return self.phases is None


def word_posters(table: Table) -> list[int]:
    """R-DEAL: the seats whose word for the deal is still to come, in seating order."""
    return [s for s in range(len(table.game.players)) if s not in table.words]


def waiting_for(table: Table) -> Waiting:
    """Whose PM or post the table waits for, and what for
    (:func:`shmod.forum.explain.waiting_text` says it): before the deal, every seat's word
    still to come (R-DEAL); then what the game waits for."""
    game = table.game
    waiting = turns.waiting_for(game)
    if game.phase != DEAL:
        return waiting
    seats = word_posters(table)
    return replace(waiting, seats=tuple(seats), names=tuple(game.name(s) for s in seats),
                   of=len(game.players))


def check_turn(table: Table, step: Step, move: Move[Any]) -> None:
    """Game over, wrong phase: the checks before a forum move's own rule."""
    if move.phases is None:
        return  # bookkeeping: accepted in any phase, even after the game is over
    game = table.game
    if game.phase == OVER:
        assert game.win is not None
        raise GameIsOver(
            game.win.rule,
            f"the game is over ({over_text(game.win)}); no {step.kind} can be recorded",
        )
    if game.phase not in move.phases:
        raise OutOfTurn(move.rule, f"cannot record {move.noun} now: "
                        f"waiting for {waiting_text(waiting_for(table))}")


def before_deal(table: Table, move: turns.Move[Any]) -> None:
    """A step of the game before the deal (R-DEAL): out of turn, as the game would say it,
    but naming the words the table waits for."""
    if table.game.phase == DEAL:
        raise OutOfTurn(move.rule, f"cannot record {move.noun} now: "
                        f"waiting for {waiting_text(waiting_for(table))}")


def legal_steps(table: Table) -> list[Step]:
    """Every step the table accepts now that a player takes (one per distinct choice, in
    a fixed order): before the deal one word for each seat still to post one (one word
    stands for every word, R-DEAL); then the game's (:func:`shmod.game.legal.legal_steps`)."""
    if table.game.phase == DEAL:
        return [Word(s, "word") for s in word_posters(table)]
    return legal.legal_steps(table.game)
