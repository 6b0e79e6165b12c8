"""Shared by the phase tests (not a test file): a header and a prefix of steps for every
phase (and power) random games reach, with a fixed seed: the deal from the players' words,
each phase of a round, each power, both vetoes, a reshuffle the moderator must record, a
finished game."""
from __future__ import annotations

import copy
import random
from typing import Any

from shmod.forum import engine
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Word
from shmod.forum.table import Table as State
from shmod.forum.turns import legal_steps
from shmod.game.steps import Step
from shmod.game.terms import OVER, POWER, RESHUFFLE
from shmod.log.signing import new_key

#: The moderator's key pair of every snapshot's game (R-CHECKPOINT: posts are signed).
KEYS = new_key()

AT = "2026-01-01T00:00:00Z"

Snapshots = dict[str, tuple[dict[str, Any], list[Step]]]


def snapshots(games: int, seed: int, *, words: bool = True) -> Snapshots:
    """A header and a prefix of steps for every phase (and power) ``games`` random games
    reach, keyed by phase (``power:peek``, ``reshuffle:unseeded``, ``vote:veto=secret-vote``);
    without ``words``, no game is dealt from the players' words."""
    rng = random.Random(seed)
    found: Snapshots = {}
    for number in range(games):
        players = 5 + number % 6
        variants = ["veto=secret-vote"] if number % 3 == 1 else []
        deal_by = "players" if number % 5 == 0 and words else "moderator"
        header = new_header([f"P{n}" for n in range(1, players + 1)], seed=f"{number:032x}",
                            salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=AT, variants=variants,
                            deal_by=deal_by, keys=KEYS)
        unseeded = number % 4 == 2 and deal_by == "moderator"
        if unseeded:  # the moderator records every reshuffle
            header = copy.deepcopy(header)
            del header["secret"]["seed"]
            header.pop("commitment")
        state = start(parse_setup(header))
        steps: list[Step] = []
        while state.game.phase != OVER and len(steps) < 600:
            key = _key(state, variants, unseeded)
            found.setdefault(key, (header, list(steps)))
            options = legal_steps(state)
            if state.game.phase == "deal":
                options = [Word(by=s, word=f"w{rng.randint(0, 9)}")
                           for s in range(players) if s not in state.words]
            step = rng.choice(options)
            engine.apply(state, step)
            steps.append(step)
        found.setdefault("over", (header, steps))
    return found


def _key(state: State, variants: list[str], unseeded: bool) -> str:
    key = state.game.phase
    if state.game.phase == POWER:
        key += ":" + (state.game.power or "")
    if state.game.phase == RESHUFFLE and unseeded:
        key += ":unseeded"
    if variants:
        key += ":" + variants[0]
    return key


Twin = tuple[dict[str, Any], list[Step], Step]  # a header, the steps so far, the next step


def twins(header: dict[str, Any], steps: list[Step], rng: random.Random) -> tuple[Twin, Twin]:
    """A snapshot and its twin (tests/test_noninterference.py: the same public decisions
    over other roles, another deck order, other discards and secret veto votes), each with
    the next step the game takes there, as a header that deals no seed (both record every
    reshuffle, so one command line plays both but for the secret choices)."""
    from test_noninterference import trace, twin_decks, twin_roles, twin_steps

    state = start(parse_setup(header))
    for step in steps:
        engine.apply(state, step)
    # a finished game: its last step is the one to take (the step that ends it)
    played = [*steps, rng.choice(legal_steps(state))] if state.game.phase != OVER else steps
    setup = parse_setup(header)
    traced, draws = trace(setup, played)
    twin, mirrored = twin_steps(setup, played, draws, twin_decks(draws, rng),
                                twin_roles(setup, traced, rng), rng)
    made = []
    for dealt, moves in ((setup, played), (twin, mirrored)):
        plain = copy.deepcopy(header)
        plain.pop("commitment", None)
        plain["secret"].pop("seed", None)
        plain["secret"]["roles"] = dict(zip(dealt.players, dealt.roles))
        plain["secret"]["deck"] = list(dealt.deck)
        made.append((plain, moves[:-1], moves[-1]))
    return made[0], made[1]
