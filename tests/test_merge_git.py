"""Issue 37 with real git: two moderators, each in their own clone of one repository and
their own terminal (their own ``SHMOD_CACHE``), record through the installed ``shmod`` and
share the log with ``git pull`` and ``git push``; ``shmod git-setup`` names shmod's merge
driver (R-MERGE).

Commuting steps merge and the merged log audits VALID; every kind of conflict (the same
vote with different values, a step that no longer applies) is refused (both copies posting
is a race that merges: tests/test_post_race.py), with the working file holding yours exactly and theirs as pushed; the log is
mode 0600 after every merge and checkout; a file under the pattern that is not a log is
merged by git as text. A whole game moderated by two, with a hand-over in the middle and
one conflict resolved, audits VALID against its thread and lists who recorded what.
"""
from __future__ import annotations

import random
import shutil
import stat

import pytest
from clones import DAY2, DAY3, LOG, NAMES, Clone, bare, pair as shared_pair
from installed import SHMOD

from shmod.audit.random_games import command_for, random_game
from shmod.game.steps import Reshuffle, Vote
from shmod.log import store
from shmod.texts import thread_posts
from shmod.texts.formats import Plain

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def pair(tmp_path):  # type: ignore[no-untyped-def]
    """Mia's and Ned's clones, the first ballot open (clones.pair)."""
    return shared_pair(tmp_path)


def test_git_setup_writes_the_attributes_the_driver_and_hooks_that_keep_the_log_private(pair):
    _, ned = pair
    assert (ned.folder / ".gitattributes").read_text() == "/games/*.yaml merge=shmod\n"
    driver = ned.git("config", "merge.shmod.driver").stdout.strip()
    assert driver == f"{SHMOD} merge-driver %O %A %B %P"
    hooks = ned.folder / ".git" / "hooks"
    assert all((hooks / name).stat().st_mode & stat.S_IXUSR
               for name in ("post-merge", "post-checkout", "post-rewrite"))
    assert stat.S_IMODE(ned.log.stat().st_mode) == 0o600  # made private at once
    ned.log.chmod(0o644)
    ned.git("checkout", "-q", "-b", "elsewhere")  # a checkout: the hook runs
    assert stat.S_IMODE(ned.log.stat().st_mode) == 0o600
    (hooks / "post-rewrite").write_text("#!/bin/sh\necho a hook of its own\n")
    again = ned.shmod("git-setup").stderr  # twice: nothing written twice
    assert "already names shmod's merge driver" in again
    assert (ned.folder / ".gitattributes").read_text() == "/games/*.yaml merge=shmod\n"
    assert "hook post-rewrite exists already: add the line" in again
    assert (hooks / "post-rewrite").read_text() == "#!/bin/sh\necho a hook of its own\n"


def test_votes_of_different_players_merge_on_pull_and_the_log_audits_valid(pair):
    mia, ned = pair
    mia.shmod("vote", "Ann", "ja", "Bob", "ja")
    mia.share()
    ned.now = DAY2
    ned.shmod("vote", "Cat", "nein")
    ned.shmod("prods")
    ned.git("commit", "-qam", "Cat's vote, prods")
    pulled = ned.pull()
    assert "entries of theirs applied after yours" in pulled.stderr + pulled.stdout
    assert stat.S_IMODE(ned.log.stat().st_mode) == 0o600  # post-merge hook
    ned.git("push", "-q")
    mia.pull()
    assert mia.log.read_bytes() == ned.log.read_bytes()
    audit = ned.shmod("audit", LOG, code=0).stdout
    # Ned's copy stays as it was (his vote, his prods of the four still to vote), Mia's
    # votes follow it
    assert ": VALID" in audit and "Recorded by: Mia: entries 1-3, 9-10; Ned: entries 4-8" in audit
    mia.shmod("vote", "Dan", "ja", "Eve", "ja")  # both terminals record on the merged log
    mia.share()
    ned.now = DAY3
    ned.pull()
    ned.shmod("deadline", "48h")


def _conflict(mia: Clone, ned: Clone, mine: list[list[str]], theirs: list[list[str]]) -> str:
    """Mia records and pushes; Ned records, commits and pulls: refused. Ned's working file
    is his copy byte for byte, theirs is Mia's as pushed; the refusal's words."""
    for args in mine:
        mia.shmod(*args)
    mia.share()
    pushed = mia.log.read_bytes()
    ned.now = DAY2
    for args in theirs:
        ned.shmod(*args)
    ned.git("commit", "-qam", "Ned's steps")
    held = ned.log.read_bytes()
    pulled = ned.pull(code=1)
    said = pulled.stdout + pulled.stderr
    assert "CONFLICT" in said and "R-MERGE" in said
    assert ned.log.read_bytes() == held
    assert ned.git("show", f"MERGE_HEAD:{LOG}").stdout.encode() == pushed
    assert stat.S_IMODE(ned.log.stat().st_mode) & 0o077 == 0
    return said


def test_the_same_vote_with_different_values_is_refused(pair):
    said = _conflict(*pair, [["vote", "Cat", "ja"]], [["vote", "Cat", "nein"]])
    assert "the same vote was recorded on both copies with different values" in said
    assert "(vote Cat nein, recorded by Ned at 2026-11-24T10:00:00Z)" in said
    assert "(vote Cat ja, recorded by Mia at 2026-11-23T10:00:00Z)" in said
    assert f"git checkout --theirs {LOG}" in said


def test_a_step_that_no_longer_applies_is_refused(pair):
    said = _conflict(*pair, [["vote", *[w for n in NAMES for w in (n, "ja")]]], [["prods"]])
    assert "no longer applies" in said and "R-STALL" in said


