"""``shmod stats``: a forum's record across its games, from audited logs only
(docs/stats.md)."""

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from shmod.base.errors import BadInput
from shmod.base.plaintext import escaped, one_line
from shmod.cli.app import echo
from shmod.cli.completion import words
from shmod.cli.play import LANGUAGES
from shmod.texts.formats import FORMATS

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from shmod.audit.forum_stats import Career, Collector, Stats
    from shmod.audit.leaderboard import Column
    from shmod.texts.catalog import Language

#: The columns ``--sort`` takes (shmod.audit.leaderboard.COLUMNS, without importing it).
SORTS = ("player", "rating", "abandoned", "liberal-rating", "fascist-rating", "games", "win-rate",
         "liberal", "fascist", "hitler", "president", "chancellor", "enacted-liberal",
         "enacted-fascist", "vote-accuracy", "shot-accuracy", "claims",
         "claims-true-liberal", "claims-true-fascist", "prods", "lapses", "replacement",
         "replaced", "removed")


def stats(
    paths: Annotated[list[str], typer.Argument(
        metavar="FOLDER", help="Game logs, or folders searched recursively.",
        show_default=False)],
    alias: Annotated[str | None, typer.Option(
        "--alias", metavar="FILE",
        help="Players who changed names: a file of OLD=NEW lines.")] = None,
    since: Annotated[str | None, typer.Option(
        "--since", metavar="DATE",
        help="Only games created on or after DATE (2026-09-01): a season.")] = None,
    min_games: Annotated[int, typer.Option(
        "--min-games", metavar="N", help="Only players with at least N games.")] = 0,
    provisional: Annotated[int, typer.Option(
        "--provisional", metavar="N",
        help="A rating on fewer than N rated games is provisional (marked ?, ranked after "
             "the others; 0: none is).")] = 10,
    sort: Annotated[str, typer.Option(
        "--sort", metavar="COLUMN", autocompletion=words(*SORTS),
        help=f"Sort by this column, highest first: {', '.join(SORTS)}.")] = "rating",
    player: Annotated[str | None, typer.Option(
        "--player", metavar="NAME",
        help="One player's page: their figures and every game they played.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Everything as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option(
        "--csv", help="A spreadsheet: one row per player (with --player: per game).")] = False,
    as_post: Annotated[bool, typer.Option(
        "--post", help="A leaderboard post in the forum's markup (see --format).")] = False,
    fmt_name: Annotated[str | None, typer.Option(
        "--format", "-f", envvar="SHMOD_FORMAT", show_envvar=True, metavar="FORMAT",
        autocompletion=words(*FORMATS),
        help=f"The post's output profile: {', '.join(FORMATS)} (default plain).")] = None,
    language: Annotated[str | None, typer.Option(
        "--language", "-L", metavar="CODE", autocompletion=words(*LANGUAGES),
        help="The language of the post and the picture: "
             f"{', '.join(LANGUAGES)} (default en; docs/languages.md).")] = None,
    png: Annotated[str | None, typer.Option(
        "--png", metavar="FILE",
        help="Also draw win rates by player count and a player's rating over time "
             "(needs the images extra: pip install 'shmod[images]').")] = None,
) -> None:
    """A forum's record: each player's games, win rates, play and rating, counted from
    valid finished logs only (every other log is named, with why it was left out; a game
    left unfinished too long is listed as abandoned). Settings: the [stats] table of
    shmod.toml in the first folder (docs/settings.md)."""
    from shmod.audit import leaderboard
    from shmod.audit.batch import find_logs
    from shmod.audit.forum_stats import Collector, since_time
    from shmod.audit.players import Aliases
    from shmod.cli.clock import now
    from shmod.cli.settings import for_stats
    from shmod.texts import catalog, formats

    if sum((as_json, as_csv, as_post)) > 1:
        raise BadInput("choose one of --json, --csv and --post")
    if provisional < 0:
        raise BadInput(f"--provisional takes a number of games, 0 or more, not {provisional}")
    if sort not in SORTS:
        raise BadInput(f"--sort takes one of {', '.join(SORTS)}, not {sort!r}")
    if png is not None:
        from shmod.cli.posts import require_ending

        require_ending("--png", png, "PNG", (".png",))
    fmt = formats.get(fmt_name, lang=language) if fmt_name else formats.Plain(
        catalog.get(language))
    start = since_time(since) if since is not None else None
    aliases = Aliases.read(alias) if alias is not None else None
    abandoned_after, abandoned_cost = for_stats(paths)
    odd: list[tuple[str, str, bool]] = []
    files = find_logs(paths, odd)
    if not files and not odd:
        raise BadInput(f"no game logs (*.yaml, *.yml) in {', '.join(paths)}")
    collector = Collector(aliases, start, player, now(), provisional, abandoned_after,
                          abandoned_cost)
    for path, why, _fault in odd:
        collector.skip(path, why)
    _read(collector, files)
    result = collector.finish()
    career = leaderboard.find_player(result) if player is not None else None
    shown = leaderboard.ranked(result, sort, min_games)
    if png is not None:
        _png(png, result, career, shown, fmt.lang)
    if as_json:
        _json(result, shown, career)
    elif as_csv:
        typer.echo(escaped(leaderboard.games_csv(result.rows) if career
                           else leaderboard.csv_text(shown)), nl=False)
        _left_out_lines(result)
    elif as_post:
        echo(leaderboard.player_post(result, career, fmt) if career
             else leaderboard.post(result, shown, fmt))
        _left_out_lines(result)
    elif career is not None:
        _show_player(result, career)
    else:
        _show(result, shown)


