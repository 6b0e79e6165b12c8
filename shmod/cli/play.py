"""The game's own steps as commands (new, nominate, vote, discard, enact, veto, the
powers, reshuffle) and ``status``: each loads, calls :func:`shmod.log.store.record` or
:func:`shmod.log.store.load`, and shows the result."""
# No ``from __future__ import annotations``: see shmod/cli/app.py.

from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from shmod.base.errors import BadInput
from shmod.cli.app import (
    ByOpt,
    FormatOpt,
    GameOpt,
    echo,
    expected_seat,
    framed,
    moderator,
    outbox_line,
    record_step,
    show_sections,
    showing,
)
from shmod.cli.completion import living_names, words
from shmod.texts.catalog import codes
from shmod.texts.formats import FORMATS

LANGUAGES = codes()

if TYPE_CHECKING:
    from collections.abc import Callable

    from shmod.game.steps import Step
    from shmod.log.store import Loaded

V = TypeVar("V")  # a vote or a word


def new(
    players: Annotated[list[str] | None, typer.Argument(
        metavar="NAME", help="The players, in seating order.", show_default=False)] = None,
    *,
    log_path: GameOpt,
    seed: Annotated[str | None, typer.Option(
        help="Shuffle seed, at least 32 hexadecimal digits (default: 128 fresh random "
             "bits).")] = None,
    guessable: Annotated[bool, typer.Option(
        "--guessable",
        help="Accept a shorter --seed (a demonstration or a test: players could guess it and "
             "learn every role).")] = False,
    deal: Annotated[str | None, typer.Option(
        "--deal", metavar="WHO", autocompletion=words("moderator", "players"),
        help="moderator (the default): deal now from the seed; players: deal once every "
             "player has posted a word in the thread, so nobody can steer the deal "
             "(R-DEAL).")] = None,
    first: Annotated[str | None, typer.Option(
        metavar="NAME",
        help="First Presidential Candidate (default: drawn from the seed).")] = None,
    variant: Annotated[list[str] | None, typer.Option(
        "--variant", "-V", metavar="KEY=VALUE",
        help="A variant switch, e.g. term5=seated (repeatable).")] = None,
    fmt_name: FormatOpt = None,
    custom: Annotated[str | None, typer.Option(
        metavar="PATH",
        help="A YAML file with a custom setup (docs/variants.md).")] = None,
    zone: Annotated[str | None, typer.Option(
        "--zone", "-z", envvar="SHMOD_ZONE", metavar="ZONE",
        help="The game's time zone for deadlines (e.g. Europe/Berlin; default UTC).")] = None,
    title: Annotated[str | None, typer.Option(
        metavar="TITLE",
        help="The game's name in PM subjects (default: the log's file name).")] = None,
    forum: Annotated[str | None, typer.Option(
        metavar="ENGINE", autocompletion=words(*FORMATS),
        help="The forum the game is played on, so every post and PM is written for it: "
             f"{', '.join(FORMATS)} (recorded in the log; docs/posts.md).")] = None,
    moderators: Annotated[list[str] | None, typer.Option(
        "--moderator", metavar="NAME",
        help="A moderator of the game, when it has several (repeat for each; every entry then "
             "names who recorded it: --as NAME or SHMOD_MODERATOR; R-MODERATORS).")] = None,
    language: Annotated[str | None, typer.Option(
        "--language", "-L", metavar="CODE", autocompletion=words(*LANGUAGES),
        help="The language players read: every post and PM is written in it: "
             f"{', '.join(LANGUAGES)} (default en; recorded in the log; "
             "docs/languages.md).")] = None,
    preset: Annotated[str | None, typer.Option(
        metavar="NAME",
        help="A preset of the folder's shmod.toml ([preset.NAME]; docs/settings.md).")] = None,
    show_settings: Annotated[bool, typer.Option(
        "--show-settings",
        help="Print each setting of the new game and where it comes from (flag, preset, "
             "the folder's shmod.toml, default), and write nothing.")] = False,
) -> None:
    """Start a game: deal roles, shuffle the deck, write a new log (mode 0600). Defaults
    come from shmod.toml in the log's folder, if there is one (docs/settings.md)."""
    from pathlib import Path

    from shmod.cli import clock, output, settings as house
    from shmod.forum.explain import waiting_text
    from shmod.log import logfile, store
    from shmod.texts import formats, pms, report, thread_posts, views

    settings, values = house.for_new(Path(log_path).parent, preset, {
        "forum": forum, "language": language, "zone": zone, "deal": deal, "custom": custom,
        "moderators": moderators, "variants": variant})
    if show_settings:
        echo(house.shown(log_path, settings, preset, values).rstrip("\n"))
        return
    if not players:
        raise BadInput("give the players' names, in seating order (or --show-settings)")
    forum, language, zone, deal, custom, moderators = (
        None if values[k].source == "default" else values[k].value
        for k in ("forum", "language", "zone", "deal", "custom", "moderators"))
    variant = [f"{k.removeprefix('variants.')}={v.value}" for k, v in values.items()
               if k.startswith("variants.") and v.source != "default"]
    if seed is not None:
        _check_seed(seed, guessable, players)
    if forum is not None:
        formats.get(forum, "forum")
    fmt = formats.chosen(fmt_name, forum, language)
    show = showing()
    if show:
        output.require_open()
    shown: list[list[tuple[str, str]]] = []

    def compose(made: "Loaded") -> None:  # before the file is created: nothing is left to fail
        view = views.public_view(made.table)
        opening = thread_posts.earlier_post(made, 1, fmt)
        shown.append(report.after_step(view, made.table.secrets, fmt, opening,
                                       pms.title(log_path, made.log.header)))
        shown.append([("Waiting for", waiting_text(view.waiting))])

    made = store.new_game(log_path, players, seed=seed, first=first, variants=variant,
                          custom=logfile.read_plain_yaml(custom) if custom else None,
                          deal_by=deal or "moderator", zone=zone, title=title, forum=forum,
                          moderators_listed=moderators, moderator=moderator(),
                          language=language, created=clock.stamp(), before_write=compose,
                          seed_source="guessable" if seed is not None and guessable else None)
    echo(f"Created {log_path}: {len(made.table.game.players)} players. Keep this file private "
         "until the game is over.", err=True)
    echo(f"Commitment (post it in the opening thread post): {made.setup.commitment}", err=True)
    if show:
        framed(shown[0])
    show_sections([], shown[1])
    outbox_line(made)
    output.check(f"the game was created as {log_path}", "its role PMs and opening post wait in "
                 "the outbox (`shmod outbox`, `shmod send`)")


