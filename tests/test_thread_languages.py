"""Issue 33, done when: a thread in any language shmod speaks audits exactly as one in
English, in all seven output profiles (R-COMMIT, R-CHECKPOINT).

For each language (English, every shipped catalog, the pseudo-language) a game is played
through the installed ``shmod`` from an empty folder, in the language, to a tally, a
session, a deadline and a claim; every post is then printed again in each profile
(``post --again N -f PROFILE``, what a moderator pastes) and the thread made of them is
audited: VALID with every post found, and INVALID once a vote in the log is changed.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shmod.audit import audit
from shmod.log import game as games
from shmod.texts import catalog, posts
from shmod.texts.formats import FORMATS, get as profile

SHMOD = Path(sys.executable).parent / "shmod"
NOW = "2026-11-23T10:00:00Z"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def _shmod(folder: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    env.update(SHMOD_GAME=str(folder / "games" / "g.yaml"), SHMOD_NOW=NOW, COLUMNS="100",
               SHMOD_CACHE="off")
    done = subprocess.run([str(SHMOD), *args], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed next to this Python")
@pytest.mark.parametrize("code", catalog.codes())
def test_a_thread_in_any_language_and_profile_audits_as_in_english(code, tmp_path):
    _shmod(tmp_path, "new", *NAMES, "--language", code, "--seed",
           "3f9a1c7e52b84d06a9e1f3c5b7d2e4a8", "--first", "Ann")
    _shmod(tmp_path, "nominate", "Bob")
    _shmod(tmp_path, "vote", "Ann", "ja", "Bob", "ja", "Cat", "ja", "Dan", "nein", "Eve", "ja")
    _shmod(tmp_path, "deadline", "48h", "--post")
    hand = games.load(str(tmp_path / "games" / "g.yaml")).state.game.hand
    _shmod(tmp_path, "discard", hand[0])
    _shmod(tmp_path, "claim", "Ann", "".join(hand))
    log = tmp_path / "games" / "g.yaml"
    made = games.load(str(log))
    count = len(made.state.posts)
    assert count >= 3
    changed = tmp_path / "changed.yaml"
    changed.write_text(log.read_text().replace("vote: nein", "vote: ja", 1))
    for name in FORMATS:
        fmt = profile(name, lang=code)
        thread = "\n\n".join(posts.earlier_post(made, n, fmt).text for n in range(1, count + 1))
        report = audit.audit_file(str(log), thread=thread)
        assert report.valid, (name, [p.detail for p in report.problems])
        assert f"found in the thread: 1-{count}; not found: none" in " ".join(report.coverage)
        assert not audit.audit_file(str(changed), thread=thread).valid, name
    # and through the installed command, as a player would check it, in the game's profile
    (tmp_path / "thread.txt").write_text("\n\n".join(
        _shmod(tmp_path, "post", "--again", str(n)) for n in range(1, count + 1)))
    said = _shmod(tmp_path, "audit", str(log), "--thread", str(tmp_path / "thread.txt"))
    assert "VALID" in said and "INVALID" not in said
