"""The installed ``shmod`` driven as a moderator runs it, in a folder of its own, with the
clock injected (``SHMOD_NOW``), never slept on (shared by the tests that play through it)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SHMOD = Path(sys.executable).parent / "shmod"
DAY1, DAY2, DAY4 = "2026-11-23T10:00:00Z", "2026-11-24T10:00:00Z", "2026-11-26T10:00:00Z"


class Moderator:
    """The installed ``shmod`` in one folder, the clock set by hand; ``show``: every command
    with ``SHMOD_SHOW=1`` (a recording command prints the PMs and the post it made on
    stdout, framed, instead of leaving them in the outbox for ``shmod send`` alone)."""

    def __init__(self, folder: Path, now: str = DAY1, *, show: bool = False) -> None:
        self.folder, self.now, self.show = folder, now, show
        self.log = folder / "games" / "friday.yaml"

    def run(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
        env.update(SHMOD_GAME=str(self.log), SHMOD_NOW=self.now, COLUMNS="100",
                   SHMOD_CACHE=os.environ.get("SHMOD_CACHE", "off"))
        if self.show:
            env["SHMOD_SHOW"] = "1"
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=env, text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        if code:
            assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
        return done

    def refused(self, *args: str, rule: str, code: int = 1) -> str:
        before = self.log.read_bytes()
        err = self.run(*args, code=code).stderr
        assert rule in err and self.log.read_bytes() == before, err
        return err
