"""What the rules accept now: every legal step (:func:`legal_steps`, as python-chess's
``legal_moves`` beside ``push``) and the small questions the handlers ask.

Each rule of who may do what, with whom, is encoded here once: whom the Presidential
Candidate may nominate (R-NOMINATE, R-TERM, R-TERM5, R-NO-NOMINEE), who still votes
(R-VOTE), the policies a hand offers (R-DRAW, R-PASS), when a veto may be proposed and its
answers (R-VETO), whom a power may target (R-INVESTIGATE, R-SPECIAL, R-EXECUTE,
R-NO-TARGET), the pile a reshuffle deals from (R-RESHUFFLE). The handlers in
:mod:`shmod.game.moves` and :mod:`shmod.game.turns` ask here and say why a step is refused;
a forum's lapses (:mod:`shmod.forum.deadlines`) draw from here.
"""
from __future__ import annotations

from typing import Final

from shmod.game import shuffle
from shmod.game.state import State
from shmod.game.steps import (
    POWER_STEPS,
    Discard,
    Enact,
    Nominate,
    Peek,
    Reshuffle,
    Step,
    Veto,
    Vote,
)
from shmod.game.terms import (
    DEAL,
    DISCARD,
    ENACT,
    EXECUTE,
    FASCIST,
    INVESTIGATE,
    LIBERAL,
    NOMINATE,
    OVER,
    PEEK,
    POWER,
    RESHUFFLE,
    SPECIAL,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
    Office,
    Policy,
    Power,
    VetoAnswer,
)

#: R-VETO: the answers a veto step gives in each phase: the Chancellor's proposal, the
#: President's answer, each one's secret vote (``veto=secret-vote``).
VETO_BY_PHASE: Final[dict[str, tuple[VetoAnswer, ...]]] = {
    ENACT: ("propose",), VETO_ANSWER: ("accept", "refuse"), VETO_VOTE: ("ja", "nein")}
#: The powers that name a target (R-PEEK names none).
TARGETED: Final = (INVESTIGATE, SPECIAL, EXECUTE)


def limits_set_aside(state: State) -> bool:
    """R-NO-NOMINEE: the term limits leave the Presidential Candidate nobody to nominate,
    so they are set aside for this nomination."""
    if state.phase != NOMINATE:
        return False
    limited = state.term_limited()
    return bool(limited) and all(s in limited for s in state.living if s != state.president)


def term_limits(state: State) -> dict[int, Office]:
    """Who cannot be nominated Chancellor now, and why (R-TERM, R-TERM5): nobody while the
    limits are set aside (R-NO-NOMINEE)."""
    return {} if limits_set_aside(state) else state.term_limited()


def nominees(state: State) -> list[int]:
    """R-NOMINATE, R-TERM, R-TERM5: whom the Presidential Candidate may nominate now;
    R-NO-NOMINEE: when term limits leave nobody, every other living player."""
    limited = state.term_limited()
    others = [s for s in state.living if s != state.president]
    return [s for s in others if s not in limited] or others


def voters(state: State) -> list[int]:
    """R-VOTE: the living players whose vote is still to come, in seating order."""
    return [s for s in state.living if s not in state.votes]


def policies(state: State) -> list[Policy]:
    """R-DRAW, R-PASS: the policies the hand offers to discard or enact, each once
    (Fascist before Liberal, as the cards sort)."""
    return sorted(set(state.hand))


def can_propose_veto(state: State) -> bool:
    """R-VETO (rulebook): unlocked, and not yet refused in this session."""
    return state.veto_unlocked and state.rules.veto == "rulebook" and not state.veto_refused


def veto_voters(state: State) -> list[int]:
    """R-VETO (``veto=secret-vote``): the President and Chancellor yet to vote on the veto."""
    return [s for s in (state.president, state.chancellor)
            if s is not None and s not in state.veto_votes]


def power_targets(state: State, power: Power) -> list[int]:
    """R-INVESTIGATE, R-SPECIAL, R-EXECUTE: whom ``power`` may target now: another living
    player, for an investigation one not investigated before; nobody for Policy Peek."""
    if power not in TARGETED:
        return []
    targets = [s for s in state.living if s != state.president]
    if power == INVESTIGATE:
        targets = [s for s in targets if s not in state.investigated]
    return targets


def power_skipped(state: State, power: Power) -> bool:
    """R-NO-TARGET: a power that names a target, with nobody it could be."""
    return power in TARGETED and not power_targets(state, power)


def reshuffle_pile(state: State) -> list[Policy]:
    """R-RESHUFFLE: the policies the new draw pile holds: the draw and discard piles."""
    return state.draw + state.discard


def expected_reshuffle(state: State) -> list[Policy]:
    """The seed's order for the reshuffle now due (see :mod:`shmod.game.shuffle`)."""
    assert state.seed is not None
    pile = reshuffle_pile(state)
    return shuffle.policy_pile(pile.count(LIBERAL), pile.count(FASCIST), state.seed,
                               shuffle.reshuffle_label(state.reshuffles + 1))


def legal_steps(state: State) -> list[Step]:
    """All steps the engine accepts now (one per distinct choice), in a fixed order.

    An unseeded reshuffle is offered as the pile sorted, though any order of it is
    accepted. Before a late deal there is none: the dealer acts, not the table."""
    phase, p = state.phase, state.president
    if phase in (OVER, DEAL):
        return []
    if phase == NOMINATE:
        return [Nominate(p, s) for s in nominees(state)]
    if phase == VOTE:
        return [Vote(s, v) for s in voters(state) for v in (True, False)]
    if phase == DISCARD:
        return [Discard(p, x) for x in policies(state)]
    if phase == ENACT:
        c = state.chancellor_seat()
        out: list[Step] = [Enact(c, x) for x in policies(state)]
        if can_propose_veto(state):
            out += [Veto(c, a) for a in VETO_BY_PHASE[ENACT]]
        return out
    if phase == VETO_ANSWER:
        return [Veto(p, a) for a in VETO_BY_PHASE[VETO_ANSWER]]
    if phase == VETO_VOTE:
        return [Veto(s, a) for s in veto_voters(state)
                for a in VETO_BY_PHASE[VETO_VOTE]]
    if phase == POWER:
        power = state.power
        assert power is not None
        if power == PEEK:
            return [Peek(p)]
        return [POWER_STEPS[power](p, s) for s in power_targets(state, power)]
    if phase == RESHUFFLE:
        if state.seed is not None:
            return [Reshuffle(tuple(expected_reshuffle(state)))]
        return [Reshuffle(tuple(sorted(reshuffle_pile(state))))]
    raise AssertionError(f"unknown phase {phase}")
