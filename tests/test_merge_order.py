"""Issue 42, R-MERGE: no recorded vote is lost and merge order never decides.

- Merging A into B and B into A gives the same game: both merge or both refuse; merged,
  the same replayed state (the game's and the forum's fields, entry numbers left out) and
  the same steps in effect (by identity), whatever the bytes.
- No vote in effect on either copy is lost: the merged log has the same vote (the player,
  the round, the value) in effect, or voids an entry of it (a correction of the other
  copy's voided the same PM).
- A voided entry never stands for another recording of the same vote; two corrections are
  one entry only if they void the same entries (by those entries' identities).

The property runs over random pairs of divergent continuations of random game prefixes,
the two moderators often recording the same PM (a vote both were sent), correcting it and
recording it again. ``SHMOD_ORDER_CASES=N`` draws more pairs (CI: 200, in a handful of
prefixes each), ``SHMOD_ORDER_SEED`` another seed.
"""
from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from test_merge import AT, DEADLINE, NEWCOMERS, _voting, prefix

from shmod.base.errors import Diverged, ShmodError
from shmod.base.records import fields
from shmod.forum.steps import Backup, Correct, Prod
from shmod.forum.table import Table
from shmod.forum.turns import legal_steps, waiting_for
from shmod.game.legal import voters
from shmod.game.steps import Step, Vote
from shmod.log import chain, logfile, seen, store
from shmod.log.merge import merge

CASES = int(os.environ.get("SHMOD_ORDER_CASES", "200"))
SEED = int(os.environ.get("SHMOD_ORDER_SEED", "42"))
PER_PREFIX = 8  # pairs drawn from one prefix: a prefix is most of a pair's cost
MIA, NED = "2026-01-02T00:00:00Z", "2026-01-02T00:00:00Z"  # the same second: ties too
COUNTS: Counter[str] = Counter()

Make = Callable[[Table], Step | None]


def _continuation(rng: random.Random, shared: list[tuple[int, bool]]) -> list[Make]:
    """One moderator's steps: the PMs both were sent (``shared``), each recorded, sometimes
    corrected and recorded again, mixed with steps of any kind."""
    steps: list[Make] = []
    for seat, value in shared:
        if rng.random() < 0.8:
            steps.append(lambda t, seat=seat, value=value: Vote(seat, value))
            if rng.random() < 0.35:
                steps.append(lambda t: Correct((t.history[-1][0],), "typo") if t.history
                             else None)
                if rng.random() < 0.7:
                    steps.append(lambda t, seat=seat, value=value: Vote(seat, value))
    for _ in range(rng.randrange(3)):
        kind, choice = rng.choice(["legal", "legal", "prod", "backup", "deadline"]), rng.random()

        def other(t: Table, kind: str = kind, choice: float = choice) -> Step | None:
            if kind == "prod":
                seats = waiting_for(t).seats
                return Prod(seats[int(choice * len(seats))]) if seats else None
            if kind == "backup":
                return Backup(NEWCOMERS[int(choice * len(NEWCOMERS))])
            if kind == "deadline":
                return DEADLINE
            options = legal_steps(t)
            return options[int(choice * len(options))] if options else None

        steps.insert(rng.randrange(len(steps) + 1), other)
    return steps


def _play(path: Path, steps: list[Make], moderator: str, at: str) -> None:
    for make in steps:
        def made(g: store.Loaded, make: Make = make) -> Step:
            step = make(g.table)
            if step is None:
                raise ShmodError("nothing to record")
            return step

        try:
            store.record(str(path), made, at=at, moderator=moderator, asked=True)
        except ShmodError:
            continue


def _acts(log: logfile.LogFile) -> tuple[Counter[object], set[object], Table]:
    """The votes and words in effect, those of voided entries, and the replayed table."""
    keys: dict[int, tuple[object, ...] | None] = {}
    rounds = [1]

    def watch(number: int, step: Step, table: Table) -> None:
        keys[number] = seen.act(step, rounds[-1])
        rounds.append(table.game.round)

    table = store.replay(log, watch=watch).table
    in_effect = Counter(keys[n] for n, _ in table.history if keys.get(n))
    voided = {keys[n] for _, numbers, _ in table.corrections for n in numbers if keys.get(n)}
    return in_effect, voided, table


