"""Shared test plumbing: the in-process ``run`` fixture and the counts the safety tests
report at the end of every run. Scripted-game helpers are in scripted.py."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from shmod.cli.main import main

COUNTS = "SHMOD_TEST_COUNTS"  # a folder the safety tests write their counts to


def pytest_configure(config: pytest.Config) -> None:
    # Tests write logs with default modes; the warning itself is tested in test_permissions.
    config.addinivalue_line("filterwarnings", "ignore::shmod.log.logfile.LogWarning")
    if not hasattr(config, "workerinput"):  # the controller; xdist workers inherit them
        os.environ[COUNTS] = tempfile.mkdtemp(prefix="shmod-counts-")
        # The parse cache (shmod.log.parsecache) in a folder of the run's own, never ~/.cache.
        os.environ["SHMOD_CACHE"] = tempfile.mkdtemp(prefix="shmod-cache-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        for name in (COUNTS, "SHMOD_CACHE"):
            if name in os.environ:
                shutil.rmtree(os.environ.pop(name), ignore_errors=True)


@pytest.fixture
def report_counts():  # type: ignore[no-untyped-def]
    """Call ``report_counts(name, line)``; the line is printed in the terminal summary
    (from whichever xdist worker ran the test)."""
    def report(name: str, line: str) -> None:
        (Path(os.environ[COUNTS]) / name.replace("/", "-")).write_text(f"{name}: {line}")
        print(f"{name}: {line}")
    return report


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    folder = Path(os.environ.get(COUNTS, "/nonexistent"))
    lines = sorted(p.read_text() for p in folder.glob("*")) if folder.is_dir() else []
    if lines:
        terminalreporter.section("safety counts")
        for line in lines:
            terminalreporter.write_line(line)


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
