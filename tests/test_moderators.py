"""Issue 37: the game's moderators (R-MODERATORS) and a hand-over between them
(R-HANDOVER), through the installed ``shmod`` in a folder of its own.

A game with one moderator writes no ``mod`` and asks for nothing; once two are listed,
every entry names who recorded it, and a step naming nobody or a stranger is refused in
one line with the log unchanged. Adding and dropping a moderator is an entry and a post;
the hand-over's post ends with its checkpoint, and only that line, signed and given by
the incoming moderator's copy, lets them take over. A ``mod`` edited in by hand is found
by every command and by the audit; the audit lists who recorded what.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from installed import SHMOD

from shmod.log import logfile

DAY1 = "2026-11-23T10:00:00Z"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


class Terminal:
    """The installed shmod in ``folder``, as one moderator's terminal (``SHMOD_MODERATOR``
    when ``who`` is given), each step printing the posts it made on stdout
    (``SHMOD_SHOW=1``: the all-in-one view, the outbox left as it is)."""

    def __init__(self, folder: Path, who: str | None = None, log: Path | None = None,
                 now: str = DAY1) -> None:
        self.folder, self.who, self.now = folder, who, now
        self.log = log or folder / "games" / "friday.yaml"

    def run(self, *args: str, code: int = 0,
            one_line: bool = True) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
        env.update(SHMOD_GAME=str(self.log), SHMOD_NOW=self.now, COLUMNS="100",
                   SHMOD_CACHE=str(self.folder / f"cache-{self.who}"), SHMOD_SHOW="1")
        if self.who:
            env["SHMOD_MODERATOR"] = self.who
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=env, text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        if code and one_line:
            assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
        return done

    def refused(self, *args: str, rule: str) -> str:
        before = self.log.read_bytes()
        said = self.run(*args, code=1).stderr
        assert rule in said and self.log.read_bytes() == before, said
        return said

    def entries(self) -> list[dict[str, object]]:
        return logfile.read(str(self.log)).entries


def test_a_game_with_one_moderator_writes_no_moderator_and_asks_for_none(tmp_path):
    solo = Terminal(tmp_path, "Mia")  # SHMOD_MODERATOR set for other games: ignored here
    solo.run("new", *NAMES, "--first", "Ann")
    solo.run("nominate", "Bob", "--as", "Zed")
    text = solo.log.read_text()
    assert "\nmoderators:" not in text and ", mod: " not in text
    assert "Recorded by" not in solo.run("audit", str(solo.log)).stdout


def test_with_two_moderators_each_entry_names_who_recorded_it(tmp_path):
    anyone = Terminal(tmp_path)
    said = anyone.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator",
                      "Ned", code=1).stderr
    assert "R-MODERATORS" in said and not anyone.log.exists()
    mia = Terminal(tmp_path, "Mia")
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    assert "moderators: [Mia, Ned]" in mia.log.read_text()
    anyone.refused("nominate", "Bob", rule="R-MODERATORS: this game has 2 moderators")
    anyone.refused("nominate", "Bob", "--as", "Zed", rule="'Zed' is not a moderator")
    anyone.run("nominate", "Bob", "--as", "ned")  # any case, anywhere on the line
    anyone.run("--as", "Mia", "vote", "Ann", "ja")
    mia.run("vote", "Bob", "ja")
    assert [e.get("mod") for e in anyone.entries()] == ["Mia", "Ned", "Ned", "Mia", "Mia"]
    audit = mia.run("audit", str(mia.log)).stdout
    assert "Recorded by: Mia: entries 1, 4-5; Ned: entries 2-3" in audit


def test_moderators_are_added_and_dropped_by_entries_said_in_the_thread(tmp_path):
    mia = Terminal(tmp_path, "Mia")
    mia.run("new", *NAMES, "--first", "Ann")  # one moderator, unnamed
    post = mia.run("moderators", "Ned").stdout  # Mia lists herself first
    assert "Mia is now a moderator of this game (moderators: Mia)." in post
    assert "Ned is now a moderator of this game (moderators: Mia, Ned)." in post
    assert "Moderators: Mia, Ned" in mia.run("moderators").stdout
    mia.refused("moderators", "Ned", rule="Ned is a moderator of this game already")
    mia.refused("moderators", "Bob", rule="is (or looks like) the player 'Bob'")
    mia.refused("moderators", "Ned", "--as", "Zed", rule="'Zed' is not a moderator")
    post = mia.run("moderators", "--drop", "Mia").stdout
    assert "Mia no longer moderates this game (moderators: Ned)." in post
    ned = Terminal(tmp_path, "Ned")
    ned.refused("moderators", "--drop", "Ned", rule="a game keeps at least one moderator")
    mia.refused("nominate", "Bob", rule="'Mia' is not a moderator")
    Terminal(tmp_path).run("nominate", "Bob")  # one listed: named without asking
    assert ned.entries()[-2].get("mod") == "Ned"


def _handed_over(tmp_path: Path) -> tuple[Terminal, Terminal, str, str]:
    """Mia hands over to Ned: both terminals, the hand-over post's checkpoint line and an
    earlier post's."""
    mia, ned = Terminal(tmp_path, "Mia"), Terminal(tmp_path, "Ned")
    opening = mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator",
                      "Ned").stdout
    earlier = next(r for r in opening.splitlines() if r.startswith("Log checkpoint"))
    post = mia.run("handover", "Ned").stdout
    assert "Moderation passes from Mia to Ned, from this post on." in post
    line = next(r for r in post.splitlines() if r.startswith("Log checkpoint: post 2 ·"))
    return mia, ned, line, earlier


