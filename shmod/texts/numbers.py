"""Decimals, dates, times and time zones as each language writes them (CLDR, via Babel).

English keeps shmod's own forms (``4.8``, ``2026-11-22 10:00 UTC (11:00 CET,
Europe/Berlin)``) and so does the pseudo-language; a language with a catalog gets its
CLDR forms from Babel (``4,8``; ``So., 22. Nov., 11:00 MEZ (10:00 UTC)``): the local time
first, with the zone's name as the language writes it (MEZ, MESZ; CET, CEST), the UTC time
beside it. Babel is imported only here, and only for such a language: an English command
never loads it (tests/test_startup.py).
"""
from __future__ import annotations

from datetime import date, datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from shmod.texts.catalog import ENGLISH, PSEUDO, Language

if TYPE_CHECKING:
    from babel import Locale


def cldr(lang: Language) -> Locale | None:
    """The CLDR locale ``lang`` writes numbers and dates in; None for shmod's own forms
    (English, the pseudo-language, a language CLDR does not know)."""
    return None if lang.code in (ENGLISH, PSEUDO) else _locale(lang.code)


@lru_cache(maxsize=16)
def _locale(code: str) -> Locale | None:
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(code, sep="-")
    except (UnknownLocaleError, ValueError):
        return None


def decimal(value: float, lang: Language, digits: int = 1) -> str:
    """``value`` rounded to ``digits`` decimals, never ``-0.0``, no grouping of thousands:
    ``4.8`` in English, ``4,8`` in German."""
    rounded = round(value, digits) + 0.0
    found = cldr(lang)
    if found is None:
        return f"{rounded:.{digits}f}"
    from babel.numbers import format_decimal

    return format_decimal(rounded, format="0." + "0" * digits if digits else "0", locale=found)


def local_time(moment: datetime, local: datetime, lang: Language) -> str:
    """A deadline as ``lang`` writes it (a language with CLDR data): the local day and time
    with the zone's short name, then the UTC time (``So., 22. Nov., 11:00 MEZ (10:00
    UTC)``; the UTC day too when it is another day); UTC alone when the zone is UTC."""
    from babel.dates import (
        format_datetime,
        format_skeleton,
        format_time,
        get_timezone_gmt,
        get_timezone_name,
    )

    found = cldr(lang)
    assert found is not None, "English writes its own dates"
    join = str(found.datetime_formats["medium"])

    def day_time(at: datetime, zone: str) -> str:
        return join.format(f"{format_time(at, 'HH:mm', locale=found)} {zone}",
                           format_skeleton("MMMEd", at, locale=found))

    if local.utcoffset() == moment.utcoffset() and local.tzname() == "UTC":
        return day_time(moment, "UTC")
    name = get_timezone_name(local, "short", locale=found)
    if name[:1] in "+-":  # no short name in this language: the localized GMT offset
        name = get_timezone_gmt(local, "long", locale=found)
    utc = (f"{format_time(moment, 'HH:mm', locale=found)} UTC" if local.date() == moment.date()
           else join.format(f"{format_time(moment, 'HH:mm', locale=found)} UTC",
                            format_datetime(moment, "EEE", locale=found)))
    return f"{day_time(local, name)} ({utc})"


def day(iso: str, lang: Language) -> str:
    """A day given as ``2026-11-22`` as ``lang`` writes it: the same in English, CLDR's
    medium form in a language with CLDR data (``22.11.2026``, ``22 lis 2026``); "" stays
    "" and anything not a date is returned as it is."""
    found = cldr(lang)
    if found is None or len(iso) != 10:
        return iso
    from babel.dates import format_date

    try:
        return format_date(date.fromisoformat(iso), "medium", locale=found)
    except ValueError:
        return iso
