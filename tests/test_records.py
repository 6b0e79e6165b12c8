"""shmod.base.records: what a dataclass gives, for the records of the engine and the texts."""
from __future__ import annotations

import copy
import pickle

import pytest

from shmod.base.records import FrozenRecordError, Record, field, fields, replace, values


class Event(Record):
    entry: int


class Named(Event):
    name: str
    special: bool = False


class Board(Record, frozen=False):
    players: tuple[str, ...]
    alive: list[bool] = field(default_factory=list)
    phase: str = "nominate"


def test_fields_come_in_order_base_first_positional_or_by_keyword():
    assert fields(Named) == ("entry", "name", "special") == Named.__match_args__
    assert Named(3, "Ann") == Named(entry=3, name="Ann") == Named(3, name="Ann", special=False)
    assert Named(3, "Ann", True).special is True
    assert repr(Named(3, "Ann")) == "Named(entry=3, name='Ann', special=False)"
    assert values(Named(3, "Ann")) == {"entry": 3, "name": "Ann", "special": False}


def test_a_missing_unknown_or_extra_field_is_a_type_error():
    with pytest.raises(TypeError, match="needs its field 'name'"):
        Named(3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no field 'nmae'"):
        Named(3, nmae="Ann")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 3 fields"):
        Named(3, "Ann", True, 4)  # type: ignore[call-arg]


def test_a_field_without_a_default_cannot_follow_one_with():
    with pytest.raises(TypeError, match="follows one with"):
        class Bad(Named):
            late: int


def test_frozen_records_refuse_assignment_and_hash_by_value():
    event = Named(1, "Ann")
    with pytest.raises(FrozenRecordError):
        event.name = "Bob"  # type: ignore[misc]
    with pytest.raises(FrozenRecordError):
        del event.name  # type: ignore[misc]
    assert hash(event) == hash(Named(1, "Ann")) and len({event, Named(1, "Ann")}) == 1
    assert event != Event(1) and Event(1) != Named(1, "Ann")  # equal only within a type
    with pytest.raises(AttributeError):
        event.extra = 1  # type: ignore[attr-defined]  # slots: no other attribute


def test_mutable_records_take_assignment_are_unhashable_and_get_fresh_defaults():
    one, two = Board(("Ann",)), Board(("Bob",))
    one.alive.append(True)
    one.phase = "vote"
    assert two.alive == [] and two.phase == "nominate" and one.phase == "vote"
    with pytest.raises(TypeError):
        hash(one)


def test_replace_copy_deepcopy_and_pickle_make_equal_records():
    event = Named(1, "Ann")
    assert replace(event, special=True) == Named(1, "Ann", True)
    board = Board(("Ann",), [True])
    deep = copy.deepcopy(board)
    assert deep == board and deep.alive is not board.alive
    assert copy.copy(event) == event and pickle.loads(pickle.dumps(event)) == event


def test_match_reads_fields_by_position_and_by_name():
    match Named(2, "Cy"):
        case Named(entry, name=who):
            assert (entry, who) == (2, "Cy")
        case _:
            raise AssertionError("no match")
