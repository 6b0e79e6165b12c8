"""The private parse cache (shmod.log.parsecache): it only ever saves time. A cached parse is
exactly the fresh parse of the same bytes; any change to the bytes or to the code that
parses them is a miss; a damaged or foreign cache file is ignored; ``audit`` never reads
it; ``SHMOD_CACHE=off`` writes nothing; and a warm cache keeps PyYAML out of a command."""
from __future__ import annotations

import marshal
import os
import random
import stat
import sys
from pathlib import Path

import pytest

from shmod.audit import audit
from shmod.audit.moves import random_game
from shmod.audit.simulate import SIMULATED_AT
from shmod.log import logfile, parsecache
from shmod.log.game import load, log_text

GAMES = Path(__file__).parent.parent / "games"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of this test's own."""
    where = tmp_path / "cache"
    monkeypatch.setenv("SHMOD_CACHE", str(where))
    return where


def fields(log: logfile.LogFile) -> tuple:
    return (log.header, log.entries, log.lines, log.key_lines, log.torn, log.tail, log.size,
            log.data)


def simulated(tmp_path: Path, players: int, seed: int) -> Path:
    sim = random_game(players, random.Random(seed))
    path = tmp_path / f"sim-{players}-{seed}.yaml"
    path.write_text(log_text(sim.header, sim.steps, at=SIMULATED_AT))
    return path


def logs(tmp_path: Path) -> list[Path]:
    copies = []
    for shipped in sorted(GAMES.glob("*.yaml")):
        copy = tmp_path / shipped.name
        copy.write_bytes(shipped.read_bytes())
        copies.append(copy)
    return copies + [simulated(tmp_path, n, seed) for n in range(5, 11) for seed in (1, 2)]


def test_a_cached_parse_is_exactly_the_fresh_parse(cache, tmp_path):
    for path in logs(tmp_path):
        data = path.read_bytes()
        fresh = logfile.parse(str(path), data)
        first = logfile.read(str(path), cached=True)  # a miss: parses and keeps
        assert parsecache.get(str(path), data) is not None, path.name
        again = logfile.read(str(path), cached=True)  # a hit
        assert fields(first) == fields(again) == fields(fresh), path.name
        assert load(str(path)).head == load(str(path)).head


def test_what_a_step_leaves_in_the_cache_is_the_parse_of_the_file(cache, tmp_path, run):
    path = tmp_path / "g.yaml"
    assert run("new", "Ann", "Bob", "Cy", "Dee", "Eve", "-g", str(path), "--seed", "5", "--guessable")[0] == 0
    for args in (["nominate", "Bob"], *[["vote", name, "ja"] for name in
                                        ("Ann", "Bob", "Cy", "Dee", "Eve")]):
        code, _, err = run(*args, "-g", str(path))
        assert code == 0, err
        data = path.read_bytes()
        hit = parsecache.get(str(path), data)
        assert hit is not None
        fresh = logfile.parse(str(path), data)
        assert hit == (fresh.header, fresh.entries, fresh.lines, fresh.key_lines, fresh.torn,
                       fresh.tail)


def test_one_changed_byte_is_a_miss(cache, tmp_path):
    path = simulated(tmp_path, 7, 3)
    data = path.read_bytes()
    logfile.read(str(path), cached=True)
    assert parsecache.get(str(path), data) is not None
    at = data.index(b"vote: ja")
    changed = data[:at] + b"vote: no" + data[at + 8:]
    assert parsecache.get(str(path), changed) is None
    assert parsecache.get(str(path), data + b"\n") is None


def test_the_code_that_parses_is_all_in_the_stamp():
    stamped = {os.path.relpath(name, parsecache._PACKAGE) for name in parsecache.code_files()}
    reader = {"log/logfile.py", "log/logyaml.py", "base/plaintext.py", "log/parsecache.py"}
    assert reader <= {name.replace(os.sep, "/") for name in stamped}


def test_a_change_to_the_code_that_parses_is_a_miss(cache, tmp_path, monkeypatch):
    code = tmp_path / "yaml-init.py"
    code.write_text("# stands for PyYAML\n")
    monkeypatch.setattr(parsecache, "_yaml_origin", lambda: str(code))
    path = simulated(tmp_path, 5, 4)
    data = path.read_bytes()
    logfile.read(str(path), cached=True)
    assert parsecache.get(str(path), data) is not None
    code.write_text("# stands for another PyYAML\n")
    assert parsecache.get(str(path), data) is None
    monkeypatch.setattr(parsecache, "FORMAT", parsecache.FORMAT + 1)
    logfile.read(str(path), cached=True)
    assert parsecache.get(str(path), data) is not None


