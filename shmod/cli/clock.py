"""The clock, read in one place: the core never reads it (steps carry their time).

``SHMOD_NOW`` (a UTC time such as ``2026-11-25T18:00:00Z``) stands in for the clock: the
tests use it to move time on without waiting, and a moderator can use it to see what a
command would say at another time (``SHMOD_NOW=… shmod status``). A step recorded with it
is stamped with that time.
"""
from __future__ import annotations

import os
from datetime import UTC, datetime

from shmod.base.errors import BadInput

VARIABLE = "SHMOD_NOW"


def now() -> datetime:
    """The current time in UTC, or ``SHMOD_NOW``'s."""
    given = os.environ.get(VARIABLE)
    if not given:
        return datetime.now(UTC).replace(microsecond=0)
    try:
        when = datetime.fromisoformat(given.strip().replace("Z", "+00:00"))
    except ValueError:
        raise BadInput(f"{VARIABLE}={given[:40]!r} is not a time like "
                       "2026-11-25T18:00:00Z") from None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)


def stamp() -> str:
    """:func:`now` as an entry's ``at``."""
    return now().strftime("%Y-%m-%dT%H:%M:%SZ")
