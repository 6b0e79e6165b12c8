"""Issue 9's fuzz run: command lines and log files, with a fixed seed and a budget.

Counts what must stay 0: internal errors (exit 70), hangs (a case over 5 s), tracebacks,
and accepted commands that leave a log no command loads (checked by loading and auditing
the log after every accepted command). ``SHMOD_FUZZ_CASES=100000 pytest
tests/test_fuzz_trust.py -s`` runs a longer campaign (default: 10,000 cases, about 20 s
on two cores); ``SHMOD_FUZZ_SEED`` picks another seed.
"""
from __future__ import annotations

import io
import os
import random
import signal
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest
from scripted import AT

from shmod.audit import log_audit
from shmod.base.errors import ShmodError
from shmod.cli.main import main
from shmod.game.steps import Nominate, Vote
from shmod.log import logfile, store

pytestmark = pytest.mark.slow  # long: CI runs it; `pytest -m 'not slow'` skips it


CASES = int(os.environ.get("SHMOD_FUZZ_CASES", "10000"))
SEED = int(os.environ.get("SHMOD_FUZZ_SEED", "20261122"))
COMMAND_SHARE = 0.2  # the rest are log files: a command costs ~10x a log
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
COMMANDS = ["nominate", "vote", "discard", "enact", "veto", "investigate", "special-election",
            "execute", "peek", "reshuffle", "status", "post", "pm", "prods", "deadline",
            "replace", "correct", "corrections", "acknowledge", "rules", "audit", "reveal",
            "repair", "new", "claim"]
WORDS = ["Ann", "bob", "C", "3", "0", "8", "-1", "ja", "nein", "liberal", "F", "FLF",
         "propose", "accept", "refuse", "48h", "99999999d", "9" * 1200 + "h", "2020-01-01",
         "2026-13-45", "--by", "--reason", "-r", "--force", "--entry", "--again", "--mark",
         "--list", "-f", "bbcode", "markdown", "--custom", "--thread", "--json", "-V",
         "eva_braun=on", "", " ", "x" * 201, "x" * 5000, "a\x7fb", "\x1b[31mred", "bell\x07",
         "\x85", "\u202e", "\ufffe", "\uffff", "\udcff", "é", "555", "a: b", "{x}", "[",
         "&a", "*a", "!!python/object", "\n", "'", '"', "--", "-"]
YAML_BITS = ["{kind: vote, by: Cy, vote: nein, vote: ja}", "&a x", "*a", "<<: {a: 1}",
             "!!python/object/apply:os.system [ls]", "2026-13-45", '"\\e[31m"', '"\\x85"',
             "9" * 400, "[[[[[[[[[[x]]]]]]]]]]", "{kind: acknowledge, entries: [1], reason: x}",
             "{kind: posted, upto: 1, checkpoint: 00}", "{kind: correct, entries: [1], "
             "reason: r, force: yes}", "players: [A]", "\t", "\x00", "\u2028"]


class Hang(Exception):
    pass


def _alarm(_signum, _frame):  # type: ignore[no-untyped-def]
    raise Hang


