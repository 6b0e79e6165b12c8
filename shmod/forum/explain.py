"""The forum's words for the moderator beside the game's (:mod:`shmod.game.explain`), in
English: what the table waits for before the deal, what a forum entry was, what a
correction voided. The refusals and the moderator's terminal use them; what players read
says the same in their language (:mod:`shmod.texts.phrases`), on its own.
"""
from __future__ import annotations

from collections.abc import Sequence

from shmod.forum.events import Corrected
from shmod.forum.steps import Claim, Lapse, Remove, Rename, Replace, SetDeadline, Word
from shmod.game import explain
from shmod.game.events import Waiting
from shmod.game.steps import Step
from shmod.game.terms import DEAL


def waiting_text(w: Waiting) -> str:
    """What the table waits for, as a sentence after "waiting for": before the deal, the
    players' words (R-DEAL); then what the game waits for."""
    if w.phase == DEAL:
        return f"a word for the deal from {len(w.seats)} of {w.of} players: {', '.join(w.names)}"
    return explain.waiting_text(w)


def describe(step: Step, players: tuple[str, ...]) -> str:
    """An entry in public words, with ``players`` as seated then: a forum entry, or a step
    of the game (:func:`shmod.game.explain.describe`)."""

    def name(seat: int) -> str:
        return players[seat] if seat < len(players) else "?"

    match step:
        case Word():
            return f"the word by {name(step.by)}"
        case SetDeadline():
            return "the deadline"
        case Lapse():
            return "the lapse of the deadline"
        case Replace():
            return f"{step.name} taking {name(step.target)}'s seat"
        case Rename():
            return f"the correction of {name(step.target)}'s name to {step.name}"
        case Remove():
            return f"the removal of {name(step.target)}"
        case Claim():
            return f"the claim by {name(step.by)}"
    return explain.describe(step, players)


def voided_steps(event: Corrected) -> list[tuple[int, str]]:
    """R-CORRECT: each entry a correction voided, and what it was in public words."""
    return [(entry, describe(step, event.players)) for entry, step in event.voided]


def listed(names: Sequence[str]) -> str:
    """``Mia``, ``Mia and Ned``, ``Mia, Ned and Ola``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def who_records(moderators: Sequence[str], handover: tuple[int, str, str] | None,
                taken: bool) -> list[str]:
    """R-MODERATORS, R-HANDOVER: who may record now, and a hand-over still to be taken
    over, in lines for the moderator (none for a game that lists no moderator)."""
    if not moderators:
        return []
    if handover is None:
        return [f"Who may record now: {listed(moderators)}"]
    entry, holder, by = handover
    if taken:
        return [f"Who may record now: {holder}, since the hand-over at entry {entry} (a "
                "listed moderator takes it back with shmod handover NAME)"]
    return [f"Who may record now: nobody until {holder} takes over (any listed moderator may "
            "hand it over again)",
            f"Hand-over pending: {by} handed moderation over to {holder} at entry {entry}; "
            f"{holder} takes over by pasting the hand-over post's checkpoint line: shmod "
            f"handover --accept 'LINE' --as {holder}"]
