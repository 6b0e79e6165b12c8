"""What each audience may see (R-THREAD, R-PM): the table's view and each player's.

Renderers receive these views, never a :class:`~shmod.forum.table.Table`. Each is built by
copying whitelisted public fields; the secret fields of the game (roles, piles, votes
before the count, hands) and of the table (its setup) are not read here except where
R-THREAD makes them public.
"""
from __future__ import annotations

from shmod.base.records import Record
from shmod.forum import absence, deadlines, house, seats
from shmod.forum.events import Corrected, Removed, Renamed
from shmod.forum.table import Table
from shmod.forum.turns import waiting_for
from shmod.game.events import Public, Secret, Waiting, Win
from shmod.game.legal import can_propose_veto, limits_set_aside, term_limits
from shmod.game.setup import knows
from shmod.game.terms import DEAL, ENACT, SPECIAL, VOTE, Office, Phase, Power


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
    term_limited: tuple[tuple[str, Office], ...]  # (name, the office last elected to)
    limits_set_aside: bool  # R-NO-NOMINEE: nobody is eligible, so nobody is term-limited now
    not_hitler: tuple[str, ...]
    investigated: tuple[str, ...]
    voted: tuple[str, ...]  # who has voted (a vote) or posted a word (before the deal)
    waiting_on: tuple[str, ...]
    waiting: Waiting  # whom and what for (shmod.texts.phrases words it)
    power: Power | None
    next_president: str | None
    winner: str | None
    win: Win | None  # how the game was won
    history: tuple[Public, ...]
    deadline: tuple[str, str, str] | None = None  # (until UTC, the game's zone, round/phase)
    zone: str = "UTC"  # the game's time zone
    prods: tuple[tuple[str, int], ...] = ()  # how many prods each player was sent (R-STALL)
    backups: tuple[str, ...] = ()  # R-BACKUP, in order
    removed: tuple[str, ...] = ()  # R-MODKILL: seats the moderator removed (dead, not executed)
    custom: bool = False  # a custom board and deck (docs/variants.md)
    deck: tuple[int, int] = (6, 11)  # the deck's Liberal and Fascist policies
    start: tuple[int, int] = (0, 0)  # the Liberal and Fascist policies enacted at the start
    replacing: tuple[tuple[str, str], ...] = ()  # (current name, the player replaced)
    veto_open: bool = False  # the Chancellor may propose a veto now (R-VETO)
    # R-MODERATORS, R-HANDOVER (public: posts announce them): the moderators the header
    # lists, those listed now, the last hand-over (entry, to whom, by whom), and whether it
    # was taken over
    opening_moderators: tuple[str, ...] = ()
    moderators: tuple[str, ...] = ()
    handover: tuple[int, str, str] | None = None
    taken: bool = False

    @property
    def living(self) -> int:
        return sum(self.alive)


class PlayerView(Record):
    """One player's view: the public one plus exactly what was sent to them."""

    public: PublicView
    name: str
    role: str
    knows: tuple[tuple[str, str], ...]
    secrets: tuple[Secret, ...]


def public_view(table: Table) -> PublicView:
    """The thread's view of ``table``."""
    game, rules = table.game, table.game.rules
    names = game.players
    waiting = waiting_for(table)
    return PublicView(
        players=names,
        alive=tuple(game.alive),
        board=rules.board,
        powers=rules.powers,
        liberal_win=rules.liberal_win,
        fascist_win=rules.fascist_win,
        veto_zone=rules.veto_zone,
        hitler_zone=rules.hitler_zone,
        chaos_at=rules.chaos_at,
        variants=house.variant_list(rules, table.setup.variants),
        liberal=game.liberal,
        fascist=game.fascist,
        tracker=game.tracker,
        draw_size=len(game.draw),
        discard_size=len(game.discard),
        phase=game.phase,
        round=game.round,
        president="" if game.phase == DEAL and game.first is None else names[game.president],
        chancellor=names[game.chancellor] if game.chancellor is not None else None,
        special=game.special,
        term_limited=tuple((names[s], why) for s, why in sorted(term_limits(game).items())),
        limits_set_aside=limits_set_aside(game),
        not_hitler=tuple(names[s] for s in sorted(game.not_hitler)),
        investigated=tuple(names[s] for s in sorted(game.investigated)),
        voted=(tuple(names[s] for s in sorted(game.votes)) if game.phase == VOTE else
               tuple(names[s] for s in sorted(table.words)) if game.phase == DEAL else ()),
        waiting_on=waiting.names,
        waiting=waiting,
        power=game.power,
        next_president=_next_president(table),
        winner=game.winner,
        win=game.win,
        history=tuple(table.public),
        deadline=_deadline(table),
        zone=table.zone or "UTC",
        prods=tuple((names[s], absence.prod_count(table, s)) for s in range(len(names))
                    if absence.prod_count(table, s)),
        backups=tuple(table.backups),
        removed=tuple(names[s] for s in sorted(table.removed)),
        custom=table.setup.custom is not None,
        deck=(rules.deck_liberal, rules.deck_fascist),
        start=(rules.liberal_start, rules.fascist_start),
        replacing=tuple(seats.replacing(table).items()),
        veto_open=game.phase == ENACT and can_propose_veto(game),
        opening_moderators=tuple(table.setup.moderators),
        moderators=tuple(table.moderators),
        handover=table.handover,
        taken=table.taken,
    )


def removed_names(history: tuple[Public, ...]) -> frozenset[str]:
    """Every name a seat the moderator removed had (R-MODKILL), before and after a rename,
    leaving out removals a correction voided: a dead seat of one of these names in a
    tally or the voting record was removed, not executed."""
    gone = {number for ev in history if isinstance(ev, Corrected) for number, _ in ev.voided}
    names: set[str] = set()
    for ev in history:
        if isinstance(ev, Removed) and ev.entry not in gone:
            names.add(ev.name)
        elif isinstance(ev, Renamed) and ev.old in names and ev.entry not in gone:
            names.add(ev.new)
    return frozenset(names)


def _deadline(table: Table) -> tuple[str, str, str] | None:
    found = deadlines.current(table)
    return None if found is None else (found.until, found.zone, found.scope)


def player_view(table: Table, name: str) -> PlayerView:
    """What ``name`` knows: the public view, their role, R-KNOW, and their PMs."""
    game = table.game
    seat = game.players.index(name)
    dealt = bool(game.roles)  # R-DEAL: nobody has a role before the deal
    return PlayerView(
        public=public_view(table),
        name=name,
        role=game.roles[seat] if dealt else "",
        knows=tuple(knows(game.players, game.roles, game.rules, seat).items()) if dealt else (),
        secrets=tuple(s for s in table.secrets if s.to in seats.names_of(table, seat)),
    )


def _next_president(table: Table) -> str | None:
    """Who is President after this round (R-ROTATE, R-SPECIAL), if the game goes on and
    no Special Election is pending (then the President picks)."""
    game = table.game
    if game.win or game.power == SPECIAL or game.phase == DEAL:
        return None
    return game.players[game.next_living(game.anchor)]
