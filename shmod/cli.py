"""The ``shmod`` command: thin wrappers that load, call one library function, report.

Every domain error becomes ``Error: …`` on stderr and a non-zero exit; the log is only
ever appended to by :func:`shmod.game.record`, after the step has been validated.
"""
# No ``from __future__ import annotations`` in the cli modules: typer would then
# eval() every command's annotation strings at each start (~9 ms of ~13 ms).

import os
import sys
from collections.abc import Callable
from typing import Annotated, Optional

import typer

from shmod.cli_help import App
from shmod.completion import player_names, words
from shmod.errors import BadInput, InternalError, ShmodError
from shmod.plaintext import escaped, one_line

app = App(
    add_completion=False,  # shmod.completion answers the shell itself (README: completion)
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and one-line `Error: …` usage errors
    help="shmod: moderate a forum game of Secret Hitler from an append-only YAML log.",
)

GameOpt = Annotated[
    str,
    typer.Option("--game", "-g", envvar="SHMOD_GAME", show_envvar=True, metavar="PATH",
                 help="The game log (games/NAME.yaml)."),
]
ByOpt = Annotated[
    Optional[str],
    typer.Option("--by", metavar="NAME", autocompletion=player_names,
                 help="Who sent this choice (checked); default: whoever the game waits for."),
]
FormatOpt = Annotated[
    str,
    typer.Option("--format", "-f", envvar="SHMOD_FORMAT", metavar="FORMAT",
                 autocompletion=words("plain", "bbcode", "markdown"),
                 help="plain, bbcode or markdown."),
]


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"shmod {version('shmod')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print shmod's version and exit.")] = False,
) -> None:
    """shmod: moderate a forum game of Secret Hitler from an append-only YAML log."""


def _show(sections: list[tuple[str, str]], hints: list[tuple[str, str]] = ()) -> None:  # type: ignore[assignment]
    """Each section's title as a heading on stderr and its body (a PM to send, a post to
    paste) on stdout, so ``shmod … | clip`` copies only what is meant to be pasted; then
    ``hints`` for the moderator (whom the game waits for), wholly on stderr."""
    for title, body in [*sections, *hints]:
        sys.stdout.flush()
        heading = f"── {one_line(title)} "
        sys.stderr.write(heading + "─" * max(3, 80 - len(heading)) + "\n")
        sys.stderr.flush()
        (sys.stdout if (title, body) in sections else sys.stderr).write(escaped(body) + "\n\n")
    sys.stdout.flush()
    sys.stderr.flush()


def echo(text: str, *, err: bool = False) -> None:
    """Print ``text`` (a post, a PM, a note): every character a log may not hold is shown
    as an escape, so a hostile log cannot send a terminal control sequences."""
    typer.echo(escaped(text), err=err)


def _step(game_path: str, fmt_name: str, make, *, edits_ok: bool = False) -> None:  # type: ignore[no-untyped-def]
    from shmod import checkpoints, formats, game, report, views

    fmt = formats.get(fmt_name)
    done = game.record(game_path, make, edits_ok=edits_ok)
    view = views.public_view(done.game.state)
    mark = checkpoints.line(done.game.state.entries, done.game.heads[-1])
    _show(report.after_step(view, done.public, done.secrets, fmt, mark),
          [("Waiting for", view.waiting)])
    state = done.game.state
    echo(report.recorded_note(state.entries, len(done.entries), state.winner is not None),
               err=True)


def _by(game, by: str | None):  # type: ignore[no-untyped-def]
    return None if by is None else game.seating.seat(by)


def _expected(game, by: str | None, default: int | None) -> int | None:  # type: ignore[no-untyped-def]
    return _by(game, by) if by is not None else default


