"""A seeded game replays to the same state every time (R-DECK, R-ROLES, R-FIRST)."""
import random

from shmod.audit.random_games import random_game
from shmod.log import store


def test_simulated_log_replays_to_the_same_end(tmp_path):
    sim = random_game(7, random.Random(3))
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z"))
    loaded = store.load(str(path))
    assert loaded.table.game.winner == sim.state.game.winner
    assert loaded.table.game.liberal == sim.state.game.liberal
    assert loaded.table.game.fascist == sim.state.game.fascist
    assert loaded.chain == []
