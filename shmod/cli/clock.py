"""The clock, read in one place: the game and the forum never read it (steps carry their time).

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
#: The years a clock may read: a step is stamped with four digits of year, and a
#: deadline up to a year ahead (R-DEADLINE) and a time shown in any zone stay within
#: what Python's dates hold. A clock outside them is wrong (a reset one reads 1970).
YEARS = (1970, 9998)


def now() -> datetime:
    """The current time in UTC, or ``SHMOD_NOW``'s; refused outside :data:`YEARS`."""
    given = os.environ.get(VARIABLE)
    if not given:
        return _checked(datetime.now(UTC).replace(microsecond=0), "this computer's clock")
    try:
        when = datetime.fromisoformat(given.strip().replace("Z", "+00:00"))
        when = (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):
        raise BadInput(f"{VARIABLE}={given[:40]!r} is not a time like "
                       "2026-11-25T18:00:00Z") from None
    return _checked(when.replace(microsecond=0), f"{VARIABLE}={given[:40]!r}")


def _checked(when: datetime, what: str) -> datetime:
    first, last = YEARS
    if not first <= when.year <= last:
        raise BadInput(f"{what} reads the year {when.year}: shmod stamps steps with a time "
                       f"from the year {first} to {last}; set the clock right")
    return when


def text(when: datetime) -> str:
    """``when`` (UTC) as an entry's ``at``: ``2026-11-25T18:00:00Z``."""
    return (f"{when.year:04d}-{when.month:02d}-{when.day:02d}T{when.hour:02d}:"
            f"{when.minute:02d}:{when.second:02d}Z")


def stamp() -> str:
    """:func:`now` as an entry's ``at``."""
    return text(now())
