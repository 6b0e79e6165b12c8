"""Issue 35, the progress note ("Votes on President … : 3 of 9 living players have
voted") never counts down, through the installed ``shmod``: posted after 3 of 9 and then
after 2 of 9, it would tell the thread that a correction voided a vote nobody saw
(R-CORRECT). After a correction it is offered again, after a step or by ``post``, only
once the count passes what it last showed; its words are unchanged. On the main of 3655be9
it counted down."""
from __future__ import annotations

import re

from installed import Moderator

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
NOTE = "living players have voted"


def offered(done) -> str | None:  # type: ignore[no-untyped-def]
    """The count the note after a step shows, or None when none is offered. A step offers
    it on stderr (`shmod post` prints it for the thread): no item of the outbox, never on
    a recording command's stdout (issue 40)."""
    assert NOTE not in done.stdout
    if "Votes coming in" not in done.stderr:
        assert NOTE not in done.stderr
        return None
    return re.search(r"(\d+ of \d+) living players have voted", done.stderr).group(1)


def test_the_note_never_counts_down_after_a_correction(tmp_path):
    mod = Moderator(tmp_path)
    mod.run("new", *PLAYERS, "--first", "Ann")
    mod.run("nominate", "Bob")
    assert [offered(mod.run("vote", name, "ja")) for name in ("Ann", "Bob", "Cat")] == \
        ["1 of 9", "2 of 9", "3 of 9"]
    assert offered(mod.run("correct", "--reason", "Cat's PM was for another game")) is None
    said = mod.run("post")
    assert NOTE not in said.stdout and "Still coming in" not in said.stderr
    assert offered(mod.run("vote", "Dan", "nein")) is None  # 3 of 9 again: not above 3
    assert NOTE not in mod.run("post").stdout
    assert offered(mod.run("vote", "Cat", "ja")) == "4 of 9"
    again = mod.run("post")
    assert "4 of 9 living players have voted" in again.stdout  # offered by post too


def test_two_corrections_keep_the_highest_count_shown(tmp_path):
    mod = Moderator(tmp_path)
    mod.run("new", *PLAYERS, "--first", "Ann")
    mod.run("nominate", "Bob")
    mod.run("vote", "Ann", "ja", "Bob", "ja", "Cat", "ja", "Dan", "ja")  # 4 of 9
    assert offered(mod.run("correct", "--reason", "Dan's PM was a joke")) is None  # 3
    assert offered(mod.run("correct", "--reason", "so was Cat's")) is None  # 2
    assert offered(mod.run("vote", "Cat", "ja")) is None  # 3
    assert offered(mod.run("vote", "Dan", "ja")) is None  # 4: not above the 4 shown
    assert offered(mod.run("vote", "Eve", "ja")) == "5 of 9"


def test_a_new_nomination_starts_the_count_afresh(tmp_path):
    """A correction in an earlier election sets no floor for the next one."""
    mod = Moderator(tmp_path)
    mod.run("new", *PLAYERS, "--first", "Ann")
    mod.run("nominate", "Bob")
    mod.run("vote", *[part for name in PLAYERS[:3] for part in (name, "ja")])
    mod.run("correct", "--reason", "mistyped")  # Cat's vote voided: 2
    mod.run("vote", *[part for name in PLAYERS[2:] for part in (name, "nein")])  # failed
    mod.run("nominate", "Cat", "--by", "Bob")
    assert offered(mod.run("vote", "Ann", "ja")) == "1 of 9"


def test_the_words_note_never_counts_down_either(tmp_path):
    mod = Moderator(tmp_path)
    mod.run("new", *PLAYERS[:5], "--deal", "players")
    mod.run("word", "Ann", "apple")
    assert "Words coming in" in mod.run("word", "Bob", "pear").stderr  # 2 of 5
    mod.run("correct", "--force", "--reason", "not Bob's")  # a word is public: said loudly
    assert "Words coming in" not in mod.run("word", "Bob", "plum").stderr  # 2 again
    assert "3 of 5 players have posted one" in mod.run("word", "Cat", "fig").stderr
    assert "3 of 5 players have posted one" in mod.run("post").stdout
