"""The game's own moves: one small handler per kind of step (nominate, vote, discard,
enact, veto, the powers, reshuffle), each checking its rule and then changing the state.

Handlers run after :func:`shmod.game.turns.check_turn` and raise an
:class:`~shmod.base.errors.IllegalStep` naming the rule *before* changing anything.
"""
from __future__ import annotations

from typing import Any, NoReturn

from shmod.base.errors import RuleBroken
from shmod.game.events import (
    Chaos,
    Drawn,
    Enacted,
    Executed,
    ExecutedNotice,
    GameOver,
    Handed,
    Investigated,
    InvestigationResult,
    Nominated,
    Peeked,
    PeekResult,
    PowerGranted,
    PowerSkipped,
    Reshuffled,
    RoundBegan,
    SpecialElectionCalled,
    Tallied,
    VetoAnswered,
    Vetoed,
    VetoProposed,
    VetoRequested,
    VetoVoteAsked,
    VetoVoted,
    Win,
)
from shmod.game.explain import TERM_LIMIT
from shmod.game.legal import (
    VETO_BY_PHASE,
    can_propose_veto,
    expected_reshuffle,
    nominees,
    policies,
    power_skipped,
    power_targets,
    reshuffle_pile,
)
from shmod.game.state import State
from shmod.game.steps import (
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    Peek,
    Reshuffle,
    SpecialElection,
    Step,
    Veto,
    Vote,
)
from shmod.game.terms import (
    DISCARD,
    ENACT,
    FASCIST,
    FASCISTS,
    LIBERAL,
    LIBERALS,
    NOMINATE,
    OVER,
    POLICY_NAMES,
    POWER,
    RESHUFFLE,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
    Party,
    Policy,
    Power,
    Then,
)
from shmod.game.turns import Handler, Move


def _target(state: State, step: Investigate | SpecialElection | Execute, rule: str,
            verb: str) -> int:
    """R-INVESTIGATE/R-SPECIAL/R-EXECUTE: a target :func:`~shmod.game.legal.power_targets`
    allows; otherwise why not (themselves, dead, investigated before)."""
    target = step.target
    if target in power_targets(state, step.power):
        return target
    if target == state.president:
        raise RuleBroken(rule, f"{state.name(target)} cannot {verb} themselves")
    if not state.alive[target]:
        raise RuleBroken(rule, f"{state.name(target)} is dead and cannot be targeted")
    raise RuleBroken(rule, f"{state.name(target)} has already been investigated; "
                     "nobody is investigated twice")


# -- election -----------------------------------------------------------------------


def _nominate(state: State, step: Nominate) -> None:
    target = step.chancellor
    name = state.name(target)
    if target not in nominees(state):
        _not_nominee(state, target, name)
    state.chancellor = target
    state.votes = {}
    state.phase = VOTE
    state.say(Nominated, president=state.name(state.president), chancellor=name,
              special=state.special)


def _not_nominee(state: State, target: int, name: str) -> NoReturn:
    """Why ``target`` is not among :func:`~shmod.game.legal.nominees` (R-NOMINATE, R-TERM)."""
    if target == state.president:
        raise RuleBroken("R-NOMINATE", f"{name} cannot nominate themselves as Chancellor")
    if not state.alive[target]:
        raise RuleBroken("R-NOMINATE", f"{name} is dead and cannot be nominated Chancellor")
    why = TERM_LIMIT[state.term_limited()[target]]
    if target == state.term_president:
        why += (" (R-TERM5 lifts this only in games seated with five players)"
                if state.rules.term5 == "seated"
                else " (R-TERM5 lifts this only with five or fewer players alive)")
    raise RuleBroken("R-TERM", f"{name} cannot be nominated Chancellor: {why}")


def _vote(state: State, step: Vote) -> None:
    state.votes[step.by] = step.vote
    if len(state.votes) == len(state.living):
        count(state)


