"""Issue 40: the moderator's outbox (R-PM, R-MISSENT), through the command line in-process.

Every PM a step causes, every prod and every post is an item, owed until a ``delivered``
entry says it reached its reader: the items in their documented order, how a delivery
names one (never by entry number) and that the name holds nothing secret, a log begun
before the outbox, corrections, lapses and prods that wait for a delivery, two copies
merged, a wrong delivery recorded honestly, and a hand-written delivery that names
nothing refused with its line.
"""
from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from phases import AT, snapshots, twins

from shmod.audit import log_audit
from shmod.base.errors import LogError
from shmod.forum.steps import Posted
from shmod.game.steps import Nominate, Vote
from shmod.log import logfile, merge, outbox, store
from shmod.texts import replay_frames

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SEED = "7d1e4c9a02b3f58e6a0c1d27b94e3f65"  # Ann is the first Presidential Candidate (--first)


@pytest.fixture
def log(tmp_path, run) -> Path:
    path = tmp_path / "g.yaml"
    assert run("new", *NAMES, "--first", "Ann", "--seed", SEED, "-g", str(path))[0] == 0
    return path


def _owed(log: Path) -> list[str]:
    return [outbox.handle(item) for item in outbox.owed(store.load(str(log)))]


def _elect(run, log: Path) -> None:  # type: ignore[no-untyped-def]
    assert run("nominate", "Bob", "-g", str(log))[0] == 0
    assert run("vote", *[w for name in NAMES for w in (name, "ja")], "-g", str(log))[0] == 0


def test_a_step_owes_its_items_in_the_documented_order(run, log):
    """The role PMs before the opening post; the tally before the President's hand."""
    assert _owed(log) == ["0:Ann", "0:Bob", "0:Cy", "0:Dee", "0:Eve", "1:thread"]
    assert run("outbox", "--settle", "-g", str(log))[0] == 0
    _elect(run, log)
    assert _owed(log) == ["9:thread", "15:thread", "14:Ann"]  # post 2, post 3, then the draw
    code, out, err = run("outbox", "-g", str(log))
    assert code == 0 and "14:Ann         PM to Ann — the three policies (President) (entry 14" in out
    assert "3 owed: `shmod send` gives the next (post 2)" in err


def test_a_recording_command_prints_nothing_and_says_what_is_owed(run, log):
    code, out, err = run("nominate", "Bob", "-g", str(log))
    assert code == 0 and out == ""
    assert err.endswith("Outbox: 7 owed · next: PM to Ann · shmod send\n")
    code, out, _ = run("status", "-g", str(log))
    assert out.endswith("Outbox: 7 owed · next: PM to Ann · shmod send\n")


def test_a_delivery_names_its_item_by_what_caused_it(run, log):
    for _ in range(6):
        assert run("send", "-g", str(log))[0] == 0
    _elect(run, log)
    for _ in range(3):
        assert run("send", "-g", str(log))[0] == 0
    delivered = [e for e in logfile.read(str(log)).entries if e["kind"] == "delivered"]
    assert [(e["of"], e["to"], e["what"]) for e in delivered[:6]] == [
        ("header", name, "role") for name in NAMES] + [("post 1", "thread", "post")]
    draw = delivered[-1]
    assert draw["to"] == "Ann" and draw["what"] == "draw"
    assert re.fullmatch(r"[0-9a-f]{16}", draw["of"])  # the last vote's public fields
    assert not any(isinstance(v, int) for e in delivered for v in e.values())  # no number
    assert _owed(log) == [] and log_audit.audit_file(str(log)).valid


