"""A shell line run on a pseudo-terminal of its own (the ``pty`` module), as on a moderator's
terminal: stdin, stdout and stderr all the terminal, each key typed once its prompt shows;
what the terminal received, and the exit status (shared by the tests that watch a terminal;
not a test file)."""
from __future__ import annotations

import os
import pty
import select
import signal
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

#: Keys the terminal turns into a signal (Ctrl-C, Ctrl-\), typed only once the command
#: waits reading the terminal: Python handles a signal between two steps of its own, and
#: one that lands after its last step but before the read starts waits for that read to
#: end, which on a terminal only a key does (a walk test once hung so, on a busy machine).
SIGNAL_KEYS = (b"\x03", b"\x1c")


def on_a_terminal(folder: Path, command: str, env: Mapping[str, str],
                  keys: Sequence[tuple[str, bytes]] = ()) -> tuple[int, bytes]:
    """Run ``command`` (a shell line) in ``folder`` with ``env``, typing each key once the
    terminal shows its prompt text after the one answered before; a generous guard against
    a hang (180 s) fails saying what the terminal showed."""
    pid, master = pty.fork()
    if pid == 0:  # the child: the pseudo-terminal is its terminal, stdin and stdout
        for number in (signal.SIGINT, signal.SIGQUIT):  # as a terminal's shell starts it,
            signal.signal(number, signal.SIG_DFL)  # even if these tests run where ignored
        os.chdir(folder)
        os.execve("/bin/sh", ["/bin/sh", "-c", f"exec {command}"], dict(env))
    seen, pending, offset = b"", list(keys), 0
    deadline = time.monotonic() + 180  # a guard against a hang, generous on a busy machine
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child ended: EIO
                break
            if not chunk:
                break
            seen += chunk
        while pending:  # each key once its prompt shows, after the one answered before
            found = seen.find(pending[0][0].encode(), offset)
            if found < 0:
                break
            if pending[0][1] in SIGNAL_KEYS:
                _await_read(pid)
            offset = found + len(pending[0][0])
            os.write(master, pending.pop(0)[1])
    else:  # the guard ran out: the child is stopped, and the test fails saying what it saw
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(master)
        raise AssertionError(f"no end after 180 s; keys left: {pending}; seen: {seen[-2000:]!r}")
    _, status = os.waitpid(pid, 0)
    os.close(master)
    return os.waitstatus_to_exitcode(status), seen


def _await_read(pid: int) -> None:
    """Wait, a bounded while, until ``pid`` sleeps reading its terminal (Linux's
    ``/proc/PID/wchan``; where it cannot be read, not at all)."""
    for _ in range(1000):  # a guard, not a time to meet: 10 s at most
        try:
            with open(f"/proc/{pid}/wchan") as found:
                if found.read() in ("wait_woken", "n_tty_read"):
                    return
        except OSError:
            return
        time.sleep(0.01)
