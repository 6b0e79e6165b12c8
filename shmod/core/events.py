"""What the core tells: one record type per kind of event, made by the engine and matched
by type in the texts (never by a string key).

A :class:`Public` event is something the whole table may learn (R-THREAD); a
:class:`Secret` goes to one player only (R-PM). ``entry`` is the number of the log entry
that caused it (0 for the setup). Events hold data, never sentences: names as seated when
the event happened, policies, counts, the steps a correction voided. The words are the
texts' (:mod:`shmod.texts`); the core's only words are its refusals
(:mod:`shmod.core.explain`).

``kind`` is each event's name in the audit's JSON and in a PM's heading: stable words,
not read to tell events apart.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from shmod.base.records import Record
from shmod.core.terms import Deal, Party, Phase, Policy, Power, Role, Scope, Team

if TYPE_CHECKING:
    from shmod.core.steps import Step


# -- data the core returns ------------------------------------------------------------


class Win(Record):
    """How the game ended: the winning team, the rule, and what made it end (R-WIN-LIB,
    R-WIN-FAS, R-HITLER-ELECTED, R-EVA-BRAUN, R-MODKILL). ``hitler`` names Hitler where
    the win was about Hitler; ``policies`` counts the track that filled."""

    team: Team
    rule: str
    hitler: str = ""
    policies: int = 0


class Waiting(Record):
    """Whose PM or post the game waits for (the seats), and what the texts need to say it:
    the phase, the President and Chancellor by name, the power held, whether a veto may be
    proposed, the seats' names, and how many could act (living players, or all seated
    before the deal)."""

    phase: Phase
    seats: tuple[int, ...]
    names: tuple[str, ...]
    president: str = ""
    chancellor: str = ""
    power: Power | None = None
    veto: bool = False
    of: int = 0
    win: Win | None = None
    seeded: bool = False  # a reshuffle the seed determines (a cut write), not the moderator's


class Deed(Record):
    """One of a seat's own steps, for a replacement's briefing (R-REPLACE)."""

    round: int
    step: Step
    target: str = ""  # the name of the step's target, as seated then


class Awaited(Record):
    """What a newcomer must do at once (R-REPLACE): the game waits for their seat."""

    phase: Phase
    president: str
    chancellor: str
    power: Power | None


# -- public events --------------------------------------------------------------------


class Public(Record):
    """Something the whole table may learn (R-THREAD)."""

    kind: ClassVar[str] = ""
    entry: int


class Started(Public):
    """The game is set up: the opening post's facts."""

    kind = "start"
    players: tuple[str, ...]
    president: str | None  # None: drawn at the deal (R-DEAL)
    variants: tuple[tuple[str, str], ...]
    commitment: str | None
    deal: Deal
    key: str | None = None  # the moderator's public key (format 2): checkpoints are signed with it


class Dealt(Public):
    """Every word is in: roles and deck dealt from them (R-DEAL)."""

    kind = "dealt"
    words: tuple[tuple[str, str], ...]  # (name, word) in seating order
    president: str


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
    late: tuple[str, ...]  # R-LAPSE: counted as Nein at a deadline
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


class DeadlineSet(Public):
    """R-DEADLINE: set, or cleared (``until`` None)."""

    kind = "deadline"
    until: str | None
    zone: str
    scope: Scope


class Lapsed(Public):
    """R-LAPSE: a deadline passed and the house rules acted."""

    kind = "lapse"
    phase: Phase
    power: Power | None
    late: tuple[str, ...]
    president: str
    chancellor: str
    tracker: int
    deadline: str


class DeadlineSpent(Public):
    """R-LAPSE: the deadline that lapsed decides nothing more; what falls due after it
    waits for a new one."""

    kind = "deadline_spent"


class Renamed(Public):
    kind = "renamed"
    old: str
    new: str


class Replaced(Public):
    kind = "replace"
    seat: int  # 1-based
    old: str
    new: str
    dealt: bool


class Corrected(Public):
    """R-CORRECT: entries voided. ``voided`` are the steps (entry, step) with the players'
    names as they stood (``players``), so the texts can say what each was; ``posted`` the
    entries of them a post had shown; ``waiting`` what the game waits for now."""

    kind = "correction"
    voided: tuple[tuple[int, Step], ...]
    players: tuple[str, ...]
    waiting: Waiting
    forced: bool
    posted: tuple[int, ...]


class Removed(Public):
    """R-MODKILL: the moderator removed a player nobody could replace."""

    kind = "removed"
    name: str
    hitler: bool
    ends_round: bool = False


# -- secrets --------------------------------------------------------------------------


class Secret(Record):
    """A secret for one player only (R-PM)."""

    kind: ClassVar[str] = ""
    entry: int
    to: str


class RoleSent(Secret):
    """R-ROLE-PM: a role and whom it knows (R-KNOW), name -> role."""

    kind = "role"
    role: Role
    knows: tuple[tuple[str, Role], ...]


class Drawn(Secret):
    """The President's three policies (R-DRAW)."""

    kind = "draw"
    cards: tuple[Policy, ...]


class Handed(Secret):
    """The Chancellor's two policies (R-PASS), and whether a veto may be proposed."""

    kind = "hand"
    cards: tuple[Policy, ...]
    veto: bool


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


class RemovedNotice(Secret):
    kind = "removed"
    reason: str


class Retraction(Secret):
    """R-CORRECT, R-MODKILL: a secret sent at ``sent`` no longer holds."""

    kind = "retract"
    what: type[Secret]
    sent: int


class Briefing(Secret):
    """R-REPLACE: a newcomer's role, whom it knows, every PM the seat was sent (by round),
    what the seat did, and what the game waits for from it now."""

    kind = "briefing"
    role: Role
    replacing: str
    seat: int  # 1-based
    knows: tuple[tuple[str, Role], ...]
    history: tuple[tuple[int, Secret], ...]  # (round, the PM)
    did: tuple[Deed, ...]
    round: int
    awaited: Awaited | None