def test_twin_games_with_other_secrets_write_the_same_deliveries(tmp_path, run, monkeypatch):
    """A delivery names nothing secret: for twin games (the same public history, other
    roles, deck and discards) every item is named alike, and settling writes the same
    entries but for their hashes."""
    rng = random.Random(40)
    monkeypatch.setenv("SHMOD_NOW", "2026-06-01T00:00:00Z")
    compared = 0
    for key, (header, steps) in sorted(snapshots(30, 18, words=False).items()):
        written = []
        for side, (plain, prefix, upcoming) in enumerate(twins(header, steps, rng)):
            path = tmp_path / f"{key.replace(':', '-')}-{side}.yaml"
            path.write_text(store.log_text(plain, [*prefix, upcoming], at=AT))
            names = [(i.of, i.to, i.what, i.n) for i in outbox.items(store.load(str(path)))]
            assert run("outbox", "--settle", "-g", str(path))[0] == 0
            entries = logfile.read(str(path)).entries
            written.append((names, [{k: v for k, v in e.items() if k != "hash"}
                                    for e in entries if e["kind"] == "delivered"]))
        assert written[0] == written[1], key
        compared += len(written[0][1])
    assert compared > 50


def test_a_log_begun_before_the_outbox_owes_only_what_came_after_its_last_post(tmp_path, run):
    """Every game in progress when the outbox came: an earlier shmod printed everything as
    it recorded it; what was caused after its last post is owed (sent by hand: --settle)."""
    path = tmp_path / "old.yaml"
    made = store.new_game(str(tmp_path / "new.yaml"), NAMES, seed=SEED, first="Ann", created=AT)
    header = made.log.header
    steps = [Nominate(0, 1), Posted(1), *[Vote(s, True) for s in range(5)], Posted(7)]
    path.write_text(store.log_text(header, steps, at=AT))  # no post marked for the outbox
    assert _owed(path) == []  # the President's hand came before the last post: printed
    _discard(run, path)  # then the Chancellor's two, shown by this shmod: owed
    assert _owed(path) == ["9:Bob"]
    assert run("enact", "fascist", "--by", "Bob", "-g", str(path))[0] in (0, 1)
    run("deadline", "48h", "--post", "-g", str(path))  # the first post this shmod makes
    marked = [e for e in logfile.read(str(path)).entries if e["kind"] == "posted"]
    flags = [entry.get("outbox", False) for entry in marked]
    assert flags[:3] == [False, False, True] and not any(flags[3:])  # the first one only
    assert "9:Bob" in _owed(path) and len(_owed(path)) >= 2
    code, _, err = run("outbox", "--settle", "-g", str(path))
    assert code == 0 and "item(s) as delivered (sent by hand)" in err and _owed(path) == []


def _new_item(log: Path, name: str) -> str:
    """The handle of the latest item owed to ``name``."""
    return [h for h in _owed(log) if h.endswith(f":{name}")][-1]


def _discard(run, log: Path) -> None:  # type: ignore[no-untyped-def]
    card = store.load(str(log)).table.game.hand[0]
    assert run("discard", {"L": "liberal", "F": "fascist"}[card], "-g", str(log))[0] == 0


def test_a_voided_step_s_unsent_items_leave_silently(run, log):
    run("outbox", "--settle", "-g", str(log))
    _elect(run, log)
    assert run("send", _new_item(log, "Ann"), "-g", str(log))[0] == 0  # Ann has her three
    _discard(run, log)
    unsent = _new_item(log, "Bob")  # the Chancellor's two, still in the outbox
    assert run("correct", "--reason", "misread", "-g", str(log))[0] == 0
    assert unsent not in _owed(log)  # left silently
    assert not any(s.kind == "retract" for s in store.load(str(log)).table.secrets)
    _discard(run, log)
    sent = _new_item(log, "Bob")
    assert run("send", sent, "-g", str(log))[0] == 0  # this time Bob had them
    assert run("correct", "--reason", "misread again", "-g", str(log))[0] == 0
    retracted = [s for s in store.load(str(log)).table.secrets if s.kind == "retract"]
    assert [(s.to, s.sent) for s in retracted] == [("Bob", int(sent.split(":")[0]))]
    assert _new_item(log, "Bob").split(":")[0] != sent.split(":")[0]  # the retraction, owed


