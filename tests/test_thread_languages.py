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
from test_forum_profiles import PARSERS
from test_replay_page import PHONE, browser  # noqa: F401 (the module's Chromium)

from shmod.audit import log_audit
from shmod.log import store
from shmod.texts import catalog, thread_posts
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


def _played(folder: Path, code: str) -> Path:
    """A game in language ``code`` to a tally, a deadline's short post, a session and a
    claim, through the installed shmod; its log."""
    _shmod(folder, "new", *NAMES, "--language", code, "--seed",
           "3f9a1c7e52b84d06a9e1f3c5b7d2e4a8", "--first", "Ann")
    _shmod(folder, "nominate", "Bob")
    _shmod(folder, "vote", "Ann", "ja", "Bob", "ja", "Cat", "ja", "Dan", "nein", "Eve", "ja")
    _shmod(folder, "deadline", "48h", "--post")
    hand = store.load(str(folder / "games" / "g.yaml")).table.game.hand
    _shmod(folder, "discard", hand[0])
    _shmod(folder, "claim", "Ann", "".join(hand))
    return folder / "games" / "g.yaml"


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed next to this Python")
@pytest.mark.parametrize("code", catalog.codes())
def test_a_thread_in_any_language_and_profile_audits_as_in_english(code, tmp_path):
    log = _played(tmp_path, code)
    made = store.load(str(log))
    count = len(made.table.posts)
    assert count >= 3
    changed = tmp_path / "changed.yaml"
    changed.write_text(log.read_text().replace("vote: nein", "vote: ja", 1))
    for name in FORMATS:
        fmt = profile(name, lang=code)
        thread = "\n\n".join(thread_posts.earlier_post(made, n, fmt).text for n in range(1, count + 1))
        report = log_audit.audit_file(str(log), thread=thread)
        assert report.valid, (name, [p.detail for p in report.problems])
        assert f"found in the thread: 1-{count}; not found: none" in " ".join(report.coverage)
        assert not log_audit.audit_file(str(changed), thread=thread).valid, name
    # and through the installed command, as a player would check it, in the game's profile
    (tmp_path / "thread.txt").write_text("\n\n".join(
        _shmod(tmp_path, "post", "--again", str(n)) for n in range(1, count + 1)))
    said = _shmod(tmp_path, "audit", str(log), "--thread", str(tmp_path / "thread.txt"))
    assert "VALID" in said and "INVALID" not in said


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed next to this Python")
@pytest.mark.parametrize("code", catalog.codes())
def test_a_thread_copied_from_each_engines_page_audits(code, tmp_path, browser):  # noqa: F811
    """Issue 44: what a player copies from the rendered thread, not what shmod printed:
    each engine's page (its parser's HTML, Discourse's typographer turning
    ``Moderator's`` into ``Moderator\u2019s``, escapes gone, a word joiner after an @) opened in
    Chromium, its text as the browser shows it (``innerText``), audits VALID, every post
    found; and INVALID once a vote in the log is changed."""
    log = _played(tmp_path, code)
    made = store.load(str(log))
    count = len(made.table.posts)
    changed = tmp_path / "changed.yaml"
    changed.write_text(log.read_text().replace("vote: nein", "vote: ja", 1))
    engines = [name for name in FORMATS if name != "plain"]
    boxes = "".join(
        f'<div id="{name}">' + "".join(
            f"<div>{PARSERS[name](thread_posts.earlier_post(made, n, profile(name, lang=code)).text)}"
            "</div>" for n in range(1, count + 1)) + "</div>" for name in engines)
    page = tmp_path / "thread.html"
    page.write_text(f'<!doctype html><html><head><meta charset="utf-8"></head><body>{boxes}'
                    "</body></html>")
    opened = browser.new_context(viewport=PHONE)
    try:
        tab = opened.new_page()
        tab.goto(page.resolve().as_uri())
        shown = tab.evaluate("(names) => names.map((n) => document.getElementById(n)"
                             ".innerText)", engines)
    finally:
        opened.close()
    for name, thread in zip(engines, shown):
        if name == "discourse":
            assert "Moderator\u2019s public key" in thread  # the typographer's
        report = log_audit.audit_file(str(log), thread=thread)
        assert report.valid, (name, [p.detail for p in report.problems])
        assert f"found in the thread: 1-{count}; not found: none" in " ".join(report.coverage)
        assert not log_audit.audit_file(str(changed), thread=thread).valid, name
