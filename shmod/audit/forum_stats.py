"""``shmod stats``: a forum's record across all its games, from audited logs only
(docs/stats.md).

Each log is audited on its own (:func:`shmod.audit.log_audit.audit_file`), and only a valid,
finished game with a plausible date is counted; every other log is named with the reason
it was left out. A counted game is rated unless the moderator decided it (Hitler removed,
R-MODKILL). One log is in memory at a time: a counted game adds to each player's
:class:`Career` at once and leaves behind only what the ratings need in date order
(:class:`~shmod.audit.ratings.Match`, a few hundred bytes). Players are matched across
games by name, case, accents and look-alike letters folded, after the aliases of players
who changed names.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from shmod.audit.flags import (
    ABANDONED_AFTER,
    GROUP_GAMES,
    GROUP_PLAYERS,
    Abandoned,
    Group,
    last_entry,
    parse_time,
)
from shmod.audit.log_audit import Report, audit_file
from shmod.audit.played import Part, parts
from shmod.audit.players import Aliases, accent_fold, fold
from shmod.audit.ratings import Base, Match, Point, Rating, Ratings, Seat, rate
from shmod.base import digest
from shmod.base.errors import BadInput, InternalError
from shmod.base.records import Record, field
from shmod.game.terms import FASCISTS, LIBERALS

#: A game created before this is implausible (no forum played Secret Hitler then; a
#: computer whose clock was reset stamps 1970).
EARLIEST = datetime(2015, 1, 1, tzinfo=UTC)
#: How far past the time now a game may have been created (clocks and zones differ).
SLACK = timedelta(days=1)


def implausible(when: datetime, now: datetime | None) -> str | None:
    """Why a game created ``when`` cannot have been, or None: before :data:`EARLIEST`, or
    after ``now`` (more than :data:`SLACK`)."""
    stamp = when.isoformat().replace("+00:00", "Z")
    if when < EARLIEST:
        return f"created {stamp}, before {EARLIEST.year}"
    if now is not None and when > now + SLACK:
        return f"created {stamp}, after the time now ({now.isoformat()[:16].replace('T', ' ')} UTC)"
    return None


def since_time(text: str) -> datetime:
    """``--since``: a date (2026-09-01) or a time (2026-09-01T18:00:00Z)."""
    when = parse_time(text)
    if when is None:
        raise BadInput(f"--since takes a date like 2026-09-01 (or a time like "
                       f"2026-09-01T18:00:00Z), not {text!r}")
    return when


class Tally(Record, frozen=False):
    """Games and wins."""

    games: int = 0
    wins: int = 0

    def add(self, won: bool) -> None:
        self.games += 1
        self.wins += won

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "win_rate": _rounded(self.rate)}


class Career(Record, frozen=False):
    """One player's figures over every counted game (docs/stats.md says what each is)."""

    key: str
    name: str
    number: int  # the player's number in the ratings
    named: tuple[str, str] = ("", "")  # the order of the game ``name`` was last seen in
    first: str | None = None  # the first and last dated game
    last: str | None = None
    overall: Tally = field(default_factory=Tally)
    liberal: Tally = field(default_factory=Tally)
    fascist: Tally = field(default_factory=Tally)  # the Fascist team: Hitler included
    hitler: Tally = field(default_factory=Tally)
    by_players: dict[int, Tally] = field(default_factory=dict)
    by_how: dict[str, Tally] = field(default_factory=dict)
    rated_liberal: int = 0  # rated games with a result for them, as a Liberal
    rated_fascist: int = 0  # and on the Fascist team
    forms: dict[str, str] = field(default_factory=dict)  # accent_fold -> a name so written
    provisional_below: int = 0  # a rating on fewer rated games than this is provisional
    came_in: int = 0
    left: int = 0
    removed: int = 0
    prods: int = 0
    lapses: int = 0
    president: int = 0
    chancellor: int = 0
    enacted_liberal: int = 0
    enacted_fascist: int = 0
    votes: int = 0
    good_votes: int = 0
    shots: int = 0
    good_shots: int = 0
    claims: int = 0  # R-CLAIM: claims made
    liberal_claims: int = 0  # of them as a Liberal
    liberal_true: int = 0  # of those, true
    fascist_claims: int = 0  # on the Fascist team (Hitler included)
    fascist_true: int = 0
    rating: Rating | None = None
    liberal_rating: Rating | None = None
    fascist_rating: Rating | None = None
    abandoned: int = 0  # games they sat in that were abandoned (left unfinished)
    seated: int = 0  # counted games they held a seat in, at any time
    circle: frozenset[str] | None = None  # the keys of their games' players, if always the same
    group: int | None = None  # the closed group they belong to (Stats.groups), from 1

    @property
    def rated(self) -> int:
        """Rated games with a result for them."""
        return self.rated_liberal + self.rated_fascist

    def provisional(self, kind: str) -> bool:
        """Whether their rating ``kind`` (``rating``, ``liberal-rating``,
        ``fascist-rating``) rests on fewer rated games than ``provisional_below``."""
        games = {"rating": self.rated, "liberal-rating": self.rated_liberal,
                 "fascist-rating": self.rated_fascist}[kind]
        return games < self.provisional_below

    @property
    def vote_accuracy(self) -> float | None:
        return self.good_votes / self.votes if self.votes else None

    @property
    def shot_accuracy(self) -> float | None:
        return self.good_shots / self.shots if self.shots else None

    @property
    def liberal_truth(self) -> float | None:
        return self.liberal_true / self.liberal_claims if self.liberal_claims else None

    @property
    def fascist_truth(self) -> float | None:
        return self.fascist_true / self.fascist_claims if self.fascist_claims else None

    def sat_with(self, keys: frozenset[str]) -> None:
        """One more counted game they held a seat in, with the players ``keys``."""
        self.seated += 1
        self.circle = keys if self.circle in (None, keys) else frozenset()

    def add(self, part: Part, game: Counted) -> None:
        """Count one part in one game."""
        if part.end is None:  # the result goes to whoever held the seat at the end
            won = part.team == game.winner
            for tally in (self.overall, self.by_players.setdefault(game.players, Tally()),
                          self.by_how.setdefault(game.how, Tally()),
                          self.liberal if part.team == LIBERALS else self.fascist):
                tally.add(won)
            if part.role == "hitler":
                self.hitler.add(won)
            if game.rated:
                self.rated_liberal += part.team == LIBERALS
                self.rated_fascist += part.team == FASCISTS
        self.came_in += part.came_in
        self.left += part.left
        self.removed += part.removed
        for name in ("prods", "lapses", "president", "chancellor", "enacted_liberal",
                     "enacted_fascist", "votes", "good_votes", "shots", "good_shots",
                     "claims"):
            setattr(self, name, getattr(self, name) + getattr(part, name))
        if part.team == LIBERALS:
            self.liberal_claims += part.claims
            self.liberal_true += part.true_claims
        else:
            self.fascist_claims += part.claims
            self.fascist_true += part.true_claims
        if game.order >= self.named:
            self.name, self.named = part.name, game.order
        form = accent_fold(part.name)
        if part.name < self.forms.get(form, "\U0010ffff"):
            self.forms[form] = part.name
        if game.created:
            self.first = min(self.first or game.created, game.created)
            self.last = max(self.last or game.created, game.created)

    def to_json(self) -> dict[str, Any]:
        def rating(kind: str, value: Rating | None) -> dict[str, Any] | None:
            if value is None:
                return None
            return {**value.to_json(), "provisional": self.provisional(kind)}

        return {
            "name": self.name, "key": self.key,
            "rating": rating("rating", self.rating),
            "liberal_rating": rating("liberal-rating", self.liberal_rating),
            "fascist_rating": rating("fascist-rating", self.fascist_rating),
            **self.overall.to_json(),
            "rated": {"games": self.rated, "liberal": self.rated_liberal,
                      "fascist": self.rated_fascist},
            "liberal": self.liberal.to_json(), "fascist": self.fascist.to_json(),
            "hitler": self.hitler.to_json(),
            "by_players": {str(n): t.to_json() for n, t in sorted(self.by_players.items())},
            "by_how": {k: t.to_json() for k, t in sorted(self.by_how.items())},
            "elected_president": self.president, "elected_chancellor": self.chancellor,
            "enacted_as_chancellor": {"liberal": self.enacted_liberal,
                                      "fascist": self.enacted_fascist},
            "vote_accuracy": {"votes": self.votes, "accurate": self.good_votes,
                              "rate": _rounded(self.vote_accuracy)},
            "shot_accuracy": {"shots": self.shots, "accurate": self.good_shots,
                              "rate": _rounded(self.shot_accuracy)},
            "claims": {"made": self.claims,
                       "liberal": {"claims": self.liberal_claims, "true": self.liberal_true,
                                   "rate": _rounded(self.liberal_truth)},
                       "fascist": {"claims": self.fascist_claims, "true": self.fascist_true,
                                   "rate": _rounded(self.fascist_truth)}},
            "prods": self.prods, "lapses": self.lapses, "replaced_in": self.came_in,
            "replaced_out": self.left, "removed": self.removed,
            "abandoned": self.abandoned, "closed_group": self.group,
            "first": self.first, "last": self.last,
        }


