"""Red-team findings (branch redb): commands driven through the installed ``shmod`` with
hostile arguments, each ending in one ``Error:`` line, a non-zero exit other than an
internal error's 70, and nothing written."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from installed import SHMOD


def shmod(folder: Path, *args: str, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    base.update(SHMOD_NOW="2026-12-01T10:00:00Z", SHMOD_CACHE="off", COLUMNS="100",
                **(env or {}))
    return subprocess.run([str(SHMOD), *args], cwd=folder, env=base, text=True,
                          capture_output=True, timeout=60, errors="surrogateescape")


def one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


@pytest.mark.parametrize("args, said", [
    # exit 70: UnicodeEncodeError from random.Random(seed)
    (["sim", "-n", "1", "--seed", "\udcff"], "byte 0xFF that is not UTF-8 text"),
    # exit 70: FileExistsError from os.makedirs
    (["a-file", "-n", "1"], "a-file: not a folder"),
    # exit 70: FileNotFoundError from os.makedirs
    (["/proc/no/such/folder", "-n", "1"], "cannot create the folder"),
    # ran until killed, writing games until the disk filled
    (["sim", "-n", "99999999999999999999"], "at most 10,000"),
])
def test_simulate_refuses_a_bad_seed_folder_or_count_in_one_line(tmp_path, args, said):
    (tmp_path / "a-file").write_text("")
    assert said in one_line(shmod(tmp_path, "simulate", *args))
    assert not (tmp_path / "sim").exists()
