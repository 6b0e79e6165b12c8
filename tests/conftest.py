"""Shared test plumbing: the in-process ``run`` fixture and the counts the safety tests
report at the end of every run. Scripted-game helpers are in scripted.py."""
from __future__ import annotations

import sys

import pytest

from shmod.cli import main

_COUNTS: dict[str, str] = {}


def pytest_configure(config: pytest.Config) -> None:
    # Tests write logs with default modes; the warning itself is tested in test_permissions.
    config.addinivalue_line("filterwarnings", "ignore::shmod.logfile.LogWarning")


@pytest.fixture
def report_counts():  # type: ignore[no-untyped-def]
    """Call ``report_counts(name, line)``; the line is printed in the terminal summary."""
    def report(name: str, line: str) -> None:
        _COUNTS[name] = line
        print(f"{name}: {line}")
    return report


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if _COUNTS:
        terminalreporter.section("safety counts")
        for name, line in sorted(_COUNTS.items()):
            terminalreporter.write_line(f"{name}: {line}")


@pytest.fixture
def run(monkeypatch, capsys):
    """Run ``shmod ARGS`` in-process through main(); return (exit code, stdout, stderr)."""
    monkeypatch.delenv("SHMOD_GAME", raising=False)
    monkeypatch.setenv("COLUMNS", "100")

    def call(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["shmod", *args])
        try:
            main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        out, err = capsys.readouterr()
        return code, out, err

    return call
