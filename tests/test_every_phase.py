"""Issue 18 §3: no command fails in any phase. Random games are played (fixed seed) until
every phase a game can reach has been seen: the deal from the players' words, each phase
of a round, each power, both vetoes, a reshuffle the moderator must record, a finished
game. In each, every command is run with plausible and hostile arguments, and a
bookkeeping entry of every kind is written by hand: nothing may end in an internal error
or a traceback, a refused command leaves the log unchanged, an accepted one leaves a log
that loads, and ``status`` and ``audit`` (of one log and of the folder) always answer.

Issue 40: the stdout of any command holds at most one item of the outbox (a PM or a post),
never a PM beside a post; ``pm NAME`` prints that one player's PMs only. And for the twin
games of the non-interference tests (the same public history over other roles, another
deck order, other discards and secret veto votes: tests/test_noninterference.py), the
stdout of every recording command in every phase, and of delivering each post of the
outbox, is byte-identical; a checkpoint's value and signature are the one thing masked,
keyed with the game's secret salt and key (R-CHECKPOINT: 128 secret bits, so they tell a
player nothing).

``SHMOD_PHASE_GAMES=N`` plays more games for more phase snapshots (CI: 60);
``SHMOD_PHASE_SEED`` changes the seed.
"""
from __future__ import annotations

import os
import random
import re
import shutil
import warnings
from pathlib import Path
from typing import Any

from phases import AT, snapshots, twins
from safety_helpers import run_main

from shmod.audit import log_audit
from shmod.audit.random_games import command_for
from shmod.forum.table import Table as State
from shmod.log import seen, store

GAMES = int(os.environ.get("SHMOD_PHASE_GAMES", "60"))
SEED = int(os.environ.get("SHMOD_PHASE_SEED", "18"))
HOSTILE = ["", " ", "\x1b[2J", "a\u202eb", "x" * 3000, "\udcff\udcfe", "-1", "0",
           "99999999999999999999", "Ann\u200b", "{kind: vote}", "../../etc/passwd", "--"]
SEEN: dict[str, int] = {"phases": 0, "runs": 0, "accepted": 0, "refused": 0, "hand": 0}
#: The moderator's key pair of every game here: posts are signed (R-CHECKPOINT).


def _commands(state: State, rng: random.Random) -> list[list[str]]:
    """Every command, with arguments a moderator might type now and some no one should."""
    names = list(state.game.players)
    someone = rng.choice(names)
    hostile = rng.choice(HOSTILE)
    out = [
        ["status"], ["prods"], ["post"], ["post", "--preview"], ["post", "--list"],
        ["post", "--again", "1"], ["post", "--again", hostile], ["pm"], ["pm", someone],
        ["pm", "--entry", "0"], ["pm", hostile], ["pm", someone, "--entry", "0"], ["outbox"],
        ["outbox", "--all"], ["send"], ["send", "--preview"], ["send", "thread"],
        ["send", someone], ["send", hostile], ["send", "--wrong", "0:" + someone, "--to", "thread"],
        ["outbox", "--settle"], ["reveal"], ["history"], ["corrections"],
        ["rules"], ["rules", "R-TERM"], ["rules", hostile], ["repair"],
        ["nominate", someone], ["nominate", hostile], ["vote", someone, "ja"],
        ["vote", someone, hostile], ["discard", "liberal"], ["discard", "fascist"],
        ["discard", hostile], ["enact", "fascist"], ["enact", "liberal", "--by", hostile],
        ["veto", "propose"], ["veto", "accept"], ["veto", "refuse"],
        ["veto", "ja", "--by", someone], ["veto", hostile],
        ["investigate", someone], ["special-election", someone], ["execute", someone],
        ["execute", hostile], ["peek"], ["reshuffle", "LLLFFF"], ["reshuffle", hostile],
        ["word", someone, "apple"], ["word", someone, hostile],
        ["deadline", "48h"], ["deadline", "2020-01-01 10:00"], ["deadline", hostile],
        ["deadline", "2h", "--zone", hostile], ["replace", someone, "Newcomer"],
        ["replace", someone, hostile], ["correct", "--reason", "typo"],
        ["correct", "1", "--reason", hostile], ["correct", "--force", "--reason", "x"],
        ["acknowledge", "1", "--reason", "x"], ["acknowledge", hostile, "-r", "x"],
        ["history", "-f", "bbcode"], ["status", "-f", hostile],
        # the forum's clock and absent players (issue 19), the President and the
        # Chancellor removed in every phase among them
        ["prods", "--preview"], ["remind"], ["lapse"], ["deadline", "24h", "--phase"],
        ["deadline", "--clear"], ["remove", names[state.game.president], "--reason", "gone"],
        ["remove", someone, "--reason", "gone"], ["remove", hostile, "-r", "x"],
        ["backup", "Zed"], ["backup"], ["backup", "--drop", hostile],
        ["rename", someone, "Renamed"], ["rename", someone, hostile],
    ]
    if state.game.chancellor is not None:
        out.append(["remove", names[state.game.chancellor], "--reason", "gone"])
    return out


