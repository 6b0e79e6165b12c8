"""Issue 44: dates, times, zone names and decimals as each language writes them (CLDR data
through Babel, shmod/texts/numbers.py), local time first and UTC beside it; English and
the pseudo-language keep shmod's own forms, and never load Babel.

Golden strings in winter (MEZ, CET) and summer (MESZ, CEST), a deadline whose local day is
not UTC's, a zone with no short name in the language, a zone this computer does not know;
a day on the stats (``22.11.2026``, ``22 lis 2026``).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from shmod.texts import catalog, forum_texts, numbers

WINTER, SUMMER, LATE = "2026-11-22T10:00:00Z", "2026-07-05T10:00:00Z", "2026-11-23T23:30:00Z"


@pytest.mark.parametrize("code, until, zone, said", [
    ("de", WINTER, "Europe/Berlin", "So., 22. Nov., 11:00 MEZ (10:00 UTC)"),
    ("de", SUMMER, "Europe/Berlin", "So., 5. Juli, 12:00 MESZ (10:00 UTC)"),
    ("de", LATE, "Europe/Berlin", "Di., 24. Nov., 00:30 MEZ (Mo., 23:30 UTC)"),
    ("de", WINTER, "UTC", "So., 22. Nov., 10:00 UTC"),
    ("de", WINTER, "America/New_York", "So., 22. Nov., 05:00 GMT-05:00 (10:00 UTC)"),
    ("pl", WINTER, "Europe/Warsaw", "niedz., 22 lis, 11:00 CET (10:00 UTC)"),
    ("pl", SUMMER, "Europe/Warsaw", "niedz., 5 lip, 12:00 CEST (10:00 UTC)"),
    ("pl", LATE, "Europe/Warsaw", "wt., 24 lis, 00:30 CET (pon., 23:30 UTC)"),
    ("pl", SUMMER, "UTC", "niedz., 5 lip, 10:00 UTC"),
    ("en", WINTER, "Europe/Berlin", "2026-11-22 10:00 UTC (11:00 CET, Europe/Berlin)"),
    ("en", SUMMER, "Europe/Berlin", "2026-07-05 10:00 UTC (12:00 CEST, Europe/Berlin)"),
    ("en", LATE, "Europe/Berlin", "2026-11-23 23:30 UTC (Tue 24 Nov 00:30 CET, Europe/Berlin)"),
])
def test_a_deadline_as_each_language_writes_it(code, until, zone, said):
    assert forum_texts.when_text(until, zone, catalog.get(code)) == said


def test_a_zone_this_computer_does_not_know_keeps_the_utc_time():
    said = forum_texts.when_text(WINTER, "Mars/Olympus_Mons", catalog.get("de"))
    assert said.startswith("So., 22. Nov., 10:00 UTC (Mars/Olympus_Mons")


@pytest.mark.parametrize("code, said", [("en", "4.8"), ("de", "4,8"), ("pl", "4,8"),
                                        ("qps", "4.8")])
def test_a_decimal_as_each_language_writes_it(code, said):
    assert numbers.decimal(4.75, catalog.get(code)) == said
    assert numbers.decimal(2, catalog.get(code), digits=2) == said[0].replace("4", "2") + \
        said[1] + "00"


def test_english_and_the_pseudo_language_never_load_babel():
    code = ("import sys\nfrom shmod.texts import catalog, forum_texts, numbers\n"
            "for c in ('en', 'qps'):\n"
            "    forum_texts.when_text('2026-11-23T23:30:00Z', 'Europe/Berlin', catalog.get(c))\n"
            "    numbers.decimal(1.5, catalog.get(c))\n"
            "print('babel' in sys.modules)\n"
            "forum_texts.when_text('2026-11-23T23:30:00Z', 'Europe/Berlin', catalog.get('de'))\n"
            "print('babel' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.parametrize("code, said", [("de", "22.11.2026"), ("pl", "22 lis 2026"),
                                        ("en", "2026-11-22")])
def test_a_day_on_the_stats_is_written_as_the_language_writes_it(code, said):
    """The stats' dates (the leaderboard's span, a player's games, the chart's axis):
    CLDR's medium form; English keeps ISO; no date, or a broken one, stays as it is."""
    lang = catalog.get(code)
    assert numbers.day("2026-11-22", lang) == said
    assert numbers.day("", lang) == "" and numbers.day("2026-13-40", lang) == "2026-13-40"
