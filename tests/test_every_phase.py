"""Issue 18 §3: no command fails in any phase. Random games are played (fixed seed) until
every phase a game can reach has been seen: the deal from the players' words, each phase
of a round, each power, both vetoes, a reshuffle the moderator must record, a finished
game. In each, every command is run with plausible and hostile arguments, and a
bookkeeping entry of every kind is written by hand: nothing may end in an internal error
or a traceback, a refused command leaves the log unchanged, an accepted one leaves a log
that loads, and ``status`` and ``audit`` (of one log and of the folder) always answer.

``SHMOD_PHASE_GAMES=N`` plays more games for more phase snapshots (CI: 60);
``SHMOD_PHASE_SEED`` changes the seed.
"""
from __future__ import annotations

import os
import random
import warnings
from pathlib import Path
from typing import Any

from phases import AT, snapshots
from safety_helpers import run_main

from shmod.audit import audit
from shmod.forum.table import Table as State
from shmod.log import game

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
        ["pm", "--entry", "0"], ["pm", hostile], ["reveal"], ["history"], ["corrections"],
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


def _run(monkeypatch: Any, capsys: Any, path: Path, args: list[str]) -> None:
    before = path.read_bytes()
    code = run_main(monkeypatch, *args, "-g", str(path))
    out = capsys.readouterr()
    SEEN["runs"] += 1
    assert code != 70 and "Traceback" not in out.err, (args, out.err)
    if code:
        SEEN["refused"] += 1
        assert path.read_bytes() == before, args
        if "Usage:" not in out.err:
            assert out.err.startswith("Error: ") and out.err.count("\n") == 1, (args, out.err)
    else:
        SEEN["accepted"] += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            game.load(str(path))  # an accepted command leaves a log that loads


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
        original.write_text(game.log_text(header, steps, at=AT))
        state = game.load(str(original)).state
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
            report = audit.audit_file(str(path))
            assert not (report.unreadable and "internal error" in str(report.problems)), \
                (key, line, report.problems)
            (folder / f"{number:02d}-{SEEN['hand']}-hand.yaml").write_bytes(path.read_bytes())
    code = run_main(monkeypatch, "audit", str(folder))
    out = capsys.readouterr()
    assert code in (0, 1, 2) and "Traceback" not in out.err and "Games" in out.out


def test_a_batch_audit_goes_on_past_a_log_that_trips_a_bug(tmp_path, monkeypatch, capsys):
    for name in ("a", "b"):
        game.new_game(str(tmp_path / f"{name}.yaml"), ["A1", "B1", "C1", "D1", "E1"], created=AT)
    from shmod.audit import audit as audits

    real = audits.audit_log

    def broken(log, *args):  # type: ignore[no-untyped-def]
        if log.path.endswith("a.yaml"):
            raise KeyError("a bug")
        return real(log, *args)

    monkeypatch.setattr(audits, "audit_log", broken)
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
