"""Issue 36: claims are public in what players said, secret in whether it was true
(R-THREAD, R-CLAIM). The twin games of tests/test_noninterference.py (the same public
decisions over other roles, deck orders and discards) with the same claims inserted at
the same places: while the game is on, ``shmod history``, ``shmod replay --post`` and the
replay page are byte-identical for the two, though the claims' truths differ; once the
game is over the claims are marked, and the twins' marks, histories and pages differ,
which shows the comparison would notice a mark leaking before the end. Every claim made
in one game is accepted in its twin: whether a claim is accepted follows from public
facts only.
"""
from __future__ import annotations

import random
from pathlib import Path

from claiming import random_claim
from test_noninterference import make_pair
from test_replay import cut, twin_header, write

from shmod.audit.random_games import random_game
from shmod.forum import engine
from shmod.forum.setup import parse_setup, start
from shmod.forum.steps import Claim
from shmod.game.steps import Step
from shmod.game.terms import RESHUFFLE
from shmod.log import store
from shmod.texts import claim_texts

CASES = [(11, 7, []), (12, 9, ["veto=secret-vote"]), (13, 10, ["tracker_reset=election"])]


def with_claims(header: dict[str, object], steps: list[Step], twin_steps: list[Step],
                rng: random.Random) -> tuple[list[Step], list[Step]]:
    """Both plans with the same claims inserted after the same steps (drawn from the
    first game; about half of them true there)."""
    state = start(parse_setup(header))
    ours: list[Step] = []
    theirs: list[Step] = []
    for mine, twin in zip(steps, twin_steps):
        engine.apply(state, mine)
        ours.append(mine)
        theirs.append(twin)
        if state.game.phase == RESHUFFLE or rng.random() > 0.35:
            continue
        said = random_claim(state, rng)
        if said is not None:
            engine.apply(state, said)
            ours.append(said)
            theirs.append(said)
    return ours, theirs


def shown(run, log: str) -> tuple[str, str, bytes]:  # type: ignore[no-untyped-def]
    """What the thread may be shown of the game: the history, the game in one post, the
    page."""
    code, history, err = run("history", "-g", log, "-f", "markdown")
    assert code == 0, err
    code, post, err = run("replay", log, "--post", "-f", "bbcode")
    assert code == 0, err
    page = Path(log).with_suffix(".html")
    code, _, err = run("replay", log, "-o", str(page))
    assert code == 0, err
    return history, post, page.read_bytes()


def test_the_same_claims_over_other_secrets_show_the_same_until_the_end(run, tmp_path):
    checked = differing = 0
    for seed, players, variants in CASES:
        _setup, steps, twin, twin_steps = make_pair(seed, players, variants)
        sim = random_game(players, random.Random(seed), variants=variants)
        assert sim.steps == steps
        header = twin_header(sim.header, twin)
        ours, theirs = with_claims(sim.header, steps, twin_steps, random.Random(seed))
        assert sum(isinstance(s, Claim) for s in ours) > 10
        for share in (0.4, 0.8):
            count = cut(ours, share)
            made = [shown(run, write(tmp_path / name / f"{seed}-{share}" / "game.yaml", head,
                                     moves[:count]))
                    for name, head, moves in (("a", sim.header, ours), ("b", header, theirs))]
            assert "Claims" in made[0][0] and "Claim by" in made[0][2].decode()
            assert made[0] == made[1], (seed, share)
            checked += 1
        logs = [write(tmp_path / n / f"{seed}" / "game.yaml", h, m)
                for n, h, m in (("a", sim.header, ours), ("b", header, theirs))]
        truths = [claim_texts.truth(store.load(log).table) for log in logs]
        assert truths[0] is not None and truths[1] is not None
        assert truths[0].keys() == truths[1].keys()
        if truths[0] != truths[1]:  # the twins' claims were not all true alike: it shows
            differing += 1
            ends = [shown(run, log) for log in logs]
            assert ends[0][0] != ends[1][0] and ends[0][1] != ends[1][1]
            assert ends[0][2] != ends[1][2]
    assert checked == 2 * len(CASES) and differing == len(CASES)