def run(args: list[str]) -> tuple[int | None, str]:
    """``shmod ARGS`` in-process: (exit code or None for an escaped exception, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["shmod", *args]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
        return 0, err.getvalue()
    except SystemExit as done:
        return (done.code if isinstance(done.code, int) else 1), err.getvalue()
    except Hang:
        raise
    except BaseException as escaped:  # noqa: BLE001 - counted as a traceback
        return None, f"{type(escaped).__name__}: {escaped}"
    finally:
        sys.argv = old


def fresh(folder: str) -> tuple[str, bytes]:
    path = os.path.join(folder, "g.yaml")
    if os.path.exists(path):
        os.unlink(path)
    store.new_game(path, NAMES, seed="fuzz", first="Ann", created=AT)
    store.record(path, lambda g: Nominate(by=0, chancellor=1), at=AT)
    for seat in range(4):
        store.record(path, lambda g, s=seat: Vote(by=s, vote=True), at=AT)
    return path, open(path, "rb").read()


def weird(rng: random.Random) -> str:
    """A free text: a word from the pool, random characters, or both."""
    parts = [rng.choice(WORDS), "".join(chr(rng.randrange(1, 0x3000))
                                        for _ in range(rng.randrange(0, 6)))]
    return "".join(rng.sample(parts, rng.randrange(1, 3)))


def plausible(rng: random.Random, path: str) -> list[str]:
    """A command that may well be accepted, with a free text from the fuzz pool."""
    who = rng.choice(NAMES)
    args = rng.choice([
        ["vote", who, rng.choice(["ja", "nein"])], ["correct", "-r", weird(rng)],
        ["replace", who, weird(rng)], ["deadline", rng.choice(["48h", "3d", weird(rng)]),
                                       "--zone", rng.choice(["UTC", weird(rng)])],
        ["post", "--mark"], ["discard", rng.choice(["liberal", "fascist"])],
        ["enact", rng.choice(["liberal", "fascist"])], ["acknowledge", "1", "-r", weird(rng)],
        ["correct", "--force", "-r", weird(rng)],
    ])
    return [*args, "-g", path]


def command_line(rng: random.Random, path: str, folder: str) -> list[str]:
    if rng.random() < 0.6:
        return plausible(rng, path)
    command = rng.choice(COMMANDS)
    args = [rng.choice(WORDS) if rng.random() < 0.8 else
            "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(0, 8)))
            for _ in range(rng.randrange(0, 5))]
    files = {"--custom": os.path.join(folder, rng.choice(["fifo", "deep.yaml", "bad.yaml"])),
             "--thread": os.path.join(folder, rng.choice(["fifo", "bad.yaml"]))}
    args = [a for word in args for a in ([word, files[word]] if word in files else [word])]
    target = os.path.join(folder, "new.yaml") if command == "new" else path
    return [command, *args, "-g", target]


def mutate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(lines))
        how = rng.randrange(6)
        if how == 0:
            lines.insert(i, "- " + rng.choice(YAML_BITS))
        elif how == 1:
            lines[i] = lines[i] + " " + rng.choice(YAML_BITS)
        elif how == 2 and len(lines) > 2:
            del lines[i]
        elif how == 3:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif how == 4 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + chr(rng.randrange(0, 0x250)) + lines[i][j + 1:]
        else:
            lines[i] = lines[i].replace("ja", rng.choice(["nein", "2026-13-45", "&a", '"\\e"']))
    return "\n".join(lines)


def test_fuzz_command_lines_and_logs(tmp_path, report_counts):
    folder = str(tmp_path)
    os.mkfifo(os.path.join(folder, "fifo"))
    with open(os.path.join(folder, "deep.yaml"), "w") as deep:
        deep.write("a: " + "[" * 30000 + "]" * 30000 + "\n")
    with open(os.path.join(folder, "bad.yaml"), "wb") as bad:
        bad.write(b"deck: \xff\xfe\n")
    rng = random.Random(SEED)
    path, template = fresh(folder)
    counts = dict(commands=0, accepted=0, logs=0, internal=0, hangs=0, tracebacks=0,
                  unloadable=0)
    failures: list[str] = []
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(CASES):
            signal.alarm(5)
            try:
                if rng.random() < COMMAND_SHARE:
                    _one_command(rng, path, folder, counts, failures)
                    if counts["commands"] % 40 == 0:
                        path, template = fresh(folder)
                else:
                    _one_log(rng, template, counts, failures)
            except Hang:
                counts["hangs"] += 1
                failures.append(f"case {case}: hang")
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, old)
    report_counts("fuzz run", f"{CASES} cases (seed {SEED}): {counts['commands']} command lines "
                  f"({counts['accepted']} accepted), {counts['logs']} log files; "
                  f"{counts['internal']} internal errors, {counts['hangs']} hangs, "
                  f"{counts['tracebacks']} tracebacks, {counts['unloadable']} accepted "
                  "commands leaving an unloadable log")
    assert not failures, failures[:5]


def _one_command(rng: random.Random, path: str, folder: str, counts: dict[str, int],
                 failures: list[str]) -> None:
    args = command_line(rng, path, folder)
    before = open(path, "rb").read()
    code, err = run(args)
    counts["commands"] += 1
    if code is None or "Traceback" in err:
        counts["tracebacks"] += 1
        failures.append(f"{args!r}: {err[-300:]}")
    elif code == 70:
        counts["internal"] += 1
        failures.append(f"{args!r}: {err}")
    after = open(path, "rb").read()
    if after != before:
        counts["accepted"] += 1
        try:
            loaded = store.load(path)
            assert log_audit.audit_log(loaded.log).unreadable is False
        except (ShmodError, AssertionError) as broken:
            counts["unloadable"] += 1
            failures.append(f"{args!r} left an unloadable log: {broken}")
    new = os.path.join(folder, "new.yaml")
    if os.path.exists(new):
        try:
            store.load(new)
        except ShmodError as broken:
            counts["unloadable"] += 1
            failures.append(f"{args!r} created an unloadable log: {broken}")
        os.unlink(new)


def _one_log(rng: random.Random, template: bytes, counts: dict[str, int],
             failures: list[str]) -> None:
    text = mutate(rng, template.decode())
    counts["logs"] += 1
    try:
        store.replay(logfile.parse("fuzz.yaml", text.encode("utf-8", "surrogatepass")))
        log_audit.audit_log(logfile.parse("fuzz.yaml", text.encode("utf-8", "surrogatepass")))
    except ShmodError as refused:
        if refused.exit_code == 70:
            counts["internal"] += 1
            failures.append(f"log: {refused}")
    except Exception as escaped:  # noqa: BLE001
        counts["tracebacks"] += 1
        failures.append(f"log {text[-200:]!r}: {type(escaped).__name__}: {escaped}")
