"""The ratings' promises (docs/stats.md, "Ratings"), on games whose players' skills are
known: ``shmod simulate``'s random play, where every player is equal, through real logs and
``shmod stats``; and synthetic games made here, where the winner is drawn from skills
planted in the players, rated in-process (the property is the model's).

- Teams of newcomers are even at the base rate: openskill's expected change is zero.
- Equal players end near the start and near one another; the pool does not drift.
- A planted strong player ranks first, whatever side he is dealt.
- A player who wins with the weaker side more than its base rate rises above one who wins
  at the base rate.
- The overall rating lies between a player's two side ratings.
- A game won by removing Hitler before anything was played farms no rating.

The synthetic runs take ``SHMOD_RATING_SEEDS`` seeds (10 by default) of
``SHMOD_RATING_GAMES`` games (500 by default); a longer run asks as much of more seeds
(at least nine in ten) and is an environment variable away, e.g.
``SHMOD_RATING_SEEDS=200 pytest tests/test_stats_ratings.py``.
"""
from __future__ import annotations

import json
import math
import os
import random

import pytest
from scripted import Table
from stats_games import head, write

from shmod.audit.ratings import START, Match, _update, rate
from shmod.forum.steps import Remove

SEEDS = int(os.environ.get("SHMOD_RATING_SEEDS", "10"))
GAMES = int(os.environ.get("SHMOD_RATING_GAMES", "500"))
#: Liberals at each player count (R-COUNT).
LIBERALS = {5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 6}
#: The Liberals' chance of winning between equal teams, by player count: sides as unequal
#: as the real game's, favouring either side.
BASE = {5: 0.40, 6: 0.55, 7: 0.35, 8: 0.50, 9: 0.30, 10: 0.40}


def synthetic(seed: int, games: int, skills: list[float], *, liberal: list[float] | None = None,
              dealt: str | None = None) -> list[Match]:
    """``games`` games of 5 to 10 of the players, roles dealt at random (player 0 always on
    the ``dealt`` side when given); the Liberals win with probability
    1 / (1 + exp(-(logit(BASE[n]) + their skills - the Fascists'))), a player's skill as a
    Liberal taken from ``liberal`` when given (else ``skills``)."""
    rng = random.Random(seed)
    liberal = liberal or skills
    out = []
    for number in range(games):
        count = rng.randint(5, 10)
        seated = rng.sample(range(len(skills)), count)
        libs, fas = seated[:LIBERALS[count]], seated[LIBERALS[count]:]
        if dealt == "liberal" and 0 in fas:
            fas[fas.index(0)], libs[0] = libs[0], 0
        if dealt == "fascist" and 0 in libs:
            libs[libs.index(0)], fas[0] = fas[0], 0
        edge = (math.log(BASE[count] / (1 - BASE[count])) + sum(liberal[p] for p in libs)
                - sum(skills[p] for p in fas))
        won = rng.random() < 1 / (1 + math.exp(-edge))
        out.append(Match((f"2026-01-01T00:00:{number:06d}", f"{number:064x}"), won,
                         tuple(libs), tuple(fas)))
    return out


def overall_ratings(matches: list[Match], players: int) -> list[float]:
    ratings = rate(matches, players)
    return [ratings.overall(p).ordinal for p in range(players)]


def test_teams_of_newcomers_are_even_at_the_base_rate():
    """At the base rate b, b times the Liberals' gain on a win plus (1 - b) times their
    loss on a loss is zero, seat by seat, for openskill as it is: no drift between equals."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    for count, base in ((5, 0.25), (7, 0.7), (10, 0.4)):
        moves = []
        for won in (True, False):
            liberal, fascist = [START] * count, [START] * count
            libs, fas = range(LIBERALS[count]), range(LIBERALS[count], count)
            _update(model, liberal, fascist, Match(("", ""), won, tuple(libs), tuple(fas)), base)
            moves.append((liberal[0].mu - START.mu, fascist[count - 1].mu - START.mu))
        (lib_win, fas_loss), (lib_loss, fas_win) = moves
        assert lib_win > 0 > lib_loss and fas_win > 0 > fas_loss
        assert base * lib_win + (1 - base) * lib_loss == pytest.approx(0, abs=1e-9)
        assert base * fas_loss + (1 - base) * fas_win == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_equal_players_stay_near_the_start_and_one_another(seed):
    matches = synthetic(seed, GAMES, [0.0] * 12)
    ratings = rate(matches, 12)
    mus = [ratings.overall(p).mu for p in range(12)]
    assert abs(sum(mus) / len(mus) - START.mu) < 2
    assert max(abs(mu - START.mu) for mu in mus) < 6


@pytest.mark.parametrize("dealt", [None, "liberal", "fascist"])
def test_a_strong_player_ranks_first_whatever_side_he_is_dealt(dealt):
    """Player 0 adds 0.7 to his team's log-odds of winning (from 35 % to 52 %, say); the
    eleven others are equal. After GAMES games he ranks first in nine seeds of ten."""
    first = 0
    for seed in range(SEEDS):
        ratings = overall_ratings(synthetic(seed, GAMES, [0.7] + [0.0] * 11, dealt=dealt), 12)
        first += max(range(12), key=ratings.__getitem__) == 0
    assert first >= math.ceil(0.9 * SEEDS)


def test_winning_with_the_weaker_side_above_its_base_rate_rises_above_the_base_rate():
    """Player 0 adds 0.8 to the Liberals' log-odds when he is one of them (the weaker side
    at most counts: from 30 % to 49 % at nine players) and nothing as a Fascist; player 1,
    like the ten others, wins at the base rates. Player 0's Liberal rating and his overall
    rating end above player 1's in nine seeds of ten."""
    above = 0
    for seed in range(SEEDS):
        ratings = rate(synthetic(seed, GAMES, [0.0] * 12, liberal=[0.8] + [0.0] * 11), 12)
        above += (ratings.liberal[0].ordinal > ratings.liberal[1].ordinal
                  and ratings.overall(0).ordinal > ratings.overall(1).ordinal)
    assert above >= math.ceil(0.9 * SEEDS)