def test_a_lapse_draws_no_choice_from_a_hand_never_sent(tmp_path, run, monkeypatch):
    path = tmp_path / "g.yaml"
    assert run("new", *NAMES, "--first", "Ann", "--seed", SEED, "-V", "late_choice=random",
               "-g", str(path))[0] == 0
    _elect(run, path)
    hand = next(h for h in _owed(path) if h.endswith(":Ann") and not h.startswith("0:"))
    code, _, err = run("deadline", "1h", "-g", str(path))
    assert code == 0 and f"Warning: PM to Ann (the three policies (President), entry " \
                         f"{hand.split(':')[0]}) is still in the outbox" in err
    before = path.read_bytes()
    monkeypatch.setenv("SHMOD_NOW", "2099-01-01T00:00:00Z")
    code, _, err = run("lapse", "-g", str(path))
    assert code == 1 and err.startswith("Error: R-LAPSE: PM to Ann (the three policies "
                                        "(President), entry")
    assert f"shmod send {hand}" in err and "--force" in err and path.read_bytes() == before
    assert run("send", hand, "-g", str(path))[0] == 0
    code, _, err = run("lapse", "-g", str(path))
    assert code == 0, err


def test_a_forced_lapse_draws_all_the_same(tmp_path, run, monkeypatch):
    path = tmp_path / "g.yaml"
    assert run("new", *NAMES, "--first", "Ann", "--seed", SEED, "-V", "late_choice=random",
               "-g", str(path))[0] == 0
    _elect(run, path)
    run("deadline", "1h", "-g", str(path))
    monkeypatch.setenv("SHMOD_NOW", "2099-01-01T00:00:00Z")
    code, _, err = run("lapse", "--force", "-g", str(path))
    assert code == 0, err
    assert logfile.read(str(path)).entries[-2]["kind"] == "lapse"


def test_a_prod_counts_once_delivered_and_is_not_made_twice(run, log):
    run("nominate", "Bob", "-g", str(log))
    code, out, err = run("prods", "-g", str(log))
    assert code == 0 and out == "" and "they wait in the outbox" in err
    assert "prodded" not in run("status", "-g", str(log))[1]
    code, _, err = run("prods", "-g", str(log))
    assert "not made again" in err
    assert sum(e["kind"] == "prod" for e in logfile.read(str(log)).entries) == 5
    prod = next(h for h in _owed(log) if h.endswith(":Ann") and not h.startswith("0:"))
    code, out, err = run("send", prod, "-g", str(log))
    assert code == 0 and "a reminder" in err and "the game is waiting for your vote" in out
    status = run("status", "-g", str(log))[1]
    assert status.count("prodded 1×") == 1  # Ann's, delivered; the others' are owed


def test_an_item_given_again_is_recorded_again(run, log):
    assert run("send", "0:Ann", "-g", str(log))[0] == 0
    code, out, err = run("send", "0:Ann", "-g", str(log))
    assert code == 0 and out.startswith("Your secret role") and "again (delivered before" in err
    code, out, _ = run("outbox", "--all", "-g", str(log))
    assert "0:Ann          PM to Ann — the secret role (entry 0, delivered at " in out
    assert ", 2 times)" in out


def test_news_for_the_thread_is_a_post_not_yet_made_which_send_makes(run, log):
    run("outbox", "--settle", "-g", str(log))
    run("deadline", "48h", "-g", str(log))
    assert _owed(log) == ["thread"]
    assert "post (not yet made) — the news since the last post" not in run(
        "outbox", "-g", str(log))[1]  # said as what it is
    code, out, err = run("send", "-g", str(log))
    assert code == 0 and out.startswith("Deadline for this round:")
    assert "Log checkpoint: post 2 · " in out and "Recorded post 2 as delivered" in err
    assert _owed(log) == []


