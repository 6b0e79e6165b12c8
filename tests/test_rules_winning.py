"""Winning: R-WIN-LIB and R-WIN-FAS, checked after every step, including chaos policies.
(Government wins for every player count are in test_complete_games.py.)"""
from scripted import chaos, refuse, table

from shmod.base.errors import GameIsOver
from shmod.game.events import GameOver, Win
from shmod.game.terms import NOMINATE, OVER


def test_win_lib_fifth_liberal_policy_by_chaos():
    t = table(5, deck="LFF" * 4 + "L")
    for chancellor in ("Bob", "Cat", "Dan", "Eve"):
        t.session(chancellor, "F", "L")
    assert (t.state.liberal, t.state.phase) == (4, NOMINATE)
    chaos(t)
    assert (t.state.win, t.state.liberal) == (Win("Liberals", "R-WIN-LIB", policies=5), 5)
    assert isinstance(t.state.public[-1], GameOver)
    refuse(t, GameIsOver, "R-WIN-LIB", t.nominate, "Bob", by="Ann", match="Liberals won")


def test_win_fas_sixth_fascist_policy_by_chaos():
    t = table(5)
    for _ in range(5):
        chaos(t)
    assert (t.state.fascist, t.state.winner) == (5, None)  # five are not enough
    chaos(t)
    assert (t.state.win, t.state.fascist) == (Win("Fascists", "R-WIN-FAS", policies=6), 6)
    refuse(t, GameIsOver, "R-WIN-FAS", t.vote, "Ann", True)


def test_win_fas_hitler_elected_after_a_chaos_third_fascist():
    t = table(5)  # Eve is Hitler
    t.session("Bob", "F", "F")
    t.session("Cat", "F", "F")
    chaos(t)  # the third Fascist policy, by chaos: Hitler's zone is reached all the same
    assert t.state.fascist == 3 and t.state.phase == NOMINATE
    assert t.president == "Ann"
    t.elect("Eve")
    assert t.state.phase == OVER and t.state.win == Win("Fascists", "R-HITLER-ELECTED", "Eve")


def test_win_four_liberal_and_five_fascist_is_no_win():
    t = table(5, deck="LFF" * 4)
    for chancellor in ("Bob", "Cat", "Dan", "Eve"):
        t.session(chancellor, "F", "L")
    for _ in range(5):
        chaos(t)
        if t.state.phase != NOMINATE:
            t.reshuffle()
    s = t.state
    assert (s.liberal, s.fascist, s.winner, s.phase) == (4, 5, None, NOMINATE)