class Counted(Record):
    """What a counted game says about itself, for the figures of its players."""

    path: str
    created: str | None  # UTC, ISO 8601
    order: tuple[str, str]
    players: int
    winner: str
    how: str
    rated: bool = True  # decided by play: not Hitler removed by the moderator (R-MODKILL)


class GameRow(Record, frozen=False):
    """One game of one player's page (``--player``)."""

    game: Counted
    part: Part
    rating: Rating | None = None  # overall, after the game

    def to_json(self) -> dict[str, Any]:
        part = self.part
        return {"path": self.game.path, "created": self.game.created,
                "players": self.game.players, "seat": part.seat + 1, "name": part.name,
                "role": part.role, "result": result(self.game, part),
                "how": self.game.how, "winner": self.game.winner,
                "replacement": part.came_in, "share": round(part.share, 3),
                "rating": self.rating.to_json() if self.rating else None}


def result(game: Counted, part: Part) -> str:
    """``won``, ``lost``, or ``replaced`` (left the seat before the end: no result)."""
    if part.left:
        return "replaced"
    return "won" if part.team == game.winner else "lost"


class LeftOut(Record):
    """A log not counted, and why."""

    path: str
    reason: str


class Stats(Record, frozen=False):
    """Everything ``shmod stats`` reports."""

    logs: int = 0
    left_out: list[LeftOut] = field(default_factory=list)
    abandoned: list[Abandoned] = field(default_factory=list)
    abandoned_after: timedelta | None = ABANDONED_AFTER  # None: no game is abandoned
    abandoned_cost: bool = False  # an abandoned game rated as a loss for all its players
    before: int = 0  # counted otherwise, but created before --since (or undated with it)
    undated: int = 0  # counted without a created time: rated before every dated game
    unrated: int = 0  # counted but not rated: Hitler removed by the moderator (R-MODKILL)
    provisional: int = 10  # a rating on fewer rated games than this is provisional
    bases: dict[int, Base] = field(default_factory=dict)  # the base rates, by player count
    careers: dict[str, Career] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    by_players: dict[int, dict[str, int]] = field(default_factory=dict)
    by_how: dict[str, int] = field(default_factory=dict)
    matches: list[Match] = field(default_factory=list)
    track: str | None = None  # the key of the player whose games are kept (--player)
    rows: list[GameRow] = field(default_factory=list)
    history: list[Point] = field(default_factory=list)
    seen: dict[str, str] = field(default_factory=dict)  # a log's SHA-256 -> its path

    @property
    def counted(self) -> int:
        return sum(row["games"] for row in self.by_players.values())

    @property
    def abandoned_days(self) -> int | None:
        """``abandoned_after`` in days, or None."""
        after = self.abandoned_after
        return None if after is None else round(after.total_seconds() / 86400)

    def lookalikes(self) -> list[list[str]]:
        """The names that differ by more than case and accents yet were counted as one
        player because they look alike (``Ann`` and ``Аnn``), each group sorted."""  # noqa: RUF002
        groups: dict[str, list[str]] = {}
        for career in self.careers.values():
            if len(career.forms) > 1:  # joined by an alias, or because they look alike
                for name in career.forms.values():
                    groups.setdefault(fold(name), []).append(name)
        return sorted(sorted(names) for names in groups.values() if len(names) > 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "logs": self.logs, "counted": self.counted,
            "left_out": [{"path": o.path, "reason": o.reason} for o in self.left_out],
            "abandoned": [a.to_json() for a in self.abandoned],
            "abandoned_after_days": self.abandoned_days,
            "abandoned_cost": self.abandoned_cost,
            "before_since": self.before, "undated": self.undated, "unrated": self.unrated,
            "base_rates": {str(n): b.to_json() for n, b in sorted(self.bases.items())},
            "lookalikes": self.lookalikes(),
            "closed_groups": [g.to_json() for g in self.groups],
            "wins_by_players": {str(n): row for n, row in sorted(self.by_players.items())},
            "wins_by_condition": dict(sorted(self.by_how.items())),
        }


