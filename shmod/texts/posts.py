"""Thread posts over a whole log: what is not yet posted, earlier posts again, marking.

The log records each post the moderator made as a ``posted`` entry (``upto``: the last
log entry the post covers; 0 is the setup). A post covers every public event caused by
the entries after the previous post up to ``upto``, and shows the board as it stood then.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from shmod.base.errors import BadInput, LogError
from shmod.core.forum import voided
from shmod.core.state import Public, State
from shmod.core.steps import Step
from shmod.log import checkpoints
from shmod.log.game import ChainNote, Game, record, replay
from shmod.texts import game_texts as texts, messages
from shmod.texts.formats import Plain
from shmod.texts.views import public_view


@dataclass(frozen=True)
class Post:
    """One thread post: its number, the entries it covers and its text."""

    number: int
    first: int
    upto: int
    text: str


def last_posted(state: State) -> int:
    """The last entry already covered by a post (-1 before the opening post)."""
    return state.posts[-1] if state.posts else -1


def unposted(state: State) -> list[Public]:
    """The public events not covered by any post yet, less those of voided entries and the
    corrections that voided only what was never posted (R-CORRECT): players never saw
    them, and a catch-up post does not tell them about entries they cannot see."""
    last = last_posted(state)
    gone = voided(state)
    return [ev for ev in state.public if ev.entry > last and ev.entry not in gone
            and not (ev.kind == "correction" and not ev.data.get("posted"))]


def render(state: State, events: list[Public], fmt: Plain, *, board: bool = True) -> str:
    """A post covering ``events`` as seen from ``state``, then whose move it is now."""
    view = public_view(state)
    prompt = texts.prompt_text(view, fmt)
    return messages.post(view, events, fmt, board=board, notes=[prompt] if prompt else [])


def next_post(game: Game, fmt: Plain, *, board: bool = True) -> Post | None:
    """The post covering everything public since the last post; ``None`` if nothing is new."""
    state = game.state
    events = unposted(state)
    if not events:
        return None
    first = last_posted(state) + 1
    text = render(state, events, fmt, board=board)
    return Post(len(state.posts) + 1, first, state.entries, _pinned(game, text, state.entries))


def _pinned(game: Game, text: str, upto: int) -> str:
    """``text`` ending with the checkpoint of the log up to entry ``upto`` (R-CHECKPOINT)."""
    return f"{text}\n\n{checkpoints.line(upto, game.heads[upto])}"


def vote_progress(game: Game, fmt: Plain) -> str | None:
    """While votes come in: how many have voted and who has not (never the votes)."""
    text = texts.pending_vote_text(public_view(game.state), fmt)
    return None if text is None else _pinned(game, text, game.state.entries)


def state_at(game: Game, entries: int) -> State:
    """The game as it stood after its first ``entries`` log entries."""
    return replay(dataclasses.replace(game.log, entries=game.log.entries[:entries])).state


def earlier_post(game: Game, number: int, fmt: Plain, *, board: bool = True) -> Post:
    """Post ``number`` (1 is the first marked post) again, exactly as it was."""
    marks = game.state.posts
    if not 1 <= number <= len(marks):
        made = f"posts 1 to {len(marks)} were made" if marks else "no post has been marked yet"
        raise BadInput(f"there is no post {number}: {made}")
    first = marks[number - 2] + 1 if number > 1 else 0
    upto = marks[number - 1]
    changed = [n for n in game.chain if n.problem == "checkpoint" and _marks(game, n) == number]
    if changed:
        raise LogError(game.path, changed[0].line, f"post {number} cannot be shown as it was "
                       f"posted: {changed[0].detail}. The thread holds the post as made",
                       rule="R-CHECKPOINT")
    state = state_at(game, upto)
    events = [ev for ev in state.public if ev.entry >= first]
    return Post(number, first, upto, _pinned(game, render(state, events, fmt, board=board), upto))


def _marks(game: Game, note: ChainNote) -> int:
    """The number of the post that the ``posted`` entry behind ``note`` marked."""
    return sum(1 for raw in game.log.entries[:note.index + 1]
               if isinstance(raw, dict) and raw.get("kind") == "posted")


def mark_next(path: str, fmt: Plain, *, board: bool = True) -> Post:
    """Compose the next post and record it as posted, both under the log's lock (so two
    racing ``post --mark`` cannot both print a post), with the checkpoint it ends with
    (R-CHECKPOINT: the replay checks it against the log from then on)."""
    made: list[Post] = []

    def make(game: Game) -> Step:
        post = next_post(game, fmt, board=board)
        if post is None:
            raise BadInput(f"R-THREAD: nothing new to post since the last post (entry "
                           f"{last_posted(game.state)}); nothing was marked")
        made.append(post)
        return Step("posted", upto=post.upto, checkpoint=game.heads[post.upto])

    record(path, make)
    return made[0]


def listing(game: Game) -> list[tuple[int, int, int]]:
    """``(number, first entry, last entry)`` of every post marked so far."""
    out, first = [], 0
    for number, upto in enumerate(game.state.posts, 1):
        out.append((number, first, upto))
        first = upto + 1
    return out
