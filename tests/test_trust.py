"""Issue 9: a record nobody can quietly change and no command can break. Each repro of
the issue, through the CLI as a moderator types it (in-process ``run`` fixture)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import warnings

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from scripted import AT

from shmod.audit import log_audit
from shmod.forum.steps import Correct, SetDeadline
from shmod.game.steps import Nominate, Vote
from shmod.log import checkpoints, logfile, store

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), NAMES, seed="trust", first="Ann", created=AT)
    store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    return path


def loads_and_audits(path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = store.load(str(path))
    assert not log_audit.audit_log(loaded.log).unreadable


def refused(run, path, *args, code=2, match=""):
    before = path.read_bytes()
    got, _out, err = run(*args, "-g", str(path))
    assert got in (code if isinstance(code, tuple) else (code,)), (got, err)
    assert err.startswith("Error: ") and err.count("\n") == 1, err
    assert re.search(match, err), err
    assert path.read_bytes() == before
    loads_and_audits(path)
    return err


# -- §1: no accepted command leaves a log no command loads --------------------------

@pytest.mark.parametrize("reason", ["x" * 201, "a\x7fb", "a\x9bb", "a\ufffeb", "a\uffffb",
                                    "a\x1b[31mb", "a\u202eb", "a\udcffb"])
def test_a_correction_reason_the_log_cannot_hold_is_refused(run, log, reason):
    run("vote", "Ann", "ja", "-g", str(log))
    refused(run, log, "correct", "-r", reason, match=r"201 characters long \(the limit is 200\)|not allowed|not UTF-8")


def test_a_reason_with_a_line_break_character_is_kept_on_one_line(run, log):
    run("vote", "Ann", "ja", "-g", str(log))
    code, _, err = run("correct", "-r", "a\x85b\u2028c", "-g", str(log))
    assert code == 0, err
    assert store.load(str(log)).table.corrections[-1][2] == "a b c"


@pytest.mark.parametrize("name", ["Mo\x7f", "Mo\uffff", "Mo\x1b[2J", "Mo\x07"])
def test_a_newcomer_name_the_log_cannot_hold_is_refused(run, log, name):
    refused(run, log, "replace", "Cat", name, code=1, match="R-REPLACE")


def test_an_append_over_the_size_limit_is_refused_not_written(run, log):
    left = logfile.MAX_BYTES - 40 - log.stat().st_size
    with open(log, "a") as handle:  # pad with comments to just under the limit
        while left > 0:
            line = "#" + "x" * min(900, left - 2) + "\n"
            handle.write(line)
            left -= len(line)
    loads_and_audits(log)
    refused(run, log, "vote", "Ann", "ja", match="over the 262144-byte limit")


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=220))
def test_any_accepted_free_text_leaves_a_log_that_loads(run, tmp_path, text):
    """The property behind §1, on the three commands that take free text."""
    path = tmp_path / "p.yaml"
    if path.exists():
        path.unlink()
    store.new_game(str(path), NAMES, seed="p", first="Ann", created=AT)
    store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    for args in (["correct", "-r", text], ["replace", "Cat", text],
                 ["deadline", "48h", "--zone", text]):
        code, _, err = run(*args, "-g", str(path))
        assert code in (0, 1, 2), err
        loads_and_audits(path)


# -- §2: every bad input gets one line, within a second --------------------------------

@pytest.mark.parametrize("args", [["deadline", "99999999d"], ["deadline", "9" * 1200 + "h"],
                                  ["deadline", "2020-01-01 10:00"],
                                  ["deadline", "9999-12-31T23:59-14:00"]])
def test_impossible_deadlines_are_refused(run, log, args):
    err = refused(run, log, *args, code=(1, 2), match="R-DEADLINE|out of range")
    assert ("R-DEADLINE" in err) == (run(*args, "-g", str(log))[0] == 1)  # a rule: exit 1


def test_an_invalid_utf8_argument_is_refused(run, log):
    run("vote", "Ann", "ja", "-g", str(log))
    bad = os.fsdecode(b"\xff")  # what Python makes of a byte that is not UTF-8
    refused(run, log, "correct", "-r", bad, match="not UTF-8")


@pytest.mark.parametrize("content", [b"a:\n  " + b"[" * 20000 + b"]" * 20000 + b"\n",
                                     b"deck: \xff\n", b"[1, 2]\n", b"deck: [L\n"])
def test_a_bad_custom_file_is_refused_quickly(run, tmp_path, content):
    custom = tmp_path / "custom.yaml"
    custom.write_bytes(content)
    started = time.monotonic()
    code, _, err = run("new", *NAMES, "--custom", str(custom), "-g", str(tmp_path / "n.yaml"))
    assert code == 2 and err.startswith(f"Error: {custom}") and err.count("\n") == 1, err
    assert time.monotonic() - started < 1.0
    assert not (tmp_path / "n.yaml").exists()


def test_a_fifo_as_custom_file_does_not_hang(run, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, _, err = run("new", *NAMES, "--custom", str(fifo), "-g", str(tmp_path / "n.yaml"))
    assert code == 2 and "not a regular file" in err


# -- §4: nothing from a log reaches a terminal raw -------------------------------------

@pytest.mark.parametrize("name", ["Ann\x1b[2J", "Bell\x07", "Zed\u202e"])
def test_names_with_control_characters_are_refused_by_new(run, tmp_path, name):
    path = tmp_path / "n.yaml"
    code, _, err = run("new", name, *NAMES[1:], "-g", str(path))
    assert (code == 2 and "not allowed" not in err) or "holds a character" in err
    assert not path.exists()


def test_a_hostile_log_prints_no_escape_sequence(run, tmp_path, log):
    """A published log with an escape sequence written as a YAML escape: every command
    refuses it with the character shown as an escape, never raw."""
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(log.read_text().replace("- Bob\n", '- "Bob\\e[2J\\a"\n', 1))
    for args in (["status"], ["post"], ["prods"], ["pm", "Ann"]):
        code, out, err = run(*args, "-g", str(hostile))
        assert code == 2 and "\x1b" not in out + err and "\x07" not in out + err, err
        assert "U+001B" in err
    code, out, err = run("audit", str(hostile))
    assert code == 2 and "\x1b" not in out + err


# -- §5: an edited log is noticed at once, by every command ----------------------------

def _edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.filterwarnings("default::shmod.log.logfile.LogWarning")
def test_an_edited_entry_is_reported_by_every_command_and_blocks_appending(run, log):
    for name in ("Ann", "Bob"):
        run("vote", name, "ja", "-g", str(log))
    _edit(log, "by: Bob, vote: ja", "by: Bob, vote: nein")  # entry 5, line known
    line = next(n for n, text in enumerate(log.read_text().splitlines(), 1)
                if "by: Bob, vote: nein" in text)
    code, _, err = run("status", "-g", str(log))
    assert code == 0 and f"g.yaml:{line}: entry 5 was changed after shmod wrote it" in err
    refused(run, log, "vote", "Cat", "ja", match=rf"g.yaml:{line}: nothing was recorded: "
            r"entry 5 was changed.*shmod acknowledge")
    refused(run, log, "acknowledge", "4", "-r", "x", code=1, match="entry 4 was not changed")
    code, _, err = run("acknowledge", "5", "-r", "Bob PM'd nein; I typed ja", "-g", str(log))
    assert code == 0, err
    code, _, err = run("vote", "Cat", "ja", "-g", str(log))
    assert code == 0 and "changed after" not in err
    report = log_audit.audit_file(str(log))
    assert report.valid and any(w.kind == "edited" and "Bob PM'd nein" in w.message
                                for w in report.warnings)


def test_post_again_refuses_a_post_the_log_no_longer_yields(run, log):
    for name in NAMES:
        code, _, _ = run("vote", name, "ja", "-g", str(log))
    code, tally, _ = run("send", "9:thread", "-g", str(log))  # the tally, from the outbox
    assert code == 0 and "Log checkpoint: post 3 · " in tally  # the tally, recorded as post 3
    code, again, _ = run("post", "--again", "3", "-g", str(log))
    assert again in tally
    _edit(log, "by: Bob, vote: ja", "by: Bob, vote: nein")
    code, out, err = run("post", "--again", "3", "-g", str(log))
    assert code == 2 and out == "" and "post 3 cannot be shown as it was posted" in err


def test_two_racing_post_marks_print_one_post(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), NAMES, seed="race", first="Ann", created=AT)
    env = {**os.environ, "SHMOD_GAME": str(path)}
    for _ in range(3):
        store.record(str(path), lambda g: SetDeadline(until="2099-01-01T00:00:00Z",
                                              zone="UTC"), post=False, at=AT)  # posted later
        procs = [subprocess.Popen([sys.executable, "-m", "shmod", "post", "--mark"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
        results = [p.communicate() for p in procs]
        printed = [out for out, _ in results if "Log checkpoint" in out]
        assert len(printed) == 1, results
        loser = next(err for out, err in results if not out)
        assert loser.startswith(("Error: R-THREAD: nothing new to post",  # lost the lock
                                 "Nothing new since the last post"))  # came after the other


# -- §6: the thread pins the log -------------------------------------------------------

def _thread(run, log) -> str:
    """The thread as the moderator pasted it: posts 1 and 2, then the votes (they print
    nothing), then the tally, post 3, as the outbox gives it (its delivery recorded last)."""
    posts = [run("post", "--again", str(n), "-f", "bbcode", "-g", str(log))[1] for n in (1, 2)]
    for name in NAMES:
        assert run("vote", name, "ja", "-f", "bbcode", "-g", str(log))[1] == ""
    posts.append(run("send", "9:thread", "-f", "bbcode", "-g", str(log))[1])
    return "\n".join(posts)


def test_every_post_ends_with_its_checkpoint_and_the_honest_thread_audits(run, log, tmp_path):
    thread = _thread(run, log)
    found = checkpoints.find(thread)
    assert [(c.post, c.entry) for c in found] == [(1, None), (2, None), (3, None)]  # no entry
    loaded = store.load(str(log))
    assert loaded.table.posts == [0, 2, 8]
    assert found[-1].token == checkpoints.mark(loaded.setup, 3, 8, loaded.heads[8])
    assert loaded.heads[8] not in thread  # the chain head itself is never shown
    (tmp_path / "thread.txt").write_text(thread)
    code, out, _ = run("audit", str(log), "--thread", str(tmp_path / "thread.txt"))
    assert code == 0 and re.search(r"Thread checkpoints: (\d+) of \1 match the log", out)
    assert "found in the thread: 1-3; not found: none" in out


def _rehash(path, change) -> None:
    """What a moderator covering tracks would do: edit, then recompute every hash (or
    strip them)."""
    loaded = logfile.read(str(path))
    text = path.read_text()
    head_text = text[: text.index("\nlog:\n") + 6]
    entries = [dict(e) for e in loaded.entries]
    change(entries)
    head, lines = logfile.header_link(loaded.header), []
    for entry in entries:
        if "hash" in entry:
            entry["hash"] = head = logfile.link(head, entry)
        else:
            head = logfile.link(head, entry)
        lines.append(logfile.entry_line(entry))
    path.write_text(head_text + "".join(lines))


@pytest.mark.parametrize("tamper", ["recompute", "strip", "cut"])
def test_the_thread_catches_an_edit_whatever_was_done_to_the_hashes(run, log, tmp_path, tamper):
    thread = tmp_path / "thread.txt"
    thread.write_text(_thread(run, log))

    def change(entries):
        if tamper == "cut":
            del entries[-3:]
            return
        entries[4]["vote"] = "nein"  # Bob's vote
        for entry in entries[4:] if tamper == "strip" else ():
            entry.pop("hash", None)

    _rehash(log, change)
    assert log_audit.audit_file(str(log)).exit_code in (0, 1)  # alone it may even look valid
    code, out, _ = run("audit", str(log), "--thread", str(thread), "--json")
    import json
    report = json.loads(out)
    assert code == 1 and not report["valid"]
    assert any(not c["ok"] for c in report["checkpoints"])


def test_unchained_entries_after_the_last_checkpoint_are_unverified(log):
    with open(log, "a") as handle:
        handle.write("- {kind: vote, by: Ann, vote: ja}\n")
    report = log_audit.audit_file(str(log), thread="")
    assert [w.kind for w in report.warnings if w.entry == 4] == ["unverified"]


# -- §7: corrections never rewrite what players have seen ------------------------------

def test_a_posted_vote_cannot_be_voided_without_force(run, log):
    for name in NAMES:
        run("vote", name, "ja", "-g", str(log))  # Eve's vote, entry 8, made the tally: post 3
    assert run("send", "8:Ann", "-g", str(log))[0] == 0  # Ann has the three policies
    refused(run, log, "correct", "8", "-r", "typo", code=1,
            match="R-CORRECT: entry 8 .*post 3.*--force")
    code, out, _ = run("correct", "8", "-r", "typo", "--force", "--show", "-g", str(log))
    assert code == 0 and "CORRECTION" in out and "PM to Ann" in out
    assert "Please disregard the three policies I sent you as President" in out
    assert "entry 8" not in out.split("Log checkpoint")[0]  # players never see entry numbers


def test_a_catch_up_post_leaves_out_unposted_voided_steps(run, log):
    for name in ("Ann", "Bob"):
        store.record(str(log), lambda g, n=name: Vote(by=NAMES.index(n), vote=True), at=AT)
    store.record(str(log), lambda g: SetDeadline(until="2099-01-01T00:00:00Z", zone="UTC"),
                 post=False, at=AT)  # not posted yet: the moderator posts later
    store.record(str(log), lambda g: Correct(entries=(6,), reason="wrong phase"),
                 post=False, at=AT)
    code, post, _ = run("post", "-g", str(log))
    assert code == 0 and "Deadline" not in post and "Correction" not in post
    assert "voids" not in post and "Log checkpoint" not in post  # only the votes' progress


# -- §8: smaller --------------------------------------------------------------------------

def test_a_killed_new_leaves_no_temporary_file_behind(run, tmp_path):
    stale = tmp_path / ".shmod-new-999999999-abc.yaml"  # a dead process's: holds roles
    stale.write_text("secret: roles")
    code, _, err = run("new", *NAMES, "-g", str(tmp_path / "n.yaml"))
    assert code == 0, err
    assert not stale.exists() and [p.name for p in tmp_path.iterdir()] == ["n.yaml"]


def test_a_pending_seeded_reshuffle_is_described_truthfully(run, log):
    from shmod.forum.explain import waiting_text
    from shmod.forum.turns import waiting_for
    from shmod.game.terms import RESHUFFLE

    state = store.load(str(log)).table
    state.game.phase = RESHUFFLE
    assert "shmod appends it with the next step it records" in waiting_text(
        waiting_for(state))
    refused(run, log, "reshuffle", "LLLFFF", code=1, match="with the next step it records")
