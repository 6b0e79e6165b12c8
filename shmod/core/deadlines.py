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
a new deadline. The core never reads a clock: the time of each entry is given to it
(``State.clock``, from the entry's ``at``), and a lapse carries its own.
"""
from __future__ import annotations

import re
from datetime import UTC
from typing import TYPE_CHECKING, Any

from shmod.base.errors import BadInput, RuleBroken
from shmod.core import legal, play, shuffle
from shmod.core.events import DeadlineSet, DeadlineSpent, Lapsed
from shmod.core.explain import waiting_text
from shmod.core.state import Deadline, State
from shmod.core.steps import (
    POWER_STEPS,
    Discard,
    Enact,
    Lapse,
    Peek,
    SetDeadline,
    Veto,
)
from shmod.core.terms import (
    DEAL,
    DISCARD,
    ENACT,
    FASCIST,
    LIBERAL,
    NOMINATE,
    PEEK,
    PLAYING,
    POLICY_NAMES,
    POWER,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
    Policy,
)
from shmod.core.turns import Move, waiting_for

if TYPE_CHECKING:
    from datetime import datetime

UTC_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
#: The form of ``until``, checked on replay without parsing a date (strptime costs every
#: command a few milliseconds); the CLI wrote a valid time, a hand-written one is read
#: when it is shown.
UTC_TIME = re.compile(r"\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\dZ")
#: The form of an IANA time zone's name; whether the zone exists is checked where it is
#: given (`shmod new --zone`, `shmod deadline`): looking it up costs ~3 ms.
ZONE_NAME = re.compile(r"UTC|[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+){0,3}")
MAX_DAYS = 366  # a deadline further off is a typo, not a plan
SCOPES = ("round", "phase")
CLEAR = "clear"


def phase_key(state: State) -> tuple[object, ...]:
    """What a phase deadline is set for: this round's phase, President and Chancellor."""
    return (state.round, state.phase, state.president, state.chancellor, state.special)


def _key(state: State, scope: str) -> tuple[object, ...]:
    return (state.round,) if scope == "round" else phase_key(state)


def current(state: State) -> Deadline | None:
    """The deadline in force now, if one was set and is not met, cleared or spent by a
    lapse (R-LAPSE: a deadline lapses once)."""
    found = state.deadline
    if found is None or state.win or found.key != _key(state, found.scope):
        return None
    if found.entry in state.lapsed and _format(state) >= 2:
        return None
    return found


def spent(state: State) -> Deadline | None:
    """The deadline that would be in force now had it not lapsed already (R-LAPSE)."""
    found = state.deadline
    if found is None or state.win or found.key != _key(state, found.scope):
        return None
    return found if found.entry in state.lapsed and _format(state) >= 2 else None


def _format(state: State) -> int:
    return 2 if state.origin is None else state.origin.format


def decision(state: State) -> tuple[object, ...]:
    """Which decision the game waits for (R-LAPSE): its round, phase, power and the
    seats it waits on; the same while votes or words come in."""
    return (state.round, state.phase, state.power, state.president, state.chancellor,
            state.special, state.win is None)


def note_time(state: State) -> None:
    """After an entry: when the decision now awaited fell due (the time of the entry that
    made it due, :attr:`State.clock`; None where the log gives no time)."""
    now = decision(state)
    if now != state.decision:
        state.decision, state.due = now, state.clock


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
        if when.tzinfo is None:
            when = when.replace(tzinfo=zone_info(zone))
        try:
            when = when.astimezone(UTC)
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


def _deadline(state: State, step: SetDeadline) -> None:
    """R-DEADLINE: set (or clear) the deadline of this round or phase."""
    until, zone, scope = step.until, step.zone or state.zone or "UTC", step.scope or "round"
    if scope not in SCOPES:
        raise RuleBroken("R-DEADLINE", f"a deadline is for the round or the phase, not {scope!r}")
    if until == CLEAR:
        if current(state) is None:
            raise RuleBroken("R-DEADLINE", "there is no deadline to clear")
        state.deadline = None
        state.say(DeadlineSet, until=None, zone=zone, scope=scope)
        return
    if not UTC_TIME.fullmatch(until):
        raise BadInput(f"time {until!r} is not a UTC time like 2026-11-23T18:00:00Z")
    if not ZONE_NAME.fullmatch(zone):
        raise BadInput(f"zone {zone!r} is not a time zone name (Europe/Berlin, or UTC)")
    state.zone = zone
    state.deadline = Deadline(until, zone, scope, _key(state, scope), state.entries)
    state.say(DeadlineSet, until=until, zone=zone, scope=scope)


# -- lapses -------------------------------------------------------------------------

#: The switch that decides what a lapse does in each phase (R-LAPSE).
SWITCH = {NOMINATE: "late_nomination", VOTE: "late_vote", DISCARD: "late_choice",
          ENACT: "late_choice", VETO_ANSWER: "late_choice", VETO_VOTE: "late_choice",
          POWER: "late_choice"}


def choices(state: State) -> list[str]:
    """R-LAPSE: what a random lapse choice is drawn from now, in a fixed order: the
    policies in the hand (Liberal before Fascist, each once), or the seats a power may
    target (in seating order, by name); empty where nothing is drawn."""
    if state.phase in (DISCARD, ENACT):
        offered = legal.policies(state)
        return [POLICY_NAMES[p] for p in (LIBERAL, FASCIST) if p in offered]
    if state.phase == POWER and state.power is not None:
        return [state.name(s) for s in legal.power_targets(state, state.power)]
    return []


def draw_label(state: State, entry: int) -> str:
    """R-LAPSE: the label of a lapse's random draw in the seed's stream: *which decision*
    it is (round, phase, power, the seat awaited), so nothing the moderator may add or
    reorder moves it. (Format 1, an earlier shmod: the lapse's entry number.)"""
    if _format(state) < 2:
        return f"lapse-{entry}"
    seat = state.chancellor if state.phase == ENACT else state.president
    assert seat is not None
    return f"lapse/round-{state.round}/{state.phase}/{state.power or 'none'}/seat-{seat + 1}"


def drawn(state: State, entry: int) -> str | None:
    """R-LAPSE: the random choice a lapse recorded as entry ``entry`` makes, from the
    game's secret seed and :func:`draw_label`; None where nothing is drawn."""
    options = choices(state)
    if not options:
        return None
    assert state.seed is not None
    return options[shuffle.pick(len(options), state.seed, draw_label(state, entry))]


def _lapse(state: State, step: Lapse) -> None:
    """R-LAPSE: the deadline ``step.deadline`` has passed; apply what the house rules say."""
    found = current(state)
    used = spent(state)
    if used is not None:
        raise RuleBroken("R-LAPSE", f"the deadline {used.until} lapsed already (entry "
                         f"{state.lapsed[used.entry]}); a deadline lapses once: "
                         f"waiting for {waiting_text(waiting_for(state))}, which fell due "
                         "after it, needs a new deadline (shmod deadline)")
    if found is None or found.entry != step.deadline:
        raise RuleBroken("R-LAPSE", f"entry {step.deadline} is not the deadline in force "
                         + (f"(that is entry {found.entry})" if found else "(there is none)"))
    if step.at is None or not UTC_TIME.fullmatch(step.at) or step.at <= found.until:
        raise RuleBroken("R-LAPSE", f"the deadline {found.until} has not passed yet "
                         f"(this lapse is dated {step.at})")
    due = state.due
    if _format(state) >= 2 and due is not None and UTC_TIME.fullmatch(due) \
            and due > found.until:
        raise RuleBroken("R-LAPSE", f"{_what(state)} fell due at {due}, after the deadline "
                         f"{found.until} had passed: a lapse decides only what was owed when "
                         "its deadline passed; this waits for a new deadline (shmod deadline)")
    switch = SWITCH.get(state.phase)
    setting = getattr(state.rules, switch) if switch else "wait"
    if setting == "wait":
        raise RuleBroken("R-LAPSE", f"the house rules leave {_what(state)} to the moderator "
                         f"({switch or 'this phase'}=wait): prod (shmod prods) or replace the "
                         "player (shmod replace, shmod remove); a game chooses at `shmod new` "
                         "what a lapse does (-V late_vote=nein, late_nomination=fail, "
                         "late_choice=random)")
    expected = drawn(state, state.entries)
    if (step.choice or None) != expected:
        raise RuleBroken("R-LAPSE", f"the random choice recorded ({step.choice}) is not the one "
                         f"the game's seed gives for this entry ({expected})")
    late = list(waiting_for(state).seats)
    state.say(Lapsed, phase=state.phase, power=state.power,
              late=tuple(state.name(s) for s in late), president=state.name(state.president),
              chancellor=state.name(state.chancellor),
              tracker=state.tracker + (state.phase == NOMINATE), deadline=found.until)
    _APPLY[state.phase](state, late, expected)
    state.lapsed[found.entry] = state.entries
    if _format(state) >= 2 and state.win is None:
        state.say(DeadlineSpent)


def _what(state: State) -> str:
    return {NOMINATE: "a nomination not made", VOTE: "missing votes", DEAL: "the words"}.get(
        state.phase, "a choice not sent")


def _votes(state: State, late: list[int], _choice: str | None) -> None:
    state.late = set(late)
    for seat in late:
        state.votes[seat] = False
    play.count(state)


def _nomination(state: State, late: list[int], _choice: str | None) -> None:
    play.failed(state)


def _choice(state: State, late: list[int], choice: str | None) -> None:
    phase, president, chancellor = state.phase, state.president, state.chancellor
    if phase in (DISCARD, ENACT):
        policy: Policy = LIBERAL if choice == POLICY_NAMES[LIBERAL] else FASCIST
        actor = president if phase == DISCARD else chancellor
        assert actor is not None
        play.act(state, (Discard if phase == DISCARD else Enact)(actor, policy))
    elif phase == VETO_ANSWER:
        play.act(state, Veto(president, "refuse"))
    elif phase == VETO_VOTE:
        for seat in late:
            play.act(state, Veto(seat, "nein"))
    elif state.power == PEEK:
        play.act(state, Peek(president))
    else:
        target = state.players.index(choice or "")
        play.act(state, POWER_STEPS[state.power or ""](president, target))

_APPLY = {VOTE: _votes, NOMINATE: _nomination, DISCARD: _choice, ENACT: _choice,
          VETO_ANSWER: _choice, VETO_VOTE: _choice, POWER: _choice}

#: The clock's moves.
MOVES = (Move(SetDeadline, _deadline, PLAYING, "R-DEADLINE", "a deadline"),
         Move(Lapse, _lapse, PLAYING, "R-LAPSE", "a lapse"))
