"""The players' claims as people read them (R-CLAIM): a claim as a sentence (the next
post, the replay), the claims of a game as a table (``shmod history``, ``replay --post``),
as lines of the replay page, and as the reveal marks them.

Built from the public record: the :class:`~shmod.forum.events.Claimed` events no
correction voided, and which claims of one session conflict (what the two said, public).
Whether each claim was true against what was dealt is given only for a finished game
(:func:`truth`, R-THREAD: at game end the moderator may reveal all); the functions take it
as ``truth``, None while the game is on.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from shmod.forum.claims import conflict
from shmod.forum.events import Claimed, Corrected
from shmod.forum.table import Table
from shmod.game.events import Public
from shmod.game.terms import OVER, Policy
from shmod.texts import glossary
from shmod.texts.catalog import Language
from shmod.texts.formats import BBCode, Plain

#: A claim's truth by its entry, once the game is over.
Truth = dict[int, bool]


def in_effect(history: Iterable[Public]) -> list[Claimed]:
    """The claims of the public record that no correction voided, in order."""
    events = list(history)
    gone = {number for ev in events if isinstance(ev, Corrected) for number, _ in ev.voided}
    return [ev for ev in events if isinstance(ev, Claimed) and ev.entry not in gone]


def conflicting(claims: Sequence[Claimed]) -> set[int]:
    """The entries of the claims that conflict: in each round, the latest President's and
    the latest Chancellor's claim of its session, when both cannot be true."""
    latest: dict[tuple[int, str], Claimed] = {}
    for claim in claims:
        if claim.about in ("president", "chancellor"):
            latest[(claim.round, claim.about)] = claim
    out: set[int] = set()
    for (round_, about), president in latest.items():
        chancellor = latest.get((round_, "chancellor"))
        if about == "president" and chancellor and conflict(president, chancellor):
            out |= {president.entry, chancellor.entry}
    return out


def truth(table: Table) -> Truth | None:
    """Whether each claim in effect matches what was dealt, once the game is over; None
    while it is on (R-THREAD: the thread sees only what was said)."""
    if table.game.phase != OVER:
        return None
    return dealt(table)


def dealt(table: Table) -> Truth:
    """Whether each claim in effect matches what was dealt: a secret, read only for what
    a finished game reveals (:func:`truth`, the replay of a finished game)."""
    return {number: fact.true for number, fact in table.claims.items()}


def _letters(t: Language, cards: Sequence[Policy]) -> str:
    return glossary.letters(t, cards)  # in the order claimed: a peek's order is the deck's


def said(t: Language, claim: Claimed) -> str:
    """What the claim says, short (a table's cell): ``drew FFL, passed FL``."""
    match claim.about:
        case "president" if claim.passed:
            # TRANSLATORS: a President's claim, short; {drawn} and {passed} are policies'
            # letters (FFL, FL).
            return t._p("claim", "drew {drawn}, passed {passed}",
                        drawn=_letters(t, claim.cards), passed=_letters(t, claim.passed))
        case "president":
            return t._p("claim", "drew {drawn}", drawn=_letters(t, claim.cards))
        case "chancellor":
            return t._p("claim", "received {cards}", cards=_letters(t, claim.cards))
        case "investigation":
            assert claim.party is not None
            # TRANSLATORS: an investigation's claimed result, short: a player's name and a
            # party.
            return t._p("claim", "investigated {target}: {party}", target=claim.target,
                        party=glossary.party(t, claim.party))
        case "peek":
            return t._p("claim", "peeked at {cards}", cards=_letters(t, claim.cards))
    assert claim.role is not None
    # TRANSLATORS: a player's claim of their own role, short ({role}: Liberal, Fascist,
    # Hitler).
    return t._p("claim", "role: {role}", role=glossary.role(t, claim.role))


def _office(t: Language, claim: Claimed) -> str:
    return glossary.office_in(t, "chancellor" if claim.about == "chancellor" else "president")


def sentence(claim: Claimed, fmt: Plain) -> str:
    """The claim as a sentence of a post or the replay, in ``fmt``'s markup."""
    t = fmt.lang
    what = fmt.escape(said(t, claim))
    if claim.role is not None:
        # TRANSLATORS: a player's claim of their own role, recorded in the thread ({role}:
        # Liberal, Fascist, Hitler).
        return t._("Role claim by {name}: {role}.", name=fmt.bold(fmt.escape(claim.name)),
                   role=glossary.role(t, claim.role))
    # TRANSLATORS: a claim recorded in the thread; {office} is President or Chancellor,
    # {said} what it says (e.g. "drew FFL, passed FL").
    return t._("Claim by {name} ({office}, round {round}): {said}.",
               name=fmt.bold(fmt.escape(claim.name)), office=_office(t, claim),
               round=claim.round, said=what)


def check(t: Language, claim: Claimed, conflicts: set[int], truth: Truth | None) -> str:
    """What a claim is marked with: ``conflict`` (public), and once the game is over
    ``true`` or ``false``."""
    marks = []
    if truth is not None and claim.entry in truth:
        marks.append(t._p("claim check", "true") if truth[claim.entry]
                     else t._p("claim check", "false"))
    if claim.entry in conflicts:
        # TRANSLATORS: the President's and the Chancellor's claims of one session cannot
        # both be true.
        marks.append(t._p("claim check", "conflict"))
    return "; ".join(marks)


