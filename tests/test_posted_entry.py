"""The ``posted`` entry (R-THREAD bookkeeping): accepted in any phase, even after the game
is over, changing nothing but which entries count as posted; refused without change
when it covers nothing new or entries that do not exist."""
from __future__ import annotations

import random

import pytest

from shmod.audit.random_games import random_game
from shmod.base.errors import BadInput, RuleBroken
from shmod.base.records import replace
from shmod.forum import engine
from shmod.forum.names import Seating
from shmod.forum.setup import parse_setup, start
from shmod.forum.steps import Posted, Replace
from shmod.log import checkpoints, store
from shmod.log.entries import parse_step, to_entry
from shmod.texts import thread_posts
from shmod.texts.formats import Plain
from shmod.texts.views import public_view

AT = "2026-01-01T00:00:00Z"


def mark_posted(path, upto):
    """Record a ``posted`` entry for entry ``upto``, with the checkpoint its post shows."""
    def make(g):
        number = len(g.table.posts) + 1
        shown = (checkpoints.mark(g.setup, number, upto, g.heads[upto])
                 if upto < len(g.heads) else None)
        return Posted(upto=upto, checkpoint=shown)
    return store.record(path, make, post=False, at=AT)


def _log(tmp_path, steps_count=None):  # type: ignore[no-untyped-def]
    sim = random_game(5, random.Random(11))
    steps = sim.steps if steps_count is None else sim.steps[:steps_count]
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, steps, at=AT))
    return str(path), sim


def test_posted_changes_nothing_public_but_the_marks():
    sim = random_game(7, random.Random(5))
    plain, marked = start(parse_setup(sim.header)), start(parse_setup(sim.header))
    for n, step in enumerate(sim.steps):
        engine.apply(plain, step)
        engine.apply(marked, step)
        if n % 9 == 0:
            engine.apply(marked, Posted(upto=marked.entries))
    engine.apply(marked, Posted(upto=marked.entries))  # after the game is over
    a, b = public_view(plain), public_view(marked)
    strip = lambda v: [replace(e, entry=0) for e in v.history]  # noqa: E731
    assert strip(a) == strip(b) and a.winner == b.winner and a.phase == b.phase == "over"
    assert len(marked.posts) == len(sim.steps) // 9 + 2


@pytest.mark.parametrize("upto", [0, 5, 6])
def test_posted_must_cover_new_existing_entries(upto):
    sim = random_game(5, random.Random(2))
    state = start(parse_setup(sim.header))
    for step in sim.steps[:3]:
        engine.apply(state, step)
    engine.apply(state, Posted(upto=0))
    with pytest.raises(RuleBroken, match="R-THREAD"):
        engine.apply(state, Posted(upto=upto))
    assert state.posts == [0]


def test_nothing_new_is_refused():
    sim = random_game(5, random.Random(2))
    state = start(parse_setup(sim.header))
    engine.apply(state, Posted(upto=0))
    engine.apply(state, sim.steps[0])  # a nomination: public
    engine.apply(state, sim.steps[1])  # a vote: nothing public yet
    with pytest.raises(RuleBroken, match="nothing new"):
        engine.apply(state, Posted(upto=1))  # only the earlier posted entry
    assert state.entries == 3
    engine.apply(state, Posted(upto=3))


@pytest.mark.parametrize("bad", [True, -3, "4", 2.5, None, [1]])
def test_upto_must_be_an_entry_number(bad):
    with pytest.raises(BadInput):
        parse_step({"kind": "posted", "upto": bad}, Seating(("A", "B", "C", "D", "E")))


def test_round_trip_through_the_log(tmp_path):
    path, _ = _log(tmp_path, 6)
    before = open(path, "rb").read()
    with pytest.raises(RuleBroken):
        mark_posted(path, 99)
    assert open(path, "rb").read() == before
    done = mark_posted(path, 6)
    assert done.entries[0]["kind"] == "posted" and done.entries[0]["upto"] == 6
    assert to_entry(Posted(upto=6), ()) == {"kind": "posted", "upto": 6}
    loaded = store.load(path)
    assert loaded.table.posts == [6] and loaded.chain == []
    assert thread_posts.news(loaded.table) == []


def test_every_step_with_news_records_its_post_and_prints_again_exactly(tmp_path):
    path, sim = _log(tmp_path, 0)
    made = []
    for step in sim.steps[:20]:
        done = store.record(path, lambda _g, s=step: s, at=AT)
        post = thread_posts.recorded_post(done, Plain())
        if post is not None:
            made.append(post)
        assert (post is None) == (done.post is None)
    loaded = store.load(path)
    assert [p.number for p in made] == list(range(1, len(made) + 1)) and len(made) > 3
    for post in made:
        assert thread_posts.earlier_post(loaded, post.number, Plain()).text == post.text
    assert thread_posts.listing(loaded) == [(p.number, p.first, p.upto) for p in made]
    with pytest.raises(BadInput, match=f"no post {len(made) + 1}"):
        thread_posts.earlier_post(loaded, len(made) + 1, Plain())


def test_an_earlier_post_prints_again_after_a_replacement(tmp_path):
    """Entries before a replacement name the player who left (R-REPLACE)."""
    path, sim = _log(tmp_path, 0)
    made = [thread_posts.recorded_post(store.record(path, lambda _g, s=step: s, at=AT), Plain())
            for step in sim.steps[:12]]
    post = [p for p in made if p is not None][-1]
    president = store.load(path).table.game.president
    store.record(path, lambda _g: Replace(target=president, name="Newcomer"), at=AT)
    assert thread_posts.earlier_post(store.load(path), post.number, Plain()).text == post.text



def test_an_earlier_post_prints_again_without_a_correction_players_never_saw(tmp_path):
    """Issue 35: a vote voided before anyone saw it is left out of the tally's post
    (R-CORRECT); `post --again` printed the correction's notice in it all the same (the main
    of 23f640b), so the post printed again was not the post pasted."""
    from shmod.forum.steps import Correct
    from shmod.game.steps import Vote

    path, sim = _log(tmp_path, 0)
    first = next(n for n, step in enumerate(sim.steps) if isinstance(step, Vote))
    for step in sim.steps[:first + 1]:
        store.record(path, lambda _g, s=step: s, at=AT)
    store.record(path, lambda g: Correct((len(g.log.entries),), "typo"), at=AT)  # the vote
    post = None
    for step in sim.steps[first:]:  # the same vote again, then on to the tally's post
        post = thread_posts.recorded_post(store.record(path, lambda _g, s=step: s, at=AT), Plain())
        if post is not None:
            break
    assert post is not None and "Correction" not in post.text
    assert thread_posts.earlier_post(store.load(path), post.number, Plain()).text == post.text
