"""The README a newcomer reads in a minute (issue 45 §4): at most 150 lines, what shmod does
first, then its two commands (the second runs the checks ``.ci/run`` runs), then a first
game whose screen is what shmod prints.

The first game is the README's ``console`` block, run through the installed ``shmod`` in an
empty folder: each ``$`` line by the shell on a pseudo-terminal of its own, as on the
moderator's screen (stdout and stderr both the terminal; ``shmod send`` walks the outbox,
and the test presses Enter at each item). What the terminal shows must be the README's
lines, byte for byte, except:

- a line starting with ``⋮`` stands for whole items of ``shmod send``'s walk left out: the
  README shows the items whose frame it shows (by their ``ENTRY:NAME``), and a ``⋮`` line
  where the walk gave others;
- a value of 32 hex digits or more (the commitment, the moderator's public key, a
  checkpoint) is drawn afresh for every game: only its length is compared.

Chance decides who is the first President and who is dealt which role: the test deals
again, with the README's own ``shmod new``, until Eve is the first President and Ann a
Liberal, as in the README's game. The clock is fixed (``SHMOD_NOW``), so the outbox's ages
read "just now". ``SHMOD_UPDATE_SNAPSHOTS=1`` writes what the terminal showed into the
README, keeping its ``⋮`` lines: read the diff before committing it.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from installed import DAY1, SHMOD
from terminal import on_a_terminal

from shmod.log import outbox, store

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FIRST, ANN = "Eve", "liberal"  # the README's game: Eve the first President, Ann a Liberal
ITEM = re.compile(r"── .* \((\d+:\S+)\) · \d+ owed ─+")  # a walked item's frame
HEX = re.compile(r"\b[0-9a-f]{32,}\b")
PROMPT = "then press Enter (Ctrl-C stops: the rest stays owed).\r\n"  # Enter once the line is whole


def test_the_readme_leads_with_what_shmod_does_then_its_two_commands():
    text = README.read_text()
    lines = text.splitlines()
    assert len(lines) <= 150, len(lines)
    assert lines[0].startswith("# shmod") and lines[1] == "" and lines[2].startswith("shmod ")
    blocks = re.findall(r"^```(\w+)\n", text, flags=re.M)
    assert blocks[:3] == ["sh", "sh", "console"]  # the two commands, then the first game


def test_the_readme_test_command_runs_what_ci_runs():
    second = re.findall(r"```sh\n(.*?)\n```", README.read_text(), flags=re.S)[1]
    checks = second.split(" && ")[2:]  # after making the environment and installing
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert checks == [line for line in ci if line.startswith(".venv/bin/python -m ")
                      and " pip " not in line]
    assert [c.split()[2] for c in checks] == ["mypy", "ruff", "pytest"]


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")
def test_the_first_game_shows_what_shmod_prints(tmp_path):
    text = README.read_text()
    block = re.search(r"```console\n(.*?)```\n", text, flags=re.S)
    assert block, "the README has no first game"
    shown = block.group(1)
    screen = _play(tmp_path, shown)
    if os.environ.get("SHMOD_UPDATE_SNAPSHOTS"):
        README.write_text(text.replace(shown, screen))
    assert HEX.sub(_digits, shown) == HEX.sub(_digits, screen)


def _digits(match: re.Match[str]) -> str:
    return f"<{len(match.group())} hex digits>"


def _play(folder: Path, shown: str) -> str:
    """The README's screen as this game shows it: each command and what the terminal
    showed, in the README's form (its ``⋮`` lines for the items it leaves out)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")
           and k not in ("COLUMNS", "LINES", "DISPLAY", "WAYLAND_DISPLAY", "TMUX")}
    env.update(SHMOD_NOW=DAY1, SHMOD_CACHE="off", TERM="xterm",
               PATH=f"{SHMOD.parent}{os.pathsep}{os.environ['PATH']}")
    commands = re.split(r"^\$ (.*)\n", shown, flags=re.M)
    assert commands[0] == "", "the screen starts with a command"
    screen = ""
    for line, lines in zip(commands[1::2], commands[2::2]):
        screen += f"$ {line}\n"
        words = shlex.split(line)
        if words[0] == "export":  # the shell keeps it for the commands after it
            name, value = words[1].split("=", 1)
            env[name] = value
            continue
        log = folder / env["SHMOD_GAME"]
        keys = []
        if words[:2] == ["shmod", "send"]:  # Enter at every item, once its prompt is whole
            keys = [(PROMPT, b"\r")] * len(outbox.owed(store.load(str(log))))
        for _ in range(300):  # a new game: dealt until it is the README's
            code, seen = on_a_terminal(folder, line, env, keys)
            if words[:2] != ["shmod", "new"] or _dealt_as_shown(log):
                break
            shutil.rmtree(log.parent)
        out = seen.decode().replace("\r\n", "\n")
        assert code == 0 and "Traceback" not in out, (line, out)
        screen += _as_shown(out, lines)
    return screen


def _dealt_as_shown(log: Path) -> bool:
    state = store.load(str(log)).table.game
    return state.players[state.president] == FIRST and state.roles[0] == ANN


def _as_shown(out: str, shown: str) -> str:
    """``out`` with the walked items the README leaves out replaced by its ``⋮`` line there
    (a bare ``⋮`` where it has none)."""
    kept = {m.group(1) for m in ITEM.finditer(shown)}
    gaps: dict[str | None, str] = {}  # the item shown before each ⋮ line
    before: str | None = None
    for line in shown.splitlines():
        if ITEM.fullmatch(line):
            before = ITEM.fullmatch(line).group(1)  # type: ignore[union-attr]
        elif line.startswith("⋮"):
            gaps[before] = line
    lines, result, before, skipping = out.splitlines(), [], None, False
    for i, line in enumerate(lines):
        frame = ITEM.fullmatch(line)
        if frame:
            skipping = frame.group(1) not in kept
            if skipping and (not result or not result[-1].startswith("⋮")):
                result.append(gaps.get(before, "⋮"))
            if not skipping:
                before = frame.group(1)
        elif skipping and _ends_the_walk(lines, i):
            skipping = False
        if not skipping:
            result.append(line)
    return "".join(f"{line}\n" for line in result)


def _ends_the_walk(lines: list[str], i: int) -> bool:
    """Whether line ``i`` is the walk's last word, after its last item."""
    return not any(ITEM.fullmatch(line) for line in lines[i:]) and \
        lines[i - 1] == "" and lines[i - 2].startswith("Recorded ")
