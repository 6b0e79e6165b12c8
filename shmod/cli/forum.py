"""Forum moderation commands: deadline, prods, replace, correct, claim, corrections, rules.

Thin wrappers over :mod:`shmod.forum` and :mod:`shmod.texts.forum_texts` (docs/forum.md).
"""

from typing import TYPE_CHECKING, Annotated

import typer

from shmod.cli.app import (
    FormatOpt,
    GameOpt,
    echo,
    framed,
    git_check,
    moderator,
    outbox_line,
    record_step,
    show_sections,
    showing,
)
from shmod.cli.completion import living_names, player_names, rule_ids, words

if TYPE_CHECKING:
    from shmod.forum.table import Table
    from shmod.forum.terms import Scope
    from shmod.game.steps import Step
    from shmod.game.terms import Party, Role
    from shmod.log.store import Loaded

ZoneOpt = Annotated[
    str | None,
    typer.Option("--zone", "-z", envvar="SHMOD_ZONE", show_envvar=True, metavar="ZONE",
                 help="The time zone a date is in (e.g. Europe/Berlin); default: the game's."),
]


def deadline(
    log_path: GameOpt,
    when: Annotated[str | None, typer.Argument(
        help="48h, 90m, 2d, or a date and time (2026-11-23 18:00).")] = None,
    zone: ZoneOpt = None,
    phase: Annotated[bool, typer.Option(
        "--phase",
        help="For the current phase only (default: the whole round).")] = False,
    clear: Annotated[bool, typer.Option("--clear", help="Clear the deadline in force.")] = False,
    post: Annotated[bool, typer.Option(
        "--post",
        help="Post it now, alone: a short numbered post, the deadline line and its "
             "checkpoint (default: the next post shows it).")] = False,
    fmt_name: FormatOpt = None,
) -> None:
    """Set the deadline for this round (or `--phase`), shown in UTC and the game's zone
    (R-DEADLINE); the zone given is remembered for the game. The next post shows it (the
    next step's, or `shmod post`); `--post` posts it at once, in a short post of its own."""
    from shmod.base.errors import BadInput
    from shmod.cli import clock
    from shmod.forum import deadlines
    from shmod.forum.steps import SetDeadline

    scope: Scope = "phase" if phase else "round"
    if clear:
        if when is not None:
            raise BadInput("give a time or --clear, not both")
        _said(record_step(log_path, fmt_name, lambda g: SetDeadline(
            deadlines.CLEAR, zone=g.table.zone or "UTC", scope=scope), asked=post))
        return
    if when is None:
        raise BadInput("give the deadline (48h, 2d, or a date and time), or --clear")

    def make(g: "Loaded") -> "Step":
        chosen = zone or g.table.zone or "UTC"
        try:
            deadlines.zone_info(chosen)
        except BadInput:
            if zone:
                raise
            raise BadInput(f"the game's time zone {chosen!r} (from its log) is unknown to this "
                           "computer: give the zone with --zone (e.g. --zone UTC)") from None
        until = deadlines.until_text(deadlines.parse_deadline(when, chosen, now))
        return SetDeadline(until, zone=chosen, scope=scope)

    now = clock.now()
    _said(record_step(log_path, fmt_name, make, now=now, asked=post))
    _unreceived(log_path)


def _unreceived(path: str) -> None:
    """A deadline set while the PM the awaited choice is made from is still owed: warned
    (R-LAPSE refuses to draw that choice at random until it is sent)."""
    from shmod.log import outbox, store

    owed = outbox.unreceived(store.load(path))
    if owed is not None:
        echo(f"Warning: {owed.label()} ({owed.about()}, entry {owed.entry}) is still in the "
             "outbox: the player cannot choose before it is sent (shmod send "
             f"{outbox.handle(owed)}), and a lapse will not draw their choice until then.",
             err=True)


def _outcome(sections: list[tuple[str, str]]) -> None:
    """What a recording command did, for the moderator: on stderr (on stdout with --show,
    the all-in-one view)."""
    if showing():
        show_sections(sections)
    else:
        show_sections([], sections)


def _said(posted: bool) -> None:
    """After a deadline recorded without a post: where the thread will read it."""
    if not posted:
        echo("Not posted yet: the next post shows it (the next step's, or `shmod post` for a "
             "short post of it now).", err=True)


