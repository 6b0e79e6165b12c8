"""What each audience may see (R-THREAD, R-PM): the table's view and each player's.

Renderers receive these views, never a :class:`~shmod.core.state.State`. Each is built by
copying whitelisted public fields; the secret fields of the state (roles, piles, votes
before the count, hands) are not read here except where R-THREAD makes them public.
"""
from __future__ import annotations

from shmod.base.records import Record
from shmod.core import absence, deadlines, engine, forum, house
from shmod.core.events import Public, Secret
from shmod.core.explain import waiting_text, win_text
from shmod.core.legal import limits_set_aside, term_limits
from shmod.core.setup import knows
from shmod.core.state import State
from shmod.core.terms import DEAL, ENACT, POWER_NAMES, SPECIAL, VOTE, Phase, Power


class PublicView(Record):
    """Everything the thread may know."""

    players: tuple[str, ...]
    alive: tuple[bool, ...]
    board: str
    powers: tuple[Power | None, ...]
    liberal_win: int
    fascist_win: int
    veto_zone: int
    hitler_zone: int
    chaos_at: int
    variants: tuple[tuple[str, str], ...]
    liberal: int
    fascist: int
    tracker: int
    draw_size: int
    discard_size: int
    phase: Phase
    round: int
    president: str
    chancellor: str | None
    special: bool
    term_limited: tuple[tuple[str, str], ...]
    limits_set_aside: bool  # R-NO-NOMINEE: nobody is eligible, so nobody is term-limited now
    not_hitler: tuple[str, ...]
    investigated: tuple[str, ...]
    voted: tuple[str, ...]  # who has voted (a vote) or posted a word (before the deal)
    waiting_on: tuple[str, ...]
    waiting: str
    power: Power | None
    next_president: str | None
    winner: str | None
    win_reason: str | None
    history: tuple[Public, ...]
    deadline: tuple[str, str, str] | None = None  # (until UTC, the game's zone, round/phase)
    zone: str = "UTC"  # the game's time zone
    prods: tuple[tuple[str, int], ...] = ()  # how many prods each player was sent (R-STALL)
    backups: tuple[str, ...] = ()  # R-BACKUP, in order
    removed: tuple[str, ...] = ()  # R-MODKILL: seats the moderator removed (dead, not executed)
    custom: bool = False  # a custom board and deck (docs/variants.md)
    replacing: tuple[tuple[str, str], ...] = ()  # (current name, the player replaced)
    veto_open: bool = False  # the Chancellor may propose a veto now (R-VETO)

    @property
    def living(self) -> int:
        return sum(self.alive)

    def power_name(self) -> str | None:
        return POWER_NAMES[self.power] if self.power else None


class PlayerView(Record):
    """One player's view: the public one plus exactly what was sent to them."""

    public: PublicView
    name: str
    role: str
    knows: tuple[tuple[str, str], ...]
    secrets: tuple[Secret, ...]


def public_view(state: State) -> PublicView:
    """The thread's view of ``state``."""
    names = state.players
    waiting = engine.waiting_for(state)
    return PublicView(
        players=names,
        alive=tuple(state.alive),
        board=state.rules.board,
        powers=state.rules.powers,
        liberal_win=state.rules.liberal_win,
        fascist_win=state.rules.fascist_win,
        veto_zone=state.rules.veto_zone,
        hitler_zone=state.rules.hitler_zone,
        chaos_at=state.rules.chaos_at,
        variants=house.variant_list(state.rules),
        liberal=state.liberal,
        fascist=state.fascist,
        tracker=state.tracker,
        draw_size=len(state.draw),
        discard_size=len(state.discard),
        phase=state.phase,
        round=state.round,
        president="" if state.phase == DEAL and state.first is None else names[state.president],
        chancellor=names[state.chancellor] if state.chancellor is not None else None,
        special=state.special,
        term_limited=tuple((names[s], why) for s, why in sorted(term_limits(state).items())),
        limits_set_aside=limits_set_aside(state),
        not_hitler=tuple(names[s] for s in sorted(state.not_hitler)),
        investigated=tuple(names[s] for s in sorted(state.investigated)),
        voted=(tuple(names[s] for s in sorted(state.votes)) if state.phase == VOTE else
               tuple(names[s] for s in sorted(state.words)) if state.phase == DEAL else ()),
        waiting_on=waiting.names,
        waiting=waiting_text(waiting),
        power=state.power,
        next_president=_next_president(state),
        winner=state.winner,
        win_reason=win_text(state.win) if state.win else None,
        history=tuple(state.public),
        deadline=_deadline(state),
        zone=state.zone or "UTC",
        prods=tuple((names[s], absence.prod_count(state, s)) for s in range(len(names))
                    if absence.prod_count(state, s)),
        backups=tuple(state.backups),
        removed=tuple(names[s] for s in sorted(state.removed)),
        custom=state.origin is not None and state.origin.custom is not None,
        replacing=tuple(forum.replacing(state).items()),
        veto_open=state.phase == ENACT and engine.can_propose_veto(state),
    )


def _deadline(state: State) -> tuple[str, str, str] | None:
    found = deadlines.current(state)
    return None if found is None else (found.until, found.zone, found.scope)


def player_view(state: State, name: str) -> PlayerView:
    """What ``name`` knows: the public view, their role, R-KNOW, and their PMs."""
    seat = state.players.index(name)
    dealt = bool(state.roles)  # R-DEAL: nobody has a role before the deal
    return PlayerView(
        public=public_view(state),
        name=name,
        role=state.roles[seat] if dealt else "",
        knows=tuple(knows(state.players, state.roles, state.rules, seat).items()) if dealt else (),
        secrets=tuple(s for s in state.secrets if s.to in forum.names_of(state, seat)),
    )


def _next_president(state: State) -> str | None:
    """Who is President after this round (R-ROTATE, R-SPECIAL), if the game goes on and
    no Special Election is pending (then the President picks)."""
    if state.win or state.power == SPECIAL or state.phase == DEAL:
        return None
    return state.players[state.next_living(state.anchor)]
