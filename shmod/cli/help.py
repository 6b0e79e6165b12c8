"""How shmod's commands read in ``--help`` and usage errors: words a moderator knows
(``shmod vote NAME VOTE``, ``--game PATH``), never a type placeholder (``<str>``,
``{player}``). Every command made with :class:`App` gets :class:`Command`."""
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand

F = TypeVar("F", bound=Callable[..., Any])


class Command(TyperCommand):
    """A typer command whose parameters all show a metavar: the one given, else the
    parameter's own name in capitals (``--seed SEED``), and a plain usage line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if param.metavar is None and not getattr(param, "is_flag", False):
                longest = max(param.opts, key=len).lstrip("-") if param.opts else param.name
                param.metavar = (longest or "VALUE").replace("-", "_").upper()

    def get_short_help_str(self, limit: int = 45) -> str:
        """The whole first sentence in ``shmod --help``, wrapped, not cut off at 45."""
        return super().get_short_help_str(limit=500)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """``[OPTIONS] NAME VOTE`` rather than typer's ``{player} {VOTE}``."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                shown = str(param.metavar) + ("..." if param.nargs != 1 else "")
                pieces.append(shown if param.required else f"[{shown}]")
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


class App(typer.Typer):
    """``typer.Typer`` whose commands are :class:`Command` unless told otherwise."""

    def command(
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[F], F]:
        return super().command(name, cls=cls or Command, **kwargs)