def _texts(path: Path) -> tuple[set[str], dict[str, set[str]]]:
    """The PM texts of the game at ``path`` (each player's), for finding them in an output."""
    from shmod.texts import formats, messages

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = store.load(str(path))
    fmt = formats.chosen(None, loaded.setup.forum, loaded.setup.language)
    whose: dict[str, set[str]] = {}
    for secret in loaded.table.secrets:
        whose.setdefault(secret.to, set()).add(messages.pm_text(secret, fmt))
    return {text for texts in whose.values() for text in texts}, whose


def _one_item(path: Path, args: list[str], stdout: str) -> None:
    """Issue 40: ``stdout`` holds at most one item (a post: one checkpoint line; or one PM's
    text, beyond the earlier PMs a replacement's briefing quotes), never a PM beside a post;
    ``pm NAME`` prints that player's PMs only."""
    if not stdout:
        return
    posts = len(re.findall(r"^Log checkpoint: ", stdout, flags=re.M))
    every, whose = _texts(path)
    found = {text for text in every if text in stdout}
    found = {text for text in found if not any(text != other and text in other for other in found)}
    if args[0] == "pm" and len(args) > 1 and not args[1].startswith("-"):
        name = next((n for n, texts in whose.items() if found <= texts), None)
        assert name is not None and posts == 0, (args, stdout[:300])
        return
    assert posts + len(found) <= 1, (args, posts, [text[:60] for text in found])


def _run(monkeypatch: Any, capsys: Any, path: Path, args: list[str]) -> None:
    before = path.read_bytes()
    code = run_main(monkeypatch, *args, "-g", str(path))
    out = capsys.readouterr()
    SEEN["runs"] += 1
    assert code != 70 and "Traceback" not in out.err, (args, out.err)
    _one_item(path, args, out.out)
    if code:
        SEEN["refused"] += 1
        assert path.read_bytes() == before, args
        if "Usage:" not in out.err:
            assert out.err.startswith("Error: ") and out.err.count("\n") == 1, (args, out.err)
    else:
        SEEN["accepted"] += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            store.load(str(path))  # an accepted command leaves a log that loads


BOOKKEEPING = [
    '- {kind: deadline, until: "2020-01-01T00:00:00Z", zone: UTC}\n',
    '- {kind: deadline, until: "2099-01-01T00:00:00Z", zone: Europe/Berlin}\n',
    "- {kind: replace, target: P1, name: Zed}\n",
    "- {kind: correct, entries: [1], reason: typo}\n",
    "- {kind: posted, upto: 0}\n",
    "- {kind: acknowledge, entries: [1], reason: edited}\n",
]


def test_every_command_in_every_phase_ends_cleanly(tmp_path, monkeypatch, capsys):
    reached = snapshots(GAMES, SEED)
    assert {"deal", "nominate", "vote", "discard", "enact", "veto_answer", "power:investigate",
            "power:peek", "power:execute", "power:special_election", "reshuffle:unseeded",
            "over"} <= set(reached) | {k.split(":veto")[0] for k in reached}
    assert any(k.startswith("veto_vote") for k in reached)
    rng = random.Random(SEED)
    folder = tmp_path / "all"
    folder.mkdir()
    for number, (key, (header, steps)) in enumerate(sorted(reached.items())):
        SEEN["phases"] += 1
        original = folder / f"{number:02d}-{key.replace(':', '-')}.yaml"
        original.write_text(store.log_text(header, steps, at=AT))
        state = store.load(str(original)).table
        for args in _commands(state, rng):
            path = tmp_path / "g.yaml"
            path.write_bytes(original.read_bytes())
            _run(monkeypatch, capsys, path, args)
        for line in BOOKKEEPING:  # written by hand, in this phase
            path = tmp_path / "hand.yaml"
            path.write_bytes(original.read_bytes() + line.encode())
            SEEN["hand"] += 1
            for args in (["status"], ["post", "--preview"], ["prods"]):
                code = run_main(monkeypatch, *args, "-g", str(path))
                out = capsys.readouterr()
                assert code != 70 and "Traceback" not in out.err, (key, line, out.err)
            report = log_audit.audit_file(str(path))
            assert not (report.unreadable and "internal error" in str(report.problems)), \
                (key, line, report.problems)
            (folder / f"{number:02d}-{SEEN['hand']}-hand.yaml").write_bytes(path.read_bytes())
    code = run_main(monkeypatch, "audit", str(folder))
    out = capsys.readouterr()
    assert code in (0, 1, 2) and "Traceback" not in out.err and "Games" in out.out


