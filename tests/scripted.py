"""Scripted games for the tests: explicit roles and deck order (no seed), driven by name.

``table(5, hitler="Eve", fascists=["Dan"], deck="LFF")`` builds an unseeded header whose
deck starts with the given cards (the rest of the 6 Liberal + 11 Fascist policies follow,
Fascists first), and a :class:`Table` that applies steps by player name: on the game floor
alone (:mod:`shmod.game`, its state and engine; this module imports nothing else, so the
game's rule tests run with the forum unimportable, tests/test_game_alone.py), or with
``forum_table(...)`` at a forum's table (:mod:`shmod.forum`: the header parsed, the state a
:class:`~shmod.forum.table.Table` with the game inside, the forum's engine).
"""
from __future__ import annotations

import copy
import random
import re
from contextlib import AbstractContextManager
from typing import Any

import pytest

from shmod.base.errors import IllegalStep
from shmod.base.records import values
from shmod.game import engine, legal
from shmod.game.house import rules_for
from shmod.game.rules import parse_policy, parse_variants
from shmod.game.setup import from_seed, start
from shmod.game.state import State
from shmod.game.steps import (
    POWER_STEPS,
    Discard,
    Enact,
    Nominate,
    Peek,
    Reshuffle,
    Step,
    Veto,
    Vote,
)
from shmod.game.terms import (
    DISCARD,
    ENACT,
    EXECUTE,
    FASCIST,
    INVESTIGATE,
    LIBERAL,
    NOMINATE,
    OVER,
    POWER,
    RESHUFFLE,
    SPECIAL,
)

#: The time the tests record steps and create games at: below the CLI nothing reads the
#: clock, so every call names its time (the CLI passes its own, SHMOD_NOW honoured).
AT = "2026-01-01T00:00:00Z"
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
FASCISTS_BY_COUNT = {5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}


def full_deck(top: str = "") -> list[str]:
    """``top`` (e.g. ``"LFF"``), then the rest of the 17 policies, Fascists first."""
    cards = [parse_policy(c) for c in top]
    liberal, fascist = 6 - cards.count(LIBERAL), 11 - cards.count(FASCIST)
    assert liberal >= 0 and fascist >= 0, f"deck prefix {top!r} has too many policies"
    return cards + [FASCIST] * fascist + [LIBERAL] * liberal


#: RFC 8032's first Ed25519 test key pair (private, public): the moderator's key pair of
#: every hand-made header here (R-CHECKPOINT); a real game draws its own at `shmod new`.
KEYS = ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")


def header(players: int = 5, *, hitler: str | None = None, fascists: list[str] | None = None,
           deck: str = "", first: str | None = None,
           variants: dict[str, str] | None = None) -> dict[str, Any]:
    """An unseeded header. By default Hitler sits last and the Fascists just before."""
    names = list(NAMES[:players])
    count = FASCISTS_BY_COUNT[players]
    hitler = hitler or names[-1]
    if fascists is None:
        fascists = [n for n in names if n != hitler][-count:]
    roles = {n: "hitler" if n == hitler else "fascist" if n in fascists else "liberal"
             for n in names}
    return {
        "shmod": 2,
        "created": "2026-01-01T00:00:00Z",
        "players": names,
        "variants": dict(variants or {}),
        "first_president": first or names[0],
        "moderator_key": KEYS[1],
        # a fixed salt of 128 bits (R-COMMIT) and key pair: a real game draws fresh ones
        "secret": {"salt": "5ca1ab1e9d07f3c24e8b61a0d5f2c973", "roles": roles, "deck": full_deck(deck),
                   "signing_key": KEYS[0]},
    }


def game_of(head: dict[str, Any]) -> State:
    """The game floor's state for a header: the players, the game's variants, the roles
    and the deck it gives, its first President and seed."""
    names = tuple(head["players"])
    rules = rules_for(len(names), parse_variants(head.get("variants")), head.get("custom"))
    secret = head["secret"]
    return start(names, rules, roles=tuple(secret["roles"][n] for n in names),
                 deck=tuple(parse_policy(c) for c in secret["deck"]),
                 first=names.index(head["first_president"]), seed=secret.get("seed"))