@app.command()
def new(
    players: Annotated[list[str], typer.Argument(metavar="NAME",
                                                 help="The players, in seating order.")],
    game: GameOpt,
    seed: Annotated[Optional[str], typer.Option(help="Shuffle seed (default: a fresh random one).")] = None,
    first: Annotated[Optional[str], typer.Option(metavar="NAME", help="First Presidential Candidate (default: drawn from the seed).")] = None,
    variant: Annotated[Optional[list[str]], typer.Option("--variant", "-V", metavar="KEY=VALUE", help="A variant switch, e.g. term5=seated (repeatable).")] = None,
    fmt_name: FormatOpt = "plain",
    custom: Annotated[Optional[str], typer.Option(metavar="PATH", help="A YAML file with a custom setup (docs/variants.md).")] = None,
) -> None:
    """Start a game: deal roles, shuffle the deck, write a new log (mode 0600)."""
    from shmod import checkpoints, formats, game as games, house, report, views

    fmt = formats.get(fmt_name)
    made = games.new_game(game, players, seed=seed, first=first, variants=variant,
                          custom=house.read_custom(custom) if custom else None)
    state = made.state
    view = views.public_view(state)
    echo(f"Created {game}: {len(state.players)} players. Keep this file private "
               "until the game is over.", err=True)
    echo(f"Commitment (post it in the opening thread post): "
               f"{state.public[0].data['commitment']}", err=True)
    _show(report.after_step(view, state.public, state.secrets, fmt,
                            checkpoints.line(0, made.heads[0])), [("Waiting for", view.waiting)])


@app.command()
def nominate(
    chancellor: Annotated[str, typer.Argument(metavar="NAME", autocompletion=player_names,
                                              help="The Chancellor candidate.")],
    game: GameOpt,
    by: ByOpt = None,
    fmt_name: FormatOpt = "plain",
) -> None:
    """The Presidential Candidate nominates a Chancellor (R-NOMINATE, R-TERM)."""
    from shmod.steps import Step

    def make(g):  # type: ignore[no-untyped-def]
        return Step("nominate", by=_expected(g, by, g.state.president),
                    target=g.seating.seat(chancellor))

    _step(game, fmt_name, make)


@app.command()
def vote(
    player: Annotated[str, typer.Argument(metavar="NAME", autocompletion=player_names,
                                          help="Who voted.")],
    ballot: Annotated[str, typer.Argument(metavar="VOTE", autocompletion=words("ja", "nein"),
                                          help="ja or nein (yes/no accepted).")],
    game: GameOpt,
    fmt_name: FormatOpt = "plain",
) -> None:
    """Record one player's PM'd vote (R-VOTE); the tally appears when all are in."""
    from shmod.rules import parse_vote
    from shmod.steps import Step

    value = parse_vote(ballot)
    _step(game, fmt_name, lambda g: Step("vote", by=g.seating.seat(player), vote=value))


def _policy(kind: str, office: str, actor: str):  # type: ignore[no-untyped-def]
    """The ``discard`` or ``enact`` command: ``office`` (held by ``state.<actor>``) names a
    policy from the hand."""

    def command(
        policy: Annotated[str, typer.Argument(
            metavar="POLICY", autocompletion=words("liberal", "fascist"),
            help=f"The policy the {office} {kind}s: liberal or fascist.")],
        game: GameOpt,
        by: ByOpt = None,
        fmt_name: FormatOpt = "plain",
    ) -> None:
        from shmod.rules import parse_policy
        from shmod.steps import Step

        card = parse_policy(policy)
        _step(game, fmt_name, lambda g: Step(
            kind, by=_expected(g, by, getattr(g.state, actor)), policy=card))

    return command


app.command("discard", help="The President discards one of the three policies drawn (R-DRAW).")(
    _policy("discard", "President", "president"))
app.command("enact", help="The Chancellor enacts one of the two policies passed (R-PASS).")(
    _policy("enact", "Chancellor", "chancellor"))


@app.command()
def veto(
    answer: Annotated[str, typer.Argument(metavar="ANSWER", autocompletion=words(
        "propose", "accept", "refuse", "ja", "nein"), help="propose (Chancellor), accept or refuse (President); ja/nein under veto=secret-vote.")],
    game: GameOpt,
    by: ByOpt = None,
    fmt_name: FormatOpt = "plain",
) -> None:
    """Veto after the fifth Fascist policy (R-VETO)."""
    from shmod.steps import Step, _veto_answer

    choice = _veto_answer(answer)

    def make(g):  # type: ignore[no-untyped-def]
        default = g.state.chancellor if choice == "propose" else g.state.president
        if choice in ("ja", "nein") and by is None:
            raise BadInput("a secret veto vote needs --by (the President or the Chancellor)")
        return Step("veto", by=_expected(g, by, default), answer=choice)

    _step(game, fmt_name, make)


