"""The log reader's fast constructor gives exactly what the strict constructor gives
(issue 9 §3): the same data where both accept, a refusal where either refuses; and the
strict constructor agrees with PyYAML's safe loader on every document that holds no
duplicate keys, anchors, aliases, merge keys or tags."""
import datetime

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from shmod.log import logfile, logyaml

SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def outcome(text, loader):
    try:
        return ("ok", yaml.load(text, Loader=loader))  # noqa: S506 - safe loaders
    except yaml.YAMLError as err:
        return ("error", type(err).__name__)


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
    st.text(max_size=12), st.sampled_from(["yes", "no", "on", "~", "=", "1:20", "0x1f",
                                           "2026-01-01", ".inf", "ja", "nein", "<<x"]),
    st.dates(), st.datetimes(timezones=st.just(datetime.UTC)),
)
data = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(scalars.filter(lambda v: v == v), inner, max_size=4)),
    max_leaves=20,
)


STRICT = logyaml._StrictLoader


@settings(max_examples=300, deadline=None)
@given(data, st.booleans())
def test_same_as_the_strict_and_safe_loaders_on_dumped_data(value, flow):
    text = yaml.safe_dump(value, default_flow_style=flow, allow_unicode=True)
    assert outcome(text, logyaml._PlainLoader) == outcome(text, STRICT) == outcome(text, SAFE)


@pytest.mark.parametrize("text", [
    "a: !!binary aGVsbG8=\n",
    "a: !!set {x, y}\n",
    "a: !!omap [x: 1, y: 2]\n",
    "=: 1\nb: 2\n",
    "? [1, 2]\n: x\n",
    "? {a: 1}\n: x\n",
    "a: !!str {b: c}\n",
    "a: !!map [1]\n",
    "a: !!seq {b: c}\n",
    "a: !!python/name:os.system\n",
    "a: 1\na: 2\n",
    "- {kind: vote, by: Ann, vote: ja, at: \"2026-01-01T00:00:00Z\", hash: 0abc}\n",
    "a: !custom x\n",
    "created: 2026-01-01T00:00:00Z\nshmod: 1\nx: 1.5\ny: null\n",
])
def test_same_as_the_strict_loader_on_unusual_documents(text):
    assert outcome(text, logyaml._PlainLoader) == outcome(text, STRICT)


def test_anchors_are_still_refused():
    with pytest.raises(Exception, match="anchors and aliases"):
        logfile.parse("x.yaml", b"a: &x [1]\nb: *x\nlog:\n")


@pytest.mark.parametrize("nest", [("[", "]"), ("{a: ", "}"), ("- ", "")])
def test_very_deep_nesting_is_refused_not_a_crash(nest):
    """Core bug: 30,000 nested levels crashed libyaml's composer (segfault)."""
    opening, closing = nest
    text = "a:\n  " + opening * 40_000 + "x" + closing * 40_000 + "\nlog:\n"
    with pytest.raises(logfile.LogError, match=r"nested (too deeply|more than 8 levels deep)"):
        logfile.parse("deep.yaml", text.encode())


def test_a_long_ordinary_log_is_not_mistaken_for_deep_nesting():
    entries = "".join(f"- {{kind: vote, by: P{n}, vote: ja}}\n" for n in range(3000))
    log = logfile.parse("long.yaml", ("players: [a]\nlog:\n" + entries).encode())
    assert len(log.entries) == 3000
