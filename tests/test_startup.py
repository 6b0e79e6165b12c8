"""Start-up cost (BENCHMARKS.md goal 2): what ``shmod`` imports, and the one-command fast
path of ``cli.main`` answering exactly like the whole typer app."""
from __future__ import annotations

import ast
import random
import subprocess
import sys

import pytest

from shmod import cli

NAMES = [info.name or info.callback.__name__.replace("_", "-")
         for info in cli.app.registered_commands if info.callback is not None]


@pytest.mark.parametrize("extra", [["--help"], [], ["--no-such-option"]])
@pytest.mark.parametrize("name", NAMES)
def test_each_command_answers_as_in_the_whole_app(run, monkeypatch, name, extra):
    fast = run(name, *extra)
    monkeypatch.setattr(cli, "_runnable", lambda args: cli.app)  # main() with the whole app
    whole = run(name, *extra)
    assert fast == whole
    assert fast[0] == (0 if extra == ["--help"] else 2)


def test_every_command_is_known_to_the_fast_path():
    assert len(NAMES) == len(set(NAMES)) == len(cli.app.registered_commands) >= 20
    assert all(cli._runnable([name]) is not cli.app for name in NAMES)
    assert cli._runnable(["statu"]) is cli.app and cli._runnable([]) is cli.app


def _modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(sorted(sys.modules))"],
                          capture_output=True, text=True, check=True)
    return set(ast.literal_eval(done.stdout.splitlines()[-1]))


def test_the_command_modules_import_nothing_heavy():
    loaded = _modules_after("import shmod.cli")
    heavy = {"rich", "yaml", "json", "hashlib", "shmod.game", "shmod.engine", "shmod.audit"}
    assert not heavy & loaded


def test_status_of_a_finished_game_loads_only_what_it_shows(tmp_path):
    from shmod.game import log_text
    from shmod.moves import random_game
    from shmod.simulate import SIMULATED_AT

    sim = random_game(10, random.Random(10))
    path = tmp_path / "ten.yaml"
    path.write_text(log_text(sim.header, sim.steps, at=SIMULATED_AT))
    loaded = _modules_after(
        "import sys\nfrom shmod import cli\n"
        f"sys.argv = ['shmod', 'status', '-g', {str(path)!r}]\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass")
    assert {"shmod.board", "shmod.game", "rich.table"} <= loaded
    unused = {"shmod.audit", "shmod.posts", "shmod.pms", "shmod.reveal", "shmod.report",
              "shmod.texts", "shmod.summary", "shmod.batch", "shmod.simulate",
              "shmod.repair", "shmod.forum_texts", "rich.progress"}
    assert not unused & loaded
