"""R-DEAL: a deal nobody can steer. ``shmod new --deal players`` commits to the seed and
the salt; every player posts a word; the last word deals. Through the CLI as a moderator
types it, with every refusal one line and the log unchanged."""
from __future__ import annotations

import re

import pytest
from scripted import AT

from shmod.audit import log_audit
from shmod.forum.dealing import dealt, words_seed
from shmod.forum.steps import Word
from shmod.forum.wordform import latin_word
from shmod.log import store

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
WORDS = {"Ann": "apple", "Bob": "big cat", "Cy": "zebra", "Dee": "42", "Eve": "Ünïcode"}


@pytest.fixture(autouse=True)
def _show(monkeypatch):
    """Each step prints the PMs and the post it made, framed on stdout (SHMOD_SHOW=1)."""
    monkeypatch.setenv("SHMOD_SHOW", "1")


@pytest.fixture
def path(tmp_path, run):
    out = tmp_path / "g.yaml"
    code, text, err = run("new", *NAMES, "--deal", "players", "-g", str(out))
    assert code == 0, err
    assert "Every player: post one word in this thread" in text
    assert "The roles are not dealt yet." in text and "secret role" not in text
    assert "PM to" not in err  # nobody has a role yet
    return out


def refused(run, path, args, code, pattern):
    before = path.read_bytes()
    got, _, err = run(*args, "-g", str(path))
    assert got == code and err.count("\n") == 1 and re.search(pattern, err), err
    assert path.read_bytes() == before


def test_the_last_word_deals_from_the_seed_and_the_words(path, run):
    header = store.load(str(path)).log.header
    assert "roles" not in header["secret"] and "deck" not in header["secret"]
    refused(run, path, ["nominate", "Bob"], 1, r"R-NOMINATE: cannot record a nomination now: "
            r"waiting for a word for the deal from 5 of 5 players")
    for name in NAMES[:-1]:
        code, out, err = run("word", name, WORDS[name], "-g", str(path))
        assert code == 0 and "Words for the deal" in out and "PM to" not in err
    refused(run, path, ["word", "Ann", "pear"], 1, r"R-DEAL: Ann has already posted a word "
            r"\('apple'\); the first word a player posts counts")
    refused(run, path, ["word", "Eve", "x" * 41], 1, r"R-DEAL: a word is at most 40 letters and digits")
    code, out, err = run("word", "Eve", "  Ünïcode ", "-g", str(path))
    assert code == 0
    assert out.count("── PM to ") == 5 and out.count("Your secret role") == 5
    assert ("Every player has posted a word: Ann: apple; Bob: bigcat; Cy: zebra; Dee: 42; "
            "Eve: unicode.") in out
    loaded = store.load(str(path))
    state = loaded.table
    words = [latin_word(WORDS[name]) for name in NAMES]
    assert words[1:] == ["bigcat", "zebra", "42", "unicode"]  # R-DEAL: recorded canonical
    roles, deck, first = dealt(loaded.setup, words_seed(loaded.setup.seed, words))
    assert (state.game.roles, tuple(state.game.draw), state.game.president) == (roles, deck, first)
    assert f"The first Presidential Candidate is {NAMES[first]}." in out
    refused(run, path, ["word", "Ann", "late"], 1, r"R-DEAL: cannot record a word for the deal "
            r"now: waiting for .* to nominate")
    assert run("nominate", NAMES[(first + 1) % 5], "-g", str(path))[0] == 0


def test_other_words_deal_otherwise_and_the_audit_recomputes_it(tmp_path):
    seeds = set()
    for word in ("a", "b", "c", "d"):
        path = str(tmp_path / f"{word}.yaml")
        store.new_game(path, NAMES, seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65", deal_by="players", created=AT)
        for seat, _ in enumerate(NAMES):
            store.record(path, lambda g, s=seat: Word(by=s, word=word), at=AT)  # noqa: B023 - called now
        loaded = store.load(path)
        seeds.add(loaded.table.game.seed)
        report = log_audit.audit_file(path, loaded.setup.commitment)
        assert report.valid and report.commitment_ok and "the audit recomputed the roles, the deck" in report.deal
        assert report.summary is not None
    assert len(seeds) == 4  # the same committed seed, four deals


def test_a_changed_seed_or_word_shows_in_the_audit(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), NAMES, seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65", deal_by="players", created=AT)
    for seat, name in enumerate(NAMES):
        store.record(str(path), lambda g, s=seat, n=name: Word(by=s, word=latin_word(WORDS[n])),
                     at=AT)
    commitment = store.load(str(path)).setup.commitment
    text = path.read_text()
    redealt = tmp_path / "redealt.yaml"
    redealt.write_text(text.replace("7d1e4c9a02b3f58e6a0c1d27b94e3f65", "c2a9f04e7b15d38e96a0f1c4b72d5e08"))  # the moderator swaps the seed
    report = log_audit.audit_file(str(redealt), commitment)
    assert not report.valid and report.commitment_ok is False
    reworded = tmp_path / "reworded.yaml"
    reworded.write_text(text.replace("word: zebra", "word: zebu"))  # or a word
    report = log_audit.audit_file(str(reworded), commitment)
    assert not report.valid and any(p.kind == "chain" for p in report.problems)


def test_before_the_deal_a_seat_changes_hands_and_a_word_can_be_corrected(path, run):
    assert run("word", "Ann", "appel", "-g", str(path))[0] == 0
    # R-CORRECT: the word was posted in the thread for everyone to see: voided only with
    # --force, and the correction is said in the thread
    refused(run, path, ["correct", "--reason", "Ann wrote apple"], 1,
            r"R-CORRECT: entry 2 \(the word by Ann\) is a word its player posted in the "
            r"thread, where everyone saw it; use --force")
    code, out, err = run("correct", "--force", "--reason", "Ann wrote apple", "-g", str(path))
    assert code == 0
    assert "CORRECTION: the moderator voids a step already posted here: the word by Ann." in out
    assert run("word", "Ann", "apple", "-g", str(path))[0] == 0
    code, out, _ = run("replace", "Cy", "Cyril", "-g", str(path))
    assert code == 0 and "Cyril takes seat 3 from Cy before the deal" in out
    for name in ("Bob", "Cyril", "Dee", "Eve"):
        code, out, err = run("word", name, "w", "-g", str(path))
        assert code == 0, err
    assert "── PM to Cyril" in out and "Cyril: w" in out
    state = store.load(str(path)).table
    assert state.words[0] == "apple" and state.game.roles


def test_the_deal_is_in_the_reveal_and_the_opening_post_again(path, run):
    code, out, _ = run("post", "--again", "1", "-g", str(path))
    assert code == 0 and "post one word" in out and "Log checkpoint: post 1 · " in out
    code, out, _ = run("status", "-g", str(path))
    assert "phase: deal" in out and "waiting for every player's word" not in out
