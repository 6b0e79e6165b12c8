"""What each item of the outbox says (:mod:`shmod.log.outbox`): a PM's subject and text, a
prod's, a post's, a withdrawal's, in the game's language and output profile. A PM is made
from its one :class:`~shmod.game.events.Secret`, a prod from the public view and the
player's own view as they stood when it was made, a post as it was posted
(:func:`shmod.texts.thread_posts.earlier_post`), a withdrawal from its ``withdrawn`` entry.
"""
from __future__ import annotations

from shmod.base.errors import InternalError
from shmod.base.records import Record
from shmod.forum.deadlines import utc
from shmod.log.outbox import POST, PROD, WITHDRAWAL, Item, withdrawal_line
from shmod.log.store import Loaded
from shmod.texts import forum_texts, messages, thread_posts, views
from shmod.texts.formats import Plain


class Text(Record):
    """An item's words: a PM's subject (None for a post) and its body."""

    subject: str | None
    body: str

    def framed(self) -> str:
        """The item as one text: ``Subject: …``, a blank line, the body (a post: its body)."""
        return self.body if self.subject is None else f"Subject: {self.subject}\n\n{self.body}"


def text(game: Loaded, item: Item, fmt: Plain, title: str) -> Text:
    """``item``'s words; ``title`` is the game's name in PM subjects."""
    if item.what == POST:
        return Text(None, thread_posts.earlier_post(game, item.post, fmt).text)
    if item.what == PROD:
        return _prod(game, item, fmt, title)
    if item.what == WITHDRAWAL:
        return Text(None, forum_texts.withdrawal_text(item.post, withdrawal_line(game, item),
                                                      fmt))
    if item.secret is None:
        raise InternalError(f"the outbox's item {item.label()} has no PM", game.path)
    return Text(messages.subject(item.secret, title, fmt), messages.pm_text(item.secret, fmt))


def _prod(game: Loaded, item: Item, fmt: Plain, title: str) -> Text:
    """A prod as it was made: from the game as it stood before its entry, at its time."""
    state = thread_posts.state_at(game, item.entry - 1)
    seen = views.public_view(state)
    sent = {name: views.player_view(state, name).secrets for name in seen.waiting_on}
    now = utc(item.at) if item.at and seen.deadline else None
    body = dict(forum_texts.prods(seen, fmt, now, sent)).get(item.to)
    if body is None:
        raise InternalError(f"the prod of entry {item.entry} names {item.to}, whom the game "
                            "did not wait for", game.path)
    whole = messages.prod_with_subject(body, fmt, title)
    subject, _, rest = whole.partition("\n\n")
    return Text(subject.removeprefix("Subject: "), rest)
