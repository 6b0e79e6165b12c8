"""The strict YAML reader behind :func:`shmod.log.logfile.parse` (PyYAML, C loader when present).

A game log holds plain data only: text, numbers, lists and mappings; no anchors, aliases,
merge keys or tags beyond the core ones, no duplicate keys, bounded depth and length. This
module is imported only when a log's bytes are actually parsed (a command that reads an
unchanged log gets its parse from :mod:`shmod.log.parsecache` and never loads PyYAML).
"""
from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Any

import yaml

from shmod.base.errors import LogError

MAX_SCALAR = 1000  # characters in one key or value
MAX_DEPTH = 8  # nested mappings/lists; a log needs 4
MAX_VALUES = 50_000  # parser events (keys, values, lists): ~3500 entries, several games' worth
MAX_ENTRIES = 5_000  # a 10-player game with every aid stays well under 1,000 entries
#: shmod's own entries, one flow mapping a line (``- {kind: vote, by: Ann, vote: ja}``):
#: keys are words, values words, double-quoted strings (JSON's escapes) or flat lists of
#: them. PyYAML's C and pure-Python readers read these the same, and they hold nothing
#: :func:`check_plain` looks for (anchors, tags, nesting, a loose ``?`` or ``:``).
_WORD = r"[A-Za-z0-9_][A-Za-z0-9_.'-]*(?: [A-Za-z0-9_.'-]+)*"
_QUOTED = r'"(?:[^"\\\n\r\x85\u2028\u2029]++|\\["\\/bfnrt]|\\u[0-9A-Fa-f]{4})*"'
_SCALAR = f"(?:{_WORD}|{_QUOTED})"
_VALUE = rf"(?:{_SCALAR}|\[(?:{_SCALAR}(?:, {_SCALAR})*)?\])"
_PAIRS = f"(?:{_WORD}: {_VALUE}(?:, {_WORD}: {_VALUE})*)?"
_ENTRIES = re.compile(rf"(?:- \{{{_PAIRS}\}}(?: +#[^\n]*)? *\n)*")
#: What YAML itself uses outside its scalars and where the two readers part: ``?`` (a
#: complex key, or in a word between braces), ``:`` not followed by a space (``{k:}``).
_INDICATORS = re.compile(r"[?:#]")
_CORE = ("str", "int", "bool", "null", "float", "seq", "map")
_PLAIN_TAGS = {None} | {f"tag:yaml.org,2002:{t}" for t in _CORE}
#: The same tags as written (``!!str``): the readers part on where a tag ends (``[F, !,
#: F]``), and on what ``!`` (the non-specific tag) makes of an empty value.
_WRITTEN_TAGS = {f"!!{t}" for t in _CORE}
_TAG = re.compile(r"\S*")


if TYPE_CHECKING:  # what the mixin is mixed into (at run time it has no base)
    _Constructor = yaml.constructor.SafeConstructor
else:
    _Constructor = object


class _Strict(_Constructor):
    """Plain data only: safe tags, no anchors/aliases, no merge keys (a mixin over one of
    PyYAML's safe loaders, :data:`READERS`)."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "anchors and aliases (&, *) are not allowed in a game log",
                node.start_mark)
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError, TypeError) as err:  # e.g. a date 2026-13-45
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read value: {err}", node.start_mark) from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        mapping = super().construct_mapping(node, deep)
        if len(mapping) != len(node.value):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.constructed_objects.get(key_node)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r}", key_node.start_mark)
                seen.add(key)
        return mapping

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        for key, _ in node.value:
            if key.tag == "tag:yaml.org,2002:merge":
                raise yaml.constructor.ConstructorError(
                    None, None, "merge keys (<<) are not allowed in a game log", key.start_mark)
        super().flatten_mapping(node)


_STR, _MAP, _SEQ = (f"tag:yaml.org,2002:{t}" for t in ("str", "map", "seq"))


class _NotPlain(Exception):
    """The document needs PyYAML's general constructor."""


class _Plain(_Strict):
    """The strict loader with a fast path: plain maps, lists and strings are built
    directly (duplicate keys refused as the strict constructor refuses them); anything
    else (other tags, non-scalar or merge keys) goes through the strict constructor, so
    both paths accept and refuse exactly the same documents."""

    def construct_document(self, node: yaml.Node) -> Any:
        try:
            return self._plain(node)
        except _NotPlain:
            # anew: a scalar the fast path built (a number) must not read as an alias
            self.constructed_objects, self.recursive_objects = {}, {}
            return super().construct_document(node)

    def _plain(self, node: yaml.Node) -> Any:
        tag = node.tag
        if isinstance(node, yaml.ScalarNode):
            return node.value if tag == _STR else self.construct_object(node)
        if isinstance(node, yaml.MappingNode) and tag == _MAP:
            out = {}
            for key, value in node.value:
                if not isinstance(key, yaml.ScalarNode) or (
                        key.tag != _STR and key.tag.endswith(("merge", "value"))):
                    raise _NotPlain
                name = self._plain(key)
                if name in out:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {name!r}", key.start_mark)
                out[name] = self._plain(value)
            return out
        if isinstance(node, yaml.SequenceNode) and tag == _SEQ:
            return [self._plain(item) for item in node.value]
        raise _NotPlain


