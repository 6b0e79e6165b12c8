"""The stats as people read them: the columns (shared by the terminal's table, ``--csv``
and ``--post``), sorting and filtering, the CSV, and the leaderboard post in the forum's
markup (:mod:`shmod.texts.formats`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shmod.audit.ratings import Rating, tenths
from shmod.audit.stats import Career, GameRow, Stats, Tally, fold, result
from shmod.audit.summary import HOW
from shmod.base.errors import BadInput
from shmod.base.records import Record
from shmod.texts.formats import Plain

Value = float | int | str | None


class Column(Record):
    """A column: its ``--sort`` key, its heading, the value it sorts by, its text."""

    key: str
    heading: str
    value: Callable[[Career], Value]
    text: Callable[[Career], str]


def _rating(kind: str, get: Callable[[Career], Rating | None]) -> tuple[
        Callable[[Career], Value], Callable[[Career], str]]:
    def value(c: Career) -> Value:
        rating = get(c)
        return None if rating is None else rating.ordinal

    def text(c: Career) -> str:
        rating = get(c)
        if rating is None:
            return "-"
        return tenths(rating.ordinal) + (PROVISIONAL if c.provisional(kind) else "")
    return value, text


#: After a provisional rating (on fewer rated games than ``--provisional``), as lichess
#: marks one.
PROVISIONAL = "?"
#: The sort keys of ratings: under them, players with a provisional rating come last.
RATINGS = ("rating", "liberal-rating", "fascist-rating")


def _tally(get: Callable[[Career], Tally]) -> tuple[Callable[[Career], Value],
                                                    Callable[[Career], str]]:
    return (lambda c: get(c).rate), (lambda c: share(get(c).wins, get(c).games))


def _accuracy(part: str, whole: str) -> tuple[Callable[[Career], Value],
                                              Callable[[Career], str]]:
    def value(c: Career) -> Value:
        total = getattr(c, whole)
        return getattr(c, part) / total if total else None
    return value, lambda c: share(getattr(c, part), getattr(c, whole))


def _count(name: str) -> tuple[Callable[[Career], Value], Callable[[Career], str]]:
    return (lambda c: getattr(c, name)), (lambda c: str(getattr(c, name)))


def share(part: int, whole: int) -> str:
    """``63% of 8``, or ``-`` for nothing to count."""
    return f"{100 * part / whole:.0f}% of {whole}" if whole else "-"


#: Every column, in the terminal's order: the leaderboard, then how they played.
COLUMNS = [Column(key, heading, *getters) for key, heading, getters in (
    ("player", "Player", ((lambda c: fold(c.name)), (lambda c: c.name))),
    ("rating", "Rating", _rating("rating", lambda c: c.rating)),
    ("liberal-rating", "Lib. rating", _rating("liberal-rating", lambda c: c.liberal_rating)),
    ("fascist-rating", "Fas. rating", _rating("fascist-rating", lambda c: c.fascist_rating)),
    ("games", "Games", ((lambda c: c.overall.games), (lambda c: str(c.overall.games)))),
    ("win-rate", "Won", ((lambda c: c.overall.rate), (lambda c: f"{c.overall.wins} "
                         f"({100 * (c.overall.rate or 0):.0f}%)" if c.overall.games else "-"))),
    ("liberal", "As Liberal", _tally(lambda c: c.liberal)),
    ("fascist", "As Fascist", _tally(lambda c: c.fascist)),
    ("hitler", "As Hitler", _tally(lambda c: c.hitler)),
    ("president", "President", _count("president")),
    ("chancellor", "Chancellor", _count("chancellor")),
    ("enacted-liberal", "Enacted L", _count("enacted_liberal")),
    ("enacted-fascist", "Enacted F", _count("enacted_fascist")),
    ("vote-accuracy", "Vote acc.", _accuracy("good_votes", "votes")),
    ("shot-accuracy", "Shot acc.", _accuracy("good_shots", "shots")),
    ("prods", "Prods", _count("prods")),
    ("lapses", "Lapses", _count("lapses")),
    ("replacement", "Subbed in", _count("came_in")),
    ("replaced", "Replaced", _count("left")),
    ("removed", "Removed", _count("removed")),
)]
BY_KEY = {column.key: column for column in COLUMNS}
#: The leaderboard's columns (the terminal's first table, and the post's).
BOARD = ("player", "rating", "liberal-rating", "fascist-rating", "games", "win-rate",
         "liberal", "fascist", "hitler")
#: How they played (the terminal's second table).
PLAY = ("player", "president", "chancellor", "enacted-liberal", "enacted-fascist",
        "vote-accuracy", "shot-accuracy", "prods", "lapses", "replacement", "replaced",
        "removed")


def ranked(stats: Stats, sort: str = "rating", min_games: int = 0) -> list[Career]:
    """The players with at least ``min_games`` counted games, sorted by column ``sort``
    (highest first; ``player``: by name), ties by name; by a rating, the players whose
    rating is provisional after the others."""
    if sort not in BY_KEY:
        raise BadInput(f"--sort takes one of {', '.join(BY_KEY)}, not {sort!r}")
    if min_games < 0:
        raise BadInput(f"--min-games takes a number of games, 0 or more, not {min_games}")
    shown = [c for c in stats.careers.values() if c.overall.games >= min_games]
    shown.sort(key=lambda c: (fold(c.name), c.key))
    if sort != "player":
        value = BY_KEY[sort].value
        present = [(float(v), c) for c in shown if isinstance(v := value(c), int | float)]
        present.sort(key=lambda vc: vc[0], reverse=True)  # stable: ties stay by name
        if sort in RATINGS:
            present.sort(key=lambda vc: vc[1].provisional(sort))
        shown = [c for _, c in present] + [c for c in shown if value(c) is None]
    return shown


def find_player(stats: Stats) -> Career:
    """The player ``--player`` named, or an error naming the closest names."""
    career = stats.careers.get(stats.track or "")
    if career is not None:
        return career
    import difflib

    names = {fold(c.name): c.name for c in stats.careers.values()}
    close = difflib.get_close_matches(stats.track or "", list(names), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(names[k] for k in close)}?" if close else ""
    raise BadInput(f"--player: nobody called {stats.track!r} played in a counted game{hint}")


def csv_text(careers: list[Career]) -> str:
    """One row per player, every figure as a number (rates as fractions; the figures by
    player count and by how games were won are in ``--json``)."""
    return _csv([_flat(c.to_json()) for c in careers])


def games_csv(rows: list[GameRow]) -> str:
    """One player's games, one row each."""
    return _csv([_flat(row.to_json()) for row in rows])


