"""Words for forum moderation: deadline lines, prods, the replacement PM, the rules card.

Like :mod:`shmod.texts.game_texts`, posts are built from a
:class:`~shmod.texts.views.PublicView` and PMs from one :class:`~shmod.game.events.Secret` or
from what the table already knows, never from the state itself.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from shmod.forum import deadlines
from shmod.forum.events import (
    Briefing,
    Corrected,
    DeadlineSet,
    DeadlineSpent,
    Lapsed,
    Removed,
    Renamed,
    Replaced,
)
from shmod.game.events import (
    Drawn,
    Handed,
    InvestigationResult,
    PeekResult,
    Public,
    Secret,
    VetoRequested,
    VetoVoteAsked,
)
from shmod.game.rules import ROLE_COUNTS
from shmod.game.terms import POWER_NAMES, Phase, Power
from shmod.texts import phrases
from shmod.texts.formats import Plain
from shmod.texts.game_texts import HOUSE_RULES, cards, role_text
from shmod.texts.views import PublicView

if TYPE_CHECKING:
    from datetime import datetime


def when_text(until: str, zone: str) -> str:
    """``2026-11-23 17:00 UTC (18:00 CET, Europe/Berlin)``."""
    moment = deadlines.utc(until)
    text = moment.strftime("%Y-%m-%d %H:%M UTC")
    if zone.upper() != "UTC":
        from shmod.base.errors import BadInput

        try:
            found = deadlines.zone_info(zone)
        except BadInput:  # a zone this computer's time zone data lacks: the UTC time stands
            return f"{text} ({zone}: a time zone unknown to this computer)"
        local = moment.astimezone(found)
        day = "" if local.date() == moment.date() else local.strftime("%a %d %b ")
        text += f" ({day}{local.strftime('%H:%M %Z')}, {zone})"
    return text


def left_text(until: str, now: datetime) -> str:
    """``2 d 3 h left``, ``45 min left``, or ``passed 5 h ago``."""
    seconds = int((deadlines.utc(until) - now).total_seconds())
    span = abs(seconds) // 60
    days, hours, minutes = span // 1440, span % 1440 // 60, span % 60
    parts = [f"{days} d"] * bool(days) + [f"{hours} h"] * bool(hours) + \
        [f"{minutes} min"] * bool(minutes and not days)
    shown = " ".join(parts) or "less than a minute"
    return f"{shown} left" if seconds > 0 else f"passed {shown} ago"


def deadline_note(view: PublicView, now: datetime) -> str | None:
    """The deadline in force, for a post: when, and how long is left; never a lapsed one."""
    if view.deadline is None or now >= deadlines.utc(view.deadline[0]):
        return None
    until, zone, scope = view.deadline
    what = "this round" if scope == "round" else "this phase"
    return f"Deadline for {what}: {when_text(until, zone)}: {left_text(until, now)}."


def named(view: PublicView, name: str, fmt: Plain) -> str:
    """A player's name, with "(replacing …)" for a replacement."""
    old = dict(view.replacing).get(name)
    return fmt.escape(name) + (f" (replacing {fmt.escape(old)})" if old else "")


