"""Claims (R-CLAIM): what players said in the thread about their legislative sessions,
their powers and their roles, recorded as bookkeeping beside the game.

A claim moves nothing: it is no step of the game, draws nothing and changes no field of
the game (the game's record only learns that it was said: a :class:`Claimed` event,
which alone makes no post). The forum keeps, for each claim in effect, the entries it is
about, so that a correction voiding one of them voids the claim with it (R-CORRECT), and
whether it matches what was dealt, a secret until the game is over
(:class:`~shmod.forum.table.ClaimFact`). Which sessions and powers there were follows
from the public record; the cards and results a claim is compared with are the game's
secrets.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from shmod.base.errors import RuleBroken
from shmod.base.records import Record
from shmod.forum.events import Claimed, Renamed, Replaced, Retraction
from shmod.forum.steps import Claim
from shmod.forum.table import ClaimFact, Table
from shmod.forum.terms import ClaimAbout
from shmod.game.events import (
    Drawn,
    Handed,
    Investigated,
    InvestigationResult,
    Peeked,
    PeekResult,
    RoundBegan,
    Tallied,
)
from shmod.game.terms import INVESTIGATE, OVER, PEEK, Party, Policy, Power


class Session(Record, frozen=False):
    """A legislative session in effect: its round, the seats of its President and
    Chancellor, the entry of the vote that elected them (the President drew then) and the
    three drawn; the entry of the discard and the two passed, once passed."""

    round: int
    president: int
    chancellor: int
    drew: int
    drawn: tuple[Policy, ...] = ()
    passed_at: int | None = None
    passed: tuple[Policy, ...] = ()


class PowerUsed(Record, frozen=False):
    """An investigation or a peek in effect: its round, the President's seat, the target's
    (an investigation), the entry, and what it showed."""

    round: int
    power: Power
    president: int
    target: int | None
    entry: int
    party: Party | None = None
    cards: tuple[Policy, ...] = ()


def record(table: Table) -> tuple[list[Session], list[PowerUsed]]:
    """Every legislative session and every investigation and peek in effect, in order (a
    session a correction voided or a removal cut short before the discard is none)."""
    gone = {number for _at, numbers, _why in table.corrections for number in numbers}
    retracted = {(s.sent, s.what) for s in table.secrets if isinstance(s, Retraction)}
    names = list(table.setup.players)
    round_ = 1
    sessions: dict[int, Session] = {}
    powers: dict[int, PowerUsed] = {}
    for event in table.public:
        if event.entry in gone:
            continue
        match event:
            case Replaced():
                names[event.seat - 1] = event.new
            case Renamed():
                names[names.index(event.old)] = event.new
            case RoundBegan():
                round_ = event.round
            case Tallied() if event.elected:
                sessions[event.entry] = Session(round_, names.index(event.president),
                                                names.index(event.chancellor), event.entry)
            case Investigated():
                powers[event.entry] = PowerUsed(round_, INVESTIGATE, names.index(event.president),
                                                names.index(event.target), event.entry)
            case Peeked():
                powers[event.entry] = PowerUsed(round_, PEEK, names.index(event.president),
                                                None, event.entry)
    for secret in table.secrets:
        if secret.entry in gone or (secret.entry, type(secret)) in retracted:
            continue
        if isinstance(secret, Drawn) and secret.entry in sessions:
            sessions[secret.entry].drawn = secret.cards
        elif isinstance(secret, Handed):
            held = [s for s in sessions.values() if s.drew <= secret.entry and s.drawn]
            if held and held[-1].passed_at is None:
                held[-1].passed_at, held[-1].passed = secret.entry, secret.cards
        elif isinstance(secret, InvestigationResult) and secret.entry in powers:
            powers[secret.entry].party = secret.party
        elif isinstance(secret, PeekResult) and secret.entry in powers:
            powers[secret.entry].cards = secret.cards
    return [s for s in sessions.values() if s.drawn], list(powers.values())


def same(claimed: Sequence[Policy], dealt: Sequence[Policy]) -> bool:
    """Whether two hands hold the same policies, in any order (a claim names how many of
    each, as players say them)."""
    return Counter(claimed) == Counter(dealt)


def within(part: Sequence[Policy], whole: Sequence[Policy]) -> bool:
    """Whether the policies of ``part`` are among those of ``whole``."""
    return not Counter(part) - Counter(whole)


def conflict(president: Claimed, chancellor: Claimed) -> bool:
    """Whether the President's and the Chancellor's claims of one session cannot both be
    true: the two the President says they passed are not the two the Chancellor says they
    received, or (no pass said) the Chancellor's two are not among the President's three.
    Public: it reads only what the two said."""
    if president.passed:
        return not same(president.passed, chancellor.cards)
    return not within(chancellor.cards, president.cards)


def claim(table: Table, step: Claim) -> None:
    """R-CLAIM: record what a living player said in the thread, refusing a claim that
    makes no sense (about a session, investigation or peek that did not happen, or not
    theirs; a count of policies that is wrong; a role before the deal)."""
    game = table.game
    _alive(table, step.by)
    about, true = _check(table, step)
    table.claims[table.entries] = ClaimFact(step.by, about, true)
    game.say(Claimed, name=game.name(step.by), about=step.about, round=step.round,
             cards=step.cards, passed=step.passed,
             target="" if step.target is None else game.name(step.target),
             party=step.party, role=step.role, late=game.phase == OVER)


def about_voided(table: Table, entries: set[int]) -> set[int]:
    """R-CORRECT: the claims in effect about a session or a power whose entries are among
    ``entries`` (voided with them)."""
    return {number for number, fact in table.claims.items()
            if any(entry in entries for entry in fact.about)}


def _alive(table: Table, seat: int) -> None:
    game = table.game
    if not game.alive[seat]:
        how = "was removed from the game" if seat in table.removed else "is dead"
        raise RuleBroken("R-CLAIM", f"{game.name(seat)} {how}: a dead player says nothing "
                         "in the thread, so makes no claim")


def _check(table: Table, step: Claim) -> tuple[tuple[int, ...], bool]:
    """The entries the claim is about and whether it is true, or a refusal."""
    game = table.game
    who = game.name(step.by)
    if step.about == "role":
        if not game.roles:
            raise RuleBroken("R-CLAIM", "the roles are not dealt yet: there is no role to "
                             "claim")
        assert step.role is not None
        return (), step.role == game.roles[step.by]
    sessions, powers = record(table)
    if step.about in ("investigation", "peek"):
        power = INVESTIGATE if step.about == "investigation" else PEEK
        used = [p for p in powers if p.power == power and p.president == step.by
                and p.round == step.round and p.target == step.target]
        if not used:
            what = (f"investigate {game.name(step.target)}" if step.target is not None
                    else "use Policy Peek")
            raise RuleBroken("R-CLAIM", f"{who} did not {what} in round {step.round}: "
                             "a claim of a result is the President's who used the power")
        found = used[-1]
        if power == PEEK and len(step.cards) != 3:
            raise RuleBroken("R-CLAIM", f"a claim of a peek is the top three policies, not "
                             f"{len(step.cards)}")
        true = (step.party == found.party if power == INVESTIGATE
                else tuple(step.cards) == tuple(found.cards))  # a peek's order is the deck's
        return (found.entry,), true
    session = next((s for s in sessions if s.round == step.round), None)
    if session is None:
        raise RuleBroken("R-CLAIM", f"no legislative session sat in round {step.round} (no "
                         "government elected there drew three policies, or a correction or "
                         "a removal undid it)")
    office = session.president if step.about == "president" else session.chancellor
    if office != step.by:
        other = "Chancellor" if step.about == "president" else "President"
        if step.by in (session.president, session.chancellor):
            said = ("the two policies received" if other == "Chancellor"
                    else "the three policies drawn")
            raise RuleBroken("R-CLAIM", f"{who} was {other} in round {step.round}, not "
                             f"{step.about.capitalize()}: a {other}'s claim is {said}, not "
                             f"{len(step.cards)}")
        raise RuleBroken("R-CLAIM", f"{who} sat in no government in round {step.round} "
                         f"({game.name(session.president)} and "
                         f"{game.name(session.chancellor)} did)")
    if step.about == "president":
        if len(step.cards) != 3:
            raise RuleBroken("R-CLAIM", f"a President's claim is the three policies drawn, "
                             f"not {len(step.cards)}")
        if step.passed:
            _passed(table, step, session)
        true = same(step.cards, session.drawn) and (
            not step.passed or same(step.passed, session.passed))
        return (session.drew, *((session.passed_at,) if step.passed and session.passed_at
                                else ())), true
    if session.passed_at is None:
        raise RuleBroken("R-CLAIM", f"Chancellor {who} has not been passed the two policies "
                         f"of round {step.round} yet")
    if len(step.cards) != 2:
        raise RuleBroken("R-CLAIM", f"a Chancellor's claim is the two policies received, not "
                         f"{len(step.cards)}")
    return (session.passed_at,), same(step.cards, session.passed)


def _passed(table: Table, step: Claim, session: Session) -> None:
    """A President's claim of the two passed: two of the three claimed, once passed."""
    who = table.game.name(step.by)
    if len(step.passed) != 2 or not within(step.passed, step.cards):
        raise RuleBroken("R-CLAIM", f"a President passes two of the three policies drawn: "
                         f"{_letters(step.passed)} is not two of {_letters(step.cards)}")
    if session.passed_at is None:
        raise RuleBroken("R-CLAIM", f"President {who} has not passed two policies in round "
                         f"{step.round} yet")


