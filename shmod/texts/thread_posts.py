"""Thread posts over a whole log: the post a step makes, earlier posts again, previews.

Every post shmod prints for the thread is numbered and recorded in the log as a
``posted`` entry in the same write (``upto``: the last log entry the post covers; 0 is
the setup; ``checkpoint``: what its last line shows, R-CHECKPOINT), so whatever the
moderator pastes is known to the log. A post covers every public event since the
previous post (:func:`shmod.forum.thread.news`) and shows the board as it stood then;
one that says a deadline alone is short (``short: true``): the deadline line, then the
checkpoint line.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shmod.base.errors import BadInput, LogError
from shmod.base.records import Record, replace
from shmod.forum.deadlines import utc
from shmod.forum.events import Corrected
from shmod.forum.table import Table
from shmod.forum.thread import last_posted, news, short, unposted
from shmod.game.events import Nominated, Public
from shmod.log import checkpoints
from shmod.log.entries import CHECKPOINT_HEX
from shmod.log.store import ChainNote, Loaded, Recorded, record, replay
from shmod.texts import forum_texts, game_texts as texts, messages
from shmod.texts.formats import Plain
from shmod.texts.views import public_view

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["Post", "earlier_post", "last_posted", "listing", "mark_next", "news", "preview",
           "recorded_post", "render", "state_at", "unposted", "vote_progress"]

PREVIEW = ("[Preview, not a post: it has no checkpoint and is not recorded. `shmod post` "
           "prints the post to paste and records it.]")


class Post(Record):
    """One thread post: its number, the entries it covers and its text."""

    number: int
    first: int
    upto: int
    text: str


def render(state: Table, events: list[Public], fmt: Plain, *, board: bool = True,
           now: datetime | None = None, brief: bool = False) -> str:
    """A post covering ``events`` as seen from ``state`` at the time ``now``, then whose
    move it is and the deadline in force, if it has not passed (R-DEADLINE). ``brief``: a
    short post, which says a deadline alone (:func:`shmod.forum.thread.short`): the
    deadline line, without the board (the whole post if it has no line to show)."""
    view = public_view(state)
    deadline = forum_texts.deadline_note(view, now, fmt) if now is not None else None
    if brief:
        said = messages.post(view, events, fmt, board=False, notes=[deadline] if deadline else [])
        if said:
            return said
    notes = [texts.prompt_text(view, fmt), deadline]
    return messages.post(view, events, fmt, board=board, notes=[n for n in notes if n])


def _pinned(text: str, number: int, upto: int, shown: str) -> str:
    """``text`` ending with its checkpoint line (R-CHECKPOINT)."""
    return f"{text}\n\n{checkpoints.line(number, upto, shown)}"


def recorded_post(done: Recorded[Any], fmt: Plain, *, board: bool = True) -> Post | None:
    """The text of the post ``done`` recorded, if it recorded one."""
    marked = done.post
    if marked is None:
        return None
    text = render(done.loaded.table, marked.events, fmt, board=board, now=utc(marked.at),
                  brief=marked.short)
    return Post(marked.number, marked.first, marked.upto,
                _pinned(text, marked.number, marked.upto, marked.token))


def mark_next(path: str, fmt: Plain, *, board: bool = True, at: str,
              moderator: str | None = None) -> Post:
    """The next post, recorded as posted (at ``at``, by ``moderator`` in a game that lists
    its moderators) with the checkpoint it ends with, under the log's lock (two racing
    ``shmod post`` cannot both print it); a deadline alone makes a short one."""
    made = record(path, lambda game: None, at=at, moderator=moderator, asked=True,
                  before_write=lambda done: recorded_post(done, fmt, board=board)).composed
    assert made is not None
    return made


def preview(game: Loaded, fmt: Plain, now: datetime, *, board: bool = True) -> str | None:
    """What the next post would say, marked as a preview (no checkpoint, not recorded)."""
    events = news(game.table, asked=True)
    if not events:
        return None
    text = render(game.table, events, fmt, board=board, now=now, brief=short(events))
    return f"{PREVIEW}\n\n{text}"


def vote_progress(game: Loaded, fmt: Plain) -> str | None:
    """While votes or words come in: how many are in and who is missing (never a vote).
    Not a numbered post: it holds nothing the log must answer for. None while the count
    is not above what a note showed before a correction (:func:`progress_shown`)."""
    view = public_view(game.table)
    if len(view.voted) <= progress_shown(game.table):
        return None
    return texts.pending_vote_text(view, fmt)


def progress_shown(table: Table) -> int:
    """The highest count of votes (or, before the deal, of words) a progress note may have
    shown in the vote under way before a correction voided some. The note never counts
    down: a thread that saw 3 of 9 and then 2 of 9 would learn that a correction happened
    (R-CORRECT keeps voided votes the players never saw out of the thread), so after one
    it is offered again only once the count passes this. 0 when no correction voided any."""
    phase = table.game.phase
    if phase not in ("vote", "deal"):
        return 0
    started = max((ev.entry for ev in table.public if isinstance(ev, Nominated)), default=0)
    high = 0
    for event in table.public:
        if (isinstance(event, Corrected) and event.waiting.phase == phase
                and (phase == "deal" or event.entry > started)):
            voided = sum(1 for _, step in event.voided if step.kind in ("vote", "word"))
            high = max(high, event.waiting.of - len(event.waiting.seats) + voided)
    return high


def state_at(game: Loaded, entries: int) -> Table:
    """The game as it stood after its first ``entries`` log entries."""
    return replay(replace(game.log, entries=game.log.entries[:entries])).table


def _recorded(game: Loaded) -> list[tuple[str, str]]:
    """The checkpoint and the time of each ``posted`` entry, post 1 first."""
    return [(str(raw.get("checkpoint", "")), str(raw.get("at", ""))) for raw in game.log.entries
            if isinstance(raw, dict) and raw.get("kind") == "posted"]


def earlier_post(game: Loaded, number: int, fmt: Plain, *, board: bool = True) -> Post:
    """Post ``number`` (1 is the opening post) again, exactly as it was."""
    marks = game.table.posts
    if not 1 <= number <= len(marks):
        made = f"posts 1 to {len(marks)} were made" if marks else "no post has been made yet"
        raise BadInput(f"there is no post {number}: {made}")
    first = marks[number - 2] + 1 if number > 1 else 0
    upto = marks[number - 1]
    changed = [n for n in game.chain if n.problem == "checkpoint" and _marks(game, n) == number]
    if changed:
        raise LogError(game.path, changed[0].line, f"post {number} cannot be shown as it was "
                       f"posted: {changed[0].detail}. The thread holds the post as made",
                       rule="R-CHECKPOINT")
    state = state_at(game, upto)
    events = unposted(state)  # what the post covered: a silent correction is no part of it
    shown, at = _recorded(game)[number - 1]
    try:
        when: datetime | None = utc(at)
    except BadInput:  # marked by hand without a time: no deadline is shown
        when = None
    text = render(state, events, fmt, board=board, now=when,
                  brief=number in game.table.short_posts)
    if not shown:  # marked by hand without one
        return Post(number, first, upto, text)
    if len(shown) == CHECKPOINT_HEX:  # an earlier shmod's unkeyed checkpoint
        return Post(number, first, upto, f"{text}\n\n{checkpoints.LABEL}: entry {upto} · {shown}")
    return Post(number, first, upto, _pinned(text, number, upto, shown))


def _marks(game: Loaded, note: ChainNote) -> int:
    """The number of the post that the ``posted`` entry behind ``note`` marked."""
    return sum(1 for raw in game.log.entries[:note.index + 1]
               if isinstance(raw, dict) and raw.get("kind") == "posted")


def listing(game: Loaded) -> list[tuple[int, int, int]]:
    """``(number, first entry, last entry)`` of every post made so far."""
    out, first = [], 0
    for number, upto in enumerate(game.table.posts, 1):
        out.append((number, first, upto))
        first = upto + 1
    return out
