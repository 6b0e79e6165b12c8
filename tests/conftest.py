"""Shared test plumbing: the counts the safety tests report at the end of every run."""
from __future__ import annotations

import pytest

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
