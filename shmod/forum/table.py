"""The forum's table: the game being played (:class:`shmod.game.state.State`) and what the
forum keeps beside it: the header it started from, the steps in effect and their times,
the clock, absent players, seats that changed hands, corrections, posts, hand edits, the
game's moderators and the players' claims.

Hidden information lives in fixed fields, the game's and the ones marked ``# secret``
below, so that :mod:`shmod.texts.views` can build every view by whitelisting. The forum
changes the game only through the game's moves and hooks (:mod:`shmod.game.engine`,
:mod:`shmod.game.hooks`).
"""
from __future__ import annotations

from typing import Any

from shmod.base.records import Record, field
from shmod.forum.log_formats import CURRENT, LogFormat
from shmod.forum.terms import Deal, Scope, SeedSource
from shmod.game.events import Public, Secret
from shmod.game.rules import Rules
from shmod.game.state import State
from shmod.game.steps import Step
from shmod.game.terms import Policy, Role


class Setup(Record):
    """A parsed, checked header: the game's setup and the forum's."""

    players: tuple[str, ...]
    variants: dict[str, str]  # every switch, the game's and the forum's (forum.terms.VARIANTS)
    rules: Rules
    first: int | None  # None: drawn at the deal from the players' words (R-DEAL)
    seed: str | None
    salt: str | None
    roles: tuple[Role, ...]  # empty until the deal in a game dealt from the players' words
    deck: tuple[Policy, ...]
    custom: dict[str, Any] | None = None
    commitment: str | None = None  # public: posted at the start, checked by the audit
    deal: Deal = "moderator"  # "players": dealt from the seed and the players' words (R-DEAL)
    zone: str | None = None  # public: the game's time zone for deadlines (R-DEADLINE)
    forum: str | None = None  # public: the forum engine posts are written for (docs/posts.md)
    language: str | None = None  # public: the language players read (docs/languages.md)
    created: str | None = None  # public: when the game was created (the header's, UTC)
    format: LogFormat = CURRENT  # the header's ``shmod:``, its log format (forum.log_formats)
    moderator_key: str | None = None  # public (signed formats): the key checkpoints are signed with
    signing_key: str | None = None  # secret, never published: its private half (R-CHECKPOINT)
    moderators: tuple[str, ...] = ()  # public: the game's moderators at the start (R-MODERATORS)
    seed_source: SeedSource | None = None  # public, committed (format 5): who chose the seed
    #: public, committed (format 5): the moderator chose the first President (R-FIRST);
    #: else the seed draws it, and a header that disagrees is refused
    first_chosen: bool = False
    #: a published log of a game dealt from the players' words: the roles its words dealt,
    #: added by ``shmod publish`` for anyone to check the deal against (R-DEAL)
    published_roles: tuple[Role, ...] = ()


class Deadline(Record):
    """A deadline in force: until when (UTC), shown in which zone, for a round or a phase
    (``key``: what must stay the same for it to hold), set by which entry."""

    until: str
    zone: str
    scope: Scope
    key: tuple[object, ...]
    entry: int


class Draw(Record):
    """A random lapse choice as it was drawn (R-LAPSE), for the audit to show: the lapse's
    entry, the label, each option as (its key in the draw, what it records), the choice."""

    entry: int
    label: str
    options: tuple[tuple[str, str], ...]
    choice: str


class Delivery(Record):
    """An item of the outbox given to a reader (R-PM, R-MISSENT): the ``delivered`` entry
    that says so (``entry``), when (``at``) and by which moderator (``by``, None in a game
    with one); the item: the entry that caused it (``of``), its addressee, what it is and
    which of that kind (``n``, 1 first); ``wrong``: whom it reached instead (R-MISSENT)."""

    entry: int
    of: int
    to: str
    what: str
    n: int = 1
    wrong: str | None = None
    at: str | None = None
    by: str | None = None


