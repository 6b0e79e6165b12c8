"""What the game tells: one record type per kind of event, made by the engine and matched
by type in the texts (never by a string key).

A :class:`Public` event is something the whole table may learn; a :class:`Secret` goes to
one player only. ``entry`` is the number of the entry that caused it (0 for the setup).
Events hold data, never sentences: names as seated when the event happened, policies,
counts. The words are the texts' (:mod:`shmod.texts`); the game's only words are its
refusals (:mod:`shmod.game.explain`). A forum's events (:mod:`shmod.forum.events`) extend
:class:`Public` and :class:`Secret` and go into the same record.

``kind`` is each event's name in the audit's JSON and in a PM's heading: stable words,
not read to tell events apart.
"""
from __future__ import annotations

from typing import ClassVar

from shmod.base.records import Record
from shmod.game.terms import Party, Phase, Policy, Power, Role, Team

# -- data the game returns ------------------------------------------------------------


class Win(Record):
    """How the game ended: the winning team, the rule, and what made it end (R-WIN-LIB,
    R-WIN-FAS, R-HITLER-ELECTED, R-EVA-BRAUN, or a rule of a layer above when Hitler left
    the game: :func:`shmod.game.hooks.hitler_left`). ``hitler`` names Hitler where the win
    was about Hitler; ``policies`` counts the track that filled."""

    team: Team
    rule: str
    hitler: str = ""
    policies: int = 0


class Waiting(Record):
    """Whose step the game waits for (the seats), and what the texts need to say it: the
    phase, the President and Chancellor by name, the power held, whether a veto may be
    proposed, the seats' names, and how many could act (the living players voting, or, for
    a layer that deals late, every seat)."""

    phase: Phase
    seats: tuple[int, ...]
    names: tuple[str, ...]
    president: str = ""
    chancellor: str = ""
    power: Power | None = None
    veto: bool = False
    of: int = 0
    win: Win | None = None
    seeded: bool = False  # a reshuffle the seed determines, not one made by hand


# -- public events --------------------------------------------------------------------


class Public(Record):
    """Something the whole table may learn."""

    kind: ClassVar[str] = ""
    entry: int


class RoundBegan(Public):
    kind = "round"
    president: str
    round: int
    special: bool = False


class Nominated(Public):
    kind = "nominate"
    president: str
    chancellor: str
    special: bool


class Tallied(Public):
    """The votes are counted (R-MAJORITY); ``votes`` in seating order, None for the dead."""

    kind = "tally"
    president: str
    chancellor: str
    votes: tuple[tuple[str, bool | None], ...]
    ja: int
    nein: int
    alive: int
    needed: int
    elected: bool
    tracker: int
    eva_braun: bool = False
    not_hitler: bool = False


class Enacted(Public):
    kind = "enact"
    policy: Policy
    chaos: bool
    president: str  # "" when chaos enacted it
    chancellor: str
    liberal: int
    fascist: int


class Chaos(Public):
    kind = "chaos"
    policy: Policy


class VetoProposed(Public):
    kind = "veto_proposed"
    chancellor: str
    president: str


class VetoAnswered(Public):
    kind = "veto_answered"
    president: str
    accepted: bool


class VetoVoted(Public):
    """Both secret veto votes are in (``veto=secret-vote``): only the result is public."""

    kind = "veto_result"
    vetoed: bool


class Vetoed(Public):
    kind = "vetoed"
    tracker: int


class Reshuffled(Public):
    kind = "reshuffle"
    draw: int


class PowerGranted(Public):
    kind = "power"
    power: Power
    president: str


class PowerSkipped(Public):
    """R-NO-TARGET: a power nobody can be the target of."""

    kind = "power_skipped"
    power: Power
    president: str


class Investigated(Public):
    kind = "investigate"
    president: str
    target: str


class SpecialElectionCalled(Public):
    kind = "special_election"
    president: str
    target: str


class Peeked(Public):
    kind = "peek"
    president: str


class Executed(Public):
    kind = "execute"
    president: str
    target: str
    hitler: bool


class GameOver(Public):
    kind = "game_over"
    win: Win


# -- secrets --------------------------------------------------------------------------


class Secret(Record):
    """A secret for one player only."""

    kind: ClassVar[str] = ""
    entry: int
    to: str


class RoleSent(Secret):
    """A role and whom it knows (R-KNOW), name -> role."""

    kind = "role"
    role: Role
    knows: tuple[tuple[str, Role], ...]


class Drawn(Secret):
    """The President's three policies (R-DRAW)."""

    kind = "draw"
    cards: tuple[Policy, ...]


class Handed(Secret):
    """The Chancellor's two policies (R-PASS), whether a veto may be proposed, and how many
    Fascist policies the board holds (public: the veto's PM says it)."""

    kind = "hand"
    cards: tuple[Policy, ...]
    veto: bool
    fascist: int = 0


class VetoRequested(Secret):
    kind = "veto_request"
    chancellor: str


class VetoVoteAsked(Secret):
    """``veto=secret-vote``: the two policies; the Chancellor's also names the one chosen."""

    kind = "veto_vote"
    cards: tuple[Policy, ...]
    chosen: Policy | None = None


class InvestigationResult(Secret):
    kind = "investigation"
    target: str
    party: Party


class PeekResult(Secret):
    kind = "peek"
    cards: tuple[Policy, ...]


class ExecutedNotice(Secret):
    kind = "executed"
    president: str
