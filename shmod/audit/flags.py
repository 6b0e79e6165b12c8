"""What ``shmod stats`` flags beside the figures (docs/stats.md): games abandoned (left
unfinished, not moved for longer than ``abandoned_after``) and closed groups (players whose
every game had exactly the same players). Neither is a verdict: a forum's admin reads
them."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from shmod.base.records import Record


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 date or time as UTC (a date alone: its midnight UTC), or None."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


class Abandoned(Record):
    """A valid game left unfinished: it has not moved for longer than ``abandoned_after``
    (:func:`last_entry`)."""

    path: str
    last: str  # when it last moved (:func:`last_entry`), UTC
    players: tuple[str, ...]  # who held the seats when it stopped
    waiting: str  # what it waits for, in the audit's words

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "last_entry": self.last, "players": list(self.players),
                "waiting": self.waiting}


class Group(Record):
    """Players who play only among themselves (docs/stats.md): every counted game of each
    of ``flagged`` had exactly ``players`` in it."""

    players: tuple[str, ...]  # every player of the group, by name, sorted as the board sorts
    flagged: tuple[str, ...]  # those who never played outside it (at least GROUP_GAMES games)
    games: int  # the fewest counted games any of ``flagged`` played

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "flagged": list(self.flagged),
                "games": self.games}


#: A closed group: the same players, at least this many, in every game of each flagged
#: member ...
GROUP_PLAYERS = 4
#: ... who played at least this many counted games.
GROUP_GAMES = 10
#: A game is abandoned when its last entry is older than this (``abandoned_after`` in the
#: folder's shmod.toml).
ABANDONED_AFTER = timedelta(days=30)


#: Entries that keep no game alive: bookkeeping (a prod, a post marked, a claim, a
#: correction, ...: the forum's moves with no phase) and a deadline, which moves nothing.
IDLE = ("prod", "backup", "correct", "posted", "acknowledge", "moderator", "handover",
        "takeover", "claim", "delivered", "withdrawn", "deadline")


def last_entry(header: dict[str, Any], entries: list[Any], now: datetime | None = None,
               slack: timedelta = timedelta(0)) -> datetime | None:
    """When a log's game last moved: the time of its last entry that is a step of the
    game or a forum entry that changes it (not one of :data:`IDLE`), or of its creation
    without one; a time more than ``slack`` after ``now`` is no evidence and is passed
    over. None when there is no such time."""
    def plausible(when: datetime | None) -> bool:
        return when is not None and (now is None or when <= now + slack)

    times = [when for raw in entries if isinstance(raw, dict) and raw.get("kind") not in IDLE
             and (when := _time(raw.get("at"))) is not None and plausible(when)]
    created = _time(header.get("created"))
    return max(times) if times else created if plausible(created) else None


def _time(value: object) -> datetime | None:
    """A log's time field (text, or a time YAML read as one) in UTC, or None."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return parse_time(value) if isinstance(value, str) else None


__all__ = ["ABANDONED_AFTER", "GROUP_GAMES", "GROUP_PLAYERS", "IDLE", "Abandoned", "Group",
           "last_entry", "parse_time"]
