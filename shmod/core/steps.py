"""One log entry as the engine sees it: a :class:`Step`, one record class per kind.

Each class's ``kind`` is the log's word for it; its fields are typed with the game's
vocabulary (:mod:`shmod.core.terms`) and named as the entry's fields are. Player fields
hold seats (indices into the game's players). Reading a YAML entry into a step, and
writing one back, is :mod:`shmod.log.entries`'s: the engine never sees a raw entry.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from shmod.base.errors import BadInput
from shmod.base.records import Record
from shmod.core.names import tidy
from shmod.core.terms import EXECUTE, INVESTIGATE, PEEK, SPECIAL, Policy, Power, Scope, VetoAnswer


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


class Word(Act):
    """A player's word for the deal (R-DEAL)."""

    kind = "word"
    word: str


class Reshuffle(Step):
    """A new draw pile, top first (R-RESHUFFLE)."""

    kind = "reshuffle"
    deck: tuple[Policy, ...]


class SetDeadline(Step):
    """R-DEADLINE: ``until`` a UTC time, or :data:`shmod.core.deadlines.CLEAR`."""

    kind = "deadline"
    until: str
    zone: str | None = None  # the moderator's time zone
    scope: Scope | None = None  # round (the default) or phase


class Lapse(Step):
    """R-LAPSE: the deadline set by entry ``deadline`` has passed."""

    kind = "lapse"
    deadline: int
    at: str | None  # when it was recorded (the entry's at), after the deadline
    choice: str | None = None  # the random choice the seed gave (late_choice=random)


class Prod(Step):
    """R-STALL: the moderator prodded a player by PM."""

    kind = "prod"
    target: int


class Remove(Step):
    """R-MODKILL: a player nobody can replace leaves the game."""

    kind = "remove"
    target: int
    reason: str


class Backup(Step):
    """R-BACKUP: a backup player joins the list, or leaves it (``drop``)."""

    kind = "backup"
    name: str
    drop: bool = False


class Replace(Step):
    """R-REPLACE: ``name`` takes over the seat ``target``."""

    kind = "replace"
    target: int
    name: str


class Rename(Step):
    """R-RENAME: the name of the player in ``target`` corrected to ``name``."""

    kind = "rename"
    target: int
    name: str


class Correct(Step):
    """R-CORRECT: voids ``entries``; ``force`` voids what players may have seen."""

    kind = "correct"
    entries: tuple[int, ...]
    reason: str
    force: bool = False


class Posted(Step):
    """R-THREAD: a post covered entries up to ``upto``, ending with ``checkpoint``."""

    kind = "posted"
    upto: int
    checkpoint: str | None = None  # the chain head at upto, as posted (R-CHECKPOINT)


class Acknowledge(Step):
    """R-EDIT: ``entries`` were edited by hand on purpose, for ``reason``."""

    kind = "acknowledge"
    entries: tuple[int, ...]
    reason: str


#: The step of each power that names a target, by the power (R-POWER).
POWER_STEPS: dict[str, type[Investigate | SpecialElection | Execute]] = {
    INVESTIGATE: Investigate, SPECIAL: SpecialElection, EXECUTE: Execute}


def seat_number(text: str, count: int) -> int | None:
    """``text`` as a seat number 1..``count`` (R-SEAT), or None when it is not one."""
    if text.isdecimal() and 1 <= int(text) <= count:
        return int(text)
    return None


def folded(text: str) -> str:
    """``text`` as names are matched when typed: case-folded, accents taken off (``Zoë``
    as ``zoe``)."""
    text = text.casefold()
    if text.isascii():
        return text
    import unicodedata

    return "".join(char for char in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(char))


def _words(name: str) -> list[str]:
    """The words of a folded name, and the name itself: ``el guapo``, ``el``, ``guapo``."""
    import re

    return [name, *(word for word in re.split(r"[\W_]+", name) if word)]


class Seating:
    """Looks players up by name (any case, any Unicode form), seat number, or the start of
    their name or of any word of it, accents ignored (``guapo``, ``Zoe`` for ``Zoë``)."""

    def __init__(self, players: tuple[str, ...],
                 replaced: Sequence[tuple[int, str, str, int]] = (),
                 renamed: Sequence[tuple[int, str, str, int]] = ()) -> None:
        self.players = players
        self._exact = {tidy(name).casefold(): seat for seat, name in enumerate(players)}
        #: R-REPLACE: a player who left, by name: (seat, entry of the replacement)
        self._former = {tidy(old).casefold(): (seat, entry)
                        for seat, old, _new, entry in replaced}
        #: R-RENAME: a name corrected: (seat, entry of the correction)
        self._renamed = {tidy(old).casefold(): (seat, entry)
                         for seat, old, _new, entry in renamed}

    def seat(self, value: object, *, prefixes: bool = True) -> int:
        """The seat of ``value``; an unknown or ambiguous name lists the candidates."""
        if isinstance(value, bool) or value is None:
            raise BadInput(f"{value!r} is not a player")
        text = tidy(str(value))
        key = text.casefold()
        if key in self._exact:
            return self._exact[key]
        number = seat_number(text, len(self.players))
        if number is not None:
            return number - 1
        if prefixes and key:
            typed = folded(key)
            hits = [s for s, name in enumerate(self.players) if typed and
                    any(word.startswith(typed) for word in _words(folded(name)))]
            if len(hits) == 1:
                return hits[0]
            if hits:
                names = ", ".join(f"{self.players[s]} (seat {s + 1})" for s in hits)
                raise BadInput(f"{text!r} is ambiguous: it could be {names}; name one in "
                               "full or by seat number")
        if key in self._renamed and key not in self._former:
            seat, entry = self._renamed[key]
            raise BadInput(f"{text} is now called {self.players[seat]} (entry {entry}); name "
                           f"{self.players[seat]} or seat {seat + 1} instead")
        if key in self._former:
            seat, entry = self._former[key]
            raise BadInput(f"{text} was replaced by {self.players[seat]} (entry {entry}); "
                           f"name {self.players[seat]} or seat {seat + 1} instead")
        listing = ", ".join(f"{s + 1}. {n}" for s, n in enumerate(self.players))
        raise BadInput(f"unknown player {text!r} (players: {listing})")


__all__ = [
    "POWER_STEPS",
    "Acknowledge",
    "Act",
    "Backup",
    "Correct",
    "Discard",
    "Enact",
    "Execute",
    "Investigate",
    "Lapse",
    "Nominate",
    "Peek",
    "Posted",
    "PowerUse",
    "Prod",
    "Remove",
    "Rename",
    "Replace",
    "Reshuffle",
    "Seating",
    "SetDeadline",
    "SpecialElection",
    "Step",
    "Veto",
    "Vote",
    "Word",
    "seat_number",
]
