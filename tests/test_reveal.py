"""The reveal post: refused while the game is on; after it, every government's policies
add up (drawn = President's discard + Chancellor's discard + enacted)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from scripted import AT

from shmod.audit.random_games import random_game
from shmod.base.errors import BadInput
from shmod.game.events import Enacted
from shmod.log import store
from shmod.texts.formats import Plain
from shmod.texts.reveal import governments, reveal_text


def _load(tmp_path, players, seed, variants, cut=None):  # type: ignore[no-untyped-def]
    sim = random_game(players, random.Random(seed), variants=variants)
    path = tmp_path / f"g{seed}.yaml"
    path.write_text(store.log_text(sim.header, sim.steps[:cut], at="2026-01-01T00:00:00Z"))
    return store.load(str(path))


@pytest.mark.parametrize("variants", [[], ["veto=secret-vote"]])
def test_every_government_adds_up(tmp_path, variants):
    for seed in range(15):
        loaded = _load(tmp_path, 5 + seed % 6, seed, variants)
        govs = governments(loaded)
        enacted = [ev for ev in loaded.table.public if isinstance(ev, Enacted) and not ev.chaos]
        assert [g.enacted for g in govs if g.enacted] == [ev.policy for ev in enacted]
        for g in govs:
            assert len(g.president_discard) == 1 and len(g.chancellor_discard) == (1 if g.enacted else 2)
            assert Counter(g.drawn) == Counter(g.president_discard + g.chancellor_discard
                                               + ([g.enacted] if g.enacted else []))
        text = reveal_text(loaded, Plain(), spoiler=False)
        for name, role in zip(loaded.table.game.players, loaded.table.game.roles):
            assert f"{name}: {'Hitler' if role == 'hitler' else 'a ' + role.title()}" in text


def test_refused_while_the_game_is_on(tmp_path):
    loaded = _load(tmp_path, 7, 1, [], cut=20)
    with pytest.raises(BadInput, match="R-THREAD"):
        reveal_text(loaded, Plain())


def test_a_replaced_seat_is_named_with_the_player_it_replaced(tmp_path):
    from shmod.forum.steps import Replace

    sim = random_game(7, random.Random(4))
    first = sim.header["players"][0]
    role = sim.header["secret"]["roles"][first]
    steps = [Replace(target=0, name="Zed"), *sim.steps]
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, steps, at="2026-01-01T00:00:00Z"))
    text = reveal_text(store.load(str(path)), Plain(), spoiler=False)
    named = "Hitler" if role == "hitler" else "a " + role.title()
    assert f"- Zed (replacing {first}): {named}\n" in text


def test_a_corrected_discard_is_revealed_as_corrected(tmp_path):
    """R-CORRECT: a voided step's PMs and reshuffles are not part of the reveal."""
    from shmod.forum.steps import Correct
    from shmod.forum.turns import legal_steps
    from shmod.game.steps import Discard, Step, Vote

    path = str(tmp_path / "g.yaml")
    store.new_game(path, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], seed="s7", created=AT)

    def rec(step: Step) -> store.Recorded:
        return store.record(path, lambda g: step, at=AT)

    rng = random.Random(3)
    first = None
    while not store.load(path).table.game.winner:
        state = store.load(path).table
        options = [o for o in legal_steps(state) if not isinstance(o, Vote) or o.vote]
        if state.game.phase == "discard" and first is None and len(set(state.game.hand)) == 2:
            wrong, right = sorted(set(state.game.hand))
            done = rec(Discard(by=state.game.president, policy=wrong))
            rec(Correct(entries=(done.loaded.table.entries,), reason="misread the PM"))
            rec(Discard(by=state.game.president, policy=right))
            first = right
            continue
        rec(rng.choice(options))
    loaded = store.load(path)
    govs = governments(loaded)
    enacted = [ev for ev in loaded.table.public if isinstance(ev, Enacted) and not ev.chaos]
    assert [g.enacted for g in govs if g.enacted] == [ev.policy for ev in enacted]
    assert govs[0].president_discard == [first]
    for g in govs:
        assert Counter(g.drawn) == Counter(g.president_discard + g.chancellor_discard
                                           + ([g.enacted] if g.enacted else []))


def test_a_session_cut_short_by_a_removal_is_no_government():
    """R-MODKILL: the President removed after drawing, the policies back on the pile; the
    reveal paired draws and hands by position and showed a government that never sat."""
    from types import SimpleNamespace

    from scripted import forum_table

    from shmod.forum.steps import Remove

    t = forum_table(7, deck="FFLLFFLFF")
    t.elect("Bob")  # Ann draws three, then leaves the game before discarding
    t.apply(Remove(target=t.seat("Ann"), reason="left the forum"))
    t.elect("Dan")  # Bob, President now, nominates Dan
    t.discard("fascist")
    t.enact("liberal")
    govs = governments(SimpleNamespace(table=t.state))  # type: ignore[arg-type]
    assert [(g.president, g.chancellor, g.enacted) for g in govs] == [("Bob", "Dan", "L")]
