"""Issue 42 with real git: ``git pull`` as docs/comoderators.md shows it, in both flavours,
on clones of one local bare repository set up with ``shmod git-setup``.

- Plain ``git pull`` joins diverged clones: git-setup sets ``pull.rebase=false`` (on main
  git 2.27+ refused: "Need to specify how to reconcile divergent branches"), unless the
  moderator chose ``pull.rebase`` or ``pull.ff``, and says which.
- ``git pull --rebase`` with shmod's hooks never stops on the log. The cause: the
  post-checkout hook ran in the middle of the rebase and changed the log's mode (so its
  ctime); the rebase's index still held the stat data of the file as git wrote it, and the
  next pick refused with "Your local changes … would be overwritten" whenever the hook
  crossed a second (4 of 6 tries on a trial machine). Here the hook is delayed by a second,
  as on a busy machine, so that on main every try stopped.
- "yours" is this clone's commits under merge and rebase alike (a rebase hands the driver
  the other's copy as %A), and the moved entries are the ones the message says.
- A step recorded alike on both terminals (one PM, two moderators) is counted once and
  blocks neither terminal afterwards, under merge and rebase; ``merge --mine`` says what
  happened.
"""
from __future__ import annotations

import shutil
import stat

import pytest
from clones import DAY2, DAY3, LOG, Clone, pair as shared_pair

from shmod.log import store

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
FLAVOURS = {"merge": ("--no-rebase",), "rebase": ("--rebase",), "as configured": ()}


@pytest.fixture
def pair(tmp_path):  # type: ignore[no-untyped-def]
    return shared_pair(tmp_path)


def _diverge(mia: Clone, ned: Clone, mine: list[str], theirs: list[str]) -> None:
    """Mia records and pushes; Ned, later, records and commits."""
    mia.shmod(*mine)
    mia.share()
    ned.now = DAY2
    ned.shmod(*theirs)
    ned.git("commit", "-qam", "Ned's step")


def test_plain_git_pull_joins_diverged_clones_after_git_setup(pair):
    mia, ned = pair
    assert ned.git("config", "--local", "pull.rebase").stdout.strip() == "false"
    _diverge(mia, ned, ["vote", "Ann", "ja"], ["vote", "Cat", "nein"])
    pulled = ned.git("pull")  # exactly as the docs show it
    assert "entry of yours applied after theirs" in pulled.stderr
    ned.git("push", "-q")
    mia.pull()
    assert mia.log.read_bytes() == ned.log.read_bytes()


def test_git_setup_says_it_set_the_pull_strategy_and_leaves_one_the_moderator_chose(tmp_path):
    _, ned = shared_pair(tmp_path)
    assert "git config pull.rebase false: `git pull` merges" in Clone(
        tmp_path, "Kai", tmp_path / "origin.git").shmod("git-setup").stderr
    assert "pull.rebase=false set already: left as it is" in ned.shmod("git-setup").stderr
    ola = Clone(tmp_path, "Ola", tmp_path / "origin.git")
    ola.git("config", "pull.rebase", "true")
    assert "pull.rebase=true set already: left as it is" in ola.shmod("git-setup").stderr
    assert ola.git("config", "--local", "pull.rebase").stdout.strip() == "true"
    pia = Clone(tmp_path, "Pia", tmp_path / "origin.git")
    pia.git("config", "--global", "pull.ff", "only")  # the user's own, for every repository
    assert "pull.ff=only set already" in pia.shmod("git-setup").stderr
    assert pia.git("config", "--local", "pull.rebase", code=1).stdout == ""


def test_git_pull_rebase_with_shmods_hooks_never_stops_on_the_log(pair):
    mia, ned = pair
    hook = ned.folder / ".git" / "hooks" / "post-checkout"
    body = hook.read_text().splitlines()
    hook.write_text("\n".join([body[0], "sleep 1", *body[1:]]) + "\n")  # a busy machine
    for attempt in range(3):
        mia.now = f"2026-11-23T1{attempt}:00:00Z"
        ned.now = f"2026-11-24T1{attempt}:00:00Z"
        mia.shmod("prods")
        mia.shmod("outbox", "--settle")  # sent: a prod is made again once delivered
        mia.share()
        ned.shmod("prods")
        ned.shmod("outbox", "--settle")
        ned.git("commit", "-qam", "Ned's prods")
        pulled = ned.pull("--rebase")
        assert "Successfully rebased" in pulled.stderr + pulled.stdout
        assert "would be overwritten" not in pulled.stderr
        assert ned.git("status", "--porcelain").stdout == ""
        assert stat.S_IMODE(ned.log.stat().st_mode) == 0o600  # post-rewrite did it
        ned.git("push", "-q")
        mia.pull()
    assert store.load(str(ned.log)).table.game.round == 1


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_yours_is_this_clones_commits_under_merge_and_rebase(pair, flavour):
    mia, ned = pair
    _diverge(mia, ned, ["vote", "Ann", "ja"], ["vote", "Cat", "nein"])
    said = ned.pull(*FLAVOURS[flavour]).stderr
    # Mia's vote was recorded first: hers stays, Ned's (his clone's: yours) moves after it
    assert f"shmod: {LOG}: 1 entry of yours applied after theirs and chained anew as entry " \
        "5" in said, said
    log = store.load(str(ned.log)).log
    assert [(e["kind"], e.get("by"), e["mod"]) for e in log.entries[3:]] == [
        ("vote", "Ann", "Mia"), ("vote", "Cat", "Ned")]


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_step_recorded_alike_on_both_terminals_blocks_neither(pair, flavour):
    mia, ned = pair
    _diverge(mia, ned, ["vote", "Cat", "ja"], ["vote", "Cat", "ja", "Dan", "nein"])
    said = ned.pull(*FLAVOURS[flavour]).stderr
    assert "1 step recorded alike on both copies counted once: entry 4 (vote Cat ja, " \
        "recorded by Mia" in said, said
    again = ned.shmod("merge", "--mine").stderr  # what Ned's terminal wrote is all there
    assert "the log already holds every step of what this terminal last wrote" in again
    assert "recorded alike on both copies counted once" in again
    ned.shmod("vote", "Eve", "ja")  # Ned's terminal records on the merged log
    ned.share()
    mia.pull()
    mia.now = DAY3
    mia.shmod("vote", "Ann", "ja")  # and so does Mia's
    votes = [(e["by"], e["vote"], e["mod"]) for e in store.load(str(mia.log)).log.entries
             if e["kind"] == "vote"]
    assert votes == [("Cat", "ja", "Mia"), ("Dan", "nein", "Ned"), ("Eve", "ja", "Ned"),
                     ("Ann", "ja", "Mia")]


def test_a_refusal_during_a_rebase_names_the_copies_and_the_way_out_as_git_has_them(pair):
    mia, ned = pair
    _diverge(mia, ned, ["vote", "Cat", "ja"], ["vote", "Cat", "nein"])
    said = ned.pull("--rebase", code=1).stderr
    assert "theirs goes on with entry 4 (vote Cat ja, recorded by Mia" in said
    assert "yours with entry 4 (vote Cat nein, recorded by Ned" in said
    assert "the file holds theirs (a rebase replays your commits on top of theirs)" in said
    assert f"take yours (`git checkout --theirs {LOG} && git add {LOG}`: during a rebase git " \
        "calls yours theirs), then `git rebase --continue`" in said
    ned.git("rebase", "--abort")
    assert [e.get("vote") for e in store.load(str(ned.log)).log.entries
            if e["kind"] == "vote"] == ["nein"]
