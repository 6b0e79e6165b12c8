"""shmod.game.legal agrees with the engine: over many random seeded games (every player
count, mixed variants, decks dealt from the players' words, unseeded reshuffles) every
step ``legal_steps`` offers is accepted by ``engine.apply``, and a sample of the other
well-formed steps (any seat, any target, any policy or answer) is refused with a rule id
and leaves the state as it was."""
import copy
import os
import random

from shmod.base.errors import IllegalStep
from shmod.base.records import values
from shmod.forum import engine
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Word
from shmod.forum.table import Table
from shmod.forum.turns import legal_steps
from shmod.game import legal
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
from shmod.game.terms import FASCIST, LIBERAL, OVER, VARIANTS, VETO_ANSWERS

GAMES = int(os.environ.get("SHMOD_LEGAL_GAMES", "48"))
AT = "2026-01-01T00:00:00Z"
TARGETED = ("nominate", "investigate", "special_election", "execute")


def fork(state: Table) -> Table:
    """A copy the engine may change without touching ``state`` (each container copied,
    the game's too; the fields hold nothing else mutable)."""
    def copied(record):
        return {k: v.copy() if isinstance(v, (list, dict, set)) else v
                for k, v in values(record).items()}
    return Table(**{**copied(state), "game": State(**copied(state.game))})


def random_step(state: State, rng: random.Random) -> Step:
    """A well-formed game step of any kind, by any seat, with any target, policy or answer:
    legal or not."""
    seats = range(len(state.game.players))
    kind = rng.choice(["word", *TARGETED, "vote", "discard", "enact", "veto", "peek",
                       "reshuffle"])
    by = rng.choice(seats)
    if kind == "word":
        return Word(by, "word")
    if kind == "nominate":
        return Nominate(by, rng.choice(seats))
    if kind in TARGETED:
        return POWER_STEPS[kind](by, rng.choice(seats))
    if kind == "vote":
        return Vote(by, rng.random() < 0.5)
    if kind in ("discard", "enact"):
        return (Discard if kind == "discard" else Enact)(by, rng.choice((LIBERAL, FASCIST)))
    if kind == "veto":
        return Veto(by, rng.choice(VETO_ANSWERS))
    if kind == "peek":
        return Peek(by)
    pile = legal.reshuffle_pile(state.game)
    if state.game.seed is not None and rng.random() < 0.5:  # the pile, maybe not in the seed's order
        return Reshuffle(tuple(sorted(pile)))
    return Reshuffle((LIBERAL if pile[:1] == [FASCIST] else FASCIST, *pile[1:]))


def header(number: int, rng: random.Random) -> dict[str, object]:
    players = 5 + number % 6
    variants = [f"{key}={rng.choice(values)}" for key, values in VARIANTS.items()
                if key != "rebalanced"]  # the game's switches (a lapse is not a player's step)
    made = new_header([f"P{n}" for n in range(1, players + 1)], seed=f"{number:032x}",
                      salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=AT, variants=variants,
                      deal_by="players" if number % 7 == 3 else "moderator")
    if number % 5 == 2 and number % 7 != 3:  # unseeded: the moderator records reshuffles
        made = copy.deepcopy(made)
        del made["secret"]["seed"]  # type: ignore[index]
        made.pop("commitment")
    return made


def test_legal_steps_are_accepted_and_the_others_refused() -> None:
    rng = random.Random(21)
    offered = refused = 0
    kinds: set[str] = set()
    for number in range(GAMES):
        state = start(parse_setup(header(number, rng)))
        while state.game.phase != OVER:
            options = legal_steps(state)
            assert options and len(set(options)) == len(options), state.game.phase
            assert options == legal_steps(state)
            for step in options:
                engine.apply(fork(state), step)  # raises if the engine refuses it
                kinds.add(step.kind)
            offered += len(options)
            offer = set(options)
            others = [s for s in (random_step(state, rng) for _ in range(12)) if s not in offer]
            for step in others:
                before = fork(state)
                try:
                    engine.apply(state, step)
                except IllegalStep as err:
                    assert str(err).startswith(err.rule + ": ") and err.rule.startswith("R-")
                else:
                    raise AssertionError(f"{step} was accepted but legal_steps omits it")
                assert values(state) == values(before) and values(state.game) == values(before.game), f"{step} was refused but changed the state"
                refused += 1
            engine.apply(state, rng.choice(options))
        assert legal_steps(state) == []
    assert kinds >= {"word", "nominate", "vote", "discard", "enact", "veto", "investigate",
                     "special_election", "peek", "execute", "reshuffle"}
    assert offered > 20 * GAMES and refused > 200 * GAMES