def _power(kind: str):  # type: ignore[no-untyped-def]
    def command(
        target: Annotated[str, typer.Argument(metavar="NAME", autocompletion=player_names,
                                              help="The player the President chose.")],
        game: GameOpt,
        by: ByOpt = None,
        fmt_name: FormatOpt = "plain",
    ) -> None:
        from shmod.steps import Step

        _step(game, fmt_name, lambda g: Step(kind, by=_expected(g, by, g.state.president),
                                             target=g.seating.seat(target)))

    return command


app.command("investigate", help="The President investigates a player's party (R-INVESTIGATE).")(
    _power("investigate"))
app.command("special-election", help="The President picks the next Presidential Candidate (R-SPECIAL).")(
    _power("special_election"))
app.command("execute", help="The President executes a player (R-EXECUTE).")(_power("execute"))


@app.command()
def peek(game: GameOpt, by: ByOpt = None, fmt_name: FormatOpt = "plain") -> None:
    """The President looks at the top three policies (R-PEEK)."""
    from shmod.steps import Step

    _step(game, fmt_name, lambda g: Step("peek", by=_expected(g, by, g.state.president)))


@app.command()
def reshuffle(
    deck: Annotated[str, typer.Argument(metavar="DECK", help="The new draw pile, top first, e.g. FLFFLF.")],
    game: GameOpt,
    fmt_name: FormatOpt = "plain",
) -> None:
    """Record a reshuffled draw pile in a game dealt without a seed (R-RESHUFFLE)."""
    from shmod.steps import Step, parse_cards

    cards = parse_cards(deck)

    def make(g):  # type: ignore[no-untyped-def]
        if g.state.seed is not None:
            raise BadInput("R-RESHUFFLE: this game has a seed: shmod appends the reshuffle it "
                           "determines itself, with the next step it records")
        return Step("reshuffle", deck=cards)

    _step(game, fmt_name, make)


@app.command()
def status(game: GameOpt) -> None:
    """The board: tracks, tracker, piles, seating and markers, phase, who is awaited."""
    from shmod import board, game as games, views

    loaded = games.load(game)
    board.show(views.public_view(loaded.state))


def main() -> None:
    """Entry point: run the app and turn every error into one line and an exit code."""
    import warnings

    warnings.showwarning = _warning
    if "_SHMOD_COMPLETE" in os.environ:  # the shell asks for completions (README)
        from shmod import completion

        completion.run(app)
    try:
        _runnable(sys.argv[1:2])()
    except ShmodError as err:
        if isinstance(err, InternalError) and os.environ.get("SHMOD_DEBUG"):
            raise
        sys.stderr.write(f"Error: {one_line(str(err))}{_read_more(err)}\n")
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted: a step is recorded only once its line is written in "
                         "full; `shmod status` shows where the game stands.\n")
        sys.exit(130)
    except Exception as err:  # noqa: BLE001 - the last line of defence
        if os.environ.get("SHMOD_DEBUG"):
            raise
        problem = InternalError(f"{type(err).__name__}: {err}", unchanged=False)
        sys.stderr.write(f"Error: {one_line(str(problem))}\n")
        sys.exit(InternalError.exit_code)


def _read_more(err: ShmodError) -> str:
    """Where to read the rule an error cites, e.g. `` (shmod rules R-TERM)``."""
    rule = getattr(err, "rule", None)
    if not rule and str(err).startswith("R-"):
        rule = str(err).split(":", 1)[0]
    return f" (shmod rules {rule})" if rule and " " not in rule else ""


def _runnable(args: list[str]) -> Callable[[], object]:
    """``app``, or when ``args`` names a command, the same group holding only that one:
    typer builds every registered command's parameters at each start (~3 ms), and only
    the named one runs. Anything else (help, a typo) goes to the whole app."""
    import copy

    import typer.main

    name = args[0] if args else ""
    chosen = [info for info in app.registered_commands if info.callback is not None and
              (info.name or typer.main.get_command_name(info.callback.__name__)) == name]
    if not chosen:
        return app
    only = copy.copy(app)
    only.registered_commands = chosen
    return typer.main.get_group(only)


def _warning(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
    """Show a warning (e.g. a log others can read) as one line, without source lines."""
    sys.stderr.write(f"Warning: {one_line(str(message))}\n")


from shmod import cli_safety  # noqa: E402,F401
from shmod import cli_forum  # noqa: E402,F401
from shmod import cli_posts  # noqa: E402,F401
from shmod import cli_audit  # noqa: E402,F401