def test_a_wrong_delivery_is_recorded_audited_and_replayed_once_over(run, tmp_path):
    from shmod.audit.random_games import command_for, random_game

    sim = random_game(5, random.Random(7))
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, sim.steps[:3], at=AT))
    names = store.load(str(path)).table.game.players
    code, out, err = run("send", "--wrong", f"0:{names[0]}", "--to", names[1], "-g", str(path))
    assert code == 0 and out == ""  # nothing to paste
    assert f"R-MISSENT: recorded that PM to {names[0]} (entry 0) reached {names[1]}" in err
    assert f"What {names[1]} learned:\nSubject: " in err and "Your secret role" in err
    assert f"0:{names[0]}" in _owed(path)  # still owed to its own reader
    entry = logfile.read(str(path)).entries[-1]
    assert (entry["kind"], entry["to"], entry["wrong"]) == ("delivered", names[0], names[1])
    report = json.loads(run("audit", str(path), "--json")[1])
    assert report["valid"] and [(m["to"], m["reached"], m["what"]) for m in
                                report["missent"]] == [(names[0], names[1], "role")]
    assert "Given to the wrong reader (R-MISSENT" in run("audit", str(path))[1]
    said = "The moderator sent the PM meant for"
    assert not any(said in line for frame in replay_frames.frames(store.load(str(path)), reveal=False)
                   .frames for line in frame.said)  # the game is not over: not shown
    for step in sim.steps[3:]:
        if step.kind != "reshuffle":
            assert run(*command_for(step, names), "-g", str(path))[0] == 0
    done = replay_frames.frames(store.load(str(path)), reveal=True)
    assert any(f"{said} {names[0]} to {names[1]} by mistake." in line
               for frame in done.frames for line in frame.said)


def test_a_wrong_delivery_names_a_reader_other_than_its_own(run, log):
    code, _, err = run("send", "--wrong", "0:Ann", "--to", "Ann", "-g", str(log))
    assert code == 1 and "R-MISSENT" in err
    code, _, err = run("send", "--wrong", "0:Ann", "-g", str(log))
    assert code == 2 and "--wrong ITEM --to NAME" in err


def test_a_hand_written_delivery_that_names_nothing_is_refused_with_its_line(run, log):
    for tail, said in (
            ('- {kind: delivered, of: "0123456789abcdef", to: Ann, what: role}\n',
             "delivered entry's of names '0123456789abcdef', which is no earlier entry"),
            ("- {kind: delivered, of: header, to: Ann, what: draw}\n",
             "R-PM: entry 0 sent Ann no PM of the kind 'draw'"),
            ("- {kind: delivered, of: post 9, to: thread, what: post}\n", "names 'post 9'"),
            ("- {kind: delivered, of: header, to: Ann, what: role, n: 0}\n", "n must be a count")):
        broken = log.parent / "broken.yaml"
        broken.write_bytes(log.read_bytes() + tail.encode())
        with pytest.raises(LogError, match=re.escape(said)) as found:
            store.load(str(broken))
        assert found.value.line == log.read_bytes().count(b"\n") + 1  # the line after the log


def test_deliveries_commute_when_two_copies_merge_and_twice_is_a_warning(run, log, tmp_path,
                                                                       monkeypatch):
    theirs = tmp_path / "theirs.yaml"
    shutil.copy(log, theirs)
    run("send", "0:Ann", "-g", str(log))
    run("send", "0:Bob", "-g", str(log))
    monkeypatch.setenv("SHMOD_NOW", "2030-01-01T00:00:00Z")  # the other moderator, later
    run("send", "0:Bob", "-g", str(theirs))
    run("send", "0:Cy", "-g", str(theirs))
    merged = merge.merge(logfile.read(str(log)), logfile.read(str(theirs)), where="g.yaml")
    assert merged.how == "merged" and len(merged.moved) == 2
    assert "warning: delivered on both copies (kept twice, R-PM): entry 4" in merged.said()
    joined = tmp_path / "joined.yaml"
    joined.write_bytes(merged.data)
    assert _owed(joined) == ["0:Dee", "0:Eve", "1:thread"]
    assert log_audit.audit_file(str(joined)).valid
