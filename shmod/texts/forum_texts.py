"""Words for forum moderation: deadline lines, prods, the replacement PM, the rules card.

Like :mod:`shmod.texts.game_texts`, posts are built from a
:class:`~shmod.texts.views.PublicView` and PMs from one :class:`~shmod.game.events.Secret` or
from what the table already knows, never from the state itself; every sentence is a message
of the game's language (``fmt.lang``), words a sentence marks up itself between ``{on}`` and
``{off}``. The deadline line of ``shmod status`` is the moderator's, in English.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from shmod.forum import deadlines
from shmod.forum.events import (
    Briefing,
    Claimed,
    Corrected,
    DeadlineSet,
    DeadlineSpent,
    HandedOver,
    Lapsed,
    LapsePlayed,
    ModeratorsChanged,
    Removed,
    Renamed,
    Replaced,
)
from shmod.forum.terms import LATE_VARIANTS
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
from shmod.game.terms import Phase, Power
from shmod.texts import claim_texts, glossary, numbers, phrases
from shmod.texts.catalog import ENGLISH, N_, Language, Np_, get as language
from shmod.texts.formats import Plain
from shmod.texts.game_texts import fascist_track, variant_rules
from shmod.texts.markup import ballots, cards, marks, policy
from shmod.texts.pm_texts import role_text
from shmod.texts.views import PublicView
from shmod.texts.wordings import PostWords

if TYPE_CHECKING:
    from datetime import datetime

#: The days of the week and the months, as a deadline's local date shows them.
WEEKDAYS = (
    Np_("abbreviated weekday", "Mon"), Np_("abbreviated weekday", "Tue"),
    Np_("abbreviated weekday", "Wed"), Np_("abbreviated weekday", "Thu"),
    Np_("abbreviated weekday", "Fri"), Np_("abbreviated weekday", "Sat"),
    Np_("abbreviated weekday", "Sun"))
MONTHS = (
    Np_("abbreviated month", "Jan"), Np_("abbreviated month", "Feb"),
    Np_("abbreviated month", "Mar"), Np_("abbreviated month", "Apr"),
    Np_("abbreviated month", "May"), Np_("abbreviated month", "Jun"),
    Np_("abbreviated month", "Jul"), Np_("abbreviated month", "Aug"),
    Np_("abbreviated month", "Sep"), Np_("abbreviated month", "Oct"),
    Np_("abbreviated month", "Nov"), Np_("abbreviated month", "Dec"))


def when_text(until: str, zone: str, lang: Language) -> str:
    """``2026-11-23 17:00 UTC (18:00 CET, Europe/Berlin)``; the local day, when it is not
    UTC's, in ``lang`` (never the computer's locale). A language with a catalog writes it
    its own way, local time first (:func:`shmod.texts.numbers.local_time`)."""
    moment = deadlines.utc(until)
    own = numbers.cldr(lang) is not None
    text = numbers.local_time(moment, moment, lang) if own else \
        moment.strftime("%Y-%m-%d %H:%M UTC")
    if zone.upper() == "UTC":
        return text
    from shmod.base.errors import BadInput

    try:
        found = deadlines.zone_info(zone)
    except BadInput:  # a zone this computer's time zone data lacks: the UTC time stands
        # TRANSLATORS: {when} is a date and time in UTC, {zone} a time zone's name.
        return lang._("{when} ({zone}: a time zone unknown to this computer)", when=text,
                      zone=zone)
    local = moment.astimezone(found)
    if own:
        return numbers.local_time(moment, local, lang)
    clock = local.strftime("%H:%M %Z")
    if local.date() != moment.date():
        # TRANSLATORS: a day, e.g. "Tue 24 Nov": {weekday} and {month} abbreviated.
        day = lang._("{weekday} {day} {month}", weekday=lang.term(WEEKDAYS[local.weekday()]),
                     day=local.strftime("%d"), month=lang.term(MONTHS[local.month - 1]))
        clock = f"{day} {clock}"
    return f"{text} ({clock}, {zone})"


def left_text(until: str, now: datetime, lang: Language) -> str:
    """``2 d 3 h left``, ``45 min left``, or ``passed 5 h ago``."""
    seconds = int((deadlines.utc(until) - now).total_seconds())
    span = abs(seconds) // 60
    days, hours, minutes = span // 1440, span % 1440 // 60, span % 60
    # TRANSLATORS: a span of time in days, hours and minutes, abbreviated.
    parts = [lang._n("{n} d", "{n} d", days)] * bool(days) + \
        [lang._n("{n} h", "{n} h", hours)] * bool(hours) + \
        [lang._n("{n} min", "{n} min", minutes)] * bool(minutes and not days)
    # TRANSLATORS: a span of time in two parts, e.g. "2 d" and "3 h", or "3 h" and "5 min".
    shown = (lang._p("time span", "{first} {second}", first=parts[0], second=parts[1])
             if len(parts) == 2 else parts[0] if parts else lang._("less than a minute"))
    # TRANSLATORS: {span} is a span of time, e.g. "2 d 3 h".
    return lang._("{span} left", span=shown) if seconds > 0 else \
        lang._("passed {span} ago", span=shown)


def deadline_note(view: PublicView, now: datetime, fmt: Plain) -> str | None:
    """The deadline in force, for a post: when, and how long is left; never a lapsed one."""
    if view.deadline is None or now >= deadlines.utc(view.deadline[0]):
        return None
    until, zone, scope = view.deadline
    t = fmt.lang
    fields = {"when": when_text(until, zone, t), "left": left_text(until, now, t)}
    # TRANSLATORS: {when} is the deadline's date and time, {left} the time left.
    return (t._("Deadline for this round: {when}: {left}.", **fields) if scope == "round" else
            t._("Deadline for this phase: {when}: {left}.", **fields))


def named(view: PublicView, name: str, fmt: Plain) -> str:
    """A player's name, with "(replacing …)" for a replacement."""
    old = dict(view.replacing).get(name)
    if not old:
        return fmt.escape(name)
    # TRANSLATORS: a replacement, in a list of names: {new} took the seat of {old}.
    return fmt.lang._("{new} (replacing {old})", new=fmt.escape(name), old=fmt.escape(old))


