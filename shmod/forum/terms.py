"""The forum's vocabulary as types, beside the game's (:mod:`shmod.game.terms`): how long a
deadline holds, who deals, what a lapsed deadline does, and every variant switch a
header may hold, the game's first."""
from __future__ import annotations

from typing import Final, Literal, get_args

from shmod.game.terms import VARIANTS as GAME_VARIANTS

#: How long a deadline holds (R-DEADLINE).
Scope = Literal["round", "phase"]
SCOPES: Final[tuple[Scope, ...]] = get_args(Scope)

#: Who dealt: the moderator from a secret seed, or the seed and the players' words (R-DEAL).
Deal = Literal["moderator", "players"]

#: Who chose the secret seed (R-COMMIT, a header field of log format 5): shmod drew it, the
#: moderator supplied it (``shmod new --seed``, checked against the recipes shmod knows),
#: or supplied it and accepted it unchecked (``--guessable``).
SeedSource = Literal["drawn", "supplied", "guessable"]
SEED_SOURCES: Final[tuple[SeedSource, ...]] = get_args(SeedSource)

#: What a player's claim in the thread is about (R-CLAIM): the President's draw or the
#: Chancellor's hand in a legislative session, an investigation's result, a peek's cards,
#: their own role.
ClaimAbout = Literal["president", "chancellor", "investigation", "peek", "role"]
CLAIM_ABOUT: Final[tuple[ClaimAbout, ...]] = get_args(ClaimAbout)

# R-LAPSE: what a lapsed deadline does (the official game has no clock: wait, the first).
LateVote = Literal["wait", "nein"]
LateNomination = Literal["wait", "fail"]
LateChoice = Literal["wait", "random"]
LATE_VOTE_VALUES: Final[tuple[LateVote, ...]] = get_args(LateVote)
LATE_NOMINATION_VALUES: Final[tuple[LateNomination, ...]] = get_args(LateNomination)
LATE_CHOICE_VALUES: Final[tuple[LateChoice, ...]] = get_args(LateChoice)
#: The forum's switches -> their values, the default first.
LATE_VARIANTS: Final[dict[str, tuple[str, ...]]] = {
    "late_vote": LATE_VOTE_VALUES,
    "late_nomination": LATE_NOMINATION_VALUES,
    "late_choice": LATE_CHOICE_VALUES,
}
#: Every switch a header may hold -> its values, the default first: the game's, then the
#: forum's (docs/variants.md).
VARIANTS: Final[dict[str, tuple[str, ...]]] = {**GAME_VARIANTS, **LATE_VARIANTS}
