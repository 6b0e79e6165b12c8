"""The game's terms in the game's language: policies (and their letters), parties, roles, teams,
powers, offices and the ballots (docs/languages.md lists each language's; contexts start
with ``term:``).

A term standing alone (a label, a column, a list) comes from here; a sentence that names
one says it in its own words, which each catalog keeps consistent with these. The ballots
are **Ja!** and **Nein!** in every language: they are the game's own words.
"""
from __future__ import annotations

from collections.abc import Iterable

from shmod.game.terms import EXECUTE, FASCIST, INVESTIGATE, LIBERAL, PEEK, SPECIAL, Policy, Power
from shmod.texts.catalog import N_, Language, Np_, Term

POLICY: dict[str, Term] = {LIBERAL: Np_("term:policy", "Liberal"),
                           FASCIST: Np_("term:policy", "Fascist")}
#: A party, as an investigation tells it (R-INVESTIGATE): keyed as the events carry it.
PARTY: dict[str, Term] = {"Liberal": Np_("term:party", "Liberal"),
                          "Fascist": Np_("term:party", "Fascist")}
ROLE: dict[str, Term] = {"liberal": Np_("term:role", "Liberal"),
                         "fascist": Np_("term:role", "Fascist"),
                         "hitler": Np_("term:role", "Hitler")}
#: A winning team (R-WIN-LIB, R-WIN-FAS): keyed as the events carry it.
TEAM: dict[str, Term] = {"Liberals": Np_("term:team", "Liberals"),
                         "Fascists": Np_("term:team", "Fascists")}
POWER: dict[Power, Term] = {INVESTIGATE: Np_("term:power", "Investigate Loyalty"),
                            SPECIAL: Np_("term:power", "Call Special Election"),
                            PEEK: Np_("term:power", "Policy Peek"),
                            EXECUTE: Np_("term:power", "Execution")}
OFFICE: dict[str, Term] = {"president": Np_("term:office", "President"),
                           "chancellor": Np_("term:office", "Chancellor"),
                           "candidate": Np_("term:office", "Presidential Candidate")}
#: An office inside a sentence or in brackets after a name ("Ann (President, round 2)"):
#: a language that writes a title in small letters there (Polish) says it so.
OFFICE_IN: dict[str, Term] = {"president": Np_("office in a sentence", "President"),
                              "chancellor": Np_("office in a sentence", "Chancellor"),
                              "candidate": Np_("office in a sentence",
                                               "Presidential Candidate")}
#: The ballots: the game's own words, the same in every language (so in no catalog).
BALLOT: dict[bool, str] = {True: "Ja", False: "Nein"}
#: The ballots as fields of a message: ``{Ja}`` and ``{Nein}`` in its text.
BALLOTS: dict[str, str] = {"Ja": BALLOT[True], "Nein": BALLOT[False]}


def policy(lang: Language, card: str) -> str:
    return lang.term(POLICY[card])


def party(lang: Language, name: str) -> str:
    return lang.term(PARTY[name])


def role(lang: Language, name: str) -> str:
    return lang.term(ROLE[name])


def team(lang: Language, name: str) -> str:
    return lang.term(TEAM[name])


def power(lang: Language, name: Power) -> str:
    return lang.term(POWER[name])


def office(lang: Language, name: str) -> str:
    return lang.term(OFFICE[name])


def office_in(lang: Language, name: str) -> str:
    """An office as a sentence or a bracket after a name says it (:data:`OFFICE_IN`)."""
    return lang.term(OFFICE_IN[name])


def won(lang: Language, team: str, msgid: str, **fields: object) -> str:
    """A sentence about the winning ``team`` (``"Liberals"``/``"Fascists"``): one message
    per team (German says "Die Liberalen gewinnen", "Die Faschisten gewinnen": a team's
    article and ending are the sentence's), made from the English ``msgid`` with ``{team}``
    (:data:`WON`)."""
    return lang._(WON[(msgid, team)], **fields)


