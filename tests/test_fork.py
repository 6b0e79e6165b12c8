"""Issue 37 without git (R-MERGE): two moderators share a log through a synced folder,
simulated by copying files between their folders; each terminal has its own memory of
what it last wrote (``SHMOD_CACHE``, beside the parse cache, never in the log).

A copy that extends what the terminal last wrote is simply taken, and so is one that
holds its entries chained anew by a merge; one that lacks an entry it wrote is refused in
one line with the log unchanged, naming the way out: ``shmod merge COPY`` (the sync's
conflicted copy), ``--mine`` (what it wrote, back on top) or ``--forget``. A merged log is
written whole and private (0600), and with the cache off nothing is checked. The memory
itself is refused when it is not this user's private file.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

from installed import SHMOD

from shmod.log import logfile

DAY1, DAY2 = "2026-11-23T10:00:00Z", "2026-11-24T10:00:00Z"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


class Terminal:
    """One moderator's computer: a synced folder holding the log, and a cache of its own."""

    def __init__(self, root: Path, who: str, now: str = DAY1) -> None:
        self.folder, self.who, self.now = root / who.lower(), who, now
        self.folder.mkdir(exist_ok=True)
        self.cache = root / f"cache-{who.lower()}"
        self.log = self.folder / "friday.yaml"

    def run(self, *args: str, code: int = 0, cache: str | None = None) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
        env.update(SHMOD_GAME=str(self.log), SHMOD_NOW=self.now, COLUMNS="100",
                   SHMOD_CACHE=cache or str(self.cache), SHMOD_MODERATOR=self.who)
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=env, text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        if code:
            assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
        return done.stderr

    def synced_from(self, other: Terminal) -> None:
        """The sync tool puts the other's file in place of this one."""
        shutil.copyfile(other.log, self.log)
        self.log.chmod(0o600)


def _pair(tmp_path: Path) -> tuple[Terminal, Terminal]:
    mia, ned = Terminal(tmp_path, "Mia"), Terminal(tmp_path, "Ned", DAY2)
    mia.run("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    mia.run("nominate", "Bob")
    ned.synced_from(mia)
    return mia, ned


def test_a_copy_that_extends_what_this_terminal_wrote_is_taken(tmp_path):
    mia, ned = _pair(tmp_path)
    ned.run("vote", "Ann", "ja")
    mia.synced_from(ned)
    mia.run("vote", "Bob", "ja")  # the file grew with Ned's vote: taken


def test_a_copy_that_lost_this_terminals_entries_is_refused_and_merged_back(tmp_path):
    mia, ned = _pair(tmp_path)
    mia.run("vote", "Ann", "ja")
    ned.run("vote", "Cat", "nein")
    conflicted = mia.folder / "friday (Mia's conflicted copy).yaml"
    shutil.copyfile(mia.log, conflicted)  # the sync keeps Mia's copy aside,
    mia.synced_from(ned)  # and puts Ned's in its place
    before = mia.log.read_bytes()
    said = mia.run("vote", "Bob", "ja", code=1)
    assert "this file lacks entries this terminal recorded (R-MERGE)" in said
    assert "from entry 4 (vote Ann ja, recorded by Mia at 2026-11-23T10:00:00Z) on" in said
    assert "the file has entry 4 (vote Cat nein, recorded by Ned at 2026-11-24T10:00:00Z)" \
        in said
    assert "shmod merge --mine" in said and mia.log.read_bytes() == before
    said = mia.run("merge", str(conflicted))  # Mia's vote came first: it stays
    assert "1 entry of the log applied after friday (Mia's conflicted copy).yaml and " \
        "chained anew as entry 5" in said
    assert stat.S_IMODE(mia.log.stat().st_mode) == 0o600
    mia.run("vote", "Bob", "ja")
    votes = [(e["by"], e.get("mod")) for e in logfile.read(str(mia.log)).entries
             if e["kind"] == "vote"]
    assert votes == [("Ann", "Mia"), ("Cat", "Ned"), ("Bob", "Mia")]
    assert ": VALID" in subprocess.run([str(SHMOD), "audit", str(mia.log)], text=True,
                                       capture_output=True).stdout


def test_what_this_terminal_wrote_comes_back_with_merge_mine_or_is_let_go(tmp_path):
    mia, ned = _pair(tmp_path)
    mia.run("vote", "Ann", "ja")
    ned.run("vote", "Cat", "nein")
    mia.synced_from(ned)  # no conflicted copy kept: only Mia's terminal remembers
    assert "1 entry of the log applied after what this terminal last wrote" in \
        mia.run("merge", "--mine")
    ned.synced_from(mia)
    ned.run("vote", "Dan", "ja")  # Ned's vote is there, chained anew after Mia's: taken
    mia.synced_from(ned)
    mia.run("vote", "Eve", "ja")
    ned.run("prods")  # Ned's copy lacks Eve's vote only: it extends what he wrote
    mia.synced_from(ned)
    said = mia.run("deadline", "48h", code=1)
    assert "lacks entries this terminal recorded" in said
    assert "Forgotten" in mia.run("merge", "--forget")
    mia.run("vote", "Eve", "nein")  # recorded again on the file as it is


def test_a_merge_that_cannot_put_this_terminals_steps_back_refuses_both_unchanged(tmp_path):
    mia, ned = _pair(tmp_path)
    mia.run("vote", "Cat", "ja")
    ned.run("vote", "Cat", "nein")
    mia.synced_from(ned)
    before = mia.log.read_bytes()
    said = mia.run("merge", "--mine", code=1)
    assert "recorded on both copies with different values" in said
    assert mia.log.read_bytes() == before


def test_with_the_cache_off_nothing_is_remembered_or_checked(tmp_path):
    mia, ned = _pair(tmp_path)
    mia.run("vote", "Ann", "ja", cache="off")
    ned.run("vote", "Cat", "nein")
    mia.synced_from(ned)
    mia.run("vote", "Bob", "ja", cache="off")
    said = mia.run("merge", "--mine", code=2, cache="off")
    assert "remembers nothing it wrote" in said


def test_a_memory_that_is_not_this_users_private_file_is_no_memory(tmp_path):
    mia, ned = _pair(tmp_path)
    mia.run("vote", "Ann", "ja")
    ned.run("vote", "Cat", "nein")
    memory = next(mia.cache.glob("*.seen"))
    memory.chmod(0o644)  # readable by others: not the cache's
    mia.synced_from(ned)
    mia.run("vote", "Bob", "ja")
    assert stat.S_IMODE(memory.stat().st_mode) == 0o600  # written anew, private
