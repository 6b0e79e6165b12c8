"""Shell completion (bash, zsh, fish): commands, options and the current game's names.

The shell runs ``shmod`` with ``_SHMOD_COMPLETE`` set (the scripts come from
``_SHMOD_COMPLETE=source_bash shmod``, see docs/guide.md); :func:`run` answers and exits.
A completion never prints a traceback or an error (a shell would show it in the middle
of the command line), never writes anything, and reads only what a thread reader knows:
the players' names as seated now (after any ``replace``).
"""
from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

from shmod.base import patterns

VARIABLE = "_SHMOD_COMPLETE"
_BASH_SAFE = patterns.later(r"([^\w@%+=:,./-])")


def run(app: Any) -> NoReturn:
    """Answer the shell's completion request for ``app`` on stdout, then exit."""
    code = 1
    try:
        import warnings

        warnings.simplefilter("ignore")  # e.g. "the log can be read by others"
        _register()
        import typer.main

        typer.main.get_command(app).main(args=[], prog_name="shmod", complete_var=VARIABLE,
                     standalone_mode=False)
    except SystemExit as done:  # the completion machinery ends with sys.exit(0 or 1)
        code = done.code if isinstance(done.code, int) else 1
    except BaseException:  # noqa: BLE001 - a completion must never show a traceback
        code = 1
    sys.exit(code)


def _register() -> None:
    """typer's bash, zsh and fish protocols (``add_completion=False`` leaves them out),
    with bash answers quoted so that "Remus West" completes as one word."""
    from typer._click.shell_completion import add_completion_class
    from typer._completion_classes import BashComplete, completion_init

    class QuotedBash(BashComplete):
        def format_completion(self, item: Any) -> str:
            return _BASH_SAFE.sub(r"\\\1", str(item.value))

    completion_init()
    add_completion_class(QuotedBash, "bash")


def player_names(ctx: Any, incomplete: str) -> list[str]:
    """The current game's player names (from ``-g``/``SHMOD_GAME``) starting with
    ``incomplete``; ignoring case when nothing matches exactly, in the case typed (shmod
    reads names in any case). Empty when there is no readable game."""
    return _names(ctx, incomplete, living=False)


def living_names(ctx: Any, incomplete: str) -> list[str]:
    """:func:`player_names`, living players only: where only they are legal (a vote, a
    nomination, a power's target, a replacement, a removal)."""
    return _names(ctx, incomplete, living=True)


def rule_ids(incomplete: str) -> list[str]:
    """Rule ids (``R-TERM``, …) starting with ``incomplete``, in any case."""
    from shmod.forum.rulebook import RULES

    return [rule for rule in RULES if rule.startswith(incomplete.upper())]


def _names(ctx: Any, incomplete: str, *, living: bool) -> list[str]:
    try:
        path = ctx.params.get("log_path") or os.environ.get("SHMOD_GAME")
        if not path:
            return []
        from shmod.log import store

        loaded = store.load(os.path.expanduser(str(path)), cache="read")  # never writes
        state = loaded.table.game
        names = [str(name) for seat, name in enumerate(state.players)
                 if not living or state.alive[seat]]
    except Exception:  # noqa: BLE001 - no game, a damaged log: nothing to offer
        return []
    exact = [name for name in names if name.startswith(incomplete)]
    if exact or not incomplete:
        return exact
    folded = incomplete.casefold()
    return [incomplete + name[len(incomplete):] for name in names
            if name.casefold().startswith(folded)]


def words(*choices: str) -> Any:
    """A completion offering fixed words (``ja``/``nein``, the formats)."""

    def complete(incomplete: str) -> list[str]:
        return [word for word in choices if word.startswith(incomplete)]

    return complete
