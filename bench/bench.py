"""shmod's benchmarks, each goal with its ratio and met/missed (BENCHMARKS.md).

    python bench/bench.py            # about 3 minutes on two cores

It builds its own environment first (``bench/.env``, reused): the working tree installed
as a user installs it (``pip install .``, byte-compiled, not editable) next to typer
0.28.0, so that shmod and the minimal typer app it is compared with start on the same
Python, the same typer and the same site-packages. Then, in one run:

1. start-up: ``shmod status``, ``shmod prods`` and ``shmod outbox`` on a finished
   10-player game (and on the shipped one, games/forum-10-players.yaml; written without
   posts, the first owes every item it caused) against a minimal typer app, whole
   processes, medians of 15 alternating runs (goal <= 1.3x; ``status``, ``prods`` and
   ``vote`` <= 1.2x in CPU time, issue 45), with the parse cache warm as it is from a
   moderator's second command on (its own folder, ``SHMOD_CACHE``), and ``status`` with
   the cache off for comparison, and on a game just made (what any game costs); and, not
   shmod, the typer app importing PyYAML (the floor of a recording step); ``shmod vote``
   mid-round (two or more votes still to come: no post) on each shipped game that has such
   a round (forum-10-players.yaml and words-dealt-8-players.yaml, each cut after a vote in
   its middle), in a git clone set up for shmod (``shmod git-setup``: the git check in
   place), the log and its cache restored before each run (the vote recorded anew each
   time, never timed); the wall time, and the CPU time, which a loaded machine hardly
   moves;
2. a whole scripted 10-player game recorded through the installed ``shmod`` (every
   nominate, vote, discard, enact, power and ``post --mark``): total wall time;
3. auditing 1,000 simulated games against merely parsing them with PyYAML's C loader
   (goal <= 1.5x);
4. audit time by log length (goal: flat time per entry);
5. the replay page of a finished 10-player game against ``shmod audit`` of it: whole
   processes (``shmod replay LOG -o FILE`` and ``shmod audit LOG``, medians of alternating
   runs) and in-process (the library calls behind them, best of interleaved runs).
6. ``shmod stats FOLDER`` against ``shmod audit FOLDER`` on the same 1,000 simulated games,
   whole installed commands, best of alternating runs (goal: time per log <= 1.5x), and
   the peak memory of each, and of ``stats`` on a tenth of the logs (goal: flat, the
   whole at most 1.5x the tenth). ``--only 6 --games 10000`` for 10,000 logs.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from shmod.audit.log_audit import audit_file, audit_log
from shmod.audit.random_games import command_for, random_game
from shmod.audit.replay import page as replay_page
from shmod.audit.simulate import SIMULATED_AT, parse_counts, simulate
from shmod.log import logfile
from shmod.log.store import log_text

ROOT = Path(__file__).resolve().parent.parent
ENV = ROOT / "bench" / ".env"
TYPER = "typer==0.28.0"
#: (1)'s reference that is not shmod: the minimal app importing PyYAML as well.
FLOOR = "the typer app importing PyYAML"
HELLO = '''import typer

app = typer.Typer()


@app.command()
def hello() -> None:
    print("hello")


app()
'''


def verdict(ratio: float, goal: float) -> str:
    return f"{ratio:.2f}x (goal <= {goal}x: {'met' if ratio <= goal else 'MISSED'})"


def environment() -> Path:
    """``bench/.env`` with typer 0.28.0 and this working tree installed (not editable)."""
    python = ENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(ENV)], check=True)
    pip = [str(python), "-m", "pip", "install", "-q"]
    for extra in ([TYPER, str(ROOT)], ["--force-reinstall", "--no-deps", str(ROOT)]):
        subprocess.run(pip + extra, check=True, stderr=subprocess.DEVNULL, env=clean_env())
    return python


def clean_env() -> dict[str, str]:
    """The environment a moderator's shell has: byte code written and read as usual."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("SHMOD_GAME", None)
    return env


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)
    return time.perf_counter() - start


#: Runs a command and prints its wall time and its peak resident memory. A process of its
#: own, small: a child's peak memory counts what its parent held when it forked (the
#: bench, with a thousand games in memory, would lend it tens of megabytes).
_MEASURE = """import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measured(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """The wall time of a whole process and its peak resident memory in kilobytes."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *argv], check=True,
                          capture_output=True, text=True, env=env)
    seconds, kilobytes = done.stdout.split()
    return float(seconds), int(kilobytes)


