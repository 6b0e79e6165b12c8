"""``shmod audit`` and ``shmod simulate`` (docs/audit.md)."""

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shmod.base.errors import BadInput
from shmod.base.plaintext import escaped, one_line
from shmod.cli.app import FormatOpt
from shmod.cli.completion import words
from shmod.texts.catalog import codes

if TYPE_CHECKING:
    from rich.table import Table

    from shmod.audit.batch import Totals
    from shmod.audit.log_audit import Report


def audit(
    paths: Annotated[list[str] | None, typer.Argument(
        metavar="PATH",
        help="Game logs, or folders searched recursively (default: $SHMOD_GAME).",
        show_default=False)] = None,
    commitment: Annotated[str | None, typer.Option(
        "--commitment", "-c", metavar="HEX",
        help="The commitment posted at the start (all 64 hex digits): check the setup "
             "against it.")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json",
        help="Machine-readable output (docs/audit.md).")] = False,
    thread: Annotated[str | None, typer.Option(
        "--thread", "-t", metavar="FILE",
        help="The game's thread as pasted text (any mix of posts, BBCode, Markdown or plain): "
             "the log must give every checkpoint posted there.")] = None,
    explain: Annotated[bool, typer.Option(
        "--explain",
        help="Show every value drawn from the seed (the deal, each reshuffle, each random "
             "lapse choice) with the inputs it was recomputed from (docs/verify.md).")] = False,
) -> None:
    """Check that a finished game followed the rules and was not tampered with.

    Exit 0: valid; 1: rule or integrity problems; 2: unreadable.
    """
    import json
    import os

    from shmod.audit import log_audit
    from shmod.forum.commitment import parse_hex

    if not paths:
        if not os.environ.get("SHMOD_GAME"):
            raise BadInput("name a game log or a folder to audit (or set SHMOD_GAME)")
        paths = [os.environ["SHMOD_GAME"]]
    if commitment is not None:
        parse_hex(commitment)
    text = None
    if thread is not None:
        from shmod.log.logfile import read_bytes

        raw, _ = read_bytes(thread, 16 * 1024 * 1024, "no such thread file")
        text = raw.decode("utf-8", "replace")
    if len(paths) == 1 and not os.path.isdir(paths[0]):
        report = log_audit.audit_file(paths[0], commitment, text)
        if as_json:
            sys.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
        else:
            _show_report(report, explain)
        raise typer.Exit(report.exit_code)
    if commitment is not None or thread is not None or explain:
        raise BadInput("--commitment, --thread and --explain check one game: give a single log")
    raise typer.Exit(_batch(paths, as_json))


def _show_report(report: "Report", explain: bool = False) -> None:
    from rich.console import Console
    from rich.markup import escape as markup_escape

    from shmod.audit.summary import lines

    out = Console(highlight=False, soft_wrap=True)
    verdict = "VALID" if report.valid else "UNREADABLE" if report.unreadable else "INVALID"
    style = "bold green" if report.valid else "bold red"
    out.print(f"{markup_escape(one_line(report.path))}: [{style}]{verdict}[/{style}] "
              f"({report.entries} entr{'y' if report.entries == 1 else 'ies'}, "
              f"{report.judged} judged by the rules)")
    shown = [(p.kind, p) for p in report.problems] + [("warning", p) for p in report.warnings]
    for label, problem in shown:
        rule = problem.rule if problem.rule and not problem.message.startswith(problem.rule) else ""
        out.print(one_line(f"  {problem.where(report.path)}: {label}: "
                           f"{rule + ': ' if rule else ''}{problem.message}"), markup=False)
    if report.stopped:
        out.print(one_line(f"  {report.stopped}"), markup=False)
    if report.commitment:
        checked = {True: " (matches the given commitment)",
                   False: " (does NOT match the given commitment)", None: ""}
        out.print(f"Commitment: {report.commitment}{checked[report.commitment_ok]}")
    if report.deal:
        out.print(one_line(f"Deal: {report.deal}"), markup=False)
    if report.seed:
        out.print(one_line(f"Seed: {report.seed}"), markup=False)
    if report.draws:
        _show_draws(out, report.draws, explain)
    if report.checkpoints is not None:
        good = sum(c.ok for c in report.checkpoints)
        out.print(f"Thread checkpoints: {good} of {len(report.checkpoints)} match the log",
                  markup=False)
        for line in report.coverage:
            out.print(one_line(f"  {line}"), markup=False)
    for item in report.corrections:
        out.print(one_line(_correction_line(item)), markup=False)
    if report.recorders:
        out.print(one_line("Recorded by: " + "; ".join(
            f"{r['moderator'] or 'nobody named'}: entr{'y' if r['count'] == 1 else 'ies'} "
            f"{r['entries']}" for r in report.recorders)), markup=False)
    for wrong in report.missent:
        what = "a post" if wrong["what"] == "post" else f"a PM to {wrong['to']}"
        by = f" by {wrong['by']}" if wrong["by"] else ""
        out.print(one_line(f"Given to the wrong reader (R-MISSENT, entry {wrong['entry']}): "
                           f"{what} (of entry {wrong['caused_by']}, {wrong['what']}) reached "
                           f"{wrong['reached']}{by} at {wrong['at'] or '?'}"), markup=False)
    for hand in report.handovers:
        verdict = {True: "checked against the thread",
                   False: "NOT found in the thread as this log gives it",
                   None: "take-over not checked: no thread given"}[hand.get("checked")]
        taken = (f", taken over at entry {hand['taken']} naming post {hand.get('post')}'s "
                 f"checkpoint ({verdict})" if hand["taken"] else ", not taken over")
        out.print(one_line(f"Hand-over (entry {hand['entry']}): {hand['from']} to "
                           f"{hand['to']}{taken}"), markup=False)
    if report.summary:
        for line in lines(report.summary):
            out.print(escaped(line), markup=False)