def _read(collector: "Collector", files: list[str]) -> None:
    """Every log through ``collector``, with a progress bar on stderr at a terminal."""
    from rich.console import Console
    from rich.progress import Progress

    err = Console(stderr=True)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("Reading logs", total=len(files))
        for path in files:
            collector.add(path)
            bar.advance(task)


def _json(result: "Stats", shown: "list[Career]", career: "Career | None") -> None:
    import json

    data = result.to_json()
    data["players"] = [c.to_json() for c in shown]
    if career is not None:
        data["player"] = {**career.to_json(), "games": [row.to_json() for row in result.rows]}
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _left_out_lines(result: "Stats") -> None:
    """What was left out, on stderr (stdout holds the CSV or the post)."""
    for line in _warnings(result):
        sys.stderr.write(one_line(line) + "\n")
    for item in result.left_out:
        sys.stderr.write(one_line(f"Left out: {item.path}: {item.reason}") + "\n")
    for line in _abandoned_lines(result):
        sys.stderr.write(one_line(f"Abandoned: {line}") + "\n")
    if result.before:
        sys.stderr.write(f"Not counted: {result.before} game(s) created before --since\n")


def _warnings(result: "Stats") -> list[str]:
    """Names joined because they look alike: said, as they may be two people."""
    from shmod.forum.names import why_alike

    return [f"Warning: {' and '.join(repr(n) for n in names)} look alike "
            f"({why_alike(names[0], names[1])}) and are counted as one player"
            for names in result.lookalikes()]


def _console(*shown: "RenderableType") -> "Console":
    """The terminal's console; written to a file or a pipe, as wide as the widest of
    ``shown`` needs (rich would wrap at 80 columns, cutting words: "Rati ng")."""
    from rich.console import Console

    out = Console(highlight=False)
    if not out.is_terminal:
        out = Console(highlight=False, width=10_000)
        needed = max((out.measure(item).maximum for item in shown), default=80)
        out = Console(highlight=False, width=max(80, needed))
    return out


def _show(result: "Stats", shown: "list[Career]") -> None:
    from rich.table import Table
    from rich.text import Text

    from shmod.audit import leaderboard
    from shmod.cli.audit import win_tables

    tables = []
    board = leaderboard.rated(shown)
    for title, keys, careers in (("Leaderboard", leaderboard.board(board), board),
                                 ("How they played", leaderboard.PLAY, shown)):
        table = Table(title=title, header_style="bold")
        table.add_column("#", justify="right")
        columns = [leaderboard.BY_KEY[k] for k in keys]
        for column in columns:
            if column.key == "player":
                table.add_column(column.heading.msgid, no_wrap=True)
            else:
                table.add_column(column.heading.msgid, justify="right", overflow="fold")
        for n, career in enumerate(careers, 1):
            table.add_row(str(n), *(Text(one_line(_cell(c, career))) for c in columns))
        tables.append(table)
    tables += win_tables(result.by_players, result.by_how, result.counted)
    out = _console(*tables)
    _counted_line(out, result)
    for table in tables:
        out.print(table)
    if any(c.provisional(k) for c in shown for k in leaderboard.RATINGS):
        out.print(f"{leaderboard.PROVISIONAL} after a rating: provisional, on fewer than "
                  f"{result.provisional} rated games (listed after the others when sorted "
                  "by it; --provisional 0 to rank everyone together)", markup=False)
    if len(board) < len(shown):
        out.print(f"The leaderboard lists the {len(board)} player(s) with a rated game; "
                  f"{len(shown) - len(board)} more are under How they played.", markup=False)
    marks = sorted({c.group for c in shown if c.group is not None})
    for mark, line in zip(marks, leaderboard.group_lines(result, shown)):
        out.print(one_line(f"[{mark}] {line}"), markup=False, soft_wrap=True)
    _left_out(out, result)