def count(state: State) -> None:
    """R-MAJORITY: strictly more Ja than half of the living; then R-HITLER-ELECTED / R-FAIL."""
    ja = sum(state.votes.values())
    living = len(state.living)
    elected = ja * 2 > living
    votes = tuple(
        (name, None if not state.alive[s] else state.votes[s])
        for s, name in enumerate(state.players)
    )
    president, chancellor = state.president, state.chancellor
    assert chancellor is not None
    tally: dict[str, Any] = {
        "president": state.name(president),
        "chancellor": state.name(chancellor),
        "votes": votes,
        "ja": ja,
        "nein": living - ja,
        "alive": living,
        "needed": living // 2 + 1,
        "elected": elected,
    }
    state.votes = {}
    if (not elected and state.rules.eva_braun == "on" and ja * 2 == living
            and state.fascist >= state.rules.hitler_zone and chancellor == state.hitler):
        state.say(Tallied, **tally, tracker=state.tracker, eva_braun=True)
        win(state, Win(FASCISTS, "R-EVA-BRAUN", hitler=state.name(chancellor)))
        return
    if not elected:
        state.say(Tallied, **tally, tracker=state.tracker + 1)
        failed(state)
        return
    state.term_president, state.term_chancellor = president, chancellor
    if state.rules.tracker_reset == "election":
        state.tracker = 0
    hitler_zone = state.fascist >= state.rules.hitler_zone
    state.say(Tallied, **tally, tracker=state.tracker,
              not_hitler=hitler_zone and chancellor != state.hitler)
    if hitler_zone:
        if chancellor == state.hitler:
            win(state, Win(FASCISTS, "R-HITLER-ELECTED", hitler=state.name(chancellor)))
            return
        state.not_hitler.add(chancellor)
    state.hand = state.draw[:3]
    del state.draw[:3]
    state.phase = DISCARD
    state.tell(president, Drawn, cards=tuple(state.hand))


def failed(state: State) -> None:
    """R-FAIL: the Election Tracker moves one step, and R-CHAOS at its end; else the
    presidency passes on."""
    state.tracker += 1
    if state.tracker >= state.rules.chaos_at:
        _chaos(state)
    else:
        next_round(state)


# -- legislative session ------------------------------------------------------------


def _discard(state: State, step: Discard) -> None:
    policy = step.policy
    if policy not in policies(state):
        raise RuleBroken("R-DRAW", f"the President's hand {_cards(state.hand)} has no "
                         f"{POLICY_NAMES[policy]} policy to discard")
    state.hand.remove(policy)
    state.discard.append(policy)
    state.phase = ENACT
    state.tell(state.chancellor, Handed, cards=tuple(state.hand),
               veto=can_propose_veto(state), fascist=state.fascist)


def _enact(state: State, step: Enact) -> None:
    policy = step.policy
    if policy not in policies(state):
        raise RuleBroken("R-PASS", f"the Chancellor's hand {_cards(state.hand)} has no "
                         f"{POLICY_NAMES[policy]} policy to enact")
    if state.rules.veto == "secret-vote" and state.veto_unlocked:
        state.chosen = policy
        state.veto_votes = {}
        state.phase = VETO_VOTE
        # R-VETO: only the Chancellor is told the choice; the President is told the two
        # policies they passed.
        state.tell(state.president, VetoVoteAsked, cards=tuple(state.hand))
        state.tell(state.chancellor, VetoVoteAsked, cards=tuple(state.hand), chosen=policy)
        return
    _pass(state, policy)


def _pass(state: State, policy: Policy) -> None:
    """The Chancellor enacts ``policy``; the other card is discarded (R-PASS)."""
    state.hand.remove(policy)
    state.discard.extend(state.hand)
    state.hand = []
    _enact_policy(state, policy, by_government=True)
    if state.phase == OVER:
        return
    power = state.rules.power_at(state.fascist) if policy == FASCIST else None
    _end_session(state, power or "round")


def _veto(state: State, step: Veto) -> None:
    answer = step.answer
    if state.phase == VETO_VOTE:
        if answer not in VETO_BY_PHASE[VETO_VOTE]:
            raise RuleBroken("R-VETO", f"under veto=secret-vote the veto is a secret vote "
                             f"(ja or nein), not {answer!r}")
        state.veto_votes[step.by] = answer == "ja"
        if len(state.veto_votes) == 2:
            chosen = state.chosen
            assert chosen is not None  # the Chancellor chose before the vote
            state.chosen = None
            agreed = all(state.veto_votes.values())
            state.veto_votes = {}
            state.say(VetoVoted, vetoed=agreed)
            if agreed:
                _vetoed(state)
            else:
                _pass(state, chosen)
        return
    if state.phase == ENACT:
        if answer not in VETO_BY_PHASE[ENACT]:
            raise RuleBroken("R-VETO",
                             f"the Chancellor may only propose a veto now, not {answer!r}")
        if not can_propose_veto(state):
            _no_veto(state)
        state.phase = VETO_ANSWER
        state.say(VetoProposed, chancellor=state.name(state.chancellor),
                  president=state.name(state.president))
        state.tell(state.president, VetoRequested, chancellor=state.name(state.chancellor))
        return
    if answer not in VETO_BY_PHASE[VETO_ANSWER]:
        raise RuleBroken("R-VETO", f"the President must accept or refuse the veto, not {answer!r}")
    state.say(VetoAnswered, president=state.name(state.president), accepted=answer == "accept")
    if answer == "refuse":
        state.veto_refused = True
        state.phase = ENACT
        return
    _vetoed(state)


