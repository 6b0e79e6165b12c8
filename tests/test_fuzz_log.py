"""Fuzzed logs: byte flips, truncations, duplicated, deleted and swapped entries, wrong
types and huge values. Every log either loads or is refused with a LogError that names
a line; nothing else escapes (no traceback), and no refusal echoes the secret seed."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from shmod.audit.random_games import random_game
from shmod.base.errors import LogError
from shmod.log import logfile, store

pytestmark = pytest.mark.slow  # long: CI runs it; `pytest -m 'not slow'` skips it


def _base(players: int, seed: int, steps: int) -> bytes:
    sim = random_game(players, random.Random(seed))
    return store.log_text(sim.header, sim.steps[:steps], at="2026-01-01T00:00:00Z").encode()


BASES = [_base(5, 1, 20), _base(7, 2, 25), _base(10, 3, 15)]
SECRETS = [yaml.safe_load(b)["secret"]["seed"] for b in BASES]
TALLY: Counter = Counter()
SETTINGS = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _check(data: bytes, what: str) -> None:
    """Load ``data`` as a log: it loads, or a LogError names a line. Count the outcome."""
    TALLY[what] += 1
    try:
        store.replay(logfile.parse("fuzz.yaml", data))
    except LogError as err:
        assert err.line, f"a rejection that names no line: {err}"
        assert "\n" not in str(err)
        assert not any(secret in str(err) for secret in SECRETS), f"secret echoed: {err}"
        TALLY["refused"] += 1
    else:
        TALLY["loaded"] += 1


def _split(base: bytes) -> tuple[bytes, list[bytes]]:
    head, _, body = base.partition(b"\nlog:\n")
    return head + b"\nlog:\n", body.splitlines(keepends=True)


bases = st.sampled_from(BASES)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=8)


@settings(SETTINGS, max_examples=9000)
@given(bases, st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1,
                       max_size=4))
def test_byte_flips(base, flips):
    data = bytearray(base)
    for where, byte in flips:
        data[where % len(data)] = byte
    _check(bytes(data), "byte flips")


@settings(SETTINGS, max_examples=5000)
@given(bases, st.integers(0, 10**6))
def test_truncations(base, cut):
    _check(base[: cut % (len(base) + 1)], "truncations")


@settings(SETTINGS, max_examples=4000)
@given(bases, st.sampled_from(["duplicated", "deleted", "swapped"]), st.integers(0, 10**4),
       st.integers(0, 10**4))
def test_duplicated_deleted_swapped_entries(base, how, i, j):
    head, lines = _split(base)
    i, j = i % len(lines), j % len(lines)
    if how == "duplicated":
        lines.insert(j, lines[i])
    elif how == "deleted":
        del lines[i]
    else:
        lines[i], lines[j] = lines[j], lines[i]
    _check(head + b"".join(lines), f"{how} entries")


@settings(SETTINGS, max_examples=2000)
@given(bases, st.integers(0, 10**4), st.text(min_size=1, max_size=12), values,
       st.booleans())
def test_wrong_types(base, index, key, value, header):
    doc = yaml.load(base, Loader=yaml.CSafeLoader)
    if header:  # a header field (or a secret one) gets a value of the wrong type
        target = doc if index % 2 else doc["secret"]
        keys = list(target)
        target[keys[index % len(keys)] if index % 3 else key] = value
        data = yaml.dump(doc, Dumper=yaml.CSafeDumper, allow_unicode=True).encode()
    else:  # one entry gets a field of the wrong type, written as a JSON flow line
        head, lines = _split(base)
        at = index % len(lines)
        entry = yaml.load(lines[at], Loader=yaml.CSafeLoader)[0]
        fields = list(entry)
        entry[fields[index % len(fields)] if index % 3 else key] = value
        lines[at] = b"- " + json.dumps(entry).encode() + b"\n"
        data = head + b"".join(lines)
    _check(data, "wrong types")


@settings(SETTINGS, max_examples=1000)
@given(bases, st.integers(0, 10**4), st.sampled_from(["text", "number", "list", "nesting"]),
       st.integers(500, 30_000))
def test_huge_values(base, index, kind, size):
    head, lines = _split(base)
    huge = {"text": json.dumps("x" * size), "number": "9" * size,
            "list": "[" + ", ".join(["F"] * (size // 10)) + "]",
            "nesting": "[" * size + "]" * size}[kind]
    at = index % len(lines)
    lines[at] = lines[at].replace(b"{kind:", b"{extra: " + huge.encode() + b", kind:", 1)
    _check(head + b"".join(lines), "huge values")


def test_fuzz_counts(report_counts):
    """Runs after the properties above (file order) and reports what they tried."""
    tried = sum(v for k, v in TALLY.items() if k not in ("loaded", "refused"))
    assert tried >= 20_000
    kinds = ", ".join(f"{v} {k}" for k, v in sorted(TALLY.items())
                      if k not in ("loaded", "refused"))
    report_counts("fuzz", f"{tried} fuzzed logs ({kinds}): {TALLY['loaded']} loaded, "
                  f"{TALLY['refused']} refused with a line, 0 tracebacks")
