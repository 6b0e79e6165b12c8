"""Every error a clear line: an internal error names the log line and asks for a report;
a held lock and a failed write end in one line with nothing recorded; an illegal step
is refused before any byte is written."""
from __future__ import annotations

import errno
import fcntl
import os

import pytest
from safety_helpers import run_main
from scripted import AT

from shmod.base.errors import IllegalStep, InternalError, LogError
from shmod.cli import app
from shmod.forum import engine
from shmod.game.steps import Nominate
from shmod.log import logfile, store
from shmod.texts import report

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def test_internal_error_names_the_log_line_and_asks_for_a_report(tmp_path, capsys,
                                                                 monkeypatch):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", first="Ann", created=AT)
    store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    real = engine.apply

    def broken(state, step):  # type: ignore[no-untyped-def]
        if step.kind == "nominate":
            raise ZeroDivisionError("a bug")
        real(state, step)

    monkeypatch.setattr(engine, "apply", broken)
    monkeypatch.delenv("SHMOD_DEBUG", raising=False)
    entry_line = path.read_text().splitlines().index("log:") + 3  # post 1, then the nomination
    assert run_main(monkeypatch, "status", "-g", str(path)) == 70
    assert capsys.readouterr().err == (
        f"Error: unexpected internal error at {path}:{entry_line} (ZeroDivisionError: a bug); the log "
        "was not changed. This is a bug in shmod: please report it, with the command you ran "
        "and that log line\n")
    with pytest.raises(InternalError):
        store.load(str(path))


def test_lock_held_elsewhere_times_out_with_a_clear_message(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", created=AT)
    with open(path, "a") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)
        with (pytest.raises(LogError, match="another shmod has been writing"),
              logfile.locked(str(path), timeout=0.1)):
            pass


def test_failed_write_is_cut_back_and_nothing_recorded(tmp_path, monkeypatch):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", first="Ann", created=AT)
    data = path.read_bytes()

    def disk_full(fd: int, text: bytes) -> None:
        os.write(fd, text[:10])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(logfile, "_write_all", disk_full)
    with pytest.raises(LogError, match="No space left on device; nothing was recorded and "
                       "the log was left as it was"):
        store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    assert path.read_bytes() == data


def test_illegal_step_is_refused_before_any_write(tmp_path):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", first="Ann", created=AT)
    data = path.read_bytes()
    with pytest.raises(IllegalStep, match="R-NOMINATE"):
        store.record(str(path), lambda g: Nominate(by=0, chancellor=0), at=AT)
    assert path.read_bytes() == data


def test_bug_in_what_a_step_shows_changes_nothing(tmp_path, capsys, monkeypatch):
    """Issue 26 §1: every text a step shows is composed before the log is written, so a
    bug there leaves the log as it was, and says so."""
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", first="Ann", created=AT)
    data = path.read_bytes()

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyError("oops")

    monkeypatch.setattr(report, "after_step", broken)
    monkeypatch.delenv("SHMOD_DEBUG", raising=False)
    assert run_main(monkeypatch, "nominate", "Bob", "-g", str(path)) == 70
    line = len(data.splitlines()) + 1  # the entry the step would have been
    assert capsys.readouterr().err == (
        f"Error: unexpected internal error at {path}:{line} (KeyError: 'oops', while composing "
        "what the step shows); the log was not changed. This is a bug in shmod: please report it, "
        "with the command you ran and that log line\n")
    assert path.read_bytes() == data


def test_bug_after_the_log_was_written_asks_to_check_and_report(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", first="Ann", created=AT)

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyError("oops")

    monkeypatch.setattr(app, "show_sections", broken)
    monkeypatch.delenv("SHMOD_DEBUG", raising=False)
    assert run_main(monkeypatch, "nominate", "Bob", "-g", str(path)) == 70
    assert capsys.readouterr().err == (
        "Error: unexpected internal error (KeyError: 'oops'); `shmod status` shows whether "
        "the step was recorded. This is a bug in shmod: please report it, with the command "
        "you ran\n")


def test_bug_while_checking_a_new_step_names_the_line_it_would_take(tmp_path, monkeypatch):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), PLAYERS, seed="s", first="Ann", created=AT)
    data = path.read_bytes()
    real = engine.apply
    monkeypatch.setattr(engine, "apply", lambda state, step: 1 / 0 if step.kind == "nominate"
                        else real(state, step))
    line = data.count(b"\n") + 1  # the line the new entry would take
    with pytest.raises(InternalError, match=rf"g.yaml:{line} \(ZeroDivisionError: division by zero, "
                       r"while checking a new entry\); the log was not changed"):
        store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    assert path.read_bytes() == data
