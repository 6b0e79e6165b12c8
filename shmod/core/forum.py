"""Forum moderation entries: deadlines, replacements, corrections, posts marked and
hand edits acknowledged (docs/forum.md).

They are moves like the game's own (:class:`~shmod.core.turns.Move`, gathered by
:mod:`shmod.core.engine`): each handler checks first and raises an
:class:`~shmod.base.errors.IllegalStep` before changing anything. A correction replays the
steps left in effect through the engine's ``apply``, which :func:`moves` is given.
"""
from __future__ import annotations

from dataclasses import fields
from datetime import datetime, timedelta, timezone
from typing import Any

from shmod.base.errors import BadInput, IllegalStep, RuleBroken
from shmod.core.names import look_alike
from shmod.core.setup import check_players, knows, start
from shmod.core.state import Public, Secret, State
from shmod.core.steps import Step
from shmod.core.turns import ANY, Handler, Move, waiting_for

#: Kinds a correction may leave in effect after a voided entry: they act on nothing.
PASSIVE = ("vote", "deadline")
UTC_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


# -- deadlines ----------------------------------------------------------------------


def phase_key(state: State) -> tuple[Any, ...]:
    """What a deadline is set for: this round's phase, President and Chancellor."""
    return (state.round, state.phase, state.president, state.chancellor, state.special)


def current_deadline(state: State) -> tuple[str, str] | None:
    """The deadline ``(until UTC, zone)`` of the phase the game is in, if one was set."""
    if state.deadline is None or state.deadline[2] != phase_key(state) or state.winner:
        return None
    return state.deadline[0], state.deadline[1]


MAX_AHEAD = timedelta(days=366)  # a deadline further off is a typo, not a plan


def parse_deadline(text: str, zone: str, now: datetime) -> datetime:
    """``48h``/``90m``/``2d`` from ``now``, or a date and time (in ``zone`` unless it
    gives its own offset). Returns an aware UTC datetime, later than ``now`` and at most
    a year after it (R-DEADLINE)."""
    raw = text.strip()
    units = {"m": "minutes", "h": "hours", "d": "days"}
    if raw[:-1].isdigit() and raw[-1:].lower() in units:
        if len(raw) > 7:  # more than 999999 of a unit: far beyond a year in every unit
            raise BadInput(f"R-DEADLINE: deadline {text[:20]!r} is more than a year away")
        when = now + timedelta(**{units[raw[-1].lower()]: int(raw[:-1])})
    else:
        try:
            when = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError:
            raise BadInput(f"deadline {text[:40]!r} is neither a duration (48h, 90m, 2d) nor "
                           "a date and time (2026-11-23 18:00)") from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=zone_info(zone))
        try:
            when = when.astimezone(timezone.utc)
        except OverflowError:
            raise BadInput(f"deadline {text[:40]!r} is out of range") from None
    if when <= now:
        raise BadInput(f"R-DEADLINE: deadline {text[:40]!r} is not in the future "
                       f"(it is {until_text(now)} now)")
    if when - now > MAX_AHEAD:
        raise BadInput(f"R-DEADLINE: deadline {text[:40]!r} is more than a year away")
    return when


def zone_info(zone: str) -> Any:
    """An IANA time zone (``Europe/Berlin``) or ``UTC``."""
    if zone.upper() == "UTC":
        return timezone.utc
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadInput(f"unknown time zone {zone!r} (use a name like Europe/Berlin, or UTC)") from None


