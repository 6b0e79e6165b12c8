"""Issue 37, R-MERGE: two moderators' copies of one log joined in-process
(:func:`shmod.log.merge.merge`), over random pairs of divergent continuations recorded
with :func:`shmod.log.store.record` (posts made as the command line makes them) from random
prefixes of random legal games.

- A pair from the commuting set (docs/comoderators.md: votes of different players in the
  ballot in progress, prods of players the other copy does not act for, backups of
  different names, and a step that posts, here a deadline (`--post`) or the last vote's tally,
  on one copy at most) always merges.
- Any pair merges or refuses. Merged: the log replays with no chain note and audits
  VALID; the shared prefix and the base copy's entries stand byte for byte; the other
  copy's entries follow in their order, each once (a vote recorded alike on both counts
  once); no entry of either copy is missing. Refused: :class:`Diverged`, naming where each
  copy goes on, both files unchanged.

``SHMOD_MERGE_CASES=N`` draws more pairs (CI: 24), ``SHMOD_MERGE_SEED`` another seed.
"""
from __future__ import annotations

import os
import random
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from shmod.audit.log_audit import audit_log
from shmod.audit.random_games import random_game
from shmod.base.errors import Diverged, ShmodError
from shmod.forum import engine
from shmod.forum.setup import parse_setup, start
from shmod.forum.steps import Backup, Correct, Prod, SetDeadline
from shmod.forum.table import Table
from shmod.forum.turns import legal_steps, waiting_for
from shmod.game.legal import voters
from shmod.game.steps import Step, Vote
from shmod.game.terms import OVER, VOTE
from shmod.log import chain, logfile, outfiles, seen, store
from shmod.log.merge import merge

CASES = int(os.environ.get("SHMOD_MERGE_CASES", "24"))
SEED = int(os.environ.get("SHMOD_MERGE_SEED", "37"))
AT, LATER = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
DEADLINE = SetDeadline(until="2026-01-04T00:00:00Z", zone="UTC")
NEWCOMERS = ["Quinn", "Ravi", "Sage", "Tove", "Umar", "Vera"]
SEEN = {"commuting merged": 0, "other merged": 0, "other refused": 0}

Make = Callable[[Table], Step]


def prefix(rng: random.Random, tmp: Path, *, voting: bool) -> tuple[Path, Table]:
    """A random game's log up to a random entry (posted as shmod would), as two moderators
    Mia and Ned run it; with ``voting``, a ballot with at least two votes still to come."""
    while True:
        sim = random_game(5 + rng.randrange(6), rng)
        state = start(parse_setup(sim.header))
        points = []
        for index, step in enumerate(sim.steps):
            if state.game.phase != OVER and (not voting or (
                    state.game.phase == VOTE and len(voters(state.game)) >= 2)):
                points.append(index)
            engine.apply(state, step)
        if points:
            break
    cut = rng.choice(points)
    header = {**sim.header, "moderators": ["Mia", "Ned"]}
    path = tmp / "prefix.yaml"
    path.write_text(store.log_text(header, sim.steps[:cut], at=AT))
    try:
        store.record(str(path), lambda g: None, at=AT, moderator="Mia")  # the news posted
    except ShmodError:
        pass  # nothing to post
    return path, store.load(str(path)).table


def commuting(rng: random.Random, state: Table) -> tuple[list[Make], list[Make]]:
    """Two continuations from the commuting set."""
    pending = voters(state.game)
    rng.shuffle(pending)
    split = rng.randrange(len(pending) + 1)
    mine, theirs = pending[:split], pending[split:]
    if len(mine) + len(theirs) == len(pending) and mine and theirs and rng.random() < 0.5:
        theirs = theirs[:-1]  # sometimes the ballot stays open
    names = rng.sample(NEWCOMERS, 2)
    sides: list[list[Make]] = []
    for own, other, name in ((mine, theirs, names[0]), (theirs, mine, names[1])):
        steps: list[Make] = [_vote(seat, rng.random() < 0.6) for seat in own]
        idle = [s for s in pending if s not in other and s not in own]
        steps += [_prod(seat) for seat in rng.sample(idle, min(len(idle), rng.randrange(2)))]
        if rng.random() < 0.4:
            steps.append(lambda table, name=name: Backup(name))
        rng.shuffle(steps)
        sides.append(steps)
    alone = len(mine) == len(pending) or len(theirs) == len(pending)  # its tally is a post
    if rng.random() < 0.5 and not alone:
        sides[rng.randrange(2)].insert(0, lambda table: DEADLINE)  # one copy posts
    return sides[0], sides[1]