#: A rating's fields, empty in a row of a player without that rating.
_NO_RATING = {"rating": None, "mu": None, "sigma": None, "provisional": None}


def _flat(item: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A JSON object as one row: nested fields named ``outer_inner``."""
    out: dict[str, Any] = {}
    for key, value in item.items():
        if value is None and not prefix and key.endswith("rating"):
            value = _NO_RATING
        if isinstance(value, dict):
            if prefix or key not in ("by_players", "by_how"):
                out.update(_flat(value, f"{prefix}{key}_"))
        else:
            out[prefix + key] = value
    return out


def _csv(rows: list[dict[str, Any]]) -> str:
    import csv
    import io

    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
    return out.getvalue()


def _cell(value: Any) -> Any:
    """A cell a spreadsheet shows as typed: text that would start a formula (``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return first) gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def post(stats: Stats, careers: list[Career], fmt: Plain) -> str:
    """The leaderboard as a post in ``fmt``'s markup."""
    columns = [BY_KEY[k] for k in BOARD]
    rows = [[str(n), *(c.text(career) for c in columns)] for n, career in enumerate(careers, 1)]
    dates = [c.first for c in careers if c.first] + [c.last for c in careers if c.last]
    span = f", {min(dates)[:10]} to {max(dates)[:10]}" if dates else ""
    return fmt.blocks([
        fmt.heading(fmt.escape(f"Leaderboard: {stats.counted} games{span}")),
        fmt.table(["#", *(c.heading for c in columns)], rows) if rows else
        fmt.italic("No player to show."),
        fmt.escape(_legend(stats)),
    ])


def player_post(stats: Stats, career: Career, fmt: Plain) -> str:
    """One player's page as a post: their figures and their games."""
    games = [[(row.game.created or "")[:10], str(row.game.players), role_text(row.part.role),
              result(row.game, row.part) + (" (subbed in)" if row.part.came_in else ""),
              HOW[row.game.how].split(" (")[0],
              tenths(row.rating.ordinal) if row.rating else "-"] for row in stats.rows]
    figures = [f"{heading}: {text}" for heading, text in figure_lines(career)]
    return fmt.blocks([
        fmt.heading(f"{fmt.escape(career.name)}: {career.overall.games} games"),
        fmt.bullets([fmt.escape(line) for line in figures]),
        fmt.table(["Date", "Players", "Role", "Result", "How", "Rating after"], games),
        fmt.escape(_legend(stats)),
    ])


def figure_lines(career: Career) -> list[tuple[str, str]]:
    """A player's figures, each as (what, value), for their page."""
    counts = ", ".join(f"{n} players {share(t.wins, t.games)}"
                       for n, t in sorted(career.by_players.items()))
    how = ", ".join(f"{HOW[k].split(' (')[0]} {share(t.wins, t.games)}"
                    for k, t in sorted(career.by_how.items()))
    out = [(c.heading, c.text(career)) for c in COLUMNS if c.key != "player"]
    return [*out, ("By player count", counts or "-"), ("By how the game was won", how or "-")]


def role_text(role: str) -> str:
    return {"liberal": "Liberal", "fascist": "Fascist", "hitler": "Hitler"}[role]


def _legend(stats: Stats) -> str:
    note = (f" {stats.undated} undated game(s) are rated before the dated ones."
            if stats.undated else "")
    if stats.unrated:
        note += (f" {stats.unrated} game(s) won by the moderator's removal of Hitler are "
                 "counted but not rated.")
    return ("Rating: openskill (Weng-Lin) mu - 3 sigma, 0 for a newcomer, updated game by "
            "game in date order; each side's advantage at each player count is taken into "
            "account. Overall: the Liberal and Fascist ratings, weighted by games on each "
            f"side. {PROVISIONAL}: provisional, on fewer than {stats.provisional} rated "
            "games. Won: games won of games finished in a seat. Only audited, valid, "
            "finished game logs are counted." + note)


__all__ = ["BOARD", "BY_KEY", "COLUMNS", "PLAY", "PROVISIONAL", "RATINGS", "csv_text",
           "figure_lines", "find_player", "games_csv", "player_post", "post", "ranked",
           "role_text", "share"]
