"""Benchmarks for the audit (BENCHMARKS.md): run ``python bench/bench_audit.py``.

1. Auditing 1,000 simulated games against merely loading the same files with PyYAML's
   C loader (goal: audit <= 1.5x the parse alone).
2. ``shmod status`` on a finished 10-player log against a minimal typer hello-world
   app, both as fresh processes (goal: <= 1.15x).
3. How audit time grows with log length (goal: linear, i.e. flat time per entry).
"""
from __future__ import annotations

import argparse
import compileall
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

import yaml

import shmod
from shmod import logfile
from shmod.audit import audit_file, audit_log
from shmod.game import log_text
from shmod.moves import random_game
from shmod.simulate import SIMULATED_AT, parse_counts, simulate

HELLO = '''import typer

app = typer.Typer()


@app.command()
def hello() -> None:
    print("hello")


app()
'''


def best(fn, repeat: int) -> float:
    """The fastest of ``repeat`` timings of ``fn()``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_batch(folder: str, games: int, repeat: int) -> None:
    paths = list(simulate(os.path.join(folder, "games"), games, parse_counts("5-10"), "bench",
                          mixed=True))
    entries = sum(len(logfile.read(p).entries) for p in paths[:50])

    def parse_only() -> None:
        for path in paths:
            with open(path, "rb") as handle:
                yaml.load(handle.read(), Loader=yaml.CSafeLoader)

    def audit_all() -> None:
        for path in paths:
            assert audit_file(path).valid

    parse, audit = float("inf"), float("inf")
    for _ in range(repeat):  # interleaved, so load on the machine affects both alike
        parse = min(parse, best(parse_only, 1))
        audit = min(audit, best(audit_all, 1))
    print(f"(1) {games} games (~{entries / 50:.0f} entries each): C-loader parse "
          f"{parse:.3f} s, audit {audit:.3f} s, ratio {audit / parse:.2f}x (goal <= 1.5x)")


def wall(argv: list[str], runs: int) -> tuple[float, float]:
    """The fastest wall time and the mean CPU time (user + system) of ``runs`` fresh
    processes running ``argv`` (the fastest is the least disturbed by other load)."""
    times = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / runs
    return min(times), cpu


def bench_status(folder: str, runs: int) -> None:
    # Byte-compile shmod as `pip install` does for an installed package (typer's and
    # rich's files already are), so neither side pays for compiling its sources.
    compileall.compile_dir(os.path.dirname(shmod.__file__), quiet=1)
    rng = random.Random(10)
    sim = random_game(10, rng)
    log = os.path.join(folder, "ten.yaml")
    with open(log, "w") as handle:
        handle.write(log_text(sim.header, sim.steps, at=SIMULATED_AT))
    hello = os.path.join(folder, "hello.py")
    with open(hello, "w") as handle:
        handle.write(HELLO)
    status_argv = [sys.executable, "-m", "shmod", "status", "-g", log]
    hello_argv = [sys.executable, hello]
    wall(status_argv, 2), wall(hello_argv, 2)  # warm the OS caches
    status, base = [0.0, 0.0], [0.0, 0.0]
    for _ in range(3):  # interleave, so drift affects both alike
        for total, argv in ((status, status_argv), (base, hello_argv)):
            took = wall(argv, runs)
            total[0] += took[0] / 3
            total[1] += took[1] / 3
    print(f"(2) shmod status on a finished 10-player log ({len(sim.steps)} entries): "
          f"wall {status[0] * 1000:.0f} ms vs typer hello world {base[0] * 1000:.0f} ms, "
          f"ratio {status[0] / base[0]:.2f}x (goal <= 1.15x); CPU {status[1] * 1000:.0f} ms "
          f"vs {base[1] * 1000:.0f} ms, ratio {status[1] / base[1]:.2f}x")


def bench_growth(repeat: int) -> None:
    rng = random.Random(7)
    longest = max((random_game(10, rng) for _ in range(60)), key=lambda s: len(s.steps))
    total = len(longest.steps)
    print(f"(3) audit time by log length (prefixes of a {total}-entry 10-player game):")
    for share in (0.125, 0.25, 0.5, 1.0):
        count = max(1, int(total * share))
        data = log_text(longest.header, longest.steps[:count], at=SIMULATED_AT).encode()
        seconds = best(lambda: audit_log(logfile.parse("g.yaml", data)), repeat)
        print(f"    {count:4d} entries: {seconds * 1000:7.2f} ms, "
              f"{seconds / count * 1e6:6.1f} us per entry")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, PyYAML {yaml.__version__} "
          f"(C loader: {yaml.__with_libyaml__}), {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        bench_batch(folder, args.games, args.repeat)
        bench_status(folder, args.runs)
    bench_growth(args.repeat * 5)


if __name__ == "__main__":
    main()