def prods(
    log_path: GameOpt,
    fmt_name: FormatOpt = None,
    preview: Annotated[bool, typer.Option(
        "--preview",
        help="Show the prods (on stderr) without making them.")] = False,
) -> None:
    """A ready PM for every player the game waits for, put in the outbox (R-STALL: a prod
    only reminds, and counts once delivered; `shmod status` shows each player's count)."""
    from shmod.cli import clock, output
    from shmod.forum.explain import waiting_text
    from shmod.log import outbox, store
    from shmod.texts import formats, forum_texts, messages, pms, views

    show = showing()
    if show and not preview:
        output.require_open()
    now = clock.now()
    loaded = store.load(log_path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    view = views.public_view(loaded.table)

    def texts(state: "Table") -> list[tuple[str, str]]:
        seen = views.public_view(state)
        sent = {name: views.player_view(state, name).secrets for name in seen.waiting_on}
        return forum_texts.prods(seen, fmt, now if seen.deadline else None, sent)

    made = texts(loaded.table)
    waiting = {item.to for item in outbox.owed(loaded) if item.what == outbox.PROD}
    if not made:
        show_sections([], [("Nothing to prod", waiting_text(view.waiting))])
        return
    title = pms.title(log_path, loaded.log.header)
    fresh = [(name, text) for name, text in made if name not in waiting]
    shown = [(f"PM to {name}", messages.prod_with_subject(text, fmt, title))
             for name, text in fresh]
    again = sorted(waiting & {name for name, _ in made})
    if again:
        echo("Still in the outbox, not made again (a prod counts once delivered): the prod "
             f"to {', '.join(again)} (shmod send).", err=True)
    if preview or not shown:
        show_sections([], shown)
        return
    from shmod.base.errors import BadInput
    from shmod.forum.steps import Prod
    from shmod.log.store import record

    def prodded(g: "Loaded") -> "list[Step]":
        if texts(g.table) != made:  # another shmod recorded a step since the log was read
            raise BadInput("the game changed while the prods were written (another shmod "
                           "recorded a step); nothing was recorded: run `shmod prods` again")
        return [Prod(g.table.game.players.index(name)) for name, _ in fresh]

    git_check(log_path)
    done = record(log_path, prodded, at=clock.text(now), post=False, moderator=moderator())
    names = ", ".join(name for name, _ in fresh)
    if show:
        framed(shown)
    show_sections([], [("Recorded", f"prods to {names}: they wait in the outbox (shmod send)")])
    outbox_line(done.loaded)
    output.check(f"the prods to {names} were recorded", "they wait in the outbox "
                 "(`shmod outbox`, `shmod send`)")


def remind(log_path: GameOpt, fmt_name: FormatOpt = None) -> None:
    """A reminder for the thread: the time left and whom the game waits for (not a numbered
    post: it shows nothing the log must answer for)."""
    from shmod.cli import clock
    from shmod.forum.explain import waiting_text
    from shmod.log import store
    from shmod.texts import formats, forum_texts, views

    loaded = store.load(log_path)
    view = views.public_view(loaded.table)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    text = forum_texts.reminder(view, fmt, clock.now())
    if text is None:
        show_sections([], [("Nothing to remind", waiting_text(view.waiting))])
        return
    show_sections([("Reminder for the thread (not a numbered post)", text)])


def lapse(
    log_path: GameOpt,
    force: Annotated[bool, typer.Option(
        "--force", help="Draw a random choice for a player although the PM it is made from "
        "is still in the outbox (they never had the hand).")] = False,
    fmt_name: FormatOpt = None,
) -> None:
    """The deadline has passed: record what the game's house rules say happens to what is
    missing (R-LAPSE): votes counted as Nein, a failed nomination, a random choice."""
    from shmod.base.errors import RuleBroken
    from shmod.cli import clock
    from shmod.forum import deadlines
    from shmod.forum.steps import Lapse
    from shmod.log import outbox

    now = clock.now()
    owed: list[outbox.Item] = []

    def make(g: "Loaded") -> "Step":
        found = deadlines.current(g.table) or deadlines.spent(g.table)  # spent: refused
        if found is None:
            raise RuleBroken("R-LAPSE", "no deadline is in force (shmod deadline 48h)")
        choice = deadlines.drawn(g.table, g.table.entries + 1)
        unsent = outbox.unreceived(g) if choice is not None and not force else None
        owed[:] = [unsent] if unsent is not None else []
        return Lapse(found.entry, clock.text(now), choice)

    def vet() -> None:  # once the rules accepted the lapse: its choice's PM was delivered
        if owed:
            item = owed[0]
            raise RuleBroken("R-LAPSE", f"{item.label()} ({item.about()}, entry {item.entry}) "
                             "is still in the outbox: a choice cannot be drawn for a player "
                             f"who never received what it is made from; send it (shmod send "
                             f"{outbox.handle(item)}) and give them time, or draw it anyway "
                             "with --force")

    record_step(log_path, fmt_name, make, now=now, vet=vet)


def remove(
    player: Annotated[str, typer.Argument(
        metavar="NAME", autocompletion=living_names,
        help="The player who leaves, and whom nobody can replace.")],
    log_path: GameOpt,
    reason: Annotated[str, typer.Option(
        "--reason", "-r", metavar="REASON",
        help="Why (kept in the log and the audit, not posted).")],
    force: Annotated[bool, typer.Option(
        "--force",
        help="Remove the seat although a backup player is waiting (who cannot come after "
             "all); the removed player's PM says so.")] = False,
    fmt_name: FormatOpt = None,
) -> None:
    """Remove a player nobody can replace: the seat dies, not by the table (R-MODKILL).
    While a backup player waits, `shmod replace NAME` seats them instead."""
    from shmod.base.errors import BadInput
    from shmod.forum import absence
    from shmod.forum.steps import Remove

    if not reason.strip():
        raise BadInput("R-MODKILL: a removal needs a reason")

    def make(g: "Loaded") -> "Step":
        seat = g.seating.seat(player)
        if not force:
            absence.check_no_backup(g.table, seat)
        return Remove(seat, " ".join(reason.split()))

    record_step(log_path, fmt_name, make)


def backup(
    log_path: GameOpt,
    names: Annotated[list[str] | None, typer.Argument(
        metavar="[NAME]...",
        help="Backup players to add, in order.", show_default=False)] = None,
    drop: Annotated[bool, typer.Option(
        "--drop",
        help="Take the names off the list instead.")] = False,
) -> None:
    """The ordered list of backup players that `shmod replace OLD` takes the first of
    (R-BACKUP); without names, the list."""
    from shmod.base.errors import BadInput
    from shmod.cli import clock, output
    from shmod.forum.absence import MAX_BACKUPS
    from shmod.forum.names import tidy
    from shmod.forum.steps import Backup
    from shmod.log import store

    if names and len(names) > MAX_BACKUPS:  # refused before a name is looked at
        raise BadInput(f"R-BACKUP: {len(names)} names: the backup list holds at most "
                       f"{MAX_BACKUPS}")
    if names:
        if showing():
            output.require_open()
        git_check(log_path)
        done = store.record(log_path, lambda g: [Backup(tidy(n), drop=drop)
                                                 for n in names], at=clock.stamp(), post=False,
                            moderator=moderator())
        state = done.loaded.table
    else:
        state = store.load(log_path).table
    listed = [("Backup players, in order", "\n".join(
        f"{n}. {name}" for n, name in enumerate(state.backups, 1)) or "none")]
    if not names:
        show_sections(listed)
        return
    from shmod.texts.report import recorded_note

    _outcome(listed)
    echo(recorded_note(log_path, state.entries, len(done.entries), None, False), err=True)
    output.check("the backup list was recorded", "`shmod backup` shows it")


def replace(
    player: Annotated[str, typer.Argument(metavar="NAME", autocompletion=living_names,
                                          help="The player who leaves (a living seat).")],
    log_path: GameOpt,
    newcomer: Annotated[str | None, typer.Argument(
        metavar="[NEWCOMER]",
        help="The player who takes the seat (default: the first backup).")] = None,
    fmt_name: FormatOpt = None,
) -> None:
    """A newcomer takes a seat with its role and history (R-REPLACE); without a name, the
    first backup player (R-BACKUP). Prints their one PM."""
    from shmod.base.errors import RuleBroken
    from shmod.forum.names import tidy
    from shmod.forum.steps import Replace

    def make(g: "Loaded") -> "Step":
        first = g.table.backups[0] if g.table.backups else None
        name = newcomer if newcomer is not None else first
        if name is None:
            raise RuleBroken("R-BACKUP", "name the newcomer: the backup list is empty "
                             "(shmod backup NAME adds one)")
        return Replace(g.seating.seat(player), tidy(name))

    record_step(log_path, fmt_name, make)


def correct(
    log_path: GameOpt,
    reason: Annotated[str, typer.Option(
        "--reason", "-r", metavar="REASON",
        help="Why (kept out of the thread, which may not see a vote or a card; shown by `shmod "
             "corrections`).")],
    entry: Annotated[list[int] | None, typer.Argument(
        help="Entry numbers to void (default: the latest step); every recorded step prints its "
             "number.")] = None,
    force: Annotated[bool, typer.Option(
        "--force",
        help="Void a step a marked post already showed, or one of a finished game: said loudly "
             "in the next post and in audit.")] = False,
    fmt_name: FormatOpt = None,
) -> None:
    """Void entries nobody has acted on yet, by appending a correction (R-CORRECT)."""
    from shmod.base.errors import BadInput
    from shmod.forum import corrections
    from shmod.forum.steps import Correct

    if not reason.strip():
        raise BadInput("R-CORRECT: a correction needs a reason")

    def make(g: "Loaded") -> "Step":
        numbers = tuple(sorted(set(entry))) if entry else (corrections.last_step(g.table),)
        return Correct(numbers, " ".join(reason.split()), force=force)

    record_step(log_path, fmt_name, make)


def claim(
    player: Annotated[str, typer.Argument(
        metavar="NAME", autocompletion=living_names, help="Who made the claim in the thread.")],
    log_path: GameOpt,
    what: Annotated[list[str] | None, typer.Argument(
        metavar="[WHAT]",
        help="What they claimed: three policies (FFL), a President's draw; two (FL), a "
             "Chancellor's hand; or the player investigated and the party (Bob fascist).",
        show_default=False)] = None,
    round_: Annotated[int | None, typer.Option(
        "--round", metavar="N",
        help="The round of the session or power (default: the player's latest in that "
             "office, or their latest such power).")] = None,
    passed: Annotated[str | None, typer.Option(
        "--passed", metavar="CARDS",
        help="A President's claim: the two policies passed (FL), if said.")] = None,
    peek: Annotated[bool, typer.Option(
        "--peek", help="The three policies are what a Policy Peek showed.")] = False,
    role: Annotated[str | None, typer.Option(
        "--role", metavar="ROLE", autocompletion=words("liberal", "fascist", "hitler"),
        help="A claim of the player's own role: liberal, fascist or hitler.")] = None,
) -> None:
    """Record what a player claimed in the thread: a session's policies, an investigation's
    or a peek's result, a role (R-CLAIM; no post of its own: the next post shows it)."""
    from shmod.base.errors import BadInput
    from shmod.cli import clock, output
    from shmod.forum import claims
    from shmod.forum.events import Claimed
    from shmod.forum.steps import Claim
    from shmod.game.rules import parse_cards
    from shmod.log import store
    from shmod.texts import claim_texts
    from shmod.texts.formats import Plain
    from shmod.texts.report import recorded_note

    said = list(what or [])
    if role is not None and (said or passed or peek):
        raise BadInput("a claim of a role is the role alone: shmod claim NAME --role ROLE")
    if passed is not None and (peek or len(said) != 1):
        raise BadInput("--passed belongs to a President's claim of a session: shmod claim "
                       "NAME FFL --passed FL")
    if (role is None and len(said) not in (1, 2)) or (peek and len(said) != 1):
        raise BadInput("say what NAME claimed: CARDS (FFL a President's draw, FL a "
                       "Chancellor's hand; with --peek, a peek's), TARGET PARTY (an "
                       "investigation: Bob fascist), or --role ROLE")

    def make(g: "Loaded") -> "Step":
        state, seat = g.table, g.seating.seat(player)
        if role is not None:
            return Claim(seat, "role", role=_role(role))
        if len(said) == 2:
            target = g.seating.seat(said[0])
            party = _party(said[1], g.setup.language)
            found = claims.latest_power(state, seat, "investigation", target, round_)
            return Claim(seat, "investigation", found, target=target, party=party)
        cards = parse_cards(said[0])
        if peek:
            return Claim(seat, "peek", claims.latest_power(state, seat, "peek", None, round_),
                         cards)
        return claims.latest(state, seat, cards, parse_cards(passed) if passed else (), round_)

    if showing():
        output.require_open()
    git_check(log_path)
    done = store.record(log_path, make, at=clock.stamp(), post=False, moderator=moderator())
    made = [claim_texts.sentence(event, Plain()) for event in claim_texts.in_effect(done.public)]
    state = done.loaded.table
    late = any(isinstance(ev, Claimed) and ev.late for ev in done.public)
    shown = [("Claim recorded: no post: the game is over (R-CLAIM; history, the reveal and the "
              "replay show it)" if late else "Claim recorded: the next post shows it (R-CLAIM)",
              "\n".join(made))]
    _outcome(shown)
    echo(recorded_note(log_path, state.entries, len(done.entries), None, False), err=True)
    outbox_line(done.loaded)
    output.check("the claim was recorded", "`shmod history` shows every claim")


def _role(text: str) -> "Role":
    from shmod.base.errors import BadInput
    from shmod.game.terms import ROLES

    for role in ROLES:
        if text.strip().lower() == role:
            return role
    raise BadInput(f"--role takes liberal, fascist or hitler, not {text!r}")


def _party(text: str, code: str | None) -> "Party":
    from shmod.base.errors import BadInput
    from shmod.game.terms import POLICY_NAMES
    from shmod.texts import glossary
    from shmod.texts.catalog import get as language

    try:  # the game's language's words count too (faschistisch, faszystowska)
        return POLICY_NAMES[glossary.read_policy(language(code), text)]
    except BadInput as err:
        raise BadInput(f"an investigation shows a party: {err} (shmod claim NAME TARGET "
                       "PARTY)") from None


def acknowledge(
    entry: Annotated[list[int], typer.Argument(
        help="The entries edited by hand (as shmod's warning names them; 0: the header).")],
    log_path: GameOpt,
    reason: Annotated[str, typer.Option(
        "--reason", "-r",
        help="What was edited and why (kept in the log, listed by audit).")],
    fmt_name: FormatOpt = None,
) -> None:
    """Record that earlier entries were edited by hand on purpose, and why (R-EDIT).

    Nothing is rewritten: the edit stays visible to audit, and a thread checkpoint
    posted after the edited entry no longer matches."""
    from shmod.base.errors import BadInput
    from shmod.forum.steps import Acknowledge

    if not reason.strip():
        raise BadInput("R-EDIT: an acknowledgement needs a reason")

    def make(g: "Loaded") -> "Step":
        found = g.edits()
        edited = {n.index + 1 for n in found if n.problem == "mismatch"}
        edited.update(k for n in found if n.problem == "checkpoint"  # hashes rewritten
                      for k in range(1, n.upto + 1))
        if g.header_changed():
            edited.add(0)  # the header (R-EDIT): the commitment stays broken, said below
        unknown = sorted(set(entry) - edited)
        if unknown:
            listed = ", ".join(map(str, sorted(edited))) or "none"
            raise BadInput(f"R-EDIT: entry {unknown[0]} was not changed after shmod wrote it "
                           f"(entries whose hash no longer matches: {listed})")
        changed.append(g.header_changed())
        return Acknowledge(tuple(sorted(set(entry))), " ".join(reason.split()))

    changed: list[str | None] = []
    record_step(log_path, fmt_name, make, edits_ok=True)
    if changed and changed[0]:
        echo("Warning: this records the edit, but does not mend it: " + changed[0]
             .split(": ", 1)[1], err=True)


def rename(
    player: Annotated[str, typer.Argument(metavar="NAME", autocompletion=player_names,
                                          help="The name as it is written now.")],
    name: Annotated[str, typer.Argument(metavar="NEWNAME", help="The name as it should be.")],
    log_path: GameOpt,
    fmt_name: FormatOpt = None,
) -> None:
    """Correct a player's name written wrong (R-RENAME): the same player, the same seat;
    the header, which the commitment covers, stays as it was."""
    from shmod.forum.names import tidy
    from shmod.forum.steps import Rename

    record_step(log_path, fmt_name, lambda g: Rename(g.seating.seat(player), tidy(name)))


def corrections(log_path: GameOpt) -> None:
    """Every correction in the log: which entries it voided and why."""
    from shmod.forum.events import Corrected
    from shmod.forum.explain import voided_steps
    from shmod.log import store

    state = store.load(log_path).table
    what = {e.entry: voided_steps(e) for e in state.public if isinstance(e, Corrected)}
    lines = [f"entry {n} voids " + "; ".join(f"entry {v} ({w})" for v, w in what[n])
             + f" — reason: {why}" for n, _voided, why in state.corrections]
    show_sections([("Corrections", "\n".join(lines) or "none")])


def rules(
    rule: Annotated[str | None, typer.Argument(
        metavar="[RULE]", autocompletion=rule_ids,
        help="A rule id (R-TERM, or just TERM): explain that rule.")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", envvar="SHMOD_GAME", show_envvar=True, metavar="PATH",
        help="The game log (games/NAME.yaml).")] = None,
    fmt_name: FormatOpt = None,
) -> None:
    """The rules in force for this game as a thread post; with a RULE id, that rule."""
    if rule is not None:
        from shmod.forum import rulebook

        echo(rulebook.explain(rule))
        return
    from shmod.base.errors import BadInput
    from shmod.log import store
    from shmod.texts import formats, forum_texts, views

    if game is None:
        raise BadInput("name a game (-g PATH or SHMOD_GAME) for its rules post, or a rule "
                       "id to explain (shmod rules R-TERM)")
    loaded = store.load(game)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    card = forum_texts.rules_card(views.public_view(loaded.table), fmt)
    show_sections([("Post in the thread", card)])