class Table:
    """A game plus helpers that apply steps named by player: ``state`` is the game floor's
    (``forum=False``) or a forum's table, with the game inside (``forum=True``)."""

    def __init__(self, head: dict[str, Any], *, forum: bool = False) -> None:
        self.header = head
        self.forum = forum
        self.steps: list[Step] = []
        self.names = tuple(head["players"])
        self.state: Any
        if forum:
            from shmod.forum import engine as forum_engine
            from shmod.forum.names import Seating
            from shmod.forum.setup import parse_setup, start as forum_start

            self.setup = parse_setup(head)
            self.state = forum_start(self.setup)
            self.seating = Seating(self.setup.players)
            self._apply = forum_engine.apply
        else:
            self.state = game_of(head)
            self._apply = engine.apply

    @property
    def game(self) -> State:
        """The game: the state itself, or the one on the forum's table."""
        return self.state.game if self.forum else self.state

    # -- lookups --
    def seat(self, name: str) -> int:
        return self.seating.seat(name) if self.forum else self.names.index(name)

    def name(self, seat: int | None) -> str:
        return self.game.name(seat)

    @property
    def president(self) -> str:
        return self.name(self.game.president)

    @property
    def chancellor(self) -> str:
        return self.name(self.game.chancellor)

    # -- single steps --
    def apply(self, step: Step) -> None:
        self._apply(self.state, step)
        self.steps.append(step)

    def nominate(self, chancellor: str, by: str | None = None) -> None:
        self.apply(Nominate(by=self.seat(by or self.president), chancellor=self.seat(chancellor)))

    def vote(self, player: str, ja: bool) -> None:
        self.apply(Vote(by=self.seat(player), vote=ja))

    def discard(self, policy: str, by: str | None = None) -> None:
        self.apply(Discard(by=self.seat(by or self.president), policy=parse_policy(policy)))

    def enact(self, policy: str, by: str | None = None) -> None:
        self.apply(Enact(by=self.seat(by or self.chancellor), policy=parse_policy(policy)))

    def veto(self, answer: str, by: str | None = None) -> None:
        default = self.chancellor if answer == "propose" else self.president
        self.apply(Veto(by=self.seat(by or default), answer=answer))

    def power(self, kind: str, target: str | None = None, by: str | None = None) -> None:
        president = self.seat(by or self.president)
        self.apply(Peek(president) if target is None else POWER_STEPS[kind](president, self.seat(target)))

    def reshuffle(self, deck: str | None = None) -> None:
        """Record a reshuffle: ``deck`` top first, or the pile sorted (Fascists first)."""
        pile = self.game.draw + self.game.discard
        cards = tuple(parse_policy(c) for c in deck) if deck else tuple(sorted(pile))
        self.apply(Reshuffle(deck=cards))

    # -- whole phases --
    def elect(self, chancellor: str, ja: bool | dict[str, bool] = True) -> None:
        """The current candidate nominates ``chancellor``; every living player votes."""
        self.nominate(chancellor)
        for seat in list(self.game.living):
            name = self.name(seat)
            self.vote(name, ja[name] if isinstance(ja, dict) else ja)

    def fail(self, chancellor: str) -> None:
        self.elect(chancellor, ja=False)

    def session(self, chancellor: str, discard: str, enact: str) -> None:
        """An elected government: nominate, all Ja, discard, enact; reshuffle if due."""
        self.elect(chancellor)
        self.discard(discard)
        self.enact(enact)
        if self.game.phase == RESHUFFLE:
            self.reshuffle()


def table(players: int = 5, **kwargs: Any) -> Table:
    """A scripted game on the game floor alone."""
    return Table(header(players, **kwargs))


def forum_table(players: int = 5, **kwargs: Any) -> Table:
    """A scripted game at a forum's table."""
    return Table(header(players, **kwargs), forum=True)


def refused(cls: type[IllegalStep], rule: str, match: str = "") -> AbstractContextManager[Any]:
    """``pytest.raises`` for an IllegalStep subclass whose message starts with ``rule: ``."""
    return pytest.raises(cls, match=rf"^{re.escape(rule)}: .*{match}")


def snapshot(state: Any) -> dict[str, Any]:
    """Every field of the state, copied, to check that a refused step changed nothing."""
    return copy.deepcopy(values(state))


