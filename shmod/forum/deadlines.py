"""Deadlines and what a lapsed one does (R-DEADLINE, R-LAPSE): the forum's clock, as data.

A deadline holds for the round it was set in (until the next Presidential Candidate is
up) or for one phase, until it is met, changed or cleared; by itself it decides nothing.
After it has passed, a ``lapse`` entry applies what the game's house rules say for the
choice still missing: missing votes counted as Nein (``late_vote=nein``), a nomination not
made counted as a failed election (``late_nomination=fail``), a legislative choice or a
power's target drawn from the game's seed and *which decision* it is (``late_choice=random``:
round, phase, power, seat; never the entry's number, which the moderator could move by
recording other entries first), an unanswered veto refused. A lapse decides only what was
owed when its deadline passed, and a deadline lapses once: what fell due after it waits for
a new deadline. A lapse plays what is missing through the game's hooks
(:mod:`shmod.game.hooks`), as the moderator at the table would. Nothing here reads a
clock: the time of each entry is given (``Table.clock``, from the entry's ``at``), and a
lapse carries its own.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC
from typing import TYPE_CHECKING, Any

from shmod.base import patterns
from shmod.base.errors import BadInput, RuleBroken
from shmod.forum.events import DeadlineSet, DeadlineSpent, Lapsed, LapsePlayed
from shmod.forum.explain import waiting_text
from shmod.forum.log_formats import LogFormat
from shmod.forum.steps import Lapse, SetDeadline
from shmod.forum.table import Deadline, Draw, Table
from shmod.forum.terms import SCOPES
from shmod.forum.turns import waiting_for
from shmod.game import hooks, legal, shuffle
from shmod.game.events import Public
from shmod.game.steps import POWER_STEPS, Discard, Enact, Peek, Veto, Vote
from shmod.game.terms import (
    DEAL,
    DISCARD,
    ENACT,
    FASCIST,
    LIBERAL,
    NOMINATE,
    PEEK,
    POLICY_NAMES,
    POWER,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
    Policy,
)

if TYPE_CHECKING:
    from datetime import datetime

UTC_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
#: The form of ``until``, checked on replay without parsing a date (strptime costs every
#: command a few milliseconds); the CLI wrote a valid time, a hand-written one is read
#: when it is shown.
UTC_TIME = patterns.later(r"\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\dZ")
#: The form of an IANA time zone's name; whether the zone exists is checked where it is
#: given (`shmod new --zone`, `shmod deadline`): looking it up costs ~3 ms.
ZONE_NAME = patterns.later(r"UTC|[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+){0,3}")
MAX_DAYS = 366  # a deadline further off is a typo, not a plan
CLEAR = "clear"


def phase_key(table: Table) -> tuple[object, ...]:
    """What a phase deadline is set for: this round's phase, President and Chancellor."""
    game = table.game
    return (game.round, game.phase, game.president, game.chancellor, game.special)


def _key(table: Table, scope: str) -> tuple[object, ...]:
    return (table.game.round,) if scope == "round" else phase_key(table)


def current(table: Table) -> Deadline | None:
    """The deadline in force now, if one was set and is not met, cleared or spent by a
    lapse (R-LAPSE: a deadline lapses once)."""
    found = table.deadline
    if found is None or table.game.win or found.key != _key(table, found.scope):
        return None
    if found.entry in table.lapsed and table.setup.format.lapse_once:
        return None
    return found


def spent(table: Table) -> Deadline | None:
    """The deadline that would be in force now had it not lapsed already (R-LAPSE)."""
    found = table.deadline
    if found is None or table.game.win or found.key != _key(table, found.scope):
        return None
    return found if found.entry in table.lapsed and table.setup.format.lapse_once else None


def decision(table: Table) -> tuple[object, ...]:
    """Which decision the game waits for (R-LAPSE): its round, phase, power and the
    seats it waits on; the same while votes or words come in."""
    game = table.game
    return (game.round, game.phase, game.power, game.president, game.chancellor,
            game.special, game.win is None)


def note_time(table: Table) -> None:
    """After an entry: when the decision now awaited fell due (the time of the entry that
    made it due, :attr:`Table.clock`; None where the log gives no time)."""
    now = decision(table)
    if now != table.decision:
        table.decision, table.due = now, table.clock


