"""How a game starts: the roles dealt from a seed (R-ROLES), the deck (R-DECK), the first
President (R-FIRST), whom each role knows (R-KNOW) and the state before the first step.

The roles and the deck are given (a header's, read by a forum's setup,
:mod:`shmod.forum.setup`) or follow from a seed (:func:`from_seed`); a game may also start
with neither and be dealt later (:func:`shmod.game.hooks.deal`).
"""
from __future__ import annotations

from shmod.game import shuffle
from shmod.game.events import RoleSent
from shmod.game.rules import Rules
from shmod.game.state import State
from shmod.game.terms import DEAL, Policy, Role


def deal(players: list[str], seed: str, rules: Rules) -> tuple[Role, ...]:
    """R-ROLES dealt from the seed: the role list (Liberals, Fascists, Hitler) shuffled."""
    pack: list[Role] = ["liberal"] * rules.liberals
    pack += ["fascist"] * rules.fascists
    pack.append("hitler")
    return tuple(shuffle.shuffled(pack, seed, "roles"))


def from_seed(players: tuple[str, ...], rules: Rules, seed: str, first: int | None
              ) -> tuple[tuple[Role, ...], tuple[Policy, ...], int]:
    """The roles, the deck and the first President a seed deals for ``players`` (R-ROLES,
    R-DECK, R-FIRST; the first President as chosen, if one was): by seat."""
    roles = deal(list(players), seed, rules)
    deck = shuffle.policy_pile(rules.deck_liberal, rules.deck_fascist, seed, "deck")
    chosen = first if first is not None else shuffle.pick(len(players), seed, "first-president")
    return roles, tuple(deck), chosen


def start(players: tuple[str, ...], rules: Rules, *, roles: tuple[Role, ...],
          deck: tuple[Policy, ...], first: int | None, seed: str | None) -> State:
    """The state before the first step: roles dealt and told, the deck, the first
    President. A game with no roles yet waits in phase ``deal`` for
    :func:`shmod.game.hooks.deal`."""
    president = 0 if first is None else first
    state = State(
        rules=rules,
        players=players,
        roles=roles,
        seed=seed,
        first=first,
        alive=[True] * len(players),
        president=president,
        anchor=president,
        draw=list(deck),
        liberal=rules.liberal_start,
        fascist=rules.fascist_start,
    )
    if roles:
        tell_roles(state, 0)
    else:
        state.phase = DEAL
    return state


def tell_roles(state: State, entry: int) -> None:
    """Every player's role and whom they know (R-KNOW), sent at ``entry``."""
    for seat, name in enumerate(state.players):
        state.secrets.append(RoleSent(entry, name, role=state.roles[seat], knows=tuple(
            knows(state.players, state.roles, state.rules, seat).items())))


def knows(players: tuple[str, ...], roles: tuple[Role, ...], rules: Rules,
          seat: int) -> dict[str, Role]:
    """R-KNOW: whom the player in ``seat`` knows, name -> role."""
    role = roles[seat]
    if role == "liberal" or (role == "hitler" and not rules.hitler_knows_fascists):
        return {}
    return {
        name: other
        for s, (name, other) in enumerate(zip(players, roles))
        if s != seat and other != "liberal"
    }
