"""The end-of-game reveal post: every secret the game had (R-THREAD: "at game end the
moderator may reveal all"). Refused while the game is still going."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from shmod.base.errors import BadInput
from shmod.base.records import Record
from shmod.forum.corrections import voided
from shmod.forum.deadlines import lapses
from shmod.forum.dealing import starting_deck
from shmod.forum.events import Retraction
from shmod.forum.seats import replacing
from shmod.forum.table import Table
from shmod.game.events import Drawn, Enacted, Handed, InvestigationResult, PeekResult, Vetoed
from shmod.game.rules import parse_cards
from shmod.game.terms import OVER, Policy, Role
from shmod.log.store import Loaded
from shmod.texts import claim_texts, glossary
from shmod.texts.catalog import Np_, Term
from shmod.texts.formats import Plain
from shmod.texts.markup import cards

#: Each role as the reveal's list of seats says it ("Ann: a Liberal").
ROLE_SAID: dict[Role, Term] = {"liberal": Np_("reveal role", "a Liberal"),
                               "fascist": Np_("reveal role", "a Fascist"),
                               "hitler": Np_("reveal role", "Hitler")}


def _minus(pile: list[Policy], taken: list[Policy]) -> list[Policy]:
    left = Counter(pile)
    left.subtract(taken)
    return sorted(left.elements())


class Government(Record):
    """One Legislative Session with all its secrets, and what of it a lapse decided
    (R-LAPSE: the phases ``discard``, ``enact``, ``veto_answer`` or ``veto_vote``)."""

    president: str
    chancellor: str
    drawn: list[Policy]
    president_discard: list[Policy]
    chancellor_discard: list[Policy]
    enacted: Policy | None  # None: vetoed
    lapsed: frozenset[str] = frozenset()


def governments(game: Loaded) -> list[Government]:
    """Each Legislative Session: who, the three drawn, both discards, and the outcome. A
    session a removal cut short (R-MODKILL: its policies went back on the pile, its PMs
    retracted) or a correction voided is not one."""
    state = game.table
    gone = voided(state) | {s.sent for s in state.secrets if isinstance(s, Retraction)}
    draws = [s for s in state.secrets if isinstance(s, Drawn) and s.entry not in gone]
    hands = [s for s in state.secrets if isinstance(s, Handed) and s.entry not in gone]
    ends = [ev for ev in state.public if ev.entry not in gone and (
        (isinstance(ev, Enacted) and not ev.chaos) or isinstance(ev, Vetoed))]
    lapsed = [(entry, ev.phase) for entry, ev in lapses(state.public).items()
              if entry not in gone]
    out: list[Government] = []
    for number, draw in enumerate(draws):
        until = draws[number + 1].entry if number + 1 < len(draws) else state.entries + 1
        hand = next((h for h in hands if draw.entry <= h.entry < until), None)
        end = hand and next((ev for ev in ends if hand.entry <= ev.entry < until), None)
        if hand is None or end is None:
            continue
        drawn: list[Policy] = list(draw.cards)
        passed: list[Policy] = list(hand.cards)
        enacted = end.policy if isinstance(end, Enacted) else None
        decided = frozenset(phase for entry, phase in lapsed if draw.entry <= entry <= end.entry)
        out.append(Government(draw.to, hand.to, drawn, _minus(drawn, passed),
                              _minus(passed, [enacted] if enacted else []), enacted, decided))
    return out


def _pile(fmt: Plain, policies: Iterable[Policy]) -> str:
    return cards(fmt, policies, compact=True)


def _roles(state: Table, fmt: Plain) -> list[str]:
    """Every seat's role, a replacement's with whom it replaced."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    was = replacing(state)
    return [t._("{name} (replacing {before}): {role}", name=b(e(name)), before=e(was[name]),
                role=t.term(ROLE_SAID[role])) if name in was else
            t._("{name}: {role}", name=b(e(name)), role=t.term(ROLE_SAID[role]))
            for name, role in zip(state.game.players, state.game.roles)]


def _chosen(fmt: Plain, policies: Iterable[Policy], random: bool) -> str:
    """A choice's policies, marked when a lapse drew them at random (R-LAPSE)."""
    # TRANSLATORS: {cards} are policies a lapse chose: the player sent no choice by the
    # deadline and the house rules drew it at random.
    return fmt.lang._("{cards} (drawn at random)", cards=_pile(fmt, policies)) if random else \
        _pile(fmt, policies)