def _deadline_set(view: PublicView, event: DeadlineSet, fmt: Plain) -> str | None:
    # a post shows the deadline in force once (deadline_note)
    # TRANSLATORS: {on} and {off} put the first word in bold.
    return None if event.until else fmt.lang._("{on}Deadline{off}: the deadline is cleared.",
                                               **marks(fmt.bold))


def _lapsed(view: PublicView, event: Lapsed, fmt: Plain) -> str:
    return lapse_text(event, fmt)


def _deadline_spent(view: PublicView, event: DeadlineSpent, fmt: Plain) -> str:
    return fmt.lang._("That deadline is spent and decides nothing more: what falls due now "
                      "waits for a new deadline.")


def _removed(view: PublicView, event: Removed, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    if event.hitler:
        # TRANSLATORS: {on} and {off} put the role in bold.
        return t._("The moderator has removed {name} from the game. {name} was "
                   "{on}Hitler{off}: Hitler has left the game.", name=b(e(event.name)),
                   **marks(b))
    if event.ends_round:
        return t._("The moderator has removed {name} from the game. It is not an "
                   "execution: nothing about their role is revealed, and the seat counts "
                   "as dead. The round ends as a failed election.", name=b(e(event.name)))
    return t._("The moderator has removed {name} from the game. It is not an execution: "
               "nothing about their role is revealed, and the seat counts as dead.",
               name=b(e(event.name)))


def _renamed(view: PublicView, event: Renamed, fmt: Plain) -> str:
    return fmt.lang._("A name is corrected: {old} is {new} (the same player, who keeps the "
                      "seat).", old=fmt.escape(event.old), new=fmt.bold(fmt.escape(event.new)))


def _replaced(view: PublicView, event: Replaced, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    seat = {"new": b(e(event.new)), "old": e(event.old), "seat": event.seat}
    if not event.dealt:  # before a deal from the players' words (R-DEAL)
        return t._("{new} takes seat {seat} from {old} before the deal; a word already "
                   "posted for the seat stands.", **seat)
    return t._("{new} replaces {old} in seat {seat}, with the seat's role and everything "
               "it knew. The seat's history stands.", **seat)


def _moderators(view: PublicView, event: ModeratorsChanged | HandedOver, fmt: Plain) -> str:
    return moderators_text(event, fmt)


def _claimed(view: PublicView, event: Claimed, fmt: Plain) -> str:
    """A claim, marked when it conflicts with an earlier claim."""
    earlier = claim_texts.conflicting(claim_texts.in_effect(view.history))
    mark = claim_texts.check(fmt.lang, event, earlier, None)
    return claim_texts.marked(fmt.lang, claim_texts.sentence(event, fmt), fmt.bold(mark)) if mark \
        else claim_texts.sentence(event, fmt)


def _corrected(view: PublicView, event: Corrected, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    waiting = e(phrases.waiting(t, event.waiting))
    steps = phrases.voided(t, event)
    if event.forced:  # it voids what players saw: loud, in words they can follow
        seen = "; ".join(e(what) for n, what in steps if n in event.posted or not event.posted)
        # TRANSLATORS: {on} and {off} put the first word in bold; {seen} lists what was
        # voided, {waiting} says whom the game waits for and what for.
        return t._("{on}CORRECTION{off}: the moderator voids a step already posted here: "
                   "{seen}. It no longer counts; the game goes on from before it: waiting for "
                   "{waiting}.", seen=seen, waiting=waiting, **marks(b))
    # TRANSLATORS: {on} and {off} put the first word in bold; {voided} lists what was
    # voided, {waiting} says whom the game waits for and what for.
    return t._("{on}Correction{off}: the moderator mistyped and voids {voided}. The game "
               "continues from before it: waiting for {waiting}.",
               voided="; ".join(e(what) for _, what in steps), waiting=waiting, **marks(b))


#: The post words of forum moderation's events, one row each
#: (:data:`shmod.texts.messages.POST_WORDS` holds every public event's).
POST_WORDS: dict[type[Public], PostWords] = {
    DeadlineSet: _deadline_set, Lapsed: _lapsed, DeadlineSpent: _deadline_spent,
    Removed: _removed, Renamed: _renamed, Replaced: _replaced, ModeratorsChanged: _moderators,
    HandedOver: _moderators, Claimed: _claimed, Corrected: _corrected,
}


def moderators_text(event: ModeratorsChanged | HandedOver, fmt: Plain) -> str:
    """R-MODERATORS, R-HANDOVER: a moderator joins or leaves, moderation is handed over."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    if isinstance(event, HandedOver) and event.back:
        # TRANSLATORS: {old} and {new} are moderators' forum names.
        return t._("{new} takes moderation back from {old}, from this post on.",
                   old=e(event.old), new=b(e(event.new)))
    if isinstance(event, HandedOver):
        # TRANSLATORS: {old} and {new} are moderators' forum names.
        return t._("Moderation passes from {old} to {new}, from this post on. {new} checks "
                   "the log against this post's checkpoint line before recording anything.",
                   old=e(event.old), new=b(e(event.new)))
    listed = ", ".join(e(name) for name in event.moderators)
    if event.dropped:
        return t._("{name} no longer moderates this game (moderators: {listed}).",
                   name=b(e(event.name)), listed=listed)
    return t._("{name} is now a moderator of this game (moderators: {listed}).",
               name=b(e(event.name)), listed=listed)


def withdrawal_text(post: int, line: str, fmt: Plain) -> str:
    """R-MERGE: what a moderator adds, by editing it, to a post that lost a race with
    another moderator's post of its number: the words, then the fixed withdrawal line
    (:mod:`shmod.log.withdrawals`), which the thread audit reads back."""
    # TRANSLATORS: added at the end of a thread post that a co-moderator's post of the same
    # number (post {post}) made void; {on} and {off} put "Withdrawn." in bold.
    said = fmt.lang._("{on}Withdrawn.{off} The moderators made two posts numbered {post} at "
                      "the same time, and the other one counts. Nothing announced here is "
                      "lost: it still stands, and the posts that count show it.",
                      post=post, **marks(fmt.bold))
    return f"{said}\n\n{line}"


def joined(names: list[str], lang: Language) -> str:
    """Names in a sentence: ``Ann, Bob, Cy`` in English; a language may join the last
    with its "and" (de ``Ann, Bob und Cy``)."""
    if len(names) < 2:
        return "".join(names)
    # TRANSLATORS: the last name of a list in a sentence after the others ({names}, already
    # joined by commas): English joins it with a comma too; German "{names} und {last}".
    return lang._p("list of names", "{names}, {last}", names=", ".join(names[:-1]),
                   last=names[-1])


def lapse_text(event: Lapsed, fmt: Plain) -> str:
    """R-LAPSE in public words: who sent nothing by the deadline and what followed."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    late = joined([b(e(n)) for n in event.late], t)
    names = {"president": b(e(event.president)), "chancellor": b(e(event.chancellor))}
    phase = event.phase
    if phase == "vote":
        # TRANSLATORS: {late} lists the players; {nein} is the ballot, the same in every
        # language.
        return t._n("{late} sent no vote by the deadline: counted as {nein}.",
                    "{late} sent no vote by the deadline: counted as {nein}.",
                    len(event.late), late=late, nein=glossary.ballot(False))
    if phase == "nominate":
        return t._("Presidential Candidate {president} made no nomination by the deadline: the "
                   "turn passes as a failed election (Election Tracker: {tracker}).",
                   tracker=event.tracker, **names)
    if phase == "discard":
        return t._("President {president} sent no discard by the deadline: one of the "
                   "policies was discarded at random, as the house rules say.", **names)
    if phase == "enact":
        return t._("Chancellor {chancellor} sent no choice by the deadline: the policy to "
                   "enact was drawn at random, as the house rules say.", **names)
    if phase == "veto_answer":
        return t._("President {president} did not answer the veto by the deadline: it is "
                   "refused.", **names)
    if phase == "veto_vote":
        # TRANSLATORS: {late} lists the players; {nein} is the ballot, the same in every
        # language.
        return t._n("{late} did not vote on the veto by the deadline: counted as {nein}.",
                    "{late} did not vote on the veto by the deadline: counted as {nein}.",
                    len(event.late), late=late, nein=glossary.ballot(False))
    # TRANSLATORS: the name of a presidential power.
    power = glossary.power(t, event.power) if event.power else t._("the power")
    if event.power == "peek":
        return t._("President {president} did not use {power} by the deadline: it is used, as "
                   "the house rules say.", power=power, **names)
    return t._("President {president} did not use {power} by the deadline: it is used, with "
               "its target drawn at random, as the house rules say.", power=power, **names)


#: What a retraction takes back, by the kind of PM it was.
RETRACTED: dict[type[Secret], str] = {
    Drawn: N_("the three policies I sent you as President"),
    Handed: N_("the two policies I sent you as Chancellor"),
    VetoRequested: N_("my message about the Chancellor's veto"),
    VetoVoteAsked: N_("my message asking for your secret veto vote"),
    InvestigationResult: N_("the investigation result I sent you"),
    PeekResult: N_("the Policy Peek I sent you"),
    LapsePlayed: N_("my message about what the deadline decided for you"),
    Briefing: N_("my welcome message: you do not take over the seat after all"),
}


def lapse_played_text(secret: LapsePlayed, fmt: Plain) -> str:
    """R-LAPSE: the PM to the player whose choice a lapse drew at random: what it did."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    hand = list(secret.cards)
    if secret.chosen is not None:
        hand.remove(secret.chosen)
    fields = {"cards": cards(fmt, secret.cards), "rest": cards(fmt, hand),
              "policy": policy(fmt, secret.chosen) if secret.chosen else ""}
    if secret.phase == "discard":
        # TRANSLATORS: {cards} the three policies drawn, {policy} the one discarded, {rest}
        # the two passed on.
        return t._("The deadline passed without your discard, so one of your policies was "
                   "discarded at random, as the house rules say. You drew {cards}. Discarded: "
                   "{policy}. Passed to the Chancellor: {rest}.", **fields)
    if secret.phase == "enact":
        # TRANSLATORS: {cards} the two policies, {policy} the one enacted, {rest} the other.
        return t._("The deadline passed without your choice, so the policy to enact was drawn "
                   "at random, as the house rules say. You were passed {cards}. Enacted: "
                   "{policy}. Discarded: {rest}.", **fields)
    if secret.phase == "veto_answer":
        return fmt.lines([
            t._("President {president} did not answer your veto proposal by the deadline, so "
                "the veto is refused, as the house rules say.", president=b(e(secret.president))),
            t._("You must enact one of {cards}: reply with the one policy you enact; the other "
                "is discarded.", cards=fields["cards"])])
    # TRANSLATORS: the name of a presidential power.
    power = glossary.power(t, secret.power) if secret.power else t._("the power")
    lines = [t._("The deadline passed without your choice, so the target of {power} was drawn "
                 "at random, as the house rules say: {target}.", power=power,
                 target=b(e(secret.target)))]
    if secret.power == "investigate":
        lines.append(t._("The result of the investigation follows in its own message."))
    return fmt.lines(lines)


def removed_text(fmt: Plain, backups: bool = False) -> str:
    """R-MODKILL: the PM to a player the moderator removed; ``backups``: although a backup
    player was waiting to take the seat (the moderator insisted, R-BACKUP)."""
    if backups:
        return fmt.lang._("The moderator has removed you from the game. A backup player was "
                          "waiting to take your seat, but the moderator chose to remove the "
                          "seat instead. From now on you may not post in the thread, vote, or "
                          "hold office, and you must not reveal your role; you may keep "
                          "reading. Thank you for playing.")
    return fmt.lang._("The moderator has removed you from the game, as nobody could take "
                      "your seat. From now on you may not post in the thread, vote, or hold "
                      "office, and you must not reveal your role; you may keep reading. Thank "
                      "you for playing.")


def retract_text(kind: type[Secret], fmt: Plain) -> str:
    """R-CORRECT: the PM to a player whose earlier PM (of type ``kind``) a correction
    voided."""
    t = fmt.lang
    # TRANSLATORS: what the PM takes back, e.g. "the investigation result I sent you".
    what = t._(RETRACTED[kind]) if kind in RETRACTED else t._("my last message to you")
    if kind in (Briefing, InvestigationResult, PeekResult):
        # TRANSLATORS: {what} is what the PM takes back.
        return t._("Please disregard {what}: the moderator corrected a mistake in the step "
                   "that led to it.", what=what)
    return t._("Please disregard {what}: the moderator corrected a mistake in the step that "
               "led to it. You will be sent what replaces it when the game gets there again.",
               what=what)


def pm_text(secret: Briefing, fmt: Plain, one_pm: Callable[[Secret, Plain], str]) -> str:
    """The one PM a replacement gets: role, R-KNOW, and every secret the seat was sent,
    each as ``one_pm`` (:func:`shmod.texts.messages.pm_text`) words it."""
    e, t = fmt.escape, fmt.lang
    lines = [t._("Welcome! You replace {name} in seat {seat}; the game is in round {round}.",
                 name=fmt.bold(e(secret.replacing)), seat=secret.seat, round=secret.round),
             role_text(secret.role, dict(secret.knows), fmt)]
    if secret.history:
        lines.append(t._("Everything this seat was sent so far, oldest first:"))
        # TRANSLATORS: one of the seat's past PMs ({text}) or deeds, by the round it came in.
        lines += [t._("(Round {round}) {text}", round=when, text=one_pm(sent, fmt))
                  for when, sent in secret.history]
    else:
        lines.append(t._("This seat has been sent nothing else so far."))
    if secret.did:
        lines.append(t._("What this seat did so far, oldest first:"))
        lines += [t._("(Round {round}) {text}", round=deed.round,
                      text=e(phrases.deed(t, deed))) for deed in secret.did]
    awaited = secret.awaited
    if awaited:
        # TRANSLATORS: {on} and {off} put the first words in bold; {owed} is what the player
        # owes, e.g. "your vote, Ja or Nein, on President Ann and Chancellor Bob"; {where}
        # says where to send it (a sentence of its own).
        lines.append(t._("{on}The game is waiting for you now:{off} {owed}. {where}",
                         owed=_owed_words(t, awaited.phase, e(awaited.president),
                                          e(awaited.chancellor), awaited.power),
                         where=_where(t, awaited.phase), **marks(fmt.bold)))
    else:
        lines.append(t._("Nothing is asked of you right now; follow the thread."))
    return fmt.lines(lines)


def deadline_line(view: PublicView, now: datetime) -> str | None:
    """``Deadline (this round): … (2 d left)`` or ``— OVERDUE: Ann, Bob`` for the moderator
    (in English), or ``None`` without one."""
    if view.deadline is None:
        return None
    until, zone, scope = view.deadline
    what = "this round" if scope == "round" else "this phase"
    english = language(ENGLISH)
    line = (f"Deadline ({what}): {when_text(until, zone, english)}: "
            f"{left_text(until, now, english)}")
    if now > deadlines.utc(until) and view.waiting_on:
        line += " — OVERDUE: " + ", ".join(view.waiting_on)
    return line


#: What the game waits for from the players a reminder names, by phase.
OWED: dict[str, str] = {"vote": N_("a vote"), "deal": N_("a word for the deal"),
                        "nominate": N_("a nomination"), "veto_vote": N_("a secret veto vote")}


def reminder(view: PublicView, fmt: Plain, now: datetime) -> str | None:
    """A reminder for the thread: the time left and whom the game waits for (public
    facts only; not a numbered post). None when nothing is awaited."""
    if not view.waiting_on or view.winner:
        return None
    t = fmt.lang
    # TRANSLATORS: what the players named in a reminder owe, e.g. "a vote".
    owe = t._(OWED[view.phase]) if view.phase in OWED else t._("a choice")
    who = joined([fmt.bold(fmt.escape(n)) for n in view.waiting_on], t)
    if view.deadline is None:
        # TRANSLATORS: {on} and {off} put the first word in bold; {who} lists players, {owe}
        # says what they owe.
        return t._("{on}Reminder{off}: still waiting for {who} ({owe}).", who=who, owe=owe,
                   **marks(fmt.bold))
    until, zone, _ = view.deadline
    # TRANSLATORS: {on} and {off} put the first word in bold; {left} is the time left, e.g.
    # "2 d 3 h left"; {when} the deadline's date and time; {who} lists players, {owe} says
    # what they owe.
    return t._("{on}Reminder{off}: {left} until the deadline, {when}: still waiting for {who} "
               "({owe}).", left=left_text(until, now, t), when=when_text(until, zone, t),
               who=who, owe=owe, **marks(fmt.bold))


def owed(view: PublicView, name: str, fmt: Plain, hand: str = "") -> str:
    """What ``name`` owes the moderator now, in the words of a PM; ``hand`` names the
    policies they were sent, where the choice is one."""
    return _owed_words(fmt.lang, view.phase, fmt.escape(view.president),
                       fmt.escape(view.chancellor or ""), view.power, hand, view.veto_open)


def _owed_words(t: Language, phase: Phase, president: str, chancellor: str,
                power: Power | None, hand: str = "", veto_open: bool = False) -> str:
    """What a player owes in ``phase``, in the words of a PM (after "waiting for")."""
    names = {"president": president, "chancellor": chancellor, "hand": hand, **ballots()}
    if phase == "nominate":
        return t._("your nomination of a Chancellor (you are the Presidential Candidate)")
    if phase == "vote":
        # TRANSLATORS: {ja} and {nein} are the ballots, the same in every language.
        return t._("your vote, {ja} or {nein}, on President {president} and Chancellor "
                   "{chancellor}", **names)
    if phase == "discard" and hand:
        # TRANSLATORS: {hand} lists the policies.
        return t._("your discard as President: one of the three policies I sent you ({hand})",
                   **names)
    if phase == "discard":
        return t._("your discard: one of the three policies I sent you (you are President)")
    if phase == "enact" and hand and veto_open:
        # TRANSLATORS: {hand} lists the policies.
        return t._("the policy you enact as Chancellor from the two I sent you ({hand}), or a "
                   "veto proposal", **names)
    if phase == "enact" and hand:
        # TRANSLATORS: {hand} lists the policies.
        return t._("the policy you enact as Chancellor from the two I sent you ({hand})",
                   **names)
    if phase == "enact" and veto_open:
        return t._("the policy you enact from the two I sent you or a veto proposal (you are "
                   "Chancellor)")
    if phase == "enact":
        return t._("the policy you enact from the two I sent you (you are Chancellor)")
    if phase == "veto_answer":
        return t._("your answer to Chancellor {chancellor}'s veto: accept or refuse", **names)
    if phase == "veto_vote":
        # TRANSLATORS: {ja} and {nein} are the ballots, the same in every language.
        return t._("your secret vote on the veto: {ja} or {nein}", **names)
    if phase == "power":
        # TRANSLATORS: {power} is the name of a presidential power.
        return t._("your choice for {power} (you are President)",
                   power=glossary.power(t, power) if power else t._("the power"))
    if phase == "deal":
        return t._("your word for the deal, posted in the thread")
    return t._("nothing")


def _where(t: Language, phase: Phase) -> str:
    """Where what a player owes in ``phase`` goes: a nomination and a word for the deal are
    posted in the thread (R-THREAD, R-DEAL); votes and choices come by PM (R-PM)."""
    return (t._("Please post it in the thread.") if phase in ("nominate", "deal") else
            t._("Please send it to me by PM."))


#: The PM a choice is made from, by phase: a prod names its policies.
CHOICE_PMS: dict[str, type[Drawn] | type[Handed]] = {"discard": Drawn, "enact": Handed}


def prods(view: PublicView, fmt: Plain, now: datetime | None,
          sent: Mapping[str, Sequence[Secret]] | None = None) -> list[tuple[str, str]]:
    """R-STALL: one ready PM per player the game waits for. A prod only reminds: the
    moderator cannot act for a player. ``sent``: each player's own PMs (their player
    view), so that a prod names the policies the choice is made from."""
    t = fmt.lang
    deadline = []
    if view.deadline:
        when = when_text(*view.deadline[:2], t)
        # TRANSLATORS: {when} is the deadline's date and time, {left} the time left.
        deadline.append(
            t._("The deadline is {when}, and it has passed.", when=when)
            if now is not None and now > deadlines.utc(view.deadline[0]) else
            t._("The deadline is {when}: {left}.", when=when,
                left=left_text(view.deadline[0], now, t)) if now is not None else
            t._("The deadline is {when}.", when=when))
    where = _where(t, view.phase)
    kind = CHOICE_PMS.get(view.phase)
    counts = dict(view.prods)
    out = []
    for name in view.waiting_on:
        pile = [s.cards for s in (sent or {}).get(name, ()) if kind and isinstance(s, kind)]
        hand = cards(fmt, pile[-1]) if pile else ""
        number = counts.get(name, 0) + 1
        # TRANSLATORS: a prod's first sentence: {owed} is what the player owes, e.g. "your
        # vote, Ja or Nein, on President Ann and Chancellor Bob".
        said = [t._("Hi {name}, the game is waiting for {owed}.", name=fmt.escape(name),
                    owed=owed(view, name, fmt, hand)), where, *deadline]
        if number > 1:
            said.append(t._("This is reminder number {number}.", number=number))
        out.append((name, " ".join(said)))
    return out


def _roles_rule(view: PublicView, t: Language) -> str:
    """The rules card's line on the roles and who knows whom."""
    players = len(view.players)
    liberals, fascists = ROLE_COUNTS[players]
    rules = dict(view.variants)
    know = rules.get("hitler_knows_fascists", "yes" if players <= 6 else "no") == "yes"
    return (
        # TRANSLATORS: {liberals} and {n} count the Liberals and the Fascists besides Hitler.
        t._n("Roles: {liberals} Liberals, one Fascist and Hitler. The Fascist knows Hitler; "
             "Hitler knows the Fascist.", "Roles: {liberals} Liberals, {n} "
             "Fascists and Hitler. The Fascists know each other and Hitler; Hitler knows the "
             "Fascists.", fascists, liberals=liberals) if know else
        t._n("Roles: {liberals} Liberals, one Fascist and Hitler. The Fascist knows Hitler; "
             "Hitler does not know the Fascist.", "Roles: {liberals} Liberals, {n} "
             "Fascists and Hitler. The Fascists know each other and Hitler; Hitler does not "
             "know the Fascists.", fascists, liberals=liberals))


def rules_card(view: PublicView, fmt: Plain) -> str:
    """The rules in force for this game as a thread post, for the table to agree on:
    plain sentences for players, the switches that differ from the rulebook only."""
    t = fmt.lang
    players = len(view.players)
    rules = dict(view.variants)
    roles = _roles_rule(view, t)
    house = variant_rules(view, fmt)
    terms = (t._("The last elected President and Chancellor cannot be nominated Chancellor; in "
                 "a game that started with five players, only the last Chancellor.")
             if rules.get("term5") == "seated" else
             t._("The last elected President and Chancellor cannot be nominated Chancellor; "
                 "with five or fewer players alive, only the last Chancellor."))
    # TRANSLATORS: a custom board may unlock the veto after one Fascist policy.
    veto = (t._n("After {n} Fascist policy the Chancellor may propose to veto both "
                 "policies; if the President agrees, nothing is enacted.", "After {n} Fascist "
                 "policies the Chancellor may propose to veto both policies; if the President "
                 "agrees, nothing is enacted.", view.veto_zone)
            if view.veto_zone < view.fascist_win else t._("There is no veto in this game."))
    return fmt.blocks([
        fmt.heading(t._n("Rules for this game: {n} player", "Rules for this game: {n} players",
                         players)),
        fmt.lines([
            t._("Seating order: {names}.",
                names=", ".join(named(view, n, fmt) for n in view.players)),
            roles,
            _policies(view, t, "deck" in rules, "start" in rules),
            t._("Fascist track:"),
        ]),
        fmt.bullets(fascist_track(view, fmt)),
        fmt.lines([
            " ".join([
                t._n("The Liberals win with {n} Liberal policy or by executing Hitler.",
                     "The Liberals win with {n} Liberal policies or by executing Hitler.",
                     view.liberal_win),
                # TRANSLATORS: a custom board may set one.
                t._n("The Fascists also win if Hitler is elected Chancellor after {n} Fascist "
                     "policy.", "The Fascists also win if Hitler is elected Chancellor "
                     "after {n} Fascist policies.", view.hitler_zone)]),
            terms,
            veto,
            t._n("After {n} failed election in a row, the top policy is enacted and term "
                 "limits are forgotten.", "After {n} failed elections in a row, the top policy "
                 "is enacted and term limits are forgotten.", view.chaos_at),
        ]),
        *([fmt.bold(t._("House rules:")), fmt.bullets(house)] if house else []),
        # R-LAPSE: a switch that acts at a deadline is a house rule above, not the moderator.
        t._("Send your votes and secret choices to the moderator by PM. The moderator may "
            "remind you, but never votes or chooses for you: when a deadline passes, the "
            "house rules above do.")
        if any(rules.get(switch, "wait") != "wait" for switch in LATE_VARIANTS) else
        t._("Send your votes and secret choices to the moderator by PM. The moderator may "
            "remind you, but never votes or chooses for you."),
    ])


def _policies(view: PublicView, t: Language, deck: bool, start: bool) -> str:
    """The rules card's line on the deck and the policies enacted at the start."""
    counts = {"lib_deck": view.deck[0], "fas_deck": view.deck[1],
              "lib_start": view.start[0], "fas_start": view.start[1]}
    if deck and start:
        # TRANSLATORS: the deck's Liberal and Fascist policies, and the Liberal and Fascist
        # policies enacted when the game starts.
        return t._("Policies: {lib_deck} Liberal + {fas_deck} Fascist in the deck; "
                   "{lib_start} Liberal, {fas_start} Fascist policies enacted at the start.",
                   **counts)
    if deck:
        return t._("Policies: {lib_deck} Liberal + {fas_deck} Fascist in the deck; none "
                   "enacted at the start.", **counts)
    if start:
        return t._("Policies: {lib_deck} Liberal and {fas_deck} Fascist in the deck; "
                   "{lib_start} Liberal, {fas_start} Fascist policies enacted at the start.",
                   **counts)
    return t._("Policies: {lib_deck} Liberal and {fas_deck} Fascist in the deck; none enacted "
               "at the start.", **counts)
