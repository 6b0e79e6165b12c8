"""The rules in force for one game: roles, deck, board powers and variant switches.

Every constant here is cited by rule id (``shmod rules ID``). A game's :class:`Rules` is built
once from the player count and the header's ``variants`` mapping; the engine reads it
and never looks at raw variant strings.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from shmod.base.errors import BadInput
from shmod.base.records import Record
from shmod.game.terms import (
    EXECUTE,
    FASCIST,
    INVESTIGATE,
    LIBERAL,
    PEEK,
    SPECIAL,
    VARIANTS,
    FirstPresident,
    OnOff,
    Policy,
    Power,
    Term5,
    TrackerReset,
    Veto,
)

#: R-ROLES: (Liberals, Fascists) by player count; Hitler is always one more.
ROLE_COUNTS = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}

#: The Fascist track: the power on slots 1-5 (slot 6 wins), by board (R-TRACK).
BOARDS: dict[str, tuple[Power | None, ...]] = {
    "5-6": (None, None, PEEK, EXECUTE, EXECUTE),
    "7-8": (None, INVESTIGATE, SPECIAL, EXECUTE, EXECUTE),
    "9-10": (INVESTIGATE, INVESTIGATE, SPECIAL, EXECUTE, EXECUTE),
}

V = TypeVar("V", bound=str)


def board_name(players: int) -> str:
    """R-TRACK: the board is chosen by the number of players seated at setup."""
    return "5-6" if players <= 6 else "7-8" if players <= 8 else "9-10"


def parse_variants(raw: object,
                   known: Mapping[str, tuple[str, ...]] = VARIANTS) -> dict[str, str]:
    """Validate a ``variants`` mapping (or ``key=value`` strings) against the switches
    ``known`` (the game's, or a forum's with them) and fill in defaults."""
    given: dict[str, str] = {}
    if raw is None:
        raw = {}
    if isinstance(raw, (list, tuple)):
        for item in raw:
            key, sep, value = str(item).partition("=")
            if not sep:
                raise BadInput(f"variant {item!r} is not of the form name=value")
            given[key.strip()] = value.strip()
    elif isinstance(raw, dict):
        # YAML 1.1 reads a bare on/off as a boolean.
        given = {str(k): {True: "on", False: "off"}.get(v, str(v)) if isinstance(v, bool)
                 else str(v) for k, v in raw.items()}
    else:
        raise BadInput(f"variants must be a mapping, not {type(raw).__name__}")
    out = {key: values[0] for key, values in known.items()}
    for key, value in given.items():
        if key not in known:
            raise BadInput(f"unknown variant {key!r} (known: {', '.join(known)})")
        if value not in known[key]:
            raise BadInput(
                f"variant {key}={value!r} is not one of: {', '.join(known[key])}"
            )
        out[key] = value
    return out


def switch(variants: dict[str, str], key: str, values: tuple[V, ...]) -> V:
    """Switch ``key``'s value in ``variants`` (checked by :func:`parse_variants`; absent:
    its default), as the type of ``values``, the switch's."""
    value = variants.get(key, values[0])
    assert value in values, f"unchecked variant {key}={value!r}"
    return value


class Rules(Record):
    """Everything about a game that is fixed at setup."""

    players: int
    liberals: int
    fascists: int
    powers: tuple[Power | None, ...]
    deck_liberal: int = 6
    deck_fascist: int = 11
    liberal_win: int = 5
    fascist_win: int = 6
    hitler_zone: int = 3
    veto_zone: int = 5
    hitler_knows_fascists: bool = False
    term5: Term5 = "alive"
    veto: Veto = "rulebook"
    tracker_reset: TrackerReset = "enactment"
    chaos_at: int = 3
    liberal_start: int = 0
    fascist_start: int = 0
    rebalanced: OnOff = "off"
    first_president: FirstPresident = "random"
    eva_braun: OnOff = "off"

    @property
    def board(self) -> str:
        return board_name(self.players)

    def power_at(self, fascist_policies: int) -> Power | None:
        """R-POWER: the power on the slot the ``fascist_policies``-th policy covers."""
        if 1 <= fascist_policies <= len(self.powers):
            return self.powers[fascist_policies - 1]
        return None


def parse_policy(value: object) -> Policy:
    """``L``/``F``/``liberal``/``fascist`` in any case to ``L`` or ``F``."""
    text = str(value).strip().lower()
    if text and "liberal".startswith(text):  # l, lib, libe, … liberal
        return LIBERAL
    if text and "fascist".startswith(text):  # f, fas, fasc, … fascist
        return FASCIST
    raise BadInput(f"{value!r} is not a policy (liberal or fascist)")


def parse_cards(value: Any) -> tuple[Policy, ...]:
    """A pile as a list (``[F, L, …]``) or a string (``FLF…``), top first."""
    if isinstance(value, str):
        items: list[Any] = [c for c in value if not c.isspace() and c not in ",[]"]
    elif isinstance(value, list):
        items = value
    else:
        raise BadInput(f"a pile must be a list of L and F, not {shown(value)}")
    if len(items) > 100:
        raise BadInput(f"a pile of {len(items)} policies is too large")
    return tuple(parse_policy(scalar(c, "pile", "card")) for c in items)


def scalar(value: Any, kind: str, key: str) -> Any:
    """``value`` of field ``key`` of a ``kind`` entry, refused unless it is one value."""
    if isinstance(value, (dict, list)) or value is None:
        raise BadInput(f"{kind} entry's {key} must be a single value, not {shown(value)}")
    return value


def shown(value: Any) -> str:
    """``value`` as an error message quotes it: its repr, cut at 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
