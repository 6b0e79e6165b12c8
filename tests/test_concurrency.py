"""One writer at a time: 4 processes record the votes of one election at once, for many
rounds; every vote is recorded exactly once, every other attempt is refused with one
clear line, and the log stays valid throughout (R-VOTE)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest
from scripted import AT

from shmod.forum.turns import legal_steps
from shmod.game.terms import NOMINATE, OVER, VOTE
from shmod.log import store

pytestmark = pytest.mark.slow  # long: CI runs it; `pytest -m 'not slow'` skips it


ROUNDS = 30
WORKERS = 4
# A moderator's terminal: for each round it reads the ballots, records every one of them
# through the shmod command (in its own order) and reports what was accepted or refused.
WORKER = """
import json, os, random, sys
from shmod.cli.main import app
from shmod.base.errors import ShmodError

path, index = sys.argv[1], int(sys.argv[2])
out = sys.stdout
sys.stdout = open(os.devnull, "w")
for number, line in enumerate(sys.stdin):
    ballots = json.loads(line)
    order = sorted(ballots)
    random.Random(f"{index}-{number}").shuffle(order)
    done = {"ok": [], "refused": []}
    for name in order:
        try:
            app(["vote", name, ballots[name], "-g", path], standalone_mode=False)
            done["ok"].append(name)
        except ShmodError as err:
            done["refused"].append([name, str(err)])
    out.write(json.dumps(done) + "\\n")
    out.flush()
"""


def _play_to_nomination(path: str, rng: random.Random) -> None:
    """Record random legal steps (in-process) until a Chancellor is nominated."""
    while True:
        state = store.load(path).table
        if state.game.phase in (VOTE, OVER):
            return
        step = rng.choice(legal_steps(state))
        store.record(path, lambda g, step=step: step, at=AT)
        if state.game.phase == NOMINATE:
            return


def test_four_terminals_record_each_vote_exactly_once(tmp_path, report_counts):
    rng = random.Random(5)
    tally: Counter = Counter()
    number = 0
    path = ""
    procs: list[subprocess.Popen[str]] = []

    def new_game() -> None:
        nonlocal number, path, procs
        for proc in procs:
            proc.communicate(timeout=30)
        number += 1
        path = str(tmp_path / f"game{number}.yaml")
        store.new_game(path, [f"P{n}" for n in range(1, 8)], seed=f"concurrent-{number}", created=AT)
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, path, str(index)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                 for index in range(WORKERS)]

    new_game()
    for _ in range(ROUNDS):
        _play_to_nomination(path, rng)
        loaded = store.load(path)
        if loaded.table.game.phase == OVER:
            new_game()
            _play_to_nomination(path, rng)
            loaded = store.load(path)
        state = loaded.table
        voters = {state.game.players[s]: rng.choice(["ja", "nein"]) for s in state.game.living}
        for proc in procs:
            proc.stdin.write(json.dumps(voters) + "\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
        results = [json.loads(proc.stdout.readline()) for proc in procs]  # type: ignore[union-attr]
        accepted = Counter(name for result in results for name in result["ok"])
        assert accepted == Counter(list(voters)), f"accepted {accepted}, not each voter once"
        for result in results:
            for _, message in result["refused"]:
                assert "\n" not in message
                assert any(why in message for why in (
                    "already voted", "cannot record a vote now", "the game is over")), message
                tally["refused"] += 1
        after = store.load(path)  # the log is valid after every round
        new = after.log.entries[len(loaded.log.entries):]
        votes = [(e["by"], e["vote"]) for e in new if e["kind"] == "vote"]
        assert sorted(votes) == sorted(voters.items())
        assert after.chain == []
        tally["rounds"] += 1
        tally["votes"] += len(votes)
    for proc in procs:
        proc.communicate(timeout=30)
        assert proc.returncode == 0
    report_counts("concurrency", f"{tally['rounds']} elections, {WORKERS} processes each "
                  f"recording every vote at once: {tally['votes']} votes recorded exactly "
                  f"once, {tally['refused']} duplicate attempts refused, log valid after "
                  f"every round, {number} game(s)")