def _cell(column: "Column", career: "Career") -> str:
    """A cell of the terminal's tables: the Player's with their closed group's mark."""
    from shmod.audit import leaderboard

    text = column.text(career, leaderboard.ENGLISH)
    if column.key == "player" and career.group is not None:
        text += f" [{career.group}]"
    return text


def _abandoned_lines(result: "Stats") -> list[str]:
    """Each abandoned game: where, its last entry, what it waits for, who sat in it."""
    return [f"{game.path}: last entry {game.last[:10]}, {game.waiting}; players: "
            f"{', '.join(game.players)}" for game in result.abandoned]


def _counted_line(out: "Console", result: "Stats") -> None:
    line = (f"{result.logs} log(s) read: {result.counted} counted, "
            f"{len(result.left_out)} left out")
    if result.abandoned:
        line += f", {len(result.abandoned)} abandoned"
    if result.before:
        line += f", {result.before} created before --since"
    if result.unrated:
        line += (f"; {result.unrated} counted but not rated (won by the moderator's "
                 "removal of Hitler)")
    if result.undated:
        line += f"; {result.undated} counted without a created time (rated first)"
    out.print(line, markup=False)
    for warning in _warnings(result):
        out.print(one_line(warning), markup=False, soft_wrap=True)


def _left_out(out: "Console", result: "Stats") -> None:
    """Every log left out, one line each: where, and why; then every abandoned game."""
    if result.left_out:
        out.print("Left out (only valid, finished games are counted):", markup=False)
    for item in result.left_out:
        out.print(one_line(f"  {item.path}: {item.reason}"), markup=False, soft_wrap=True)
    if result.abandoned:
        cost = ("each rated as a loss for all its players" if result.abandoned_cost else
                "not counted, no rating changed")
        out.print(f"Abandoned (no entry for more than {result.abandoned_days} days; {cost}; "
                  "shown beside each player's rating):", markup=False)
    for line in _abandoned_lines(result):
        out.print(one_line(f"  {line}"), markup=False, soft_wrap=True)


def _show_player(result: "Stats", career: "Career") -> None:
    from rich.table import Table
    from rich.text import Text

    from shmod.audit import leaderboard
    from shmod.audit.ratings import tenths

    figures = Table(title=Text(one_line(f"{career.name}: {career.overall.games} games")),
                    header_style="bold", show_header=False)
    figures.add_column("What")
    figures.add_column("Figure", overflow="fold")
    for what, text in leaderboard.figure_lines(career):
        figures.add_row(what, Text(one_line(text)))
    games = Table(title="Games, in date order", header_style="bold")
    for name in ("Date", "Log", "Players", "Seat", "Role", "Result", "How", "Share",
                 "Rating after"):
        games.add_column(name, no_wrap=name == "Date", overflow="fold",
                         justify="right" if name in ("Players", "Seat", "Share",
                                                     "Rating after") else "left")
    for row in result.rows:
        part = row.part
        games.add_row(
            (row.game.created or "undated")[:10], Text(one_line(row.game.path)),
            str(row.game.players), str(part.seat + 1), leaderboard.role_text(part.role),
            leaderboard.result_text(row),
            leaderboard.ENGLISH.term(leaderboard.HOW_SHORT[row.game.how]),
            f"{100 * part.share:.0f}%",
            tenths(row.rating.ordinal) if row.rating else "-")
    out = _console(figures, games)
    _counted_line(out, result)
    out.print(figures)
    out.print(games)
    _left_out(out, result)


def _png(path: str, result: "Stats", career: "Career | None", shown: "list[Career]",
         lang: "Language") -> None:
    """The picture, written to ``path``: ``career``'s ratings over time, or the leading
    players' overall ratings (the first established ones shown, rated again to keep their
    histories); its alt text on stderr."""
    from shmod.audit import chart, leaderboard
    from shmod.audit.ratings import rate
    from shmod.log import outfiles

    if career is not None:
        title = chart.player_title(career.name, result.history, lang)
        lines = chart.player_lines(result.history, lang)
    else:
        board = leaderboard.rated(shown)
        leaders = ([c for c in board if not c.provisional("rating")] or board)[:chart.LEADERS]
        histories = rate(result.matches, len(result.careers),
                         [c.number for c in leaders]).history
        title = chart.leaders_title(leaders, lang)
        lines = chart.leader_lines(leaders, histories)
    outfiles.write(path, chart.png(result, title, lines, lang))
    sys.stderr.write(one_line(f"Wrote {path} (alt text: "
                              f"{chart.describe(result, title, lines, lang)})") + "\n")
