"""Complete scripted games for every player count (5-10) and every way to win
(R-WIN-LIB: five Liberal policies or Hitler executed; R-WIN-FAS: six Fascist policies or
R-HITLER-ELECTED), driven through the engine with deterministic choices, then written as
an unseeded log and replayed."""
import pytest
from scripted import eligible, table

from shmod import game
from shmod.errors import GameIsOver
from shmod.rules import EXECUTE, INVESTIGATE, SPECIAL
from shmod.state import DISCARD, ENACT, NOMINATE, OVER, POWER, RESHUFFLE
from shmod.steps import Step

WAYS = {
    "five-liberal": ("Liberals", "R-WIN-LIB"),
    "hitler-executed": ("Liberals", "R-WIN-LIB"),
    "six-fascist": ("Fascists", "R-WIN-FAS"),
    "hitler-elected": ("Fascists", "R-HITLER-ELECTED"),
}


def play(players: int, way: str):
    """Play to the end: the Liberals' way enacts Liberal policies from a deck holding one
    per hand; the other ways enact Fascist ones, use every power and aim it as ``way`` needs."""
    want = "L" if way == "five-liberal" else "F"
    other = "F" if want == "L" else "L"
    t = table(players, deck="LFF" * 5 if want == "L" else "FFL" * 5)
    s = t.state
    hitler = t.name(s.hitler)
    fascists = {t.name(x) for x, r in enumerate(s.roles) if r == "fascist"}
    powers_used = []
    while s.phase != OVER:
        assert len(t.steps) < 400, "the scripted game does not end"
        if s.phase == NOMINATE:
            options = eligible(t)
            assert len(s.draw) >= 3 and s.tracker < 3
            if way == "hitler-elected" and s.fascist >= 3 and hitler in options:
                t.elect(hitler)
            else:
                safe = [n for n in options if n != hitler]
                t.elect(safe[0]) if safe else t.fail(options[0])
        elif s.phase == DISCARD:
            t.discard(other if other in s.hand else want)
        elif s.phase == ENACT:
            t.enact(want if want in s.hand else other)
        elif s.phase == RESHUFFLE:
            t.reshuffle()
        elif s.phase == POWER:
            powers_used.append(s.power)
            others = [t.name(x) for x in s.living if x != s.president]
            if s.power == "peek":
                t.power("peek")
            elif s.power == INVESTIGATE:
                t.power(INVESTIGATE, next(n for n in others if t.seat(n) not in s.investigated))
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


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("players", range(5, 11))
def test_complete_game(players, way, tmp_path):
    t, powers = play(players, way)
    s = t.state
    assert (s.winner, s.win_rule) == WAYS[way]
    if way == "five-liberal":
        assert (s.liberal, s.fascist, powers) == (5, 0, [])
    elif way == "six-fascist":
        assert s.fascist == 6 and s.liberal == 0
        assert powers == [p for p in s.rules.powers if p]  # every power on the board, in order
    elif way == "hitler-executed":
        assert not s.alive[s.hitler] and s.fascist == 4
        assert powers[-1] == EXECUTE
    else:
        assert s.fascist >= 3 and s.chancellor == s.hitler
    assert len(s.draw) + len(s.discard) + len(s.hand) + s.liberal + s.fascist == 17
    with pytest.raises(GameIsOver, match=f"^{WAYS[way][1]}: the game is over"):
        t.nominate(t.name(s.living[0]), by=t.name(s.president))
    # the same game as a log dealt without a seed (R-DECK: explicit order) replays
    path = tmp_path / "game.yaml"
    path.write_text(game.log_text(t.header, t.steps, at="2026-01-01T00:00:00Z"))
    loaded = game.load(str(path)).state
    assert (loaded.winner, loaded.win_rule, loaded.liberal, loaded.fascist, loaded.alive) == (
        s.winner, s.win_rule, s.liberal, s.fascist, s.alive)
    assert loaded.public == s.public and loaded.secrets == s.secrets


def test_complete_game_refuses_every_kind_of_step_after_the_end():
    t, _ = play(7, "hitler-executed")
    for step in (Step("nominate", by=0, target=1), Step("vote", by=0, vote=True),
                 Step("discard", by=0, policy="F"), Step("enact", by=0, policy="F"),
                 Step("veto", by=0, answer="propose"), Step("peek", by=0),
                 Step("execute", by=0, target=1), Step("reshuffle", deck=("F",))):
        with pytest.raises(GameIsOver, match="^R-WIN-LIB: the game is over"):
            t.apply(step)