def refuse(t: Table, cls: type[IllegalStep], rule: str, action: Any, *args: Any,
           match: str = "", **kwargs: Any) -> IllegalStep:
    """Call ``action``; it must raise ``cls`` citing ``rule`` and leave the state unchanged."""
    before, steps = snapshot(t.state), list(t.steps)
    with refused(cls, rule, match) as caught:
        action(*args, **kwargs)
    assert snapshot(t.state) == before, "a refused step changed the state"
    assert t.steps == steps
    return caught.value


def chaos(t: Table) -> None:
    """Three failed elections in a row (R-FAIL, R-CHAOS), each nominating the next seat
    that is eligible."""
    for _ in range(3):
        t.fail(eligible(t)[0])


def eligible(t: Table) -> list[str]:
    """Who the current candidate may nominate (R-NOMINATE, R-TERM), in seating order."""
    return [t.name(x) for x in legal.nominees(t.game)]


WAYS = {
    "five-liberal": ("Liberals", "R-WIN-LIB"),
    "hitler-executed": ("Liberals", "R-WIN-LIB"),
    "six-fascist": ("Fascists", "R-WIN-FAS"),
    "hitler-elected": ("Fascists", "R-HITLER-ELECTED"),
}


def play(players: int, way: str, *, forum: bool = False) -> tuple[Table, list[str | None]]:
    """Play to the end: the Liberals' way enacts Liberal policies from a deck holding one
    per hand; the other ways enact Fascist ones, use every power and aim it as ``way`` needs
    (``forum``: at a forum's table)."""
    want = "L" if way == "five-liberal" else "F"
    other = "F" if want == "L" else "L"
    t = Table(header(players, deck="LFF" * 5 if want == "L" else "FFL" * 5), forum=forum)
    s = t.game
    hitler = t.name(s.hitler)
    fascists = {t.name(x) for x, r in enumerate(s.roles) if r == "fascist"}
    powers_used: list[str | None] = []
    while s.phase != OVER:
        assert len(t.steps) < 400, "the scripted game does not end"
        if s.phase == NOMINATE:
            options = eligible(t)
            assert len(s.draw) >= 3 and s.tracker < 3
            if way == "hitler-elected" and s.fascist >= 3 and hitler in options:
                t.elect(hitler)
            else:
                t.elect(next(n for n in options if n != hitler))
        elif s.phase == DISCARD:
            t.discard(other if other in s.hand else want)
        elif s.phase == ENACT:
            t.enact(want if want in s.hand else other)
        elif s.phase == RESHUFFLE:
            t.reshuffle()
        elif s.phase == POWER:
            powers_used.append(s.power)
            others = [t.name(x) for x in legal.power_targets(s, s.power or "")]
            if s.power == "peek":
                t.power("peek")
            elif s.power == INVESTIGATE:
                t.power(INVESTIGATE, others[0])
            elif s.power == SPECIAL:
                t.power(SPECIAL, [n for n in others if n != hitler][-1])
            elif s.power == EXECUTE:
                if way == "hitler-executed":
                    t.power(EXECUTE, hitler)
                else:
                    t.power(EXECUTE, next(n for n in others if n != hitler and n not in fascists))
        else:
            raise AssertionError(f"unexpected phase {s.phase}")
    return t, powers_used


def seeded(players: int, seed: str, variants: dict[str, str] | None = None) -> State:
    """A seeded game on the game floor: roles, deck and first President from ``seed``."""
    names = NAMES[:players]
    rules = rules_for(players, parse_variants(variants or {}))
    roles, deck, first = from_seed(names, rules, seed, None)
    return start(names, rules, roles=roles, deck=deck, first=first, seed=seed)


def random_play(state: State, rng: random.Random, *, until: tuple[str, ...] = (OVER,),
                budget: int = 2000) -> list[Step]:
    """Legal steps drawn at random (:func:`shmod.game.legal.legal_steps`) and applied by
    the game floor's engine until the game reaches a phase in ``until`` (or is over)."""
    steps: list[Step] = []
    while state.phase not in until and state.phase != OVER and len(steps) < budget:
        step = rng.choice(legal.legal_steps(state))
        engine.apply(state, step)
        steps.append(step)
    return steps
