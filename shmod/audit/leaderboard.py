"""The stats as people read them: the columns (shared by the terminal's table, ``--csv``
and ``--post``), sorting and filtering, the CSV, and the leaderboard post in the forum's
markup (:mod:`shmod.texts.formats`) and language (:mod:`shmod.texts.catalog`: the
moderator's terminal reads the columns' English)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shmod.audit.flags import Group
from shmod.audit.forum_stats import Career, GameRow, Stats, Tally, result
from shmod.audit.players import fold
from shmod.audit.ratings import Rating
from shmod.base.errors import BadInput
from shmod.base.records import Record
from shmod.texts import forum_texts, glossary
from shmod.texts.catalog import Language, Np_, Term, get as language
from shmod.texts.formats import Plain
from shmod.texts.numbers import day, decimal

Value = float | int | str | None
Text = Callable[[Career, Language], str]
#: The terminal's language: the moderator's own, English.
ENGLISH = language(None)


class Column(Record):
    """A column: its ``--sort`` key, its heading, the value it sorts by, its text."""

    key: str
    heading: Term
    value: Callable[[Career], Value]
    text: Text


def _rating(kind: str, get: Callable[[Career], Rating | None]) -> tuple[
        Callable[[Career], Value], Text]:
    def value(c: Career) -> Value:
        rating = get(c)
        return None if rating is None else rating.ordinal

    def text(c: Career, lang: Language) -> str:
        rating = get(c)
        if rating is None:
            return "-"
        return decimal(rating.ordinal, lang) + (PROVISIONAL if c.provisional(kind) else "")
    return value, text


#: After a provisional rating (on fewer rated games than ``--provisional``), as lichess
#: marks one.
PROVISIONAL = "?"
#: The sort keys of ratings: under them, players with a provisional rating come last.
RATINGS = ("rating", "liberal-rating", "fascist-rating")


def _tally(get: Callable[[Career], Tally]) -> tuple[Callable[[Career], Value], Text]:
    return (lambda c: get(c).rate), (lambda c, lang: share(get(c).wins, get(c).games, lang))


def _accuracy(part: str, whole: str) -> tuple[Callable[[Career], Value], Text]:
    def value(c: Career) -> Value:
        total = getattr(c, whole)
        return getattr(c, part) / total if total else None
    return value, lambda c, lang: share(getattr(c, part), getattr(c, whole), lang)


def _count(name: str) -> tuple[Callable[[Career], Value], Text]:
    return (lambda c: getattr(c, name)), (lambda c, lang: str(getattr(c, name)))


def _won(c: Career, lang: Language) -> str:
    if not c.overall.games:
        return "-"
    # TRANSLATORS: a leaderboard's cell: games won, and their share of the games played.
    return lang._("{wins} ({percent}%)", wins=c.overall.wins,
                  percent=round(100 * (c.overall.rate or 0)))


def share(part: int, whole: int, lang: Language = ENGLISH) -> str:
    """``63% of 8``, or ``-`` for nothing to count."""
    # TRANSLATORS: a leaderboard's cell: a share of a number of games (or votes, shots).
    return lang._("{percent}% of {whole}", percent=round(100 * part / whole),
                  whole=whole) if whole else "-"


#: Every column, in the terminal's order: the leaderboard, then how they played.
COLUMNS = [Column(key, heading, *getters) for key, heading, getters in (
    ("player", Np_("stats:column", "Player"), ((lambda c: fold(c.name)),
                                               (lambda c, lang: c.name))),
    ("rating", Np_("stats:column", "Rating"), _rating("rating", lambda c: c.rating)),
    ("abandoned", Np_("stats:column", "Abandoned"), _count("abandoned")),
    ("liberal-rating", Np_("stats:column", "Lib. rating"),
     _rating("liberal-rating", lambda c: c.liberal_rating)),
    ("fascist-rating", Np_("stats:column", "Fas. rating"),
     _rating("fascist-rating", lambda c: c.fascist_rating)),
    ("games", Np_("stats:column", "Games"), ((lambda c: c.overall.games),
                                             (lambda c, lang: str(c.overall.games)))),
    ("win-rate", Np_("stats:column", "Won"), ((lambda c: c.overall.rate), _won)),
    ("liberal", Np_("stats:column", "As Liberal"), _tally(lambda c: c.liberal)),
    ("fascist", Np_("stats:column", "As Fascist"), _tally(lambda c: c.fascist)),
    ("hitler", Np_("stats:column", "As Hitler"), _tally(lambda c: c.hitler)),
    ("president", Np_("stats:column", "President"), _count("president")),
    ("chancellor", Np_("stats:column", "Chancellor"), _count("chancellor")),
    ("enacted-liberal", Np_("stats:column", "Enacted L"), _count("enacted_liberal")),
    ("enacted-fascist", Np_("stats:column", "Enacted F"), _count("enacted_fascist")),
    ("vote-accuracy", Np_("stats:column", "Vote acc."), _accuracy("good_votes", "votes")),
    ("shot-accuracy", Np_("stats:column", "Shot acc."), _accuracy("good_shots", "shots")),
    ("claims", Np_("stats:column", "Claims"), _count("claims")),
    ("claims-true-liberal", Np_("stats:column", "True as Lib."),
     _accuracy("liberal_true", "liberal_claims")),
    ("claims-true-fascist", Np_("stats:column", "True as Fas."),
     _accuracy("fascist_true", "fascist_claims")),
    ("prods", Np_("stats:column", "Prods"), _count("prods")),
    ("lapses", Np_("stats:column", "Lapses"), _count("lapses")),
    ("replacement", Np_("stats:column", "Subbed in"), _count("came_in")),
    ("replaced", Np_("stats:column", "Replaced"), _count("left")),
    ("removed", Np_("stats:column", "Removed"), _count("removed")),
)]
BY_KEY = {column.key: column for column in COLUMNS}
#: The leaderboard's columns (the terminal's first table); ``abandoned`` only where a
#: game was abandoned (:func:`board`).
BOARD = ("player", "rating", "abandoned", "liberal-rating", "fascist-rating", "games",
         "win-rate", "liberal", "fascist", "hitler")
#: How they played (the terminal's second table).
PLAY = ("player", "president", "chancellor", "enacted-liberal", "enacted-fascist",
        "vote-accuracy", "shot-accuracy", "claims", "claims-true-liberal",
        "claims-true-fascist", "prods", "lapses", "replacement", "replaced", "removed")


def board(careers: list[Career]) -> list[str]:
    """The leaderboard's columns for ``careers``: :data:`BOARD`, without ``abandoned``
    when none of them sat in an abandoned game."""
    return [k for k in BOARD if k != "abandoned" or any(c.abandoned for c in careers)]


def rated(careers: list[Career]) -> list[Career]:
    """The players a leaderboard lists: those with a rated game (one they held a seat in
    at its end), in the order given."""
    return [c for c in careers if c.rated]


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


#: How a game was won, in a player's page (the audit's words, HOW, without their rule).
HOW_SHORT: dict[str, Term] = {
    "liberal_policies": Np_("stats:how", "five Liberal policies"),
    "hitler_executed": Np_("stats:how", "Hitler executed"),
    "hitler_removed": Np_("stats:how", "Hitler removed by the moderator"),
    "fascist_policies": Np_("stats:how", "six Fascist policies"),
    "hitler_elected": Np_("stats:how", "Hitler elected Chancellor"),
    "hitler_elected_tie": Np_("stats:how", "Hitler elected Chancellor on a tied vote"),
}
RESULT: dict[str, Term] = {"won": Np_("stats:result", "won"),
                           "lost": Np_("stats:result", "lost"),
                           "replaced": Np_("stats:result", "replaced")}
#: A player's games, in their page: the table's headings.
GAME_HEADINGS = (Np_("stats:game", "Date"), Np_("stats:game", "Players"),
                 Np_("stats:game", "Role"), Np_("stats:game", "Result"),
                 Np_("stats:game", "How"), Np_("stats:game", "Rating after"))


def post(stats: Stats, careers: list[Career], fmt: Plain) -> str:
    """The leaderboard as a post in ``fmt``'s markup and language: a numbered line a
    player (the rated ones of ``careers``), which a phone shows without scrolling
    sideways, then the closed groups and what the figures are."""
    lang = fmt.lang
    careers = rated(careers)
    dates = [c.first for c in careers if c.first] + [c.last for c in careers if c.last]
    if dates:
        heading = lang._n("Leaderboard: {n} game, {first} to {last}",
                          "Leaderboard: {n} games, {first} to {last}", stats.counted,
                          first=day(min(dates)[:10], lang), last=day(max(dates)[:10], lang))
    else:
        heading = lang._n("Leaderboard: {n} game", "Leaderboard: {n} games", stats.counted)
    return fmt.blocks([
        fmt.heading(fmt.escape(heading)),
        fmt.numbered([board_line(career, fmt) for career in careers]) if careers else
        fmt.italic(fmt.escape(lang._("No player to show."))),
        *(fmt.escape(line) for line in group_lines(stats, careers, lang)),
        fmt.escape(legend(stats, lang)),
    ])


def board_line(career: Career, fmt: Plain) -> str:
    """One player's line of the leaderboard post: name, rating, games and wins, and the
    games they abandoned and their closed group, if any."""
    lang = fmt.lang
    # TRANSLATORS: a leaderboard post's line: a player, their rating, their games and wins.
    line = lang._n("{name}: rating {rating} · {n} game, {wins} won ({percent}%)",
                   "{name}: rating {rating} · {n} games, {wins} won ({percent}%)",
                   career.overall.games, name=fmt.bold(_inline(fmt, career.name)),
                   rating=fmt.escape(BY_KEY["rating"].text(career, lang)),
                   wins=career.overall.wins, percent=round(100 * (career.overall.rate or 0)))
    if career.abandoned:
        # TRANSLATORS: after a player's rating: games they sat in that were left unfinished.
        line += " · " + lang._n("{n} game abandoned", "{n} games abandoned", career.abandoned)
    if career.group is not None:
        line += " · " + lang._("closed group {number}", number=career.group)
    return line


def _inline(fmt: Plain, text: str) -> str:
    """``text`` escaped inside a line (Markdown: where no heading or list starts)."""
    from shmod.texts.formats import Markdown

    return fmt.cell(text) if isinstance(fmt, Markdown) else fmt.escape(text)


def group_lines(stats: Stats, careers: list[Career], lang: Language = ENGLISH) -> list[str]:
    """A sentence for each closed group with a member among ``careers``: who is in it, and
    that the ratings are left as they are."""
    shown = {c.group for c in careers if c.group is not None}
    return [_group_line(number, group, lang)
            for number, group in enumerate(stats.groups, 1) if number in shown]


def _group_line(number: int, group: Group, lang: Language) -> str:
    """One closed group's sentence; the flagged players, named in a sentence, are joined
    with the language's "and"."""
    if group.flagged == group.players:
        # TRANSLATORS: a closed group whose every player is flagged: {players} named once
        # ("every game of theirs").
        return lang._n("Closed group {number}: {players}. Every game of theirs ({n} or more "
                       "each) had exactly these players; the ratings are left as they are.",
                       "Closed group {number}: {players}. Every game of theirs ({n} or more "
                       "each) had exactly these players; the ratings are left as they are.",
                       group.games, number=number, players=", ".join(group.players))
    return lang._n("Closed group {number}: {players}. Every game of {flagged} ({n} or more "
                   "each) had exactly these players; the ratings are left as they are.",
                   "Closed group {number}: {players}. Every game of {flagged} ({n} or more "
                   "each) had exactly these players; the ratings are left as they are.",
                   group.games, number=number, players=", ".join(group.players),
                   flagged=forum_texts.joined(list(group.flagged), lang))


