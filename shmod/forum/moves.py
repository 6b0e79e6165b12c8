"""The forum's moves: one row for each kind of forum entry, as the game's moves are one
row each (:mod:`shmod.game.moves`): the entry's step class, its handler, the game's phases
it is accepted in (None: bookkeeping, any time), the rule an out-of-turn one breaks and
how that refusal names it. A new house rule of the forum is a row here, its step in
:mod:`shmod.forum.steps` and its handler in the module of its kind:

- the deal from the players' words (:mod:`shmod.forum.dealing`, R-DEAL);
- the clock (:mod:`shmod.forum.deadlines`, R-DEADLINE, R-LAPSE);
- absent players (:mod:`shmod.forum.absence`, R-STALL, R-BACKUP, R-MODKILL);
- seats changing hands (:mod:`shmod.forum.seats`, R-REPLACE, R-RENAME);
- corrections (:mod:`shmod.forum.corrections`, R-CORRECT);
- the thread and hand edits (:mod:`shmod.forum.thread`, R-THREAD, R-EDIT);
- the game's moderators and a hand-over (:mod:`shmod.forum.moderators`, R-MODERATORS,
  R-HANDOVER);
- the players' claims in the thread (:mod:`shmod.forum.claims`, R-CLAIM).

:func:`moves` is given the forum engine's ``apply``, through which a correction replays
the steps it keeps, so the table plugs into the engine without importing it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shmod.forum import (
    absence,
    claims,
    corrections,
    deadlines,
    dealing,
    deliveries,
    moderators,
    seats,
    thread,
)
from shmod.forum.steps import (
    Acknowledge,
    Backup,
    Claim,
    Correct,
    Delivered,
    Handover,
    Lapse,
    Moderator,
    Posted,
    Prod,
    Remove,
    Rename,
    Replace,
    SetDeadline,
    Takeover,
    Withdrawn,
    Word,
)
from shmod.forum.table import Table
from shmod.forum.turns import Move
from shmod.game.steps import Step
from shmod.game.terms import DEAL, PLAYING


def moves(apply: Callable[[Table, Step], None]) -> tuple[Move[Any], ...]:
    """The forum's moves; ``apply`` is the forum engine's (a correction replays with it)."""

    def correct(table: Table, step: Correct) -> None:
        corrections.correct(table, step, apply)

    return (
        Move(Word, dealing.word, (DEAL,), "R-DEAL", "a word for the deal"),
        Move(SetDeadline, deadlines.set_deadline, PLAYING, "R-DEADLINE", "a deadline"),
        Move(Lapse, deadlines.lapse, PLAYING, "R-LAPSE", "a lapse"),
        Move(Prod, absence.prod, None),  # a PM sent: never replayed by a correction
        Move(Backup, absence.backup, None, kept=True),  # a correction replays the list
        Move(Remove, absence.remove, PLAYING, "R-MODKILL", "a removal"),
        Move(Replace, seats.replace, PLAYING, "R-REPLACE", "a replacement"),
        Move(Rename, seats.rename, PLAYING, "R-RENAME", "a name corrected"),
        Move(Correct, correct, None),
        Move(Posted, thread.posted, None),
        Move(Delivered, deliveries.deliver, None),  # an item delivered: never replayed
        Move(Withdrawn, thread.withdrawn, None),  # a post that lost a race (R-MERGE)
        Move(Acknowledge, thread.acknowledge, None),
        Move(Moderator, moderators.moderator, None),
        Move(Handover, moderators.handover, None),
        Move(Takeover, moderators.takeover, None),
        Move(Claim, claims.claim, None, kept=True),  # a correction replays it, or voids it
    )
