"""store.record on seeded games: the seed's reshuffles are appended with the step that made
them due, including the veto that triggers chaos with an empty draw pile (R-VETO: reshuffle
first, then the chaos policy, then R-RESHUFFLE again if needed)."""
import random

from shmod.audit.random_games import random_game
from shmod.forum import engine
from shmod.forum.setup import parse_setup, start
from shmod.game.events import Chaos, Reshuffled, Tallied
from shmod.game.steps import Veto
from shmod.log import store

AT = "2026-01-01T00:00:00Z"


def veto_into_empty_pile_chaos():
    """A seeded random game with a veto accepted at tracker two and an empty draw pile;
    seed 6/649 has one (the search is the fallback if random_game changes)."""
    for players, n in [(6, 649), *((5 + n % 6, n) for n in range(3000))]:
        sim = random_game(players, random.Random(n))
        state = start(parse_setup(sim.header))
        for index, step in enumerate(sim.steps):
            if isinstance(step, Veto) and (step.answer, state.game.tracker, len(state.game.draw)) == ("accept", 2, 0):
                return sim, index, state
            engine.apply(state, step)
    raise AssertionError("no such veto in 3000 random games")


def test_veto_chaos_with_empty_draw_pile_is_recorded_with_the_seeds_reshuffle(tmp_path):
    sim, index, state = veto_into_empty_pile_chaos()
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, sim.steps[:index], at=AT))
    done = store.record(str(path), lambda g: sim.steps[index], at=AT)
    kinds = [e["kind"] for e in done.entries]
    assert kinds[:2] == ["veto", "reshuffle"]  # the pile was empty: reshuffle first
    events = [type(p) for p in done.public]
    assert events.index(Reshuffled) < events.index(Chaos)
    expected = start(parse_setup(sim.header))
    for step in sim.steps[:index + len(kinds)]:
        engine.apply(expected, step)
    replayed = store.load(str(path))
    assert replayed.chain == []
    got = replayed.table.game
    assert (got.liberal, got.fascist, got.tracker, got.draw, got.phase) == (
        expected.game.liberal, expected.game.fascist, expected.game.tracker, expected.game.draw,
        expected.game.phase)
    assert got.tracker == 0 and (got.liberal + got.fascist) == (state.game.liberal + state.game.fascist + 1)


def test_concurrent_votes_are_serialised_by_the_lock(tmp_path):
    """Five votes recorded at once (R-VOTE PMs arriving together): all five land, in some
    order, on an unbroken hash chain, and the count happens once."""
    import threading

    from shmod.game.steps import Nominate, Vote

    path = str(tmp_path / "g.yaml")
    store.new_game(path, ["Ann", "Bob", "Cat", "Dan", "Eve"], seed="s1", first="Ann", created=AT)
    store.record(path, lambda g: Nominate(by=0, chancellor=1), at=AT)
    errors: list[Exception] = []

    def vote(seat: int) -> None:
        try:
            store.record(path, lambda g: Vote(by=seat, vote=True), at=AT)
        except Exception as err:  # noqa: BLE001 - collected and asserted below
            errors.append(err)

    threads = [threading.Thread(target=vote, args=(seat,)) for seat in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    loaded = store.load(path)
    assert loaded.chain == [] and len(loaded.log.entries) == 9  # posts 1-3, a nomination, 5 votes
    assert loaded.table.game.phase == "discard"
    assert [type(p) for p in loaded.table.public].count(Tallied) == 1