def player_post(stats: Stats, career: Career, fmt: Plain) -> str:
    """One player's page as a post: their figures and their games."""
    lang = fmt.lang
    games = [[day((row.game.created or "")[:10], lang), str(row.game.players),
              glossary.role(lang, row.part.role), result_text(row, lang),
              lang.term(HOW_SHORT[row.game.how]),
              decimal(row.rating.ordinal, lang) if row.rating else "-"] for row in stats.rows]
    figures = [lang._("{what}: {figure}", what=what, figure=figure)
               for what, figure in figure_lines(career, lang)]
    return fmt.blocks([
        fmt.heading(lang._n("{name}: {n} game", "{name}: {n} games", career.overall.games,
                            name=fmt.escape(career.name))),
        fmt.bullets([fmt.escape(line) for line in figures]),
        fmt.table([lang.term(h) for h in GAME_HEADINGS], games),
        fmt.escape(legend(stats, lang)),
    ])


def result_text(row: GameRow, lang: Language = ENGLISH) -> str:
    """``won``, ``lost`` or ``replaced``, and whether they subbed in."""
    text = lang.term(RESULT[result(row.game, row.part)])
    # TRANSLATORS: a player's page: the result of a game they joined as a replacement.
    return lang._("{result} (subbed in)", result=text) if row.part.came_in else text


