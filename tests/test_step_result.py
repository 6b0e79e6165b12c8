"""Issue 45 §3: a recorded step's result comes back from ``record`` as a typed record:
``Recorded.composed`` holds what the caller's ``before_write`` made of the step before a
byte was written (no list filled from a closure), and a refused ``before_write`` leaves
the log byte-for-byte as it was (R-EDIT's promise kept).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from shmod.base.errors import BadInput
from shmod.game.steps import Nominate, Vote
from shmod.log import store

AT = "2026-11-20T10:00:00Z"
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def test_record_returns_what_before_write_composed(tmp_path: Path) -> None:
    path = str(tmp_path / "g.yaml")
    store.new_game(path, PLAYERS, seed="s5", created=AT)
    done = store.record(path, lambda g: Nominate(by=g.table.game.president, chancellor=2), at=AT,
                        before_write=lambda d: (len(d.entries), [type(e).__name__
                                                                 for e in d.public]))
    assert done.composed == (len(done.entries), ["Nominated"])
    assert store.record(path, lambda g: Vote(by=0, vote=True), at=AT).composed is None


def test_a_refusal_in_before_write_records_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "g.yaml")
    store.new_game(path, PLAYERS, seed="s5", created=AT)
    before = Path(path).read_bytes()

    def refuse(done: store.Recorded[object]) -> None:
        raise BadInput("refused by the caller")

    with pytest.raises(BadInput):
        store.record(path, lambda g: Nominate(by=g.table.game.president, chancellor=2), at=AT,
                     before_write=refuse)
    assert Path(path).read_bytes() == before