def _check_seed(seed: str, guessable: bool, players: list[str]) -> None:
    """R-COMMIT: refuse a seed ``--seed`` gives that a player could guess, unless
    ``--guessable`` says it is a demonstration or a test."""
    from shmod.base.plaintext import unsafe
    from shmod.cli import clock
    from shmod.forum.commitment import guessable as pattern, strong

    if unsafe(seed):
        raise BadInput(f"the seed holds a {unsafe(seed)}")
    if not guessable and not strong(seed):
        raise BadInput("R-COMMIT: a seed of fewer than 128 bits can be guessed by a player "
                       "with a script, and the seed gives away every role and card: leave "
                       "--seed out (shmod draws 128 random bits), give at least 32 "
                       "hexadecimal digits, or add --guessable for a demonstration or a test")
    if not guessable:
        from shmod.forum.recipes import hashed

        why = pattern(seed, players) or hashed(seed, int(clock.now().timestamp()))
        if why:
            raise BadInput(f"R-COMMIT: the seed {seed[:40]!r} can be guessed ({why}), and "
                           "the seed gives away every role and card: leave --seed out (shmod "
                           "draws 128 random bits), or add --guessable for a demonstration or "
                           "a test")


def nominate(
    chancellor: Annotated[str, typer.Argument(metavar="NAME", autocompletion=living_names,
                                              help="The Chancellor candidate.")],
    log_path: GameOpt,
    by: ByOpt = None,
    fmt_name: FormatOpt = None,
) -> None:
    """The Presidential Candidate nominates a Chancellor (R-NOMINATE, R-TERM)."""
    from shmod.game.steps import Nominate

    def make(g: "Loaded") -> "Step":
        return Nominate(expected_seat(g, by, g.table.game.president), g.seating.seat(chancellor))

    record_step(log_path, fmt_name, make)


