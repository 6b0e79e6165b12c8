"""A step of the game as the engine sees it: a :class:`Step`, one record class per kind.

Each class's ``kind`` is the log's word for it; its fields are typed with the game's
vocabulary (:mod:`shmod.game.terms`) and named as the entry's fields are. Player fields
hold seats (indices into the game's players). Reading a YAML entry into a step, and
writing one back, is :mod:`shmod.log.entries`'s: the engine never sees a raw entry. A
forum's own steps (:mod:`shmod.forum.steps`) extend :class:`Step`.
"""
from __future__ import annotations

from typing import ClassVar

from shmod.base.records import Record
from shmod.game.terms import EXECUTE, INVESTIGATE, PEEK, SPECIAL, Policy, Power, VetoAnswer


class Step(Record):
    """A parsed entry; ``kind`` is the log's word for its class."""

    kind: ClassVar[str] = ""


class Act(Step):
    """A player's step: ``by`` is the seat that took it."""

    by: int


class Nominate(Act):
    kind = "nominate"
    chancellor: int


class Vote(Act):
    kind = "vote"
    vote: bool


class Discard(Act):
    kind = "discard"
    policy: Policy


class Enact(Act):
    kind = "enact"
    policy: Policy


class Veto(Act):
    """A veto proposal, answer or secret veto vote (R-VETO)."""

    kind = "veto"
    answer: VetoAnswer


class PowerUse(Act):
    """The President uses ``power`` (R-POWER)."""

    power: ClassVar[Power]


class Investigate(PowerUse):
    kind = power = INVESTIGATE
    target: int


class SpecialElection(PowerUse):
    kind = power = SPECIAL
    target: int


class Peek(PowerUse):
    kind = power = PEEK


class Execute(PowerUse):
    kind = power = EXECUTE
    target: int


class Reshuffle(Step):
    """A new draw pile, top first (R-RESHUFFLE)."""

    kind = "reshuffle"
    deck: tuple[Policy, ...]


#: The step of each power that names a target, by the power (R-POWER).
POWER_STEPS: dict[str, type[Investigate | SpecialElection | Execute]] = {
    INVESTIGATE: Investigate, SPECIAL: SpecialElection, EXECUTE: Execute}
