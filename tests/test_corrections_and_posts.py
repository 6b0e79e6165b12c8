"""R-CORRECT and R-THREAD together: a correction keeps the posts already made."""
from scripted import AT

from shmod.forum.steps import Correct
from shmod.game.steps import Nominate, Vote
from shmod.log import store

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def test_a_correction_after_a_post_keeps_the_post(tmp_path):
    path = str(tmp_path / "g.yaml")
    store.new_game(path, NAMES, seed="s7", created=AT)  # Fay is the first Presidential Candidate
    done = store.record(path, lambda g: Nominate(by=5, chancellor=6), at=AT)  # entry 2, post 2
    assert done.post is not None and (done.post.number, done.post.upto) == (2, 2)
    voted = store.record(path, lambda g: Vote(by=0, vote=True), at=AT)  # entry 4: no post
    assert voted.post is None
    before = store.load(path).table
    assert before.posts == [0, 2] and 0 in before.game.votes

    store.record(path, lambda g: Correct(entries=(4,), reason="wrong player's vote"), at=AT)

    after = store.load(path).table
    assert after.posts == [0, 2]
    assert after.game.votes == {}
    assert after.game.phase == "vote"
