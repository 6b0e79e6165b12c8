"""Issue 40, Done when §2: a whole game through the installed ``shmod`` from an empty
folder, every text taken from the outbox with ``shmod send``, one item at a time, to the
end with nothing owed. The thread, assembled from the posts as ``send`` gave them, audits
VALID against the log with ``--thread`` (every checkpoint found); every PM was delivered
exactly once, to its own player; no recording command printed anything on stdout.
Marked ``slow``: some 300 commands, each a process of its own (CI runs it).
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from installed import SHMOD, Moderator

from shmod.audit.random_games import command_for
from shmod.forum.corrections import voided
from shmod.forum.turns import legal_steps
from shmod.game.steps import Reshuffle, Vote
from shmod.game.terms import OVER
from shmod.log import logfile, outbox, store

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
ADDRESS = re.compile(r"^(PM to (.+) · subject \"(.*)\"|post (\d+) for the thread .*)$", re.M)

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")


def _deliver_all(mod: Moderator, posts: list[str], pms: list[tuple[str, str]]) -> int:
    """``shmod send`` until nothing is owed; each text kept where it went."""
    for given in range(200):
        done = mod.run("send")
        if "Nothing is owed" in done.stderr:
            assert done.stdout == ""
            return given
        found = ADDRESS.search(done.stderr)
        assert found, done.stderr
        if found.group(4):
            assert int(found.group(4)) == len(posts) + 1  # posts in their order, once each
            posts.append(done.stdout)
        else:
            pms.append((found.group(2), done.stdout))
        assert "Recorded" in done.stderr
    raise AssertionError("the outbox never emptied")


@pytest.mark.slow  # some 300 commands through the installed shmod (CI runs it)
def test_a_whole_game_from_the_outbox_to_nothing_owed(tmp_path):
    mod = Moderator(tmp_path)
    made = mod.run("new", *NAMES, "--first", "Ann", "--forum", "bbcode")
    assert made.stdout == "" and "Outbox: 7 owed · next: PM to Ann · shmod send" in made.stderr
    posts: list[str] = []
    pms: list[tuple[str, str]] = []
    assert _deliver_all(mod, posts, pms) == 7
    assert [to for to, _ in pms] == NAMES and len(posts) == 1  # the roles, then post 1
    rng = random.Random(40)
    for turn in range(400):
        state = store.load(str(mod.log)).table
        if state.game.phase == OVER:
            break
        options = [s for s in legal_steps(state) if not isinstance(s, Reshuffle)]
        step = rng.choice([s for s in options if not isinstance(s, Vote) or s.vote] or options)
        done = mod.run(*command_for(step, state.game.players))
        assert done.stdout == "" and "Outbox: " in done.stderr  # nothing to paste: the outbox
        if turn == 2:  # a deadline in its own short post, and prods for whoever is awaited
            assert mod.run("deadline", "48h", "--post").stdout == ""
            assert mod.run("prods").stdout == ""
        _deliver_all(mod, posts, pms)
    loaded = store.load(str(mod.log))
    assert loaded.table.game.phase == OVER
    assert "Outbox: nothing owed." in mod.run("status").stdout
    assert outbox.owed(loaded) == []

    # the thread as the posts were given: it pins the whole log
    assert len(posts) == len(loaded.table.posts) > 10
    thread = tmp_path / "thread.txt"
    thread.write_text("\n\n".join(posts))
    audit = mod.run("audit", str(mod.log), "--thread", str(thread)).stdout
    assert ": VALID" in audit, audit
    assert f"Thread checkpoints: {len(posts)} of {len(posts)} match the log" in audit

    # every PM once, to its own player, as the game sent it
    entries = logfile.read(str(mod.log)).entries
    delivered = Counter((e["of"], e["to"], e["what"], e.get("n", 1))
                        for e in entries if e["kind"] == "delivered")
    assert set(delivered.values()) == {1}
    gone = voided(loaded.table)
    items = outbox.items(loaded)
    sent = [item for item in items if item.secret is not None and item.entry not in gone]
    assert len(sent) == len([s for s in loaded.table.secrets if s.entry not in gone])
    assert all(len(item.delivered) == 1 and item.delivered[0].to == item.to for item in sent)
    assert Counter(to for to, _ in pms) == Counter(item.to for item in items
                                                   if item.what != outbox.POST)
    for to, text in pms:  # a PM's text on stdout was its player's alone
        assert "Log checkpoint" not in text
        others = [n for n in NAMES if n != to]
        assert not any(f"PM to {n}" in text for n in others)
