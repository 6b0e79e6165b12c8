"""The private parse cache (shmod.log.parsecache): it only ever saves time, and it is not a
way in (issue 18 §4).

A cached parse is exactly the fresh parse of the same bytes; any change to the bytes or to
the code that parses them is a miss; ``audit`` never reads it; ``SHMOD_CACHE=off`` writes
nothing; a warm cache keeps PyYAML out of a command. Like ssh's key files: a FIFO, a link,
a folder or file others may open or that someone else owns is neither read nor written;
a damaged file is refused by its digest before a byte is decoded, without allocating
much; a forged file (correctly sealed) can make no command see what the log does not hold,
nor a recording command append an entry that breaks the chain; completion never writes."""
from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from scripted import AT

from shmod.audit import log_audit
from shmod.audit.random_games import random_game
from shmod.audit.simulate import SIMULATED_AT
from shmod.base.errors import InternalError
from shmod.log import logfile, parsecache, store
from shmod.log.entries import parse_step
from shmod.log.store import load, log_text

GAMES = Path(__file__).parent.parent / "games"
POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX links, FIFOs, owners and modes")
HANG = 20  # seconds: a guard against a hang, not a measure of speed


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of this test's own (not created yet)."""
    where = tmp_path / "cache"
    monkeypatch.setenv("SHMOD_CACHE", str(where))
    return where


def fields(log: logfile.LogFile) -> tuple:
    return (log.header, log.entries, log.lines, log.key_lines, log.torn, log.tail, log.size,
            log.data)


def parse_of(log: logfile.LogFile) -> parsecache.Parsed:
    return (log.header, log.entries, log.lines, log.key_lines, log.torn, log.tail)


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


def cache_file(path: Path) -> Path:
    place = parsecache.located(str(path))
    assert place is not None
    return Path(*place)


def warm(path: Path) -> Path:
    """Load ``path`` once, so that its parse is cached; the cache file."""
    load(str(path))
    name = cache_file(path)
    assert parsecache.get(str(path), path.read_bytes()) is not None
    return name


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.exists() else {}


