"""R-CORRECT and R-THREAD together: a correction keeps the posts already marked."""
from shmod.core.steps import Step
from shmod.log import game
from shmod.texts import posts

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def mark_posted(path, upto):
    """Record a ``posted`` entry for entry ``upto``, with its checkpoint where there is one."""
    return game.record(path, lambda g: Step("posted", upto=upto, checkpoint=(
        g.heads[upto] if upto < len(g.heads) else None)))


def test_a_correction_after_a_marked_post_keeps_the_mark(tmp_path):
    path = str(tmp_path / "g.yaml")
    game.new_game(path, NAMES, seed="s7")  # Fay is the first Presidential Candidate
    game.record(path, lambda g: Step("nominate", by=5, target=6))
    mark_posted(path, 1)
    game.record(path, lambda g: Step("vote", by=0, vote=True))
    before = game.load(path).state
    assert before.posts == [1] and 0 in before.votes

    game.record(path, lambda g: Step("correct", entries=(3,), text="wrong player's vote"))

    after = game.load(path).state
    assert after.posts == [1]
    assert after.votes == {}
    assert after.phase == "vote"