#: Each sentence about a winning team, one message per team (:func:`won`).
WON: dict[tuple[str, str], str] = {
    ("Game over: the {team} win: {reason}.", "Liberals"):
        N_("Game over: the Liberals win: {reason}."),
    ("Game over: the {team} win: {reason}.", "Fascists"):
        N_("Game over: the Fascists win: {reason}."),
    ("Game over: the {team} win. {reason}.", "Liberals"):
        N_("Game over: the Liberals win. {reason}."),
    ("Game over: the {team} win. {reason}.", "Fascists"):
        N_("Game over: the Fascists win. {reason}."),
    ("The {team} won: {reason}.", "Liberals"): N_("The Liberals won: {reason}."),
    ("The {team} won: {reason}.", "Fascists"): N_("The Fascists won: {reason}."),
}


def ballot(vote: bool) -> str:
    return BALLOT[vote]


#: A policy as one letter, as hands and piles are written ("FFL" for the three drawn);
#: the log and the moderator's commands write L and F whatever the game's language.
LETTER: dict[str, Term] = {LIBERAL: Np_("term:policy letter", "L"),
                           FASCIST: Np_("term:policy letter", "F")}


def letters(lang: Language, cards: Iterable[str]) -> str:
    """``cards`` as their letters, e.g. ``FFL``."""
    return "".join(lang.term(LETTER[card]) for card in cards)


#: The words a moderator types for a vote in the game's language (``shmod vote Ann tak``),
#: beside ``ja``/``nein``/``yes``/``no``, which every game takes.
TYPED_VOTE: dict[bool, Term] = {True: Np_("typed vote", "yes"), False: Np_("typed vote", "no")}


def _folded(text: str) -> str:
    """``text`` as a typed word is compared: no case, no accents."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text.strip().casefold())
                   if not unicodedata.combining(c))


def policy_words(lang: Language) -> dict[str, Policy]:
    """The words for a policy that a command takes in ``lang``, beside the English ones:
    the policy's and the party's word of the glossary, as typed (no case, no accents)."""
    out: dict[str, Policy] = {}
    pairs: tuple[tuple[Policy, str], ...] = ((LIBERAL, "Liberal"), (FASCIST, "Fascist"))
    for card, party_name in pairs:
        for word in (lang.term(POLICY[card]), lang.term(PARTY[party_name])):
            out.setdefault(_folded(word), card)
    return out


def vote_words(lang: Language) -> dict[str, bool]:
    """The words for a vote that a command takes in ``lang``, beside ja/nein/yes/no."""
    return {_folded(lang.term(TYPED_VOTE[vote])): vote for vote in (True, False)}


def typed_policy(lang: Language, text: str) -> Policy | None:
    """The policy (``L`` or ``F``) ``text`` names in ``lang``'s words, or None."""
    return policy_words(lang).get(_folded(text))


def typed_vote(lang: Language, text: str) -> bool | None:
    """The vote ``text`` is in ``lang``'s words, or None."""
    return vote_words(lang).get(_folded(text))


def read_policy(lang: Language, text: str) -> Policy:
    """A policy as a command takes it: English (``liberal``, ``fascist``, ``L``, ``F``, a
    word's start) or ``lang``'s word (``faschistisch``, ``liberalna``); else a refusal
    naming the words to type (for the moderator: in English)."""
    from shmod.base.errors import BadInput
    from shmod.game.rules import parse_policy

    found = typed_policy(lang, text)
    if found is not None:
        return found
    try:
        return parse_policy(text)
    except BadInput as err:
        raise BadInput(f"{err}{_also(policy_words(lang))}") from None


def read_vote(lang: Language, text: str) -> bool:
    """A vote as a command takes it: ja/nein, yes/no, or ``lang``'s words (``tak``,
    ``nie``); else a refusal naming the words to type."""
    from shmod.base.errors import BadInput
    from shmod.log.entries import parse_vote

    found = typed_vote(lang, text)
    if found is not None:
        return found
    try:
        return parse_vote(text)
    except BadInput as err:
        raise BadInput(f"{err}{_also(vote_words(lang))}") from None


def _also(words: Iterable[str]) -> str:
    """The game's own words a refusal adds, when they are not the English ones."""
    listed = list(words)
    if set(listed) <= {"liberal", "fascist", "yes", "no", "ja", "nein"}:
        return ""
    return f"; in this game's language also {', '.join(listed)}"
