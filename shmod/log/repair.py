"""``shmod repair``: move a torn final entry aside, never touching an earlier byte.

A step is appended as one fsync'd write, so a crash can leave at most the last line
cut off. Repair copies that line to a private backup file beside the log, then cuts the
log back to the end of its last whole line, all under the log's lock.
"""
from __future__ import annotations

import os

from shmod.base.errors import BadInput, LogError
from shmod.base.records import Record
from shmod.log import game, logfile, oslock, outfiles


class Repaired(Record, frozen=False):
    """What :func:`repair` did: ``backup`` is None when there was nothing to repair."""

    path: str
    backup: str | None
    moved: int  # bytes moved to the backup
    entries: int  # entries in the log afterwards
    line: int  # the line the torn tail was on


def repair(path: str, *, at: str) -> Repaired:
    """Move a torn final entry of ``path`` to ``PATH.torn-TIME``, ``at`` (the caller's
    clock, as an entry's ``at``) giving the time; refuse anything else."""
    with logfile.locked(path) as fd:
        size = os.fstat(fd).st_size
        if size > logfile.MAX_BYTES:
            raise logfile.too_large(path, size)
        data = oslock.pread(fd, size, 0)
        try:
            loaded = game.replay(logfile.parse(path, data))
            return Repaired(path, None, 0, len(loaded.log.entries), 0)
        except logfile.TornTail as err:
            line = err.line or data.count(b"\n") + 1
        except LogError as err:
            raise LogError(path, err.line, f"{err.reason} (`shmod repair` only moves aside "
                           "a torn final entry; this needs fixing by hand)") from None
        cut = data.rfind(b"\n") + 1
        try:
            kept = game.replay(logfile.parse(path, data[:cut]))
        except LogError as err:
            raise LogError(path, err.line, f"even without its torn last line the log does "
                           f"not load: {err.reason}; nothing was changed") from None
        backup = _write_backup(path, data[cut:], at)
        os.ftruncate(fd, cut)
        os.fsync(fd)
        return Repaired(path, backup, size - cut, len(kept.log.entries), line)


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
