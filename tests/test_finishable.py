"""Issue 26 §3: no single input makes a game unfinishable or slow.

The lists a command adds to are capped at what a forum game needs (R-BACKUP: 50 backup
players; names at 40 characters, R-SEAT), a list over the cap is refused before the log
is read, and the log's size limit leaves room for a whole game: a 10-player game with the
longest names, the fullest backup list and every aid (a deadline each round, a prod to
everyone awaited before every step, every post) played to its longest end (every policy
after two failed elections, every veto accepted) stays well inside it, and audits VALID.
"""
from __future__ import annotations

import string

import pytest
from safety_helpers import run_main

from shmod.base.errors import LogError
from shmod.forum.absence import MAX_BACKUPS
from shmod.forum.setup import MAX_NAME
from shmod.forum.steps import Backup, Prod, SetDeadline
from shmod.forum.table import Table as State
from shmod.forum.turns import legal_steps, waiting_for
from shmod.game.steps import Step, Veto, Vote
from shmod.game.terms import (
    DISCARD,
    ENACT,
    FASCIST,
    LIBERAL,
    NOMINATE,
    OVER,
    POWER,
    VETO_ANSWER,
    VOTE,
)
from shmod.log import logfile, store

AT = "2026-01-01T00:00:00Z"


def longest(prefix: str, number: int) -> str:
    """The ``number``-th name of the longest length a name may have (R-SEAT)."""
    letters = string.ascii_uppercase
    return (prefix + letters[number // 26] + letters[number % 26]).ljust(MAX_NAME, "x")


PLAYERS = [longest("Player", n) for n in range(10)]
BACKUPS = [longest("Backup", n) for n in range(MAX_BACKUPS)]


def test_the_backup_list_is_capped_and_refused_before_the_log_is_read(tmp_path, monkeypatch,
                                                                      capsys):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS[:5], seed="s", created=AT)
    data = path.read_bytes()
    read = []
    monkeypatch.setattr(logfile, "read", lambda *a, **k: read.append(a) or 1 / 0)
    names = [f"N{n}" for n in range(16_000)]
    assert run_main(monkeypatch, "backup", *names, "-g", str(path)) == 1
    err = capsys.readouterr().err
    assert err == "Error: R-BACKUP: 16000 names: the backup list holds at most 50 (shmod rules R-BACKUP)\n"
    assert read == [] and path.read_bytes() == data  # no name looked at, the log not read
    monkeypatch.undo()
    assert run_main(monkeypatch, "backup", *BACKUPS, "-g", str(path)) == 0
    assert store.load(str(path)).table.backups == BACKUPS
    capsys.readouterr()
    data = path.read_bytes()
    assert run_main(monkeypatch, "backup", "Newbie", "-g", str(path)) == 1
    assert "R-BACKUP: the backup list holds at most 50 players, and it is full; drop one " \
        "first (shmod backup --drop NAME)" in capsys.readouterr().err
    assert path.read_bytes() == data
    assert run_main(monkeypatch, "backup", "--drop", BACKUPS[0], "-g", str(path)) == 0
    assert run_main(monkeypatch, "backup", "Newbie", "-g", str(path)) == 0


def test_a_hand_written_51st_backup_is_refused_at_its_line(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS[:5], seed="s", created=AT)
    store.record(str(path), lambda g: [Backup(name) for name in BACKUPS], at=AT, post=False)
    with path.open("a") as log:
        log.write("- {kind: backup, name: Newbie}\n")
    with pytest.raises(LogError, match="R-BACKUP: the backup list holds at most 50") as caught:
        store.load(str(path))
    assert caught.value.line == len(path.read_text().splitlines())


def _choice(state: State) -> list[Step]:
    """The step (or the votes) that makes the game last longest: two failed elections
    before every government, every policy kept off the winning slot until the last, every
    veto proposed and accepted, Hitler never nominated nor executed."""
    steps = legal_steps(state)
    hitler = state.game.roles.index("hitler")
    if state.game.phase == NOMINATE:
        return [next(s for s in steps if getattr(s, "chancellor", None) != hitler)]
    if state.game.phase == VOTE:
        return [Vote(seat, state.game.tracker >= 2) for seat in waiting_for(state).seats]
    if state.game.phase in (DISCARD, ENACT):
        vetoes = [s for s in steps if isinstance(s, Veto)]
        if vetoes:
            return vetoes[:1]
        want = LIBERAL if state.game.liberal < 4 else FASCIST if state.game.fascist < 5 else None
        cards = [s for s in steps if getattr(s, "policy", None) is not None]
        keep = [s for s in cards if (s.policy != want) == (state.game.phase == DISCARD)]  # type: ignore[attr-defined]
        return [(keep or cards)[0]]
    if state.game.phase == VETO_ANSWER:
        return [next(s for s in steps if getattr(s, "answer", "") == "accept")]
    if state.game.phase == POWER:
        return [next(s for s in steps if getattr(s, "target", None) != hitler)]
    return steps[:1]


@pytest.mark.slow
def test_a_whole_longest_game_fits_after_the_largest_lists_and_names(tmp_path, monkeypatch,
                                                                     capsys, report_counts):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="0123456789abcdef" * 2, created=AT)
    store.record(str(path), lambda g: [Backup(name) for name in BACKUPS], at=AT, post=False)
    lists = path.stat().st_size
    rounds: set[int] = set()
    vetoes = 0
    while True:
        state = store.load(str(path), cache="off").table
        if state.game.phase == OVER:
            break
        if state.game.round not in rounds:  # a deadline for every round
            rounds.add(state.game.round)
            store.record(str(path), lambda g: SetDeadline("2026-01-03T00:00:00Z", zone="UTC"),
                         at=AT)
        prods = [Prod(seat) for seat in waiting_for(state).seats]  # everyone awaited, prodded
        chosen = _choice(state)
        vetoes += any(isinstance(s, Veto) for s in chosen)
        store.record(str(path), lambda g, steps=[*prods, *chosen]: steps, at=AT)
    end = store.load(str(path), cache="off")
    size = path.stat().st_size
    assert end.table.game.liberal + end.table.game.fascist == 10  # every policy the game can hold
    assert len(rounds) >= 25 and vetoes >= 1
    assert size < logfile.MAX_BYTES * 0.6, size  # room to spare, after the largest lists
    assert run_main(monkeypatch, "audit", str(path)) == 0
    assert "VALID" in capsys.readouterr().out
    report_counts("longest game", f"10 players named with {MAX_NAME} characters, {MAX_BACKUPS} "
                  f"backups ({lists} bytes), {len(rounds)} rounds, {vetoes} vetoes, a deadline "
                  f"every round and a prod before every step: {len(end.log.entries)} entries, "
                  f"{size} of the {logfile.MAX_BYTES} bytes a log may hold")