def test_a_file_under_the_pattern_that_is_no_log_is_merged_as_text(pair):
    mia, ned = pair
    notes = "games/notes.yaml"
    (mia.folder / notes).write_text("a: 1\nb: 2\nc: 3\n")
    mia.git("add", notes)
    mia.share()
    ned.pull()
    (mia.folder / notes).write_text("a: 10\nb: 2\nc: 3\n")
    mia.share()
    (ned.folder / notes).write_text("a: 1\nb: 2\nc: 30\n")
    ned.git("commit", "-qam", "notes")
    ned.pull()
    assert (ned.folder / notes).read_text() == "a: 10\nb: 2\nc: 30\n"


def _short_game() -> tuple[str, str, list[list[str]]]:
    """A short random five-player game (seed, first President, the commands that play it,
    votes of one ballot in one command), found among fixed seeds."""
    for number in range(400):
        sim = random_game(5, random.Random(number))
        names = tuple(sim.header["players"])
        commands: list[list[str]] = []
        for step in sim.steps:
            if isinstance(step, Reshuffle):
                continue  # a seeded game's reshuffles are recorded with the step that needs them
            if isinstance(step, Vote) and commands and commands[-1][0] == "vote":
                commands[-1] += command_for(step, names)[1:]
            else:
                commands.append(command_for(step, names))
        if len(commands) <= 16 and sum(c[0] == "vote" for c in commands) >= 4:
            return sim.header["secret"]["seed"], sim.header["first_president"], commands
    raise AssertionError("no short game among 400 seeds")


def _pairs_of(args: list[str]) -> list[list[str]]:
    return [args[i:i + 2] for i in range(1, len(args), 2)]


@pytest.mark.slow  # a whole game through the installed shmod and git: some 60 commands
def test_a_whole_game_of_two_moderators_with_a_hand_over_and_a_conflict_audits_valid(tmp_path):
    """Mia starts; the first ballot's votes come in on both terminals and merge; Ned prods
    the voters of the second ballot while Mia records their votes and the tally (refused:
    Ned takes Mia's copy, and his terminal refuses to write on it until he forgets his
    prods); Mia hands over to Ned halfway, Ned takes over with the hand-over post's line
    and plays to the end. The thread's posts audit VALID, and the audit lists who
    recorded what."""
    seed, first, commands = _short_game()
    origin = bare(tmp_path)
    mia = Clone(tmp_path, "Mia", origin)
    mia.shmod("new", *[f"Player{n}" for n in range(1, 6)], "--seed", seed, "--first", first,
              "--moderator", "Mia", "--moderator", "Ned")
    mia.shmod("git-setup")
    mia.git("add", "-A")
    mia.share("new")
    ned = Clone(tmp_path, "Ned", origin)
    ned.shmod("git-setup")
    ballots = [n for n, args in enumerate(commands) if args[0] == "vote"]
    half = max(len(commands) // 2, ballots[1] + 1)
    for index, args in enumerate(commands[:half]):
        if index == ballots[0]:  # votes on both terminals at once: merged by git pull
            voters = _pairs_of(args)
            mia.shmod("vote", *voters[0], *voters[1])
            mia.share()
            ned.pull()
            ned.shmod("vote", *voters[2])
            ned.git("commit", "-qam", "a vote")
            mia.shmod("vote", *voters[3])
            mia.share()
            assert "applied after yours" in ned.pull().stderr
            ned.git("push", "-q")
            mia.pull()
            mia.shmod("vote", *[w for pair in voters[4:] for w in pair])  # the tally
        elif index == ballots[1]:  # a conflict: Ned's prods against the votes and the tally
            ned.pull()
            ned.shmod("prods")
            ned.git("commit", "-qam", "prods")
            mia.shmod(*args)
            mia.share()
            assert "no longer applies" in ned.pull(code=1).stderr
            ned.git("checkout", "--theirs", LOG)
            ned.git("add", LOG)
            ned.git("commit", "-qm", "Mia's copy stands")
            lost = ned.shmod("deadline", "48h", code=1).stderr
            assert "lacks entries this terminal recorded" in lost and "merge --mine" in lost
            assert "R-STALL" in ned.shmod("merge", "--mine", code=1).stderr
            ned.shmod("merge", "--forget")
            ned.git("push", "-q")
            mia.pull()
        else:
            mia.shmod(*args)
        mia.share()
    handed = mia.shmod("handover", "Ned").stdout
    line = next(row for row in handed.splitlines() if row.startswith("Log checkpoint: post"))
    mia.share("hand-over")
    ned.pull()
    assert "R-HANDOVER" in ned.shmod(*commands[half], code=1).stderr  # not yet taken over
    ned.shmod("handover", "--accept", line)
    for args in commands[half:]:
        ned.shmod(*args)
    ned.share("the rest")
    mia.pull()
    assert "R-HANDOVER" in mia.shmod("deadline", "48h", code=1).stderr
    final = store.load(str(ned.log))
    assert final.table.game.winner is not None
    thread = tmp_path / "thread.txt"
    thread.write_text("\n\n".join(thread_posts.earlier_post(final, n, Plain()).text
                                   for n in range(1, len(final.table.posts) + 1)))
    audit = ned.shmod("audit", LOG, "--thread", str(thread)).stdout
    assert ": VALID" in audit
    recorded = next(row for row in audit.splitlines() if row.startswith("Recorded by: "))
    assert "Mia: entries 1-" in recorded and "Ned: entr" in recorded
    entry = next(n for n, raw in enumerate(final.log.entries, 1) if raw["kind"] == "handover")
    assert f"Hand-over (entry {entry}): Mia to Ned, taken over at entry" in audit