def figure_lines(career: Career, lang: Language = ENGLISH) -> list[tuple[str, str]]:
    """A player's figures, each as (what, value), for their page."""
    counts = ", ".join(lang._n("{n} player: {share}", "{n} players: {share}", n,
                               share=share(t.wins, t.games, lang))
                       for n, t in sorted(career.by_players.items()))
    how = ", ".join(lang._("{how}: {share}", how=lang.term(HOW_SHORT[k]),
                           share=share(t.wins, t.games, lang))
                    for k, t in sorted(career.by_how.items()))
    out = [(lang.term(c.heading), c.text(career, lang)) for c in COLUMNS
           if c.key != "player" and (c.key != "abandoned" or career.abandoned)]
    return [*out, (lang._p("stats:figure", "By player count"), counts or "-"),
            (lang._p("stats:figure", "By how the game was won"), how or "-")]


def role_text(role: str) -> str:
    """A role in the moderator's terminal."""
    return glossary.role(ENGLISH, role)


def legend(stats: Stats, lang: Language = ENGLISH) -> str:
    """What the figures of the leaderboard are, in a few sentences."""
    sentences = [
        lang._("Rating: openskill (Weng-Lin) mu - 3 sigma, 0 for a newcomer, updated game "
               "by game in date order; each side's advantage at each player count is taken "
               "into account."),
        lang._("Overall: the Liberal and Fascist ratings, weighted by games on each side."),
        lang._n("{mark}: provisional, on fewer than {n} rated game.",
                "{mark}: provisional, on fewer than {n} rated games.", stats.provisional,
                mark=PROVISIONAL) if stats.provisional else "",
        lang._("Won: games won of games finished in a seat."),
        lang._("Only audited, valid, finished game logs are counted."),
        lang._n("{n} undated game is rated before the dated ones.",
                "{n} undated games are rated before the dated ones.", stats.undated)
        if stats.undated else "",
        lang._n("{n} game won by the moderator's removal of Hitler is counted but not rated.",
                "{n} games won by the moderator's removal of Hitler are counted but not "
                "rated.", stats.unrated) if stats.unrated else "",
        _abandoned_sentence(stats, lang),
    ]
    return " ".join(sentence for sentence in sentences if sentence)


def _abandoned_sentence(stats: Stats, lang: Language) -> str:
    """What an abandoned game is, and what it does to a rating (when there is one)."""
    if not stats.abandoned or stats.abandoned_days is None:
        return ""
    what = lang._n("Abandoned: a game left unfinished, its last entry more than {n} day old.",
                   "Abandoned: a game left unfinished, its last entry more than {n} days old.",
                   stats.abandoned_days)
    cost = (lang._("Each counts as a loss for all its players in the ratings.")
            if stats.abandoned_cost else
            lang._("It is not counted and changes no rating."))
    return f"{what} {cost}"


__all__ = ["BOARD", "BY_KEY", "COLUMNS", "ENGLISH", "GAME_HEADINGS", "HOW_SHORT", "PLAY",
           "PROVISIONAL", "RATINGS", "RESULT", "board", "board_line", "csv_text",
           "figure_lines", "find_player", "games_csv", "group_lines", "legend", "player_post",
           "post", "ranked", "rated", "result_text", "role_text", "share"]
