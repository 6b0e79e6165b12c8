"""What the moderator sees after a step: the PMs to send, the post, whom the game awaits."""
from __future__ import annotations

from collections.abc import Iterable

from shmod.core.state import Public, Secret
from shmod.texts import game_texts as texts, messages
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView

QUIET_EVENTS = {"round"}


def after_step(view: PublicView, public: Iterable[Public], secrets: Iterable[Secret],
               fmt: Plain, checkpoint: str) -> list[tuple[str, str]]:
    """Sections ``(title, body)`` to show after a step, in the order to act on them: the
    PMs, then the post, which ends with ``checkpoint`` (:func:`shmod.log.checkpoints.line`)."""
    sections: list[tuple[str, str]] = []
    for secret in secrets:
        sections.append((f"PM to {secret.to}", messages.pm_text(secret, fmt)))
    events = list(public)
    if any(ev.kind not in QUIET_EVENTS for ev in events):
        prompt = texts.prompt_text(view, fmt)
        sections.append(("Post in the thread (or later: shmod post)",
                         messages.post(view, events, fmt, notes=[prompt] if prompt else [])
                         + "\n\n" + checkpoint))
    elif view.phase == "vote":
        sections.append(("Votes coming in: this progress note may be posted (the votes stay "
                         "secret until all are in; nothing to mark)",
                         (texts.pending_vote_text(view, fmt) or "") + "\n\n" + checkpoint))
    return sections


def recorded_note(last: int, count: int, over: bool) -> str:
    """The stderr line after a recorded step: its entry number(s), for ``shmod correct``;
    at the end of the game, what is left to do."""
    where = f"entry {last}" if count == 1 else f"entries {last - count + 1}-{last}"
    note = f"Recorded as {where} of the log."
    if over:
        note += (" The game is over: post the last post (shmod post --mark), then the"
                 " reveal (shmod reveal); anyone can check the log with shmod audit.")
    return note
