"""``--help`` speaks the moderator's words: every command's usage and options show NAME,
VOTE, POLICY, PATH, …, never a type placeholder (``<str>``, ``{player}``, ``<bool>``);
usage mistakes are one ``Error:`` line; ``shmod --version`` reads the package metadata."""
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import typer

from shmod.cli.main import app

SHMOD = Path(sys.executable).parent / "shmod"
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
PLACEHOLDER = re.compile(r"<[a-z_ ]+>|\{[A-Za-z_]+\}|\b(TEXT|INTEGER|BOOLEAN|FMT_NAME)\b|<str>|<int>|<bool>")


def _help(*args: str) -> str:
    done = subprocess.run([str(SHMOD), *args, "--help"], capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin", "COLUMNS": "100"})
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_no_help_shows_a_type_placeholder(command):
    shown = _help(*([command] if command else []))
    assert not PLACEHOLDER.search(shown), PLACEHOLDER.search(shown)
    usage = shown.splitlines()[0]
    assert re.fullmatch(r"Usage: shmod( [a-z-]+)? \[OPTIONS\]( [A-Z_=.\[\]]+)*( COMMAND \[ARGS\]\.\.\.)?", usage), usage
    for line in shown.splitlines():  # every option that takes a value names it in capitals
        option = re.match(r"\s+(?:-\w, )?(--[a-z-]+)(?: ([^ ]+))?(?:\s|$)", line)
        if option and option.group(2) and option.group(2) != "/":  # not --board / --no-board
            assert re.fullmatch(r"[A-Z][A-Z_=]*", option.group(2)), line


@pytest.mark.parametrize("command, usage", [
    ("vote", "shmod vote [OPTIONS] NAME VOTE [NAME VOTE...]"),
    ("nominate", "shmod nominate [OPTIONS] NAME"),
    ("discard", "shmod discard [OPTIONS] POLICY"),
    ("enact", "shmod enact [OPTIONS] POLICY"),
    ("new", "shmod new [OPTIONS] [NAME...]"),  # none with --show-settings (issue 43)
    ("audit", "shmod audit [OPTIONS] [PATH...]"),
    ("pm", "shmod pm [OPTIONS] [NAME]"),
])
def test_usage_lines_read_as_the_readme_writes_them(command, usage):
    shown = _help(command)
    assert shown.splitlines()[0] == f"Usage: {usage}"
    assert "-g, --game PATH" in shown or command == "audit"


def test_options_name_what_they_take():
    assert "--by NAME" in _help("nominate") and "-f, --format FORMAT" in _help("vote")
    assert "-c, --commitment HEX" in _help("audit")
    assert "-V, --variant KEY=VALUE" in _help("new") and "--custom PATH" in _help("new")


def test_a_usage_mistake_is_one_error_line(run):
    code, out, err = run("vote", "Ann")
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == "Error: Missing argument 'VOTE'."
    assert "╭" not in err and "{" not in err


def test_version_comes_from_the_package_metadata():
    done = subprocess.run([str(SHMOD), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"shmod {version('shmod')}\n"
    assert "--version" in _help()


def test_version_costs_nothing_unless_asked():
    code = ("import sys; from shmod.cli import main as cli; "
            "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
