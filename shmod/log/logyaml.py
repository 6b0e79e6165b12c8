"""The strict YAML reader behind :func:`shmod.log.logfile.parse` (PyYAML, C loader when present).

A game log holds plain data only: text, numbers, lists and mappings; no anchors, aliases,
merge keys or tags beyond the core ones, no duplicate keys, bounded depth and length. This
module is imported only when a log's bytes are actually parsed (a command that reads an
unchanged log gets its parse from :mod:`shmod.log.parsecache` and never loads PyYAML).
"""
from __future__ import annotations

import re
from typing import Any

import yaml

from shmod.base.errors import LogError

MAX_SCALAR = 1000  # characters in one key or value
MAX_DEPTH = 8  # nested mappings/lists; a log needs 4
MAX_VALUES = 50_000  # parser events (keys, values, lists): ~3500 entries, several games' worth
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: shmod's own entries: one flow mapping a line, at most one flat list inside, and none of
#: the characters anchors, aliases, tags or nesting need.
_ENTRIES = re.compile(r"(?:- \{[^{}\[\]&*!\n]*(?:\[[^\[\]{}&*!\n]*\][^{}\[\]&*!\n]*)?\}"
                      r"[ \t]*(?:#[^\n]*)?\n)*")
_PLAIN_TAGS = {None, "!"} | {f"tag:yaml.org,2002:{t}"
                             for t in ("str", "int", "bool", "null", "float", "seq", "map")}


class _StrictLoader(_Loader):  # type: ignore[misc, valid-type]
    """Plain data only: safe tags, no anchors/aliases, no merge keys."""

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


class _PlainLoader(_StrictLoader):
    """The strict loader with a fast path: plain maps, lists and strings are built
    directly (duplicate keys refused as the strict constructor refuses them); anything
    else (other tags, non-scalar or merge keys) goes through the strict constructor, so
    both paths accept and refuse exactly the same documents."""

    def construct_document(self, node: yaml.Node) -> Any:
        try:
            return self._plain(node)
        except _NotPlain:
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



def load(text: str) -> Any:
    """The document in ``text``, read strictly; PyYAML's errors (``yaml.YAMLError``) and
    :class:`LogError` for what a log never holds propagate to the caller."""
    return yaml.load(text, Loader=_PlainLoader)  # noqa: S506 - strict, plain data only


def check_plain(path: str, text: str) -> None:
    """Refuse, before building anything, what a plain log never holds: anchors/aliases,
    tags beyond the core ones, deep nesting, long strings.

    The parser's events are checked one by one; for the usual shape (shmod's own one-line
    entries, which the pattern below admits only without any of those) only the header's
    events are, so that replaying stays cheap."""
    head, sep, body = text.partition("\nlog:\n")
    if sep and _ENTRIES.fullmatch(body) and all(len(line) <= MAX_SCALAR
                                                for line in body.splitlines()):
        text = head + sep
    depth = 0
    for count, event in enumerate(yaml.parse(text, Loader=_Loader)):
        if count > MAX_VALUES:
            raise LogError(path, _line(event), f"more than {MAX_VALUES} keys and values: "
                           "far more than a game log ever holds")
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise LogError(path, _line(event),
                           "anchors and aliases (&, *) are not allowed in a game log")
        tag = getattr(event, "tag", None)
        if tag not in _PLAIN_TAGS:
            shown = str(tag).replace("tag:yaml.org,2002:", "!!")
            raise LogError(path, _line(event), f"the tag {shown} is not allowed: a game log "
                           "holds plain data only (text, numbers, lists, mappings)")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise LogError(path, _line(event), f"nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_SCALAR:
            raise LogError(path, _line(event), f"a value of {len(event.value)} characters "
                           f"is too long (the limit is {MAX_SCALAR})")


def _line(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark else 1


def entry_lines_slow(text: str) -> list[int]:
    node = yaml.compose(text, Loader=_Loader)
    for key, value in node.value:
        if key.value == "log" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


