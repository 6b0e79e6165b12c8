"""Issue 35, the clock for users: ``SHMOD_NOW`` is documented where a moderator reads
(docs/commands.md, docs/forum.md, the ``--help`` of every command that measures time by it)
with its exact format, and every form the docs give reads as the same moment through the installed
``shmod``. On the main of 3655be9 it was named only in developers' docs."""
from __future__ import annotations

from pathlib import Path

import pytest
from installed import Moderator

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "SHMOD_NOW=2026-11-25T18:00:00Z"


@pytest.mark.parametrize("command", ["deadline", "lapse", "remind", "prods", "status"])
def test_the_help_of_each_command_that_reads_the_clock_gives_it(tmp_path, command):
    shown = " ".join(Moderator(tmp_path).run(command, "--help").stdout.split())
    assert EXAMPLE in shown and "tests and demonstrations" in shown
    assert "in UTC" in shown and "+01:00" in shown


@pytest.mark.parametrize("doc", ["docs/commands.md", "docs/forum.md"])
def test_the_users_docs_give_it_and_its_format(doc):
    text = " ".join((ROOT / doc).read_text().split())
    assert "SHMOD_NOW=2026-11-25T" in text and "ISO 8601" in text
    assert "tests and demonstrations" in text and "1970" in text


@pytest.mark.parametrize("now", ["2026-11-25T17:00:00Z", "2026-11-25T18:00:00+01:00",
                                 "2026-11-25T17:00", "2026-11-25 17:00:00.75"])
def test_every_documented_form_is_the_same_moment(tmp_path, now):
    """A deadline at 18:00 UTC, read at 17:00 UTC written four ways: 1 h left."""
    mod = Moderator(tmp_path, now="2026-11-25T10:00:00Z")
    mod.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--first", "Ann", "-V", "late_vote=nein")
    mod.run("nominate", "Bob")
    mod.run("deadline", "2026-11-25T18:00:00Z")
    mod.now = now
    assert "1 h left" in mod.run("status").stdout
    mod.refused("lapse", rule="R-LAPSE")  # not passed yet
    mod.now = "2026-11-25T18:00:01Z"
    lapsed = mod.run("lapse")
    assert lapsed.stdout == "" and "with post 3 (entry" in lapsed.stderr  # it waits in the outbox
    assert "counted as Nein" in mod.run("post", "--again", "3").stdout


def test_a_date_alone_is_its_midnight_utc(tmp_path):
    mod = Moderator(tmp_path, now="2026-11-25")
    mod.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--first", "Ann")
    assert 'created: "2026-11-25T00:00:00Z"' in mod.log.read_text()
