"""The outbox's record (R-PM, R-MISSENT): which items the moderator delivered, and to whom.

An *item* is a text a step owes a reader: each PM it caused (a
:class:`~shmod.game.events.Secret`), each prod (R-STALL), each post for the thread, and
each withdrawal line a post withdrawn after a race must show (R-MERGE).
Delivering one is bookkeeping (a ``delivered`` entry): it moves no draw and nothing of
the game, holds nothing secret, and a correction neither replays nor voids it. Which
items there are, what names them and in what order they are owed is the log layer's
(:mod:`shmod.log.outbox`), which reads the entries; this module keeps the deliveries and
says whether an item counts as sent.

A log written before the outbox (no ``delivered`` entry, no post marked ``outbox``) had
every PM and post printed when its step was recorded: everything caused up to its last
post counts as delivered (``Table.legacy_until``); what came after is owed until it is
delivered (``shmod outbox --settle``, for what was sent by hand).
"""
from __future__ import annotations

from shmod.base.errors import RuleBroken
from shmod.forum.steps import Delivered, Posted
from shmod.forum.table import Delivery, Table

#: The thread, as an item's addressee; and the kinds of item that are no secret's: a
#: post, a prod, and the withdrawal line a post withdrawn after a race must show (R-MERGE).
THREAD = "thread"
POST = "post"
PROD = "prod"
WITHDRAWAL = "withdrawal"


def deliver(table: Table, step: Delivered) -> None:
    """R-PM: an item of the outbox was given to its reader, or (R-MISSENT) to the wrong
    one. The item must be one the log holds: a post, a prod, or a PM the entry caused."""
    entry, to, what, n = step.entry, step.to, step.what, step.n or 1
    if what in (POST, WITHDRAWAL):
        if to != THREAD:
            raise RuleBroken("R-PM", f"a {what} is delivered to the thread, not to {to}")
        if what == WITHDRAWAL and not any(made == entry for made, _p, _c in table.withdrawn):
            raise RuleBroken("R-PM", f"entry {entry} withdrew no post")
    elif what == PROD:
        if not any(made == entry for made, _seat in table.prods):
            raise RuleBroken("R-PM", f"entry {entry} made no prod")
    elif sum(1 for s in table.secrets if s.entry == entry and s.to == to and s.kind == what) < n:
        which = f" number {n}" if n > 1 else ""
        raise RuleBroken("R-PM", f"entry {entry} sent {to} no PM{which} of the kind {what!r}")
    if step.wrong is not None:
        names = {*table.game.players, *(old for _s, old, _n, _e in table.replaced),
                 *(old for _s, old, _n, _e in table.renamed), THREAD}
        if step.wrong == to or step.wrong not in names:
            raise RuleBroken("R-MISSENT", f"an item given to the wrong reader names that reader: "
                             f"a player other than {to}, or the thread, not {step.wrong!r}")
    table.deliveries.append(Delivery(table.entries, entry, to, what, n, step.wrong,
                                     table.clock, table.recorder))
    if table.outbox_from is None:
        table.outbox_from = table.entries


def posted(table: Table, step: Posted) -> None:
    """Where the outbox begins: at the first post marked ``outbox`` (or the first delivery);
    before it, each post moves the boundary of what an earlier shmod printed."""
    if table.outbox_from is None:
        if step.outbox:
            table.outbox_from = table.entries
        else:
            table.legacy_until = table.entries


def sent(table: Table, entry: int, what: str, to: str | None = None, n: int = 1) -> bool:
    """Whether the item entry ``entry`` caused (``what``, to ``to``; any addressee when
    None, the ``n``-th of its kind) counts as delivered: printed by an earlier shmod
    before the outbox began, or delivered to its own reader since."""
    if entry <= table.legacy_until:
        return True
    return any(d.of == entry and d.what == what and d.wrong is None and d.n == n
               and (to is None or d.to == to) for d in table.deliveries)


def deliveries(table: Table, entry: int, what: str, to: str,
               n: int = 1) -> tuple[list[Delivery], list[Delivery]]:
    """The deliveries of one item: to its own reader, and to a wrong one (R-MISSENT)."""
    found = [d for d in table.deliveries
             if d.of == entry and d.what == what and d.to == to and d.n == n]
    return [d for d in found if d.wrong is None], [d for d in found if d.wrong is not None]
