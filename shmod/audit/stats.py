"""``shmod stats``: a forum's record across all its games, from audited logs only
(docs/stats.md).

Each log is audited on its own (:func:`shmod.audit.audit.audit_file`), and only a valid,
finished game is counted; every other log is named with the reason it was left out. One
log is in memory at a time: a counted game adds to each player's :class:`Career` at once
and leaves behind only what the ratings need in date order (:class:`~shmod.audit.ratings.Match`,
a few hundred bytes). Players are matched across games by name, case and accents folded,
after the aliases of players who changed names.
"""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shmod.audit.audit import Report, audit_file
from shmod.audit.played import Part, parts
from shmod.audit.ratings import Match, Point, Rating, Ratings, Seat, rate
from shmod.base import digest
from shmod.base.errors import BadInput, InternalError
from shmod.base.records import Record, field
from shmod.game.terms import FASCISTS, LIBERALS


def fold(name: str) -> str:
    """``name`` as players are matched across games: spaces made one, accents dropped
    (Unicode NFKD without its combining marks), case folded: ``Zoë`` and ``ZOE`` match."""
    text = " ".join(name.split())
    if not text.isascii():
        import unicodedata

        text = "".join(c for c in unicodedata.normalize("NFKD", text)
                       if not unicodedata.combining(c))
    return text.casefold()