def shmod(*args: str, cache: Path | str, **extra: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own (a hang is caught by the timeout)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHMOD_", "_SHMOD"))}
    env.update(SHMOD_CACHE=str(cache), COLUMNS="100", **extra)
    return subprocess.run([sys.executable, "-m", "shmod", *args], env=env,
                          capture_output=True, text=True, timeout=HANG)


def completion(path: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """What bash gets for ``shmod vote <Tab>`` on the game at ``path``."""
    return shmod(cache=cache, _SHMOD_COMPLETE="complete_bash", SHMOD_GAME=str(path),
                 COMP_WORDS="shmod vote ", COMP_CWORD="2")


def seated(run, path: Path, seed: int, *options: str) -> None:
    """A new 5-player game (Ann, Bob, Cy, Dee, Eve) at ``path``, through the command."""
    code, _, err = run("new", "Ann", "Bob", "Cy", "Dee", "Eve", "-g", str(path),
                       "--seed", f"{seed:032x}", "--guessable", *options)
    assert code == 0, err


def header_only(path: Path) -> None:
    """Cut the log at ``path`` to its header: a log without entries, as shmod writes one."""
    data = path.read_bytes()
    path.write_bytes(data[:data.index(b"\nlog:\n") + len(b"\nlog:\n")])


# -- what a hit is --------------------------------------------------------------------


def test_a_cached_parse_is_exactly_the_fresh_parse(cache, tmp_path):
    for path in logs(tmp_path):
        data = path.read_bytes()
        fresh = logfile.parse(str(path), data)
        first = load(str(path))  # a miss: parses, replays and keeps
        assert not first.log.cached and parsecache.get(str(path), data) is not None, path.name
        again = logfile.read(str(path), cached=True)  # a hit
        assert again.cached, path.name
        assert fields(first.log) == fields(again) == fields(fresh), path.name
        assert parsecache.same(parse_of(again), parse_of(fresh))
        assert load(str(path)).head == first.head


def test_what_a_step_leaves_in_the_cache_is_the_parse_of_the_file(cache, tmp_path, run):
    path = tmp_path / "g.yaml"
    seated(run, path, 5)
    for args in (["nominate", "Bob"], *[["vote", name, "ja"] for name in
                                        ("Ann", "Bob", "Cy", "Dee", "Eve")]):
        code, _, err = run(*args, "-g", str(path))
        assert code == 0, err
        data = path.read_bytes()
        hit = parsecache.get(str(path), data)
        assert hit is not None
        assert parsecache.same(hit, parse_of(logfile.parse(str(path), data)))


def test_one_changed_byte_is_a_miss(cache, tmp_path):
    path = simulated(tmp_path, 7, 3)
    data = path.read_bytes()
    warm(path)
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
    warm(path)
    code.write_text("# stands for another PyYAML\n")
    assert parsecache.get(str(path), data) is None
    monkeypatch.setattr(parsecache, "FORMAT", parsecache.FORMAT + 1)
    warm(path)


def test_the_encoding_keeps_every_type():
    """JSON alone would turn int keys into text, tuples into lists, and confuse keys that
    look like its tags: the encoding keeps them, and a value it cannot keep is not kept."""
    # F601: True is the key 1 (True == 1): the dict holds {1: [None, …], "1": "text one"}
    odd = ({1: "one", "1": "text one", True: [None, False, 1, 1.0, -0.0]},  # noqa: F601
           [{"\0d": ["x"], "\0t": 1}, {None: (1, (2, "3"))}, [], {}], [3, 4],
           {"log": 9}, False, "tail é")
    blob = parsecache.sealed(odd, b"log bytes")
    assert blob is not None
    back = parsecache.unsealed(blob, b"log bytes")
    assert back == odd and parsecache.same(back, odd)
    assert not parsecache.same(({1: 1}, [], [], {}, False, ""), ({True: 1}, [], [], {}, False, ""))
    assert not parsecache.same([1], [1.0]) and not parsecache.same([(1,)], [[1]])
    for unkept in (float("nan"), {1, 2}, b"bytes", object()):
        assert parsecache.sealed(({"x": unkept}, [], [], {}, False, ""), b"log") is None
    assert parsecache.unsealed(blob, b"other log bytes") is None


# -- damaged and forged files ------------------------------------------------------------


def forged(payload: bytes, data: bytes) -> bytes:
    """A cache file holding ``payload``, correctly sealed for the log bytes ``data``."""
    return parsecache.MAGIC + parsecache._digest(payload, data) + payload


@pytest.mark.parametrize("blob", [
    b"", b"garbage", b"\x00" * 40, parsecache.MAGIC, parsecache.MAGIC + b"\x00" * 64,
    b"\xfb\x02\x00\x00\x00" + b"x" * 100,  # the old marshal format
])
def test_a_damaged_cache_file_is_ignored(cache, tmp_path, blob):
    path = simulated(tmp_path, 6, 5)
    data = path.read_bytes()
    warm(path).write_bytes(blob)
    assert parsecache.get(str(path), data) is None
    assert fields(logfile.read(str(path), cached=True)) == fields(logfile.parse(str(path), data))


def test_a_stale_file_is_ignored(cache, tmp_path):
    path = simulated(tmp_path, 6, 5)
    data = path.read_bytes()
    warm(path).write_bytes(parsecache.sealed(parse_of(logfile.parse("x", data)), data + b"#\n"))
    assert parsecache.get(str(path), data) is None


def test_random_corruptions_are_refused_before_decoding(cache, tmp_path, monkeypatch,
                                                        report_counts):
    """A few hundred random byte changes (fixed seed) to a cache file: every one is refused
    by the digest, so the JSON is never decoded, memory stays near the file's size, and a
    command sees the log's own parse."""
    path = simulated(tmp_path, 10, 13)
    data = path.read_bytes()
    name = warm(path)
    good = name.read_bytes()
    fresh = fields(logfile.parse(str(path), data))
    decoded: list[bytes] = []
    real_decode = parsecache._decode
    monkeypatch.setattr(parsecache, "_decode", lambda b: decoded.append(b) or real_decode(b))
    rng = random.Random(18)
    peak = 0
    for case in range(300):
        blob = bytearray(good)
        if case % 10 == 9:
            del blob[rng.randrange(len(blob)):]
        else:
            for _ in range(1 + case % 3):
                blob[rng.randrange(len(blob))] ^= rng.randrange(1, 256)
        name.write_bytes(bytes(blob))
        tracemalloc.start()
        try:
            assert parsecache.get(str(path), data) is None, case
        finally:
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        log = logfile.read(str(path), cached=True)
        assert not log.cached and fields(log) == fresh, case
    assert decoded == []
    assert peak < 4 * len(good) + 256 * 1024, peak
    report_counts("parse cache corruptions",
                  f"300 corrupted cache files, 300 refused by the digest, 0 decoded, "
                  f"peak {peak // 1024} KiB for a {len(good) // 1024} KiB file")


@pytest.mark.parametrize("payload", [
    b"[" * 200_000 + b"]" * 200_000,  # nesting: a RecursionError, caught
    b"[" + b"9" * 50_000 + b"]",  # a number too long for int()
    b'{"\\u0000d": [[[1], 2]]}',  # an unhashable key
    b'{"\\u0000t": 5}',
    b"\xff\xfe not UTF-8",
    json.dumps([{"a": "b" * 200_000}, [], [], {}, False, ""]).encode(),  # the wrong shape
])
def test_a_hostile_payload_under_a_good_digest_is_refused_and_bounded(cache, tmp_path, payload):
    """Even a file sealed correctly (by someone who can write the cache: the user) cannot
    make the decoder allocate much more than its own size, nor fail a command."""
    path = simulated(tmp_path, 5, 14)
    data = path.read_bytes()
    name = warm(path)
    blob = forged(payload, data)
    name.write_bytes(blob)
    tracemalloc.start()
    try:
        assert parsecache.get(str(path), data) is None
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 16 * len(blob) + 1024 * 1024, peak
    assert not load(str(path)).log.cached


def test_a_misshapen_parse_under_the_right_stamp_is_ignored(cache, tmp_path):
    path = simulated(tmp_path, 6, 6)
    data = path.read_bytes()
    warm(path).write_bytes(parsecache.sealed(({}, [], ["x"], {}, False, ""), data))
    assert parsecache.get(str(path), data) is None


def nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = {"v": [value]}
    return value


@pytest.mark.parametrize("entries", [False, True], ids=["no entries", "entries"])
@pytest.mark.parametrize("shape", ["empty", "odd types", "deep", "lines off", "no hashes"])
def test_a_forged_parse_of_any_shape_fails_no_command(cache, tmp_path, run, entries, shape):
    """Whatever a correctly sealed file holds, a command sees the log's own parse."""
    path = tmp_path / "g.yaml"
    seated(run, path, 9)
    if entries:
        assert run("nominate", "Bob", "-g", str(path))[0] == 0
    else:
        header_only(path)
    data = path.read_bytes()
    fresh = logfile.parse(str(path), data)
    header, rows, lines = fresh.header, fresh.entries, fresh.lines
    if shape == "empty":
        header, rows, lines = {}, [], []
    elif shape == "odd types":
        header = {**header, "secret": [1, None], "players": {2: True}}
        rows = [1, None, "x"][:len(rows)]
    elif shape == "deep":
        header = {**header, "variants": nested(100), "secret": nested(100)}
    elif shape == "lines off":
        lines = [line + 1 for line in lines] or [1]
    else:
        rows = [{k: v for k, v in row.items() if k != "hash"} for row in rows]
    blob = parsecache.sealed((header, rows, lines, fresh.key_lines, False, ""), data)
    assert blob is not None
    cache_file(path).write_bytes(blob)
    loaded = load(str(path))
    forged = parsecache.unsealed(blob, data)
    assert loaded.log.cached == parsecache.same(forged, parse_of(fresh))  # only the truth
    assert fields(loaded.log) == fields(fresh)
    assert run("status", "-g", str(path))[0] == 0


# -- a forged (poisoned) parse -------------------------------------------------------------


def poison(path: Path, change: Callable[[dict, list[dict]], None], *, rechain: int | None = None
           ) -> None:
    """Put in the cache, correctly sealed for the log's bytes, its parse changed by
    ``change(header, entries)``; with ``rechain``, every hash from that entry (0-based)
    on is recomputed, so the forged parse chains cleanly in itself."""
    data = path.read_bytes()
    fresh = logfile.parse(str(path), data)
    header = json.loads(json.dumps(fresh.header))
    entries = [dict(entry) for entry in fresh.entries]
    change(header, entries)
    if rechain is not None:
        head = entries[rechain - 1]["hash"] if rechain else logfile.header_link(header)
        for entry in entries[rechain:]:
            entry["hash"] = head = logfile.link(head, entry)
    blob = parsecache.sealed((header, entries, fresh.lines, fresh.key_lines, fresh.torn,
                              fresh.tail), data)
    assert blob is not None
    cache_file(path).parent.mkdir(mode=0o700, exist_ok=True)
    cache_file(path).write_bytes(blob)


def first_ja_is_nein(header: dict, entries: list[dict]) -> None:
    next(e for e in entries if e.get("vote") == "ja")["vote"] = "nein"


def test_audit_never_reads_the_cache(cache, tmp_path):
    """A published log is audited from its bytes alone."""
    path = simulated(tmp_path, 7, 10)
    before = log_audit.audit_file(str(path))
    poison(path, first_ja_is_nein, rechain=0)
    assert log_audit.audit_file(str(path)) == before
    assert before.valid


@pytest.mark.parametrize("rechain", [None, 0], ids=["edited", "rechained"])
def test_a_poisoned_cache_shows_the_log_as_it_is(cache, tmp_path, rechain):
    """A forged parse is never shown: changed under its old hash it would not chain (and
    must not be blamed on the log as an edit); re-chained, its hashes are not the log's."""
    path = simulated(tmp_path, 7, 11)
    truth = load(str(path), cache="off")
    poison(path, first_ja_is_nein, rechain=rechain)
    loaded = load(str(path), warn_edits=False)
    assert not loaded.log.cached and loaded.chain == [] and loaded.head == truth.head
    assert loaded.log.entries == truth.log.entries
    assert parsecache.get(str(path), path.read_bytes()) is not None  # the truth, kept again
    assert load(str(path)).log.cached


def swap_two_roles(header: dict, entries: list[dict]) -> None:
    roles = header["secret"]["roles"]
    first, second = list(roles)[:2]
    roles[first], roles[second] = roles[second], roles[first]


@pytest.mark.parametrize("rechain", [None, 0], ids=["edited", "rechained"])
def test_a_poisoned_header_is_not_shown(cache, tmp_path, run, rechain):
    path = tmp_path / "g.yaml"
    seated(run, path, 8, "--first", "Ann")
    whole = path.read_bytes()
    header_only(path)
    for _ in range(2):  # with no entry (the header alone), then with the new game's entries
        truth = load(str(path), cache="off").setup
        poison(path, swap_two_roles, rechain=rechain)
        loaded = load(str(path))
        assert not loaded.log.cached and loaded.setup == truth and loaded.chain == []
        path.write_bytes(whole)
    assert run("nominate", "Bob", "-g", str(path))[0] == 0


def nominee_is(name: str) -> Callable[[dict, list[dict]], None]:
    def change(header: dict, entries: list[dict]) -> None:
        next(e for e in entries if e["kind"] == "nominate")["chancellor"] = name
    return change


def started(run, path: Path) -> None:
    """A 5-player game with Bob nominated and Ann's vote in, recorded without a thread
    post after the opening one (so that a forged parse need not re-key a checkpoint)."""
    seated(run, path, 6, "--first", "Ann")
    for entry in ({"kind": "nominate", "by": "Ann", "chancellor": "Bob"},
                  {"kind": "vote", "by": "Ann", "vote": "ja"}):
        store.record(str(path), lambda loaded, e=entry: parse_step(e, loaded.seating),
                     post=False, at=AT)


def assert_chain_intact(path: Path) -> None:
    report = log_audit.audit_file(str(path))
    assert report.valid, [p.message for p in report.problems]
    assert not [p for p in report.problems + report.warnings if p.kind == "chain"]
    assert load(str(path), cache="off").chain == []


def test_a_poisoned_cache_can_neither_fool_status_nor_break_the_chain(cache, tmp_path, run,
                                                                       monkeypatch):
    path = tmp_path / "g.yaml"
    started(run, path)
    monkeypatch.setenv("SHMOD_CACHE", "off")
    truth = run("status", "-g", str(path))
    monkeypatch.setenv("SHMOD_CACHE", str(cache))
    poison(path, nominee_is("Cy"), rechain=0)
    assert run("status", "-g", str(path)) == truth
    assert "Bob" in truth[1]
    poison(path, nominee_is("Cy"), rechain=0)  # status kept the truth: forge it again
    code, _, err = run("vote", "Bob", "ja", "-g", str(path))
    assert code == 0, err
    assert_chain_intact(path)


def test_a_step_is_recorded_from_the_logs_bytes_not_the_cache(cache, tmp_path, run,
                                                              monkeypatch):
    """Even were a forged parse to pass every check of a hit, the recording path reads
    the log's own bytes: the entry it appends chains onto the file."""
    monkeypatch.setattr(logfile, "anchored", lambda log: True)
    path = tmp_path / "g.yaml"
    started(run, path)
    poison(path, nominee_is("Cy"), rechain=0)
    assert load(str(path), warn_edits=False).log.cached  # the forged parse is a hit
    code, _, err = run("vote", "Bob", "ja", "-g", str(path))
    assert code == 0, err
    assert_chain_intact(path)


def test_read_back_refuses_an_entry_that_does_not_chain_onto_the_file(tmp_path, run):
    path = tmp_path / "g.yaml"
    started(run, path)
    before = path.read_bytes()

    def from_a_wrong_head(loaded: store.Loaded) -> object:
        loaded.head = "0" * logfile.HASH_LEN  # as a forged parse's head would be
        return parse_step({"kind": "vote", "by": "Bob", "vote": "ja"}, loaded.seating)

    with pytest.raises(InternalError, match="would not chain"):
        store.record(str(path), from_a_wrong_head, at=AT)  # type: ignore[arg-type]
    assert path.read_bytes() == before
    code, _, err = run("vote", "Bob", "ja", "-g", str(path))
    assert code == 0, err
    assert_chain_intact(path)


# -- the folder and its files, as ssh treats its keys -----------------------------------------


def private_folder(cache: Path) -> Path:
    cache.mkdir(mode=0o700)
    os.chmod(cache, 0o700)
    return cache


@POSIX
def test_a_fifo_as_the_cache_file_does_not_hang(cache, tmp_path):
    path = simulated(tmp_path, 7, 15)
    expected = shmod("status", "-g", str(path), cache="off")
    private_folder(cache)
    os.mkfifo(cache_file(path), 0o600)
    done = shmod("status", "-g", str(path), cache=cache)  # raises TimeoutExpired on a hang
    assert (done.returncode, done.stdout) == (0, expected.stdout) and expected.returncode == 0


@POSIX
def test_a_fifo_blocks_no_completion(cache, tmp_path):
    path = simulated(tmp_path, 6, 16)
    private_folder(cache)
    os.mkfifo(cache_file(path), 0o600)
    names = completion(path, cache)
    state = load(str(path), cache="off").table  # a vote: only the living are offered
    players = [p for seat, p in enumerate(state.game.players) if state.game.alive[seat]]
    assert names.returncode == 0 and names.stdout.split() == [p.replace(" ", "\\ ")
                                                              for p in players]
    assert stat.S_ISFIFO(os.lstat(cache_file(path)).st_mode)  # and it wrote nothing


@POSIX
@pytest.mark.parametrize("planted", ["cache file", "old temp name", "new temp name"])
def test_a_planted_link_is_never_written_through(cache, tmp_path, run, monkeypatch, planted):
    path = simulated(tmp_path, 7, 17)
    before = path.read_bytes()
    private_folder(cache)
    name = cache_file(path)
    monkeypatch.setattr(os, "urandom", lambda n: b"\x07" * n)  # a predictable temp name
    link = {"cache file": name, "old temp name": Path(f"{name}.{os.getpid()}.tmp"),
            "new temp name": name.parent / f".{name.name}.{'07' * 8}.tmp"}[planted]
    link.symlink_to(path)
    code, out, err = run("status", "-g", str(path))
    assert code == 0 and "Player" in out, err
    assert path.read_bytes() == before
    assert not name.is_symlink()


@POSIX
@pytest.mark.parametrize("shared", ["mode 0755", "mode 0770", "another owner", "a link"])
def test_a_folder_others_may_open_is_neither_read_nor_written(cache, tmp_path, monkeypatch,
                                                              shared):
    path = simulated(tmp_path, 7, 18)
    data = path.read_bytes()
    if shared == "a link":  # the folder named is a link, even to a private folder
        real = private_folder(tmp_path / "real")
        cache.symlink_to(real)
    else:
        private_folder(cache)
    warm_name = cache_file(path)
    parsecache.put(str(path), data, parse_of(logfile.parse(str(path), data)))
    assert shared == "a link" or parsecache.get(str(path), data) is not None
    if shared.startswith("mode"):
        os.chmod(cache, int(shared[-4:], 8))
    elif shared == "another owner":
        monkeypatch.setattr(parsecache, "_user", lambda: os.geteuid() + 1)
    before = snapshot(cache)
    assert parsecache.get(str(path), data) is None  # not read
    assert not load(str(path)).log.cached
    other = simulated(tmp_path, 5, 19)
    load(str(other))
    parsecache.put(str(other), other.read_bytes(),
                   parse_of(logfile.parse(str(other), other.read_bytes())))
    assert snapshot(cache) == before  # not written
    assert shared == "a link" or warm_name.exists()


@POSIX
@pytest.mark.parametrize("unsafe", ["mode 0644", "mode 0660", "a link to a good file"])
def test_a_cache_file_others_may_open_is_not_read(cache, tmp_path, unsafe):
    path = simulated(tmp_path, 6, 20)
    data = path.read_bytes()
    name = warm(path)
    if unsafe.startswith("mode"):
        os.chmod(name, int(unsafe[-4:], 8))
    else:
        good = tmp_path / "good.parsed"
        os.replace(name, good)
        name.symlink_to(good)
    assert parsecache.get(str(path), data) is None


@POSIX
def test_a_file_someone_else_owns_is_not_private(cache, tmp_path):
    info = os.stat(warm(simulated(tmp_path, 5, 23)))
    assert parsecache.private(info)
    theirs = os.stat_result((info.st_mode, info.st_ino, info.st_dev, info.st_nlink,
                             info.st_uid + 1, *info[5:10]))
    assert not parsecache.private(theirs)


@POSIX
def test_the_cache_is_private(cache, tmp_path):
    path = simulated(tmp_path, 5, 7)
    old = os.umask(0)
    try:
        load(str(path))
    finally:
        os.umask(old)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    files = list(cache.iterdir())
    assert len(files) == 1 and stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert files[0].name.endswith(".parsed")


def test_without_folder_descriptors_as_on_windows(cache, tmp_path, monkeypatch):
    """Windows names files by path (no ``dir_fd``): the cache works the same way."""
    monkeypatch.setattr(parsecache, "_DIR_FD", False)
    path = simulated(tmp_path, 8, 21)
    name = warm(path)
    assert load(str(path)).log.cached
    if os.name != "nt":
        os.chmod(cache, 0o755)
        assert parsecache.get(str(path), path.read_bytes()) is None
        os.chmod(cache, 0o700)
        name.unlink()
        name.symlink_to(tmp_path / "elsewhere")
        load(str(path))
        assert name.is_file() and not name.is_symlink()


# -- who writes ----------------------------------------------------------------------------


def test_completion_never_writes_the_cache(cache, tmp_path):
    path = simulated(tmp_path, 7, 22)
    private_folder(cache)
    names = completion(path, cache)
    living = sum(load(str(path), cache="off").table.game.alive)  # a vote: only the living
    assert names.returncode == 0 and len(names.stdout.split()) == living
    assert snapshot(cache) == {}  # a miss: parsed, not kept
    warm(path)
    before = snapshot(cache)
    assert completion(path, cache).stdout == names.stdout  # a hit: read only
    assert snapshot(cache) == before


def test_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SHMOD_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = simulated(tmp_path, 5, 8)
    load(str(path))
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
    assert fields(load(str(path)).log) == fields(logfile.parse(str(path), path.read_bytes()))


def test_a_warm_cache_keeps_pyyaml_out_of_status(tmp_path):
    path = simulated(tmp_path, 10, 12)
    code = ("import sys\nfrom shmod.cli import main as cli\n"
            f"sys.argv = ['shmod', 'status', '-g', {str(path)!r}]\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
            "print('yaml' in sys.modules, file=sys.stderr)")
    env = {**os.environ, "SHMOD_CACHE": str(tmp_path / "cache")}
    cold = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60)
    warm_run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=60)
    assert cold.stderr.strip().splitlines()[-1] == "True"
    assert warm_run.stderr.strip().splitlines()[-1] == "False"
    assert cold.stdout == warm_run.stdout and "Player" in warm_run.stdout


