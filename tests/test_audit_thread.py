"""Issue 18 §2: what ``shmod audit --thread`` says is exactly what it checked (R-CHECKPOINT).

A line a player forged, mistyped or copied from another game never fails an honest log; a
line the moderator signed that the log no longer gives always does; two claims for one
post are shown; the report says which entries and which posts the thread pins.
Corrections and acknowledged edits are listed with their reasons and whether players had
seen what they touched. Logs of format 1 (an earlier shmod: ``games/five-players.yaml``)
are checked as they always were, with their salt's tags."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripted import AT

from shmod.audit import log_audit
from shmod.forum import commitment
from shmod.forum.setup import parse_setup
from shmod.forum.steps import Correct
from shmod.game.steps import Nominate, Vote
from shmod.log import checkpoints, logfile, store
from shmod.texts import thread_posts
from shmod.texts.formats import Plain

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def played(tmp_path):
    """A game three posts long (opening, nomination, tally) and the thread that shows them."""
    path = tmp_path / "g.yaml"
    store.new_game(str(path), NAMES, first="Ann", seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=AT)
    store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    for seat in range(5):
        store.record(str(path), lambda g, s=seat: Vote(by=s, vote=s != 4), at=AT)
    loaded = store.load(str(path))
    thread = "\n".join(thread_posts.earlier_post(loaded, n, Plain()).text for n in (1, 2, 3))
    return path, thread


def _line(post: int, entry: int, token: str) -> str:
    return checkpoints.line(post, entry, token)


def _opening(thread: str) -> str:
    """Post 1 alone, as the thread shows it."""
    return thread[:thread.index("\n", thread.index("Log checkpoint: post 1"))]


def test_an_honest_thread_pins_what_it_shows_and_says_what_it_does_not(played):
    path, thread = played
    report = log_audit.audit_file(str(path), thread=thread)
    assert report.valid and [c.ok for c in report.checkpoints or []] == [True] * 3
    assert report.coverage[:2] == [
        "the opening post carries this log's commitment and moderator's key",
        "the thread pins the header and entries 1-8 (its last matching checkpoint)"]
    assert "found in the thread: 1-3; not found: none" in report.coverage[3]
    assert report.coverage[-2].startswith("what the thread proves: ")
    assert report.coverage[-1].startswith("no checkpoint line is quoted elsewhere")
    first_only = thread[:thread.index("Log checkpoint: post 1")] + _first_line(thread)
    report = log_audit.audit_file(str(path), thread=first_only)
    assert report.valid and report.coverage == [
        "the opening post carries this log's commitment and moderator's key",
        "the thread pins the header only",
        "entries 1-9 are after the last matching checkpoint: nothing in the thread vouches for them",
        "the log records 3 post(s); found in the thread: 1; not found: 2-3",
        *report.coverage[-2:]]


def _first_line(thread: str) -> str:
    return next(line for line in thread.splitlines() if line.startswith("Log checkpoint: post 1"))


@pytest.mark.parametrize("forged", [
    _line(3, 0, "0" * 160),  # a player's line for a real post
    _line(3, 0, "ab" * 80),
    _line(9, 0, "12" * 80),  # for a post that does not exist
    _line(2, 0, "f" * 160),
    _line(3, 8, "0" * 48),  # format 1's form
    "Log checkpoint: entry 8 · " + "0" * 32,  # an earlier shmod's form
])
def test_a_forged_line_never_fails_an_honest_log(played, forged):
    path, thread = played
    for text in (thread + "\n" + forged, _opening(thread) + "\n" + forged):
        report = log_audit.audit_file(str(path), thread=text)
        assert report.valid, report.problems
        assert any(w.kind == "thread" for w in report.warnings)


def test_without_the_opening_post_lines_that_all_fail_are_the_logs_doing(played):
    """Without post 1 the lines are checked with the log's own key; if not one of them
    verifies, the likelier story is a log rewritten under another key (a real thread holds
    the moderator's lines), so the audit says so and asks for the thread from post 1."""
    path, _thread = played
    report = log_audit.audit_file(str(path), thread=_line(3, 0, "0" * 160))
    assert not report.valid
    assert any("paste the thread from post 1 to see which" in p.message for p in report.problems)


def test_a_line_from_another_game_is_not_this_games(played, tmp_path):
    path, thread = played
    other = tmp_path / "other.yaml"
    store.new_game(str(other), NAMES, first="Ann", seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65",
                   created=AT)  # same deal, other salt
    foreign = thread_posts.earlier_post(store.load(str(other)), 1, Plain()).text
    report = log_audit.audit_file(str(path), thread=thread + "\n" + foreign)
    assert report.valid  # the other game's post carries its own key: named as such
    assert any("signed under another moderator's key shown in the thread" in w.message
               for w in report.warnings)
    bare = foreign[foreign.index("Log checkpoint"):]  # its line alone: just not this game's
    report = log_audit.audit_file(str(path), thread=thread + "\n" + bare)
    assert report.valid
    assert any("signature does not verify under the moderator's key" in w.message
               for w in report.warnings)


def test_a_genuine_line_the_log_no_longer_gives_fails_it(played):
    path, thread = played
    text = path.read_text().replace("by: Eve, vote: nein", "by: Eve, vote: ja")
    path.write_text(text)
    report = log_audit.audit_file(str(path), thread=thread)
    assert not report.valid
    [problem] = [p for p in report.problems if p.kind == "checkpoint" and p.entry == 8]
    assert problem.message.startswith("post 3: the thread shows the moderator's signed "
                                      "checkpoint ")
    assert "which the log no longer gives at its post 3 (entry 8)" in problem.message


def test_posts_removed_or_renumbered_in_the_log_show(played):
    path, thread = played
    lines = path.read_text().splitlines(keepends=True)
    kept = [line for line in lines if "kind: posted, upto: 2," not in line]  # post 2's mark
    path.write_text("".join(kept))
    report = log_audit.audit_file(str(path), thread=thread)
    assert not report.valid
    messages = " ".join(p.message for p in report.problems if p.kind == "checkpoint")
    assert "the log's post 2 covers entry 8; the log gives that value at entry 2" in messages
    assert "the log records 2 posts" in messages  # and post 3 is gone


def test_two_signed_claims_for_one_post_show_two_versions(played):
    """Only the holder of the private key signs: a second, different signed line for a post
    means the moderator showed two versions of it. It fails the log, even beside a line
    that matches, and the report says both were signed."""
    path, thread = played
    loaded = store.load(str(path))
    setup = loaded.setup
    other = checkpoints.mark(setup, 3, 8, "0" * 32)  # signed, for another log
    report = log_audit.audit_file(str(path), thread=thread + "\n" + _line(3, 8, other))
    assert not report.valid
    assert any("only the key's holder could sign both" in p.message for p in report.problems)
    alone = thread.replace(_line(3, 8, checkpoints.mark(setup, 3, 8, loaded.heads[8])),
                           _line(3, 8, other))
    assert not log_audit.audit_file(str(path), thread=alone).valid


def test_json_reports_each_claim(played, run, tmp_path):
    path, thread = played
    (tmp_path / "t.txt").write_text(thread + "\n" + _line(3, 8, "0" * 48))
    code, out, _ = run("audit", str(path), "--thread", str(tmp_path / "t.txt"), "--json")
    report = json.loads(out)
    assert code == 0 and report["valid"]
    assert [(c["post"], c["entry"], c["genuine"], c["ok"]) for c in report["checkpoints"]] == [
        (1, 0, True, True), (2, 2, True, True), (3, 8, True, True), (3, 8, False, False)]
    assert report["coverage"][1].startswith("the thread pins the header and entries 1-8")


def test_every_correction_and_acknowledgment_is_listed(tmp_path, run):
    """A vote swapped with ``correct`` before the tally used to audit VALID without a word."""
    path = tmp_path / "g.yaml"
    store.new_game(str(path), NAMES, first="Ann", seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=AT)
    store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    swapped = store.record(str(path), lambda g: Vote(by=2, vote=True), at=AT)
    entry = swapped.loaded.table.entries
    store.record(str(path), lambda g: Correct(entries=(entry,), reason="Cy sent Nein"), at=AT)
    store.record(str(path), lambda g: Vote(by=2, vote=False), at=AT)
    code, out, _ = run("audit", str(path))
    assert code == 0
    assert (f"voided entries {entry} (the vote by Cy); players had not seen it; reason: Cy sent "
            "Nein") in out
    text = path.read_text().replace("by: Cy, vote: nein", "by: Cy, vote: no")
    path.write_text(text)
    assert run("acknowledge", str(entry + 2), "-r", "spelled out", "-g", str(path))[0] == 0
    report = log_audit.audit_file(str(path))
    kinds = [(c["kind"], c["reason"]) for c in report.corrections]
    assert kinds == [("correction", "Cy sent Nein"), ("acknowledgment", "spelled out")]
    assert report.to_json()["corrections"][0]["seen"] is False


@pytest.fixture
def format1(tmp_path):
    """The shipped game of format 1 (an earlier shmod: tagged checkpoints) and its thread."""
    path = tmp_path / "five.yaml"
    path.write_bytes((ROOT / "games" / "five-players.yaml").read_bytes())
    loaded = store.load(str(path))
    thread = "\n\n".join(thread_posts.earlier_post(loaded, n, Plain()).text
                         for n in range(1, len(loaded.table.posts) + 1))
    return path, thread


def test_a_format_1_log_audits_against_its_thread_as_before(format1):
    path, thread = format1
    assert store.load(str(path)).setup.format.number == 1
    assert "Log checkpoint: post 3 · entry 4 · " in thread  # format 1 names entries
    report = log_audit.audit_file(str(path), thread=thread)
    assert report.valid, report.problems
    assert all(c.ok for c in report.checkpoints or [])
    assert any("anyone can make a line that passes" in line for line in report.coverage)
    forged = _line(3, 4, "0" * 48)
    assert log_audit.audit_file(str(path), thread=thread + "\n" + forged).valid
    text = path.read_text().replace("by: Eun-ji, vote: nein", "by: Eun-ji, vote: ja", 1)
    path.write_text(text)
    report = log_audit.audit_file(str(path), thread=thread)
    assert not report.valid
    assert any("post 4 (entry 10): the thread shows the genuine checkpoint" in p.message
               for p in report.problems)


def test_a_format_1_log_rewritten_under_a_new_salt_is_caught(format1):
    """Every tag fails: the log was rewritten under another salt, with post 1 or without."""
    path, thread = format1
    log = logfile.read(str(path))
    header = dict(log.header)
    header["secret"] = {**header["secret"], "salt": "77" * 16}
    header.pop("commitment")
    setup = parse_setup(header)
    header["commitment"] = commitment.commitment(setup)
    setup = parse_setup(header)
    entries = [{k: v for k, v in raw.items() if k != "hash"} for raw in log.entries]
    heads, number = [logfile.header_link(header)], 0
    for entry in entries:
        if entry["kind"] == "posted":
            number += 1
            entry["checkpoint"] = checkpoints.mark(setup, number, entry["upto"],
                                                   heads[entry["upto"]])
        heads.append(logfile.link(heads[-1], entry))
        entry["hash"] = heads[-1]
    path.write_text(logfile.header_text(header) + "".join(map(logfile.entry_line, entries)))
    assert log_audit.audit_file(str(path)).valid  # consistent in itself
    report = log_audit.audit_file(str(path), thread=thread)  # no line tagged with the new salt
    assert not report.valid and any("tagged" in p.message for p in report.problems)
    later = thread[thread.index("Log checkpoint: post 1"):]
    report = log_audit.audit_file(str(path), thread=later)
    assert not report.valid
    assert any(p.message.startswith("none of the thread's") and "tagged" in p.message
               for p in report.problems)


def test_legacy_unkeyed_checkpoints_of_an_earlier_shmod_still_verify(format1):
    path, _thread = format1
    loaded = store.load(str(path))
    legacy = "Log checkpoint: entry 8 · " + loaded.heads[8]
    report = log_audit.audit_file(str(path), thread=legacy)
    assert report.valid and report.checkpoints and report.checkpoints[0].ok
    assert any("unkeyed checkpoint of an earlier shmod" in w.message for w in report.warnings)
    assert logfile.read(str(path))  # the log itself is untouched
