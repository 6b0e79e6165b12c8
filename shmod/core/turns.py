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
from typing import Any, Generic, TypeVar

from shmod.base.errors import GameIsOver, OutOfTurn, WrongActor
from shmod.core.legal import can_propose_veto, veto_voters, voters, word_posters
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
from shmod.core.steps import (
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
    Word,
)

Handler = Callable[[State, Step], None]
S = TypeVar("S", bound=Step)
#: Every phase of a game in progress.
ANY = (DEAL, NOMINATE, VOTE, DISCARD, ENACT, VETO_ANSWER, VETO_VOTE, POWER, RESHUFFLE)


@dataclass(frozen=True)
class Move(Generic[S]):
    """One kind of step, of class ``step``: ``handler`` checks its rule and applies it,
    raising an :class:`~shmod.base.errors.IllegalStep` before changing anything.

    ``phases``: where it is accepted (None: bookkeeping, accepted in any phase and after
    the game is over, and never replayed by a correction); ``rule``: the rule an
    out-of-turn step breaks; ``noun``: how such a step is named in that error."""

    step: type[S]
    handler: Callable[[State, S], None]
    phases: tuple[str, ...] | None
    rule: str = ""
    noun: str = ""

    @property
    def bookkeeping(self) -> bool:
        return self.phases is None


def waiting_for(state: State) -> tuple[list[int], str]:
    """Whose PM or post the game waits for, and a sentence saying what it is."""
    p, c = state.president, state.chancellor
    pres, chan = state.name(p), state.name(c)
    if state.phase == OVER:
        return [], f"nobody: the game is over ({state.winner} won: {state.win_reason})"
    if state.phase == DEAL:
        missing = word_posters(state)
        names = ", ".join(state.name(s) for s in missing)
        return missing, (f"a word for the deal from {len(missing)} of {len(state.players)} "
                         f"players: {names}")
    if state.phase == NOMINATE:
        return [p], f"{pres} (Presidential Candidate) to nominate a Chancellor"
    if state.phase == VOTE:
        missing = voters(state)
        names = ", ".join(state.name(s) for s in missing)
        return missing, f"votes from {len(missing)} of {len(state.living)} living players: {names}"
    if state.phase == DISCARD:
        return [p], f"{pres} (President) to discard one of three policies"
    if state.phase == ENACT:
        veto = " or propose a veto" if can_propose_veto(state) else ""
        return [c], f"{chan} (Chancellor) to enact one of two policies{veto}"  # type: ignore[list-item]
    if state.phase == VETO_ANSWER:
        return [p], f"{pres} (President) to accept or refuse the Chancellor's veto"
    if state.phase == VETO_VOTE:
        missing = veto_voters(state)
        names = " and ".join(state.name(s) for s in missing)
        return missing, f"{names} to vote on the veto in secret"
    if state.phase == POWER:
        return [p], f"{pres} (President) to use {POWER_NAMES[state.power or '']}"
    if state.seed is not None:  # a write was cut between a step and its reshuffle
        return [], ("the reshuffle the seed determines (R-RESHUFFLE): shmod appends it with "
                    "the next step it records")
    return [], "the moderator to record the reshuffled draw pile (R-RESHUFFLE)"


#: What each kind of step is, as a verb after "cannot" (in refusals).
VERBS: dict[type[Step], str] = {
    Nominate: "nominate", Vote: "vote", Discard: "discard a policy", Enact: "enact a policy",
    Veto: "propose or answer a veto", Investigate: "investigate",
    SpecialElection: "call a Special Election", Peek: "use Policy Peek", Execute: "execute",
    Word: "post a word"}


def check_turn(state: State, step: Step, move: Move[Any]) -> None:
    """Game over, wrong phase, wrong actor: the checks before a move's own rule."""
    if move.phases is None:
        return  # bookkeeping: accepted in any phase, even after the game is over
    rule = move.rule
    if state.phase == OVER:
        raise GameIsOver(
            state.win_rule or "R-WIN",
            f"the game is over ({state.winner} won: {state.win_reason}); "
            f"no {step.kind} can be recorded",
        )
    if state.phase not in move.phases:
        raise OutOfTurn(rule, f"cannot record {move.noun} now: "
                        f"waiting for {waiting_for(state)[1]}")
    if state.phase == POWER and isinstance(step, PowerUse) and step.power != state.power:
        raise OutOfTurn(
            "R-POWER",
            f"the President holds {POWER_NAMES[state.power or '']}, not {POWER_NAMES[step.power]}",
        )
    if not isinstance(step, Act):
        return
    if isinstance(step, Word):
        return  # any seat, once (shmod.core.dealing)
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
        actors, what = waiting_for(state)
        if step.by not in actors:
            raise WrongActor(rule, f"{state.name(step.by)} cannot {VERBS[type(step)]} "
                             f"now: waiting for {what}")
