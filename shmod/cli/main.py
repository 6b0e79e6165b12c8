"""The ``shmod`` command: thin wrappers that load, call one library function, report.

Every domain error becomes ``Error: …`` on stderr and a non-zero exit; the log is only
ever appended to by :func:`shmod.log.store.record`, after the step has been validated.
The commands live in :mod:`shmod.cli.play`, :mod:`~shmod.cli.safety`,
:mod:`~shmod.cli.forum`, :mod:`~shmod.cli.posts`, :mod:`~shmod.cli.outbox`,
:mod:`~shmod.cli.audit`, :mod:`~shmod.cli.stats` and :mod:`~shmod.cli.sharing`, each a
plain function registered with :data:`shmod.cli.app.app` from its row of
:data:`COMMANDS`. A command named on the command line imports its own module only;
``--help``, a typo and completion import them all, in the table's order, which is
``shmod --help``'s order. ``shmod.cli.main.app`` is the whole app.
"""
import gc
import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TextIO

from shmod.base.errors import BadInput, InternalError, OutputLost, ShmodError
from shmod.base.plaintext import one_line
from shmod.cli import output

if TYPE_CHECKING:
    import typer
    from typer.models import CommandInfo

__all__ = ["main", "run", "whole_app"]

class Command(NamedTuple):
    """Where one command lives: its module under ``shmod.cli`` and its function there;
    ``clock``: its ``--help`` ends with how it reads the clock (``SHMOD_NOW``)."""

    module: str
    function: str
    clock: bool = False


def _commands(module: str, *names: str, clock: tuple[str, ...] = ()) -> dict[str, Command]:
    """The rows of ``module``'s commands, each function named as its command."""
    return {name: Command(module, name.replace("-", "_"), name in clock) for name in names}


#: Every command, one row each, in ``shmod --help``'s order (pip's ``commands_dict`` is the
#: model): a command named on the command line imports its own module only, and is
#: registered with :data:`shmod.cli.app.app` from its row; a new command is a function in
#: its module and a row here.
COMMANDS: dict[str, Command] = {
    **_commands("play", "new", "nominate", "vote", "word", "discard", "enact", "veto",
                "investigate", "special-election", "execute", "peek", "reshuffle", "status",
                clock=("status",)),
    **_commands("safety", "repair"),
    **_commands("forum", "deadline", "prods", "remind", "lapse", "remove", "backup", "replace",
                "correct", "claim", "acknowledge", "rename", "corrections", "rules",
                clock=("deadline", "prods", "remind", "lapse")),
    **_commands("posts", "post", "pm", "reveal", "publish", "history", "board"),
    **_commands("outbox", "outbox", "send"),
    **_commands("audit", "audit", "simulate", "replay"),
    **_commands("stats", "stats"),
    **_commands("sharing", "moderators", "handover", "merge", "git-setup", "merge-driver"),
}
#: The command modules, in ``shmod --help``'s order.
MODULES = tuple(dict.fromkeys(row.module for row in COMMANDS.values()))
#: Each command as registered with the app, made once from its row (:func:`_registered`).
_REGISTERED: "dict[str, CommandInfo]" = {}


def _registered(name: str) -> "CommandInfo":
    """Command ``name`` as the app registers it, its module imported."""
    if name not in _REGISTERED:
        import importlib

        from shmod.cli.app import CLOCK_HELP, app

        row = COMMANDS[name]
        module = importlib.import_module(f"shmod.cli.{row.module}")
        app.command(name, epilog=CLOCK_HELP if row.clock else None)(
            getattr(module, row.function))
        _REGISTERED[name] = app.registered_commands.pop()
    return _REGISTERED[name]


def whole_app() -> "typer.Typer":
    """The app with every command registered, in ``--help``'s order."""
    from shmod.cli.app import app

    app.registered_commands = [_registered(name) for name in COMMANDS]
    return app


def __getattr__(name: str) -> object:
    if name == "app":  # ``from shmod.cli.main import app``: the whole app
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Whether this process started with :func:`run`, its collector idle until the command runs.
_STARTING = [False]


def run() -> None:
    """The command line's entry point (``shmod``, ``python -m shmod``): :func:`main` in a
    process of its own. Python's cyclic garbage collector stays idle while typer and the
    command's own module are imported, and what they made is set aside (``gc.freeze``)
    before the command runs: none of it ever becomes garbage, and the collector scanning
    it, during the imports, the command and at exit, cost a short command about a fifth of
    its time (BENCHMARKS.md). The command itself runs with the collector on, as before."""
    gc.disable()
    _STARTING[0] = True
    main()


def _started() -> None:
    """The app is imported and the command about to run: the collector on again, over what
    is made from now on only (:func:`run`)."""
    if _STARTING[0]:
        _STARTING[0] = False
        gc.freeze()
        gc.enable()