def arbitrary(rng: random.Random) -> list[Make]:
    """A continuation of one to three steps of any kind, chosen as it is recorded."""
    kinds = ["legal", "legal", "legal", "prod", "backup", "deadline", "correct"]
    return [_any(rng, rng.choice(kinds)) for _ in range(1 + rng.randrange(3))]


def _vote(seat: int, ja: bool) -> Make:
    return lambda table: Vote(seat, ja)


def _prod(seat: int) -> Make:
    return lambda table: Prod(seat)


def _any(rng: random.Random, kind: str) -> Make:
    choice = rng.random()

    def make(table: Table) -> Step:
        if kind == "prod" and waiting_for(table).seats:
            seats = waiting_for(table).seats
            return Prod(seats[int(choice * len(seats))])
        if kind == "backup":
            return Backup(NEWCOMERS[int(choice * len(NEWCOMERS))])
        if kind == "deadline":
            return DEADLINE
        if kind == "correct" and table.history:
            return Correct((table.history[-1][0],), "typo")
        options = legal_steps(table)
        return options[int(choice * len(options))]

    return make


def play(path: Path, steps: list[Make], moderator: str) -> None:
    """Record each step as the command line would (a refused one is skipped)."""
    for make in steps:
        try:
            store.record(str(path), lambda g, make=make: make(g.table), at=LATER,
                         moderator=moderator, asked=True)  # a deadline: shmod deadline --post
        except ShmodError:
            continue


def _rounds(log: logfile.LogFile) -> list[tuple[dict[str, object], int]]:
    """Each entry with the round it was recorded in."""
    rounds = [1]
    store.replay(log, watch=lambda number, step, table: rounds.append(table.game.round))
    return list(zip(log.entries, rounds))


def _act(raw: dict[str, object], turn: int) -> tuple[object, ...] | None:
    if raw.get("kind") == "vote":
        return (raw["by"], raw["vote"], turn)
    return (raw["by"], raw["word"]) if raw.get("kind") == "word" else None


def _content(raw: dict[str, object]) -> dict[str, object]:
    """An entry without its hash and the entry numbers a merge rewrites."""
    return {k: v for k, v in raw.items() if k != "hash" and k not in chain.NUMBERED}


def check(ours: Path, theirs: Path, common: int) -> str:
    """Merge ``theirs`` into ``ours`` and check what came out; the outcome."""
    before = ours.read_bytes(), theirs.read_bytes()
    mine, other = logfile.read(str(ours)), logfile.read(str(theirs))
    try:
        merged = merge(mine, other, where="g.yaml")
    except Diverged as refused:
        assert (ours.read_bytes(), theirs.read_bytes()) == before
        said = str(refused)
        assert "R-MERGE" in said and f"entry {common + 1}" in said, said
        return "refused"
    assert (ours.read_bytes(), theirs.read_bytes()) == before  # a merge writes nothing
    log = logfile.parse("merged.yaml", merged.data)
    replayed = store.replay(log)
    assert replayed.chain == [], replayed.chain
    report = audit_log(log)
    assert report.valid, [p.message for p in report.problems]
    base, moved = (mine, other) if merged.base == "yours" else (other, mine)
    assert log.entries[:len(base.entries)] == base.entries  # the base stands as it was
    added = [_content(raw) for raw in log.entries[len(base.entries):]]
    # a player's vote (in the same round) or word the base recorded alike counts once
    alike = {_act(raw, turn) for raw, turn in _rounds(base)[common:] if _act(raw, turn)}
    contents = [_content(r) for r in base.entries[common:]]
    expected = []
    # posts of the moved copy, when both copies posted: each withdrawn if it reached the
    # thread, else dropped, and their deliveries with them (R-MERGE)
    posts = [n for n, raw in enumerate(moved.entries, 1) if raw["kind"] == "posted"]
    raced = {f"post {n}" for n, at in enumerate(posts, 1) if at > common}
    for raw, turn in _rounds(moved)[common:]:
        if raw["kind"] == "posted" or (raw["kind"] == "delivered" and raw["of"] in raced):
            continue
        if _content(raw) in contents:
            contents.remove(_content(raw))
        elif _act(raw, turn) not in alike:
            expected.append(_content(raw))
    assert sorted([post for post, _, _ in merged.withdrawn] + list(merged.dropped)) == \
        sorted(int(name.split()[1]) for name in raced)
    # the moved entries follow in their order, each once; a reshuffle the seed made due may
    # come with one (R-RESHUFFLE)
    assert [c for c in added if c["kind"] not in ("reshuffle", "withdrawn")] == \
        [c for c in expected if c["kind"] != "reshuffle"]
    return "merged"


