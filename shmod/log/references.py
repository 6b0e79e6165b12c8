"""How a ``delivered`` entry names the entry that caused its item (R-PM), never by its
number: a merge of two moderators' copies renumbers entries (R-MERGE), so a delivery names
what the entry *is*.

- The role PMs of the setup: ``header``.
- Post N: ``post N`` (posts are never renumbered, R-THREAD).
- Any other entry: its *reference*, 16 hexadecimal digits of SHA-256 over the entry's
  public fields only (:data:`PUBLIC_FIELDS`, as canonical JSON), then ``#k`` when it is the
  k-th entry (k ≥ 2) of the log with those digits. A discard's policy, a reshuffle's deck,
  a secret veto vote or a lapse's random choice are no part of it, so a reference gives
  nothing hidden away: two games with the same public history and different secrets write
  the same deliveries (tests/test_outbox.py). The moderator who recorded the entry and when
  are part of it, as they are of the identity a merge knows an entry by
  (:func:`shmod.log.chain.identity`); the entry numbers a merge rewrites are not.
"""
from __future__ import annotations

from typing import Any

from shmod.base import digest
from shmod.base.errors import BadInput
from shmod.log import logfile
from shmod.log.entries import at_text

HEADER = "header"
#: The fields a reference is made of: what anyone at the table may know of an entry.
PUBLIC_FIELDS = ("kind", "by", "chancellor", "target", "name", "word", "at", "mod")
#: Hexadecimal digits of a reference.
DIGITS = 16


def digits(raw: Any) -> str:
    """The reference's digits for one raw entry (its public fields' digest)."""
    if not isinstance(raw, dict):
        return "0" * DIGITS
    public = {key: at_text(raw) if key == "at" else str(raw[key])
              for key in PUBLIC_FIELDS if key in raw}
    return digest.sha256_hex(logfile.canonical(public))[:DIGITS]


class References:
    """The references of one log's entries, computed as far as they are asked for."""

    def __init__(self, entries: list[Any]) -> None:
        self._entries = entries
        self._names: list[str] = []  # the reference of entry n at index n - 1
        self._seen: dict[str, int] = {}
        self._where: dict[str, int] = {}
        self._posts: list[int] | None = None  # the entry of each ``posted`` entry, post 1 first

    def _reach(self, count: int) -> None:
        for index in range(len(self._names), min(count, len(self._entries))):
            raw = self._entries[index]
            made = digits(raw)
            k = self._seen[made] = self._seen.get(made, 0) + 1
            name = made if k == 1 else f"{made}#{k}"
            self._names.append(name)
            self._where[name] = index + 1

    def _posted(self) -> list[int]:
        """Where each post's ``posted`` entry is (no digest needed)."""
        if self._posts is None:
            self._posts = [index + 1 for index, raw in enumerate(self._entries)
                           if isinstance(raw, dict) and raw.get("kind") == "posted"]
        return self._posts

    def of(self, entry: int) -> str:
        """The reference of entry ``entry`` (0: the header)."""
        if entry == 0:
            return HEADER
        self._reach(entry)
        return self._names[entry - 1]

    def post(self, number: int) -> int | None:
        """The entry of post ``number``'s ``posted`` entry, if the log holds it."""
        posts = self._posted()
        return posts[number - 1] if 1 <= number <= len(posts) else None

    def find(self, name: str, before: int) -> int:
        """The entry ``name`` refers to, among the entries before entry ``before``;
        :class:`BadInput` when none is."""
        if name == HEADER:
            return 0
        if name.startswith("post "):
            number = name[5:]
            found = self.post(int(number)) if number.isdigit() else None
        else:
            self._reach(before - 1)
            found = self._where.get(name)
        if found is None or found >= before:
            raise BadInput(f"delivered entry's of names {name!r}, which is no earlier entry "
                           f"(header, post N, or an entry's reference)")
        return found
