"""Whose turn it is: the order in which every step is checked before its rule, and
what the game waits for.

Every kind of step is a :class:`Move`: its handler (the rule itself), the phases it is
accepted in, the rule cited when it comes out of turn. The game's own moves are in
:mod:`shmod.core.play`, the forum's in :mod:`shmod.core.forum`; :mod:`shmod.core.engine`
gathers both and applies them the same way: game over, wrong phase, wrong actor (here),
then the rule (the handler).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shmod.base.errors import GameIsOver, OutOfTurn, WrongActor
from shmod.core.events import Waiting
from shmod.core.explain import over_text, waiting_text
from shmod.core.rules import POWER_NAMES
from shmod.core.state import (
    DEAL,
    DISCARD,
    ENACT,
    NOMINATE,
    OVER,
    POWER,
    RESHUFFLE,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
    State,
)
from shmod.core.steps import Step

Handler = Callable[[State, Step], None]
#: Every phase of a game in progress.
ANY = (DEAL, NOMINATE, VOTE, DISCARD, ENACT, VETO_ANSWER, VETO_VOTE, POWER, RESHUFFLE)


@dataclass(frozen=True)
class Move:
    """One kind of step: ``handler`` checks its rule and applies it, raising an
    :class:`~shmod.base.errors.IllegalStep` before changing anything.

    ``phases``: where it is accepted (None: bookkeeping, accepted in any phase and after
    the game is over, and never replayed by a correction); ``rule``: the rule an
    out-of-turn step breaks; ``noun``: how such a step is named in that error."""

    kind: str
    handler: Handler
    phases: tuple[str, ...] | None
    rule: str = ""
    noun: str = ""

    @property
    def bookkeeping(self) -> bool:
        return self.phases is None


def waiting_for(state: State) -> Waiting:
    """Whose PM or post the game waits for, and what for (:func:`explain.waiting_text`
    says it)."""
    p, c = state.president, state.chancellor
    seats: list[int] = []
    of = 0
    if state.phase == DEAL:
        seats = [s for s in range(len(state.players)) if s not in state.words]
        of = len(state.players)
    elif state.phase in (NOMINATE, DISCARD, VETO_ANSWER, POWER):
        seats = [p]
    elif state.phase == VOTE:
        seats = [s for s in state.living if s not in state.votes]
        of = len(state.living)
    elif state.phase == ENACT:
        seats = [c]  # type: ignore[list-item]
    elif state.phase == VETO_VOTE:
        seats = [s for s in (p, c) if s not in state.veto_votes]  # type: ignore[misc]
    return Waiting(state.phase, tuple(seats), tuple(state.name(s) for s in seats),
                   president=state.name(p), chancellor=state.name(c), power=state.power,
                   veto=state.phase == ENACT and can_propose_veto(state), of=of,
                   win=state.win, seeded=state.seed is not None)


#: What each kind of step is, as a verb after "cannot" (in refusals).
VERBS = {"nominate": "nominate", "vote": "vote", "discard": "discard a policy",
         "enact": "enact a policy", "veto": "propose or answer a veto",
         "investigate": "investigate", "special_election": "call a Special Election",
         "peek": "use Policy Peek", "execute": "execute", "word": "post a word"}


def can_propose_veto(state: State) -> bool:
    """R-VETO (rulebook): unlocked, and not yet refused in this session."""
    return state.veto_unlocked and state.rules.veto == "rulebook" and not state.veto_refused



def check_turn(state: State, step: Step, move: Move) -> None:
    """Game over, wrong phase, wrong actor: the checks before a move's own rule."""
    if move.phases is None:
        return  # bookkeeping: accepted in any phase, even after the game is over
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
    if state.phase == POWER and step.kind in POWER_NAMES and step.kind != state.power:
        raise OutOfTurn(
            "R-POWER",
            f"the President holds {POWER_NAMES[state.power or '']}, not {POWER_NAMES[step.kind]}",
        )
    if step.by is None:
        return
    if step.kind == "word":
        return  # any seat, once (shmod.core.dealing)
    if step.kind == "vote":
        if not state.alive[step.by]:
            raise WrongActor("R-VOTE", f"{state.name(step.by)} is dead; dead players never vote")
        if step.by in state.votes:
            raise WrongActor(
                "R-VOTE", f"{state.name(step.by)} has already voted; a vote is final once received"
            )
        return
    if step.kind == "veto" and state.phase == VETO_VOTE and step.by in (state.president, state.chancellor):
        if step.by in state.veto_votes:
            raise WrongActor("R-VETO", f"{state.name(step.by)} has already voted on the veto")
        return
    actor = state.chancellor if state.phase == ENACT else state.president
    if step.by != actor or state.phase == VETO_VOTE:  # cheap check; the message only on error
        waiting = waiting_for(state)
        if step.by not in waiting.seats:
            raise WrongActor(rule, f"{state.name(step.by)} cannot {VERBS.get(step.kind, step.kind)} "
                             f"now: waiting for {waiting_text(waiting)}")