def utc(text: str) -> datetime:
    """An ``until`` string as an aware UTC datetime."""
    try:
        return datetime.strptime(text, UTC_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        raise BadInput(f"deadline {text!r} is not a UTC time like 2026-11-23T18:00:00Z") from None


def _deadline(state: State, step: Step) -> None:
    until, zone = step.text or "", step.zone or "UTC"
    utc(until)
    zone_info(zone)
    state.deadline = (until, zone, phase_key(state))
    _say(state, "deadline", until=until, zone=zone, waiting=waiting_for(state)[1])


# -- replacements -------------------------------------------------------------------


def _replace(state: State, step: Step) -> None:
    """R-REPLACE: a newcomer takes a living seat with its role and everything it was sent."""
    seat, name = step.target, step.text or ""
    assert seat is not None
    old = state.name(seat)
    if not state.alive[seat]:
        raise RuleBroken("R-REPLACE", f"{old} is dead; a dead seat is not replaced")
    try:
        name = check_players([name if s == seat else n
                              for s, n in enumerate(state.players)])[seat]
    except BadInput as err:
        raise RuleBroken("R-REPLACE", f"cannot seat {name!r}: {err}") from None
    for other, former, _new, _entry in state.replaced:  # PMs are addressed by name (R-PM)
        if other != seat and look_alike(former, name):
            alike = "" if former.casefold() == name.casefold() else " (the names look the same)"
            raise RuleBroken("R-REPLACE", f"cannot seat {name!r}: {former} held seat "
                             f"{other + 1} and was sent its secrets{alike}; choose another "
                             "name")
    history = []
    gone = voided(state)
    for secret in state.secrets:
        if secret.to != old or secret.kind in ("role", "retract") or secret.entry in gone:
            continue
        if secret.kind == "briefing":
            history.extend(secret.data["history"])
        else:
            history.append({"entry": secret.entry, "kind": secret.kind, "data": secret.data})
    did = [(entry, _deed(state, done)) for entry, done in state.history
           if done.by == seat and entry not in gone and done.kind in DEEDS]
    players = list(state.players)
    players[seat] = name
    state.players = tuple(players)
    state.replaced.append((seat, old, name, state.entries))
    _say(state, "replace", seat=seat + 1, old=old, new=name)
    state.secrets.append(Secret(state.entries, name, "briefing", {
        "role": state.roles[seat], "replacing": old, "seat": seat + 1,
        "knows": knows(state.players, state.roles, state.rules, seat), "history": history,
        "did": did}))


#: What a seat's own steps were, for a replacement's briefing (R-REPLACE).
DEEDS = ("nominate", "vote", "discard", "enact", "veto", "investigate", "special_election",
         "peek", "execute")


def _deed(state: State, step: Step) -> str:
    """One of the seat's own steps in words: its PM or public choice."""
    card = {"L": "a Liberal", "F": "a Fascist"}.get(step.policy or "", "")
    target = state.name(step.target) if step.target is not None else ""
    return {
        "nominate": f"nominated {target} for Chancellor",
        "vote": f"voted {'Ja' if step.vote else 'Nein'}",
        "discard": f"discarded {card} policy as President",
        "enact": f"enacted {card} policy as Chancellor",
        "veto": f"veto: {step.answer}",
        "investigate": f"investigated {target}",
        "special_election": f"called a Special Election for {target}",
        "peek": "used Policy Peek",
        "execute": f"executed {target}",
    }[step.kind]


def replacing(state: State) -> dict[str, str]:
    """Current name -> the player it replaced first, for every replaced seat."""
    first: dict[int, str] = {}
    for seat, old, _new, _entry in state.replaced:
        first.setdefault(seat, old)
    return {state.players[s]: old for s, old in first.items() if state.players[s] != old}


# -- corrections --------------------------------------------------------------------


def voided(state: State) -> set[int]:
    """The entries corrections voided: their PMs and reshuffles no longer count."""
    return {number for _at, numbers, _why in state.corrections for number in numbers}


def last_step(state: State) -> int:
    """The entry number a correction voids by default: the latest step in effect."""
    for entry, step in reversed(state.history):
        if step.kind != "reshuffle":
            return entry
    raise BadInput("R-CORRECT: there is no entry to correct yet")


def _correct(state: State, step: Step, apply: Handler) -> None:
    """R-CORRECT: void entries nobody has acted on yet, then replay the rest through
    ``apply`` (the engine's)."""
    in_effect = dict(state.history)
    for number in step.entries:
        if number not in in_effect:
            raise RuleBroken("R-CORRECT", f"entry {number} is not a step in effect (voided "
                             "already, a correction, or not written yet)")
        if in_effect[number].kind == "reshuffle":
            raise RuleBroken("R-CORRECT", f"entry {number} is a reshuffle; void the step "
                             "that caused it")
    voided = set(step.entries)
    earliest = min(voided)
    follows = False
    for number, done in state.history:
        if number < earliest:
            continue
        if number in voided:
            follows = True
        elif done.kind == "reshuffle" and follows:
            voided.add(number)
        else:
            follows = False
            public = any(p.entry == number for p in state.public)
            if done.kind not in PASSIVE or (done.kind == "vote" and public):
                raise RuleBroken("R-CORRECT", f"entry {number} ({describe(state, done)}) "
                                 f"came after entry {earliest} and acted on it; it must be "
                                 "voided too")
    if not step.force:
        _refuse_rewriting(state, voided, in_effect)
    fresh = start(state.origin)
    for number, done in state.history:
        if number in voided:
            continue
        fresh.entries = number - 1
        try:
            apply(fresh, done)
        except IllegalStep as err:
            raise RuleBroken("R-CORRECT", f"without the voided entries, entry {number} "
                             f"({describe(state, done)}) no longer stands: {err}") from None
    reason = step.text or ""
    what = [(n, describe(state, in_effect[n])) for n in sorted(voided)]
    shown = state.posts[-1] if state.posts else -1
    earlier = {n for _, numbers, _ in state.corrections for n in numbers}
    retract = [s for s in state.secrets if s.entry in voided and s.entry not in earlier
               and s.kind != "role"]
    for spec in fields(State):
        if spec.name not in ("public", "secrets", "corrections", "entries", "posts",
                             "acknowledged"):
            setattr(state, spec.name, getattr(fresh, spec.name))
    state.corrections.append((state.entries, tuple(sorted(voided)), reason))
    # The reason stays out of the thread (it may quote a vote or a card): audit only.
    _say(state, "correction", voided=what, waiting=waiting_for(state)[1], forced=step.force,
         posted=[w for n, w in what if n <= shown])
    for secret in retract:  # R-CORRECT: whoever was sent something voided is told so
        state.secrets.append(Secret(state.entries, secret.to, "retract",
                                    {"kind": secret.kind, "entry": secret.entry}))


def _refuse_rewriting(state: State, voided: set[int], in_effect: dict[int, Step]) -> None:
    """R-CORRECT: what players have seen stands unless the moderator forces it."""
    if state.winner is not None:
        raise RuleBroken("R-CORRECT", "the game is over: its steps stand (the last post and "
                         "the reveal may be out); use --force to void one anyway, said "
                         "loudly in the next post and in audit")
    shown = state.posts[-1] if state.posts else -1
    seen = [n for n in sorted(voided) if n <= shown]
    if seen:
        raise RuleBroken("R-CORRECT", f"entry {seen[0]} ({describe(state, in_effect[seen[0]])}) "
                         f"was covered by the post marked up to entry {shown}: players have "
                         "seen it; use --force to void it anyway, said loudly in the next "
                         "post and in audit")


def describe(state: State, step: Step) -> str:
    """An entry in public words: its kind and who (never a card, a vote or a target's role)."""
    actor = state.name(step.by) if step.by is not None and step.by < len(state.players) else ""
    return f"{step.kind} by {actor}" if actor else step.kind


def _say(state: State, kind: str, **data: object) -> None:
    state.public.append(Public(state.entries, kind, data))




def now_utc() -> datetime:
    return datetime.now(timezone.utc)


def until_text(when: datetime) -> str:
    return when.strftime(UTC_FORMAT)


# -- bookkeeping: the thread and the log --------------------------------------------


def _posted(state: State, step: Step) -> None:
    """The moderator posted everything public up to entry ``upto`` (R-THREAD)."""
    upto = step.upto
    assert upto is not None
    last = state.posts[-1] if state.posts else -1
    if not last < upto < state.entries:
        raise RuleBroken("R-THREAD", f"a post can cover entries {last + 1} to "
                         f"{state.entries - 1} only, not up to {upto}")
    if not any(last < ev.entry <= upto for ev in state.public):
        raise RuleBroken("R-THREAD", f"nothing new to mark posted: no public event after "
                         f"entry {last} up to entry {upto}")
    state.posts.append(upto)


def _acknowledge(state: State, step: Step) -> None:
    """R-EDIT: the moderator says that earlier entries were edited by hand on purpose,
    and why; the edit stays visible (the chain and the thread's checkpoints show it)."""
    late = [n for n in step.entries if n >= state.entries]
    if late:
        raise RuleBroken("R-EDIT", f"entry {late[0]} is not an earlier entry (this is entry "
                         f"{state.entries})")
    state.acknowledged.append((state.entries, step.entries, step.text or ""))


def moves(apply: Handler) -> tuple[Move, ...]:
    """The forum's moves; ``apply`` is the engine's, through which a correction replays
    the steps it leaves in effect."""
    return (
        Move("deadline", _deadline, ANY, "R-DEADLINE", "a deadline"),
        Move("replace", _replace, ANY, "R-REPLACE", "a replacement"),
        Move("correct", lambda state, step: _correct(state, step, apply), None),
        Move("posted", _posted, None),
        Move("acknowledge", _acknowledge, None),
    )
