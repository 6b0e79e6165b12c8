"""Forum moderation commands: deadline, prods, replace, correct, corrections, rules.

Thin wrappers over :mod:`shmod.core.forum` and :mod:`shmod.texts.forum_texts` (docs/forum.md).
"""

from typing import Annotated, Optional

import typer

from shmod.cli.app import FormatOpt, GameOpt, _show, _step, app, echo
from shmod.cli.completion import player_names

ZoneOpt = Annotated[
    str,
    typer.Option("--zone", "-z", envvar="SHMOD_ZONE", show_envvar=True,
                 help="Your time zone (e.g. Europe/Berlin) for dates and display."),
]


@app.command()
def deadline(
    when: Annotated[str, typer.Argument(help="48h, 90m, 2d, or a date and time (2026-11-23 18:00).")],
    game: GameOpt,
    zone: ZoneOpt = "UTC",
    fmt_name: FormatOpt = "plain",
) -> None:
    """Set the deadline for the current phase (R-DEADLINE), shown in UTC and your zone."""
    from shmod.core import forum
    from shmod.core.steps import Step

    forum.zone_info(zone)
    until = forum.until_text(forum.parse_deadline(when, zone, forum.now_utc()))
    _step(game, fmt_name, lambda g: Step("deadline", text=until, zone=zone))


@app.command()
def prods(game: GameOpt, fmt_name: FormatOpt = "plain") -> None:
    """A ready PM for every player the game waits for (R-STALL: reminders only)."""
    from shmod.core import forum
    from shmod.log import game as games
    from shmod.texts import formats, forum_texts, views

    fmt = formats.get(fmt_name)
    state = games.load(game).state
    view = views.public_view(state)
    sent = {name: views.player_view(state, name).secrets for name in view.waiting_on}
    pms = forum_texts.prods(view, fmt, forum.now_utc(), sent)
    if not pms:
        _show([], [("Nothing to prod", view.waiting)])
        return
    _show([(f"PM to {name}", text) for name, text in pms])


@app.command()
def replace(
    player: Annotated[str, typer.Argument(metavar="NAME", autocompletion=player_names,
                                          help="The player who leaves (a living seat).")],
    newcomer: Annotated[str, typer.Argument(metavar="NEWCOMER",
                                            help="The player who takes the seat.")],
    game: GameOpt,
    fmt_name: FormatOpt = "plain",
) -> None:
    """A newcomer takes a seat with its role and history (R-REPLACE); prints their one PM."""
    from shmod.core.names import tidy
    from shmod.core.steps import Step

    _step(game, fmt_name, lambda g: Step("replace", target=g.seating.seat(player),
                                         text=tidy(newcomer)))


@app.command()
def correct(
    game: GameOpt,
    reason: Annotated[str, typer.Option("--reason", "-r", metavar="REASON", help="Why (kept out of the thread, which may not see a vote or a card; shown by `shmod corrections`).")],
    entry: Annotated[Optional[list[int]], typer.Argument(help="Entry numbers to void (default: the latest step); every recorded step prints its number.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Void a step a marked post already showed, or one of a finished game: said loudly in the next post and in audit.")] = False,
    fmt_name: FormatOpt = "plain",
) -> None:
    """Void entries nobody has acted on yet, by appending a correction (R-CORRECT)."""
    from shmod.base.errors import BadInput
    from shmod.core import forum
    from shmod.core.steps import Step

    if not reason.strip():
        raise BadInput("R-CORRECT: a correction needs a reason")

    def make(g):  # type: ignore[no-untyped-def]
        numbers = tuple(sorted(set(entry))) if entry else (forum.last_step(g.state),)
        return Step("correct", entries=numbers, text=" ".join(reason.split()), force=force)

    _step(game, fmt_name, make)


@app.command()
def acknowledge(
    entry: Annotated[list[int], typer.Argument(help="The entries edited by hand (as shmod's warning names them).")],
    game: GameOpt,
    reason: Annotated[str, typer.Option("--reason", "-r", help="What was edited and why (kept in the log, listed by audit).")],
    fmt_name: FormatOpt = "plain",
) -> None:
    """Record that earlier entries were edited by hand on purpose, and why (R-EDIT).

    Nothing is rewritten: the edit stays visible to audit, and a thread checkpoint
    posted after the edited entry no longer matches."""
    from shmod.base.errors import BadInput
    from shmod.core.steps import Step

    if not reason.strip():
        raise BadInput("R-EDIT: an acknowledgement needs a reason")

    def make(g):  # type: ignore[no-untyped-def]
        found = g.edits()
        edited = {n.index + 1 for n in found if n.problem == "mismatch"}
        edited.update(k for n in found if n.problem == "checkpoint"  # hashes rewritten
                      for k in range(1, n.upto + 1))
        unknown = sorted(set(entry) - edited)
        if unknown:
            listed = ", ".join(map(str, sorted(edited))) or "none"
            raise BadInput(f"R-EDIT: entry {unknown[0]} was not changed after shmod wrote it "
                           f"(entries whose hash no longer matches: {listed})")
        return Step("acknowledge", entries=tuple(sorted(set(entry))), text=" ".join(reason.split()))

    _step(game, fmt_name, make, edits_ok=True)


@app.command()
def corrections(game: GameOpt) -> None:
    """Every correction in the log: which entries it voided and why."""
    from shmod.log import game as games

    state = games.load(game).state
    what = {e.entry: e.data["voided"] for e in state.public if e.kind == "correction"}
    lines = [f"entry {n} voids " + "; ".join(f"entry {v} ({w})" for v, w in what[n])
             + f" — reason: {why}" for n, _voided, why in state.corrections]
    _show([("Corrections", "\n".join(lines) or "none")])


@app.command()
def rules(
    rule: Annotated[Optional[str], typer.Argument(
        metavar="[RULE]", help="A rule id (R-TERM, or just TERM): explain that rule.")] = None,
    game: Annotated[Optional[str], typer.Option(
        "--game", "-g", envvar="SHMOD_GAME", show_envvar=True, metavar="PATH",
        help="The game log (games/NAME.yaml).")] = None,
    fmt_name: FormatOpt = "plain",
) -> None:
    """The rules in force for this game as a thread post; with a RULE id, that rule."""
    if rule is not None:
        from shmod.core import rulebook

        echo(rulebook.explain(rule))
        return
    from shmod.base.errors import BadInput
    from shmod.log import game as games
    from shmod.texts import formats, forum_texts, views

    if game is None:
        raise BadInput("name a game (-g PATH or SHMOD_GAME) for its rules post, or a rule "
                       "id to explain (shmod rules R-TERM)")
    view = views.public_view(games.load(game).state)
    _show([("Post in the thread", forum_texts.rules_card(view, formats.get(fmt_name)))])