def _show_draws(out: Any, found: list[dict[str, Any]], explain: bool) -> None:
    """Every value drawn from a seed: counted, or each with its inputs (``--explain``)."""
    from shmod.audit.draws import explained

    kinds = [d["what"] for d in found]
    parts = [*(["the words' seed"] if "words" in kinds else []),
             *(["the deal (roles, deck" + (", first President)" if "first President" in kinds
                                           else ")")] if "roles" in kinds else []),
             *([_counted(kinds.count("reshuffle"), "reshuffle")] if "reshuffle" in kinds else []),
             *([_counted(kinds.count("lapse"), "random lapse choice")] if "lapse" in kinds
               else [])]
    how = ("each below, with its inputs (docs/verify.md says how to redo one)" if explain else
           "`--explain` shows each with its inputs")
    out.print(one_line(f"Drawn from the seed and recomputed: {', '.join(parts)}; {how}"),
              markup=False)
    if explain:
        for draw in found:
            for line in explained(draw):
                out.print(escaped(line), markup=False)


def _counted(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def _correction_line(item: dict[str, Any]) -> str:
    """One correction (R-CORRECT) or acknowledged edit (R-EDIT) as the audit lists it."""
    entries = ", ".join(map(str, item["entries"]))
    if item["kind"] == "acknowledgment":
        seen = "entries players had been shown" if item["seen"] else "nothing players had seen"
        return (f"Acknowledged edit (entry {item['entry']}, line {item['line']}): entries "
                f"{entries} were edited by hand ({seen}); reason: {item['reason']}")
    steps = "; ".join(item["steps"])
    seen = ("players had seen " + "; ".join(item["seen_steps"]) if item["seen"]
            else "players had not seen it")
    forced = ", forced" if item["forced"] else ""
    return (f"Correction (entry {item['entry']}, line {item['line']}{forced}): voided entries "
            f"{entries} ({steps}); {seen}; reason: {item['reason']}")


def _batch(paths: list[str], as_json: bool) -> int:
    import json

    from rich.console import Console
    from rich.progress import Progress

    from shmod.audit.batch import Totals, find_logs
    from shmod.audit.log_audit import audit_file

    odd: list[tuple[str, str, bool]] = []
    files = find_logs(paths, odd)
    if not files and not odd:
        raise BadInput(f"no game logs (*.yaml, *.yml) in {', '.join(paths)}")
    totals = Totals()
    for path, why, fault in odd:
        totals.skip(path, why, fault)
    err = Console(stderr=True)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("Auditing", total=len(files))
        for path in files:
            totals.add(audit_file(path))
            bar.advance(task)
    if as_json:
        sys.stdout.write(json.dumps(totals.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        _show_totals(totals)
    return totals.exit_code


def _show_totals(totals: "Totals") -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    out = Console(highlight=False)
    head = Table(title="Audit", show_header=True, header_style="bold")
    for name in ("Games", "Valid", "Invalid", "Unreadable", "Finished"):
        head.add_column(name, justify="right")
    head.add_row(str(totals.games), str(totals.valid),
                 str(len(totals.invalid) - totals.unreadable), str(totals.unreadable),
                 str(totals.finished))
    out.print(head)
    if totals.invalid:
        bad = Table(title="Invalid games: the first problem of each", header_style="bold")
        bad.add_column("Problem", overflow="fold")
        for _, message in totals.invalid:
            bad.add_row(Text(one_line(message)))
        out.print(bad)
    for table in win_tables(totals.by_players, totals.by_how, totals.finished):
        out.print(table)
    if totals.left_out:
        odd = Table(title="Named like a log, not one to read", header_style="bold")
        odd.add_column("Path", overflow="fold")
        odd.add_column("Why", overflow="fold")
        for path, why in totals.left_out:
            odd.add_row(Text(one_line(path)), Text(one_line(why)))
        out.print(odd)


def win_tables(by_players: dict[int, dict[str, int]], by_how: dict[str, int],
               finished: int) -> "list[Table]":
    """Liberal and Fascist win rates by player count, and how games were won (the batch
    audit's tables; ``shmod stats`` shows the same)."""
    from rich.table import Table

    from shmod.audit.summary import HOW
    from shmod.game.terms import FASCISTS, LIBERALS

    def pct(part: int, whole: int) -> str:
        return f"{part} ({100 * part / whole:.0f}%)" if whole else "0"

    wins = Table(title="Win rates by player count (valid finished games)", header_style="bold")
    for name in ("Players", "Games", "Liberals won", "Fascists won"):
        wins.add_column(name, justify="right")
    for players, row in sorted(by_players.items()):
        wins.add_row(str(players), str(row["games"]), pct(row[LIBERALS], row["games"]),
                     pct(row[FASCISTS], row["games"]))
    how = Table(title="Win conditions", header_style="bold")
    how.add_column("How")
    how.add_column("Games", justify="right")
    for key, count in sorted(by_how.items(), key=lambda kv: -kv[1]):
        how.add_row(HOW[key], pct(count, finished))
    return [wins, how]


def simulate(
    folder: Annotated[str, typer.Argument(help="Where to write the logs (created if missing).")],
    count: Annotated[int, typer.Option("--count", "-n", metavar="N", help="How many games.")] = 100,
    players: Annotated[str, typer.Option(
        "--players", "-p", metavar="COUNTS",
        help="Player counts: 7, 5-10 or 5,7,9 (cycled).")] = "5-10",
    seed: Annotated[str, typer.Option(
        help="Random seed: the same seed writes the same games.")] = "shmod",
    variant: Annotated[list[str] | None, typer.Option(
        "--variant", "-V", metavar="KEY=VALUE",
        help="A variant for every game, e.g. term5=seated (repeatable).")] = None,
    mixed: Annotated[bool, typer.Option(
        "--mixed-variants",
        help="Pick each variant not fixed by --variant at random per game.")] = False,
) -> None:
    """Write N complete random legal games as ordinary logs (test data for `audit`)."""
    from rich.console import Console
    from rich.progress import Progress

    from shmod.audit.simulate import parse_counts, simulate as run

    counts = parse_counts(players)
    err = Console(stderr=True)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("Simulating", total=count)
        for _ in run(folder, count, counts, seed, variants=variant, mixed=mixed):
            bar.advance(task)
    sys.stderr.write(f"Wrote {count} games to {folder}\n")


def replay(
    path: Annotated[str | None, typer.Argument(
        metavar="LOG", help="The game log (default: $SHMOD_GAME).",
        show_default=False)] = None,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE",
        help="Write the replay page: one HTML file that needs nothing else.")] = None,
    as_post: Annotated[bool, typer.Option(
        "--post", help="Print the whole game as one post for the thread.")] = False,
    fmt_name: FormatOpt = None,
    public: Annotated[bool, typer.Option(
        "--public", help="Leave the hidden information out even of a finished game.")] = False,
    commitment: Annotated[str | None, typer.Option(
        "--commitment", "-c", metavar="HEX",
        help="The commitment posted at the start: the page says whether the setup matches "
             "it.")] = None,
    language: Annotated[str | None, typer.Option(
        "--language", "-L", metavar="CODE", autocompletion=words(*codes()),
        help="The language of the page and the post (default: the game's; "
             "docs/languages.md).")] = None,
) -> None:
    """After the game: a page anyone can step through (-o), or the whole game in one post."""
    import os

    from shmod.audit import replay as replays
    from shmod.texts import catalog

    path = path or os.environ.get("SHMOD_GAME")
    if not path:
        raise BadInput("name a game log (or set SHMOD_GAME)")
    if output is None and not as_post:
        raise BadInput("say what to make: -o FILE writes the replay page, --post prints the "
                       "game in one post")
    if commitment is not None:
        from shmod.forum.commitment import parse_hex

        parse_hex(commitment)
    if as_post and fmt_name:  # refused before the page is written, not after
        from shmod.texts import formats

        formats.get(fmt_name)
    if language is not None:
        catalog.get(language)
    if output is not None:
        from shmod.cli.posts import require_ending
        from shmod.log import outfiles

        require_ending("-o", output, "an HTML page", (".html", ".htm"))

        made = replays.page(path, public=public, commitment=commitment, language=language)
        outfiles.write(output, made.html.encode())
        hidden = ("the hidden information behind switches, as the game is over" if
                  made.revealed else "the public record only")
        sys.stderr.write(f"Wrote {output}: {made.steps} steps, "
                         f"{len(made.html.encode()) // 1024} KB, {hidden}. One file: open it "
                         "in any browser.\n")
    if as_post:
        from shmod.cli.app import echo
        from shmod.cli.posts import unhidden

        whole = replays.post(path, fmt_name, public=public, language=language)
        if whole.revealed:
            unhidden(whole.fmt)
        echo(whole.text)
