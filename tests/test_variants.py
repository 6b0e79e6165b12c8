"""House-rule variants and custom games (docs/variants.md): each plays to the end."""
import random

import pytest

from shmod.audit.random_games import random_game
from shmod.base.errors import BadInput
from shmod.forum import engine
from shmod.forum.setup import new_header, parse_setup, start
from shmod.game.events import PowerGranted, RoleSent, VetoProposed
from shmod.game.steps import Nominate, Vote
from shmod.log import store
from shmod.texts import formats, game_texts as texts, messages, views

AT = "2026-01-01T00:00:00Z"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida"]


def opening(state) -> str:
    view = views.public_view(state)
    return texts.start_text(view, formats.get("plain"))


def play_and_replay(tmp_path, players, variants=None, custom=None, seed=1):
    """A random full game under these rules, written as a log and replayed."""
    sim = random_game(players, random.Random(seed), variants=variants, custom=custom)
    assert sim.state.game.winner is not None
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, sim.steps, at=AT))
    loaded = store.load(str(path))
    assert loaded.table.game.winner == sim.state.game.winner
    return loaded


@pytest.mark.parametrize("players,start_f,deck_f", [(6, 1, 10), (7, 0, 10), (9, 0, 10)])
def test_rebalanced_setups_play_to_the_end(tmp_path, players, start_f, deck_f):
    loaded = play_and_replay(tmp_path, players, ["rebalanced=on"])
    rules = loaded.table.game.rules
    assert (rules.fascist_start, rules.deck_fascist, rules.deck_liberal) == (start_f, deck_f, 6)
    fresh = start(loaded.setup)
    assert fresh.game.fascist == start_f and len(fresh.game.draw) == 6 + deck_f
    assert "Rebalanced setup:" in opening(fresh) and "rebalanced" not in opening(fresh)


def test_rebalanced_refused_for_other_counts():
    with pytest.raises(BadInput, match="only for 6, 7 or 9 players"):
        new_header(NAMES[:8], seed="s", variants=["rebalanced=on"], salt="x", created=AT)


def test_first_president_seat1(tmp_path):
    for seed in range(4):
        loaded = play_and_replay(tmp_path, 7, ["first_president=seat1"], seed=seed)
        assert loaded.setup.first == 0
    fresh = start(loaded.setup)
    assert "The first Presidential Candidate is the first player in the seating order." in \
        opening(fresh)
    with pytest.raises(BadInput, match="seat1"):
        new_header(NAMES[:7], seed="s", first="Cat", variants=["first_president=seat1"],
                   salt="x", created=AT)


def test_variants_read_yaml_booleans():
    header = new_header(NAMES[:6], seed="s", variants=["eva_braun=on"], salt="x", created=AT)
    header["variants"]["eva_braun"] = True
    assert parse_setup(header).rules.eva_braun == "on"


def eva_state(chancellor_role: str):
    """Six players with three Fascist policies down (custom tracks), eva_braun=on."""
    header = new_header(NAMES[:6], seed="eva", first="Ann", variants=["eva_braun=on"],
                        salt="x", created=AT, custom={"tracks": {"fascist": 3}})
    state = start(parse_setup(header))
    target = next(s for s in range(1, 6) if state.game.roles[s] == chancellor_role)
    engine.apply(state, Nominate(by=0, chancellor=target))
    for seat in range(6):
        engine.apply(state, Vote(by=seat, vote=seat < 3))
    return state


def test_eva_braun_tie_elects_hitler():
    state = eva_state("hitler")
    assert state.game.win and (state.game.winner, state.game.win.rule) == ("Fascists", "R-EVA-BRAUN")
    post = messages.post(views.public_view(state), state.public[-2:], formats.get("plain"))
    assert "Eva Braun" in post


def test_eva_braun_tie_with_another_chancellor_fails():
    state = eva_state("liberal")
    assert state.game.winner is None and state.game.tracker == 1


