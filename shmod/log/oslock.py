"""What differs between Unix and Windows for the game log: the exclusive lock, the
open flags, and what "readable by you only" can mean.

Unix (Linux, macOS): ``fcntl.flock`` on the whole file. Windows: ``msvcrt.locking`` on one
byte far past the end of any log. Windows byte-range locks are mandatory (a locked byte
cannot be read through any other handle, shmod's own included), so the lock sits where no
log ever reaches (logs are capped at 256 KiB) and everyone can still read the log. Both
locks belong to the open file and die with the process, so they never go stale.

Which one is used depends only on whether ``fcntl`` imports, so the Windows path can be
exercised on Unix with ``fcntl`` blocked and a stand-in ``msvcrt`` (tests/test_oslock.py).
"""
from __future__ import annotations

import os
import time

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

KIND = "flock" if fcntl is not None else "msvcrt"
# Windows: os.open defaults to text mode, which would turn "\n" into "\r\n" on write and
# stop reading at a Ctrl-Z; the log's hash chain needs its exact bytes.
BINARY = getattr(os, "O_BINARY", 0)
# A FIFO put in the log's place must not hang shmod before it is checked (Unix only).
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
# Windows only: the byte locked, past the end of any log (below 2**31 for older C runtimes).
WINDOWS_LOCK_AT = 0x7FFF_FFF0
# Unix permission bits mean something only on POSIX systems; on Windows a file's access
# is set by the folder's access list, and st_mode shows only the read-only flag.
# On Windows a new log keeps its folder's access list (a folder under C:\\Users\\YOU is
# readable only by you and administrators); chmod there only sets the read-only flag.
PERMISSIONS = os.name == "posix"
# os.kill(pid, 0) asks "is it running?" on POSIX only; on Windows it sends a Ctrl-C.
SIGNALS = os.name == "posix"


class Busy(Exception):
    """Another process holds the lock."""


def try_lock(fd: int) -> None:
    """Take the exclusive lock on the open log ``fd`` now, or raise :class:`Busy`."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy from None
        return
    os.lseek(fd, WINDOWS_LOCK_AT, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:  # EACCES / EDEADLOCK: the byte is locked through another handle
        raise Busy from None


def lock(fd: int, timeout: float, poll: float = 0.002) -> bool:
    """Wait up to ``timeout`` seconds for the lock; False when it stayed busy."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            try_lock(fd)
            return True
        except Busy:
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll)


def unlock(fd: int) -> None:
    """Release the lock before ``fd`` is closed (closing releases it too, but Windows
    frees a closed handle's locks only eventually). Never raises."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return
        os.lseek(fd, WINDOWS_LOCK_AT, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    except OSError:
        pass


def others_may_read(info: os.stat_result) -> bool:
    """Whether the mode bits let anyone but the owner at the file (POSIX only)."""
    return PERMISSIONS and bool(info.st_mode & 0o077)


def pread(fd: int, size: int, offset: int) -> bytes:
    """``os.pread`` where it exists; else seek and read (Windows)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    chunks = []
    while size > 0:
        chunk = os.read(fd, size)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)
