"""Every file shmod writes whole: a new log, a published copy, a repair's backup, a replay
page, a picture. Appending to a log is :func:`shmod.log.logfile.append`'s.

One writer, :func:`write`, with every check in one place:

- the bytes go to a new temporary file beside the target (``O_CREAT | O_EXCL |
  O_NOFOLLOW``: never a file or a link already there), synced, then put in place in one
  step: renamed over the target (``os.replace``), or, where nothing may be overwritten,
  linked to its name (``os.link`` fails if the name exists). So nothing is ever written
  through an existing link, symbolic or hard: a link at the name is replaced, and the file
  it led to keeps its bytes; a reader sees the old file or the new one, never half of one;
- a name that is, or leads to, a game log (its text has the header's ``shmod:`` field) is
  refused: a slip (``-o`` naming the log, a link planted where a page goes) never replaces
  a game in progress, the only copy of its secrets;
- a folder, a FIFO or a device at the name is refused (opening a FIFO would block);
- the temporary file's name carries the process id: one a killed shmod left (a new log's
  holds the roles) is removed by the next write into that folder.
"""
from __future__ import annotations

import os
import re
import stat

from shmod.base.errors import BadInput
from shmod.log import oslock

TEMP_PREFIX = ".shmod-new-"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX only
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | oslock.BINARY
#: A game log's header field ``shmod:`` (the log format), at the start of a line.
_LOG_FIELD = re.compile(rb"^(?:shmod|\"shmod\"|'shmod')[ \t]*:", re.M)
_SNIFF = 64 * 1024  # a header is far shorter


def write(path: str, data: bytes, *, mode: int = 0o666, replace: bool = True,
          over_log: bool = False) -> None:
    """Write ``data`` as the file ``path``, creating its folder (see the module docstring).

    ``mode`` is the new file's permissions (less the umask); ``replace``: an existing file
    at ``path`` is replaced, unless it is a game log; otherwise ``FileExistsError`` is
    raised when anything is there, a link included (the caller words it). Every other
    failure is one line: ``BadInput("cannot write PATH: …")``. ``over_log``: the file is a
    game log replaced by its own next version (a merge, :func:`shmod.log.logfile.replace`),
    the one writer allowed to put a file over a game log."""
    _check(path, replace, over_log)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
    except RecursionError:  # os.makedirs recurses once per missing folder
        raise BadInput(f"cannot write {path}: too many nested folders") from None
    except OSError as err:
        raise BadInput(f"cannot write {path}: cannot create its folder "
                       f"({err.strerror or err})") from None
    fd, temp = _temporary(path, folder, mode)
    try:
        write_all(fd, data)
        os.fsync(fd)
        if replace:
            _check(path, replace, over_log)  # again, as late as can be
            os.replace(temp, path)
            temp = ""
        else:
            os.link(temp, path)
    except FileExistsError:
        raise
    except OSError as err:
        raise BadInput(f"cannot write {path}: {err.strerror or err}") from None
    finally:
        os.close(fd)
        if temp:
            os.unlink(temp)
    sync_folder(folder)


def check(path: str) -> None:
    """Refuse, as :func:`write` would, what is at ``path`` (nothing there is fine): for a
    caller that must know before it records anything."""
    _check(path, replace=True)


def _check(path: str, replace: bool, over_log: bool = False) -> None:
    """Refuse what is at ``path`` (nothing there is fine)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as err:
        raise BadInput(f"cannot write {path}: {err.strerror or err}") from None
    if not replace:
        raise FileExistsError(path)
    if stat.S_ISLNK(info.st_mode):
        if is_game_log(path):
            raise BadInput(f"cannot write {path}: it is a link to a game log ("
                           f"{os.path.realpath(path)}); shmod never writes over a game log, "
                           "name another file")
        return  # the link itself is replaced, never written through
    if stat.S_ISDIR(info.st_mode):
        raise BadInput(f"cannot write {path}: it is a folder; name a file")
    if not stat.S_ISREG(info.st_mode):
        raise BadInput(f"cannot write {path}: not a regular file")
    if is_game_log(path) and not over_log:
        also = (" (another name of the same file, a hard link)" if info.st_nlink > 1 else "")
        raise BadInput(f"cannot write {path}: it is a game log{also}; shmod never writes over "
                       "a game log, name another file")


def is_game_log(path: str) -> bool:
    """Whether the regular file at ``path`` (links followed) reads as a game log: a line
    ``shmod: …`` in its first 64 KiB, as every log's header has. Never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | oslock.NONBLOCK | oslock.BINARY)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, _SNIFF)
    except OSError:
        return False
    finally:
        os.close(fd)
    return _LOG_FIELD.search(head) is not None


def _temporary(path: str, folder: str, mode: int) -> tuple[int, str]:
    """A new file in ``folder`` to write into, opened, and its name."""
    remove_stale_temps(folder)
    for _ in range(100):
        name = os.path.join(folder, f"{TEMP_PREFIX}{os.getpid()}-{os.urandom(6).hex()}.tmp")
        try:
            return os.open(name, _CREATE, mode), name
        except FileExistsError:
            continue
        except OSError as err:
            raise BadInput(f"cannot write {path}: {err.strerror or err}") from None
    raise BadInput(f"cannot write {path}: no free temporary name in its folder")


def remove_stale_temps(folder: str) -> None:
    """Remove temporary files a killed shmod left in ``folder`` (a new log's hold roles)."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith(TEMP_PREFIX)]
    except OSError:
        return
    for name in names:
        pid = name[len(TEMP_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def _running(pid: int) -> bool:
    if not oslock.SIGNALS:  # Windows: os.kill(pid, 0) would send Ctrl-C; assume it runs
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def sync_folder(folder: str) -> None:
    """Make a new name in ``folder`` durable (best effort where folders cannot be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` (``os.write`` may write part)."""
    while data:
        written = os.write(fd, data)
        data = data[written:]
