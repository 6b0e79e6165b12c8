"""Complete scripted games for every player count (5-10) and every way to win
(R-WIN-LIB: five Liberal policies or Hitler executed; R-WIN-FAS: six Fascist policies or
R-HITLER-ELECTED), driven through the engine with deterministic choices, then written as
an unseeded log and replayed."""
import pytest
from scripted import WAYS, play

from shmod.base.errors import GameIsOver, LogError
from shmod.game.steps import Discard, Enact, Execute, Nominate, Peek, Reshuffle, Veto, Vote
from shmod.game.terms import EXECUTE
from shmod.log import store


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("players", range(5, 11))
def test_complete_game(players, way, tmp_path):
    t, powers = play(players, way)
    s = t.state
    assert s.win and (s.winner, s.win.rule) == WAYS[way]
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
    path.write_text(store.log_text(t.header, t.steps, at="2026-01-01T00:00:00Z"))
    loaded = store.load(str(path)).table.game
    assert (loaded.win, loaded.liberal, loaded.fascist, loaded.alive) == (
        s.win, s.liberal, s.fascist, s.alive)
    # the game floor alone tells what the forum's table does, less the opening post's facts
    assert loaded.public[1:] == s.public and loaded.secrets == s.secrets


def test_complete_game_refuses_every_kind_of_step_after_the_end():
    t, _ = play(7, "hitler-executed")
    for step in (Nominate(by=0, chancellor=1), Vote(by=0, vote=True),
                 Discard(by=0, policy="F"), Enact(by=0, policy="F"),
                 Veto(by=0, answer="propose"), Peek(by=0),
                 Execute(by=0, target=1), Reshuffle(deck=("F",))):
        with pytest.raises(GameIsOver, match=r"^R-WIN-LIB: the game is over"):
            t.apply(step)


def test_an_entry_after_the_end_in_the_log_is_reported_with_its_line(tmp_path):
    t, _ = play(6, "six-fascist")
    path = tmp_path / "game.yaml"
    text = store.log_text(t.header, t.steps, at="2026-01-01T00:00:00Z")
    path.write_text(text + "- {kind: nominate, by: Ann, chancellor: Bob}\n")
    line = text.count("\n") + 1
    with pytest.raises(LogError, match=rf"game\.yaml:{line}: entry {len(t.steps) + 1}: "
                                       r"R-WIN-FAS: the game is over \(Fascists won"):
        store.load(str(path))
