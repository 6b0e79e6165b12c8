"""Whose turn it is: the order in which every step is checked before its rule, and
what the game waits for.

Every kind of step is a :class:`Move`: its handler (the rule itself), the phases it is
accepted in, the rule cited when it comes out of turn. The game's moves are the table in
:mod:`shmod.game.moves`; :mod:`shmod.game.engine` applies each the same way: game over,
wrong phase, wrong actor (here), then the rule (the handler).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from shmod.base.errors import GameIsOver, OutOfTurn, WrongActor
from shmod.base.records import Record
from shmod.game.events import Waiting
from shmod.game.explain import over_text, waiting_text
from shmod.game.legal import can_propose_veto, veto_voters, voters
from shmod.game.state import State
from shmod.game.steps import (
    Act,
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    Peek,
    PowerUse,
    SpecialElection,
    Step,
    Veto,
    Vote,
)
from shmod.game.terms import (
    DISCARD,
    ENACT,
    NOMINATE,
    OVER,
    POWER,
    POWER_NAMES,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
)

Handler = Callable[[State, Step], None]
S = TypeVar("S", bound=Step)


class Move(Record, Generic[S]):
    """One kind of step, of class ``step``: ``handler`` checks its rule and applies it,
    raising an :class:`~shmod.base.errors.IllegalStep` before changing anything.

    ``phases``: where it is accepted; ``rule``: the rule an out-of-turn step breaks;
    ``noun``: how such a step is named in that error."""

    step: type[S]
    handler: Callable[[State, S], None]
    phases: tuple[str, ...]
    rule: str
    noun: str


def waiting_for(state: State) -> Waiting:
    """Whose step the game waits for, and what for (:func:`explain.waiting_text` says
    it). Before a late deal nobody at the table acts: the dealer does."""
    p, c = state.president, state.chancellor
    seats: list[int] = []
    of = 0
    if state.phase in (NOMINATE, DISCARD, VETO_ANSWER, POWER):
        seats = [p]
    elif state.phase == VOTE:
        seats = voters(state)
        of = len(state.living)
    elif state.phase == ENACT:
        seats = [state.chancellor_seat()]
    elif state.phase == VETO_VOTE:
        seats = veto_voters(state)
    return Waiting(state.phase, tuple(seats), tuple(state.name(s) for s in seats),
                   president=state.name(p), chancellor=state.name(c), power=state.power,
                   veto=state.phase == ENACT and can_propose_veto(state), of=of,
                   win=state.win, seeded=state.seed is not None)


#: What each kind of step is, as a verb after "cannot" (in refusals).
VERBS: dict[type[Step], str] = {
    Nominate: "nominate", Vote: "vote", Discard: "discard a policy", Enact: "enact a policy",
    Veto: "propose or answer a veto", Investigate: "investigate",
    SpecialElection: "call a Special Election", Peek: "use Policy Peek", Execute: "execute"}


def check_turn(state: State, step: Step, move: Move[Any]) -> None:
    """Game over, wrong phase, wrong actor: the checks before a move's own rule."""
    rule = move.rule
    if state.phase == OVER:
        assert state.win is not None
        raise GameIsOver(
            state.win.rule,
            f"the game is over ({over_text(state.win)}); no {step.kind} can be recorded",
        )
    if state.phase not in move.phases:
        raise OutOfTurn(rule, f"cannot record {move.noun} now: "
                        f"waiting for {waiting_text(waiting_for(state))}")
    if state.phase == POWER and isinstance(step, PowerUse) and step.power != state.power:
        assert state.power is not None  # granted with the phase
        raise OutOfTurn(
            "R-POWER",
            f"the President holds {POWER_NAMES[state.power]}, not {POWER_NAMES[step.power]}",
        )
    if not isinstance(step, Act):
        return
    if isinstance(step, Vote):
        if step.by in voters(state):
            return
        if not state.alive[step.by]:
            raise WrongActor("R-VOTE", f"{state.name(step.by)} is dead; dead players never vote")
        raise WrongActor(
            "R-VOTE", f"{state.name(step.by)} has already voted; a vote is final once received"
        )
    if (isinstance(step, Veto) and state.phase == VETO_VOTE
            and step.by in (state.president, state.chancellor)):
        if step.by not in veto_voters(state):
            raise WrongActor("R-VETO", f"{state.name(step.by)} has already voted on the veto")
        return
    actor = state.chancellor if state.phase == ENACT else state.president
    if step.by != actor or state.phase == VETO_VOTE:  # cheap check; the message only on error
        waiting = waiting_for(state)
        if step.by not in waiting.seats:
            raise WrongActor(rule, f"{state.name(step.by)} cannot {VERBS[type(step)]} "
                             f"now: waiting for {waiting_text(waiting)}")
