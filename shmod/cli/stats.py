"""``shmod stats``: a forum's record across its games, from audited logs only
(docs/stats.md)."""

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from shmod.base.errors import BadInput
from shmod.base.plaintext import escaped, one_line
from shmod.cli.app import app, echo
from shmod.cli.completion import words
from shmod.texts.formats import FORMATS

if TYPE_CHECKING:
    from rich.console import Console

    from shmod.audit.stats import Career, Collector, Stats

#: The columns ``--sort`` takes (shmod.audit.leaderboard.COLUMNS, without importing it).
SORTS = ("player", "rating", "liberal-rating", "fascist-rating", "games", "win-rate",
         "liberal", "fascist", "hitler", "president", "chancellor", "enacted-liberal",
         "enacted-fascist", "vote-accuracy", "shot-accuracy", "prods", "lapses",
         "replacement", "replaced", "removed")


@app.command()
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
    png: Annotated[str | None, typer.Option(
        "--png", metavar="FILE",
        help="Also draw win rates by player count and a player's rating over time "
             "(needs the images extra: pip install 'shmod[images]').")] = None,
) -> None:
    """A forum's record: each player's games, win rates, play and rating, counted from
    valid finished logs only (every other log is named, with why it was left out)."""
    from shmod.audit import leaderboard
    from shmod.audit.batch import find_logs
    from shmod.audit.stats import Aliases, Collector, since_time
    from shmod.texts import formats

    if sum((as_json, as_csv, as_post)) > 1:
        raise BadInput("choose one of --json, --csv and --post")
    if sort not in SORTS:
        raise BadInput(f"--sort takes one of {', '.join(SORTS)}, not {sort!r}")
    if png is not None:
        from shmod.cli.posts import _named

        _named("--png", png, "PNG", (".png",))
    fmt = formats.get(fmt_name) if fmt_name else formats.Plain()
    start = since_time(since) if since is not None else None
    aliases = Aliases.read(alias) if alias is not None else None
    files = find_logs(paths)
    if not files:
        raise BadInput(f"no game logs (*.yaml, *.yml) in {', '.join(paths)}")
    collector = Collector(aliases, start, player)
    _read(collector, files)
    result = collector.finish()
    career = leaderboard.find_player(result) if player is not None else None
    shown = leaderboard.ranked(result, sort, min_games)
    if png is not None:
        _png(png, result, career or (shown[0] if shown else None))
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
    for item in result.left_out:
        sys.stderr.write(one_line(f"Left out: {item.path}: {item.reason}") + "\n")
    if result.before:
        sys.stderr.write(f"Not counted: {result.before} game(s) created before --since\n")


def _show(result: "Stats", shown: "list[Career]") -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from shmod.audit import leaderboard
    from shmod.cli.audit import win_tables

    out = Console(highlight=False)
    _counted_line(out, result)
    for title, keys in (("Leaderboard", leaderboard.BOARD), ("How they played",
                                                              leaderboard.PLAY)):
        table = Table(title=title, header_style="bold")
        table.add_column("#", justify="right")
        columns = [leaderboard.BY_KEY[k] for k in keys]
        for column in columns:
            if column.key == "player":
                table.add_column(column.heading, no_wrap=True)
            else:
                table.add_column(column.heading, justify="right", overflow="fold")
        for n, career in enumerate(shown, 1):
            table.add_row(str(n), *(Text(one_line(c.text(career))) for c in columns))
        out.print(table)
    for table in win_tables(result.by_players, result.by_how, result.counted):
        out.print(table)
    _left_out(out, result)


def _counted_line(out: "Console", result: "Stats") -> None:
    line = (f"{result.logs} log(s) read: {result.counted} counted, "
            f"{len(result.left_out)} left out")
    if result.before:
        line += f", {result.before} created before --since"
    if result.undated:
        line += f"; {result.undated} counted without a created time (rated first)"
    out.print(line, markup=False)


def _left_out(out: "Console", result: "Stats") -> None:
    """Every log left out, one line each: where, and why."""
    if result.left_out:
        out.print("Left out (only valid, finished games are counted):", markup=False)
    for item in result.left_out:
        out.print(one_line(f"  {item.path}: {item.reason}"), markup=False, soft_wrap=True)


def _show_player(result: "Stats", career: "Career") -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from shmod.audit import leaderboard
    from shmod.audit.stats import result as result_of
    from shmod.audit.summary import HOW

    out = Console(highlight=False)
    _counted_line(out, result)
    figures = Table(title=Text(one_line(f"{career.name}: {career.overall.games} games")),
                    header_style="bold", show_header=False)
    figures.add_column("What")
    figures.add_column("Figure", overflow="fold")
    for what, text in leaderboard.figure_lines(career):
        figures.add_row(what, Text(one_line(text)))
    out.print(figures)
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
            result_of(row.game, part) + (" (subbed in)" if part.came_in else ""),
            HOW[row.game.how].split(" (")[0], f"{100 * part.share:.0f}%",
            f"{row.rating.ordinal:.1f}" if row.rating else "-")
    out.print(games)
    _left_out(out, result)


def _png(path: str, result: "Stats", career: "Career | None") -> None:
    """The picture, written to ``path``; its alt text on stderr."""
    from shmod.audit import chart
    from shmod.audit.ratings import rate
    from shmod.log import outfiles

    history = result.history
    if career is not None and career.key != result.track:  # the leader's, rated again
        history = rate(result.matches, len(result.careers), career.number).history
    outfiles.write(path, chart.png(result, career, history))
    sys.stderr.write(one_line(f"Wrote {path} (alt text: "
                              f"{chart.describe(result, career, history)})") + "\n")