def vote(
    player: Annotated[str, typer.Argument(metavar="NAME", autocompletion=living_names,
                                          help="Who voted.")],
    ballot: Annotated[str, typer.Argument(metavar="VOTE", autocompletion=words("ja", "nein"),
                                          help="ja or nein (yes/no accepted).")],
    log_path: GameOpt,
    more: Annotated[list[str] | None, typer.Argument(
        metavar="NAME VOTE", help="More votes, in the order the PMs came.",
        show_default=False)] = None,
    fmt_name: FormatOpt = None,
) -> None:
    """Record PM'd votes (R-VOTE), one or several (`shmod vote Ann ja Bob nein`); the tally
    appears when all are in. If one vote is refused, none is recorded."""
    from shmod.game.steps import Vote
    from shmod.texts import glossary
    from shmod.texts.catalog import get as language

    pairs = _pairs([player, ballot, *(more or [])], "vote", "NAME VOTE")

    def make(g: "Loaded") -> "list[Step]":
        lang = language(g.setup.language)  # its words count beside ja/nein/yes/no
        values = [(name, glossary.read_vote(lang, value)) for name, value in pairs]
        return [Vote(seat, value) for seat, value in
                _once(g, values, "R-VOTE", "a vote is final once received")]

    record_step(log_path, fmt_name, make)


def word(
    player: Annotated[str, typer.Argument(metavar="NAME", autocompletion=living_names,
                                          help="Who posted the word.")],
    text: Annotated[str, typer.Argument(
        metavar="WORD",
        help="The word as posted in the thread (the first one counts).")],
    log_path: GameOpt,
    more: Annotated[list[str] | None, typer.Argument(
        metavar="NAME WORD", help="More words, in the order they were posted.",
        show_default=False)] = None,
    fmt_name: FormatOpt = None,
) -> None:
    """Record players' words, in a game dealt from the players' words (R-DEAL); the deal
    is made when every player's word is in."""
    from shmod.forum.steps import Word
    from shmod.texts import formats, word_markup

    def recorded(g: "Loaded", typed: str) -> str:
        """The word as the log's format records it; first refused if the game's forum (the
        header's, else the profile of -f or SHMOD_FORMAT, else every engine shmod knows)
        shows it otherwise than typed, in a format that refuses that (R-DEAL)."""
        if g.setup.format.words.forum:
            forum = g.setup.forum
            word_markup.refuse(typed, formats.chosen(None if forum else fmt_name, forum))
        return g.setup.format.words.record(typed)

    pairs = _pairs([player, text, *(more or [])], "word", "NAME WORD")
    record_step(log_path, fmt_name, lambda g: [
        Word(seat, recorded(g, value))
        for seat, value in _once(g, pairs, "R-DEAL", "the first word a player posts counts")])


def _pairs(items: list[str], command: str, shape: str) -> list[tuple[str, str]]:
    """``NAME VALUE NAME VALUE …`` as pairs; an odd count is a usage mistake."""
    if len(items) % 2:
        raise BadInput(f"shmod {command} takes {shape} pairs; {items[-1]!r} has no partner")
    return list(zip(items[::2], items[1::2]))


def _once(game: "Loaded", pairs: "list[tuple[str, V]]", rule: str,
          why: str) -> "list[tuple[int, V]]":
    """``(seat, value)`` for each ``(name, value)``; a player named twice (by any form of
    their name) is refused as a mistake in the command, not as a second PM."""
    seats: dict[int, str] = {}
    out = []
    for name, value in pairs:
        seat = game.seating.seat(name)
        if seat in seats:
            same = "" if seats[seat] == name else f" (as {seats[seat]!r} and {name!r})"
            raise BadInput(f"{rule}: {game.table.game.players[seat]} is named twice in this "
                           f"command{same}; {why}, so nothing was recorded: give each "
                           "player once")
        seats[seat] = name
        out.append((seat, value))
    return out


def _policy(kind: str, office: str, actor: str, said: str) -> "Callable[..., None]":
    """The ``discard`` or ``enact`` command: ``office`` (held by ``state.<actor>``) names a
    policy from the hand; ``said``: its help."""

    def command(
        policy: Annotated[str, typer.Argument(
            metavar="POLICY", autocompletion=words("liberal", "fascist"),
            help=f"The policy the {office} {kind}s: liberal or fascist.")],
        log_path: GameOpt,
        by: ByOpt = None,
        fmt_name: FormatOpt = None,
    ) -> None:
        from shmod.game.steps import Discard, Enact
        from shmod.texts import glossary
        from shmod.texts.catalog import get as language

        step = Discard if kind == "discard" else Enact

        def make(g: "Loaded") -> "Step":
            card = glossary.read_policy(language(g.setup.language), policy)  # its words too
            return step(expected_seat(g, by, getattr(g.table.game, actor)), card)

        record_step(log_path, fmt_name, make)

    command.__doc__ = said
    return command