def _pairs() -> list[tuple[int, bool]]:
    return [(number, number % 2 == 0) for number in range(CASES)]


@pytest.mark.parametrize(("number", "commute"), _pairs())
def test_a_pair_of_continuations_merges_or_refuses_and_never_loses_a_step(tmp_path, number,
                                                                           commute):
    rng = random.Random(SEED * 1000 + number)
    start_log, state = prefix(rng, tmp_path, voting=commute)
    common = len(logfile.read(str(start_log)).entries)
    mine, theirs = commuting(rng, state) if commute else (arbitrary(rng), arbitrary(rng))
    ours, other = tmp_path / "ours.yaml", tmp_path / "theirs.yaml"
    for path, steps, moderator in ((ours, mine, "Mia"), (other, theirs, "Ned")):
        path.write_bytes(start_log.read_bytes())
        play(path, steps, moderator)
    outcome = check(ours, other, common)
    if commute:
        assert outcome == "merged", "a pair from the commuting set was refused"
        SEEN["commuting merged"] += 1
    else:
        SEEN[f"other {outcome}"] += 1
    again = check(other, ours, common)  # the other way round
    assert again == "merged" or not commute


def test_merge_counts(report_counts):
    report_counts("merges", f"{CASES} random pairs of continuations: " + ", ".join(
        f"{n} {k}" for k, n in SEEN.items()))


# -- each kind of merge, one by one --------------------------------------------------

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def _voting(tmp: Path) -> Path:
    """A five-player game of Mia and Ned's, its first ballot open (Ann nominated Bob)."""
    from shmod.game.steps import Nominate

    path = tmp / "start.yaml"
    store.new_game(str(path), NAMES, seed="5" * 32, first="Ann", created=AT,
                   moderators_listed=["Mia", "Ned"], moderator="Mia")
    store.record(str(path), lambda g: Nominate(0, 1), at=AT, moderator="Mia")
    return path


def _copies(tmp: Path, start_log: Path, mine: list[Step], theirs: list[Step],
            who: tuple[str, str] = ("Mia", "Ned")) -> tuple[Path, Path]:
    ours, other = tmp / "ours.yaml", tmp / "theirs.yaml"
    for path, steps, moderator in ((ours, mine, who[0]), (other, theirs, who[1])):
        path.write_bytes(start_log.read_bytes())
        seen.forget(str(path))  # a fresh copy: what was written to the old one is let go
        for step in steps:
            store.record(str(path), lambda g, step=step: step, at=LATER, moderator=moderator,
                         asked=isinstance(step, SetDeadline))  # shmod deadline --post
    return ours, other


def _merge(ours: Path, theirs: Path):  # type: ignore[no-untyped-def]
    return merge(logfile.read(str(ours)), logfile.read(str(theirs)), where="g.yaml")


def test_votes_of_different_players_merge_and_the_last_one_owes_the_tally_and_a_pm(tmp_path):
    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [Vote(0, True), Vote(1, True)],
                           [Vote(2, True), Vote(3, False), Vote(4, True)])
    merged = _merge(ours, theirs)
    assert merged.how == "merged" and merged.base == "yours"
    assert [old for old, _ in merged.moved] == [4, 5, 6]
    assert [new for _, new in merged.moved] == [6, 7, 8]
    # Eve's vote, last in, elects the government: the tally is news, the draw a new PM
    assert merged.news and merged.pms == (8,)
    assert "from entry 8: in the outbox (shmod outbox)" in merged.said()
    assert "news for the thread: shmod send makes the post" in merged.said()
    log = logfile.parse("m.yaml", merged.data)
    assert [e.get("mod") for e in log.entries[-5:]] == ["Mia", "Mia", "Ned", "Ned", "Ned"]
    assert audit_log(log).valid


