"""The forum's house rules beside the game's variants (:mod:`shmod.game.house`): what a
lapsed deadline does (R-LAPSE: ``late_vote``, ``late_nomination``, ``late_choice``), read
with the game's switches from one ``variants`` mapping (docs/variants.md)."""
from __future__ import annotations

from shmod.forum.terms import LATE_VARIANTS, VARIANTS
from shmod.game import house, rules
from shmod.game.rules import Rules

#: Switches added after the log format was fixed: left out of the commitment's bytes at
#: their default, so that the commitments of earlier games still verify.
LATER_VARIANTS = tuple(LATE_VARIANTS)


def parse_variants(raw: object) -> dict[str, str]:
    """Validate a header's ``variants`` (or ``key=value`` strings), the game's switches and
    the forum's, and fill in defaults."""
    return rules.parse_variants(raw, VARIANTS)


def variant_list(game_rules: Rules, variants: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """Every switch in force, the game's then the forum's, then whatever a custom setup
    changed (for posts and the card)."""
    return house.variant_list(game_rules, tuple(
        (key, variants.get(key, values[0])) for key, values in LATE_VARIANTS.items()))
