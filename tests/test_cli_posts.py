"""``shmod post``, ``shmod pm`` and ``shmod reveal`` as a moderator runs them: the text to
paste alone on stdout, hints on stderr, one ``Error:`` line for every mistake."""
from __future__ import annotations

import os
import random
import subprocess
import sys

from shmod.audit.random_games import random_game
from shmod.log import store


def run(*args: str, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHMOD_GAME": path}
    return subprocess.run([sys.executable, "-m", "shmod", *args], capture_output=True,
                          text=True, env=env, check=False)


def test_every_post_is_recorded_once_and_prints_again_exactly(tmp_path):
    path = str(tmp_path / "g.yaml")
    made = run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--seed", "s1", "--guessable",
               "-f", "bbcode", path=path)
    assert made.returncode == 0 and made.stdout == ""  # the opening post waits in the outbox
    sent = run("send", "thread", "-f", "bbcode", path=path)
    assert sent.stdout.count("[b][u]Secret Hitler: 5 players") == 1
    assert "Log checkpoint: post 1 · " in sent.stdout  # the opening post, recorded
    assert "post 1 for the thread" in sent.stderr and "Recorded post 1 as delivered" in sent.stderr
    again = run("post", "-f", "bbcode", path=path)
    assert again.stdout == "" and "Nothing new" in again.stderr
    first = run("post", "--again", "1", "-f", "bbcode", path=path)
    assert first.stdout.startswith("[b][u]Secret Hitler: 5 players")
    assert first.stdout == sent.stdout  # exactly what the outbox gave to paste
    nominated = run("nominate", "Bob", path=path)
    assert nominated.stdout == "" and "with post 2 (entry 4)" in nominated.stderr
    assert run("vote", "Ann", "ja", path=path).returncode == 0
    pending = run("post", path=path)
    assert "1 of 5 living players have voted" in pending.stdout and "Ann: Ja" not in pending.stdout
    assert "not a numbered post" in pending.stderr and "checkpoint" not in pending.stdout
    preview = run("post", "--preview", path=path)
    assert preview.stdout == pending.stdout  # nothing new to preview: the progress note
    listed = run("post", "--list", path=path)
    assert listed.stdout == "post 1: entries 0 to 0\npost 2: entries 1 to 3\n"
    second = run("send", "thread", path=path)
    assert second.stdout == run("post", "--again", "2", path=path).stdout
    assert "Log checkpoint: post 2 · " in second.stdout


def test_pm_owed_and_per_player(tmp_path):
    path = str(tmp_path / "g.yaml")
    run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--seed", "s1", "--guessable", path=path)
    owed = run("pm", path=path)  # listed for the moderator: no PM's text anywhere
    assert owed.stdout == "" and owed.stderr.count("PM to") == 5
    assert "Your secret role" not in owed.stderr
    shown = run("pm", "--show", path=path)  # the all-in-one view: each framed on stdout
    assert shown.stdout.count("Your secret role") == 5 and shown.stdout.count("── PM to") == 5
    run("nominate", "Bob", path=path)
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
        run("vote", name, "ja", path=path)
    draw = run("pm", path=path)
    assert "PM to Ann — the three policies (President)" in draw.stderr and draw.stdout == ""
    ann = run("pm", "ann", path=path)
    assert "Your secret role" in ann.stdout and "You are President" in ann.stdout
    assert ann.stdout.startswith("Subject: ") and "── PM to Ann (entry 0, role) ─" in ann.stderr
    assert run("pm", "--entry", "0", "--show", path=path).stdout.count("Your secret role") == 5
    alone = run("pm", "ann", "--entry", "0", path=path)
    assert alone.stdout.startswith("Your secret role") and "your secret role" in alone.stderr


def test_errors_are_one_line(tmp_path):
    path = str(tmp_path / "g.yaml")
    run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--seed", "s1", "--guessable", path=path)
    before = open(path, "rb").read()
    for args in (("reveal",), ("post", "--again", "3"), ("pm", "Zed"), ("pm", "--entry", "9"),
                 ("post", "-f", "html")):
        result = run(*args, path=path)
        assert result.returncode != 0 and result.stdout == ""
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, args
    assert open(path, "rb").read() == before


def test_reveal_after_the_game(tmp_path):
    sim = random_game(7, random.Random(4))
    path = str(tmp_path / "g.yaml")
    with open(path, "w") as out:
        out.write(store.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z"))
    result = run("reveal", "-f", "markdown", path=path)
    assert result.returncode == 0 and result.stdout.startswith("<details>")
    assert "Player1**: " in result.stdout and "Starting deck" in result.stdout
    preview = run("post", "--preview", path=path)  # what a catch-up post would say
    assert preview.stdout.startswith("[Preview, not a post")
    assert "Log checkpoint" not in preview.stdout and not run("post", "--list", path=path).stdout
    marked = run("post", path=path)  # a post after the game is over
    assert "Game over" in marked.stdout and "Post 1 (entries 0 to " in marked.stderr
    assert "recorded as posted" in marked.stderr