def test_a_vote_recorded_alike_on_both_copies_counts_once(tmp_path):
    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [Vote(0, True)], [Vote(0, True), Vote(2, False)])
    merged = _merge(ours, theirs)
    assert merged.kept == ((4, 4),) and [old for old, _ in merged.moved] == [5]
    votes = [e for e in logfile.parse("m", merged.data).entries if e["kind"] == "vote"]
    assert [(v["by"], v["vote"]) for v in votes] == [("Ann", "ja"), ("Cat", "nein")]


def test_the_same_vote_with_different_values_is_refused_naming_both(tmp_path):
    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [Vote(2, True)], [Vote(2, False)])
    with pytest.raises(Diverged) as refused:
        _merge(ours, theirs)
    said = str(refused.value)
    assert "recorded on both copies with different values" in said
    assert "entry 4 (vote Cat ja, recorded by Mia at 2026-01-02T00:00:00Z)" in said
    assert "entry 4 (vote Cat nein, recorded by Ned at 2026-01-02T00:00:00Z)" in said


def test_both_copies_posting_with_neither_post_delivered_drops_one_and_keeps_its_steps(tmp_path):
    """Posts that never reached the thread: the copy recorded first stays, the other's post
    is dropped and its steps applied after (a race of delivered posts: test_post_race.py)."""
    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [DEADLINE], [Backup("Quinn"), DEADLINE])
    merged = _merge(ours, theirs)
    assert merged.dropped == (3,) and not merged.withdrawn
    log = logfile.parse("m.yaml", merged.data)
    kinds = [raw["kind"] for raw in log.entries]
    assert kinds.count("posted") == 3 and kinds.count("deadline") == 2 and "backup" in kinds
    assert audit_log(log).valid


def test_the_copy_that_posted_is_the_base_and_a_step_that_no_longer_applies_refuses(tmp_path):
    """Ned prods Cat while Mia records Cat's vote: either copy may be the base, and the
    prod goes first. Once Mia's copy also posts (Cat's vote completes the ballot), it is the
    base, and Ned's prod to a player who owes nothing refuses the merge (R-STALL)."""
    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [Vote(2, True)], [Prod(2)])
    merged = _merge(ours, theirs)
    assert merged.base == "theirs" and merged.moved == ((4, 5),)
    votes = [Vote(0, True), Vote(1, True), Vote(2, True), Vote(3, True), Vote(4, True)]
    ours, theirs = _copies(tmp_path, start_log, votes, [Prod(2)])
    with pytest.raises(Diverged) as refused:
        _merge(ours, theirs)
    said = str(refused.value)
    assert "entry 4 (prod Cat, recorded by Ned" in said and "no longer applies" in said
    assert "R-STALL" in said


def test_a_correction_of_a_moved_entry_is_renumbered(tmp_path):
    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [DEADLINE],
                           [Vote(0, False), Correct((4,), "Ann wrote ja"), Vote(0, True)])
    merged = _merge(ours, theirs)  # ours posted: theirs moves after it
    log = logfile.parse("m.yaml", merged.data)
    assert merged.moved == ((4, 6), (5, 7), (6, 8))
    assert log.entries[6]["kind"] == "correct" and log.entries[6]["entries"] == [6]
    assert audit_log(log).valid


def test_a_step_of_a_seat_that_changed_hands_on_the_other_copy_is_refused(tmp_path):
    from shmod.forum.steps import Replace

    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [Replace(2, "Yul")], [Vote(2, True)])
    with pytest.raises(Diverged, match="is Cat's, whose seat is Yul's on the other copy"):
        _merge(ours, theirs)


def test_after_a_hand_over_the_outgoing_moderators_steps_no_longer_apply(tmp_path):
    from shmod.forum.steps import Handover

    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [Handover("Ned")], [Vote(1, True)],
                           who=("Mia", "Mia"))
    with pytest.raises(Diverged, match="R-HANDOVER: moderation passed to Ned"):
        _merge(ours, theirs)


