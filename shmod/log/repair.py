"""``shmod repair``: move a torn final entry, or a step cut off, aside, never touching an
earlier byte.

A step (every entry one command records: a step of the game, a batch of votes, and the post
with it) is appended as one fsync'd write, so a crash can leave at most that step cut off:
its last line torn, or, in a step of several entries, some of its lines written and not
the rest (the system may stop a killed process between pages of one write). A write of
several entries leaves a note beside the log while it runs (:func:`shmod.log.logfile.
batch_note`); repair moves everything written from where that step started to a private
backup file beside the log and cuts the log back there, and otherwise copies a torn last
line aside and cuts the log back to the end of its last whole line, all under the log's
lock. A step moved aside is lost whole, never in part: record it again.
"""
from __future__ import annotations

import os

from shmod.base import digest
from shmod.base.errors import BadInput, LogError
from shmod.base.records import Record
from shmod.log import logfile, oslock, outfiles, store


class Repaired(Record, frozen=False):
    """What :func:`repair` did: ``backup`` is None when there was nothing to repair."""

    path: str
    backup: str | None
    moved: int  # bytes moved to the backup
    entries: int  # entries in the log afterwards
    line: int  # the line the torn tail was on (a step cut off: its first line)
    step: bool = False  # a step of several entries cut off, moved aside whole


def repair(path: str, *, at: str) -> Repaired:
    """Move a torn final entry of ``path`` to ``PATH.torn-TIME``, ``at`` (the caller's
    clock, as an entry's ``at``) giving the time; refuse anything else."""
    with logfile.locked(path, repairing=True) as fd:
        size = os.fstat(fd).st_size
        if size > logfile.MAX_BYTES:
            raise logfile.too_large(path, size)
        data = oslock.pread(fd, size, 0)
        pending = logfile.pending_batch(path)
        if pending is not None:
            return _cut_off(path, fd, data, pending, at)
        try:
            loaded = store.replay(logfile.parse(path, data))
            return Repaired(path, None, 0, len(loaded.log.entries), 0)
        except logfile.TornTail as err:
            line = err.line or data.count(b"\n") + 1
        except LogError as err:
            raise LogError(path, err.line, f"{err.reason} (`shmod repair` only moves aside "
                           "a torn final entry; this needs fixing by hand)") from None
        cut = data.rfind(b"\n") + 1
        try:
            kept = store.replay(logfile.parse(path, data[:cut]))
        except LogError as err:
            raise LogError(path, err.line, f"even without its torn last line the log does "
                           f"not load: {err.reason}; nothing was changed") from None
        backup = _write_backup(path, data[cut:], at)
        os.ftruncate(fd, cut)
        os.fsync(fd)
        return Repaired(path, backup, size - cut, len(kept.log.entries), line)


def _cut_off(path: str, fd: int, data: bytes, pending: tuple[int, int, str],
             at: str) -> Repaired:
    """A step of several entries whose note is still beside the log: whole in the log (the
    crash came after its write: the note is removed), or moved aside whole from where it
    started."""
    start, length, sha = pending
    if start > len(data):
        raise LogError(path, None, f"{logfile.batch_note(path)} says a step started at byte "
                       f"{start}, past the log's end ({len(data)} bytes): the log was cut "
                       "by hand; nothing was changed")
    written = data[start:]
    if len(written) == length and digest.sha256_hex(written) == sha:
        os.unlink(logfile.batch_note(path))
        loaded = store.replay(logfile.parse(path, data))
        return Repaired(path, None, 0, len(loaded.log.entries), 0)
    try:
        kept = store.replay(logfile.parse(path, data[:start]))
    except LogError as err:
        raise LogError(path, err.line, f"even without the step cut off the log does not "
                       f"load: {err.reason}; nothing was changed") from None
    backup = _write_backup(path, written, at) if written else None
    os.ftruncate(fd, start)
    os.fsync(fd)
    os.unlink(logfile.batch_note(path))
    return Repaired(path, backup, len(written), len(kept.log.entries),
                    data[:start].count(b"\n") + 1, step=True)


def _write_backup(path: str, tail: bytes, at: str) -> str:
    """Write ``tail`` to a new private file beside ``path``; return its name."""
    stamp = at.replace("-", "").replace(":", "")
    for number in range(1000):
        name = f"{path}.torn-{stamp}" + (f"-{number}" if number else "")
        try:
            outfiles.write(name, tail, mode=0o600, replace=False)
        except FileExistsError:
            continue
        except BadInput as err:
            raise LogError(path, None, f"{err}; nothing was changed") from None
        return name
    raise LogError(path, None, "too many backups of torn entries beside the log; "
                   "nothing was changed")
