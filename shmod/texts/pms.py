"""Every PM a player has been sent, the PMs an entry caused, and their headings (R-PM);
which PMs are owed is the outbox's (:mod:`shmod.log.outbox`)."""
from __future__ import annotations

import os

from shmod.base.errors import BadInput
from shmod.forum.table import Table
from shmod.game.events import Secret
from shmod.texts.formats import Plain
from shmod.texts.messages import pm_with_subject
from shmod.texts.views import player_view


def sent_to(state: Table, name: str) -> list[Secret]:
    """Every PM ``name`` has been sent so far, oldest first."""
    if name not in state.game.players:
        raise BadInput(f"unknown player {name!r}")
    return list(player_view(state, name).secrets)


def at_entry(state: Table, entry: int) -> list[Secret]:
    """The PMs log entry ``entry`` caused (0: the role PMs)."""
    if not 0 <= entry <= state.entries:
        raise BadInput(f"there is no entry {entry}: the log has entries 0 to {state.entries}")
    return [s for s in state.secrets if s.entry == entry]


def title(path: str, header: dict[str, object]) -> str:
    """The game's name in PM subjects: the header's ``title``, else the log's file name
    (``games/friday.yaml``: Friday), so that players in two games know which one it is."""
    given = header.get("title")
    if isinstance(given, str) and given.strip():
        return given.strip()
    stem = os.path.splitext(os.path.basename(path))[0].replace("_", " ").replace("-", " ")
    return stem[:1].upper() + stem[1:] if stem else "Secret Hitler"


def render(secrets: list[Secret], fmt: Plain, game_title: str) -> list[tuple[str, str]]:
    """``(heading, text)`` for each PM: the heading names the recipient and the entry; the
    text starts with its subject line."""
    return [(f"PM to {s.to} (entry {s.entry}, {s.kind.replace('_', ' ')})",
             pm_with_subject(s, fmt, game_title)) for s in secrets]
