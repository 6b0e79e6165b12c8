"""Issue 33 §3: what is hidden stays hidden in every post that holds it, on every board.

``shmod replay --post`` printed every role, hand and investigation result with no spoiler
and no warning, so the game in one post pasted into its thread gave the game away; it now
hides them exactly as ``shmod reveal`` does (the profile's spoiler, or the warning line and
a note on stderr where the engine has none). The generic ``bbcode`` profile assumed a
``[spoiler]`` tag that stock boards lack (they show ``[spoiler=…]`` as text and hide
nothing): it writes the stock tags only, and what is hidden comes after the warning line.
Each post is read back by a parser with exactly its engine's tags
(``test_forum_profiles.py``), through the installed ``shmod``.
"""
from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from claiming import random_claim
from installed import Moderator
from test_forum_profiles import BB_RESIDUE, TITLE, flat, text_nodes, to_html

from shmod.forum import engine
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.turns import legal_steps
from shmod.game.steps import Step
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import claim_texts
from shmod.texts.formats import FORMATS
from shmod.texts.replay_frames import frames
from shmod.texts.replay_post import post_text

ROOT = Path(__file__).resolve().parent.parent
WARNING = f"SPOILER: {TITLE}. Do not read on if you do not want to see it."


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Moderator:  # type: ignore[no-untyped-def]
    """The shipped ten-player game (a seat changed hands, two investigations), over."""
    mod = Moderator(tmp_path_factory.mktemp("spoilers"))
    mod.log.parent.mkdir(parents=True)
    shutil.copy(ROOT / "games" / "forum-10-players.yaml", mod.log)
    mod.log.chmod(0o600)
    return mod


def _secrets(log: Path) -> list[str]:
    """Lines only the hidden part holds: each role, each government's hands, what each
    investigation showed."""
    made = frames(store.load(str(log)), reveal=True)
    hidden = made.frames[-1].hidden
    assert hidden is not None
    hands = [g.hidden_line() for g in hidden.governments if " > " in g.hidden_line()]
    results = [line for f in made.frames if f.hidden for kind, line in f.hidden.lines
               if kind == "results"]
    assert len(hands) >= 8 and len(results) >= 2
    return [f"{name}: {role}" for name, role in made.roles] + hands + results


@pytest.mark.parametrize("profile", list(FORMATS))
def test_the_game_in_one_post_hides_what_the_reveal_hides(finished, profile):
    secret = _secrets(finished.log)
    post = finished.run("replay", str(finished.log), "--post", "-f", profile)
    reveal = finished.run("reveal", "-f", profile)
    fmt = FORMATS[profile]()
    opening = fmt.spoiler(TITLE, "\0").split("\0")[0]  # the reveal's own spoiler (or warning)
    assert reveal.stdout.startswith(opening) and opening in post.stdout
    assert ("NOT hidden" in post.stderr) == ("NOT hidden" in reveal.stderr) \
        == (not fmt.hides_spoilers)
    if profile == "plain":
        shown, hidden = post.stdout.split(WARNING)
    else:
        root = to_html(profile, post.stdout)
        spoilers = root.findall(".//details")
        if fmt.hides_spoilers:
            assert len(spoilers) == 1
            hidden = flat(spoilers[0])
            shown = flat(root).replace(hidden, "")
        else:
            assert not spoilers
            shown, hidden = flat(root).split(WARNING)
    hidden = hidden.replace("\u2060", "").replace("\u2019", "'")  # Discourse's typographer
    for line in secret:
        assert line in hidden and line not in shown, (profile, line)


def test_a_post_of_the_public_record_needs_no_spoiler(finished):
    post = finished.run("replay", str(finished.log), "--post", "--public", "-f", "phpbb")
    assert "SPOILER" not in post.stdout and "NOT hidden" not in post.stderr
    assert not any(line in post.stdout for line in _secrets(finished.log))


def test_bbcode_hides_nothing_it_cannot_so_the_reveal_follows_the_warning(finished):
    """The stock tag set (phpBB's defaults, MyBB's, SMF's…) has no [spoiler]: the reveal
    in ``bbcode`` comes after phpBB's warning line, and nothing is left as literal tags."""
    reveal = finished.run("reveal", "-f", "bbcode")
    assert reveal.stdout.startswith(f"[b]{WARNING}[/b]") and "[spoiler" not in reveal.stdout
    assert "NOT hidden" in reveal.stderr
    root = to_html("bbcode", reveal.stdout)
    assert not any(BB_RESIDUE.search(text) for text in text_nodes(root))
    assert flat(root).startswith(WARNING)


def test_whether_each_claim_was_true_is_in_the_hidden_part_only(tmp_path):
    """A finished game with claims (R-CLAIM): the game in one post shows what was said in
    the open, and whether it was true only where the reveal would say it."""
    header = new_header(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], seed="4" * 32,
                        salt="3" * 32, created="2026-01-01T00:00:00Z")
    state = start(parse_setup(header))
    rng, steps = random.Random(36), []
    while state.game.phase != OVER:
        claim = random_claim(state, rng) if rng.random() < 0.3 else None
        step: Step = claim or rng.choice(legal_steps(state))
        engine.apply(state, step)
        steps.append(step)
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(header, steps, at="2026-01-01T00:00:00Z"))
    game = store.load(str(path))
    made = claim_texts.in_effect(game.table.public)
    truth = claim_texts.truth(game.table)
    assert truth is not None and len(made) >= 5 and False in truth.values()
    for profile, fmt in ((p, FORMATS[p]()) for p in FORMATS):
        text = post_text(frames(game, reveal=True), fmt, title="Friday", commitment=None)
        opening = fmt.spoiler(TITLE, "\0").split("\0")[0]
        shown, hidden = text.split(opening)
        said = shown.replace("true or false once the game is over", "")  # the title's
        assert f"({len(made)} claims: what was said" in shown, profile
        assert not re.search(r"\b(true|false)\b", said), profile
        assert hidden.count("true") + hidden.count("false") >= len(made), profile
