"""Shared fixtures. Scripted-game helpers are in scripted.py (imported by the tests)."""
import sys

import pytest

from shmod.cli import main


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
