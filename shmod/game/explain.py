"""The game's words for the moderator, in English: what the game waits for, how it was
won, what a step was.

The game returns data (:class:`~shmod.game.events.Waiting`, :class:`~shmod.game.events.Win`,
steps); these functions say it in the sentences its refusals use, and the moderator's
terminal and the audit use them too (through :mod:`shmod.forum.explain`, which adds the
forum's). What players read says the same in their language
(:mod:`shmod.texts.phrases`), on its own, so a post can change without a refusal.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from shmod.game.steps import (
    Act,
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
    DEAL,
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

if TYPE_CHECKING:
    from shmod.game.events import Waiting, Win


def win_text(win: Win) -> str:
    """How the game was won, e.g. "a tied vote elected Hitler (Eli) Chancellor"."""
    if win.rule == "R-EVA-BRAUN":
        return f"a tied vote elected Hitler ({win.hitler}) Chancellor"
    if win.rule == "R-HITLER-ELECTED":
        return f"Hitler ({win.hitler}) was elected Chancellor"
    if win.hitler:
        how = "was executed" if win.rule == "R-WIN-LIB" else "has left the game"
        return f"Hitler ({win.hitler}) {how}"
    party = "Liberal" if win.rule == "R-WIN-LIB" else "Fascist"
    return f"{win.policies} {party} policies enacted"


def over_text(win: Win) -> str:
    """``Liberals won: 5 Liberal policies enacted``."""
    return f"{win.team} won: {win_text(win)}"


def waiting_text(w: Waiting) -> str:
    """What the game waits for, as a sentence after "waiting for"."""
    names = ", ".join(w.names)
    if w.phase == OVER:
        assert w.win is not None
        return f"nobody: the game is over ({over_text(w.win)})"
    if w.phase == DEAL:
        return "the deal: the roles and the deck are not dealt yet"
    if w.phase == NOMINATE:
        return f"{w.president} (Presidential Candidate) to nominate a Chancellor"
    if w.phase == VOTE:
        return f"votes from {len(w.seats)} of {w.of} living players: {names}"
    if w.phase == DISCARD:
        return f"{w.president} (President) to discard one of three policies"
    if w.phase == ENACT:
        veto = " or propose a veto" if w.veto else ""
        return f"{w.chancellor} (Chancellor) to enact one of two policies{veto}"
    if w.phase == VETO_ANSWER:
        return f"{w.president} (President) to accept or refuse the Chancellor's veto"
    if w.phase == VETO_VOTE:
        return f"{' and '.join(w.names)} to vote on the veto in secret"
    if w.phase == POWER:
        assert w.power is not None
        return f"{w.president} (President) to use {POWER_NAMES[w.power]}"
    if w.seeded:  # a write was cut between a step and its reshuffle
        return ("the reshuffle the seed determines (R-RESHUFFLE): shmod appends it with "
                "the next step it records")
    return "the moderator to record the reshuffled draw pile (R-RESHUFFLE)"


def describe(step: Step, players: tuple[str, ...]) -> str:
    """A step in public words, with ``players`` as seated then: what and who, never a
    secret (a vote's value, a discard, a veto vote); an enacted policy is public and is
    named."""

    def name(seat: int | None) -> str:
        return players[seat] if seat is not None and seat < len(players) else "?"

    by = name(step.by) if isinstance(step, Act) else "?"
    match step:
        case Nominate():
            return f"the nomination of {name(step.chancellor)} by {by}"
        case Vote():
            return f"the vote by {by}"
        case Discard():
            return f"the discard by President {by}"
        case Enact():
            return f"the enactment of {CARD.get(step.policy, 'a')} policy by Chancellor {by}"
        case Veto():
            return {"propose": f"the veto proposed by {by}",
                    "accept": f"{by}'s agreeing to the veto",
                    "refuse": f"{by}'s refusing the veto"}.get(step.answer,
                                                              f"the secret veto vote by {by}")
        case Investigate():
            return f"the investigation of {name(step.target)} by {by}"
        case SpecialElection():
            return f"the Special Election of {name(step.target)} called by {by}"
        case Peek():
            return f"the Policy Peek by {by}"
        case Execute():
            return f"the execution of {name(step.target)} by {by}"
        case Reshuffle():
            return "the reshuffle"
    return step.kind.replace("_", " ")


#: Why a player is term-limited (R-TERM): the office they were last elected to.
TERM_LIMIT = {"president": "last elected President", "chancellor": "last elected Chancellor"}
#: A policy card in words, after "the enactment of".
CARD = {"L": "a Liberal", "F": "a Fascist"}
