"""R-THREAD / R-PM: the thread's view does not depend on anything hidden. The same steps
played with other hidden roles, or with other votes not yet complete, give the same
public record and byte-identical posts in every format; only the PMs differ."""
import copy

from scripted import Table, forum_table, play

from shmod.game.terms import VOTE
from shmod.texts import formats, game_texts, thread_posts, views


def thread(state, public):
    """What a moderator would post (the post over these events, or the progress note while
    votes come in), in all formats; checkpoints aside (keyed: shmod.log.checkpoints)."""
    view = views.public_view(state)
    return [(thread_posts.render(state, public, formats.get(name)),
             game_texts.pending_vote_text(view, formats.get(name)))
            for name in ("plain", "markdown", "bbcode")]


def test_thread_does_not_depend_on_hidden_roles():
    played, _ = play(9, "six-fascist")  # investigations, a special election, two executions
    s = played.game
    executed = [s.players[x] for x, up in enumerate(s.alive) if not up]
    fascist = next(n for n, r in played.header["secret"]["roles"].items() if r == "fascist")
    swapped = copy.deepcopy(played.header)
    roles = swapped["secret"]["roles"]
    roles[executed[0]], roles[fascist] = roles[fascist], roles[executed[0]]
    assert roles != played.header["secret"]["roles"]
    a, b = Table(played.header, forum=True), Table(swapped, forum=True)
    for step in played.steps:
        seen = len(a.state.public), len(b.state.public)
        a.apply(step)
        b.apply(step)
        new_a, new_b = a.state.public[seen[0]:], b.state.public[seen[1]:]
        assert new_a == new_b
        assert views.public_view(a.state) == views.public_view(b.state)  # status, too
        assert thread(a.state, new_a) == thread(b.state, new_b)
    assert a.state.secrets != b.state.secrets  # the PMs did differ: role PMs, investigations


def test_thread_does_not_depend_on_votes_before_all_are_in():
    a, b = forum_table(7), forum_table(7)
    for t, ballot in ((a, True), (b, False)):
        t.nominate("Bob")
        for name in ("Ann", "Cat", "Dan"):
            t.vote(name, ballot)
    assert a.game.phase == b.game.phase == VOTE and a.game.votes != b.game.votes
    assert views.public_view(a.state) == views.public_view(b.state)
    assert thread(a.state, []) == thread(b.state, [])


def test_thread_does_not_depend_on_the_undrawn_deck():
    a, b = forum_table(5, deck="LFF" + "FLF" + "LLL"), forum_table(5, deck="LFF" + "FLF" + "FFF")
    for t in (a, b):
        t.session("Bob", "L", "F")
        t.session("Cat", "F", "L")
    assert a.game.draw != b.game.draw
    assert views.public_view(a.state) == views.public_view(b.state)
    assert thread(a.state, a.state.public) == thread(b.state, b.state.public)
