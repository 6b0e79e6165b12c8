"""The README's command table names every command shmod has, and only those."""
import re
from pathlib import Path

import typer

from shmod.cli import app

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_command_table_lists_every_command():
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    table = set(re.findall(r"^\| `shmod ([a-z-]+)", README.read_text(), flags=re.M))
    assert table == commands, (sorted(commands - table), sorted(table - commands))