class Collector:
    """Reads logs one at a time into :class:`Stats`. ``now`` is the time now: a game
    created after it is left out, and one whose last entry is more than
    ``abandoned_after`` before it is abandoned (None: neither check is made)."""

    def __init__(self, aliases: Aliases | None = None, since: datetime | None = None,
                 player: str | None = None, now: datetime | None = None,
                 provisional: int = 10, abandoned_after: timedelta | None = ABANDONED_AFTER,
                 abandoned_cost: bool = False) -> None:
        self.aliases = aliases or Aliases()
        self.since = since
        self.now = now
        self.stats = Stats(track=self.aliases.key(player) if player is not None else None,
                           provisional=provisional, abandoned_after=abandoned_after,
                           abandoned_cost=abandoned_cost)

    def skip(self, path: str, why: str) -> None:
        """A path named like a log that is not one to read (a link to nothing, a folder):
        left out, saying why."""
        self.stats.logs += 1
        self.stats.left_out.append(LeftOut(path, why))

    def add(self, path: str) -> None:
        """Audit the log at ``path``, and count it, or list it as abandoned, or say why
        not. Never raises for what a log holds: a log that trips a bug in shmod is left
        out, saying so, and the others are still counted (as the batch audit goes on)."""
        self.stats.logs += 1
        report = audit_file(path)
        why = _not_counted(report)
        try:
            if why is None:
                why = self._count(path, report)
            elif self._stale(report):
                why = self._abandon(path, report, why)
        except Exception as err:  # noqa: BLE001 - a bug: said, and the others counted
            why = f"not counted: {InternalError(f'{type(err).__name__}: {err}', path)}"
        if why is not None:
            self.stats.left_out.append(LeftOut(path, why))

    def _admitted(self, path: str, report: Report) -> tuple[str, datetime | None] | str | None:
        """A valid log's SHA-256 and creation time; or why it is not counted (a copy, an
        implausible date); None when it is created before ``--since`` (or undated with
        it), which is counted as such."""
        assert report.log is not None
        sha = digest.sha256_hex(report.log.data)
        if sha in self.stats.seen:
            return f"the same log as {self.stats.seen[sha]}, byte for byte: counted once"
        created = report.log.header.get("created")
        when = parse_time(created) if isinstance(created, str) else None
        odd = implausible(when, self.now) if when is not None else None
        if odd is not None:
            return f"implausible date: {odd}: not counted"
        if self.since is not None and (when is None or when < self.since):
            self.stats.before += 1
            return None
        return sha, when

    def _twins(self, names: list[str], keys: list[str]) -> str | None:
        """Why a game cannot be credited: two seats that are one player."""
        if len(set(keys)) == len(keys):
            return None
        twins = sorted({n for n, k in zip(names, keys) if keys.count(k) > 1})
        return ("two seats are one player once case, accents, look-alike letters and "
                "aliases are folded: " + ", ".join(twins))

    def _career(self, key: str, name: str) -> Career:
        career = self.stats.careers.get(key)
        if career is None:
            career = self.stats.careers[key] = Career(key, name, len(self.stats.careers))
        return career

    def _count(self, path: str, report: Report) -> str | None:
        """Count an audited valid finished game; or why it is not counted."""
        stats = self.stats
        assert report.log is not None and report.table is not None and report.summary
        admitted = self._admitted(path, report)
        if not isinstance(admitted, tuple):
            return admitted
        sha, when = admitted
        stamp = when.isoformat().replace("+00:00", "Z") if when else None
        order = when.isoformat(timespec="microseconds") if when else ""  # sorts as it reads
        summary = report.summary
        assert summary.winner is not None and summary.how is not None
        state = report.table
        game = Counted(path, stamp, (order, sha), summary.players, summary.winner,
                       summary.how, rated=summary.how != "hitler_removed")
        played = parts(state, accuracy=state.setup.custom is None)
        keys = [self.aliases.key(p.name) for p in played]
        twins = self._twins([p.name for p in played], keys)
        if twins is not None:
            return twins
        stats.seen[sha] = path
        stats.undated += when is None
        stats.unrated += not game.rated
        row = stats.by_players.setdefault(game.players, {"games": 0, LIBERALS: 0, FASCISTS: 0})
        row["games"] += 1
        row[game.winner] += 1
        stats.by_how[game.how] = stats.by_how.get(game.how, 0) + 1
        for part, key in zip(played, keys):
            career = self._career(key, part.name)
            career.add(part, game)
            if key == stats.track:
                stats.rows.append(GameRow(game, part))
        for key in set(keys):
            stats.careers[key].sat_with(frozenset(keys))
        if game.rated:
            stats.matches.append(_match(game, played, keys, stats.careers))
        return None

    def _stale(self, report: Report) -> bool:
        """Whether a valid unfinished game is abandoned: its last entry is more than
        ``abandoned_after`` before the time now."""
        after = self.stats.abandoned_after
        if (after is None or self.now is None or not report.valid or report.table is None
                or report.log is None):
            return False
        last = last_entry(report.log.header, report.log.entries, self.now, SLACK)
        return last is not None and last + after < self.now

    def _abandon(self, path: str, report: Report, unfinished: str) -> str | None:
        """List an abandoned game, each of its players charged with it; or why not."""
        stats, state = self.stats, report.table
        assert report.log is not None and state is not None
        admitted = self._admitted(path, report)
        if not isinstance(admitted, tuple):
            return admitted
        sha, when = admitted
        names = list(state.game.players)
        keys = [self.aliases.key(name) for name in names]
        twins = self._twins(names, keys)
        if twins is not None:
            return twins
        stats.seen[sha] = path
        last = last_entry(report.log.header, report.log.entries, self.now, SLACK)
        assert last is not None
        stats.abandoned.append(Abandoned(
            path, last.isoformat().replace("+00:00", "Z"), tuple(names),
            unfinished.removeprefix("unfinished: ")))
        for name, key in zip(names, keys):
            career = self._career(key, name)
            career.abandoned += 1
            if career.named == ("", ""):  # in no counted game yet: a name not by file order
                career.name = min(career.name, name)
        if stats.abandoned_cost and state.game.roles:
            order = (when.isoformat(timespec="microseconds") if when else "", sha)
            side = {team: tuple(stats.careers[k].number for seat, k in enumerate(keys)
                                if (LIBERALS if state.game.roles[seat] == "liberal"
                                    else FASCISTS) == team) for team in (LIBERALS, FASCISTS)}
            stats.matches.append(Match(order, False, side[LIBERALS], side[FASCISTS],
                                       abandoned=True))
        return None

    def finish(self) -> Stats:
        """Rate every rated game in date order, find the closed groups, and give the
        figures."""
        stats = self.stats
        tracked = stats.careers.get(stats.track) if stats.track else None
        ratings = rate(stats.matches, len(stats.careers),
                       (tracked.number,) if tracked else ())
        _rated(stats, ratings, tracked)
        stats.groups = _groups(stats.careers)
        return stats


