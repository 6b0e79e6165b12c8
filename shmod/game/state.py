"""The state of a game: the fold of its steps, and the record of what the table was told.

Hidden information lives in fixed fields, marked ``# secret`` below, so that
:mod:`shmod.texts.views` can build the public view and each player's view by whitelisting.
The state knows nothing of a forum: a forum's table (:class:`shmod.forum.table.Table`)
holds one and keeps its own fields beside it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Concatenate, ParamSpec

from shmod.base.records import Record, field
from shmod.game.events import Public, Secret, Win
from shmod.game.rules import Rules
from shmod.game.terms import NOMINATE, Office, Phase, Policy, Power, Role, Team, Then

P = ParamSpec("P")


class State(Record, frozen=False):
    """A game in progress. Seats are indices into ``players``.

    ``entries`` counts the entries of the record the game is played from, and every event
    is stamped with the entry that caused it: the game's own steps, and whatever a layer
    above records between them (it counts those through :mod:`shmod.game.hooks`)."""

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
    public: list[Public] = field(default_factory=list)
    secrets: list[Secret] = field(default_factory=list)

    def say(self, event: Callable[Concatenate[int, P], Public], *args: P.args,
            **data: P.kwargs) -> None:
        """Something the whole table learns, caused by the entry being applied:
        ``state.say(Nominated, president=…)``."""
        self.public.append(event(self.entries, *args, **data))

    def tell(self, seat: int | None, secret: Callable[Concatenate[int, str, P], Secret],
             *args: P.args, **data: P.kwargs) -> None:
        """A secret for the player in ``seat`` only, caused by the entry being applied:
        ``state.tell(seat, Drawn, cards=…)``."""
        assert seat is not None
        self.secrets.append(secret(self.entries, self.name(seat), *args, **data))

    def tell_name(self, name: str, secret: Callable[Concatenate[int, str, P], Secret],
                  *args: P.args, **data: P.kwargs) -> None:
        """A secret for the player called ``name`` (one who left a seat, or takes one),
        caused by the entry being applied."""
        self.secrets.append(secret(self.entries, name, *args, **data))

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

    def term_limited(self) -> dict[int, Office]:
        """R-TERM / R-TERM5: who cannot be nominated Chancellor now, and why: the office
        they were last elected to."""
        out: dict[int, Office] = {}
        if self.term_president is not None and not self.five_exception():
            out[self.term_president] = "president"
        if self.term_chancellor is not None:
            out[self.term_chancellor] = "chancellor"
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