def test_copies_of_another_game_or_a_published_copy_are_refused(tmp_path):
    start_log = _voting(tmp_path)
    other = tmp_path / "other.yaml"
    store.new_game(str(other), NAMES, seed="6" * 32, first="Ann", created=AT)
    with pytest.raises(Diverged, match="not one game: their headers differ"):
        _merge(start_log, other)
    from shmod.log.publish import published_text

    public = tmp_path / "public.yaml"
    public.write_bytes(published_text(store.load(str(start_log))))
    with pytest.raises(Diverged, match="published copy, without the signing key"):
        _merge(start_log, public)


def test_one_copy_with_nothing_new_is_a_fast_forward_either_way(tmp_path):
    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [], [Vote(0, True)])
    assert _merge(ours, theirs).how == "forward" and _merge(ours, theirs).base == "theirs"
    assert _merge(ours, theirs).data == theirs.read_bytes()
    assert _merge(theirs, ours).how == "nothing" and _merge(theirs, ours).base == "yours"
    assert _merge(theirs, ours).data == theirs.read_bytes()


def test_the_driver_writes_the_merged_log_whole_or_not_at_all(tmp_path, monkeypatch, run):
    """git's driver puts the merged log in OURS through a private temporary file renamed
    over it: a write that fails half-way (a full disk) leaves OURS as it was and no
    temporary file behind; a write that goes through leaves the whole merge, mode 0600."""
    import errno

    start_log = _voting(tmp_path)
    ours, theirs = _copies(tmp_path, start_log, [Vote(0, True)], [Vote(1, True)])
    held = ours.read_bytes()
    real = outfiles.write_all

    def half(fd: int, data: bytes) -> None:
        real(fd, data[:len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outfiles, "write_all", half)
    code, _, err = run("merge-driver", str(start_log), str(ours), str(theirs), "g.yaml")
    assert code == 2 and "No space left on device" in err and "left as it was" in err
    assert ours.read_bytes() == held
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".shmod-new-")]
    monkeypatch.setattr(outfiles, "write_all", real)
    code, _, err = run("merge-driver", str(start_log), str(ours), str(theirs), "g.yaml")
    assert code == 0 and "1 entry of theirs applied after yours" in err
    merged = logfile.read(str(ours))
    assert merged.data.startswith(held) and len(merged.entries) == 5
    assert stat.S_IMODE(ours.stat().st_mode) == 0o600


def test_a_moved_vote_of_a_round_the_other_copy_ended_is_refused(tmp_path):
    """Mia's copy: Cat sends no vote by the deadline, which counts it Nein (late_vote=nein);
    the election fails and Bob nominates Cat in round 2. Ned's copy: Cat's vote of round 1,
    recorded late. The ballot that vote was cast in is over on Mia's copy: it must not
    count in round 2's ballot, which is open when it is applied after her entries."""
    from shmod.forum.steps import Lapse
    from shmod.game.steps import Nominate

    start_log = tmp_path / "start.yaml"
    store.new_game(str(start_log), NAMES, seed="5" * 32, first="Ann", created=AT,
                   moderators_listed=["Mia", "Ned"], moderator="Mia",
                   variants=["late_vote=nein"])
    for step in (Nominate(0, 1), SetDeadline(until="2026-01-01T12:00:00Z", zone="UTC")):
        store.record(str(start_log), lambda g, step=step: step, at=AT, moderator="Mia")
    deadline = len(logfile.read(str(start_log)).entries)
    late = "2026-01-01T13:00:00Z"
    ended = [Vote(0, False), Vote(1, False), Vote(3, False), Vote(4, False)]
    ours, theirs = tmp_path / "ours.yaml", tmp_path / "theirs.yaml"
    for path in (ours, theirs):
        path.write_bytes(start_log.read_bytes())
        seen.forget(str(path))
    for step in ended:
        store.record(str(ours), lambda g, step=step: step, at=AT, moderator="Mia")
    store.record(str(ours), lambda g: Lapse(deadline=deadline, at=late), at=late, moderator="Mia")
    store.record(str(ours), lambda g: Nominate(1, 2), at=late, moderator="Mia")
    assert store.load(str(ours)).table.game.round == 2
    store.record(str(theirs), lambda g: Vote(2, True), at=LATER, moderator="Ned")
    for one, other in ((ours, theirs), (theirs, ours)):
        with pytest.raises(Diverged) as refused:
            _merge(one, other)
        said = str(refused.value)
        assert "vote Cat ja, recorded by Ned" in said and "a step of round 1" in said, said
        assert "round 2 there" in said
