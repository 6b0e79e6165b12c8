"""Issue 42: docs/comoderators.md walks two moderators through a game, and every ``sh``
block of it runs, in order, as written, with real git against a local bare repository.

Each block is tagged with the moderator whose terminal it runs in: its fence's info string
is ``sh mia`` or ``sh ned`` (``sh ned refused``: its last command is refused, and every
command before it succeeds), and its first line says so to the reader (``# in Mia's
terminal``). A terminal keeps its folder and its exported variables from
one block to the next, as a shell does: each moderator has a home folder of their own, their
own ``SHMOD_CACHE``, and the installed ``shmod`` on ``PATH``. ``REPO`` is the bare
repository's path (the page tells the reader to set it to their private repository's
address), ``THREAD`` the file standing for the forum thread. The clock moves on one hour a
block (``SHMOD_NOW``), so the post delivered first is the same on every run.

At the end both clones hold the same log, and its audit against the thread the blocks wrote
is VALID.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path
from typing import NamedTuple

import pytest
from clones import bare, git_env
from installed import SHMOD

PAGE = Path(__file__).resolve().parent.parent / "docs" / "comoderators.md"
MODERATORS = ("mia", "ned")
START = datetime(2026, 11, 23, 10, 0)

pytestmark = pytest.mark.skipif(shutil.which("git") is None or not SHMOD.exists(),
                                reason="git or the installed shmod is missing")


class Block(NamedTuple):
    """One ``sh`` block: its line on the page, whose terminal, whether its last command is
    refused, and its text."""

    line: int
    who: str
    refused: bool
    text: str


def blocks() -> list[Block]:
    page = PAGE.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"^```sh([^\n]*)\n(.*?)^```", page, re.MULTILINE | re.DOTALL):
        tag = match.group(1).split()
        line = page.count("\n", 0, match.start()) + 1
        assert tag and tag[0] in MODERATORS, f"docs/comoderators.md:{line}: an sh block " \
            "names the moderator whose terminal runs it (```sh mia, ```sh ned)"
        assert tag[1:] in ([], ["refused"]), f"docs/comoderators.md:{line}: {tag}"
        assert match.group(2).startswith(f"# in {tag[0].capitalize()}'s terminal\n"), \
            f"docs/comoderators.md:{line}: the block's first line says whose terminal it is"
        found.append(Block(line, tag[0], tag[1:] == ["refused"], match.group(2)))
    return found


class Terminal:
    """A moderator's terminal: a folder it is in and the variables it exported."""

    def __init__(self, root: Path, who: str, env: dict[str, str]) -> None:
        self.home = root / f"{who}-home"
        self.home.mkdir()
        self.state = root / f"{who}.state"
        self.env = {**env, "SHMOD_CACHE": str(root / f"cache-{who}")}
        self.state.write_text(f"cd {self.home}\n")

    def run(self, text: str, now: str) -> subprocess.CompletedProcess[str]:
        """``text`` run by bash in this terminal (``set -e``), its folder and exports kept."""
        script = (f"source {self.state}\nexport SHMOD_NOW={now}\nset -e\n{text}\nset +e\n"
                  f"{{ export -p; echo cd \"$PWD\"; }} > {self.state}\n")
        return subprocess.run(["bash", "-c", script], env=self.env, text=True,
                              capture_output=True, timeout=120)


def _last_command(text: str) -> tuple[str, str]:
    """A block's text before its last command line, and that line."""
    lines = text.rstrip("\n").split("\n")
    return "\n".join(lines[:-1]), lines[-1]


@pytest.fixture(scope="module")
def walked(tmp_path_factory) -> dict[str, object]:
    root = tmp_path_factory.mktemp("walk")
    origin = bare(root)
    env = {**git_env(root), "PATH": f"{SHMOD.parent}:/usr/bin:/bin", "REPO": str(origin),
           "THREAD": str(root / "thread.txt"), "COLUMNS": "100"}
    terminals = {who: Terminal(root, who, env) for who in MODERATORS}
    said: list[tuple[Block, subprocess.CompletedProcess[str]]] = []
    for number, block in enumerate(blocks()):
        now = (START + timedelta(hours=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        terminal = terminals[block.who]
        if block.refused:
            before, last = _last_command(block.text)
            done = terminal.run(before, now)
            assert done.returncode == 0, (block, done.stdout, done.stderr)
            done = terminal.run(last, now)
            assert done.returncode != 0, (block, done.stdout, done.stderr)
        else:
            done = terminal.run(block.text, now)
            assert done.returncode == 0, (block, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        said.append((block, done))
    return {"root": root, "said": said}


def test_every_sh_block_names_its_moderator_and_both_take_part():
    found = blocks()
    assert len(found) >= 10
    assert {block.who for block in found} == set(MODERATORS)
    assert any(block.refused for block in found)


def test_the_walk_runs_and_ends_with_one_log_that_audits_valid_against_its_thread(walked):
    root = walked["root"]
    assert isinstance(root, Path)
    logs = [(root / f"{who}-home" / "friday" / "games" / "friday.yaml").read_bytes()
            for who in MODERATORS]
    assert logs[0] == logs[1]
    said = walked["said"]
    assert isinstance(said, list)
    audits = [done.stdout for block, done in said if "shmod audit" in block.text]
    assert audits and ": VALID" in audits[-1]
    assert "post 4: the version withdrawn after a race" in audits[-1]


def test_what_the_page_shows_is_what_the_commands_say(walked):
    """The outputs the page quotes (its ``text`` blocks that begin with ``shmod:`` or
    ``Error:``, wrapped to the page's width) are what the blocks printed, word for word."""
    page = PAGE.read_text(encoding="utf-8")
    said = walked["said"]
    assert isinstance(said, list)
    printed = " ".join(" ".join((done.stdout + done.stderr).split()) for _, done in said)
    quoted = [m.group(1) for m in re.finditer(r"^```text\n((?:shmod:|Error:).*?)^```", page,
                                               re.MULTILINE | re.DOTALL)]
    assert len(quoted) >= 3
    for text in quoted:
        assert " ".join(text.split()) in printed, text
