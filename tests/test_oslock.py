"""The log's lock on every platform (shmod.log.oslock): flock on Unix; on Windows
``msvcrt`` (tested with ``fcntl`` blocked and a stand-in ``msvcrt``): chosen, exclusive,
released, and a game played, refused and repaired under it.

Unix is tested for real here (flock, and tests/test_concurrency.py races processes). Windows
cannot run on this CI, so its path is tested as far as Unix allows: in a subprocess that
cannot import ``fcntl``, with a stand-in ``msvcrt`` that behaves like Windows byte-range
locks (one holder per byte, across handles), and with ``os.pread``, ``os.fchmod`` and
``os.O_NONBLOCK`` removed. There shmod must pick the msvcrt path, lock one byte past the
largest possible log (Windows locks are mandatory, so a locked byte inside the log would
stop shmod's own reading handle), release it, and play, refuse and repair as on Unix.
What this cannot show is the real Windows C runtime; docs/guide.md says so (Platforms).
"""
import os
import subprocess
import sys
import textwrap

from shmod.log import logfile, oslock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WINDOWS_LIKE = textwrap.dedent('''
    import errno, os, sys, types

    class NoFcntl:
        def find_spec(self, name, path=None, target=None):
            if name == "fcntl":
                raise ImportError("No module named 'fcntl' (blocked: simulating Windows)")
    sys.meta_path.insert(0, NoFcntl())
    sys.modules.pop("fcntl", None)
    for missing in ("pread", "fchmod", "O_NONBLOCK"):
        if hasattr(os, missing):
            delattr(os, missing)

    # Libraries that look for msvcrt to detect Windows settle the real way before the
    # stand-in exists (subprocess would otherwise want _winapi); shmod's own modules do not.
    import subprocess, typer, rich.console, yaml  # noqa: E401
    assert not [m for m in sys.modules if m.startswith("shmod")]

    HELD = {}   # (device, inode, offset) -> fd holding the byte, as Windows keeps it
    CALLS = []
    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK = 0, 1, 2
    def locking(fd, mode, nbytes):
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino, os.lseek(fd, 0, os.SEEK_CUR))
        CALLS.append((mode, key[2], nbytes))
        if mode == msvcrt.LK_UNLCK:
            if HELD.get(key) != fd:
                raise OSError(errno.EACCES, "not locked by this handle")
            del HELD[key]
        elif key in HELD:
            raise OSError(errno.EACCES, "Permission denied")
        else:
            HELD[key] = fd
    msvcrt.locking = locking
    sys.modules["msvcrt"] = msvcrt
''')


def _windows_like(body: str, tmp_path) -> str:
    script = WINDOWS_LIKE + textwrap.dedent(body)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_without_fcntl_the_msvcrt_lock_is_chosen_and_excludes_a_second_handle(tmp_path):
    out = _windows_like('''
        from shmod.log import logfile, oslock
        assert "fcntl" not in sys.modules and oslock.fcntl is None
        print(oslock.KIND)
        print(oslock.WINDOWS_LOCK_AT > logfile.MAX_BYTES)
        open("g.yaml", "w").write("x")
        first, second = os.open("g.yaml", os.O_RDWR), os.open("g.yaml", os.O_RDWR)
        assert oslock.lock(first, 1.0)
        assert not oslock.lock(second, 0.05)   # busy: the byte is held through `first`
        assert os.read(os.open("g.yaml", os.O_RDONLY), 10) == b"x"  # the log stays readable
        oslock.unlock(first)
        assert oslock.lock(second, 0.05)
        oslock.unlock(second)
        assert not HELD
        print(sorted({(mode, at, n) for mode, at, n in CALLS}))
        try:
            with logfile.locked("g.yaml"):
                with logfile.locked("g.yaml", timeout=0.05):
                    pass
        except logfile.LogError as err:
            print("Error:", err)
    ''', tmp_path)
    kind, past, calls, error = out.splitlines()
    assert (kind, past) == ("msvcrt", "True")
    at = oslock.WINDOWS_LOCK_AT
    assert calls == f"[(0, {at}, 1), (2, {at}, 1)]"  # only LK_NBLCK and LK_UNLCK, 1 byte
    assert error.endswith("another shmod has been writing to this log for 0 s; nothing "
                          "was recorded, try again")


def test_without_fcntl_a_game_plays_refuses_and_repairs_through_the_cli(tmp_path):
    out = _windows_like('''
        from shmod.log import oslock
        oslock.PERMISSIONS = False  # as on Windows: no mode bits to set or check
        from shmod.cli.main import main

        def shmod(*args):
            sys.argv = ["shmod", *args, "-g", "games/g.yaml"]
            try:
                main()
            except SystemExit as done:
                return done.code
            return 0

        codes = [shmod("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--seed", "w", "--guessable", "--first", "Ann"),
                 shmod("nominate", "Bob"), shmod("vote", "Ann", "ja"),
                 shmod("vote", "Ann", "nein")]
        before = open("games/g.yaml", "rb").read()
        with open("games/g.yaml", "ab") as log:
            log.write(b"- {kind: vote, by: Bob")  # a write cut off by a crash
        codes += [shmod("status"), shmod("repair"), shmod("vote", "Bob", "ja")]
        assert open("games/g.yaml", "rb").read().startswith(before)
        print(codes)
        print(len(CALLS), not HELD, "fcntl" in sys.modules)
    ''', tmp_path)
    lines = out.splitlines()
    calls, released, fcntl_loaded = lines[-1].split()
    assert lines[-2] == "[0, 0, 0, 1, 2, 0, 0]"  # 1: the vote again (R-VOTE); 2: torn tail
    assert int(calls) >= 10 and released == "True" and fcntl_loaded == "False"
    backups = [name for name in os.listdir(tmp_path / "games") if ".torn-" in name]
    assert len(backups) == 1


def test_on_unix_the_lock_is_flock_and_a_second_handle_waits(tmp_path):
    assert oslock.KIND == "flock" and oslock.PERMISSIONS
    path = tmp_path / "g.yaml"
    path.write_text("x")
    first, second = os.open(path, os.O_RDWR), os.open(path, os.O_RDWR)
    try:
        assert oslock.lock(first, 1.0)
        assert not oslock.lock(second, 0.05)
        oslock.unlock(first)
        assert oslock.lock(second, 0.05)
    finally:
        os.close(first)
        os.close(second)
    assert oslock.pread(os.open(path, os.O_RDONLY), 1, 0) == b"x"


def test_a_logs_own_lock_is_released_when_the_step_ends(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("x")
    with logfile.locked(str(path)):
        pass
    with logfile.locked(str(path), timeout=0.05):  # would time out if still held
        pass