def _groups(careers: dict[str, Career]) -> list[Group]:
    """The closed groups: players each of whose (at least :data:`GROUP_GAMES`) counted
    games had exactly the same players, :data:`GROUP_PLAYERS` or more; each member so
    flagged is given the group's number."""
    found: dict[frozenset[str], list[Career]] = {}
    for career in careers.values():
        circle = career.circle
        if circle is not None and career.seated >= GROUP_GAMES and len(circle) >= GROUP_PLAYERS:
            found.setdefault(circle, []).append(career)
    out = []
    for circle, flagged in sorted(found.items(),
                                  key=lambda kv: sorted(fold(careers[k].name) for k in kv[0])):
        def names(items: list[Career]) -> tuple[str, ...]:
            return tuple(c.name for c in sorted(items, key=lambda c: (fold(c.name), c.key)))
        out.append(Group(names([careers[k] for k in circle]), names(flagged),
                         min(c.seated for c in flagged)))
        for career in flagged:
            career.group = len(out)
    return out


def _not_counted(report: Report) -> str | None:
    """Why the audited log is not counted, or None."""
    if report.unreadable or not report.valid:
        first = report.problems[0]
        verdict = "unreadable" if report.unreadable else "invalid"
        rule = f"{first.rule}: " if first.rule and first.kind == "rule" else ""
        return f"{verdict}: {first.where(report.path)}: {rule}{first.message}"
    if report.summary is None or report.summary.winner is None or report.table is None:
        unfinished = next((w.message for w in report.warnings if w.kind == "unfinished"),
                          "the game is not over")
        return f"unfinished: {unfinished}"
    return None


