"""Issue 37 with real git: two moderators, each in their own clone of one repository and
their own terminal (their own ``SHMOD_CACHE``), record through the installed ``shmod`` and
share the log with ``git pull`` and ``git push``; ``shmod git-setup`` names shmod's merge
driver (R-MERGE).

Commuting steps merge and the merged log audits VALID; every kind of conflict (the same
vote with different values, both copies posting, a step that no longer applies) is
refused, with the working file holding yours exactly and theirs as pushed; the log is
mode 0600 after every merge and checkout; a file under the pattern that is not a log is
merged by git as text. A whole game moderated by two, with a hand-over in the middle and
one conflict resolved, audits VALID against its thread and lists who recorded what.
"""
from __future__ import annotations

import os
import random
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from installed import SHMOD

from shmod.audit.moves import command_for, random_game
from shmod.game.steps import Reshuffle, Vote
from shmod.log import game as games
from shmod.texts import posts
from shmod.texts.formats import Plain

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

DAY1, DAY2, DAY3 = "2026-11-23T10:00:00Z", "2026-11-24T10:00:00Z", "2026-11-25T10:00:00Z"
LOG = "games/friday.yaml"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def _git_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHMOD_", "GIT_"))}
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0",
               GIT_AUTHOR_NAME="mod", GIT_AUTHOR_EMAIL="mod@example.org",
               GIT_COMMITTER_NAME="mod", GIT_COMMITTER_EMAIL="mod@example.org")
    return env


class Clone:
    """One moderator: a clone of the repository and a terminal of their own."""

    def __init__(self, root: Path, name: str, origin: Path) -> None:
        self.name, self.folder = name, root / name.lower()
        self.cache = root / f"cache-{name.lower()}"
        self.env = _git_env(root)
        self.git("clone", "-q", str(origin), str(self.folder), cwd=root)
        self.log = self.folder / LOG
        self.now = DAY1

    def git(self, *args: str, cwd: Path | None = None,
            code: int | None = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["git", *args], cwd=cwd or self.folder, env=self.env, text=True,
                              capture_output=True, timeout=60)
        assert code is None or done.returncode == code, (args, done.stdout, done.stderr)
        return done

    def shmod(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        env = {**self.env, "SHMOD_GAME": LOG, "SHMOD_NOW": self.now, "COLUMNS": "100",
               "SHMOD_CACHE": str(self.cache), "SHMOD_MODERATOR": self.name,
               "SHMOD_SHOW": "1"}  # each step's posts on stdout, as this test reads them
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=env, text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    def share(self, message: str = "steps") -> None:
        self.git("commit", "-qam", message, code=None)  # nothing new: nothing to commit
        self.git("push", "-q")

    def pull(self, code: int = 0) -> subprocess.CompletedProcess[str]:
        return self.git("pull", "--no-rebase", code=code)


@pytest.fixture
def pair(tmp_path):  # type: ignore[no-untyped-def]
    """Mia's and Ned's clones of a private repository holding a game of theirs, Ann's
    nomination of Bob recorded and shared: the first ballot open."""
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True,
                   env=_git_env(tmp_path))
    mia = Clone(tmp_path, "Mia", origin)
    mia.shmod("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    said = mia.shmod("git-setup").stderr
    assert ".gitattributes: /games/*.yaml merge=shmod" in said
    mia.shmod("nominate", "Bob")
    mia.git("add", "-A")
    mia.share("a new game")
    ned = Clone(tmp_path, "Ned", origin)
    ned.shmod("git-setup")
    return mia, ned


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


def test_both_copies_posting_is_refused(pair):
    said = _conflict(*pair, [["deadline", "48h", "--post"]], [["deadline", "72h", "--post"]])
    assert "both copies made a post for the thread" in said


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
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True,
                   env=_git_env(tmp_path))
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
    final = games.load(str(ned.log))
    assert final.state.game.winner is not None
    thread = tmp_path / "thread.txt"
    thread.write_text("\n\n".join(posts.earlier_post(final, n, Plain()).text
                                   for n in range(1, len(final.state.posts) + 1)))
    audit = ned.shmod("audit", LOG, "--thread", str(thread)).stdout
    assert ": VALID" in audit
    recorded = next(row for row in audit.splitlines() if row.startswith("Recorded by: "))
    assert "Mia: entries 1-" in recorded and "Ned: entr" in recorded
    entry = next(n for n, raw in enumerate(final.log.entries, 1) if raw["kind"] == "handover")
    assert f"Hand-over (entry {entry}): Mia to Ned, taken over at entry" in audit
