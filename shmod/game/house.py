"""House rules: secret-hitler.io's rebalanced setups and custom games (docs/variants.md).

:func:`adjust` turns the default :class:`~shmod.game.rules.Rules` for a player count into the
rules a header's ``variants`` switches and ``custom`` mapping ask for, refusing any
setup that could not be played with a clear reason.
"""
from __future__ import annotations

from typing import Any

from shmod.base.errors import BadInput
from shmod.base.records import replace
from shmod.game.rules import BOARDS, ROLE_COUNTS, Rules, board_name, switch
from shmod.game.terms import (
    EXECUTE,
    FIRST_PRESIDENT_VALUES,
    INVESTIGATE,
    ON_OFF,
    PEEK,
    SPECIAL,
    TERM5_VALUES,
    TRACKER_RESET_VALUES,
    VARIANTS,
    VETO_VALUES,
    Power,
)

#: secret-hitler.io's rebalanced setups: players -> (Fascist policies enacted at the
#: start, Fascist policies in the deck).
REBALANCED = {6: (1, 10), 7: (0, 10), 9: (0, 10)}
CUSTOM_KEYS = ("deck", "tracks", "powers", "hitler_zone", "veto_zone", "hitler_knows_fascists")
POWER_WORDS: dict[str, Power | None] = {
    "none": None, "-": None, "investigate": INVESTIGATE, "special_election": SPECIAL,
    "special": SPECIAL, "peek": PEEK, "execute": EXECUTE, "execution": EXECUTE,
}
MAX_DECK = 40


def adjust(rules: Rules, variants: dict[str, str], custom: object = None) -> Rules:
    """Apply the house-rule switches and a ``custom`` mapping to ``rules``."""
    rules = replace(rules, rebalanced=switch(variants, "rebalanced", ON_OFF),
                    first_president=switch(variants, "first_president", FIRST_PRESIDENT_VALUES),
                    eva_braun=switch(variants, "eva_braun", ON_OFF))
    if rules.rebalanced == "on":
        if rules.players not in REBALANCED:
            raise BadInput(f"rebalanced=on exists only for 6, 7 or 9 players, not {rules.players}")
        if custom is not None:
            raise BadInput("rebalanced=on and a custom setup cannot be combined: put the "
                           "deck and tracks in the custom setup")
        start, fascist = REBALANCED[rules.players]
        rules = replace(rules, fascist_start=start, deck_fascist=fascist)
    if custom is not None:
        rules = _custom(rules, custom)
    return rules


def _custom(rules: Rules, raw: object) -> Rules:
    """A custom game: deck, starting tracks, powers, Hitler and veto zones, R-KNOW."""
    if not isinstance(raw, dict):
        raise BadInput("custom must be a mapping (deck, tracks, powers, hitler_zone, "
                       "veto_zone, hitler_knows_fascists)")
    unknown = [str(k) for k in raw if k not in CUSTOM_KEYS]
    if unknown:
        raise BadInput(f"unknown custom field(s) {', '.join(unknown)} "
                       f"(known: {', '.join(CUSTOM_KEYS)})")
    changes: dict[str, Any] = {}
    deck = _pair(raw.get("deck"), "deck", (rules.deck_liberal, rules.deck_fascist), MAX_DECK)
    changes["deck_liberal"], changes["deck_fascist"] = deck
    tracks = _pair(raw.get("tracks"), "tracks", (rules.liberal_start, rules.fascist_start),
                   max(rules.liberal_win, rules.fascist_win))
    if tracks[0] >= rules.liberal_win or tracks[1] >= rules.fascist_win:
        raise BadInput(f"custom tracks must start below the wins ({rules.liberal_win} "
                       f"Liberal, {rules.fascist_win} Fascist)")
    changes["liberal_start"], changes["fascist_start"] = tracks
    if "powers" in raw:
        changes["powers"] = _powers(raw["powers"], rules.fascist_win - 1)
    if "hitler_zone" in raw:
        changes["hitler_zone"] = _number(raw["hitler_zone"], "hitler_zone", 1, rules.fascist_win)
    if "veto_zone" in raw:
        value = raw["veto_zone"]
        changes["veto_zone"] = (rules.fascist_win if value in (None, "none") else
                                _number(value, "veto_zone", 1, rules.fascist_win - 1))
    if "hitler_knows_fascists" in raw:
        value = raw["hitler_knows_fascists"]
        if not isinstance(value, bool):
            raise BadInput(f"custom hitler_knows_fascists must be true or false, not {value!r}")
        changes["hitler_knows_fascists"] = value
    out = replace(rules, **changes)
    _check_deck(out)
    return out


