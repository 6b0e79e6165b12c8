"""R-PM / R-KNOW: a player's view holds exactly their own role, knowledge and PMs."""
import random

from shmod.audit.random_games import random_game
from shmod.texts.views import player_view, public_view


def test_each_player_view_holds_only_that_players_secrets():
    sim = random_game(7, random.Random(5))
    state = sim.state
    roles = dict(zip(state.game.players, state.game.roles))
    for name in state.game.players:
        view = player_view(state, name)
        assert view.role == roles[name]
        assert view.secrets and all(s.to == name for s in view.secrets)
        assert [s for s in state.secrets if s.to == name] == list(view.secrets)
        known = dict(view.knows)
        if view.role == "liberal" or view.role == "hitler":  # 7 players: Hitler knows nobody
            assert known == {}
        else:
            assert known == {n: r for n, r in roles.items() if n != name and r != "liberal"}
        assert view.public == public_view(state)
