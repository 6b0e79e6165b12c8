"""Secrets on disk: a new log (and a repair's backup) is 0600; a log others can read is
reported with a warning on every command, which still works."""
from __future__ import annotations

import os
import random
import stat
import subprocess
import sys

import pytest
from scripted import AT

from shmod.audit.random_games import random_game
from shmod.log import logfile, repair, store

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def _mode(path) -> int:  # type: ignore[no-untyped-def]
    return stat.S_IMODE(os.stat(path).st_mode)


def test_new_log_is_0600_whatever_the_umask(tmp_path, report_counts):
    old = os.umask(0)
    try:
        made = [tmp_path / f"g{n}.yaml" for n in range(3)]
        for path in made:
            store.new_game(str(path), PLAYERS, seed=path.name, created=AT)
    finally:
        os.umask(old)
    assert [_mode(p) for p in made] == [0o600] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g0.yaml", "g1.yaml", "g2.yaml"]
    report_counts("permissions", "3 new logs created under umask 000: all mode 0600")


def test_cli_new_log_is_0600_and_never_overwritten(tmp_path):
    path = tmp_path / "g.yaml"
    args = [sys.executable, "-m", "shmod", "new", *PLAYERS, "-g", str(path), "--seed", "s", "--guessable"]
    assert subprocess.run(args, capture_output=True).returncode == 0
    before = path.read_bytes()
    again = subprocess.run(args, capture_output=True, text=True)
    assert again.returncode == 2 and "never overwrites" in again.stderr
    assert path.read_bytes() == before and _mode(path) == 0o600


def test_readable_log_warns_but_loads(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", created=AT)
    path.chmod(0o644)
    with pytest.warns(logfile.LogWarning, match="can be read by others .*chmod 600"):
        loaded = store.load(str(path))
    assert loaded.log.warnings
    path.chmod(0o600)
    assert not store.load(str(path)).log.warnings


def test_cli_prints_the_warning_as_one_line(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", created=AT)
    path.chmod(0o640)
    done = subprocess.run([sys.executable, "-m", "shmod", "status", "-g", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stderr == (f"Warning: {path} can be read by others (mode 0640) but holds every "
                           f"secret of the game; make it private with: chmod 600 {path}\n")


def test_repair_backup_is_0600(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", created=AT)
    with open(path, "a") as handle:
        handle.write("- {kind: nomin")
    done = repair.repair(str(path), at=AT)
    assert done.backup and _mode(done.backup) == 0o600


def test_a_finished_games_log_may_be_published_without_a_warning(tmp_path, recwarn):
    path = tmp_path / "g.yaml"
    sim = random_game(5, random.Random(1))
    path.write_text(store.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z"))
    path.chmod(0o644)
    loaded = store.load(str(path))
    assert loaded.table.game.winner and loaded.log.warnings  # noted, but the game is over
    assert not [w for w in recwarn if issubclass(w.category, logfile.LogWarning)]
