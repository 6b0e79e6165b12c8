"""What the forum tells: its own events beside the game's (:mod:`shmod.game.events`), in
the same record and matched by type in the texts the same way.

They extend the game's :class:`~shmod.game.events.Public` (the thread, R-THREAD) and
:class:`~shmod.game.events.Secret` (a PM to one player, R-PM): the opening post's facts,
the deal from the words, deadlines and lapses, seats changing hands, corrections,
removals, the game's moderators and the players' claims; and the data a replacement's
briefing holds.
"""
from __future__ import annotations

from shmod.base.records import Record
from shmod.forum.terms import ClaimAbout, Deal, Scope, SeedSource
from shmod.game.events import Public, Secret, Waiting
from shmod.game.steps import Step
from shmod.game.terms import Party, Phase, Policy, Power, Role

# -- data the forum returns -------------------------------------------------------------


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


# -- public events ----------------------------------------------------------------------


class Started(Public):
    """The game is set up: the opening post's facts."""

    kind = "start"
    players: tuple[str, ...]
    president: str | None  # None: drawn at the deal (R-DEAL)
    variants: tuple[tuple[str, str], ...]
    commitment: str | None
    deal: Deal
    key: str | None = None  # the moderator's public key (format 2): checkpoints are signed with it
    seed_source: SeedSource | None = None  # who chose the seed (format 5, R-COMMIT)


class Dealt(Public):
    """Every word is in: roles and deck dealt from them (R-DEAL)."""

    kind = "dealt"
    words: tuple[tuple[str, str], ...]  # (name, word) in seating order
    president: str


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


class ModeratorsChanged(Public):
    """R-MODERATORS: ``name`` joined the game's moderators, or left them (``dropped``);
    ``moderators`` lists them now."""

    kind = "moderators"
    name: str
    dropped: bool
    moderators: tuple[str, ...]


class HandedOver(Public):
    """R-HANDOVER: moderation passed from ``old`` to ``new``; ``back``: ``new`` took it
    back (and recorded it), so has nothing to check."""

    kind = "handover"
    old: str
    new: str
    back: bool = False


class Claimed(Public):
    """R-CLAIM: ``name`` (as seated) said in the thread what their session, power or role
    was (:class:`shmod.forum.steps.Claim`'s fields, the target by name). Public: what a
    player said; whether it was true is known only to the moderator until the game ends.
    ``late``: recorded once the game was over, so no post shows it (history, the reveal
    and the replay do)."""

    kind = "claim"
    name: str
    about: ClaimAbout
    round: int = 0
    cards: tuple[Policy, ...] = ()
    passed: tuple[Policy, ...] = ()
    target: str = ""
    party: Party | None = None
    role: Role | None = None
    late: bool = False


# -- secrets ----------------------------------------------------------------------------


class RemovedNotice(Secret):
    """R-MODKILL: the PM to the player removed; ``backups``: a backup player was waiting
    (R-BACKUP), and the moderator removed the seat all the same."""

    kind = "removed"
    reason: str
    backups: bool = False


class LapsePlayed(Secret):
    """R-LAPSE (``late_choice=random``): what a lapse played for the player whose choice it
    was, so that they can say what happened to their hand: the President's discard drawn
    (``cards`` the three drawn, ``chosen`` the one discarded), the Chancellor's enactment
    (the two, the one enacted), a power's target drawn (``target``), or, told to the
    Chancellor, the veto the President did not answer refused (``cards`` the two to enact
    from)."""

    kind = "lapse"
    phase: Phase
    cards: tuple[Policy, ...] = ()
    chosen: Policy | None = None
    power: Power | None = None
    target: str = ""
    president: str = ""


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