def chain_common(a: logfile.LogFile, b: logfile.LogFile) -> int:
    """How many entries two copies share, from the first."""
    return next((n for n, (x, y) in enumerate(zip(a.entries, b.entries)) if x != y),
                min(len(a.entries), len(b.entries)))


def _snapshot(log: logfile.LogFile) -> tuple[object, ...]:
    """The replayed game as the moderator and the players know it, entry numbers left
    out (a merge either way may number the same steps differently), and the steps in
    effect by identity."""
    _, _, table = _acts(log)
    state = table.game
    game_fields = {name: getattr(state, name) for name in fields(state)
                   if name not in ("entries", "public", "secrets")}
    ids = chain.identities(log.entries)
    forum = (table.deadline, table.zone, sorted(table.backups), table.moderators,
             sorted(Counter(seat for _, seat in table.prods).items()), table.words,
             sorted(table.removed), len(table.posts), table.taken)
    effect = Counter(ids[n - 1] for n, _ in table.history)
    return repr(game_fields), repr(forum), effect


def _merged(ours: logfile.LogFile, theirs: logfile.LogFile) -> logfile.LogFile | None:
    try:
        return logfile.parse("merged.yaml", merge(ours, theirs, where="g.yaml").data)
    except Diverged as refused:
        why = str(refused).split("(R-MERGE): ", 1)[-1]
        COUNTS["refused: " + ("both posted" if why.startswith("both copies made a post") else
                              "a post moved" if "is a post" in why else
                              "different values" if "different values" in why else
                              "no longer applies")] += 1
        return None


@pytest.mark.parametrize("start", range(0, CASES, PER_PREFIX))
def test_merging_either_way_gives_the_same_game_and_loses_no_vote(tmp_path, start):
    rng = random.Random(SEED * 100_000 + start)
    start_log, state = prefix(rng, tmp_path, voting=True)
    for number in range(start, min(start + PER_PREFIX, CASES)):
        pending = voters(state.game)
        shared = [(seat, rng.random() < 0.6) for seat in rng.sample(pending, rng.randrange(
            1, len(pending) + 1))]
        copies = []
        for name, moderator, at in (("a.yaml", "Mia", MIA), ("b.yaml", "Ned", NED)):
            path = tmp_path / name
            path.write_bytes(start_log.read_bytes())
            seen.forget(str(path))
            _play(path, _continuation(rng, list(shared)), moderator, at)
            copies.append(logfile.read(str(path)))
        a, b = copies
        one, other = _merged(a, b), _merged(b, a)
        assert (one is None) == (other is None), f"pair {number}: one way merged, not the other"
        if one is None or other is None:
            COUNTS["refused both ways"] += 1
            continue
        COUNTS["merged both ways"] += 1
        COUNTS["the same bytes"] += one.data == other.data
        assert _snapshot(one) == _snapshot(other), f"pair {number}: the order decided"
        in_effect, voided, _ = _acts(one)
        for copy in (a, b):
            had, _, _ = _acts(copy)
            for key in had:
                assert in_effect[key] or key in voided, f"pair {number}: {key} was lost"
        common = chain_common(a, b)
        COUNTS["votes checked"] += sum(1 for c in (a, b) for raw in c.entries[common:]
                                       if raw.get("kind") == "vote")


def test_merge_order_counts(report_counts):
    report_counts("merge order", f"{CASES} random pairs merged both ways: " + ", ".join(
        f"{n} {k}" for k, n in COUNTS.items()))


# -- the trial's cases, one by one ----------------------------------------------------


def _copy(tmp: Path, start_log: Path, name: str, steps: list[Step], moderator: str,
          at: str) -> logfile.LogFile:
    path = tmp / name
    path.write_bytes(start_log.read_bytes())
    seen.forget(str(path))
    for step in steps:
        store.record(str(path), lambda g, step=step: step, at=at, moderator=moderator)
    return logfile.read(str(path))


def _votes(log: logfile.LogFile) -> dict[str, bool]:
    """Each player's vote in effect in the ballot open."""
    table = store.replay(log).table
    return {table.game.players[seat]: vote for seat, vote in table.game.votes.items()}


