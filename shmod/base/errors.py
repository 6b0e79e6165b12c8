"""Every error shmod reports: one line, a rule id or a place in the log."""
from __future__ import annotations

from shmod.base.plaintext import one_line


class ShmodError(Exception):
    """Base of every error shmod turns into ``Error: …`` and a non-zero exit."""

    exit_code = 1


class IllegalStep(ShmodError):
    """A step the rules forbid. ``rule`` is the rule's id, e.g. ``R-TERM`` (``shmod rules
    R-TERM``)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.reason = message
        super().__init__(f"{rule}: {message}")


class GameIsOver(IllegalStep):
    """Nothing is accepted after game over."""


class OutOfTurn(IllegalStep):
    """The step is not the kind of step the game is waiting for."""


class WrongActor(IllegalStep):
    """The right kind of step, from the wrong player."""


class RuleBroken(IllegalStep):
    """The right step from the right player, with a choice the rules forbid."""


class BadInput(ShmodError):
    """An argument or a field that cannot be understood (unknown player, typo'd policy)."""

    exit_code = 2


class LogError(ShmodError):
    """A problem at a place in a log file: ``file:line: message``."""

    exit_code = 2

    def __init__(self, path: str, line: int | None, message: str, rule: str | None = None) -> None:
        self.path = path
        self.line = line
        self.rule = rule
        message = one_line(message)  # one line, whatever a log's text holds
        self.reason = message
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")


class Diverged(LogError):
    """Two copies of one log that went apart and cannot be joined without losing or
    reordering a step (R-MERGE): both are left as they were."""

    exit_code = 1


class InternalError(ShmodError):
    """A bug in shmod, not in the input: said plainly, with where it happened."""

    exit_code = 70

    def __init__(self, problem: str, path: str | None = None, line: int | None = None, *,
                 unchanged: bool = True) -> None:
        self.path = path
        self.line = line
        where = f" at {path}:{line}" if path and line else f" reading {path}" if path else ""
        log = ("the log was not changed" if unchanged
               else "`shmod status` shows whether the step was recorded")
        report = "the command you ran" + (" and that log line" if line else "")
        super().__init__(f"unexpected internal error{where} ({problem}); {log}. This is a "
                         f"bug in shmod: please report it, with {report}")


class OutputLost(ShmodError):
    """The command's output could not be written (a full disk, ``>/dev/full``, a closed
    stdout): the message says whether anything was recorded and how to see it again."""

    exit_code = 74  # sysexits' EX_IOERR
