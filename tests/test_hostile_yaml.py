"""Hostile logs: Python tags, billion laughs, a 100 MB file, deep nesting, huge strings,
merge keys. `shmod status` refuses each within a second with one `Error:` line, its
memory bounded, and nothing in the file is ever executed."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from scripted import AT

from shmod.log import logfile, store

# Runs `shmod status -g FILE` in-process and reports how long it took and how much memory
# it added beyond the interpreter with shmod already imported.
PROBE = """
import json, resource, sys, time
from shmod.cli import main as cli
from shmod.log import store
sys.argv = ["shmod", "status", "-g", sys.argv[1]]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    cli.main()
    code = 0
except SystemExit as done:
    code = done.code
took = time.perf_counter() - start
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
sys.stdout.write(json.dumps({"code": code, "seconds": took, "grown_kb": grown}))
"""
MAX_GROWN_KB = 64 * 1024


def _header(tmp_path) -> str:
    path = tmp_path / "base.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cy", "Dee", "Eve"], seed="hostile", created=AT)
    return path.read_text()


def _laughs() -> str:
    lines = ['lol0: &lol0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 10):
        refs = ", ".join([f"*lol{level - 1}"] * 9)
        lines.append(f"lol{level}: &lol{level} [{refs}]")
    return "\n".join(lines) + "\n"


BIG = logfile.MAX_BYTES // 2 - 2_000
#: What refuses each case (the size limit has its own case, the 100 MB file).
REFUSED_BY = {"deep nesting": "levels deep", "huge string": "too long",
              "huge number": "too long", "100 MB file": "too large",
              "merge key": "merge keys (<<) are not allowed"}
CASES = {
    "python tag": lambda h, marker: h + f'- !!python/object/apply:os.system ["touch {marker}"]\n',
    "python tag in header": lambda h, marker: (
        f'boom: !!python/object/apply:os.system ["touch {marker}"]\n' + h),
    "billion laughs": lambda h, marker: _laughs() + h,
    "merge key": lambda h, marker: h + "- {<<: {kind: vote}, by: Ann, vote: ja}\n",
    # Just under the size limit, so that the check each case is about is the one that refuses.
    "deep nesting": lambda h, marker: h + "- " + "[" * BIG + "]" * BIG + "\n",
    "huge string": lambda h, marker: h + '- {kind: "' + "x" * 2 * BIG + '"}\n',
    "huge number": lambda h, marker: h + "- {kind: vote, by: " + "9" * 2 * BIG + "}\n",
    "many entries": lambda h, marker: h + "- {kind: vote, by: Ann, vote: ja}\n" * (
        (logfile.MAX_BYTES - len(h)) // 34),
}


@pytest.mark.parametrize("case", [*CASES, "100 MB file"])
def test_hostile_log_refused_quickly_in_bounded_memory(case, tmp_path, report_counts):
    header = _header(tmp_path)
    path = tmp_path / "hostile.yaml"
    marker = tmp_path / "PWNED"
    if case == "100 MB file":
        with open(path, "w") as handle:
            handle.write(header)
            line = "- {kind: vote, by: Ann, vote: ja}\n" * 30_000
            while handle.tell() < 100 * 1024 * 1024:
                handle.write(line)
    else:
        path.write_text(CASES[case](header, marker))
    path.chmod(0o600)
    done = subprocess.run([sys.executable, "-c", PROBE, str(path)],
                          capture_output=True, text=True, timeout=60)
    result = json.loads(done.stdout)
    assert result["code"] == 2, done.stderr
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert result["grown_kb"] < MAX_GROWN_KB, result
    assert not marker.exists()
    assert REFUSED_BY.get(case, "") in done.stderr, done.stderr
    said = done.stderr.strip().replace(str(path), "LOG")
    report_counts(f"hostile: {case}", f"refused in {result['seconds'] * 1000:.0f} ms, "
                  f"+{result['grown_kb'] // 1024} MB: {said[:110]}")
