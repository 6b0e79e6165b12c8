"""Any public event's words, any PM's text, a whole thread post: the game's texts
(:mod:`shmod.texts.game_texts`) and the forum's (:mod:`shmod.texts.forum_texts`) behind
one door. Posts are built from a :class:`~shmod.texts.views.PublicView`, a PM from one
:class:`~shmod.game.events.Secret`, never from the state.
"""
from __future__ import annotations

from collections.abc import Iterable

from shmod.forum.events import (
    Briefing,
    LapsePlayed,
    RemovedNotice,
    Retraction,
)
from shmod.game.events import (
    Drawn,
    ExecutedNotice,
    Handed,
    InvestigationResult,
    PeekResult,
    Public,
    RoleSent,
    Secret,
    VetoRequested,
    VetoVoteAsked,
)
from shmod.texts import forum_texts, game_texts, pm_texts
from shmod.texts.catalog import N_
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView
from shmod.texts.wordings import PostWords

#: Every public event's words in a thread post, one row per event class: the game's
#: (:mod:`shmod.texts.game_texts`) and forum moderation's (:mod:`shmod.texts.forum_texts`).
POST_WORDS: dict[type[Public], PostWords] = {**game_texts.POST_WORDS, **forum_texts.POST_WORDS}


def post_words(view: PublicView, event: Public, fmt: Plain) -> str | None:
    """One public event's words in a thread post; ``None`` for an event that needs none."""
    return POST_WORDS[type(event)](view, event, fmt)


def pm_text(secret: Secret, fmt: Plain) -> str:
    """The full text of one PM to ``secret.to``."""
    if isinstance(secret, Briefing):  # a replacement's: every PM the seat was sent, again
        return forum_texts.pm_text(secret, fmt, pm_text)
    if isinstance(secret, Retraction):
        return forum_texts.retract_text(secret.what, fmt)
    if isinstance(secret, LapsePlayed):
        return forum_texts.lapse_played_text(secret, fmt)
    if isinstance(secret, RemovedNotice):
        return forum_texts.removed_text(fmt, secret.backups)
    return pm_texts.pm_text(secret, fmt)


#: What each PM is, for its subject line.
SUBJECTS: dict[type[Secret], str] = {
    RoleSent: N_("your secret role"), Drawn: N_("your three policies (you are President)"),
    Handed: N_("your two policies (you are Chancellor)"),
    VetoRequested: N_("the Chancellor proposes a veto"),
    VetoVoteAsked: N_("your secret veto vote"),
    InvestigationResult: N_("your investigation result"), PeekResult: N_("your Policy Peek"),
    ExecutedNotice: N_("you have been executed"), RemovedNotice: N_("you have left the game"),
    Briefing: N_("your seat, role and history"), Retraction: N_("please disregard my last PM"),
    LapsePlayed: N_("what the deadline decided for you")}


def subject(secret: Secret, title: str, fmt: Plain) -> str:
    """The PM's subject line: the game and what the PM is ("Friday: your secret role")."""
    return _subject(title, fmt.lang._(SUBJECTS[type(secret)]), fmt)


def _subject(title: str, what: str, fmt: Plain) -> str:
    # TRANSLATORS: a PM's subject line: the game's title, then what the PM is.
    return fmt.lang._("{title}: {what}", title=title, what=what)


def pm_with_subject(secret: Secret, fmt: Plain, title: str) -> str:
    """A PM ready to send: ``Subject: …``, a blank line, the text. (``Subject:`` is for the
    moderator, who copies what follows it into the forum's subject field.)"""
    return f"Subject: {subject(secret, title, fmt)}\n\n{pm_text(secret, fmt)}"


def prod_with_subject(text: str, fmt: Plain, title: str) -> str:
    """A prod ready to send (R-STALL, :func:`shmod.texts.forum_texts.prods`), with its
    subject line."""
    # TRANSLATORS: what a prod is, in its subject line.
    what = fmt.lang._("a reminder")  # not in the f-string: the extractor reads none
    return f"Subject: {_subject(title, what, fmt)}\n\n{text}"


def post(view: PublicView, events: Iterable[Public], fmt: Plain, *, board: bool = True,
         notes: Iterable[str] = ()) -> str:
    """A thread post covering ``events``, then ``notes`` (e.g. deadlines), then the board."""
    parts = [t for t in (post_words(view, ev, fmt) for ev in events) if t]
    parts.extend(notes)
    if board:
        parts.append(game_texts.board_text(view, fmt))
    return "\n\n".join(parts)