def _no_veto(state: State) -> NoReturn:
    """Why the Chancellor may not propose a veto now (R-VETO)."""
    if not state.veto_unlocked:
        zone = state.rules.veto_zone
        raise RuleBroken("R-VETO", "this game has no veto" if zone >= state.rules.fascist_win
                         else f"the veto needs {zone} Fascist policies on the board; there "
                         f"{'is' if state.fascist == 1 else 'are'} {state.fascist}")
    if state.rules.veto != "rulebook":
        raise RuleBroken("R-VETO", "under veto=secret-vote the Chancellor enacts first, "
                         "then both vote on the veto")
    raise RuleBroken("R-VETO", "the President refused the veto; it cannot be "
                     "proposed again in this session")


def _vetoed(state: State) -> None:
    """R-VETO: both policies discarded, nothing enacted, the tracker advances."""
    state.discard.extend(state.hand)
    state.hand = []
    state.tracker += 1
    state.say(Vetoed, tracker=state.tracker)
    if state.tracker >= state.rules.chaos_at:
        _chaos(state)
    else:
        _end_session(state, "round")


def _enact_policy(state: State, policy: Policy, *, by_government: bool) -> None:
    """Put a policy on its track (R-TRACKER-RESET) and check R-WIN-LIB / R-WIN-FAS."""
    state.tracker = 0
    if policy == LIBERAL:
        state.liberal += 1
    else:
        state.fascist += 1
    state.say(Enacted, policy=policy, chaos=not by_government,
              president=state.name(state.president) if by_government else "",
              chancellor=state.name(state.chancellor) if by_government else "",
              liberal=state.liberal, fascist=state.fascist)
    if state.liberal >= state.rules.liberal_win:
        win(state, Win(LIBERALS, "R-WIN-LIB", policies=state.liberal))
    elif state.fascist >= state.rules.fascist_win:
        win(state, Win(FASCISTS, "R-WIN-FAS", policies=state.fascist))


def _chaos(state: State) -> None:
    """R-CHAOS: the top policy is enacted, powers ignored, term limits forgotten."""
    if not state.draw:
        _need_reshuffle(state, "chaos")
        return
    policy = state.draw.pop(0)
    state.term_president = state.term_chancellor = None
    state.say(Chaos, policy=policy)
    _enact_policy(state, policy, by_government=False)
    if state.phase != OVER:
        _end_session(state, "round")


def _end_session(state: State, then: Then) -> None:
    """R-RESHUFFLE: with fewer than three policies left, reshuffle before going on."""
    if len(state.draw) < 3:
        _need_reshuffle(state, then)
    else:
        _resume(state, then)


def _need_reshuffle(state: State, then: Then) -> None:
    state.phase = RESHUFFLE
    state.resume = then


def _resume(state: State, then: Then) -> None:
    if then == "chaos":
        _chaos(state)
    elif then != "round":
        _grant_power(state, then)
    else:
        next_round(state)


def _reshuffle(state: State, step: Reshuffle) -> None:
    pile = reshuffle_pile(state)
    deck: list[Policy] = list(step.deck)
    if sorted(deck) != sorted(pile):
        raise RuleBroken("R-RESHUFFLE", f"the new draw pile {_cards(deck)} is not the draw "
                         f"and discard piles together ({pile.count(LIBERAL)} Liberal, "
                         f"{pile.count(FASCIST)} Fascist)")
    if state.seed is not None:
        expected = expected_reshuffle(state)
        if deck != expected:
            raise RuleBroken("R-RESHUFFLE", f"the new draw pile {_cards(deck)} is not the "
                             f"order the seed gives ({_cards(expected)})")
    state.draw = deck
    state.discard = []
    state.reshuffles += 1
    state.say(Reshuffled, draw=len(deck))
    then, state.resume = state.resume or "round", None
    _resume(state, then)


# -- executive action ---------------------------------------------------------------


