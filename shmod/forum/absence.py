"""Absent players on a forum: prods recorded, backup players in order, and the removal of a
player nobody can replace (R-STALL, R-BACKUP, R-MODKILL).

None of these is a move of the game: a prod only reminds, a backup only waits to be named
by a replacement (:mod:`shmod.forum.seats`), and a removal is the moderator's, not the
table's: it grants nothing and reveals no role. A removal changes the game only through
its hooks (:func:`shmod.game.hooks.leave` and what follows it).
"""
from __future__ import annotations

from shmod.base.errors import BadInput, RuleBroken
from shmod.forum import deliveries
from shmod.forum.events import Removed, RemovedNotice, Retraction
from shmod.forum.explain import waiting_text
from shmod.forum.setup import check_name
from shmod.forum.steps import Backup, Prod, Remove
from shmod.forum.table import Table
from shmod.forum.turns import waiting_for
from shmod.game import hooks
from shmod.game.events import Drawn, Handed
from shmod.game.terms import DEAL, DISCARD, ENACT, POWER, RESHUFFLE, VETO_ANSWER, VETO_VOTE, VOTE


def prod(table: Table, step: Prod) -> None:
    """R-STALL: a prod to send by PM to a player the game waits for, recorded with its time
    (an item of the outbox: it counts once delivered)."""
    seat = step.target
    waiting = waiting_for(table)
    if seat not in waiting.seats:
        raise RuleBroken("R-STALL", f"{table.game.name(seat)} owes nothing now: the game waits "
                         f"for {waiting_text(waiting)}")
    table.prods.append((table.entries, seat))


def prod_count(table: Table, seat: int) -> int:
    """How many prods the player in ``seat`` has been sent (R-STALL): a replacement's own,
    from 0 (R-REPLACE: the prods sent to the player they replaced were not theirs); a prod
    counts once it is delivered (:func:`counted`)."""
    since = max((entry for replaced, _, _, entry in table.replaced if replaced == seat),
                default=0)
    return sum(1 for entry, prodded in table.prods
               if prodded == seat and entry > since and counted(table, entry))


def counted(table: Table, entry: int) -> bool:
    """Whether the prod of entry ``entry`` counts (R-STALL): once it is delivered
    (:func:`shmod.forum.deliveries.sent`); one made before the log kept an outbox counts as
    made, as an earlier shmod printed it then."""
    return (table.outbox_from is None or entry < table.outbox_from
            or deliveries.sent(table, entry, deliveries.PROD))


#: R-BACKUP: the most backup players the list holds. A forum game needs a handful; a
#: longer list only eats the room in the log a whole game needs (logfile.MAX_BYTES).
MAX_BACKUPS = 50


def backup(table: Table, step: Backup) -> None:
    """R-BACKUP: a name joins the ordered list of backup players, or leaves it."""
    name = " ".join(step.name.split())
    known = [b.casefold() for b in table.backups]  # at most MAX_BACKUPS
    if step.drop:
        if name.casefold() not in known:
            raise RuleBroken("R-BACKUP", f"{name!r} is not on the backup list "
                             f"({', '.join(table.backups) or 'empty'})")
        table.backups.pop(known.index(name.casefold()))
        return
    if name.casefold() in known:
        raise RuleBroken("R-BACKUP", f"{name!r} is already on the backup list")
    if len(known) >= MAX_BACKUPS:
        raise RuleBroken("R-BACKUP", f"the backup list holds at most {MAX_BACKUPS} players, "
                         f"and it is full; drop one first (shmod backup --drop NAME)")
    try:
        check_name(name, table.game.players, [old for _s, old, _n, _e in table.replaced])
    except BadInput as err:
        raise RuleBroken("R-BACKUP", f"cannot list {name!r} as a backup: {err}") from None
    table.backups.append(name)


def check_no_backup(table: Table, seat: int) -> None:
    """R-MODKILL, R-BACKUP: a removal is for a player nobody can replace; while a backup
    player waits, the seat goes to them (``shmod replace``). Checked where a removal is
    typed, unless the moderator insists (``--force``: the backup cannot come after all),
    never on replay: the log records the removal, and its PM says a backup waited."""
    if table.backups:
        name = table.game.name(seat)
        typed = name if name.replace("_", "").isalnum() else f'"{name}"'
        waiting = ", ".join(table.backups)
        raise RuleBroken("R-MODKILL", f"a backup player is waiting ({waiting}, R-BACKUP): "
                         f"`shmod replace {typed}` seats the first of them; a removal is for a "
                         f"player nobody can replace (--force removes the seat anyway)")


def remove(table: Table, step: Remove) -> None:
    """R-MODKILL: the seat dies, by the moderator, not by the table. The Presidential
    Candidate, the nominee, or the President or Chancellor before the policy is enacted
    ends the round as a failed election (the hand back on top of the draw pile); a
    President with a power pending loses it; Hitler's removal ends the game."""
    game = table.game
    seat = step.target
    name = game.name(seat)
    if game.phase == DEAL:
        raise RuleBroken("R-MODKILL", f"the roles are not dealt yet: seat another player "
                         f"(shmod replace {name} NEWCOMER) instead")
    if not game.alive[seat]:
        raise RuleBroken("R-MODKILL", f"{name} is dead already")
    if len(game.living) <= 2:
        raise RuleBroken("R-MODKILL", "a game needs two living players: the last two cannot "
                         "be removed")
    ends = hooks.leave(game, seat)
    table.removed[seat] = table.entries
    game.tell(seat, RemovedNotice, reason=step.reason, backups=bool(table.backups))
    if seat == game.hitler:
        game.say(Removed, name=name, hitler=True)
        hooks.hitler_left(game, "R-MODKILL")
        return
    game.say(Removed, name=name, hitler=False, ends_round=ends)
    if ends:
        _retract_hands(table)
        hooks.abandon_round(game)
    elif game.phase == VOTE:
        hooks.drop_vote(game, seat)


def _retract_hands(table: Table) -> None:
    """The round a removal ends before its policy is enacted: the living President or
    Chancellor is told to disregard the policies they were sent (R-MODKILL), if the PM
    that gave them left the outbox (R-PM)."""
    game = table.game
    if game.phase in (POWER, RESHUFFLE):
        return
    for seat, secret in ((game.president, Drawn), (game.chancellor, Handed)):
        if game.hand and seat is not None and game.alive[seat] and (
                (secret is Drawn and game.phase == DISCARD)
                or (secret is Handed and game.phase in (ENACT, VETO_ANSWER, VETO_VOTE))):
            sent = next(s.entry for s in reversed(game.secrets) if type(s) is secret)
            if deliveries.sent(table, sent, secret.kind, game.players[seat]):  # else: unsent
                game.tell(seat, Retraction, what=secret, sent=sent)