class _StrictLoader(_Strict, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The strict loader over libyaml (PyYAML's C loader) when it is installed."""


class _PlainLoader(_Plain, _StrictLoader):
    """The fast strict loader over libyaml when it is installed."""


class _PurePlainLoader(_Plain, yaml.SafeLoader):
    """The fast strict loader over PyYAML's own pure-Python reader."""


#: The readers a log can be read with: (PyYAML's loader that parses, shmod's strict
#: loader over it). "c" (libyaml) where it is installed, else "python" (what a player
#: without libyaml has); both must read every log the same (tests/test_hostile_input.py).
READERS: dict[str, tuple[type, type]] = {"python": (yaml.SafeLoader, _PurePlainLoader)}
if hasattr(yaml, "CSafeLoader"):
    READERS["c"] = (yaml.CSafeLoader, _PlainLoader)
#: The reader in use (a test sets another).
reader = READERS.get("c", READERS["python"])


def load(text: str) -> Any:
    """The document in ``text``, read strictly; PyYAML's errors (``yaml.YAMLError``) and
    :class:`LogError` for what a log never holds propagate to the caller."""
    return yaml.load(text, Loader=reader[1])  # noqa: S506 - strict, plain data only


def check_plain(path: str, text: str) -> None:
    """Refuse, before building anything, what a plain log never holds: anchors/aliases,
    tags beyond the core ones, deep nesting, long strings, too many entries, and what
    PyYAML's two readers read differently (tabs, a loose ``?`` or ``:``, ...).

    The parser's events are checked one by one; for the usual shape (shmod's own one-line
    entries, which the pattern below admits only without any of those) only the header's
    events are, so that replaying stays cheap."""
    _refuse_disputed_characters(path, text)
    head, sep, body = text.partition("\nlog:\n")
    if sep and _ENTRIES.fullmatch(body) and all(len(line) <= MAX_SCALAR
                                                for line in body.splitlines()):
        if body.count("\n") > MAX_ENTRIES:  # one entry a line: refused before any is read
            raise too_many_entries(path, head.count("\n") + 3 + MAX_ENTRIES)
        text = head + sep
    depth = 0
    spans: list[tuple[int, int]] = []  # where each scalar is in ``text``
    for count, event in enumerate(yaml.parse(text, Loader=reader[0])):
        if count > MAX_VALUES:
            raise LogError(path, _line(event), f"more than {MAX_VALUES} keys and values: "
                           "far more than a game log ever holds")
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise LogError(path, _line(event),
                           "anchors and aliases (&, *) are not allowed in a game log")
        tag = getattr(event, "tag", None)
        if tag is not None:
            # \S* always matches, and the parser marks every event
            written = _TAG.match(text, event.start_mark.index).group()  # type: ignore[union-attr]
            if tag not in _PLAIN_TAGS or written not in _WRITTEN_TAGS:
                raise LogError(path, _line(event), f"the tag {written} is not allowed: a game "
                               "log holds plain data only (text, numbers, lists, mappings)")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise LogError(path, _line(event), f"nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.ScalarEvent):
            if len(event.value) > MAX_SCALAR:
                raise LogError(path, _line(event), f"a value of {len(event.value)} characters "
                               f"is too long (the limit is {MAX_SCALAR})")
            if not event.style and "?" in event.value:
                raise LogError(path, _line(event), f"{_DISPUTED} ? in text outside quotes: "
                               "put text holding a ? in double quotes")
            spans.append((event.start_mark.index, event.end_mark.index))  # type: ignore[union-attr]
        elif isinstance(event, yaml.DocumentStartEvent) and (event.version or event.tags):
            raise LogError(path, _line(event), f"{_DISPUTED} directive (%YAML, %TAG)")
    _refuse_loose_indicators(path, text, spans)


def too_many_entries(path: str, line: int) -> LogError:
    """The refusal of a log holding more than :data:`MAX_ENTRIES` entries, at the line of
    the first entry over the limit."""
    return LogError(path, line, f"entry {MAX_ENTRIES + 1}: more than {MAX_ENTRIES} entries: "
                    "far more than a game log ever holds")


#: Why a log may hold none of what follows: PyYAML's C reader (libyaml) and its own
#: pure-Python one read these differently, and a log must read the same everywhere.
_DISPUTED = "YAML readers disagree about a"


def _refuse_disputed_characters(path: str, text: str) -> None:
    """Refuse a tab anywhere (no string in a log holds one) and a byte order mark
    anywhere but at the very start."""
    for char, what, start in (("\t", "tab (use spaces)", 0), ("\ufeff", "byte order mark "
                                                                 "(U+FEFF) after the start", 1)):
        at = text.find(char, start)
        if at >= 0:
            raise LogError(path, text.count("\n", 0, at) + 1, f"{_DISPUTED} {what}, so a "
                           "game log holds none")


def _refuse_loose_indicators(path: str, text: str, spans: list[tuple[int, int]]) -> None:
    """Outside every scalar (``spans``, in order) and comment, refuse a ``?`` (a complex
    key) and a ``:`` that no space or line end follows (``{k:}``, ``{k:, …}``)."""
    starts = [start for start, _ in spans]
    comment_end = 0
    for found in _INDICATORS.finditer(text):
        at = found.start()
        inside = bisect.bisect_right(starts, at) - 1
        if at < comment_end or (inside >= 0 and at < spans[inside][1]):
            continue
        if found.group() == "#":
            end = text.find("\n", at)
            comment_end = len(text) if end < 0 else end
        elif found.group() == "?" or text[at + 1:at + 2] not in ("", " ", "\n", "\r"):
            raise LogError(path, text.count("\n", 0, at) + 1,
                           f"{_DISPUTED} {found.group()!r} here: write `key: value`, with "
                           "a space after the colon, and any text holding ? or : in quotes")


def _line(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark else 1


def entry_lines_slow(text: str) -> list[int]:
    node = yaml.compose(text, Loader=reader[0])
    for key, value in node.value:  # type: ignore[union-attr]
        if key.value == "log" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


