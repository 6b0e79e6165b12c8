"""The core's words: what the game waits for, how it was won, what a step was.

The core returns data (:class:`~shmod.core.events.Waiting`, :class:`~shmod.core.events.Win`,
steps); these functions say it in the sentences its refusals use, and the texts
(:mod:`shmod.texts`) import the same functions, so a post and a refusal say it alike.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from shmod.core.terms import (
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
    from shmod.core.events import Corrected, Deed, Waiting, Win
    from shmod.core.steps import Step


def win_text(win: Win) -> str:
    """How the game was won, e.g. "a tied vote elected Hitler (Eli) Chancellor"."""
    if win.rule == "R-EVA-BRAUN":
        return f"a tied vote elected Hitler ({win.hitler}) Chancellor"
    if win.rule == "R-HITLER-ELECTED":
        return f"Hitler ({win.hitler}) was elected Chancellor"
    if win.rule == "R-MODKILL":
        return f"Hitler ({win.hitler}) has left the game"
    if win.hitler:
        return f"Hitler ({win.hitler}) was executed"
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
        return f"a word for the deal from {len(w.seats)} of {w.of} players: {names}"
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
    """An entry in public words, with ``players`` as seated then: what and who, never a
    secret (a vote's value, a discard, a veto vote); an enacted policy is public and is
    named."""

    def name(seat: int | None) -> str:
        return players[seat] if seat is not None and seat < len(players) else "?"

    by, target = name(step.by), name(step.target)
    policy = {"L": "a Liberal", "F": "a Fascist"}.get(step.policy or "", "a")
    return {
        "nominate": f"the nomination of {target} by {by}",
        "vote": f"the vote by {by}",
        "word": f"the word by {by}",
        "discard": f"the discard by President {by}",
        "enact": f"the enactment of {policy} policy by Chancellor {by}",
        "veto": {"propose": f"the veto proposed by {by}", "accept": f"{by}'s agreeing to the veto",
                 "refuse": f"{by}'s refusing the veto"}.get(step.answer or "",
                                                          f"the secret veto vote by {by}"),
        "investigate": f"the investigation of {target} by {by}",
        "special_election": f"the Special Election of {target} called by {by}",
        "peek": f"the Policy Peek by {by}",
        "execute": f"the execution of {target} by {by}",
        "reshuffle": "the reshuffle",
        "deadline": "the deadline",
        "lapse": "the lapse of the deadline",
        "replace": f"{step.text} taking {target}'s seat",
        "rename": f"the correction of {target}'s name to {step.text}",
        "remove": f"the removal of {target}",
    }.get(step.kind, step.kind.replace("_", " "))


def voided_steps(event: Corrected) -> list[tuple[int, str]]:
    """R-CORRECT: each entry a correction voided, and what it was in public words."""
    return [(entry, describe(step, event.players)) for entry, step in event.voided]


def deed_text(deed: Deed) -> str:
    """One of a seat's own steps in words: its PM or public choice."""
    step, target = deed.step, deed.target
    card = {"L": "a Liberal", "F": "a Fascist"}.get(step.policy or "", "")
    return {
        "nominate": f"nominated {target} for Chancellor",
        "vote": f"voted {'Ja' if step.vote else 'Nein'}",
        "discard": f"discarded {card} policy as President",
        "enact": f"enacted {card} policy as Chancellor",
        "veto": f"veto: {step.answer}",
        "investigate": f"investigated {target}",
        "special_election": f"called a Special Election for {target}",
        "peek": "used Policy Peek",
        "execute": f"executed {target}",
    }[step.kind]