def main() -> None:
    """Entry point: run the app and turn every error into one line and an exit code.

    A reader that goes away (``shmod audit LOG | head -1``) changes neither: what can no
    longer be written is dropped and the command ends with its own status (audit: its
    verdict). An output that cannot be written (a closed stdout, a full disk) ends a
    command that would have succeeded with exit 74 (:mod:`shmod.cli.output`)."""
    output.install()
    try:
        _run()
    except SystemExit as done:
        if done.code in (0, None) and "_SHMOD_COMPLETE" not in os.environ:
            _output_written()
        raise
    else:
        _output_written()


def _output_written() -> None:
    reason = output.lost()
    if reason:
        sys.stderr.write(f"Error: the output could not be written ({reason})\n")
        sys.exit(OutputLost.exit_code)


def _run() -> None:
    import warnings

    warnings.showwarning = _warning
    if "_SHMOD_COMPLETE" in os.environ:  # the shell asks for completions (docs/guide.md)
        from shmod.cli import completion

        app = whole_app()
        _started()
        completion.run(app)
    leading, rest = _moderator_first(sys.argv[1:])
    rest = _options_first(rest)
    sys.argv[1:] = [*leading, *rest]
    try:
        _no_undo(rest[:1])
        command = _runnable(rest[:1])
        _started()
        command()
    except ShmodError as err:
        if isinstance(err, InternalError) and os.environ.get("SHMOD_DEBUG"):
            raise
        sys.stderr.write(f"Error: {one_line(str(err))}{_read_more(err)}\n")
        sys.exit(_exit_code(err))
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


#: Options every game command takes, accepted before the command name too.
_LEADING = {"-g": 1, "--game": 1, "-f": 1, "--format": 1}


def _options_first(args: list[str]) -> list[str]:
    """``shmod -g PATH vote …`` as ``shmod vote … -g PATH``: the game (and the format) may
    be named before the command as well as after it."""
    moved: list[str] = []
    while args and (args[0] in _LEADING or args[0].startswith(("--game=", "--format="))):
        take = 1 + _LEADING.get(args[0], 0)
        moved += args[:take]
        args = args[take:]
    return [*args[:1], *moved, *args[1:]] if args else moved


def _moderator_first(args: list[str]) -> tuple[list[str], list[str]]:
    """``--as NAME`` (the moderator recording, R-MODERATORS) and ``--show`` (the all-in-one
    view) taken from wherever they are on the line (before a ``--``), to go before the
    command, where the app's options read them."""
    moderator: list[str] = []
    show: list[str] = []
    rest: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            rest += args[index:]
            break
        if arg == "--as" and index + 1 < len(args):
            moderator = ["--as", args[index + 1]]
            index += 2
            continue
        if arg.startswith("--as="):
            moderator = [arg]
        elif arg == "--show":
            show = [arg]
        else:
            rest.append(arg)
        index += 1
    return [*show, *moderator], rest


#: What a moderator may type to take a step back; the log is append-only (R-CORRECT).
_UNDO = ("undo", "cancel", "revert", "void", "unvote", "retract", "rollback", "delete")


def _no_undo(args: list[str]) -> None:
    if args and args[0].lower() in _UNDO:
        raise BadInput(f"there is no `shmod {args[0]}`: the log is append-only; to void a "
                       "mistyped step, record a correction: `shmod correct --reason …` (the "
                       "latest step) or `shmod correct ENTRY --reason …`")


def _exit_code(err: ShmodError) -> int:
    """docs/commands.md's table: 1 when a rule forbids what was asked (the message names the
    rule), 2 for input or a log that cannot be understood, 70 for a bug in shmod, 74
    for an output that could not be written."""
    if isinstance(err, BadInput) and re.match(r"R-[A-Z0-9-]+:", str(err)):
        return 1
    return err.exit_code


def _read_more(err: ShmodError) -> str:
    """Where to read the rule an error cites, e.g. `` (shmod rules R-TERM)``."""
    rule = getattr(err, "rule", None)
    if not rule and str(err).startswith("R-"):
        rule = str(err).split(":", 1)[0]
    return f" (shmod rules {rule})" if rule and " " not in rule else ""


def _runnable(args: list[str]) -> Callable[[], object]:
    """The whole app, or when ``args`` names a command, a group holding only that one,
    its module alone imported: typer builds every registered command's parameters at each
    start (~3 ms), and only the named one runs. Anything else (help, a typo) goes to the
    whole app."""
    import copy

    import typer.main

    from shmod.cli.app import app

    name = args[0] if args else ""
    if name not in COMMANDS:
        return whole_app()
    only = copy.copy(app)
    only.registered_commands = [_registered(name)]
    return typer.main.get_group(only)


def _warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
    """Show a warning (e.g. a log others can read) as one line, without source lines."""
    sys.stderr.write(f"Warning: {one_line(str(message))}\n")