class ClaimFact(Record):
    """What the forum knows of a claim in effect (R-CLAIM): the seat that made it, the
    entries it is about (a correction that voids one of them voids the claim, R-CORRECT),
    and whether it matches what was dealt (secret until the game is over)."""

    seat: int
    about: tuple[int, ...]
    true: bool  # secret


class Table(Record, frozen=False):
    """A game on a forum: the game, and the forum's record around it."""

    game: State  # the game (shmod.game): its own fields, secret ones marked there
    setup: Setup  # secret: the header the game started from (what a correction replays from)
    history: list[tuple[int, Step]] = field(default_factory=list)  # (entry, Step) in effect
    deadline: Deadline | None = None  # the one set last (R-DEADLINE)
    zone: str | None = None  # the game's time zone: the header's, or the last deadline's
    lapsed: dict[int, int] = field(default_factory=dict)  # R-LAPSE: deadline entry -> its lapse
    clock: str | None = None  # the time of the entry being applied (its at), given by the log
    times: dict[int, str] = field(default_factory=dict)  # entry -> at, for steps in history
    decision: tuple[object, ...] = ()  # R-LAPSE: the decision awaited (deadlines.decision)
    due: str | None = None  # R-LAPSE: when it fell due (the clock of the entry that made it due)
    words: dict[int, str] = field(default_factory=dict)  # R-DEAL: each seat's word (public)
    dealt: int | None = None  # R-DEAL: the entry whose word completed the deal
    prods: list[tuple[int, int]] = field(default_factory=list)  # R-STALL: (entry, seat) made
    # R-PM, R-MISSENT (shmod.forum.deliveries): every delivery recorded; the entry the outbox
    # began at (the first ``delivered`` entry or post marked ``outbox``; None before); and
    # in a log written before it, the last post before it: everything caused up to that
    # entry counts as delivered (an earlier shmod printed it all at once).
    deliveries: list[Delivery] = field(default_factory=list)
    outbox_from: int | None = None
    legacy_until: int = -1
    backups: list[str] = field(default_factory=list)  # R-BACKUP: in the order they take seats
    removed: dict[int, int] = field(default_factory=dict)  # R-MODKILL: seat -> entry
    replaced: list[tuple[int, str, str, int]] = field(default_factory=list)  # seat, old, new, entry
    renamed: list[tuple[int, str, str, int]] = field(default_factory=list)  # R-RENAME: the same
    corrections: list[tuple[int, tuple[int, ...], str]] = field(default_factory=list)
    # R-EDIT: (entry, entries edited by hand, reason) of each acknowledgement
    acknowledged: list[tuple[int, tuple[int, ...], str]] = field(default_factory=list)
    posts: list[int] = field(default_factory=list)  # the ``upto`` of each ``posted`` entry
    short_posts: list[int] = field(default_factory=list)  # R-DEADLINE: a deadline alone (by number)
    # R-MERGE: each post withdrawn after a race, (its ``withdrawn`` entry, the post's
    # number, its checkpoint as the thread shows it)
    withdrawn: list[tuple[int, int, str]] = field(default_factory=list)
    draws: list[Draw] = field(default_factory=list)  # R-LAPSE: each random choice in effect
    claims: dict[int, ClaimFact] = field(default_factory=dict)  # secret: R-CLAIM, by entry
    # R-MODERATORS, R-HANDOVER: the game's moderators now, whom moderation was last handed
    # over to (entry, name, by whom), whether they took it over, the last change of
    # moderators a post is still to announce (entry, by whom), and the moderator who
    # recorded the entry being applied (its ``mod``, given by the log like ``clock``).
    moderators: list[str] = field(default_factory=list)
    handover: tuple[int, str, str] | None = None
    taken: bool = False
    announced: tuple[int, str] | None = None
    recorder: str | None = None

    # The record is the game's: its entries, and what the thread and each player were told
    # (the game's events and the forum's, in the order they happened).
    @property
    def entries(self) -> int:
        return self.game.entries

    @property
    def public(self) -> list[Public]:
        return self.game.public

    @property
    def secrets(self) -> list[Secret]:
        return self.game.secrets
