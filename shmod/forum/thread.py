"""The thread and the log (R-THREAD, R-EDIT): what the next post covers, the posts marked
as made, a post withdrawn after a race between moderators (R-MERGE), and hand edits of the
log acknowledged. Bookkeeping: none of it is a step of the game, and a correction never
replays it.
"""
from __future__ import annotations

from shmod.base.errors import RuleBroken
from shmod.forum import deliveries
from shmod.forum.corrections import voided
from shmod.forum.events import Claimed, Corrected, DeadlineSet
from shmod.forum.steps import Acknowledge, Posted, Withdrawn
from shmod.forum.table import Table
from shmod.game.events import Public, RoundBegan

#: Public events that alone make no post when a step is recorded: the next round is said
#: by the post before it, a claim, said in the thread by its player, shows in the next post
#: (R-CLAIM), and so does a deadline (R-DEADLINE), unless the moderator asks for a post
#: (`shmod deadline --post`, `shmod post`): then a deadline alone makes a short one
#: (:func:`short`).
QUIET = (RoundBegan, Claimed, DeadlineSet)


def last_posted(table: Table) -> int:
    """The last entry already covered by a post (-1 before the opening post)."""
    return table.posts[-1] if table.posts else -1


def unposted(table: Table) -> list[Public]:
    """The public events no post has covered yet, less those of voided entries and the
    corrections that voided only what was never posted (R-CORRECT): players never saw
    them, so a post does not tell them about entries they cannot see; and less the claims
    recorded once the game was over (R-CLAIM: no post follows the game's end)."""
    last = last_posted(table)
    gone = voided(table)
    return [ev for ev in table.public if ev.entry > last and ev.entry not in gone
            and not (isinstance(ev, Corrected) and not ev.posted)
            and not (isinstance(ev, Claimed) and ev.late)]


def news(table: Table, *, asked: bool = False) -> list[Public]:
    """What the next post covers: :func:`unposted`, if any of it is worth a post; when the
    moderator ``asked`` for one, a deadline alone is."""
    events = unposted(table)
    quiet = tuple(kind for kind in QUIET if kind is not DeadlineSet) if asked else QUIET
    return events if any(not isinstance(ev, quiet) for ev in events) else []


def short(events: list[Public]) -> bool:
    """Whether a post covering ``events`` says a deadline alone (R-DEADLINE): a short post,
    the deadline line and its checkpoint line, without the board."""
    return bool(events) and all(isinstance(ev, DeadlineSet) for ev in events)


def posted(table: Table, step: Posted) -> None:
    """The moderator posted everything public up to entry ``upto`` (R-THREAD)."""
    upto = step.upto
    last = table.posts[-1] if table.posts else -1
    if not last < upto < table.entries:
        raise RuleBroken("R-THREAD", f"a post can cover entries {last + 1} to "
                         f"{table.entries - 1} only, not up to {upto}")
    if not any(last < ev.entry <= upto for ev in table.public):
        raise RuleBroken("R-THREAD", f"nothing new to mark posted: no public event after "
                         f"entry {last} up to entry {upto}")
    if step.short and not short([ev for ev in unposted(table) if ev.entry <= upto]):
        raise RuleBroken("R-THREAD", f"a short post says a deadline alone, and entries "
                         f"{last + 1} to {upto} hold more than a deadline")
    if step.short:
        table.short_posts.append(len(table.posts) + 1)
    table.posts.append(upto)
    deliveries.posted(table, step)


def withdrawn(table: Table, step: Withdrawn) -> None:
    """R-MERGE: a post that lost a race with another moderator's post of its number, kept
    by the merge as withdrawn: never the opening post, and each version once."""
    if step.post < 2:
        raise RuleBroken("R-THREAD", f"post {step.post} cannot be withdrawn: the opening post "
                         "is made once, by shmod new")
    if any(post == step.post and shown == step.checkpoint
           for _entry, post, shown in table.withdrawn):
        raise RuleBroken("R-THREAD", f"this version of post {step.post} is withdrawn already")
    table.withdrawn.append((table.entries, step.post, step.checkpoint))


def acknowledge(table: Table, step: Acknowledge) -> None:
    """R-EDIT: the moderator says that earlier entries were edited by hand on purpose,
    and why; the edit stays visible (the chain and the thread's checkpoints show it)."""
    late = [n for n in step.entries if n >= table.entries]
    if late:
        raise RuleBroken("R-EDIT", f"entry {late[0]} is not an earlier entry (this is entry "
                         f"{table.entries})")
    table.acknowledged.append((table.entries, step.entries, step.reason))