def test_a_hand_over_is_taken_over_with_its_posts_line_and_only_that(tmp_path):
    mia, ned, line, earlier = _handed_over(tmp_path)
    ned.refused("nominate", "Bob", rule="Ned has not yet checked their copy")
    mia.refused("nominate", "Bob", rule="moderation passed to Ned at entry 2")
    ned.refused("handover", "--accept", earlier, rule="that line is post 1's")
    forged = line[:-3] + ("000" if not line.endswith("000") else "111")
    ned.refused("handover", "--accept", forged, rule="signature does not verify")
    ned.refused("handover", "--accept", "Log checkpoint: post 9 · " + line.split(" · ", 1)[1],
                rule="your copy of the log has posts up to post 2, not post 9")
    mia.refused("handover", "--accept", line, rule="only Ned records now")
    said = ned.run("handover", "--accept", f"> quoted in the thread: {line}").stderr
    assert "Ned moderates now" in said
    assert ned.entries()[-1] == {**ned.entries()[-1], "kind": "takeover", "post": 2,
                                 "mod": "Ned"}
    ned.run("nominate", "Bob")
    mia.refused("vote", "Ann", "ja", rule="only Ned records now (Mia may take it back")
    ned.refused("moderators", "--drop", "Ned", rule="hand it over to another moderator")
    audit = ned.run("audit", str(ned.log)).stdout
    assert "Hand-over (entry 2): Mia to Ned, taken over at entry 4 naming post 2's checkpoint (take-over not checked: no thread given)" in audit


def test_a_copy_that_does_not_give_the_hand_over_posts_checkpoint_cannot_take_over(tmp_path):
    """Mia recorded the hand-over twice, on two copies, an hour apart: the thread shows
    one post 2, and Ned's copy, holding the other, cannot take over with its line."""
    mia = Terminal(tmp_path, "Mia")
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    fork = tmp_path / "games" / "fork.yaml"
    fork.write_bytes(mia.log.read_bytes())
    fork.chmod(0o600)
    post = mia.run("handover", "Ned").stdout
    line = next(r for r in post.splitlines() if r.startswith("Log checkpoint: post 2 ·"))
    Terminal(tmp_path, "Mia", fork, now="2026-11-23T11:00:00Z").run("handover", "Ned")
    Terminal(tmp_path, "Ned", fork).refused("handover", "--accept", line,
                                            rule="does not give post 2's checkpoint")
    Terminal(tmp_path, "Ned").run("handover", "--accept", line)


def test_moderation_is_taken_back_by_any_listed_moderator(tmp_path):
    mia, ned, _, _ = _handed_over(tmp_path)
    mia.refused("handover", "Ned", rule="moderation is with Ned already")
    post = mia.run("handover", "Mia").stdout  # Ned went silent: Mia takes it back
    assert "Mia takes moderation back from Ned, from this post on." in post
    mia.run("nominate", "Bob")  # her copy made the post: nothing to check
    ned.refused("vote", "Ann", "ja", rule="only Mia records now")
    mia.refused("handover", "Mia", rule="moderation is with Mia already")


def test_a_hand_over_to_oneself_or_a_stranger_is_refused(tmp_path):
    mia = Terminal(tmp_path, "Mia")
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    mia.refused("handover", "Mia", rule="cannot hand moderation over to themselves")
    mia.refused("handover", "Zed", rule="'Zed' is not a moderator of this game")
    mia.refused("handover", "--accept", "Log checkpoint: post 1",
                rule="paste the hand-over post's checkpoint line")


def test_an_entry_naming_a_stranger_is_found_by_every_command_and_the_audit(tmp_path):
    mia = Terminal(tmp_path, "Mia")
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    mia.log.write_text(mia.log.read_text() + "- {kind: nominate, by: Ann, chancellor: Bob, "
                       "at: \"2026-11-23T10:00:00Z\", mod: Zed}\n")
    said = mia.run("status", code=2).stderr
    assert "R-MODERATORS: recorded by Zed, who is not a moderator" in said
    audit = mia.run("audit", str(mia.log), code=1, one_line=False).stdout
    assert "R-MODERATORS" in audit and "INVALID" in audit


@pytest.mark.parametrize("names", [["Mia", "mia"], ["Mia", "Mía\u200b"], ["Ann"]])
def test_moderators_are_told_apart_from_each_other_and_from_the_players(tmp_path, names):
    args = [w for name in names for w in ("--moderator", name)]
    said = Terminal(tmp_path, "Mia").run("new", *NAMES, *args, code=1).stderr
    assert "R-MODERATORS" in said


def test_the_outgoing_moderator_delivers_the_hand_over_post_and_nothing_else(tmp_path):
    """Issue 42: the hand-over post waits in the outbox; the moderator who handed over
    sends it (the incoming one needs its line from the thread), and nothing else."""
    mia, ned, line, _ = _handed_over(tmp_path)
    owed = mia.run("outbox").stdout
    assert "post 2 —" in owed and "PM to Ann — the secret role" in owed
    mia.refused("send", "0:Ann", rule="only Ned records now")
    mia.refused("send", "thread", rule="only Ned records now")  # the oldest post: post 1
    handle = next(row.split()[0] for row in owed.splitlines() if "post 2 —" in row)
    sent = mia.run("send", handle)
    assert sent.stderr.startswith("post 2 for the thread") and line in sent.stdout
    assert mia.entries()[-1]["kind"] == "delivered" and mia.entries()[-1]["mod"] == "Mia"
    ned.run("handover", "--accept", line)
    ned.run("send", "0:Ann")