def test_the_overall_rating_lies_between_the_side_ratings():
    matches = synthetic(7, GAMES, [random.Random(p).gauss(0, 0.5) for p in range(12)])
    ratings = rate(matches, 12)
    for p in range(12):
        low, high = sorted((ratings.liberal[p].ordinal, ratings.fascist[p].ordinal))
        assert low - 1e-9 <= ratings.overall(p).ordinal <= high + 1e-9
        assert ratings.liberal_weight[p] + ratings.fascist_weight[p] == sum(
            p in (*m.liberals, *m.fascists) for m in matches)


def test_simulated_games_do_not_drift(run, tmp_path):
    """``shmod simulate -n 300``: random play, every player equal. The pool's mean stays
    within 2 of a newcomer's 25; every regular (100 games or more) ends within 6 of it and
    above a newcomer's rating of 0, with the overall between the side ratings (on 3655be9
    every regular's overall rating was -4 to -9, below both side ratings)."""
    folder = tmp_path / "sims"
    assert run("simulate", str(folder), "-n", "300", "--seed", "11")[0] == 0
    code, out, _ = run("stats", str(folder), "--json")
    data = json.loads(out)
    players = data["players"]
    assert code == 0 and len(players) == 10
    mus = [p["rating"]["mu"] for p in players]
    assert abs(sum(mus) / len(mus) - 25) < 2
    regulars = [p for p in players if p["games"] >= 100]
    assert len(regulars) == 9
    for p in regulars:
        assert abs(p["rating"]["mu"] - 25) < 6 and p["rating"]["rating"] > 0, p
        sides = sorted((p["liberal_rating"]["rating"], p["fascist_rating"]["rating"]))
        assert sides[0] - 0.001 <= p["rating"]["rating"] <= sides[1] + 0.001, p
        assert not p["rating"]["provisional"]
    for count, row in data["wins_by_players"].items():  # each side's base rate, by hand
        assert data["base_rates"][count] == {
            "games": row["games"], "liberal_wins": row["Liberals"],
            "liberal_base_rate": round((row["Liberals"] + 1) / (row["games"] + 2), 4)}


def farmed(folder, n: int) -> None:
    """``n`` games of ``new`` then ``remove`` of Hitler, the farmer a Liberal in each."""
    for k in range(n):
        names = ["Farmer", f"Sock{k}a", f"Sock{k}b", f"Sock{k}c", f"Sock{k}d"]
        t = Table(head(names, names[4], [names[3]], "LFF" * 5,
                       f"2026-02-{1 + k % 28:02d}T{k // 28:02d}:00:00Z"), forum=True)
        t.apply(Remove(target=4, reason="left the forum"))
        assert t.game.winner == "Liberals"
        write(folder, f"farm-{k:02d}.yaml", t)


def test_removing_hitler_before_any_play_farms_no_rating(run, tmp_path):
    """30 games won by removing Hitler at once gave a player 15.1 on 3655be9, above every
    honest player; such a game is counted (the record is what happened) but not rated."""
    folder = tmp_path / "forum"
    assert run("simulate", str(folder / "honest"), "-n", "60", "-p", "5", "--seed", "3")[0] == 0
    farmed(folder / "farm", 30)
    code, out, _ = run("stats", str(folder), "--json")
    data = json.loads(out)
    keys = [p["key"] for p in data["players"]]
    farmer = data["players"][keys.index("farmer")]
    honest = [p for p in data["players"] if p["key"].startswith("player")]
    assert keys.index("farmer") > max(keys.index(p["key"]) for p in honest)
    assert farmer["rating"] == {"rating": 0.0, "mu": 25.0, "sigma": 8.333, "provisional": True}
    assert sorted(p["rating"]["rating"] for p in honest)[2] > 0  # the median honest player
    assert code == 0 and (data["counted"], data["unrated"]) == (90, 30)
    assert (farmer["games"], farmer["wins"], farmer["rated"]["games"]) == (30, 30, 0)
    code, out, _ = run("stats", str(folder))
    assert "30 counted but not rated (won by the moderator's removal of Hitler)" in out