def _check_deck(rules: Rules) -> None:
    """R-RESHUFFLE needs three policies off the board at every point before a win."""
    left = (max(0, rules.deck_liberal - (rules.liberal_win - 1 - rules.liberal_start))
            + max(0, rules.deck_fascist - (rules.fascist_win - 1 - rules.fascist_start)))
    if left < 3:
        raise BadInput(f"custom deck of {rules.deck_liberal} Liberal and {rules.deck_fascist} "
                       f"Fascist policies cannot fill a draw of three once the tracks "
                       f"fill up: only {left} would be left off the board")


def _pair(raw: object, key: str, default: tuple[int, int], most: int) -> tuple[int, int]:
    if raw is None:
        return default
    if not isinstance(raw, dict) or set(raw) - {"liberal", "fascist"}:
        raise BadInput(f"custom {key} must be a mapping with liberal and fascist counts")
    return (_number(raw.get("liberal", default[0]), f"{key}.liberal", 0, most),
            _number(raw.get("fascist", default[1]), f"{key}.fascist", 0, most))


def _number(value: object, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInput(f"custom {key} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _powers(raw: object, slots: int) -> tuple[Power | None, ...]:
    if not isinstance(raw, list) or len(raw) != slots:
        raise BadInput(f"custom powers must list the power on each of the {slots} Fascist "
                       "slots before the win (none for no power)")
    out = []
    for slot, item in enumerate(raw, 1):
        word = "none" if item is None else str(item).strip().lower().replace(" ", "_")
        if word not in POWER_WORDS:
            raise BadInput(f"custom powers: slot {slot}'s {item!r} is not a power (one of "
                           "none, investigate, special_election, peek, execute)")
        out.append(POWER_WORDS[word])
    return tuple(out)



def variant_list(rules: Rules, more: tuple[tuple[str, str], ...] = ()
                 ) -> tuple[tuple[str, str], ...]:
    """Every switch in force, then ``more`` (a forum's own switches), then whatever a
    custom setup changed (for posts and the card): the deck and the policies enacted at
    the start as Liberal+Fascist counts."""
    out = [(key, str(getattr(rules, key))) for key in VARIANTS]
    out += more
    if (rules.deck_liberal, rules.deck_fascist) != (6, 11):
        out.append(("deck", f"{rules.deck_liberal}+{rules.deck_fascist}"))
    if rules.liberal_start or rules.fascist_start:
        out.append(("start", f"{rules.liberal_start}+{rules.fascist_start}"))
    if rules.hitler_knows_fascists != (rules.players <= 6):
        out.append(("hitler_knows_fascists", "yes" if rules.hitler_knows_fascists else "no"))
    return tuple(out)


def rules_for(players: int, variants: dict[str, str], custom: object = None) -> Rules:
    """The rules for ``players`` seated (R-COUNT, R-ROLES, R-KNOW, R-DECK, R-TRACK),
    with the house rules applied (:func:`adjust`)."""
    if players not in ROLE_COUNTS:
        raise BadInput(f"R-COUNT: Secret Hitler takes 5 to 10 players, not {players}")
    liberals, fascists = ROLE_COUNTS[players]
    return adjust(Rules(
        players=players,
        liberals=liberals,
        fascists=fascists,
        powers=BOARDS[board_name(players)],
        hitler_knows_fascists=players <= 6,
        term5=switch(variants, "term5", TERM5_VALUES),
        veto=switch(variants, "veto", VETO_VALUES),
        tracker_reset=switch(variants, "tracker_reset", TRACKER_RESET_VALUES),
    ), variants, custom)
