"""The README's command table names every command shmod has, and only those; the test
guide (docs/tests.md) names every test file."""
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