def event_text(view: PublicView, event: Public, fmt: Plain) -> str | None:
    """The post text for a deadline, a lapse, a removal, a replacement or a correction."""
    b, e = fmt.bold, fmt.escape
    if isinstance(event, DeadlineSet):  # a post shows the deadline in force once (deadline_note)
        return None if event.until else f"{b('Deadline')}: the deadline is cleared."
    if isinstance(event, Lapsed):
        return lapse_text(event, fmt)
    if isinstance(event, DeadlineSpent):
        return ("That deadline is spent and decides nothing more: what falls due now waits "
                "for a new deadline.")
    if isinstance(event, Removed):
        if event.hitler:
            return (f"The moderator has removed {b(e(event.name))} from the game. "
                    f"{b(e(event.name))} was {b('Hitler')}: Hitler has left the game.")
        tail = (" The round ends as a failed election." if event.ends_round else "")
        return (f"The moderator has removed {b(e(event.name))} from the game (not the table: "
                f"nothing about their role is revealed); the seat counts as dead.{tail}")
    if isinstance(event, Renamed):
        return (f"A name is corrected: {e(event.old)} is {b(e(event.new))} (the same player, "
                "who keeps the seat).")
    if isinstance(event, Replaced):
        if not event.dealt:  # before a deal from the players' words (R-DEAL)
            return (f"{b(e(event.new))} takes seat {event.seat} from {e(event.old)} before the "
                    "deal; a word already posted for the seat stands.")
        return (f"{b(e(event.new))} replaces {e(event.old)} in seat {event.seat}, with the "
                "seat's role and everything it knew. The seat's history stands.")
    if not isinstance(event, Corrected):
        return None
    waiting = e(phrases.waiting(fmt.lang, event.waiting))
    steps = phrases.voided(fmt.lang, event)
    if event.forced:  # it voids what players saw: loud, in words they can follow
        seen = "; ".join(e(what) for n, what in steps if n in event.posted or not event.posted)
        return (f"{b('CORRECTION')}: the moderator voids a step already posted here: "
                f"{seen}. It no longer counts; the game goes on from before it: waiting "
                f"for {waiting}.")
    voided = "; ".join(e(what) for _, what in steps)
    return (f"{b('Correction')}: the moderator mistyped and voids {voided}. "
            f"The game continues from before it: waiting for {waiting}.")


def lapse_text(event: Lapsed, fmt: Plain) -> str:
    """R-LAPSE in public words: who sent nothing by the deadline and what followed."""
    b, e = fmt.bold, fmt.escape
    late = ", ".join(b(e(n)) for n in event.late)
    president, chancellor = b(e(event.president)), b(e(event.chancellor))
    phase = event.phase
    if phase == "vote":
        return f"{late} sent no vote by the deadline: counted as Nein."
    if phase == "nominate":
        return (f"Presidential Candidate {president} made no nomination by the deadline: the "
                f"turn passes as a failed election (Election Tracker: {event.tracker}).")
    if phase == "discard":
        return (f"President {president} sent no discard by the deadline: one of the policies "
                "was discarded at random, as the house rules say.")
    if phase == "enact":
        return (f"Chancellor {chancellor} sent no choice by the deadline: the policy to enact "
                "was drawn at random, as the house rules say.")
    if phase == "veto_answer":
        return f"President {president} did not answer the veto by the deadline: it is refused."
    if phase == "veto_vote":
        return f"{late} did not vote on the veto by the deadline: counted as Nein."
    power = POWER_NAMES[event.power] if event.power else "the power"
    target = "" if event.power == "peek" else ", with its target drawn at random"
    return (f"President {president} did not use {power} by the deadline: it is used"
            f"{target}, as the house rules say.")


RETRACTED: dict[type[Secret], str] = {
    Drawn: "the three policies I sent you as President",
    Handed: "the two policies I sent you as Chancellor",
    VetoRequested: "my message about the Chancellor's veto",
    VetoVoteAsked: "my message asking for your secret veto vote",
    InvestigationResult: "the investigation result I sent you",
    PeekResult: "the Policy Peek I sent you",
    Briefing: "my welcome message: you do not take over the seat after all",
}


def removed_text() -> str:
    """R-MODKILL: the PM to a player the moderator removed."""
    return ("The moderator has removed you from the game, as nobody could take your seat. "
            "From now on you may not post in the thread, vote, or hold office, and you must "
            "not reveal your role; you may keep reading. Thank you for playing.")


def retract_text(kind: type[Secret]) -> str:
    """R-CORRECT: the PM to a player whose earlier PM (of type ``kind``) a correction
    voided."""
    what = RETRACTED.get(kind, "my last message to you")
    again = (" You will be sent what replaces it when the game gets there again."
             if kind not in (Briefing, InvestigationResult, PeekResult) else "")
    return (f"Please disregard {what}: the moderator corrected a mistake in the step that "
            f"led to it.{again}")


