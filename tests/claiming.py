"""Random claims for the tests (R-CLAIM): what the players of a random game could say in
the thread now, true or not, drawn from the sessions and powers the public record shows."""
from __future__ import annotations

import random

from shmod.forum import claims
from shmod.forum.steps import Claim
from shmod.forum.table import Table
from shmod.game.terms import FASCIST, LIBERAL, ROLES, Policy


def _cards(rng: random.Random, count: int, dealt: tuple[Policy, ...]) -> tuple[Policy, ...]:
    """``dealt`` (shuffled) half the time, else any ``count`` policies."""
    if dealt and rng.random() < 0.5:
        return tuple(rng.sample(list(dealt), len(dealt)))
    return tuple(rng.choice([LIBERAL, FASCIST]) for _ in range(count))


def random_claim(state: Table, rng: random.Random) -> Claim | None:
    """A claim a living player could make now, about one of the last sessions or powers
    or their role; None when nobody can claim anything. Half of them are true."""
    sessions, powers = claims.record(state)
    alive = state.game.alive
    options: list[Claim] = []
    for s in sessions[-2:]:
        if alive[s.president]:
            drawn = _cards(rng, 3, s.drawn)
            passed: tuple[Policy, ...] = ()
            if s.passed_at is not None and rng.random() < 0.5:
                passed = tuple(rng.sample(list(drawn), 2))
            options.append(Claim(s.president, "president", s.round, drawn, passed))
        if s.passed_at is not None and alive[s.chancellor]:
            options.append(Claim(s.chancellor, "chancellor", s.round, _cards(rng, 2, s.passed)))
    for p in powers[-2:]:
        if not alive[p.president]:
            continue
        if p.target is not None:
            party = p.party if p.party and rng.random() < 0.5 else rng.choice(["Liberal", "Fascist"])
            options.append(Claim(p.president, "investigation", p.round, target=p.target,
                                 party=party))  # type: ignore[arg-type]
        else:
            options.append(Claim(p.president, "peek", p.round, _cards(rng, 3, p.cards)))
    if state.game.roles and state.game.living:
        seat = rng.choice(state.game.living)
        role = state.game.roles[seat] if rng.random() < 0.5 else rng.choice(ROLES)
        options.append(Claim(seat, "role", role=role))
    return rng.choice(options) if options else None
