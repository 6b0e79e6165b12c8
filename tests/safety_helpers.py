"""Helpers for the safety tests: steps as shmod command lines, entries without bookkeeping."""
from __future__ import annotations

import sys

from shmod import cli
from shmod.steps import Step

SHMOD = [sys.executable, "-m", "shmod"]


def cli_args(step: Step, players: tuple[str, ...]) -> list[str]:
    """The ``shmod`` arguments that record ``step`` (``--by`` always given)."""
    by = ["--by", players[step.by]] if step.by is not None else []
    if step.kind == "vote":
        return ["vote", players[step.by], "ja" if step.vote else "nein"]  # type: ignore[index]
    if step.kind in ("discard", "enact"):
        return [step.kind, "liberal" if step.policy == "L" else "fascist", *by]
    if step.kind == "veto":
        return ["veto", step.answer or "", *by]
    if step.kind == "peek":
        return ["peek", *by]
    if step.kind == "reshuffle":
        return ["reshuffle", "".join(step.deck)]
    return [step.kind.replace("_", "-"), players[step.target], *by]  # type: ignore[index]


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
