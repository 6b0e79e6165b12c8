"""Crash safety: shmod is killed (SIGKILL) at random moments while appending; every log
still loads or reports its torn tail or its step cut off, `shmod repair` recovers it (a step
of several entries moved aside whole), and no step that shmod acknowledged (exit 0) is ever
lost."""
from __future__ import annotations

import copy
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from safety_helpers import SHMOD, bare
from scripted import AT

from shmod.audit.random_games import command_for
from shmod.forum.turns import legal_steps
from shmod.game.terms import OVER
from shmod.log import logfile, repair, store
from shmod.log.entries import to_entry

pytestmark = pytest.mark.slow  # long: CI runs it; `pytest -m 'not slow'` skips it


ATTEMPTS = 100  # per worker; two workers
CLI_REPAIRS = 10  # per worker through `shmod repair`, the rest through the same function
# A shmod whose appends trickle out byte by byte and say when they start, so that kills
# can be aimed into the middle of a write as well as anywhere else.
SLOW_WRITER = """
import os, sys, time
from shmod.log import logfile
def trickle(fd, data):
    sys.stdout.write("writing\\n"); sys.stdout.flush()
    for i in range(len(data)):
        os.write(fd, data[i:i + 1]); time.sleep(0.0005)
logfile._write_all = trickle
sys.argv = ["shmod", *sys.argv[1:]]
from shmod.cli.main import main

main()
"""


def _load_or_repair(path: Path, tally: Counter) -> store.Loaded:
    """Load the log; if its tail is torn, or a step of several entries was cut off (its
    note is still beside the log, whatever of it was written: every later write is refused
    until then), run `shmod repair` and load again."""
    if logfile.pending_batch(str(path)) is None:
        try:
            return store.load(str(path))
        except logfile.TornTail as err:
            assert err.line, err
            tally["torn tails reported"] += 1
    else:
        tally["steps cut off reported"] += 1
    if tally[f"cli repairs {path.name[:2]}"] < CLI_REPAIRS:
        done = subprocess.run([*SHMOD, "repair", "-g", str(path)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and any(said in done.stdout for said in (
            "Moved the torn final entry", "Moved the step cut off, whole",
            "Nothing to repair")), done.stderr
        tally[f"cli repairs {path.name[:2]}"] += 1
        moved = "Nothing to repair" not in done.stdout
    else:
        moved = repair.repair(str(path), at=AT).backup is not None
    tally["repairs"] += moved  # a step written whole, or not at all, leaves its note alone
    assert logfile.pending_batch(str(path)) is None
    return store.load(str(path))


def _next_step(loaded: store.Loaded, rng: random.Random):  # type: ignore[no-untyped-def]
    state = copy.deepcopy(loaded.table)
    store._seeded_reshuffles(state)  # what record will append first, if a write was cut
    return rng.choice(legal_steps(state))


def _worker(folder: Path, seed: int, tally: Counter, failures: list[str]) -> None:
    rng = random.Random(seed)
    number, path, known = 0, None, []
    runtime = 0.5  # a running estimate of how long one shmod run takes here
    try:
        for _ in range(ATTEMPTS):
            if path is None:
                number += 1
                path = folder / f"w{seed}-{number}.yaml"
                store.new_game(str(path), [f"P{n}" for n in range(1, rng.randint(5, 10) + 1)],
                               seed=f"crash-{seed}-{number}", created=AT)
                known = []
            loaded = _load_or_repair(path, tally)
            entries = [bare(e) for e in loaded.log.entries]
            assert entries[:len(known)] == known, f"{path}: an acknowledged step was lost"
            known = entries
            if loaded.table.game.phase == OVER:
                path = None
                continue
            step = _next_step(loaded, rng)
            args = [*command_for(step, loaded.table.game.players), "-g", str(path)]
            before = path.stat().st_size
            aimed = rng.random() < 0.3
            command = [sys.executable, "-c", SLOW_WRITER, *args] if aimed else [*SHMOD, *args]
            tally["runs"] += 1
            proc = subprocess.Popen(command, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            if aimed:
                assert proc.stdout is not None
                assert proc.stdout.readline() == "writing\n", proc.communicate()
                delay = rng.uniform(0, 0.08)
            else:
                delay = rng.uniform(0, 1.5 * runtime)
            started = time.monotonic()
            try:
                _out, err = proc.communicate(timeout=delay)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.communicate()
                if not aimed:
                    runtime *= 1.1  # it outlived the estimate
                after = path.stat().st_size
                tally["killed"] += 1
                tally["killed before writing" if after == before else "killed after writing"
                      if after > before and path.read_bytes().endswith(b"\n")
                      else "killed mid-write"] += 1
                continue
            assert proc.returncode == 0, err
            if not aimed:
                runtime = 0.8 * runtime + 0.2 * (time.monotonic() - started)
            tally["acknowledged"] += 1
            recorded = [bare(e) for e in store.load(str(path)).log.entries]
            assert recorded[:len(known)] == known
            assert to_entry(step, loaded.table.game.players) in recorded[len(known):], "step lost"
            known = recorded
    except AssertionError as problem:
        failures.append(str(problem))


def test_sigkill_during_appends_loses_no_acknowledged_step(tmp_path, report_counts):
    tally: Counter = Counter()
    failures: list[str] = []
    workers = [threading.Thread(target=_worker, args=(tmp_path, seed, tally, failures))
               for seed in (1, 2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not failures, failures
    for path in tmp_path.glob("*.yaml"):
        _load_or_repair(path, tally)  # every log loads in the end, repaired if need be
    backups = list(tmp_path.glob("*.torn-*"))
    assert len(backups) == tally["repairs"]
    assert tally["killed mid-write"] > 0 and tally["acknowledged"] > 0
    report_counts("crash", f"{tally['runs']} shmod runs: {tally['acknowledged']} acknowledged, "
                  f"{tally['killed']} SIGKILLed ({tally['killed before writing']} before "
                  f"writing, {tally['killed mid-write']} mid-write, "
                  f"{tally['killed after writing']} after writing); "
                  f"{tally['torn tails reported']} torn tails and "
                  f"{tally['steps cut off reported']} steps cut off reported, "
                  f"{tally['repairs']} repaired; 0 acknowledged steps lost")
