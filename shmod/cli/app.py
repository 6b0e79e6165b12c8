"""The typer app every command registers with, its shared options, and what every
recording command does after a step: say on stderr what happened, whom the game waits for
and what the outbox holds (the PMs and the post it made wait there for ``shmod send``;
``--show`` prints them all at once, framed). Every domain error becomes ``Error: …`` in
:func:`shmod.cli.main.main`.
"""
# No ``from __future__ import annotations`` in the cli modules: typer would then
# eval() every command's annotation strings at each start (~9 ms of ~13 ms).

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shmod.base.plaintext import escaped, one_line
from shmod.base.records import Record
from shmod.cli.completion import living_names, words
from shmod.cli.help import App
from shmod.texts.formats import FORMATS

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from shmod.game.steps import Step
    from shmod.log.store import Loaded, Recorded
    from shmod.texts.formats import Plain

app = App(
    add_completion=False,  # shmod.cli.completion answers the shell itself (docs/guide.md)
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and one-line `Error: …` usage errors
    help="shmod: moderate a forum game of Secret Hitler from an append-only YAML log.",
)

#: The ``--help`` epilog of the commands that read the clock (shmod/cli/clock.py).
CLOCK_HELP = ("The clock is this computer's, in UTC. For tests and demonstrations, SHMOD_NOW "
              "sets it for one command: SHMOD_NOW=2026-11-25T18:00:00Z (an ISO 8601 date and "
              "time; Z, an offset such as +01:00, or none for UTC; seconds may be left out). "
              "A step recorded under it is stamped with that time.")

GameOpt = Annotated[
    str,
    typer.Option("--game", "-g", envvar="SHMOD_GAME", show_envvar=True, metavar="PATH",
                 help="The game log (games/NAME.yaml)."),
]
ByOpt = Annotated[
    str | None,
    typer.Option("--by", metavar="NAME", autocompletion=living_names,
                 help="Who sent this choice (checked); default: whoever the game waits for."),
]
FormatOpt = Annotated[
    str | None,
    typer.Option("--format", "-f", envvar="SHMOD_FORMAT", show_envvar=True, metavar="FORMAT",
                 autocompletion=words(*FORMATS),
                 help=f"The output profile: {', '.join(FORMATS)} (docs/posts.md). Default: "
                      "the game's forum (shmod new --forum), else plain."),
]


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"shmod {version('shmod')}")
        raise typer.Exit()


#: The moderator recording, from ``--as`` (``shmod.cli.main`` puts it before the command)
#: or ``SHMOD_MODERATOR``: set once a command, by :func:`_options`.
_MODERATOR: list[str | None] = [None]
#: ``--show`` (put before the command by ``shmod.cli.main``, like ``--as``) or
#: ``SHMOD_SHOW=1``: set once a command, by :func:`_options`.
_SHOW: list[bool] = [False]


def moderator() -> str | None:
    """Who records, in a game that lists its moderators (R-MODERATORS): ``--as NAME``, else
    ``SHMOD_MODERATOR``; None when neither names anybody."""
    import os

    return _MODERATOR[0] or os.environ.get("SHMOD_MODERATOR") or None


def showing() -> bool:
    """Whether the moderator asked for the all-in-one view (``--show`` or ``SHMOD_SHOW=1``):
    a recording command then prints every PM and post it made on stdout, each framed."""
    import os

    return _SHOW[0] or os.environ.get("SHMOD_SHOW", "") not in ("", "0")


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print shmod's version and exit.")] = False,
    as_: Annotated[str | None, typer.Option(
        "--as", envvar="SHMOD_MODERATOR", show_envvar=True, metavar="NAME",
        help="The moderator recording, in a game with several (R-MODERATORS); given anywhere "
             "on the line, or once per terminal with SHMOD_MODERATOR.")] = None,
    show: Annotated[bool, typer.Option(
        "--show", help="A recording command prints the PMs and the post it made on stdout, "
        "each framed (the all-in-one view; SHMOD_SHOW=1 for every command); by default "
        "they wait in the outbox for `shmod send`.")] = False,
) -> None:
    """shmod: moderate a forum game of Secret Hitler from an append-only YAML log."""
    _MODERATOR[0] = as_
    _SHOW[0] = show


def show_sections(sections: list[tuple[str, str]], hints: Sequence[tuple[str, str]] = ()) -> None:
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
    stream = sys.stderr if err else sys.stdout  # shmod's own (shmod.cli.output), not click's
    stream.write(escaped(text) + "\n")
    stream.flush()


def framed(sections: Sequence[tuple[str, str]]) -> None:
    """The all-in-one view (``--show``): each section's title as a heading and its body,
    both on stdout, so that what is one reader's stays visibly apart from the next."""
    for title, body in sections:
        heading = f"── {one_line(title)} "
        sys.stdout.write(heading + "─" * max(3, 80 - len(heading)) + "\n" + escaped(body)
                         + "\n\n")
    sys.stdout.flush()