def table_text(history: Iterable[Public], fmt: Plain, truth: Truth | None = None, *,
               bbcode_table: bool = False) -> str:
    """Every claim in effect as a grid (as :func:`shmod.texts.history.history_text` draws
    its own with ``grid``), marked true or false once the game is over; "" when nobody
    claimed."""
    claims = in_effect(history)
    if not claims:
        return ""
    t = fmt.lang
    conflicts = conflicting(claims)
    header = [t._p("claims column", "Round"), t._p("claims column", "Player"),
              t._p("claims column", "Claim"), t._p("claims column", "Check")]
    rows = [[str(c.round) if c.round else "—",
             c.name if c.about == "role" else
             t._("{name} ({office})", name=c.name, office=_office(t, c)),
             said(t, c), check(t, c, conflicts, truth)] for c in claims]
    if bbcode_table and isinstance(fmt, BBCode) and fmt.name == "bbcode":
        grid = fmt.tag_table(header, rows)
    else:
        grid = fmt.table(header, rows)
    return fmt.blocks([_title(fmt, len(rows), truth), grid])


def lines_text(history: Iterable[Public], fmt: Plain, truth: Truth | None = None, *,
               over: bool = False) -> str:
    """Every claim in effect, a line each as the replay page lists them (``R3 · Ann
    (President): drew FFL · conflict``), marked true or false once the game is over: what
    reads on a phone and at 80 columns; "" when nobody claimed. ``over`` without
    ``truth``: the game is over, but whether each claim was true is told elsewhere (the
    reveal) or not at all."""
    events = list(history)
    claims = in_effect(events)
    if not claims:
        return ""
    names = [c.name for c in claims] + [c.target for c in claims if c.target]
    lines = [fmt.fold(fmt.escape(line), names)
             for line in page_lines(events, fmt.lang, truth)]
    return fmt.blocks([_title(fmt, len(lines), truth, over), fmt.bullets(lines)])


def _title(fmt: Plain, count: int, truth: Truth | None, over: bool = False) -> str:
    t = fmt.lang
    name = fmt.bold(t._("Claims"))  # a message of its own: not inside another's call
    if truth is None and over:
        # TRANSLATORS: the title of the claims once the game is over, without whether each
        # was true (the reveal says it); {claims} is "Claims" in bold.
        return t._n("{claims} ({n} claim: what was said)",
                    "{claims} ({n} claims: what was said)", count, claims=name)
    if truth is None:
        # TRANSLATORS: the title of the claims' table during the game; {claims} is
        # "Claims" in bold.
        return t._n("{claims} ({n} claim: what was said; true or false once the game is "
                    "over)", "{claims} ({n} claims: what was said; true or false once the "
                    "game is over)", count, claims=name)
    # TRANSLATORS: the title of the claims' table once the game is over.
    return t._n("{claims} ({n} claim, against what was dealt)",
                "{claims} ({n} claims, against what was dealt)", count, claims=name)


def reveal_lines(history: Iterable[Public], truth: Truth, fmt: Plain) -> list[str]:
    """Each claim in effect as the reveal lists it: what was said, true or false, and a
    conflict."""
    claims = in_effect(history)
    conflicts = conflicting(claims)
    return [marked(fmt.lang, sentence(c, fmt), fmt.bold(check(fmt.lang, c, conflicts, truth)))
            for c in claims]


def marked(t: Language, claim: str, marks: str) -> str:
    """A claim's sentence followed by its marks (:func:`check`, in bold)."""
    # TRANSLATORS: a claim's sentence, then what it is marked with ("conflict"; "true" or
    # "false"), in bold: a language whose sentence cannot go on in lower case after a full
    # stop may put the marks in brackets.
    return t._p("claim marked", "{claim} {marks}", claim=claim, marks=marks)


def page_lines(history: Iterable[Public], t: Language, truth: Truth | None = None) -> list[str]:
    """Each claim in effect as a line of the replay page: ``R3 · Ann (President): drew
    FFL · conflict``; with ``truth``, marked true or false."""
    claims = in_effect(history)
    conflicts = conflicting(claims)
    out = []
    for c in claims:
        marks = check(t, c, conflicts, truth)
        line = (t._("{name}: {said}", name=c.name, said=said(t, c)) if c.about == "role" else
                # TRANSLATORS: a claim on the replay page: R and the round's number, who
                # claimed (with their office), and what.
                t._("R{round} · {name} ({office}): {said}", round=c.round, name=c.name,
                    office=_office(t, c), said=said(t, c)))
        out.append(f"{line} · {marks}" if marks else line)
    return out


def hidden_line(claim: Claimed, true: bool, t: Language) -> str:
    """A finished game's replay, at the step of a claim: whether it was true."""
    return (t._("{name}'s claim was true.", name=claim.name) if true else
            t._("{name}'s claim was false.", name=claim.name))
