"""Ratings: openskill's Weng-Lin model (Plackett-Luce), updated game by game in date order.

Each counted game is a match of two teams of uneven size, the Liberals and the Fascists
(Hitler among them), the winners ranked first. Every player has three ratings: overall
(updated in every game), Liberal (only in games they played as a Liberal) and Fascist
(only as a Fascist or Hitler); the role ratings are rated against the other team's role
ratings. A seat that changed hands (R-REPLACE) is one member of its team, rated as the mix
of its occupants by their share of the game; each occupant then takes that share of the
seat's change (docs/stats.md, "Ratings"). ``openskill`` is imported only here, lazily.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shmod.base.records import Record

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

#: Below this, a variance factor is held (openskill's own kappa does the same).
_KAPPA = 0.0001


#: A seat in a rated game: the player number of the one who held it all game, or its
#: occupants as (player number, share of the game). Kept small: one is kept per seat of
#: every counted game until all are read.
Seat = int | tuple[tuple[int, float], ...]


def occupants(seat: Seat) -> tuple[tuple[int, float], ...]:
    """Who held ``seat``, each with their share of the game."""
    return ((seat, 1.0),) if isinstance(seat, int) else seat


class Match(Record):
    """What a counted game gives the ratings: when, which side won, the seats of each."""

    order: tuple[str, str]  # (created time in UTC or "" if undated, the log's SHA-256)
    liberals_won: bool
    liberals: tuple[Seat, ...]
    fascists: tuple[Seat, ...]


class Rating(Record):
    """A Weng-Lin rating: ``mu`` the estimate, ``sigma`` its uncertainty."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The rating shown and sorted by: mu - 3 sigma (openskill's ordinal), a figure
        the player's skill is very likely above; 0 for a newcomer."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"rating": round(self.ordinal, 3), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3)}


class Point(Record):
    """One player's three ratings after one of their games."""

    order: tuple[str, str]
    overall: Rating
    liberal: Rating
    fascist: Rating


class Ratings(Record):
    """Every player's ratings after all games, and one tracked player's history."""

    overall: list[Rating]
    liberal: list[Rating]
    fascist: list[Rating]
    history: list[Point]


def rate(matches: list[Match], players: int, track: int | None = None) -> Ratings:
    """Rate ``matches`` in date order (then by the log's hash: never by file order) for
    ``players`` players numbered from 0; keep the history of player ``track``."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    start = Rating(model.mu, model.sigma)
    overall, liberal, fascist = ([start] * players for _ in range(3))
    history: list[Point] = []
    for match in sorted(matches, key=lambda m: m.order):
        _update(model, overall, overall, match)
        _update(model, liberal, fascist, match)
        if track is not None and any(
                number == track for seat in (*match.liberals, *match.fascists)
                for number, _share in occupants(seat)):
            history.append(Point(match.order, overall[track], liberal[track], fascist[track]))
    return Ratings(overall, liberal, fascist, history)


def _update(model: PlackettLuce, liberal: list[Rating], fascist: list[Rating],
            match: Match) -> None:
    """One game's update of the Liberals' ratings in ``liberal`` and the Fascists' in
    ``fascist`` (the same list for the overall ratings)."""
    sides = ((liberal, match.liberals), (fascist, match.fascists))
    before = [[_mixed(table, seat) for seat in seats] for table, seats in sides]
    teams = [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
    after = model.rate(teams, ranks=[0, 1] if match.liberals_won else [1, 0])
    for (table, seats), was, now in zip(sides, before, after):
        for seat, old, new in zip(seats, was, now):
            for number, share in occupants(seat):
                if share > 0:
                    table[number] = _moved(table[number], share, old, Rating(new.mu, new.sigma))


def _mixed(table: list[Rating], seat: Seat) -> Rating:
    """A seat's rating: its occupants' mixed by share (one occupant: theirs)."""
    if isinstance(seat, int):
        return table[seat]
    mu = sum(share * table[n].mu for n, share in seat)
    variance = sum(share * table[n].sigma ** 2 for n, share in seat)
    return Rating(mu, math.sqrt(variance))


def _moved(own: Rating, share: float, old: Rating, new: Rating) -> Rating:
    """An occupant's rating after its seat went from ``old`` to ``new``: ``share`` of the
    seat's change of mu, and of the factor its variance was multiplied by (the whole
    change for a player who held the seat all game)."""
    if share >= 1.0:
        return new
    factor = 1 - share * (1 - new.sigma ** 2 / old.sigma ** 2)
    return Rating(own.mu + share * (new.mu - old.mu), own.sigma * math.sqrt(max(factor, _KAPPA)))


__all__ = ["Match", "Point", "Rating", "Ratings", "Seat", "occupants", "rate"]
