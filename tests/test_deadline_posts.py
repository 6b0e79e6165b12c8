"""Issue 35, R-DEADLINE and R-THREAD, through the installed ``shmod``: a deadline no longer
makes a numbered post with the whole board. ``shmod deadline 48h`` records it and says
that the next post shows it (the next step's post does, with its time left);
``shmod deadline 48h --post`` (or ``shmod post`` after it) makes a short post of its own:
the deadline line and the checkpoint line, no board. Posts stay the thread's truth: a
short post is recorded (``short: true``), ``shmod post --again`` prints it exactly as it
was, and ``audit --thread`` on the posts as printed finds every checkpoint. A ``posted``
entry that calls a post short when it covers more than a deadline is refused. On the
main of 23f640b every deadline made a whole post.
"""
from __future__ import annotations

import re

import pytest
from installed import SHMOD, Moderator

from shmod.base.errors import RuleBroken
from shmod.forum import engine
from shmod.forum.steps import Posted
from shmod.log import store
from shmod.texts import thread_posts

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
CHECKPOINT = re.compile(r"^Log checkpoint: post \d+ · [0-9a-f]{32} · [0-9a-f]{128}$")

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")


def _posts(mod: Moderator) -> int:
    return len(mod.run("post", "--list").stdout.splitlines())


@pytest.fixture
def mod(tmp_path) -> Moderator:
    m = Moderator(tmp_path)
    m.run("new", *PLAYERS, "--first", "Ann", "--zone", "Europe/Berlin")
    return m


def test_a_deadline_waits_for_the_next_post_which_shows_it(mod):
    done = mod.run("deadline", "48h")
    assert done.stdout == "" and "Post in the thread" not in done.stderr
    assert "Not posted yet: the next post shows it" in done.stderr
    assert _posts(mod) == 1  # the opening post alone
    preview = mod.run("post", "--preview").stdout
    assert "Deadline for this round: 2026-11-25 10:00 UTC (11:00 CET, Europe/Berlin)" in preview
    assert "post (not yet made)" in mod.run("outbox").stdout  # news that waits for a post
    assert mod.run("nominate", "Bob").stdout == ""  # its post waits in the outbox
    nominated = mod.run("post", "--again", "2").stdout
    assert "Candidate Ann nominates Bob" in nominated
    assert "Deadline for this round: 2026-11-25 10:00 UTC (11:00 CET, Europe/Berlin): 2 d " \
           "left." in nominated
    assert _posts(mod) == 2
    assert '"posted"' not in mod.log.read_text() and "short: true" not in mod.log.read_text()


def test_deadline_post_makes_a_short_post_printed_again_exactly(mod):
    mod.run("nominate", "Bob")
    done = mod.run("deadline", "24h", "--phase", "--post")
    assert done.stdout == ""  # the short post waits in the outbox, after posts 1 and 2
    sent = [mod.run("send", "thread") for _ in range(3)][-1]
    assert "post 3 for the thread" in sent.stderr
    lines = sent.stdout.strip().splitlines()
    assert lines[0] == ("Deadline for this phase: 2026-11-24 10:00 UTC (11:00 CET, "
                        "Europe/Berlin): 1 d left.")
    assert lines[1] == "" and CHECKPOINT.match(lines[2]) and len(lines) == 3
    assert "with post 3" in done.stderr
    assert mod.run("post", "--again", "3").stdout.strip() == sent.stdout.strip()
    assert "short: true" in mod.log.read_text()
    mod.run("deadline", "--clear")  # then posted by `shmod post`: short too
    cleared = mod.run("post").stdout.strip().splitlines()
    assert cleared[0] == "Deadline: the deadline is cleared." and len(cleared) == 3
    assert mod.run("post", "--again", "4").stdout.strip().splitlines() == cleared


def test_the_thread_of_short_and_whole_posts_audits(mod, tmp_path):
    mod.run("deadline", "48h", "--post")
    mod.run("nominate", "Bob")
    mod.run("deadline", "12h", "--phase")
    mod.run("vote", *[w for name in PLAYERS for w in (name, "ja")])
    count = _posts(mod)
    assert count == 4  # opening, the deadline's short post, the nomination, the tally
    thread = tmp_path / "thread.txt"
    thread.write_text("\n\n".join(mod.run("post", "--again", str(n)).stdout
                                  for n in range(1, count + 1)))
    audit = mod.run("audit", str(mod.log), "--thread", str(thread)).stdout
    assert ": VALID" in audit and "Thread checkpoints: 4 of 4 match the log" in audit


def test_a_post_called_short_that_covers_more_than_a_deadline_is_refused(mod):
    mod.run("deadline", "48h")
    mod.run("nominate", "Bob")  # entries: deadline 2, nominate 3, its post 4
    loaded = store.load(str(mod.log))
    before = thread_posts.state_at(loaded, 3)
    with pytest.raises(RuleBroken, match="R-THREAD: a short post says a deadline alone"):
        engine.apply(before, Posted(3, short=True))
    engine.apply(before, Posted(3))
    alone = thread_posts.state_at(loaded, 2)  # the deadline alone: a short post may cover it
    engine.apply(alone, Posted(2, short=True))
    assert alone.short_posts == [2]
