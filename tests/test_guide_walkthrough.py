"""docs/guide.md's walk-through, run as written through the installed ``shmod`` in an empty
folder (no ``games/`` yet): every line of its ``sh`` blocks, in order, by the shell.

The walk-through shows a game's first steps, not a whole game, so the test plays what it
leaves out between its lines: the other players' votes, the nomination and vote that
``shmod correct`` voids, and the rest of the game before ``shmod reveal``. Two things in
it depend on chance: the first President is drawn at random (the walk-through nominates
Vorret, so Vorret must not be the first President) and so is the first hand (it discards
a Fascist and enacts a Liberal). The test deals again, with the guide's own ``shmod new``,
until the deal allows them, as a moderator whose table looked different would simply
follow along with other names. Only the setup commitment is replaced: the guide shows an
example of the full 64 hex digits, the test audits against its own game's commitment.
"""
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

from shmod.forum.turns import legal_steps
from shmod.game.terms import DISCARD, NOMINATE, OVER
from shmod.log import store

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"
BIN = Path(sys.executable).parent


def walkthrough() -> list[str]:
    text = GUIDE.read_text()
    start = text.index("## A game, step by step")
    part = text[start:text.index("\n## ", start)]
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", part, flags=re.S):
        lines += [line for line in block.splitlines() if line.strip()]
    return lines


class Shell:
    """Runs lines as the moderator's shell would, keeping exported variables."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("SHMOD_") or k == "SHMOD_CACHE"}
        self.env.update(PATH=f"{BIN}{os.pathsep}{self.env.get('PATH', '')}", COLUMNS="100")

    def __call__(self, line: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        words = shlex.split(line, comments=True)
        if words[0] == "export":
            name, value = words[1].split("=", 1)
            self.env[name] = value
            return subprocess.CompletedProcess(words, 0, "", "")
        done = subprocess.run(["bash", "--norc", "-c", line], cwd=self.folder, env=self.env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == code, (line, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    def shmod(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self(shlex.join(["shmod", *args]))


def test_the_guide_walkthrough_runs_verbatim_in_an_empty_folder(tmp_path):
    lines = walkthrough()
    assert lines[0] == "export SHMOD_GAME=games/friday.yaml"
    assert lines[1].startswith("shmod new ")
    shell = Shell(tmp_path)
    shell(lines[0])
    log = tmp_path / "games" / "friday.yaml"
    rest = lines[2:]
    for _ in range(200):  # deal until the walk-through's nominee and hand fit the deal
        created = shell(lines[1])
        assert log.stat().st_mode & 0o777 == 0o600
        state = store.load(str(log)).table
        if state.game.players[state.game.president] != "Vorret":
            break
        log.unlink()
        (tmp_path / "games").rmdir()
    commitment = re.search(r"Commitment \(post it in the opening thread post\): ([0-9a-f]{64})\n",
                           created.stderr).group(1)
    rng = random.Random(7)

    def play_on(until) -> None:  # noqa: ANN001 - what the walk-through leaves out
        while not until(store.load(str(log)).table):
            state = store.load(str(log)).table
            step = rng.choice(legal_steps(state))
            shell.shmod(*_command(step, state.game.players))

    for line in rest:
        state = store.load(str(log)).table
        words = shlex.split(line, comments=True)
        if words[1] == "discard":
            play_on(lambda s: s.game.phase == DISCARD)  # the other players vote Ja
            state = store.load(str(log)).table
            if not ("F" in state.game.hand and state.game.hand.count("L") >= 1):
                return _again(tmp_path)  # this deal drew no hand to follow the guide with
        if words[1] == "correct":
            # a mistyped vote to void: the next President nominates, El Guapo's PM arrives
            play_on(lambda s: s.game.phase != NOMINATE)
            typed = shell.shmod("vote", "El Guapo", "nein")
            entry = re.search(r"Recorded as entry (\d+)", typed.stderr).group(1)
            assert words[2] == entry, f"the guide voids entry {words[2]}, not {entry}"
        if words[1] == "reveal":
            play_on(lambda s: s.game.phase == OVER)
        if words[1] == "audit":
            example = words[words.index("-c") + 1]
            assert re.fullmatch(r"[0-9a-f]{64}", example), "the guide shows a shortened commitment"
            line = line.replace(example, commitment)
        done = shell(line)
        if words[1] == "audit":
            assert "VALID" in done.stdout and "INVALID" not in done.stdout, done.stdout
    assert store.load(str(log)).table.game.phase == OVER


def _again(tmp_path: Path) -> None:
    """Run the whole walk-through again in a fresh empty folder (a new random deal)."""
    fresh = tmp_path / "again"
    fresh.mkdir()
    test_the_guide_walkthrough_runs_verbatim_in_an_empty_folder(fresh)


def _command(step, names) -> list[str]:  # noqa: ANN001
    from shmod.game.steps import Discard, Enact, Nominate, Peek, Veto, Vote

    if isinstance(step, Nominate):
        return ["nominate", names[step.chancellor]]
    if isinstance(step, Vote):
        return ["vote", names[step.by], "ja"]
    if isinstance(step, (Discard, Enact)):
        return [step.kind, "liberal" if step.policy == "L" else "fascist"]
    if isinstance(step, Veto):
        return ["veto", step.answer, "--by", names[step.by]]
    if isinstance(step, Peek):
        return ["peek"]
    return [step.kind.replace("_", "-"), names[step.target]]