discard = _policy("discard", "President", "president",
                  "The President discards one of the three policies drawn (R-DRAW).")
enact = _policy("enact", "Chancellor", "chancellor",
                "The Chancellor enacts one of the two policies passed (R-PASS).")


def veto(
    answer: Annotated[str, typer.Argument(metavar="ANSWER", autocompletion=words(
        "propose", "accept", "refuse", "ja", "nein"),
        help="propose (Chancellor), accept or refuse (President); ja/nein under "
             "veto=secret-vote.")],
    log_path: GameOpt,
    by: ByOpt = None,
    fmt_name: FormatOpt = None,
) -> None:
    """Veto after the fifth Fascist policy (R-VETO)."""
    from shmod.game.steps import Veto
    from shmod.log.entries import parse_veto_answer
    from shmod.texts import glossary
    from shmod.texts.catalog import get as language

    def make(g: "Loaded") -> "Step":
        said = glossary.typed_vote(language(g.setup.language), answer)  # tak, nie, …
        choice = parse_veto_answer(answer if said is None else "ja" if said else "nein")
        default = g.table.game.chancellor if choice == "propose" else g.table.game.president
        if choice in ("ja", "nein") and by is None:
            raise BadInput("a secret veto vote needs --by (the President or the Chancellor)")
        return Veto(expected_seat(g, by, default), choice)

    record_step(log_path, fmt_name, make)


def _power(power: str, said: str) -> "Callable[..., None]":
    """The command of a power that names its target; ``said``: its help."""

    def command(
        target: Annotated[str, typer.Argument(metavar="NAME", autocompletion=living_names,
                                              help="The player the President chose.")],
        log_path: GameOpt,
        by: ByOpt = None,
        fmt_name: FormatOpt = None,
    ) -> None:
        from shmod.game.steps import POWER_STEPS

        record_step(log_path, fmt_name, lambda g: POWER_STEPS[power](
            expected_seat(g, by, g.table.game.president), g.seating.seat(target)))

    command.__doc__ = said
    return command


investigate = _power("investigate", "The President investigates a player's party "
                     "(R-INVESTIGATE).")
special_election = _power("special_election", "The President picks the next Presidential "
                          "Candidate (R-SPECIAL).")
execute = _power("execute", "The President executes a player (R-EXECUTE).")


def peek(log_path: GameOpt, by: ByOpt = None, fmt_name: FormatOpt = None) -> None:
    """The President looks at the top three policies (R-PEEK)."""
    from shmod.game.steps import Peek

    record_step(log_path, fmt_name, lambda g: Peek(expected_seat(g, by, g.table.game.president)))


def reshuffle(
    deck: Annotated[str, typer.Argument(
        metavar="DECK",
        help="The new draw pile, top first, e.g. FLFFLF.")],
    log_path: GameOpt,
    fmt_name: FormatOpt = None,
) -> None:
    """Record a reshuffled draw pile in a game dealt without a seed (R-RESHUFFLE)."""
    from shmod.game.rules import parse_cards
    from shmod.game.steps import Reshuffle

    cards = parse_cards(deck)

    def make(g: "Loaded") -> "Step":
        if g.table.game.seed is not None:
            raise BadInput("R-RESHUFFLE: this game has a seed: shmod appends the reshuffle it "
                           "determines itself, with the next step it records")
        return Reshuffle(cards)

    record_step(log_path, fmt_name, make)


def status(log_path: GameOpt) -> None:
    """The board: tracks, tracker, piles, seating and markers, phase, who is awaited, and
    what the outbox holds."""
    from shmod.cli import clock
    from shmod.log import store
    from shmod.texts import board, views

    loaded = store.load(log_path)
    view = views.public_view(loaded.table)
    board.show(view, clock.now() if view.deadline else None)
    from shmod.log import outbox

    echo(outbox.summary(loaded))


