"""Issue 41, "the thread audit": a fake opening post never frames an honest log (R-COMMIT).

On main f58529d a partial thread of an honest game (posts 5 on: VALID) with another game's
opening post pasted before it, or after a later post's checkpoint line, audited INVALID
("the thread's opening post carries commitment …"): the opening post was taken to be the
first self-signed post-1 line, whatever key signed it. Now only a post-1 line the log can
be tied to (signed under the log's key) is the opening post; another is named in a warning
and fails nothing, and a thread without the log's opening post says the commitment could
not be checked from it. A rewritten log still fails (its thread holds no line of the new
log), as does an opening post signed under the log's key over another commitment.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from scripted import AT

from shmod.audit import log_audit
from shmod.forum.turns import legal_steps
from shmod.log import store
from shmod.texts import thread_posts
from shmod.texts.formats import Plain

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
FAKES = ["Mal", "Lory", "Eve", "Trudy", "Oscar"]
LINE = re.compile(r"^Log checkpoint: post (\d+) · [0-9a-f]{32} · [0-9a-f]{128}$", re.M)


def _posts(path: Path) -> list[str]:
    loaded = store.load(str(path))
    return [thread_posts.earlier_post(loaded, n, Plain()).text
            for n in range(1, len(loaded.table.posts) + 1)]


def _played(path: Path, names: list[str], seed: int, count: int) -> list[str]:
    """A game with at least ``count`` posts (random legal steps), and its posts."""
    store.new_game(str(path), names, first=names[0], seed=f"{seed:032x}", created=AT)
    rng = random.Random(seed)
    while len(store.load(str(path)).table.posts) < count:
        step = rng.choice(legal_steps(store.load(str(path)).table))
        store.record(str(path), lambda g, s=step: s, at=AT)
    return _posts(path)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The honest game (nine posts or more), and a fake game's opening post."""
    folder = tmp_path_factory.mktemp("framing")
    honest = _played(folder / "g.yaml", NAMES, 11, 9)
    fake = _played(folder / "fake.yaml", FAKES, 12, 1)[0]
    other = _played(folder / "other.yaml", NAMES, 13, 1)[0]  # another real game's
    return folder / "g.yaml", honest, fake, other


def _audit(path: Path, thread: str) -> log_audit.Report:
    return log_audit.audit_file(str(path), thread=thread)


def test_the_partial_thread_alone_is_valid_and_says_the_commitment_was_not_checked(games):
    path, honest, _, _ = games
    report = _audit(path, "\n\n".join(honest[4:]))
    assert report.valid, report.problems
    assert any("the commitment could not be checked" in w.message for w in report.warnings)


@pytest.mark.parametrize("where", ["before", "after post 8", "quoted", "real commitment",
                                   "another game's"])
def test_a_fake_opening_post_pasted_into_a_partial_thread_frames_nothing(games, where):
    path, honest, fake, other = games
    ours = store.load(str(path)).setup.commitment
    assert ours is not None
    opening = {"before": fake, "after post 8": fake, "another game's": other,
               "quoted": "[quote]" + fake + "[/quote]",
               "real commitment": re.sub(r"(Setup commitment[^\n]*?)[0-9a-f]{64}",
                                         lambda m: m.group(1) + ours, fake)}[where]
    partial = honest[4:]
    thread = ("\n\n".join([opening, *partial]) if where != "after post 8" else
              "\n\n".join([*partial[:4], opening, *partial[4:]]))
    report = _audit(path, thread)
    assert report.valid, [p.message for p in report.problems]
    assert any("the commitment could not be checked" in w.message for w in report.warnings)
    if where != "real commitment":  # its line verifies over no commitment it shows
        assert any("opening post signed under another key" in w.message
                   for w in report.warnings)


def test_a_fake_opening_post_before_the_whole_honest_thread_frames_nothing(games):
    path, honest, fake, _ = games
    report = _audit(path, "\n\n".join([fake, *honest]))
    assert report.valid, [p.message for p in report.problems]
    assert report.to_json()["opening"]["commitment"] == store.load(str(path)).setup.commitment
    assert any("opening post signed under another key" in w.message for w in report.warnings)


def test_the_honest_thread_still_pins_the_log_and_a_changed_opening_still_fails(games):
    path, honest, _, _ = games
    ours = store.load(str(path)).setup.commitment
    assert ours is not None
    assert _audit(path, "\n\n".join(honest)).valid
    # The log's own key signed an opening post showing another commitment: that is the log's.
    changed = "\n\n".join(honest).replace(ours, "e" * 64, 1)
    report = _audit(path, changed)
    assert not report.valid
    assert any("carries commitment " + "e" * 64 in p.message for p in report.problems)