def outbox_line(loaded: "Loaded") -> None:
    """The outbox in one line on stderr (:func:`shmod.log.outbox.summary`)."""
    from shmod.log import outbox

    echo(outbox.summary(loaded), err=True)


class StepShown(Record):
    """What a recorded step shows, composed before the log is written: the sections (the
    PMs and the post, each titled), the hints, the note saying where it was recorded, what
    :func:`shmod.cli.output.check` says was done and what to do again, and whether a post
    was made."""

    sections: "list[tuple[str, str]]"
    hints: "list[tuple[str, str]]"
    note: str
    recorded: str
    again: str
    posted: bool


def record_step(log_path: str, fmt_name: str | None,
                make: "Callable[[Loaded], Step | list[Step] | None]", *, edits_ok: bool = False,
                now: "datetime | None" = None, asked: bool = False,
                vet: "Callable[[], None] | None" = None) -> bool:
    """Record the step ``make`` builds and say on stderr what happened, whom the game waits
    for and what the outbox holds; the PMs and the post it made wait in the outbox
    (``shmod send``), and only ``--show`` prints them, framed on stdout. Every check (the
    clock's, the format's) and every text is done before the log is written, so an error
    means nothing was recorded. ``now``: the clock, if the command read it already (it is
    read once); ``asked``: the moderator asked for a post, and a deadline alone makes a
    short one; ``vet``: a last check, once the rules accepted the step and before a byte is
    written (it raises to refuse). Returns whether a post was made."""
    from shmod.cli import clock, output
    from shmod.log import store
    from shmod.texts import formats

    if fmt_name:
        formats.get(fmt_name)  # a typo is refused before anything
    fmt: formats.Plain | None = None
    show = showing()
    if show:
        output.require_open()
    at = now or clock.now()

    def checked(loaded: "Loaded") -> "Step | list[Step] | None":
        nonlocal fmt
        # the profile asked for, else the game's, in the game's language: before writing
        fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
        return make(loaded)

    def compose(done: "Recorded[Any]") -> StepShown:
        assert fmt is not None  # checked() chose it
        if vet is not None:
            vet()
        return _shown(log_path, done, fmt, at, show)

    git_check(log_path)
    done = store.record(log_path, checked, edits_ok=edits_ok, at=clock.text(at),
                        before_write=compose, moderator=moderator(), asked=asked)
    shown = done.composed
    assert shown is not None  # compose() ran before the write
    if show:
        framed(shown.sections)
    show_sections([], shown.hints)
    echo(shown.note, err=True)
    outbox_line(done.loaded)
    output.check(shown.recorded, shown.again)
    return shown.posted


def _shown(log_path: str, done: "Recorded[Any]", fmt: "Plain", now: "datetime",
           show: bool) -> StepShown:
    """What the step ``done`` shows (:class:`StepShown`), in ``fmt``; with ``show`` the
    sections are printed, else a hint says what they hold."""
    from shmod.forum.explain import waiting_text
    from shmod.texts import forum_texts, pms, report, thread_posts, views

    post = thread_posts.recorded_post(done, fmt)
    state = done.loaded.table
    view = views.public_view(state)
    posted = done.post.events if done.post else []
    deadline = forum_texts.deadline_line(view, now)
    hints = [*report.unposted_corrections(view, done.public, posted, fmt),
             ("Waiting for", waiting_text(view.waiting) + (f"\n{deadline}" if deadline
                                                           else ""))]
    sections = report.after_step(view, done.secrets, fmt, post,
                                 pms.title(log_path, done.loaded.log.header),
                                 thread_posts.progress_shown(state))
    if not show:
        hints[:0] = report.progress_hint(sections)
    return StepShown(
        sections, hints,
        report.recorded_note(log_path, state.entries, len(done.entries), post,
                             state.game.winner is not None),
        "the step was recorded " + report.recorded_where(
            log_path, state.entries, len(done.entries), post),
        report.again(done.secrets, post), post is not None)


def git_check(log_path: str) -> None:
    """Warn when the log is in a git clone set up for shmod and git would not merge it with
    shmod's driver (:func:`shmod.cli.gitsetup.bypassed`: git runs only when what it reads
    changed); a recording command goes on."""
    from shmod.cli import gitsetup

    wrong = gitsetup.bypassed(log_path)
    if wrong:
        import warnings

        warnings.warn(wrong, stacklevel=2)


def expected_seat(game: "Loaded", by: str | None, default: int | None) -> int:
    """The seat ``--by`` names, else ``default``: the seat of the office that takes the step.
    With no such office now (no Chancellor between governments), the President's: the
    engine then refuses the step for its phase, whichever seat it names."""
    if by is not None:
        return game.seating.seat(by)
    return game.table.game.president if default is None else default