def test_eva_braun_plays_to_the_end(tmp_path):
    loaded = play_and_replay(tmp_path, 8, ["eva_braun=on"])
    assert "Eva Braun house rule" in opening(start(loaded.setup))


CUSTOM = {
    "deck": {"liberal": 7, "fascist": 9},
    "tracks": {"liberal": 1, "fascist": 2},
    "powers": ["investigate", "none", "special_election", "peek", "execute"],
    "hitler_zone": 4,
    "veto_zone": "none",
    "hitler_knows_fascists": True,
}


@pytest.mark.parametrize("seed", range(3))
def test_custom_game_plays_to_the_end(tmp_path, seed):
    loaded = play_and_replay(tmp_path, 7, custom=CUSTOM, seed=seed)
    rules = loaded.table.game.rules
    assert rules.powers == ("investigate", None, "special_election", "peek", "execute")
    assert (rules.hitler_zone, rules.veto_zone, rules.hitler_knows_fascists) == (4, 6, True)
    fresh = start(loaded.setup)
    assert (fresh.game.liberal, fresh.game.fascist, len(fresh.game.draw)) == (1, 2, 16)
    text = opening(fresh)
    assert "the deck holds 7 Liberal + 9 Fascist" in text and "Hitler knows the Fascists." in text
    assert "The custom board:" in text and "_" not in text.split("Setup commitment")[0]
    hitler = fresh.game.roles.index("hitler")
    role_pm = next(s for s in fresh.secrets if s.to == fresh.game.players[hitler])
    assert isinstance(role_pm, RoleSent) and role_pm.knows, "R-KNOW: a custom hitler_knows_fascists=true tells Hitler"


@pytest.mark.parametrize("custom,reason", [
    ({"deck": {"liberal": 2, "fascist": 3}}, "cannot fill a draw of three"),
    ({"powers": ["none", "none", "zap", "execute", "execute"]}, "'zap' is not a power"),
    ({"powers": ["none", "execute"]}, "each of the 5 Fascist slots"),
    ({"tracks": {"fascist": 6}}, "must start below the wins"),
    ({"hitler_zone": 0}, "hitler_zone must be a whole number from 1 to 6"),
    ({"veto_zone": 6}, "veto_zone must be a whole number from 1 to 5"),
    ({"hitler_knows_fascists": "maybe"}, "true or false"),
    ({"roles": 3}, "unknown custom field"),
    ("deck", "custom must be a mapping"),
])
def test_nonsensical_custom_setups_are_refused(custom, reason):
    with pytest.raises(BadInput, match=reason):
        new_header(NAMES[:7], seed="s", salt="x", created=AT, custom=custom)


def test_custom_and_rebalanced_do_not_combine():
    with pytest.raises(BadInput, match="cannot be combined"):
        new_header(NAMES[:7], seed="s", salt="x", created=AT, variants=["rebalanced=on"],
                   custom={"hitler_zone": 2})


@pytest.mark.parametrize("variant", ["term5=seated", "veto=secret-vote", "tracker_reset=election"])
def test_rulebook_variants_play_to_the_end(tmp_path, variant):
    loaded = play_and_replay(tmp_path, 5, [variant], seed=4)
    words = {"term5=seated": "Only because this game started with five players",
             "veto=secret-vote": "The veto works as online",
             "tracker_reset=election": "A successful election also sets the Election Tracker"}
    text = opening(start(loaded.setup))
    assert words[variant] in text and variant not in text


def test_custom_game_without_powers_or_veto(tmp_path):
    custom = {"powers": ["none"] * 5, "veto_zone": "none", "hitler_zone": 1,
              "deck": {"liberal": 5, "fascist": 7}}
    for seed in range(3):
        loaded = play_and_replay(tmp_path, 5, custom=custom, seed=seed)
        kinds = {type(e) for e in loaded.table.public}
        assert not kinds & {PowerGranted, VetoProposed}