def _grant_power(state: State, power: Power) -> None:
    """R-POWER; R-NO-TARGET skips a power nobody can be its target of."""
    if power_skipped(state, power):
        state.say(PowerSkipped, power=power, president=state.name(state.president))
        next_round(state)
        return
    state.power = power
    state.phase = POWER
    state.say(PowerGranted, power=power, president=state.name(state.president))


def _investigate(state: State, step: Investigate) -> None:
    target = _target(state, step, "R-INVESTIGATE", "investigate")
    state.investigated.add(target)
    party: Party = "Liberal" if state.roles[target] == "liberal" else "Fascist"
    state.say(Investigated, president=state.name(state.president), target=state.name(target))
    state.tell(state.president, InvestigationResult, target=state.name(target), party=party)
    next_round(state)


def _special_election(state: State, step: SpecialElection) -> None:
    target = _target(state, step, "R-SPECIAL", "choose")
    caller = state.president
    state.say(SpecialElectionCalled, president=state.name(caller), target=state.name(target))
    _end_power(state)
    state.anchor = caller
    state.president = target
    state.special = True
    state.chancellor = None
    state.veto_refused = False  # a new session (R-VETO)
    state.phase = NOMINATE
    state.round += 1  # the Special Election is a round of its own
    state.say(RoundBegan, president=state.name(target), round=state.round, special=True)


def _peek(state: State, step: Peek) -> None:
    state.say(Peeked, president=state.name(state.president))
    state.tell(state.president, PeekResult, cards=tuple(state.draw[:3]))
    next_round(state)


def _execute(state: State, step: Execute) -> None:
    target = _target(state, step, "R-EXECUTE", "execute")
    state.alive[target] = False
    was_hitler = target == state.hitler
    state.say(Executed, president=state.name(state.president), target=state.name(target),
              hitler=was_hitler)
    state.tell(target, ExecutedNotice, president=state.name(state.president))
    if was_hitler:
        win(state, Win(LIBERALS, "R-WIN-LIB", hitler=state.name(target)))
    else:
        next_round(state)


def _end_power(state: State) -> None:
    state.power = None


# -- rounds and the end -------------------------------------------------------------


def next_round(state: State) -> None:
    """R-ROTATE / R-SPECIAL: the next living player after the rotation's anchor."""
    _end_power(state)
    nxt = state.next_living(state.anchor)
    state.anchor = state.president = nxt
    state.special = False
    state.chancellor = None
    state.hand = []
    state.veto_refused = False
    state.phase = NOMINATE
    state.round += 1
    state.say(RoundBegan, president=state.name(nxt), round=state.round)


def win(state: State, result: Win) -> None:
    """The game is over (R-WIN-LIB, R-WIN-FAS, R-HITLER-ELECTED, R-EVA-BRAUN, or Hitler
    left it: :func:`shmod.game.hooks.hitler_left`)."""
    state.win = result
    state.phase = OVER
    state.say(GameOver, win=result)


def _cards(cards: list[Policy]) -> str:
    return "[" + ", ".join(cards) + "]"


def _moves() -> tuple[Move[Any], ...]:
    power = (POWER,)
    return (
        Move(Nominate, _nominate, (NOMINATE,), "R-NOMINATE", "a nomination"),
        Move(Vote, _vote, (VOTE,), "R-VOTE", "a vote"),
        Move(Discard, _discard, (DISCARD,), "R-DRAW", "a discard"),
        Move(Enact, _enact, (ENACT,), "R-PASS", "an enactment"),
        Move(Veto, _veto, (ENACT, VETO_ANSWER, VETO_VOTE), "R-VETO", "a veto step"),
        Move(Investigate, _investigate, power, "R-INVESTIGATE", "an investigation"),
        Move(SpecialElection, _special_election, power, "R-SPECIAL", "a Special Election"),
        Move(Peek, _peek, power, "R-PEEK", "a Policy Peek"),
        Move(Execute, _execute, power, "R-EXECUTE", "an execution"),
        Move(Reshuffle, _reshuffle, (RESHUFFLE,), "R-RESHUFFLE", "a reshuffle"),
    )


#: The game's moves, one row each: the step, its handler, the phases it is accepted in, the
#: rule an out-of-turn one breaks, and how that refusal names it.
MOVES = _moves()
#: Each move's handler by its step class, for steps taken on a player's behalf
#: (:func:`shmod.game.hooks.play_for`).
HANDLERS: dict[type[Step], Handler] = {move.step: move.handler for move in MOVES}
