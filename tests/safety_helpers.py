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


def run_with(monkeypatch, args: list[str], *, stdout, stderr, now: str | None) -> int:  # type: ignore[no-untyped-def]
    """Run ``shmod ARGS`` in-process with the given standard streams (``None``: closed, as
    Python leaves a stream whose descriptor was closed) and ``SHMOD_NOW`` (None: the
    computer's clock); return its exit code. The streams are put back afterwards."""
    if now is None:
        monkeypatch.delenv("SHMOD_NOW", raising=False)
    else:
        monkeypatch.setenv("SHMOD_NOW", now)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    try:
        monkeypatch.setattr("sys.argv", ["shmod", *args])
        try:
            cli.main()
        except SystemExit as done:
            return int(done.code or 0)
        return 0
    finally:
        sys.stdout, sys.stderr = saved
