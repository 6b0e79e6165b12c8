"""Helpers for the safety tests: steps as shmod command lines, entries without bookkeeping."""
from __future__ import annotations

import sys

from shmod.cli import main as cli

SHMOD = [sys.executable, "-m", "shmod"]


def bare(entry: object) -> object:
    """An entry without its ``at`` and ``hash``: what the step was."""
    if isinstance(entry, dict):
        return {k: v for k, v in entry.items() if k not in ("at", "hash")}
    return entry


def run_main(monkeypatch, *args: str) -> int:  # type: ignore[no-untyped-def]
    """Run ``shmod ARGS`` in-process through ``cli.main``; return its exit code."""
    monkeypatch.setattr("sys.argv", ["shmod", *args])
    try:
        cli.main()
    except SystemExit as done:
        return int(done.code or 0)
    return 0
