"""The game's vocabulary as types: phases, policies, roles, powers, teams, variant values.

Each is a :data:`~typing.Literal` type, so a type checker refuses a misspelt phase or a
policy compared with a power (mypy's strict equality), and each has its constants, typed
with the one value they hold. The strings are the log's own words: a step or a header is
read into these in one place (:mod:`shmod.log.entries`) and written back unchanged.
"""
from __future__ import annotations

from typing import Final, Literal, get_args

#: What the game waits for.
Phase = Literal["deal", "nominate", "vote", "discard", "enact", "veto_answer", "veto_vote",
                "power", "reshuffle", "over"]
DEAL: Final = "deal"  # the roles and the deck not dealt yet: a game dealt late (hooks.deal)
NOMINATE: Final = "nominate"
VOTE: Final = "vote"
DISCARD: Final = "discard"
ENACT: Final = "enact"
VETO_ANSWER: Final = "veto_answer"
VETO_VOTE: Final = "veto_vote"
POWER: Final = "power"
RESHUFFLE: Final = "reshuffle"
OVER: Final = "over"
#: Every phase of a game in progress.
PLAYING: Final[tuple[Phase, ...]] = (DEAL, NOMINATE, VOTE, DISCARD, ENACT, VETO_ANSWER,
                                     VETO_VOTE, POWER, RESHUFFLE)

#: A policy card (R-DECK): as the log writes it.
Policy = Literal["L", "F"]
LIBERAL: Final = "L"
FASCIST: Final = "F"
#: A party, as an investigation tells it (R-INVESTIGATE) and a policy is named.
Party = Literal["Liberal", "Fascist"]
POLICY_NAMES: Final[dict[Policy, Party]] = {LIBERAL: "Liberal", FASCIST: "Fascist"}

#: A secret role (R-ROLES).
Role = Literal["liberal", "fascist", "hitler"]
ROLES: Final[tuple[Role, ...]] = ("liberal", "fascist", "hitler")

#: An elected office, as the term limits name it (R-TERM).
Office = Literal["president", "chancellor"]

#: A winning team (R-WIN-LIB, R-WIN-FAS).
Team = Literal["Liberals", "Fascists"]
LIBERALS: Final = "Liberals"
FASCISTS: Final = "Fascists"

#: A presidential power on the Fascist track (R-POWER).
Power = Literal["investigate", "special_election", "peek", "execute"]
INVESTIGATE: Final = "investigate"
SPECIAL: Final = "special_election"
PEEK: Final = "peek"
EXECUTE: Final = "execute"
POWERS: Final[tuple[Power, ...]] = (INVESTIGATE, SPECIAL, PEEK, EXECUTE)
POWER_NAMES: Final[dict[Power, str]] = {
    INVESTIGATE: "Investigate Loyalty",
    SPECIAL: "Call Special Election",
    PEEK: "Policy Peek",
    EXECUTE: "Execution",
}

#: What the game goes on with after a reshuffle it had to wait for (R-RESHUFFLE): the next
#: round, the chaos policy, or the power the enacted policy granted.
Then = Literal["round", "chaos", "investigate", "special_election", "peek", "execute"]

#: A veto step (R-VETO): the Chancellor proposes, the President accepts or refuses; under
#: ``veto=secret-vote`` both vote ja or nein.
VetoAnswer = Literal["propose", "accept", "refuse", "ja", "nein"]
VETO_ANSWERS: Final[tuple[VetoAnswer, ...]] = get_args(VetoAnswer)

# Variant values (the named variants of the rules, docs/variants.md); the first of each is
# the official game's.
Term5 = Literal["alive", "seated"]
Veto = Literal["rulebook", "secret-vote"]
TrackerReset = Literal["enactment", "election"]
OnOff = Literal["off", "on"]
FirstPresident = Literal["random", "seat1"]
TERM5_VALUES: Final[tuple[Term5, ...]] = get_args(Term5)
VETO_VALUES: Final[tuple[Veto, ...]] = get_args(Veto)
TRACKER_RESET_VALUES: Final[tuple[TrackerReset, ...]] = get_args(TrackerReset)
ON_OFF: Final[tuple[OnOff, ...]] = get_args(OnOff)
FIRST_PRESIDENT_VALUES: Final[tuple[FirstPresident, ...]] = get_args(FirstPresident)

#: The game's variant switches -> their values, the default first (a forum's own switches
#: follow them: shmod.forum.terms.VARIANTS).
VARIANTS: Final[dict[str, tuple[str, ...]]] = {
    "term5": TERM5_VALUES,
    "veto": VETO_VALUES,
    "tracker_reset": TRACKER_RESET_VALUES,
    "rebalanced": ON_OFF,
    "first_president": FIRST_PRESIDENT_VALUES,
    "eva_braun": ON_OFF,
}