def _match(game: Counted, played: list[Part], keys: list[str],
           careers: dict[str, Career]) -> Match:
    """What the ratings keep of a counted game."""
    seats: dict[int, list[tuple[int, float]]] = {}
    teams: dict[int, str] = {}
    for part, key in zip(played, keys):
        seats.setdefault(part.seat, []).append((careers[key].number, part.share))
        teams[part.seat] = part.team

    def seat(held: list[tuple[int, float]]) -> Seat:
        return held[0][0] if len(held) == 1 else tuple(held)

    side = {team: tuple(seat(seats[s]) for s in sorted(seats) if teams[s] == team)
            for team in (LIBERALS, FASCISTS)}
    return Match(game.order, game.winner == LIBERALS, side[LIBERALS], side[FASCISTS])


def _rated(stats: Stats, ratings: Ratings, tracked: Career | None) -> None:
    """Each player's ratings (a side rating only for a player who held a seat of that
    side in a rated game), and the tracked player's rating after each of their games."""
    for career in stats.careers.values():
        n = career.number
        career.provisional_below = stats.provisional
        career.rating = ratings.overall(n)
        career.liberal_rating = ratings.liberal[n] if ratings.liberal_weight[n] else None
        career.fascist_rating = ratings.fascist[n] if ratings.fascist_weight[n] else None
    stats.bases = ratings.bases
    stats.history = ratings.history.get(tracked.number, []) if tracked else []
    after = {point.order: point.overall for point in stats.history}
    stats.rows.sort(key=lambda r: r.game.order)
    for row in stats.rows:
        row.rating = after.get(row.game.order)


def collect(paths: list[str], aliases: Aliases | None = None, since: datetime | None = None,
            player: str | None = None, now: datetime | None = None, *,
            abandoned_after: timedelta | None = ABANDONED_AFTER,
            abandoned_cost: bool = False) -> Stats:
    """The stats of the logs at ``paths`` (files, in this order)."""
    collector = Collector(aliases, since, player, now, abandoned_after=abandoned_after,
                          abandoned_cost=abandoned_cost)
    for path in paths:
        collector.add(path)
    return collector.finish()


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


__all__ = ["EARLIEST", "SLACK", "Career", "Collector", "LeftOut", "Stats", "collect",
           "implausible", "since_time"]
