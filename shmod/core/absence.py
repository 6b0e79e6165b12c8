"""Absent players on a forum: prods recorded, backup players in order, and the removal of a
player nobody can replace (R-STALL, R-BACKUP, R-MODKILL).

None of these is a move of the game: a prod only reminds, a backup only waits to be named
by a replacement (:mod:`shmod.core.forum`), and a removal is the moderator's, not the
table's: it grants nothing and reveals no role.
"""
from __future__ import annotations

from shmod.base.errors import BadInput, RuleBroken
from shmod.core import play
from shmod.core.events import Drawn, Handed, Removed, RemovedNotice, Retraction, Win
from shmod.core.explain import waiting_text
from shmod.core.setup import check_name
from shmod.core.state import State
from shmod.core.steps import Backup, Prod, Remove
from shmod.core.terms import (
    DEAL,
    DISCARD,
    ENACT,
    LIBERAL,
    LIBERALS,
    NOMINATE,
    PLAYING,
    POWER,
    POWERS,
    RESHUFFLE,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
)
from shmod.core.turns import Move, waiting_for


def _prod(state: State, step: Prod) -> None:
    """R-STALL: a prod sent by PM to a player the game waits for, recorded with its time."""
    seat = step.target
    waiting = waiting_for(state)
    if seat not in waiting.seats:
        raise RuleBroken("R-STALL", f"{state.name(seat)} owes nothing now: the game waits for "
                         f"{waiting_text(waiting)}")
    state.prods.append((state.entries, seat))


def prod_count(state: State, seat: int) -> int:
    """How many prods the player in ``seat`` has been sent (R-STALL)."""
    return sum(1 for _, prodded in state.prods if prodded == seat)


#: R-BACKUP: the most backup players the list holds. A forum game needs a handful; a
#: longer list only eats the room in the log a whole game needs (logfile.MAX_BYTES).
MAX_BACKUPS = 50


def _backup(state: State, step: Backup) -> None:
    """R-BACKUP: a name joins the ordered list of backup players, or leaves it."""
    name = " ".join(step.name.split())
    known = [b.casefold() for b in state.backups]  # at most MAX_BACKUPS
    if step.drop:
        if name.casefold() not in known:
            raise RuleBroken("R-BACKUP", f"{name!r} is not on the backup list "
                             f"({', '.join(state.backups) or 'empty'})")
        state.backups.pop(known.index(name.casefold()))
        return
    if name.casefold() in known:
        raise RuleBroken("R-BACKUP", f"{name!r} is already on the backup list")
    if len(known) >= MAX_BACKUPS:
        raise RuleBroken("R-BACKUP", f"the backup list holds at most {MAX_BACKUPS} players, "
                         f"and it is full; drop one first (shmod backup --drop NAME)")
    try:
        check_name(name, state.players, [old for _s, old, _n, _e in state.replaced])
    except BadInput as err:
        raise RuleBroken("R-BACKUP", f"cannot list {name!r} as a backup: {err}") from None
    state.backups.append(name)


def _remove(state: State, step: Remove) -> None:
    """R-MODKILL: the seat dies, by the moderator, not by the table."""
    seat = step.target
    name = state.name(seat)
    if state.phase == DEAL:
        raise RuleBroken("R-MODKILL", f"the roles are not dealt yet: seat another player "
                         f"(shmod replace {name} NEWCOMER) instead")
    if not state.alive[seat]:
        raise RuleBroken("R-MODKILL", f"{name} is dead already")
    if len(state.living) <= 2:
        raise RuleBroken("R-MODKILL", "a game needs two living players: the last two cannot "
                         "be removed")
    state.alive[seat] = False
    state.removed[seat] = state.entries
    state.tell(seat, RemovedNotice, reason=step.reason)
    if seat == state.hitler:
        state.say(Removed, name=name, hitler=True)
        play.win(state, Win(LIBERALS, "R-MODKILL", hitler=name))
        return
    ends = _ends_round(state, seat)
    state.say(Removed, name=name, hitler=False, ends_round=ends)
    if ends:
        _abandon(state)
    elif state.phase == VOTE:
        state.votes.pop(seat, None)
        state.late.discard(seat)
        if len(state.votes) == len(state.living):
            play.count(state)


def _ends_round(state: State, seat: int) -> bool:
    """Whether removing ``seat`` ends the round as a failed election: the Presidential
    Candidate, the nominee, or the President or Chancellor before the policy is enacted;
    a President with a power pending loses it (the next round begins, the tracker stays)."""
    phase = state.phase
    if phase in (NOMINATE, VOTE, DISCARD, ENACT, VETO_ANSWER, VETO_VOTE):
        return seat in (state.president, state.chancellor)
    if phase in (POWER, RESHUFFLE):
        return seat == state.president and (phase == POWER or state.resume in POWERS)
    return False


def _abandon(state: State) -> None:
    """The round the removal ended: a failed election before the policy was enacted, the
    hand back on top of the draw pile in its order; a pending power simply lost."""
    if state.phase in (POWER, RESHUFFLE):
        if state.phase == RESHUFFLE:
            state.resume = "round"
            return
        play.next_round(state)
        return
    for seat, secret in ((state.president, Drawn), (state.chancellor, Handed)):
        if state.hand and seat is not None and state.alive[seat] and (
                (secret is Drawn and state.phase == DISCARD)
                or (secret is Handed and state.phase in (ENACT, VETO_ANSWER, VETO_VOTE))):
            sent = next(s.entry for s in reversed(state.secrets) if type(s) is secret)
            state.tell(seat, Retraction, what=secret, sent=sent)
    state.draw[:0] = state.hand
    state.hand = []
    state.chosen = None
    state.votes = {}
    state.late = set()
    state.veto_votes = {}
    play.failed(state)


#: The moves for absent players.
MOVES = (Move(Prod, _prod, None),  # bookkeeping: no step of the game, never corrected
         Move(Backup, _backup, None, kept=True),  # a correction replays the list (R-CORRECT)
         Move(Remove, _remove, PLAYING, "R-MODKILL", "a removal"))

__all__ = ["LIBERAL", "MOVES", "prod_count"]