def _government(gov: Government, fmt: Plain) -> str:
    """One government's hands, discards and what it enacted."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    names = {"president": b(e(gov.president)), "chancellor": b(e(gov.chancellor)),
             "drawn": _pile(fmt, gov.drawn),
             "first": _chosen(fmt, gov.president_discard, "discard" in gov.lapsed),
             "second": _pile(fmt, gov.chancellor_discard)}
    if gov.enacted:
        # TRANSLATORS: one government of the reveal; {drawn}, {first}, {second} and
        # {enacted} are lists of policies.
        row = t._("President {president}, Chancellor {chancellor}: drew {drawn}; the "
                  "President discarded {first}; the Chancellor discarded {second} and "
                  "enacted {enacted}.",
                  enacted=_chosen(fmt, [gov.enacted], "enact" in gov.lapsed), **names)
    else:
        row = t._("President {president}, Chancellor {chancellor}: drew {drawn}; the "
                  "President discarded {first}; the agenda was vetoed, discarding "
                  "{second}.", **names)
    if gov.lapsed & {"veto_answer", "veto_vote"}:
        row = " ".join([row, t._("The veto was refused: its deadline passed unanswered.")])
    return row


def _power_results(state: Table, fmt: Plain) -> list[str]:
    """Every investigation's and peek's true result."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    results = []
    void = voided(state)
    drawn = {entry for entry, ev in lapses(state.public).items()
             if ev.phase == "power" and entry not in void}
    for s in (s for s in state.secrets if s.entry not in void):
        if isinstance(s, InvestigationResult) and s.entry in drawn:
            # TRANSLATORS: the President sent no target by the deadline: the house rules
            # drew it at random.
            results.append(t._("{president} investigated {target} (drawn at random): "
                               "{party}.", president=b(e(s.to)), target=b(e(s.target)),
                               party=glossary.party(t, s.party)))
        elif isinstance(s, InvestigationResult):
            results.append(t._("{president} investigated {target}: {party}.",
                               president=b(e(s.to)), target=b(e(s.target)),
                               party=glossary.party(t, s.party)))
        elif isinstance(s, PeekResult):
            results.append(t._("{president} peeked at {cards}.", president=b(e(s.to)),
                               cards=_pile(fmt, s.cards)))
    return results


def _decks(game: Loaded, fmt: Plain) -> list[str]:
    """The starting deck and every reshuffle's, top first."""
    t = fmt.lang
    void = voided(game.table)
    decks = [t._("Starting deck, top first: {cards}",
                 cards=_pile(fmt, starting_deck(game.table)))]
    shuffles = [raw for number, raw in enumerate(game.log.entries, 1)
                if raw.get("kind") == "reshuffle" and number not in void]
    decks += [t._("Reshuffle {n}, top first: {cards}", n=n,
                  cards=_pile(fmt, parse_cards(raw["deck"])))
              for n, raw in enumerate(shuffles, 1)]
    return decks


def reveal_text(game: Loaded, fmt: Plain, *, spoiler: bool = True) -> str:
    """Every role, every government's hands and discards, results, and the deck."""
    state = game.table
    if state.game.phase != OVER:
        raise BadInput("the game is not over: the reveal would put secrets in the thread "
                       "(R-THREAD)")
    e, t = fmt.escape, fmt.lang
    rows = [_government(gov, fmt) for gov in governments(game)]
    results = _power_results(state, fmt)
    parts = [fmt.heading(t._("The reveal")), t._("Roles:"), fmt.bullets(_roles(state, fmt)),
             t._("Governments (drawn top first):"),
             fmt.numbered(rows) if rows else t._("No government sat.")]
    if results:
        parts += [t._("Investigations and peeks, with their true results:"),
                  fmt.bullets(results)]
    marked = claim_texts.reveal_lines(state.public, claim_texts.truth(state) or {}, fmt)
    if marked:
        parts += [t._("Claims, against what was dealt:"), fmt.bullets(marked)]
    parts.append(fmt.lines(_decks(game, fmt)))
    if game.setup.seed is not None:
        parts.append(t._("Seed: {seed} | Salt: {salt}", seed=e(game.setup.seed),
                         salt=e(game.setup.salt or "")))
    body = fmt.blocks(parts)
    return fmt.spoiler(t._("The reveal: every role and every policy"), body) if spoiler else body