def latest(table: Table, seat: int, cards: tuple[Policy, ...], passed: tuple[Policy, ...],
           round_: int | None) -> Claim:
    """A claim of a legislative session as the moderator types it: three policies are the
    President's draw, two the Chancellor's hand, of the player's latest session in that
    office unless ``round_`` names one (the handler checks the rest)."""
    _alive(table, seat)
    count = len(cards)
    if count not in (2, 3):
        raise RuleBroken("R-CLAIM", f"a claim of a legislative session is three policies (the "
                         f"President's draw) or two (the Chancellor's hand), not {count}")
    about: ClaimAbout = "president" if count == 3 else "chancellor"
    if round_ is None:
        sessions, _ = record(table)
        mine = [s for s in sessions if (s.president if count == 3 else s.chancellor) == seat]
        if not mine:
            who = table.game.name(seat)
            sat = [s for s in sessions if seat in (s.president, s.chancellor)]
            if not sat:
                raise RuleBroken("R-CLAIM", f"{who} has sat in no legislative session yet")
            office, said = (("Chancellor", "two policies received") if count == 3
                            else ("President", "three policies drawn"))
            raise RuleBroken("R-CLAIM", f"{who} sat in no legislative session as "
                             f"{about.capitalize()}, only as {office} (round {sat[-1].round}): "
                             f"a {office}'s claim is the {said}, not {count}")
        round_ = mine[-1].round
    return Claim(seat, about, round_, cards, passed)


def latest_power(table: Table, seat: int, about: str, target: int | None,
                 round_: int | None) -> int:
    """The round of the player's latest investigation of ``target``, or latest peek,
    unless ``round_`` names one."""
    _alive(table, seat)
    if round_ is not None:
        return round_
    power = INVESTIGATE if about == "investigation" else PEEK
    used = [p for p in record(table)[1] if p.power == power and p.president == seat
            and p.target == target]
    if not used:
        game = table.game
        what = (f"investigated {game.name(target)}" if target is not None
                else "used Policy Peek")
        raise RuleBroken("R-CLAIM", f"{game.name(seat)} never {what}: a claim of a result is "
                         "the President's who used the power")
    return used[-1].round


def _letters(cards: Sequence[Policy]) -> str:
    return "".join(cards) or "nothing"
