"""The state of a game (the fold of its log entries) and its setup (the parsed header).

Hidden information lives in fixed fields, marked ``# secret`` below, so that
:mod:`shmod.texts.views` can build the public view and each player's view by whitelisting.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

from shmod.base.records import Record, field
from shmod.core.events import Public, Secret, Win
from shmod.core.rules import Rules
from shmod.core.steps import Step
from shmod.core.terms import (
    NOMINATE,
    Deal,
    Phase,
    Policy,
    Power,
    Role,
    Scope,
    Team,
    Then,
)

P = ParamSpec("P")


class Setup(Record):
    """A parsed, checked header."""

    players: tuple[str, ...]
    variants: dict[str, str]
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
    created: str | None = None  # public: when the game was created (the header's, UTC)
    format: int = 2  # the header's ``shmod:``: 1 for a log of an earlier shmod (setup.FORMATS)
    moderator_key: str | None = None  # public (format 2): the key checkpoints are signed with
    signing_key: str | None = None  # secret, never published: its private half (R-CHECKPOINT)


class Deadline(Record):
    """A deadline in force: until when (UTC), shown in which zone, for a round or a phase
    (``key``: what must stay the same for it to hold), set by which entry."""

    until: str
    zone: str
    scope: Scope
    key: tuple[object, ...]
    entry: int


class State(Record, frozen=False):
    """A game in progress. Seats are indices into ``players``."""

    rules: Rules
    players: tuple[str, ...]
    roles: tuple[Role, ...]  # secret
    seed: str | None  # secret
    first: int | None
    alive: list[bool] = field(default_factory=list)
    phase: Phase = NOMINATE
    president: int = 0
    chancellor: int | None = None
    anchor: int = 0
    special: bool = False
    term_president: int | None = None
    term_chancellor: int | None = None
    tracker: int = 0
    liberal: int = 0
    fascist: int = 0
    draw: list[Policy] = field(default_factory=list)  # secret (its length is public)
    discard: list[Policy] = field(default_factory=list)  # secret (its length is public)
    votes: dict[int, bool] = field(default_factory=dict)  # secret until all are in
    hand: list[Policy] = field(default_factory=list)  # secret
    chosen: Policy | None = None  # secret: the policy picked before a secret veto vote
    veto_votes: dict[int, bool] = field(default_factory=dict)  # secret
    veto_refused: bool = False
    power: Power | None = None
    investigated: set[int] = field(default_factory=set)
    not_hitler: set[int] = field(default_factory=set)
    resume: Then | None = None  # what a reshuffle the game waits for goes on with
    reshuffles: int = 0
    round: int = 1
    entries: int = 0
    win: Win | None = None
    posts: list[int] = field(default_factory=list)  # the ``upto`` of each ``posted`` entry
    words: dict[int, str] = field(default_factory=dict)  # R-DEAL: each seat's word (public)
    dealt: int | None = None  # R-DEAL: the entry whose word completed the deal
    public: list[Public] = field(default_factory=list)
    secrets: list[Secret] = field(default_factory=list)
    # Forum moderation (shmod.core.forum): what a correction replays from, deadline, seat changes.
    origin: Setup | None = None  # secret: the Setup the game started from
    history: list[tuple[int, Step]] = field(default_factory=list)  # (entry, Step) in effect
    deadline: Deadline | None = None  # the one set last (R-DEADLINE)
    zone: str | None = None  # the game's time zone: the header's, or the last deadline's
    late: set[int] = field(default_factory=set)  # R-LAPSE: votes counted as Nein at a deadline
    lapsed: dict[int, int] = field(default_factory=dict)  # R-LAPSE: deadline entry -> its lapse
    clock: str | None = None  # the time of the entry being applied (its at), given by the log
    times: dict[int, str] = field(default_factory=dict)  # entry -> at, for steps in history
    decision: tuple[object, ...] = ()  # R-LAPSE: the decision awaited (deadlines.decision)
    due: str | None = None  # R-LAPSE: when it fell due (the clock of the entry that made it due)
    prods: list[tuple[int, int]] = field(default_factory=list)  # R-STALL: (entry, seat) sent
    backups: list[str] = field(default_factory=list)  # R-BACKUP: in the order they take seats
    removed: dict[int, int] = field(default_factory=dict)  # R-MODKILL: seat -> entry
    replaced: list[tuple[int, str, str, int]] = field(default_factory=list)  # seat, old, new, entry
    renamed: list[tuple[int, str, str, int]] = field(default_factory=list)  # R-RENAME: the same
    corrections: list[tuple[int, tuple[int, ...], str]] = field(default_factory=list)
    # R-EDIT: (entry, entries edited by hand, reason) of each acknowledgement
    acknowledged: list[tuple[int, tuple[int, ...], str]] = field(default_factory=list)

    def say(self, event: Callable[Concatenate[int, P], Public], *args: P.args,
            **data: P.kwargs) -> None:
        """Something the whole table learns, caused by the entry being applied (R-THREAD):
        ``state.say(Nominated, president=…)``."""
        self.public.append(event(self.entries, *args, **data))

    def tell(self, seat: int | None, secret: Callable[Concatenate[int, str, P], Secret],
             *args: P.args, **data: P.kwargs) -> None:
        """A secret for the player in ``seat`` only, caused by the entry being applied
        (R-PM): ``state.tell(seat, Drawn, cards=…)``."""
        assert seat is not None
        self.secrets.append(secret(self.entries, self.name(seat), *args, **data))

    @property
    def winner(self) -> Team | None:
        """The winning team, once the game is over."""
        return None if self.win is None else self.win.team

    # Small derived facts used by the engine and the views.
    def name(self, seat: int | None) -> str:
        return "" if seat is None else self.players[seat]

    @property
    def living(self) -> list[int]:
        return [seat for seat, up in enumerate(self.alive) if up]

    def chancellor_seat(self) -> int:
        """The Chancellor's seat, in a phase that has a Chancellor (from the vote to the
        veto)."""
        assert self.chancellor is not None, f"no Chancellor in phase {self.phase}"
        return self.chancellor

    @property
    def hitler(self) -> int:
        return self.roles.index("hitler")

    def next_living(self, seat: int) -> int:
        """R-SEAT: the next living player after ``seat``, wrapping around."""
        count = len(self.players)
        for step in range(1, count + 1):
            nxt = (seat + step) % count
            if self.alive[nxt]:
                return nxt
        raise AssertionError("no living player")

    def term_limited(self) -> dict[int, str]:
        """R-TERM / R-TERM5: who cannot be nominated Chancellor now, and why."""
        out: dict[int, str] = {}
        if self.term_president is not None and not self.five_exception():
            out[self.term_president] = "last elected President"
        if self.term_chancellor is not None:
            out[self.term_chancellor] = "last elected Chancellor"
        return out

    def five_exception(self) -> bool:
        """R-TERM5: five or fewer alive (variant ``term5=seated``: a five-player game)."""
        if self.rules.term5 == "seated":
            return self.rules.players == 5
        return len(self.living) <= 5

    @property
    def veto_unlocked(self) -> bool:
        """R-VETO: five Fascist policies on the board."""
        return self.fascist >= self.rules.veto_zone
