"""Moderators sharing a game through git, as docs/comoderators.md says (shared by the
tests that run real git): each has a clone of one local bare repository, a terminal of
their own (their own ``SHMOD_CACHE``) and the installed ``shmod``, the clock injected
(``SHMOD_NOW``); and the thread they paste what ``shmod send`` gives into."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from installed import SHMOD

DAY1, DAY2, DAY3 = "2026-11-23T10:00:00Z", "2026-11-24T10:00:00Z", "2026-11-25T10:00:00Z"
LOG = "games/friday.yaml"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def git_env(home: Path) -> dict[str, str]:
    """git with no system or user configuration but what a test writes in ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHMOD_", "GIT_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), GIT_CONFIG_NOSYSTEM="1",
               GIT_TERMINAL_PROMPT="0", GIT_AUTHOR_NAME="mod", GIT_AUTHOR_EMAIL="mod@example.org",
               GIT_COMMITTER_NAME="mod", GIT_COMMITTER_EMAIL="mod@example.org")
    return env


def bare(root: Path) -> Path:
    """A new bare repository, the moderators' shared one."""
    origin = root / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True, env=git_env(root))
    return origin


class Clone:
    """One moderator: a clone of the repository and a terminal of their own."""

    def __init__(self, root: Path, name: str, origin: Path, log: str = LOG) -> None:
        self.name, self.folder = name, root / name.lower()
        self.cache = root / f"cache-{name.lower()}"
        self.env = git_env(root)
        self.git("clone", "-q", str(origin), str(self.folder), cwd=root)
        self.game = log
        self.log = self.folder / log
        self.now = DAY1

    def git(self, *args: str, cwd: Path | None = None,
            code: int | None = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["git", *args], cwd=cwd or self.folder, env=self.env, text=True,
                              capture_output=True, timeout=60)
        assert code is None or done.returncode == code, (args, done.stdout, done.stderr)
        return done

    def terminal(self) -> dict[str, str]:
        """The environment of this moderator's terminal."""
        return {**self.env, "SHMOD_GAME": self.game, "SHMOD_NOW": self.now, "COLUMNS": "100",
                "SHMOD_CACHE": str(self.cache), "SHMOD_MODERATOR": self.name,
                "SHMOD_SHOW": "1"}  # each step's posts on stdout, framed, as the tests read them

    def shmod(self, *args: str, code: int | None = 0,
              program: tuple[str, ...] = (str(SHMOD),)) -> subprocess.CompletedProcess[str]:
        """``shmod ARGS`` in this clone and terminal; ``code`` None: any exit code;
        ``program``: what runs as shmod."""
        done = subprocess.run([*program, *args], cwd=self.folder, env=self.terminal(),
                              text=True, capture_output=True, timeout=60)
        assert code is None or done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    def share(self, message: str = "steps") -> None:
        self.git("commit", "-qam", message, code=None)  # nothing new: nothing to commit
        self.git("push", "-q")

    def pull(self, *flags: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        return self.git("pull", *(flags or ("--no-rebase",)), code=code)


class Thread:
    """The thread as the moderators paste it: each post ``shmod send`` gives, and each
    withdrawal line added, by editing it, to the post it withdraws (R-MERGE)."""

    def __init__(self) -> None:
        self.posts: list[str] = []

    def send_all(self, clone: Clone) -> list[str]:
        """Everything the clone's outbox owes, sent; the addresses, in order."""
        said = []
        while True:
            done = clone.shmod("send")
            if "Nothing is owed" in done.stderr:
                return said
            address = done.stderr.splitlines()[0]
            said.append(address)
            if re.match(r"post \d+ for the thread", address):
                self.posts.append(done.stdout)
            elif address.startswith("withdrawal of post"):
                value = re.search(r"shows ([0-9a-f]{8})…", address)
                assert value is not None, address
                at = next(n for n, text in enumerate(self.posts)
                          if re.search(rf"Log checkpoint: post \d+ · {value.group(1)}", text))
                self.posts[at] += "\n\n" + done.stdout

    def write(self, path: Path) -> Path:
        path.write_text("\n\n".join(self.posts), encoding="utf-8")
        return path


def pair(root: Path) -> tuple[Clone, Clone]:
    """Mia's and Ned's clones of a private repository holding a game of theirs, Ann's
    nomination of Bob recorded and shared: the first ballot open."""
    origin = bare(root)
    mia = Clone(root, "Mia", origin)
    mia.shmod("new", *NAMES, "--first", "Ann", "--moderator", "Mia", "--moderator", "Ned")
    said = mia.shmod("git-setup").stderr
    assert ".gitattributes: /games/*.yaml merge=shmod" in said
    mia.shmod("nominate", "Bob")
    mia.git("add", "-A")
    mia.share("a new game")
    ned = Clone(root, "Ned", origin)
    ned.shmod("git-setup")
    return mia, ned
