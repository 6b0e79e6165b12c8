"""``shmod post``, ``shmod pm`` and ``shmod reveal`` as a moderator runs them: the text to
paste alone on stdout, hints on stderr, one ``Error:`` line for every mistake."""
from __future__ import annotations

import os
import random
import subprocess
import sys

from shmod.audit.moves import random_game
from shmod.log import game


def run(*args: str, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHMOD_GAME": path}
    return subprocess.run([sys.executable, "-m", "shmod", *args], capture_output=True,
                          text=True, env=env, check=False)


def test_post_mark_again_and_nothing_twice(tmp_path):
    path = str(tmp_path / "g.yaml")
    made = run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--seed", "s1", path=path)
    assert made.returncode == 0
    first = run("post", "-f", "bbcode", path=path)
    assert first.returncode == 0 and first.stdout.startswith("[b][u]Secret Hitler: 5 players")
    assert "Cat" in first.stdout and "--mark" in first.stderr and "--mark" not in first.stdout
    marked = run("post", "--mark", "-f", "bbcode", path=path)
    assert marked.stdout == first.stdout and "Marked as post 1" in marked.stderr
    again = run("post", "-f", "bbcode", path=path)
    assert again.stdout == "" and "Nothing new" in again.stderr
    assert run("nominate", "Bob", path=path).returncode == 0
    assert run("vote", "Ann", "ja", path=path).returncode == 0
    pending = run("post", path=path)
    assert "1 of 5 living players have voted" in pending.stdout and "Ann: Ja" not in pending.stdout
    run("post", "--mark", path=path)
    assert run("vote", "Bob", "nein", path=path).returncode == 0
    progress = run("post", path=path)
    assert progress.stdout.startswith("Votes on President Ann and Chancellor Bob: 2 of 5")
    assert "Nein" not in progress.stdout and "nothing to mark" in progress.stderr
    assert run("post", "--again", "1", "-f", "bbcode", path=path).stdout == first.stdout
    listed = run("post", "--list", path=path)
    assert listed.stdout == "post 1: entries 0 to 0\npost 2: entries 1 to 3\n"


def test_pm_owed_and_per_player(tmp_path):
    path = str(tmp_path / "g.yaml")
    run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--seed", "s1", path=path)
    owed = run("pm", path=path)
    assert owed.stdout.count("Your secret role") == 5 and owed.stderr.count("PM to") == 5
    run("nominate", "Bob", path=path)
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
        run("vote", name, "ja", path=path)
    draw = run("pm", path=path)
    assert draw.stderr.startswith("── PM to Ann") and "You are President" in draw.stdout
    ann = run("pm", "ann", path=path)
    assert "Your secret role" in ann.stdout and "You are President" in ann.stdout
    assert "Your secret role" in run("pm", "--entry", "0", path=path).stdout


def test_errors_are_one_line(tmp_path):
    path = str(tmp_path / "g.yaml")
    run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--seed", "s1", path=path)
    before = open(path, "rb").read()
    for args in (("reveal",), ("post", "--again", "3"), ("pm", "Zed"), ("pm", "--entry", "9"),
                 ("post", "-f", "html")):
        result = run(*args, path=path)
        assert result.returncode != 0 and result.stdout == ""
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, args
    assert open(path, "rb").read() == before


def test_reveal_after_the_game(tmp_path):
    sim = random_game(7, random.Random(357))
    path = str(tmp_path / "g.yaml")
    with open(path, "w") as out:
        out.write(game.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z"))
    result = run("reveal", "-f", "markdown", path=path)
    assert result.returncode == 0 and result.stdout.startswith("<details>")
    assert "Player1**: " in result.stdout and "Starting deck" in result.stdout
    marked = run("post", "--mark", path=path)  # a post after the game is over
    assert "Game over" in marked.stdout and "Marked as post 1" in marked.stderr