@pytest.mark.parametrize("blob", [
    b"", b"garbage", b"\x00" * 40, marshal.dumps(None), marshal.dumps((b"x", "y")),
    marshal.dumps((b"x" * 32, ({}, [], [], {}, False, ""))),  # a stamp that does not match
])
def test_a_damaged_cache_file_is_ignored(cache, tmp_path, blob):
    path = simulated(tmp_path, 6, 5)
    data = path.read_bytes()
    logfile.read(str(path), cached=True)
    name = parsecache._file(str(path))
    assert name is not None and os.path.exists(name)
    Path(name).write_bytes(blob)
    assert parsecache.get(str(path), data) is None
    assert fields(logfile.read(str(path), cached=True)) == fields(logfile.parse(str(path), data))


def test_a_misshapen_parse_under_the_right_stamp_is_ignored(cache, tmp_path):
    path = simulated(tmp_path, 6, 6)
    data = path.read_bytes()
    logfile.read(str(path), cached=True)
    name = parsecache._file(str(path))
    Path(name).write_bytes(marshal.dumps((parsecache._stamp(data), ({}, [], "x", {}, 0, ""))))
    assert parsecache.get(str(path), data) is None


@pytest.mark.skipif(os.name == "nt", reason="POSIX modes")
def test_the_cache_is_private(cache, tmp_path):
    path = simulated(tmp_path, 5, 7)
    old = os.umask(0)
    try:
        logfile.read(str(path), cached=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    files = list(cache.iterdir())
    assert len(files) == 1 and stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert files[0].name.endswith(".parsed")


def test_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SHMOD_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = simulated(tmp_path, 5, 8)
    logfile.read(str(path), cached=True)
    assert parsecache.folder() is None
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


def test_the_default_folder_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.delenv("SHMOD_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if os.name != "nt":
        assert parsecache.folder() == str(tmp_path / "xdg" / "shmod")


def test_an_unwritable_cache_costs_nothing(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SHMOD_CACHE", str(blocker / "cache"))
    path = simulated(tmp_path, 5, 9)
    assert fields(logfile.read(str(path), cached=True)) == fields(
        logfile.parse(str(path), path.read_bytes()))


def poison(path: Path) -> None:
    """Put in the cache, under the right stamp, a parse where the first Ja vote is Nein."""
    data = path.read_bytes()
    fresh = logfile.parse(str(path), data)
    entries = [dict(entry) for entry in fresh.entries]
    first = next(e for e in entries if e.get("vote") == "ja")
    first["vote"] = "nein"
    parsecache.put(str(path), data, (fresh.header, entries, fresh.lines, fresh.key_lines,
                                     fresh.torn, fresh.tail))


def test_audit_never_reads_the_cache(cache, tmp_path):
    """The cache is trusted like the rest of the moderator's home folder (whoever can write
    it can write the log itself); a published log is audited from its bytes alone."""
    path = simulated(tmp_path, 7, 10)
    before = audit.audit_file(str(path))
    poison(path)
    assert audit.audit_file(str(path)) == before
    assert before.valid


def test_a_poisoned_cache_still_meets_the_hash_chain(cache, tmp_path):
    """Even a command that does read the cache replays the chain over what it got: an
    entry changed in the cache is an edit every command reports (R-EDIT)."""
    path = simulated(tmp_path, 7, 11)
    assert not load(str(path), warn_edits=False).edits()
    poison(path)
    edits = load(str(path), warn_edits=False).edits()
    assert [found.problem for found in edits] == ["mismatch"]


def test_a_warm_cache_keeps_pyyaml_out_of_status(tmp_path):
    import subprocess

    path = simulated(tmp_path, 10, 12)
    env = {**os.environ, "SHMOD_CACHE": str(tmp_path / "cache")}
    code = ("import sys\nfrom shmod.cli import main as cli\n"
            f"sys.argv = ['shmod', 'status', '-g', {str(path)!r}]\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
            "print('yaml' in sys.modules, file=sys.stderr)")
    cold = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    warm = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert cold.stderr.strip().splitlines()[-1] == "True"
    assert warm.stderr.strip().splitlines()[-1] == "False"
    assert cold.stdout == warm.stdout and "Player" in warm.stdout
