"""The README's command table names every command shmod has, and only those; the test
guide (docs/tests.md) names every test file; the README's test command checks what CI
(``.ci/run``) checks."""
import re
from pathlib import Path

import typer

from shmod.cli.main import app

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_command_table_lists_every_command():
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    table = set(re.findall(r"^\| `shmod ([a-z-]+)", README.read_text(), flags=re.M))
    assert table == commands, (sorted(commands - table), sorted(table - commands))


def test_the_test_guide_lists_every_test_file():
    guide = (README.parent / "docs" / "tests.md").read_text()
    listed = set(re.findall(r"^\| `(?:tests/)?(test_[a-z0-9_]+\.py)`", guide, flags=re.M))
    files = {path.name for path in (README.parent / "tests").glob("test_*.py")}
    assert listed == files, (sorted(files - listed), sorted(listed - files))


def test_the_readme_test_command_runs_what_ci_runs():
    second = re.findall(r"```sh\n(.*?)\n```", README.read_text(), flags=re.S)[1]
    checks = second.split(" && ")[2:]  # after making the environment and installing
    ci = (README.parent / ".ci" / "run").read_text().splitlines()
    assert checks == [line for line in ci if line.startswith(".venv/bin/python -m ")
                      and " pip " not in line]
    assert [c.split()[2] for c in checks] == ["mypy", "ruff", "pytest"]