class Aliases:
    """Players who changed names: folded old name -> folded name it is counted under."""

    def __init__(self, pairs: dict[str, str] | None = None) -> None:
        self.pairs = pairs or {}

    @classmethod
    def read(cls, path: str) -> Aliases:
        """An alias file: one ``OLD=NEW`` a line (split at the first ``=``); blank lines and
        lines starting with ``#`` ignored (a name may hold ``#``); chains (``A=B``,
        ``B=C``) followed to their end."""
        from shmod.log.logfile import read_bytes

        data, _ = read_bytes(path, 1024 * 1024, "no such alias file")
        pairs: dict[str, str] = {}
        lines: dict[str, int] = {}
        for number, raw in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            old, sep, new = line.partition("=")
            if not sep or not old.strip() or not new.strip():
                raise BadInput(f"{path}:{number}: an alias is OLD=NEW (the old name, the new "
                               f"one), not {line!r}")
            key = fold(old)
            if key in pairs and pairs[key] != fold(new):
                raise BadInput(f"{path}:{number}: {old.strip()!r} already has an alias "
                               f"(line {lines[key]})")
            pairs[key], lines[key] = fold(new), number
        for key in pairs:
            seen = [key]
            while pairs.get(seen[-1], seen[-1]) != seen[-1]:
                seen.append(pairs[seen[-1]])
                if seen[-1] in seen[:-1]:
                    raise BadInput(f"{path}:{lines[key]}: the aliases go round in a circle: "
                                   + " = ".join(seen))
        return cls({key: cls._end(pairs, key) for key in pairs})

    @staticmethod
    def _end(pairs: dict[str, str], key: str) -> str:
        while pairs.get(key, key) != key:
            key = pairs[key]
        return key

    def key(self, name: str) -> str:
        """The key ``name`` is counted under."""
        folded = fold(name)
        return self.pairs.get(folded, folded)


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 date or time as UTC (a date alone: its midnight UTC), or None."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


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
    liberal_seats: int = 0  # seats held as a Liberal, replaced out or not
    fascist_seats: int = 0
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
    rating: Rating | None = None
    liberal_rating: Rating | None = None
    fascist_rating: Rating | None = None

    @property
    def vote_accuracy(self) -> float | None:
        return self.good_votes / self.votes if self.votes else None

    @property
    def shot_accuracy(self) -> float | None:
        return self.good_shots / self.shots if self.shots else None

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
        self.liberal_seats += part.team == LIBERALS
        self.fascist_seats += part.team == FASCISTS
        self.came_in += part.came_in
        self.left += part.left
        self.removed += part.removed
        for name in ("prods", "lapses", "president", "chancellor", "enacted_liberal",
                     "enacted_fascist", "votes", "good_votes", "shots", "good_shots"):
            setattr(self, name, getattr(self, name) + getattr(part, name))
        if game.order >= self.named:
            self.name, self.named = part.name, game.order
        if game.created:
            self.first = min(self.first or game.created, game.created)
            self.last = max(self.last or game.created, game.created)

    def to_json(self) -> dict[str, Any]:
        def rating(value: Rating | None) -> dict[str, float] | None:
            return value.to_json() if value else None

        return {
            "name": self.name, "key": self.key,
            "rating": rating(self.rating), "liberal_rating": rating(self.liberal_rating),
            "fascist_rating": rating(self.fascist_rating),
            **self.overall.to_json(),
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
            "prods": self.prods, "lapses": self.lapses, "replaced_in": self.came_in,
            "replaced_out": self.left, "removed": self.removed,
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
    before: int = 0  # counted otherwise, but created before --since (or undated with it)
    undated: int = 0  # counted without a created time: rated before every dated game
    careers: dict[str, Career] = field(default_factory=dict)
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

    def to_json(self) -> dict[str, Any]:
        return {
            "logs": self.logs, "counted": self.counted,
            "left_out": [{"path": o.path, "reason": o.reason} for o in self.left_out],
            "before_since": self.before, "undated": self.undated,
            "wins_by_players": {str(n): row for n, row in sorted(self.by_players.items())},
            "wins_by_condition": dict(sorted(self.by_how.items())),
        }


class Collector:
    """Reads logs one at a time into :class:`Stats`."""

    def __init__(self, aliases: Aliases | None = None, since: datetime | None = None,
                 player: str | None = None) -> None:
        self.aliases = aliases or Aliases()
        self.since = since
        self.stats = Stats(track=self.aliases.key(player) if player is not None else None)

    def add(self, path: str) -> None:
        """Audit the log at ``path``, and count it or say why not. Never raises for what
        a log holds: a log that trips a bug in shmod is left out, saying so, and the
        others are still counted (as the batch audit goes on)."""
        self.stats.logs += 1
        report = audit_file(path)
        why = _not_counted(report)
        if why is None:
            try:
                why = self._count(path, report)
            except Exception as err:  # noqa: BLE001 - a bug: said, and the others counted
                why = f"not counted: {InternalError(f'{type(err).__name__}: {err}', path)}"
        if why is not None:
            self.stats.left_out.append(LeftOut(path, why))

    def _count(self, path: str, report: Report) -> str | None:
        """Count an audited valid finished game; or why it is not counted."""
        stats = self.stats
        assert report.log is not None and report.state is not None and report.summary
        sha = digest.sha256_hex(report.log.data)
        if sha in stats.seen:
            return f"the same log as {stats.seen[sha]}, byte for byte: counted once"
        created = report.log.header.get("created")
        when = parse_time(created) if isinstance(created, str) else None
        if self.since is not None and (when is None or when < self.since):
            stats.before += 1
            return None
        stamp = when.isoformat().replace("+00:00", "Z") if when else None
        order = when.isoformat(timespec="microseconds") if when else ""  # sorts as it reads
        summary = report.summary
        assert summary.winner is not None and summary.how is not None
        state = report.state
        assert state is not None
        game = Counted(path, stamp, (order, sha), summary.players, summary.winner,
                       summary.how)
        played = parts(state, accuracy=state.setup.custom is None)
        keys = [self.aliases.key(p.name) for p in played]
        if len(set(keys)) < len(keys):
            twins = sorted({p.name for p, k in zip(played, keys) if keys.count(k) > 1})
            return ("two seats are one player once case, accents and aliases are folded: "
                    + ", ".join(twins))
        stats.seen[sha] = path
        stats.undated += when is None
        row = stats.by_players.setdefault(game.players, {"games": 0, LIBERALS: 0, FASCISTS: 0})
        row["games"] += 1
        row[game.winner] += 1
        stats.by_how[game.how] = stats.by_how.get(game.how, 0) + 1
        for part, key in zip(played, keys):
            career = stats.careers.get(key)
            if career is None:
                career = stats.careers[key] = Career(key, part.name, len(stats.careers))
            career.add(part, game)
            if key == stats.track:
                stats.rows.append(GameRow(game, part))
        stats.matches.append(_match(game, played, keys, stats.careers))
        return None

    def finish(self) -> Stats:
        """Rate every counted game in date order and give the figures."""
        stats = self.stats
        tracked = stats.careers.get(stats.track) if stats.track else None
        ratings = rate(stats.matches, len(stats.careers),
                       tracked.number if tracked else None)
        _rated(stats, ratings)
        return stats


def _not_counted(report: Report) -> str | None:
    """Why the audited log is not counted, or None."""
    if report.unreadable or not report.valid:
        first = report.problems[0]
        verdict = "unreadable" if report.unreadable else "invalid"
        rule = f"{first.rule}: " if first.rule and first.kind == "rule" else ""
        return f"{verdict}: {first.where(report.path)}: {rule}{first.message}"
    if report.summary is None or report.summary.winner is None or report.state is None:
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


def _rated(stats: Stats, ratings: Ratings) -> None:
    """Each player's ratings (a role rating only for a player who held a seat of that
    team), and the tracked player's rating after each of their games."""
    for career in stats.careers.values():
        n = career.number
        career.rating = ratings.overall[n]
        career.liberal_rating = ratings.liberal[n] if career.liberal_seats else None
        career.fascist_rating = ratings.fascist[n] if career.fascist_seats else None
    stats.history = ratings.history
    after = {point.order: point.overall for point in ratings.history}
    stats.rows.sort(key=lambda r: r.game.order)
    for row in stats.rows:
        row.rating = after.get(row.game.order)


def collect(paths: list[str], aliases: Aliases | None = None, since: datetime | None = None,
            player: str | None = None) -> Stats:
    """The stats of the logs at ``paths`` (files, in this order)."""
    collector = Collector(aliases, since, player)
    for path in paths:
        collector.add(path)
    return collector.finish()


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


__all__ = ["Aliases", "Career", "Collector", "LeftOut", "Stats", "collect", "fold",
           "since_time"]
