"""Ratings: openskill's Weng-Lin model (Plackett-Luce) with each side's advantage at each
player count, updated game by game in date order (docs/stats.md, "Ratings").

Every player has two ratings, as a Liberal and on the Fascist team (Hitler included). A
rated game is a match of the Liberals' Liberal ratings against the Fascists' Fascist
ratings, the winners ranked first. A team's strength is the sum of its members' skills
*above a newcomer's*, so that a team of newcomers is even with another whatever their
sizes, plus, for the Liberals, the side's advantage at that player count: the one that
makes a team of equal players win as often as the Liberals won at that count over all
rated games (the *base rate*). The overall rating is the mean of a player's two side
ratings weighted by their games on each side, so it lies between them.

A seat that changed hands (R-REPLACE) is one member of its team, rated as the mix of its
occupants by their share of the game; each occupant then takes that share of the seat's
change. ``openskill`` is imported only here, lazily.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
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
    """What a rated game gives the ratings: when, which side won, the seats of each; or
    an abandoned game rated as a loss for both sides (``abandoned``: the folder's
    ``abandoned_cost``)."""

    order: tuple[str, str]  # (created time in UTC or "" if undated, the log's SHA-256)
    liberals_won: bool
    liberals: tuple[Seat, ...]
    fascists: tuple[Seat, ...]
    abandoned: bool = False

    @property
    def players(self) -> int:
        return len(self.liberals) + len(self.fascists)


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


def tenths(value: float) -> str:
    """A rating as shown: to one decimal, never ``-0.0``."""
    return f"{round(value, 1) + 0.0:.1f}"


#: A newcomer's rating: openskill's defaults, mu 25 and sigma 25/3 (an ordinal of 0).
START = Rating(25.0, 25.0 / 3)


def overall(liberal: Rating, liberal_weight: float, fascist: Rating,
            fascist_weight: float) -> Rating:
    """The overall rating: the side ratings' mu and sigma, each the mean weighted by the
    games played on that side (so its mu - 3 sigma is the same mean of theirs, between
    the two); a newcomer's for a player with no rated game."""
    total = liberal_weight + fascist_weight
    if total <= 0:
        return START
    return Rating((liberal_weight * liberal.mu + fascist_weight * fascist.mu) / total,
                  (liberal_weight * liberal.sigma + fascist_weight * fascist.sigma) / total)


class Base(Record, frozen=False):
    """The Liberals' record at one player count over the rated games, and their base rate."""

    games: int = 0
    liberal_wins: int = 0

    @property
    def rate(self) -> float:
        """The Liberals' base rate: their wins over the games, each count started with one
        win and one loss, (wins + 1) / (games + 2), so that it is never 0 or 1."""
        return (self.liberal_wins + 1) / (self.games + 2)

    def to_json(self) -> dict[str, float]:
        return {"games": self.games, "liberal_wins": self.liberal_wins,
                "liberal_base_rate": round(self.rate, 4)}


def base_rates(matches: Iterable[Match]) -> dict[int, Base]:
    """Each player count's :class:`Base` over ``matches``."""
    out: dict[int, Base] = {}
    for match in matches:
        if match.abandoned:
            out.setdefault(match.players, Base())
            continue
        base = out.setdefault(match.players, Base())
        base.games += 1
        base.liberal_wins += match.liberals_won
    return out


class Point(Record):
    """One player's ratings after one of their games, the ``index``-th rated game (from 0)."""

    index: int
    order: tuple[str, str]
    overall: Rating
    liberal: Rating
    fascist: Rating


class Ratings(Record):
    """Every player's side ratings and the weight of each (their share of rated games on
    that side), the base rates, and the tracked players' histories."""

    liberal: list[Rating]
    fascist: list[Rating]
    liberal_weight: list[float]
    fascist_weight: list[float]
    bases: dict[int, Base]
    history: dict[int, list[Point]]

    def overall(self, number: int) -> Rating:
        """Player ``number``'s overall rating."""
        return overall(self.liberal[number], self.liberal_weight[number],
                       self.fascist[number], self.fascist_weight[number])


def rate(matches: list[Match], players: int, track: Iterable[int] = ()) -> Ratings:
    """Rate ``matches`` in date order (then by the log's hash: never by file order) for
    ``players`` players numbered from 0; keep the history of each player in ``track``."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    bases = base_rates(matches)
    out = Ratings([START] * players, [START] * players, [0.0] * players, [0.0] * players,
                  bases, {number: [] for number in track})
    for index, match in enumerate(sorted(matches, key=lambda m: m.order)):
        _update(model, out.liberal, out.fascist, match, bases[match.players].rate)
        for weights, seats in ((out.liberal_weight, match.liberals),
                               (out.fascist_weight, match.fascists)):
            for seat in seats:
                for number, share in occupants(seat):
                    weights[number] += share
                    if number in out.history:
                        out.history[number].append(Point(
                            index, match.order, out.overall(number), out.liberal[number],
                            out.fascist[number]))
    return out


def advantage(model: PlackettLuce, liberal: list[Rating], fascist: list[Rating],
              base: float) -> float:
    """The Liberals' advantage in a game: ``c * ln(base / (1 - base))``, where ``c`` is
    openskill's (the square root of every seat's variance, each widened by tau squared,
    plus beta squared for each team): with it, teams of equal skill win as often as the
    base rate says (Plackett-Luce: P = 1 / (1 + exp(-(strength difference) / c)))."""
    variance = sum(r.sigma ** 2 + model.tau ** 2 for r in (*liberal, *fascist))
    c = math.sqrt(variance + 2 * model.beta ** 2)
    return c * math.log(base / (1 - base))


def _update(model: PlackettLuce, liberal: list[Rating], fascist: list[Rating],
            match: Match, base: float) -> None:
    """One game's update of the Liberals' ratings in ``liberal`` and the Fascists' in
    ``fascist``: each seat's skill above a newcomer's, the Liberals' advantage shared
    among their seats, rated by openskill."""
    sides = ((liberal, match.liberals), (fascist, match.fascists))
    before = [[_mixed(table, seat) for seat in seats] for table, seats in sides]
    shift = advantage(model, before[0], before[1], base) / len(before[0])
    offsets = (START.mu - shift, START.mu)  # what is taken off each seat's mu, per side
    teams = [[model.rating(mu=r.mu - offset, sigma=r.sigma) for r in team]
             for team, offset in zip(before, offsets)]
    after = model.rate(teams, ranks=[0, 1] if match.liberals_won else [1, 0])
    if match.abandoned:  # a loss for both sides: the Fascists' as if the Liberals had won
        after = [after[0], model.rate(teams, ranks=[0, 1])[1]]
    for (table, seats), was, now, offset in zip(sides, before, after, offsets):
        for seat, old, new in zip(seats, was, now):
            moved = Rating(new.mu + offset, new.sigma)
            for number, share in occupants(seat):
                if share > 0:
                    table[number] = _moved(table[number], share, old, moved)


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


__all__ = ["START", "Base", "Match", "Point", "Rating", "Ratings", "Seat", "advantage",
           "base_rates", "occupants", "overall", "rate", "tenths"]