def pm_text(secret: Briefing, fmt: Plain, one_pm: Callable[[Secret, Plain], str]) -> str:
    """The one PM a replacement gets: role, R-KNOW, and every secret the seat was sent,
    each as ``one_pm`` (:func:`shmod.texts.messages.pm_text`) words it."""
    e = fmt.escape
    lines = [f"Welcome! You replace {fmt.bold(e(secret.replacing))} in seat {secret.seat}; the "
             f"game is in round {secret.round}.",
             role_text(secret.role, dict(secret.knows), fmt)]
    if secret.history:
        lines.append("Everything this seat was sent so far, oldest first:")
        lines += [f"(Round {when}) " + one_pm(sent, fmt) for when, sent in secret.history]
    else:
        lines.append("This seat has been sent nothing else so far.")
    if secret.did:
        lines.append("What this seat did so far, oldest first:")
        lines += [f"(Round {deed.round}) {e(phrases.deed(fmt.lang, deed))}" for deed in secret.did]
    awaited = secret.awaited
    if awaited:
        lines.append(fmt.bold("The game is waiting for you now: ") + _owed_words(
            awaited.phase, e(awaited.president), e(awaited.chancellor),
            awaited.power) + ". Please send it to me by PM (a nomination: post it in the "
            "thread).")
    else:
        lines.append("Nothing is asked of you right now; follow the thread.")
    return fmt.lines(lines)


def deadline_line(view: PublicView, now: datetime) -> str | None:
    """``Deadline (this round): … (2 d left)`` or ``— OVERDUE: Ann, Bob`` for the moderator,
    or ``None`` without one."""
    if view.deadline is None:
        return None
    until, zone, scope = view.deadline
    what = "this round" if scope == "round" else "this phase"
    line = f"Deadline ({what}): {when_text(until, zone)}: {left_text(until, now)}"
    if now > deadlines.utc(until) and view.waiting_on:
        line += " — OVERDUE: " + ", ".join(view.waiting_on)
    return line


def reminder(view: PublicView, fmt: Plain, now: datetime) -> str | None:
    """A reminder for the thread: the time left and whom the game waits for (public
    facts only; not a numbered post). None when nothing is awaited."""
    if not view.waiting_on or view.winner:
        return None
    who = ", ".join(fmt.bold(fmt.escape(n)) for n in view.waiting_on)
    owe = {"vote": "a vote", "deal": "a word for the deal", "nominate": "a nomination",
           "veto_vote": "a secret veto vote"}.get(view.phase, "a choice")
    if view.deadline is None:
        return f"{fmt.bold('Reminder')}: still waiting for {who} ({owe})."
    until, zone, _ = view.deadline
    left = left_text(until, now)
    return (f"{fmt.bold('Reminder')}: {left} until the deadline, {when_text(until, zone)}: "
            f"still waiting for {who} ({owe}).")


def owed(view: PublicView, name: str, hand: str = "",
         escape: Callable[[str], str] = str) -> str:
    """What ``name`` owes the moderator now, in the words of a PM (names passed through
    ``escape``); ``hand`` names the policies they were sent, where the choice is one."""
    return _owed_words(view.phase, escape(view.president), escape(view.chancellor or ""),
                       view.power, hand, view.veto_open)


def _owed_words(phase: Phase, president: str, chancellor: str, power: Power | None,
                hand: str = "", veto_open: bool = False) -> str:
    """What a player owes in ``phase``, in the words of a PM."""
    hand = f" ({hand})" if hand else ""
    if phase == "nominate":
        return "your nomination of a Chancellor (you are the Presidential Candidate)"
    if phase == "vote":
        return (f"your vote, Ja or Nein, on President {president} and Chancellor "
                f"{chancellor}")
    if phase == "discard":
        return f"your discard: one of the three policies I sent you{hand} (you are President)"
    if phase == "enact":
        veto = " or a veto proposal" if veto_open else ""
        return f"the policy you enact from the two I sent you{hand}{veto} (you are Chancellor)"
    if phase == "veto_answer":
        return f"your answer to Chancellor {chancellor}'s veto: accept or refuse"
    if phase == "veto_vote":
        return "your secret vote on the veto: Ja or Nein"
    if phase == "power":
        named = POWER_NAMES[power] if power else "the power"
        return f"your choice for {named} (you are President)"
    if phase == "deal":
        return "your word for the deal, posted in the thread"
    return "nothing"


#: The PM a choice is made from, by phase: a prod names its policies.
CHOICE_PMS: dict[str, type[Drawn] | type[Handed]] = {"discard": Drawn, "enact": Handed}