def test_a_batch_audit_goes_on_past_a_log_that_trips_a_bug(tmp_path, monkeypatch, capsys):
    for name in ("a", "b"):
        store.new_game(str(tmp_path / f"{name}.yaml"), ["A1", "B1", "C1", "D1", "E1"], created=AT)
    from shmod.audit import log_audit

    real = log_audit.audit_log

    def broken(log, *args):  # type: ignore[no-untyped-def]
        if log.path.endswith("a.yaml"):
            raise KeyError("a bug")
        return real(log, *args)

    monkeypatch.setattr(log_audit, "audit_log", broken)
    code = run_main(monkeypatch, "audit", str(tmp_path))
    out = capsys.readouterr()
    assert code == 2 and "Traceback" not in out.err
    assert "internal error" in out.out and "Games" in out.out  # both logs were counted


def test_every_phase_counts(report_counts):
    assert SEEN["phases"] >= 15 and SEEN["runs"] > 500
    report_counts("every phase", f"{SEEN['phases']} phases reached ({GAMES} games, seed "
                  f"{SEED}): {SEEN['runs']} command lines ({SEEN['accepted']} accepted, "
                  f"{SEEN['refused']} refused in one line), {SEEN['hand']} hand-written "
                  "bookkeeping entries read by status, prods, post and audit; 0 internal errors")


def test_a_seed_that_is_not_text_is_one_line(tmp_path, monkeypatch, capsys):
    """``shmod new … --seed $'\\xff\\xfe'`` exited 70 (UnicodeEncodeError)."""
    path = tmp_path / "n.yaml"
    for extra in ([], ["--guessable"]):
        code = run_main(monkeypatch, "new", "A1", "B1", "C1", "D1", "E1", "--seed",
                        "\udcff\udcfe", *extra, "-g", str(path))
        out = capsys.readouterr()
        assert code == 2 and out.err.startswith("Error: ") and out.err.count("\n") == 1
        assert not path.exists()
    assert "byte 0xFF that is not UTF-8 text" in out.err


#: Every recording command a twin test runs in a phase, beside the step the game takes.
def _recording(names: list[str]) -> list[list[str]]:
    return [["deadline", "48h"], ["deadline", "48h", "--post"], ["prods"], ["backup", "Zed"],
            ["claim", names[0], "--role", "liberal"], ["replace", names[1], "Newcomer"],
            ["rename", names[2], "Renamed"], ["remove", names[3], "--reason", "gone"],
            ["correct", "--reason", "typo"], ["lapse"], ["post"], ["status"], ["history"],
            ["outbox"], ["outbox", "--all"]]


CHECKPOINT = re.compile(r"^(Log checkpoint: post \d+) · [0-9a-f]{32} · [0-9a-f]{128}$", re.M)


def _masked(text: str) -> str:
    """``text`` with each checkpoint's value and signature masked (keyed: they tell nothing)."""
    return CHECKPOINT.sub(r"\1 · <value> · <signature>", text)


def test_twin_games_print_the_same_stdout_for_every_recording_command_and_post(
        tmp_path, monkeypatch, capsys):
    """Issue 40, Done when §1: fails on a shmod that prints a step's PMs with its post."""
    rng = random.Random(SEED)
    reached = snapshots(GAMES, SEED, words=False)
    compared = 0
    for key, (header, steps) in sorted(reached.items()):
        pair = twins(header, steps, rng)
        logs = []
        for side, (plain, prefix, _) in zip("ab", pair):
            original = tmp_path / f"{key.replace(':', '-')}-{side}.yaml"
            original.write_text(store.log_text(plain, prefix, at=AT))
            logs.append(original)
        names = list(store.load(str(logs[0])).table.game.players)
        steps_now = [command_for(upcoming, tuple(names)) for _, _, upcoming in pair]
        for args in [None, *_recording(names)]:
            said = []
            for side, original in enumerate(logs):
                path = tmp_path / f"run-{side}.yaml"
                shutil.copy(original, path)
                code = run_main(monkeypatch, *(args or steps_now[side]), "-g", str(path))
                out = capsys.readouterr()
                assert code != 70 and "Traceback" not in out.err, (key, args, out.err)
                said.append(_masked(out.out))
                seen.forget(str(path))
            assert said[0] == said[1], (key, args or steps_now, said)
            compared += 1
        for side, original in enumerate(logs):  # the step taken, then each post delivered
            assert run_main(monkeypatch, *steps_now[side], "-g", str(original)) == 0
            capsys.readouterr()
        for _ in range(20):
            said, errs = [], []
            for original in logs:
                code = run_main(monkeypatch, "send", "thread", "-g", str(original))
                out = capsys.readouterr()
                said.append((code, _masked(out.out)))
                errs.append(out.err)
            assert said[0] == said[1], (key, errs)
            compared += 1
            if said[0][0]:  # no post is owed any more: refused alike on both
                break
            assert "Log checkpoint: post " in said[0][1]
    assert compared > 200
