"""Issue 35, what the moderator reads, through the installed ``shmod`` in one game: the
audit's summary names removals, replacements and lapses; ``audit --thread`` says of a
clean log's last entry that it is the last post's own record (no alarm); ``backup``
says which entries it recorded, like every recording command; a correction's notice on
the terminal is plain text, never a forum's Markdown escapes. Each failed on the main of
3655be9."""
from __future__ import annotations

import os
import subprocess

import pytest
from installed import DAY1, DAY2, SHMOD, Moderator

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A Discourse game with a backup, a lapse, a voided discard, a replacement and a
    removal; what each command said."""
    mod = Moderator(tmp_path_factory.mktemp("game"))
    said = {}
    mod.run("new", *PLAYERS, "--first", "Ann", "--forum", "discourse",
            "-V", "late_vote=nein", "--seed", "8e3b1f6a2d7c49e05a1b3c8d6f2e47a9")  # Fay: Hitler
    said["backup"] = mod.run("backup", "Zed").stderr
    mod.run("nominate", "Bob")
    mod.run("deadline", "1h")
    mod.run("vote", "Ann", "ja")
    mod.now = "2026-11-23T12:00:00Z"
    mod.run("lapse")
    mod.run("nominate", "Cat")
    mod.run("vote", *[part for name in PLAYERS for part in (name, "ja")])
    hand = mod.run("pm", "Bob").stdout.rsplit("Subject:", 1)[1]  # the President's draw
    policy = "fascist" if "Fascist" in hand else "liberal"
    mod.run("discard", policy)
    said["correct"] = mod.run("correct", "--reason", "typed the wrong policy").stderr
    mod.now = DAY2
    mod.run("replace", "Dan")
    mod.run("remove", "Eve", "--reason", "left the forum")
    said["mod"] = mod
    return said


def test_backup_says_which_entry_it_recorded(game):
    mod = game["mod"]
    assert f"Recorded as entry 2 of {mod.log}." in game["backup"]


def test_the_correction_notice_on_the_terminal_is_plain_text(game):
    notice = game["correct"].split("Voided (players never saw it")[1]
    assert "Bob (President)" in notice and "\\(" not in notice and "**" not in notice


def test_the_audit_summary_names_removals_replacements_and_lapses(game):
    mod = game["mod"]
    audit = mod.run("audit", str(mod.log)).stdout
    line = next(text for text in audit.splitlines() if text.startswith("Removed:"))
    assert line.startswith("Removed: Eve   Replaced: Dan by Zed   Lapses: 1 (")
    assert "Bob, Cat, Dan, Eve, Fay late" in line


def test_audit_thread_calls_the_last_post_s_own_record_what_it_is(game, tmp_path):
    mod = game["mod"]
    count = len(mod.run("post", "--list").stdout.splitlines())
    thread = tmp_path / "thread.txt"
    thread.write_text("\n\n".join(mod.run("post", "--again", str(n)).stdout
                                  for n in range(1, count + 1)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    done = subprocess.run([str(SHMOD), "audit", str(mod.log), "--thread", str(thread)],
                          env={**env, "SHMOD_NOW": DAY1}, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout
    entries = sum(line.startswith("- {") for line in mod.log.read_text().splitlines())
    assert f"entry {entries} is the last post's own record (posted)" in done.stdout
    assert "not a problem" in done.stdout and "nothing in the thread vouches" not in done.stdout
