"""The game's terms in the game's language: policies, parties, roles, teams, powers, offices
and the ballots (docs/languages.md lists each language's; contexts start with ``term:``).

A term standing alone (a label, a column, a list) comes from here; a sentence that names
one says it in its own words, which each catalog keeps consistent with these. The ballots
are **Ja!** and **Nein!** in every language: they are the game's own words.
"""
from __future__ import annotations

from shmod.game.terms import EXECUTE, FASCIST, INVESTIGATE, LIBERAL, PEEK, SPECIAL, Power
from shmod.texts.catalog import Language, Np_, Term

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
#: The ballots: the game's own words, the same in every language (so in no catalog).
BALLOT: dict[bool, str] = {True: "Ja", False: "Nein"}


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


def ballot(vote: bool) -> str:
    return BALLOT[vote]