def prods(view: PublicView, fmt: Plain, now: datetime | None,
          sent: Mapping[str, Sequence[Secret]] | None = None) -> list[tuple[str, str]]:
    """R-STALL: one ready PM per player the game waits for. A prod only reminds: the
    moderator cannot act for a player. ``sent``: each player's own PMs (their player
    view), so that a prod names the policies the choice is made from."""
    out = []
    deadline = (f" The deadline is {when_text(*view.deadline[:2])}" if view.deadline else "")
    if view.deadline and now is not None and now > deadlines.utc(view.deadline[0]):
        deadline += ", and it has passed."
    elif view.deadline and now is not None:
        deadline += f": {left_text(view.deadline[0], now)}."
    # A nomination is made in the thread (R-THREAD); votes and choices come by PM (R-PM).
    where = "post it in the thread" if view.phase == "nominate" else "send it to me by PM"
    kind = CHOICE_PMS.get(view.phase)
    counts = dict(view.prods)
    for name in view.waiting_on:
        pile = [s.cards for s in (sent or {}).get(name, ()) if kind and isinstance(s, kind)]
        hand = cards(fmt, pile[-1]) if pile else ""
        number = counts.get(name, 0) + 1
        which = "" if number == 1 else f" This is reminder number {number}."
        text = (f"Hi {fmt.escape(name)}, the game is waiting for "
                f"{owed(view, name, hand, fmt.escape)}. Please {where}.{deadline}{which}")
        out.append((name, text))
    return out




def rules_card(view: PublicView, fmt: Plain) -> str:
    """The rules in force for this game as a thread post, for the table to agree on:
    plain sentences for players, the switches that differ from the rulebook only."""
    b = fmt.bold
    players = len(view.players)
    liberals, fascists = ROLE_COUNTS[players]
    rules = dict(view.variants)
    powers = [f"Fascist policy {n}: {POWER_NAMES[p] if p else 'no power'}"
              for n, p in enumerate(view.powers, 1)]
    powers.append(f"Fascist policy {view.fascist_win}: the Fascists win")
    veto = (f"After {view.veto_zone} Fascist policies the Chancellor may propose to veto "
            "both policies; if the President agrees, nothing is enacted."
            if view.veto_zone < view.fascist_win else "There is no veto in this game.")
    know = rules.get("hitler_knows_fascists", "yes" if players <= 6 else "no") == "yes"
    fascist_word = "one Fascist" if fascists == 1 else f"{fascists} Fascists"
    house = [HOUSE_RULES[(k, v)] for k, v in view.variants if (k, v) in HOUSE_RULES]
    deck = (f"{view.deck[0]} Liberal + {view.deck[1]} Fascist" if "deck" in rules
            else "6 Liberal and 11 Fascist")
    start = (f"{view.start[0]} Liberal, {view.start[1]} Fascist policies enacted"
             if "start" in rules else "none enacted")
    return fmt.blocks([
        fmt.heading(f"Rules for this game: {players} players"),
        fmt.lines([
            "Seating order: " + ", ".join(named(view, n, fmt) for n in view.players) + ".",
            f"Roles: {liberals} Liberals, {fascist_word} and Hitler. The Fascists know each "
            f"other and Hitler; Hitler {'knows' if know else 'does not know'} "
            f"{'the Fascist' if fascists == 1 else 'the Fascists'}.",
            f"Policies: {deck} in the deck; {start} at the start.",
            "Fascist track:",
        ]),
        fmt.bullets(powers),
        fmt.lines([
            f"The Liberals win with {view.liberal_win} Liberal policies or by executing "
            f"Hitler. The Fascists also win if Hitler is elected Chancellor after "
            f"{view.hitler_zone} Fascist policies.",
            "The last elected President and Chancellor cannot be nominated Chancellor; "
            + ("in a game that started with five players, only the last Chancellor."
               if rules.get("term5") == "seated" else
               "with five or fewer players alive, only the last Chancellor."),
            veto,
            f"After {view.chaos_at} failed elections in a row, the top policy is enacted and "
            "term limits are forgotten.",
        ]),
        *([b("House rules:"), fmt.bullets(house)] if house else []),
        "Send your votes and secret choices to the moderator by PM. The moderator may "
        "remind you, but never votes or chooses for you.",
    ])
