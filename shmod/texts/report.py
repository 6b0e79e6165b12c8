"""What the moderator sees after a step: the PMs to send, the post, whom the game awaits."""
from __future__ import annotations

from collections.abc import Iterable

from shmod.forum.events import Corrected
from shmod.game.events import Public, Secret
from shmod.texts import game_texts as texts, messages
from shmod.texts.formats import Plain
from shmod.texts.thread_posts import Post
from shmod.texts.views import PublicView

POST_TITLE = "Post in the thread"


def after_step(view: PublicView, secrets: Iterable[Secret], fmt: Plain,
               post: Post | None, game_title: str, shown: int = 0) -> list[tuple[str, str]]:
    """Sections ``(title, body)`` to show after a step, in the order to act on them: the
    PMs (each with its subject line), then the post the step recorded (if any), else while
    votes or words come in a progress note that may be posted, when its count is above
    ``shown`` (:func:`shmod.texts.thread_posts.progress_shown`: the note never counts down)."""
    sections = [(f"PM to {secret.to}", messages.pm_with_subject(secret, fmt, game_title))
                for secret in secrets]
    if post is not None:
        sections.append((POST_TITLE, post.text))
    elif len(view.voted) > shown:
        progress = texts.pending_vote_text(view, fmt)
        if progress:
            what = "Words" if view.phase == "deal" else "Votes"
            sections.append((f"{what} coming in: this progress note may be posted (not a "
                             "numbered post; it shows nothing secret)", progress))
    return sections


def progress_hint(sections: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """While votes or words come in, the progress note is offered on stderr: it is no item
    of the outbox (not a numbered post), and ``shmod post`` prints it for the thread."""
    return [(title.split(":", 1)[0], "`shmod post` prints a progress note for the thread "
             "(not a numbered post; it shows nothing secret): " + body.splitlines()[0])
            for title, body in sections if title.endswith("shows nothing secret)")]


def unposted_corrections(view: PublicView, public: Iterable[Public],
                         posted: Iterable[Public], fmt: Plain) -> list[tuple[str, str]]:
    """Hints for corrections left out of the post because players never saw what they
    voided (R-CORRECT): the moderator still sees what was voided, on the terminal, so as
    plain text in English, as everything shmod prints for the moderator (not ``fmt``'s
    markup: no ``\\(`` escapes; not the game's language: nobody posts it)."""
    shown = list(posted)
    terminal = Plain()
    return [("Voided (players never saw it, so nothing is posted)",
             messages.post_words(view, ev, terminal) or "")
            for ev in public if isinstance(ev, Corrected) and ev not in shown]


def recorded_note(path: str, last: int, count: int, post: Post | None, over: bool) -> str:
    """The stderr line after a recorded step: its entry number(s) in which log, for
    ``shmod correct``, and the post recorded with it; at the end, what is left to do."""
    note = f"Recorded {recorded_where(path, last, count, post)}."
    if over:
        note += (" The game is over: send what the outbox holds (shmod send), then paste the "
                 "reveal (shmod reveal); anyone can check the log with shmod audit.")
    return note


def recorded_where(path: str, last: int, count: int, post: Post | None) -> str:
    """``as entry 12 of games/g.yaml, with post 4 (entry 13)``: where a step's ``count``
    entries, the last of them entry ``last``, went."""
    steps = count - (1 if post else 0)
    first = last - count + 1
    where = (f"entry {first}" if steps == 1 else f"entries {first}-{first + steps - 1}"
             if steps else "")
    said = f"as {where} of {path}" if where else f"in {path}"
    if post is not None:
        said += f"{',' if where else ':'} with post {post.number} (entry {last})"
    return said


def again(secrets: Iterable[Secret], post: Post | None) -> str:
    """How to see a recorded step's output again: the outbox holds its post and PMs."""
    if post is not None or list(secrets):
        return "its post and PMs wait in the outbox (`shmod outbox`, `shmod send`)"
    return "`shmod status` shows where the game stands"