def timed_cpu(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall time of a whole process and the CPU time it used (user and system, from
    ``getrusage``): the CPU time hardly moves with the load of a shared machine."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(argv, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def midround(source: Path) -> tuple[bytes, str]:
    """A copy of the shipped game ``source`` cut after a vote in the middle of its log,
    with two or more votes still to come: its bytes, and a player yet to vote."""
    from shmod.game.legal import voters
    from shmod.game.steps import Vote
    from shmod.log.store import replay

    data = source.read_bytes()
    found: list[tuple[int, str]] = []

    def watch(number: int, step: object, state: Any) -> None:
        waiting = voters(state.game) if state.game.phase == "vote" else []
        if isinstance(step, Vote) and len(waiting) >= 2:
            found.append((number, state.game.players[waiting[0]]))

    replay(logfile.parse(str(source), data), watch=watch)
    number, voter = found[len(found) // 2]
    lines = data.splitlines(keepends=True)
    start = next(at for at, line in enumerate(lines) if line.startswith(b"log:")) + 1
    return b"".join(lines[:start + number]), voter


def vote_runs(shmod: str, folder: str, env: dict[str, str]
              ) -> dict[str, tuple[list[str], dict[str, str], Callable[[], None]]]:
    """(1): ``shmod vote`` mid-round on each shipped game with such a round, in a git
    clone set up for shmod, each with what restores its log and its cache before a run."""
    clone = os.path.join(folder, "clone")
    os.makedirs(clone)
    subprocess.run(["git", "init", "-q", clone], check=True)
    out: dict[str, tuple[list[str], dict[str, str], Callable[[], None]]] = {}
    for name in ("forum-10-players.yaml", "words-dealt-8-players.yaml"):
        data, voter = midround(ROOT / "games" / name)
        log = os.path.join(clone, name)
        cache = os.path.join(folder, f"cache-{name}")
        kept = cache + ".kept"
        with_env = {**env, "SHMOD_CACHE": cache, "SHMOD_NOW": "2027-01-01T00:00:00Z"}

        def restore(log: str = log, data: bytes = data, cache: str = cache,
                    kept: str = kept) -> None:
            Path(log).write_bytes(data)
            os.chmod(log, 0o600)
            if os.path.isdir(kept):
                shutil.rmtree(cache, ignore_errors=True)
                shutil.copytree(kept, cache)

        restore()
        subprocess.run([shmod, "git-setup", "-g", log], env=with_env, check=True,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        argv = [shmod, "vote", voter, "ja", "-g", log]
        timed(argv, with_env)  # the git check's verdict and the byte code, as on a 2nd vote
        shutil.copytree(cache, kept, ignore=shutil.ignore_patterns("*.seen"))
        out[f"vote mid-round, the shipped {name.split('-')[0]} game"] = (argv, with_env, restore)
    return out


def bench_startup(python: Path, folder: str, runs: int) -> None:
    sim = random_game(10, random.Random(10))
    log = os.path.join(folder, "ten.yaml")
    Path(log).write_text(log_text(sim.header, sim.steps, at=SIMULATED_AT))
    shipped = os.path.join(folder, "forum-10-players.yaml")  # the shipped game's copy
    Path(shipped).write_bytes((ROOT / "games" / "forum-10-players.yaml").read_bytes())
    os.chmod(shipped, 0o600)
    hello = os.path.join(folder, "hello.py")
    Path(hello).write_text(HELLO)
    floor = os.path.join(folder, "hello_yaml.py")  # the app importing PyYAML: no shmod
    Path(floor).write_text("import yaml  # noqa: F401\n" + HELLO)
    shmod = str(python.parent / "shmod")
    env = {**clean_env(), "SHMOD_CACHE": os.path.join(folder, "cache")}
    off = {**env, "SHMOD_CACHE": "off"}
    fresh = os.path.join(folder, "fresh.yaml")  # a game just made: what any game costs
    subprocess.run([shmod, "new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", fresh], env=env,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def nothing() -> None:
        pass

    runs_of = {"typer app": ([str(python), hello], env, nothing),
               "status": ([shmod, "status", "-g", log], env, nothing),
               "prods": ([shmod, "prods", "-g", log], env, nothing),
               "outbox": ([shmod, "outbox", "-g", log], env, nothing),
               "status, parse cache off": ([shmod, "status", "-g", log], off, nothing),
               "status, the shipped game": ([shmod, "status", "-g", shipped], env, nothing),
               "prods, the shipped game": ([shmod, "prods", "-g", shipped], env, nothing),
               "outbox, the shipped game": ([shmod, "outbox", "-g", shipped], env, nothing),
               "status, a game just made (no step yet)": ([shmod, "status", "-g", fresh], env,
                                                          nothing),
               **vote_runs(shmod, folder, env),
               FLOOR: ([str(python), floor], env, nothing)}
    for argv, with_env, restore in runs_of.values():  # warm the caches, write the byte code
        restore()
        timed(argv, with_env)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs_of}
    for _ in range(runs):  # alternate, so load on the machine affects all alike
        for name, (argv, with_env, restore) in runs_of.items():
            restore()
            times[name].append(timed_cpu(argv, with_env))
    wall = {name: statistics.median(t for t, _ in got) for name, got in times.items()}
    cpu = {name: statistics.median(c for _, c in got) for name, got in times.items()}
    base, base_cpu = wall["typer app"], cpu["typer app"]
    print(f"(1) start-up, medians of {runs} alternating runs, a finished 10-player game "
          f"({len(sim.steps)} entries) and the shipped one: minimal typer 0.28.0 app "
          f"{base * 1000:.0f} ms ({base_cpu * 1000:.0f} ms of CPU)")
    for name in [name for name in runs_of if name not in ("typer app", FLOOR)]:
        ratio = wall[name] / base
        goal = verdict(ratio, 1.3) if "off" not in name else f"{ratio:.2f}x"
        cpu_ratio = cpu[name] / base_cpu
        cpu_goal = (verdict(cpu_ratio, 1.2) if name.startswith(("status", "prods", "vote"))
                    and "off" not in name and "just made" not in name else f"{cpu_ratio:.2f}x")
        print(f"    shmod {name}: {wall[name] * 1000:.0f} ms, ratio {goal}; CPU "
              f"{cpu[name] * 1000:.0f} ms, ratio {cpu_goal}")
    print(f"    floor, not shmod: {FLOOR}: CPU {cpu[FLOOR] * 1000:.0f} ms, ratio "
          f"{cpu[FLOOR] / base_cpu:.2f}x (a step reads the bytes it appends back through "
          "PyYAML before it writes them, so it imports PyYAML at least)")


def bench_whole_game(python: Path, folder: str) -> None:
    seed = "bench-whole-game"
    sim = random_game(10, random.Random(3), seed=seed)
    names: tuple[str, ...] = tuple(sim.header["players"])  # type: ignore[arg-type]
    shmod = str(python.parent / "shmod")
    env = {**clean_env(), "SHMOD_GAME": os.path.join(folder, "whole.yaml"),
           "SHMOD_CACHE": os.path.join(folder, "cache")}
    commands = [["new", *names, "--seed", seed, "--guessable"]]
    for step, after in zip(sim.steps, [*sim.steps[1:], None]):
        if step.kind != "reshuffle":  # a seeded game's reshuffles are shmod's own
            commands.append(command_for(step, names))
        if step.kind in ("enact", "veto") or (step.kind == "vote" and
                                               (after is None or after.kind != "vote")):
            commands.append(["post", "--mark"])
    start = time.perf_counter()
    for argv in commands:
        done = subprocess.run([shmod, *argv], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode and not (argv[0] == "post" and "nothing new" in done.stderr):
            raise SystemExit(f"bench: shmod {' '.join(argv)} failed: {done.stderr}")
    took = time.perf_counter() - start
    print(f"(2) a whole 10-player game through the installed shmod: {len(commands)} commands "
          f"in {took:.1f} s ({took / len(commands) * 1000:.0f} ms a command)")


def bench_batch(folder: str, games: int, repeat: int) -> str:
    """(3); returns the folder of games it wrote."""
    where = os.path.join(folder, "games")
    paths = list(simulate(where, games, parse_counts("5-10"), "bench", mixed=True))
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
        parse = min(parse, _best(parse_only, 1))
        audit = min(audit, _best(audit_all, 1))
    print(f"(3) {games} games (~{entries / 50:.0f} entries each): C-loader parse "
          f"{parse:.3f} s, audit {audit:.3f} s, ratio {verdict(audit / parse, 1.5)}")
    return where


def bench_stats(python: Path, games: str, repeat: int) -> None:
    """(6): the installed ``shmod stats`` and ``shmod audit`` on the same folder, and the
    peak memory of each, and of ``stats`` on a tenth of the logs."""
    shmod = str(python.parent / "shmod")
    env = clean_env()
    logs = sorted(os.listdir(games))
    count = len(logs)
    best = {"audit": float("inf"), "stats": float("inf")}
    peak = {"audit": 0, "stats": 0}
    for _ in range(repeat):  # alternating, so load on the machine affects both alike
        for name in best:
            seconds, kilobytes = measured([shmod, name, games], env)
            best[name] = min(best[name], seconds)
            peak[name] = max(peak[name], kilobytes)
    audit, stats = best["audit"], best["stats"]
    print(f"(6) shmod stats against shmod audit on the same {count} logs, best of {repeat}: "
          f"audit {audit:.2f} s ({audit / count * 1000:.2f} ms a log), stats {stats:.2f} s "
          f"({stats / count * 1000:.2f} ms a log), ratio {verdict(stats / audit, 1.5)}")
    tenth = [os.path.join(games, name) for name in logs[:max(1, count // 10)]]
    _seconds, small = measured([shmod, "stats", *tenth], env)
    print(f"    peak memory: audit {peak['audit'] / 1024:.1f} MB, stats {peak['stats'] / 1024:.1f} "
          f"MB on {count} logs and {small / 1024:.1f} MB on {len(tenth)}: ratio "
          f"{verdict(peak['stats'] / small, 1.5)} (flat)")


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_growth(repeat: int) -> None:
    rng = random.Random(7)
    longest = max((random_game(10, rng) for _ in range(60)), key=lambda s: len(s.steps))
    total = len(longest.steps)
    per_entry = []
    print(f"(4) audit time by log length (prefixes of a {total}-entry 10-player game):")
    for share in (0.125, 0.25, 0.5, 1.0):
        count = max(1, int(total * share))
        data = log_text(longest.header, longest.steps[:count], at=SIMULATED_AT).encode()
        seconds = _best(lambda: audit_log(logfile.parse("g.yaml", data)), repeat)  # noqa: B023
        per_entry.append(seconds / count)
        print(f"    {count:4d} entries: {seconds * 1000:7.2f} ms, "
              f"{seconds / count * 1e6:6.1f} us per entry")
    spread = per_entry[-1] / per_entry[1]
    print(f"    per entry, longest vs a quarter: {verdict(spread, 1.5)} (flat)")


def bench_replay(python: Path, folder: str, runs: int, repeat: int) -> None:
    sim = random_game(10, random.Random(10))
    log = os.path.join(folder, "replay.yaml")
    Path(log).write_text(log_text(sim.header, sim.steps, at=SIMULATED_AT))
    shmod = str(python.parent / "shmod")
    env = {**clean_env(), "SHMOD_CACHE": os.path.join(folder, "cache")}
    html = os.path.join(folder, "replay.html")
    runs_of = {"audit": [shmod, "audit", log], "replay": [shmod, "replay", log, "-o", html]}
    for argv in runs_of.values():
        timed(argv, env)
    times: dict[str, list[float]] = {name: [] for name in runs_of}
    for _ in range(runs):
        for name, argv in runs_of.items():
            times[name].append(timed(argv, env))
    audit, made = statistics.median(times["audit"]), statistics.median(times["replay"])
    size = os.path.getsize(html)
    print(f"(5) the replay page of a finished 10-player game ({len(sim.steps)} entries, "
          f"{size // 1024} KB): shmod replay -o {made * 1000:.0f} ms, shmod audit "
          f"{audit * 1000:.0f} ms, ratio {made / audit:.2f}x (whole processes, medians of "
          f"{runs})")
    inside, audited = float("inf"), float("inf")
    for _ in range(repeat):  # interleaved, so load on the machine affects both alike
        inside = min(inside, _best(lambda: replay_page(log), 1))
        audited = min(audited, _best(lambda: audit_file(log), 1))
    print(f"    in-process: page {inside * 1000:.1f} ms, audit {audited * 1000:.1f} ms, "
          f"ratio {inside / audited:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", type=int, choices=range(1, 7), metavar="N",
                        help="run benchmark N alone (1-6; 6 runs 3 first, for its games)")
    args = parser.parse_args()
    chosen = {args.only} if args.only else set(range(1, 7))
    print(f"Python {sys.version.split()[0]}, PyYAML {yaml.__version__} "
          f"(C loader: {yaml.__with_libyaml__}), {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}")
    python = environment()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SHMOD_CACHE"] = os.path.join(folder, "cache")  # never the user's cache
        if 1 in chosen:
            bench_startup(python, folder, args.runs)
        if 2 in chosen:
            bench_whole_game(python, folder)
        games = bench_batch(folder, args.games, args.repeat) if chosen & {3, 6} else ""
        if 5 in chosen:
            bench_replay(python, folder, args.runs, args.repeat * 4)
        if 6 in chosen:
            bench_stats(python, games, args.repeat)
    if 4 in chosen:
        bench_growth(args.repeat * 5)


if __name__ == "__main__":
    main()
