"""A whole game for each player count (5-10) played with the commands (in-process), on a
log dealt with explicit roles and deck: every scripted step is a command, and before many
of them an illegal command is tried, refused with its rule id and the log left
byte-identical. The log then replays to the engine's own end state."""
import re

import pytest
from scripted import play

from shmod.audit.random_games import command_for
from shmod.base.records import replace
from shmod.game.terms import DISCARD, ENACT, NOMINATE, POWER, RESHUFFLE, VOTE
from shmod.log import store

WAY_BY_COUNT = {5: "hitler-executed", 6: "six-fascist", 7: "hitler-elected",
                8: "five-liberal", 9: "six-fascist", 10: "hitler-executed"}


def illegal(state, names: tuple[str, ...]) -> tuple[list[str], str]:
    """A command the game must refuse now, and the rule id it must cite."""
    phase, president = state.phase, names[state.president]
    if phase == NOMINATE:
        return ["nominate", president], "R-NOMINATE"
    if phase == VOTE and state.votes:
        return ["vote", names[next(iter(state.votes))], "ja"], "R-VOTE"
    if phase in (VOTE, ENACT, POWER, RESHUFFLE):
        return ["discard", "fascist"], "R-DRAW"
    if phase == DISCARD:
        return ["enact", "fascist"], "R-PASS"
    raise AssertionError(phase)


@pytest.mark.parametrize("players", range(5, 11))
def test_whole_game_with_the_commands(players, run, tmp_path):
    scripted, _ = play(players, WAY_BY_COUNT[players], forum=True)
    names = scripted.state.game.players
    path = tmp_path / "game.yaml"
    path.write_text(store.log_text(scripted.header, [], at="2026-01-01T00:00:00Z"))
    for number, step in enumerate(scripted.steps):
        if number % 3 == 0:
            state = store.load(str(path)).table.game
            args, rule = illegal(state, names)
            before = path.read_bytes()
            code, _, err = run(*args, "-g", str(path))
            assert code == 1 and re.match(rf"Error: {rule}: [^\n]+\n$", err), (args, err)
            assert path.read_bytes() == before
        code, _out, err = run(*command_for(step, names), "-g", str(path))
        assert code == 0, (step, err)
        assert "Waiting for" in err
    end = store.load(str(path))
    assert end.chain == []
    def said(state):  # the public record, without entry numbers (posts are entries too)
        return [replace(ev, entry=0) for ev in state.public]

    assert (end.table.game.win, said(end.table)) == (scripted.state.game.win, said(scripted.state))
    assert len(end.table.posts) > len(scripted.steps) // 4  # every step with news was posted
    assert "nobody: the game is over" in err
