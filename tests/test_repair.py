"""Torn tails and `shmod repair`: a cut-off last write is reported with its line, moved
aside without touching an earlier byte, and play continues; refused steps change nothing."""
from __future__ import annotations

import os
import random

import pytest
from safety_helpers import run_main

from shmod.audit.random_games import random_game
from shmod.base.errors import LogError
from shmod.game.steps import Nominate, Reshuffle, Step, Vote
from shmod.game.terms import RESHUFFLE
from shmod.log import logfile, repair, store

AT = "2026-01-01T00:00:00Z"


def _steps_to_a_reshuffle():  # type: ignore[no-untyped-def]
    """A random seeded game's header and steps up to (not including) the step that
    makes shmod append a reshuffle, and that step."""
    sim = random_game(5, random.Random(7))
    cut = next(i for i, s in enumerate(sim.steps) if isinstance(s, Reshuffle))
    return sim.header, sim.steps[: cut - 1], sim.steps[cut - 1]


def _next(loaded: store.Loaded) -> Step:
    from shmod.forum.turns import legal_steps

    store._seeded_reshuffles(loaded.table)
    return legal_steps(loaded.table)[0]


@pytest.mark.slow
def test_every_cut_of_a_two_entry_append_is_reported_or_loads_and_repairs(tmp_path,
                                                                         monkeypatch):
    """The write of a step plus its seeded reshuffle, cut at every byte (R-RESHUFFLE).
    Each cut stands for a crash during that write, before this terminal noted it as
    written (shmod.log.seen, kept beside the parse cache, which is off here): the write is
    made whole once, then cut."""
    monkeypatch.setenv("SHMOD_CACHE", "off")
    header, steps, trigger = _steps_to_a_reshuffle()
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(header, steps, at=AT))
    before = path.read_bytes()
    store.record(str(path), lambda g: trigger, at=AT)
    written = path.read_bytes()[len(before):]
    assert written.count(b"\n") == 3  # the step, its reshuffle and its post, in one append
    torn = 0
    for cut in range(1, len(written)):
        cut_file = before + written[:cut]
        path.write_bytes(cut_file)
        try:
            store.load(str(path))
        except logfile.TornTail as err:
            torn += 1
            assert err.line == cut_file.count(b"\n") + 1 and "cut off mid-write" in str(err)
            with pytest.raises(logfile.TornTail):  # nothing is built on a torn tail
                store.record(str(path), _next, at=AT)
            assert path.read_bytes() == cut_file
            done = repair.repair(str(path), at=AT)
            kept = path.read_bytes()
            assert len(kept) >= len(before) and cut_file.startswith(kept)
            with open(done.backup, "rb") as backup:
                assert kept + backup.read() == cut_file
            os.unlink(done.backup)
        store.record(str(path), _next, at=AT)  # builds on what is left, catching up the reshuffle
        loaded = store.load(str(path))
        assert loaded.chain == [] and loaded.table.game.phase != RESHUFFLE
    assert torn >= len(written) - 2 * written.count(b"\n")


def test_repair_with_nothing_torn_changes_nothing(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cy", "Dee", "Eve"], seed="s", created=AT)
    data = path.read_bytes()
    done = repair.repair(str(path), at=AT)
    assert done.backup is None and path.read_bytes() == data


def test_repair_refuses_a_problem_that_is_not_a_torn_tail(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cy", "Dee", "Eve"], seed="s", created=AT)
    with open(path, "a") as handle:
        handle.write("- {kind: vote, by: Ann, vote: ja}\n")
    data = path.read_bytes()
    with pytest.raises(LogError, match=r":30: entry 2: R-VOTE: .*needs fixing by hand"):
        repair.repair(str(path), at=AT)
    assert path.read_bytes() == data
    with open(path, "a") as handle:
        handle.write("- {kind: nomin")
    data = path.read_bytes()
    with pytest.raises(LogError, match=r":30: even without its torn last line the log does "
                       r"not load: entry 2: R-VOTE: .*; nothing was changed"):
        repair.repair(str(path), at=AT)
    assert path.read_bytes() == data and not list(tmp_path.glob("*.torn-*"))


def test_torn_tail_inside_a_utf8_character_is_a_torn_tail(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Zoë", "Bob", "Cy", "Dee", "Eve"], seed="s", first="Zoë", created=AT)
    with open(path, "ab") as handle:
        handle.write('- {kind: nominate, by: "Zoë", chancellor: "Zoë"}'.encode()[:-5])
    with pytest.raises(logfile.TornTail):
        store.load(str(path))
    assert repair.repair(str(path), at=AT).backup


def test_cli_repair_and_refused_step_leave_earlier_bytes_alone(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cy", "Dee", "Eve"], seed="s", first="Ann", created=AT)
    store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    store.record(str(path), lambda g: Vote(by=2, vote=True), at=AT)
    data = path.read_bytes()
    assert run_main(monkeypatch, "vote", "Cy", "nein", "-g", str(path)) == 1
    assert capsys.readouterr().err == ("Error: R-VOTE: Cy has already voted; a vote is "
                                       "final once received (shmod rules R-VOTE)\n")
    assert path.read_bytes() == data
    with open(path, "ab") as handle:
        handle.write(b"- {kind: vote, by: Dee, vo")
    assert run_main(monkeypatch, "vote", "Eve", "ja", "-g", str(path)) == 2
    err, line = capsys.readouterr().err, data.count(b"\n") + 1
    assert err.startswith(f"Error: {path}:{line}: torn final entry: the last line (26 bytes of the "
                          "entry for a vote) was cut off") and err.count("\n") == 1
    assert run_main(monkeypatch, "repair", "-g", str(path)) == 0
    assert f"Moved the torn final entry (line {line}, 26 bytes)" in capsys.readouterr().out
    assert path.read_bytes() == data
