"""Issue 42: who moderates, said where it is needed, and what the names prove.

- The opening post lists the game's moderators, in the game's language.
- ``moderators`` and ``status`` say who may record now ("Mia and Ned"; "Ned, since the
  hand-over at entry N") and a hand-over still to be taken over.
- The recorder's name is a label, so the audit checks a take-over against ``--thread``
  (the hand-over post's signed line there, given by the log), and says "take-over not
  checked: no thread given" without one; a take-over appended by hand with its hash
  recomputed, whose hand-over post the thread never showed, is a warning there. On main
  the audit said "taken over … against post 2's checkpoint" though no line was checked.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from test_moderators import NAMES, Terminal

from shmod.log import logfile


@pytest.mark.parametrize(("language", "line"), [
    ("en", "Moderators of this game: Mia, Ned."),
    ("de", "Spielleitung: Mia, Ned."),
    ("pl", "Moderatorzy tej gry: Mia, Ned."),
])
def test_the_opening_post_lists_the_moderators(tmp_path, language, line):
    opening = Terminal(tmp_path, "Mia").run(
        "new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned",
        "--language", language).stdout
    assert line in opening
    again = Terminal(tmp_path, "Mia").run("post", "--again", "1").stdout
    assert line in again


def test_a_game_with_one_moderator_names_none(tmp_path):
    opening = Terminal(tmp_path).run("new", *NAMES, "--first", "Ann").stdout
    assert "Moderators of this game" not in opening and "Moderator of this" not in opening
    assert "Who may record" not in Terminal(tmp_path).run("status").stdout


def test_moderators_and_status_say_who_may_record_now_and_a_pending_hand_over(tmp_path):
    mia, ned = Terminal(tmp_path, "Mia"), Terminal(tmp_path, "Ned")
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    for shown in (mia.run("moderators").stdout, mia.run("status").stdout):
        assert "Who may record now: Mia and Ned" in shown
    post = mia.run("handover", "Ned").stdout
    line = next(r for r in post.splitlines() if r.startswith("Log checkpoint: post 2 ·"))
    for shown in (mia.run("moderators").stdout, ned.run("status").stdout):
        assert "Who may record now: nobody until Ned takes over" in shown
        assert "Hand-over pending: Mia handed moderation over to Ned at entry 2; Ned takes " \
            "over by pasting the hand-over post's checkpoint line" in shown
    ned.run("handover", "--accept", line)
    for shown in (ned.run("moderators").stdout, mia.run("status").stdout):
        assert "Who may record now: Ned, since the hand-over at entry 2" in shown
        assert "pending" not in shown


def _thread(term: Terminal, upto: int) -> Path:
    thread = term.folder / "thread.txt"
    thread.write_text("\n\n".join(term.run("post", "--again", str(n)).stdout
                                  for n in range(1, upto + 1)))
    return thread


def test_the_audit_checks_a_take_over_against_the_thread_or_says_it_did_not(tmp_path):
    mia, ned = Terminal(tmp_path, "Mia"), Terminal(tmp_path, "Ned")
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    post = mia.run("handover", "Ned").stdout
    line = next(r for r in post.splitlines() if r.startswith("Log checkpoint: post 2 ·"))
    ned.run("handover", "--accept", line)
    audit = ned.run("audit", str(ned.log)).stdout
    assert "taken over at entry 4 naming post 2's checkpoint (take-over not checked: no " \
        "thread given)" in audit
    audit = ned.run("audit", str(ned.log), "--thread", str(_thread(ned, 2))).stdout
    assert ": VALID" in audit
    assert "taken over at entry 4 naming post 2's checkpoint (checked against the thread)" \
        in audit


def test_a_take_over_appended_by_hand_is_not_vouched_for_by_a_thread_without_its_post(
        tmp_path):
    """Mia records the hand-over (post 2) but never posts it; Ned appends a take-over by
    hand, its hash recomputed: every command takes it (the name is a label), and the audit
    against the thread, which shows post 1 only, says nothing checked it."""
    mia, ned = Terminal(tmp_path, "Mia"), Terminal(tmp_path, "Ned")
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    thread = _thread(mia, 1)
    mia.run("handover", "Ned")
    log = logfile.read(str(mia.log))
    entry = {"kind": "takeover", "post": 2, "at": "2026-11-23T10:00:00Z", "mod": "Ned"}
    entry["hash"] = logfile.link(str(log.entries[-1]["hash"]), entry)
    mia.log.write_bytes(log.data + logfile.entry_line(entry).encode())
    ned.run("nominate", "Bob")  # accepted: nothing in the log can tell
    audit = ned.run("audit", str(ned.log), "--thread", str(thread)).stdout
    assert "warning: R-HANDOVER: the take-over at entry 4 names post 2, whose signed " \
        "checkpoint line the thread given does not show" in audit
    assert "(NOT found in the thread as this log gives it)" in audit