# -- bounded (issue 26 §3) ---------------------------------------------------------------

def test_the_cache_keeps_at_most_max_files_parses_and_drops_the_oldest(cache, tmp_path):
    """200 logs read used to leave 200 parses; now the oldest written go, the newest stay,
    and files that are not the cache's own are never touched."""
    source = simulated(tmp_path, 5, 1)
    paths = []
    for number in range(parsecache.MAX_FILES + 36):
        path = tmp_path / f"log-{number}.yaml"
        path.write_bytes(source.read_bytes())
        paths.append(path)
    warm(paths[0])
    os.utime(cache_file(paths[0]), (1000, 1000))
    cache.joinpath("notes.txt").write_text("mine")
    leftover = cache / f".{cache_file(paths[0]).name}.{'0' * 16}.tmp"
    leftover.write_bytes(b"a crash's")
    os.utime(leftover, (1, 1))  # long ago
    for number, path in enumerate(paths[1:], 1):
        warm(path)
        os.utime(cache_file(path), (1000 + number, 1000 + number))  # written in this order
    kept = sorted(p.name for p in cache.iterdir() if p.name.endswith(".parsed"))
    assert len(kept) == parsecache.MAX_FILES
    assert kept == sorted(cache_file(p).name for p in paths[-parsecache.MAX_FILES:])
    assert cache.joinpath("notes.txt").read_text() == "mine" and not leftover.exists()
    assert load(str(paths[-1])).log.cached  # the newest is a hit
    assert not load(str(paths[0])).log.cached  # the oldest was dropped: parsed again