def parse_deadline(text: str, zone: str, now: datetime) -> datetime:
    """``48h``/``90m``/``2d`` from ``now``, or a date and time (in ``zone`` unless it
    gives its own offset). Returns an aware UTC datetime, later than ``now`` and at most
    a year after it (R-DEADLINE)."""
    from datetime import datetime, timedelta  # not on every command's path

    raw = text.strip()
    units = {"m": "minutes", "h": "hours", "d": "days"}
    if raw[:-1].isdigit() and raw[-1:].lower() in units:
        if len(raw) > 7:  # more than 999999 of a unit: far beyond a year in every unit
            raise BadInput(f"R-DEADLINE: deadline {text[:20]!r} is more than a year away")
        delta = timedelta(**{units[raw[-1].lower()]: int(raw[:-1])})
        if delta > timedelta(days=MAX_DAYS):
            raise BadInput(f"R-DEADLINE: deadline {text[:20]!r} is more than a year away")
        try:
            when = now + delta
        except OverflowError:
            raise BadInput(f"deadline {text[:20]!r} is out of range") from None
    else:
        try:
            when = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError:
            raise BadInput(f"deadline {text[:40]!r} is neither a duration (48h, 90m, 2d) nor "
                           "a date and time (2026-11-23 18:00)") from None
        local = when.tzinfo is None
        if local:
            when = when.replace(tzinfo=zone_info(zone))
        try:
            when, typed = when.astimezone(UTC), when
            if local and when.astimezone(typed.tzinfo).replace(tzinfo=None) != \
                    typed.replace(tzinfo=None):
                raise BadInput(f"R-DEADLINE: {typed:%Y-%m-%d %H:%M} does not exist in {zone}: "
                               "the clocks go forward over that hour; give a time outside it")
        except OverflowError:
            raise BadInput(f"deadline {text[:40]!r} is out of range") from None
    if when <= now:
        raise BadInput(f"R-DEADLINE: deadline {text[:40]!r} is not in the future "
                       f"(it is {until_text(now)} now)")
    if when - now > timedelta(days=MAX_DAYS):
        raise BadInput(f"R-DEADLINE: deadline {text[:40]!r} is more than a year away")
    return when


def zone_info(zone: str) -> Any:
    """An IANA time zone (``Europe/Berlin``) or ``UTC``."""

    if zone.upper() == "UTC":
        return UTC
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadInput(f"unknown time zone {zone!r} (use a name like Europe/Berlin, "
                       "or UTC)") from None


