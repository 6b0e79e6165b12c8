"""Who did what in one finished game: each seat's occupants and their part, read from the
replayed state of an audited log (docs/stats.md).

A seat may have had several occupants (R-REPLACE); each is a :class:`Part`, credited
with what happened while they held the seat. The figures come from the public record
(the events a correction did not void), the roles from the revealed header, and whether
each claim was true from the finished game (R-CLAIM).
"""
from __future__ import annotations

from shmod.base.records import Record
from shmod.forum.corrections import voided
from shmod.forum.deadlines import late_votes
from shmod.forum.events import Lapsed
from shmod.forum.table import Table
from shmod.game.events import Enacted, Executed, Tallied
from shmod.game.steps import Act
from shmod.game.terms import FASCISTS, LIBERAL, LIBERALS, Role, Team


class Part(Record, frozen=False):
    """One person's part in one game: the seat (0-based) from entry ``start`` to entry
    ``end`` (None: to the end), and what they did and suffered there."""

    name: str
    seat: int
    role: Role
    start: int = 0
    end: int | None = None
    came_in: bool = False  # took the seat as a replacement (R-REPLACE)
    share: float = 0.0  # of the game's acts made while they held the seat
    removed: bool = False  # R-MODKILL
    prods: int = 0  # R-STALL
    lapses: int = 0  # R-LAPSE: a deadline passed waiting for them
    president: int = 0  # times elected President
    chancellor: int = 0  # times elected Chancellor
    enacted_liberal: int = 0  # as Chancellor
    enacted_fascist: int = 0
    votes: int = 0  # vote accuracy: Ja/Nein votes on dangerous governments, as a Liberal
    good_votes: int = 0  # of them Nein
    shots: int = 0  # shot accuracy: executions ordered as a Liberal President
    good_shots: int = 0  # of them of a Fascist or Hitler
    claims: int = 0  # R-CLAIM: claims in effect they made in the thread
    true_claims: int = 0  # of them true against what was dealt

    @property
    def team(self) -> Team:
        return LIBERALS if self.role == "liberal" else FASCISTS

    @property
    def left(self) -> bool:
        """Replaced by someone else before the game ended."""
        return self.end is not None

    def holds(self, entry: int) -> bool:
        """Whether they held the seat when entry ``entry`` was applied."""
        return self.start <= entry and (self.end is None or entry < self.end)


def parts(state: Table, accuracy: bool = True) -> list[Part]:
    """Every occupant of every seat of the finished game ``state``, in seat order then
    in the order they sat; ``accuracy``: count vote and shot accuracy (not in a custom
    game, as secret-hitler.io does not)."""
    roles = state.game.roles
    seats: list[list[Part]] = [[Part(name, seat, roles[seat])]
                               for seat, name in enumerate(state.setup.players)]
    changes = sorted([(entry, seat, new, True) for seat, _old, new, entry in state.replaced]
                     + [(entry, seat, new, False) for seat, _old, new, entry in state.renamed])
    for entry, seat, new, replaced in changes:
        held = seats[seat][-1]
        if replaced:
            held.end = entry
            seats[seat].append(Part(new, seat, roles[seat], start=entry, came_in=True))
        else:
            held.name = new  # R-RENAME: the same player, the name written right
    _shares(state, seats)
    for entry, seat in state.prods:
        _at(seats[seat], entry).prods += 1
    for seat, entry in state.removed.items():
        _at(seats[seat], entry).removed = True
    for entry, fact in state.claims.items():
        part = _at(seats[fact.seat], entry)
        part.claims += 1
        part.true_claims += fact.true
    _public_record(state, seats, accuracy)
    return [part for seat in seats for part in seat]


def _at(seat: list[Part], entry: int) -> Part:
    """Who held ``seat`` at ``entry``."""
    return next((p for p in seat if p.holds(entry)), seat[-1])


def _shares(state: Table, seats: list[list[Part]]) -> None:
    """Each part's share of the game: of every act of every player (a nomination, a vote,
    a discard, an enactment, a veto step, a power, a word), those made while they held the
    seat, counting the acts of all seats alike."""
    acts = [entry for entry, step in state.history if isinstance(step, Act)]
    for seat in seats:
        if len(seat) == 1:
            seat[0].share = 1.0
            continue
        for part in seat:
            mine = sum(1 for entry in acts if part.holds(entry))
            part.share = mine / len(acts) if acts else 0.0


def _public_record(state: Table, seats: list[list[Part]], accuracy: bool) -> None:
    """Elections, enactments, votes, shots and lapses, credited to whoever held the seat
    when the event happened (names in events are as seated then)."""
    void = voided(state)
    roles = state.game.roles
    fascist_loyal = [role != "liberal" for role in roles]
    rules = state.game.rules
    changes = sorted([(entry, seat, new) for seat, _old, new, entry in state.replaced]
                     + [(entry, seat, new) for seat, _old, new, entry in state.renamed])
    names = list(state.setup.players)
    late = late_votes(state.public)
    seat_of = {name: seat for seat, name in enumerate(names)}
    fascist = 0  # the Fascist track before the event
    for event in state.public:
        while changes and changes[0][0] <= event.entry:
            _entry, seat, new = changes.pop(0)
            del seat_of[names[seat]]
            names[seat] = new
            seat_of[new] = seat
        if event.entry in void:
            continue
        held = [_at(seat, event.entry) for seat in seats]
        if isinstance(event, Tallied):
            president, chancellor = seat_of[event.president], seat_of[event.chancellor]
            if event.elected:
                held[president].president += 1
                held[chancellor].chancellor += 1
            danger = ((fascist >= rules.hitler_zone
                       and (fascist_loyal[president] or roles[chancellor] == "hitler"))
                      or (fascist >= rules.veto_zone
                          and (fascist_loyal[president] or fascist_loyal[chancellor])))
            if not (accuracy and danger):
                continue
            for seat, (name, vote) in enumerate(event.votes):
                if vote is None or name in late.get(event.entry, ()) or fascist_loyal[seat]:
                    continue
                held[seat].votes += 1
                held[seat].good_votes += not vote
        elif isinstance(event, Enacted):
            fascist = event.fascist
            if not event.chaos:
                chancellor_part = held[seat_of[event.chancellor]]
                if event.policy == LIBERAL:
                    chancellor_part.enacted_liberal += 1
                else:
                    chancellor_part.enacted_fascist += 1
        elif isinstance(event, Executed):
            president = seat_of[event.president]
            if accuracy and not fascist_loyal[president]:
                held[president].shots += 1
                held[president].good_shots += fascist_loyal[seat_of[event.target]]
        elif isinstance(event, Lapsed):
            for name in event.late:
                held[seat_of[name]].lapses += 1


__all__ = ["Part", "parts"]