@pytest.mark.parametrize("mia_first", [True, False])
def test_a_vote_corrected_and_recorded_again_is_never_lost_either_way(tmp_path, mia_first):
    """Mia: vote Cat ja, correct it, vote Cat ja again; Ned: vote Cat ja (the same PM).
    On main Ned's pull voided Ned's vote with Mia's correction and counted Mia's second
    vote as Ned's, voided: Cat was back to not voted, and the other direction kept it."""
    start_log = _voting(tmp_path)
    early, late = "2026-01-02T00:00:00Z", "2026-01-02T01:00:00Z"
    mia = _copy(tmp_path, start_log, "mia.yaml",
                [Vote(2, True), Correct((4,), "sent twice"), Vote(2, True)], "Mia",
                early if mia_first else late)
    ned = _copy(tmp_path, start_log, "ned.yaml", [Vote(2, True)], "Ned",
                late if mia_first else early)
    for ours, theirs in ((ned, mia), (mia, ned)):
        merged = logfile.parse("m.yaml", merge(ours, theirs, where="g.yaml").data)
        assert _votes(merged) == {"Cat": True}
    one = logfile.parse("1", merge(ned, mia, where="g.yaml").data)
    other = logfile.parse("2", merge(mia, ned, where="g.yaml").data)
    assert _snapshot(one) == _snapshot(other)


def test_a_voided_vote_never_stands_for_the_same_vote_recorded_on_the_other_copy(tmp_path):
    """Mia (first) recorded Cat's vote and voided it; Ned recorded Cat's vote from the
    same PM: Ned's is applied anew, whichever way they merge."""
    start_log = _voting(tmp_path)
    mia = _copy(tmp_path, start_log, "mia.yaml", [Vote(2, True), Correct((4,), "not yet")],
                "Mia", "2026-01-02T00:00:00Z")
    ned = _copy(tmp_path, start_log, "ned.yaml", [Vote(2, True)], "Ned", "2026-01-02T01:00:00Z")
    for ours, theirs in ((ned, mia), (mia, ned)):
        merged = merge(ours, theirs, where="g.yaml")
        assert not merged.alike and merged.moved == ((4, 6),)
        assert _votes(logfile.parse("m.yaml", merged.data)) == {"Cat": True}


def test_two_corrections_are_one_entry_only_if_they_void_the_same_entries(tmp_path):
    """The same moderator, in the same second, on two copies: Ann's and Bob's votes in
    either order, then the correction of entry 4, which is Ann's vote on one copy and
    Bob's on the other. On main the corrections counted as one entry: one copy's voided
    vote came back into effect, and which one depended on the order."""
    start_log = _voting(tmp_path)
    at = "2026-01-02T00:00:00Z"
    first = _copy(tmp_path, start_log, "a.yaml", [Vote(0, True), Vote(1, True),
                                                   Correct((4,), "typo")], "Mia", at)
    second = _copy(tmp_path, start_log, "b.yaml", [Vote(1, True), Vote(0, True),
                                                    Correct((4,), "typo")], "Mia", at)
    ids_first, ids_second = (chain.identities(c.entries) for c in (first, second))
    assert ids_first[3] == ids_second[4] and ids_first[4] == ids_second[3]
    assert ids_first[5] != ids_second[5]  # they void different entries
    assert chain.identity(first.entries[5]) == chain.identity(second.entries[5])  # as on main
    for ours, theirs in ((first, second), (second, first)):
        merged = logfile.parse("m.yaml", merge(ours, theirs, where="g.yaml").data)
        assert _votes(merged) == {}  # both voided, as each copy voided one


def test_a_correction_voiding_entries_alike_is_one_entry(tmp_path):
    """A correction moved by an earlier merge and the same correction where it was
    recorded: the entries it voids are the same entries, though numbered otherwise."""
    start_log = _voting(tmp_path)
    log = _copy(tmp_path, start_log, "a.yaml", [Vote(0, True), Vote(1, True),
                                                 Correct((5,), "typo")], "Mia", AT)
    moved = [dict(log.entries[3]), dict(log.entries[4]), {**log.entries[5], "entries": [6]}]
    names = chain.identities(log.entries)
    again = chain.identities([*log.entries[:3], {"kind": "backup", "name": "Quinn"}, *moved])
    assert again[4:] == names[3:]