def utc(text: str) -> datetime:
    """An ``until`` (or ``at``) string as an aware UTC datetime."""
    from datetime import datetime

    try:
        return datetime.strptime(text, UTC_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise BadInput(f"time {text!r} is not a UTC time like 2026-11-23T18:00:00Z") from None


def until_text(when: datetime) -> str:
    """``when`` (UTC) as ``2026-11-23T18:00:00Z``, the year in four digits whatever it is
    (``strftime`` writes the year 999 as ``999``)."""
    return (f"{when.year:04d}-{when.month:02d}-{when.day:02d}T{when.hour:02d}:"
            f"{when.minute:02d}:{when.second:02d}Z")


def set_deadline(table: Table, step: SetDeadline) -> None:
    """R-DEADLINE: set (or clear) the deadline of this round or phase."""
    until, zone, scope = step.until, step.zone or table.zone or "UTC", step.scope or "round"
    if scope not in SCOPES:
        raise RuleBroken("R-DEADLINE", f"a deadline is for the round or the phase, not {scope!r}")
    if until == CLEAR:
        if current(table) is None:
            raise RuleBroken("R-DEADLINE", "there is no deadline to clear")
        table.deadline = None
        table.game.say(DeadlineSet, until=None, zone=zone, scope=scope)
        return
    if not UTC_TIME.fullmatch(until):
        raise BadInput(f"time {until!r} is not a UTC time like 2026-11-23T18:00:00Z")
    if not ZONE_NAME.fullmatch(zone):
        raise BadInput(f"zone {zone!r} is not a time zone name (Europe/Berlin, or UTC)")
    table.zone = zone
    table.deadline = Deadline(until, zone, scope, _key(table, scope), table.entries)
    table.game.say(DeadlineSet, until=until, zone=zone, scope=scope)


# -- lapses -------------------------------------------------------------------------

#: The switch that decides what a lapse does in each phase (R-LAPSE).
SWITCH = {NOMINATE: "late_nomination", VOTE: "late_vote", DISCARD: "late_choice",
          ENACT: "late_choice", VETO_ANSWER: "late_choice", VETO_VOTE: "late_choice",
          POWER: "late_choice"}


def choices(table: Table) -> list[str]:
    """R-LAPSE: what a random lapse choice is drawn from now, in a fixed order: the
    policies in the hand (Liberal before Fascist, each once), or the seats a power may
    target (in seating order, by name); empty where nothing is drawn."""
    game = table.game
    if game.phase in (DISCARD, ENACT):
        offered = legal.policies(game)
        return [POLICY_NAMES[p] for p in (LIBERAL, FASCIST) if p in offered]
    if game.phase == POWER and game.power is not None:
        return [game.name(s) for s in legal.power_targets(game, game.power)]
    return []


def draw_label(table: Table, entry: int) -> str:
    """R-LAPSE: the label of a lapse's random draw in the seed's stream: *which decision*
    it is (round, phase, power, the seat awaited), so nothing the moderator may add or
    reorder moves it. (Format 1, an earlier shmod: the lapse's entry number.)"""
    if table.setup.format.lapse_label == "entry":
        return f"lapse-{entry}"
    game = table.game
    seat = game.chancellor if game.phase == ENACT else game.president
    assert seat is not None
    return f"lapse/round-{game.round}/{game.phase}/{game.power or 'none'}/seat-{seat + 1}"


#: From format 3 on (``lapse_draw="lowest"``): each option draws a number below this; the
#: lowest is chosen (R-LAPSE).
DRAW_RANGE = 1 << 64


def draw_options(table: Table) -> list[tuple[str, str]]:
    """R-LAPSE: the options of a random lapse choice now, in :func:`choices`' order, each
    as (its key in the draw, what the log records when it is drawn): from format 3 on, a
    power's target is keyed by seat (``seat-3``, never its name) and a policy by its name
    (``Liberal``); formats 1 and 2 drew an index, and key each option by what it records."""
    options = choices(table)
    if table.setup.format.lapse_draw == "index" or table.game.phase != POWER:
        return [(name, name) for name in options]
    seats = {name: seat for seat, name in enumerate(table.game.players)}
    return [(f"seat-{seats[name] + 1}", name) for name in options]


def draw(seed: str, label: str, options: list[tuple[str, str]], format_: LogFormat) -> str:
    """R-LAPSE: what a lapse draws among ``options`` (:func:`draw_options`) under
    ``label`` from ``seed``. From format 3 on: each option draws its own number under the
    label and its key, the lowest wins (a tie, once in 2^64, by key), so taking another
    option away (a removal) changes nothing; formats 1 and 2 drew an index among them."""
    if format_.lapse_draw == "index":  # the index among the options: a removal moved it
        return options[shuffle.pick(len(options), seed, label)][1]
    return min(options, key=lambda option: (option_number(seed, label, option[0]),
                                            option[0]))[1]


def option_number(seed: str, label: str, key: str) -> int:
    """From format 3 on: the number an option draws, below 2^64 (R-LAPSE)."""
    return shuffle.pick(DRAW_RANGE, seed, f"{label}/{key}")


def drawn(table: Table, entry: int) -> str | None:
    """R-LAPSE: the random choice a lapse recorded as entry ``entry`` makes, from the
    game's seed and :func:`draw_label` (:func:`draw`); None where nothing is drawn."""
    options = draw_options(table)
    if not options:
        return None
    assert table.game.seed is not None
    return draw(table.game.seed, draw_label(table, entry), options, table.setup.format)


def lapse(table: Table, step: Lapse) -> None:
    """R-LAPSE: the deadline ``step.deadline`` has passed; apply what the house rules say."""
    game = table.game
    found = current(table)
    used = spent(table)
    if used is not None:
        raise RuleBroken("R-LAPSE", f"the deadline {used.until} lapsed already (entry "
                         f"{table.lapsed[used.entry]}); a deadline lapses once: "
                         f"waiting for {waiting_text(waiting_for(table))}, which fell due "
                         "after it, needs a new deadline (shmod deadline)")
    if found is None or found.entry != step.deadline:
        raise RuleBroken("R-LAPSE", f"entry {step.deadline} is not the deadline in force "
                         + (f"(that is entry {found.entry})" if found else "(there is none)"))
    if step.at is None or not UTC_TIME.fullmatch(step.at) or step.at <= found.until:
        raise RuleBroken("R-LAPSE", f"the deadline {found.until} has not passed yet "
                         f"(this lapse is dated {step.at})")
    due = table.due
    if table.setup.format.lapse_once and due is not None and UTC_TIME.fullmatch(due) \
            and due > found.until:
        raise RuleBroken("R-LAPSE", f"{_what(table)} fell due at {due}, after the deadline "
                         f"{found.until} had passed: a lapse decides only what was owed when "
                         "its deadline passed; this waits for a new deadline (shmod deadline)")
    switch = SWITCH.get(game.phase)
    setting = table.setup.variants.get(switch, "wait") if switch else "wait"
    if setting == "wait":
        raise RuleBroken("R-LAPSE", f"the house rules leave {_what(table)} to the moderator "
                         f"({switch or 'this phase'}=wait): prod (shmod prods) or replace the "
                         "player (shmod replace, shmod remove); a game chooses at `shmod new` "
                         "what a lapse does (-V late_vote=nein, late_nomination=fail, "
                         "late_choice=random)")
    expected = drawn(table, table.entries)
    if (step.choice or None) != expected:
        raise RuleBroken("R-LAPSE", f"the random choice recorded ({step.choice}) is not the one "
                         f"the game's seed gives for this entry ({expected})")
    if expected is not None:  # what the audit shows, so that anyone can redo it
        table.draws.append(Draw(table.entries, draw_label(table, table.entries),
                                tuple(draw_options(table)), expected))
    late = list(waiting_for(table).seats)
    game.say(Lapsed, phase=game.phase, power=game.power,
             late=tuple(game.name(s) for s in late), president=game.name(game.president),
             chancellor=game.name(game.chancellor),
             tracker=game.tracker + (game.phase == NOMINATE), deadline=found.until)
    _APPLY[game.phase](table, late, expected)
    table.lapsed[found.entry] = table.entries
    if table.setup.format.lapse_once and game.win is None:
        game.say(DeadlineSpent)


def _what(table: Table) -> str:
    return {NOMINATE: "a nomination not made", VOTE: "missing votes", DEAL: "the words"}.get(
        table.game.phase, "a choice not sent")


def _votes(table: Table, late: list[int], _choice: str | None) -> None:
    """``late_vote=nein``: each missing vote cast as Nein for its player; the last one in
    makes the tally, whose post marks them (:func:`late_votes`)."""
    for seat in late:
        hooks.play_for(table.game, Vote(seat, False))


def _nomination(table: Table, late: list[int], _choice: str | None) -> None:
    hooks.fail_election(table.game)


def _choice(table: Table, late: list[int], choice: str | None) -> None:
    """``late_choice=random``: the choice drawn played for its player, who is told what it
    did (:class:`LapsePlayed`, R-PM): the President what was discarded and what went to the
    Chancellor, the Chancellor what was enacted, the President a power's target (an
    investigation's result follows as usual), the Chancellor that the veto is refused."""
    game = table.game
    phase, president, chancellor = game.phase, game.president, game.chancellor
    hand = tuple(game.hand)
    if phase in (DISCARD, ENACT):
        policy: Policy = LIBERAL if choice == POLICY_NAMES[LIBERAL] else FASCIST
        actor = president if phase == DISCARD else chancellor
        assert actor is not None
        game.tell(actor, LapsePlayed, phase=phase, cards=hand, chosen=policy)
        hooks.play_for(game, (Discard if phase == DISCARD else Enact)(actor, policy))
    elif phase == VETO_ANSWER:
        game.tell(chancellor, LapsePlayed, phase=phase, cards=hand,
                  president=game.name(president))
        hooks.play_for(game, Veto(president, "refuse"))
    elif phase == VETO_VOTE:
        for seat in late:
            hooks.play_for(game, Veto(seat, "nein"))
    elif game.power == PEEK:
        hooks.play_for(game, Peek(president))
    else:
        target = game.players.index(choice or "")
        game.tell(president, LapsePlayed, phase=phase, power=game.power, target=choice or "")
        hooks.play_for(game, POWER_STEPS[game.power or ""](president, target))


_APPLY = {VOTE: _votes, NOMINATE: _nomination, DISCARD: _choice, ENACT: _choice,
          VETO_ANSWER: _choice, VETO_VOTE: _choice, POWER: _choice}


def late_votes(events: Iterable[Public]) -> dict[int, tuple[str, ...]]:
    """R-LAPSE: by entry, the players whose votes a lapse cast as Nein, as the tally of
    that entry marks them ("no vote by the deadline")."""
    return {event.entry: event.late for event in events
            if isinstance(event, Lapsed) and event.phase == VOTE}


def lapses(events: Iterable[Public]) -> dict[int, Lapsed]:
    """R-LAPSE: by entry, the lapse that acted there: what that entry did was the house
    rules' doing, not a player's (votes counted Nein, a choice drawn at random, a veto
    refused)."""
    return {event.entry: event for event in events if isinstance(event, Lapsed)}
