"""The hash chain, walked once for everyone who reads it (R-EDIT, R-CHECKPOINT).

Every entry's ``hash`` links it to the entry before: :func:`shmod.log.logfile.link` of
the previous link and what the entry says. A :class:`Walk` follows two chains at once:

- the *stored* chain, as the ``hash`` fields have it: each entry is checked against the
  stored hash of the entry before it, so one edit is found once, where it is;
- the *content* chain, over what the entries say whatever their ``hash`` fields say: its
  heads are what the thread's checkpoints pin (:mod:`shmod.log.checkpoints`).

While nothing was edited the two are one and each entry is hashed once. On the way the
walk notes the ``posted`` entries (each post's checkpoint) and the ``acknowledge``
entries (hand edits vouched for); the replay and the audit each judge what they need.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal

from shmod.base import digest
from shmod.log import logfile

#: What the stored chain says of an entry: it has no ``hash`` (``unchained``), or its
#: hash is not the link after the stored hash before it (``mismatch``: an edit).
Finding = Literal["unchained", "mismatch"]

#: The link of an entry that cannot be hashed: no stored hash can equal it.
UNHASHABLE = "unhashable"


class Link:
    """The chain at entry ``index`` (0-based). ``found`` is None for an entry that chains,
    or is not a mapping (then nothing of it is hashed, and the content chain breaks). The
    content chain's head after the entry is the walk's last ``heads`` when it is given.

    A plain slotted class, not a :class:`~shmod.base.records.Record`: one is made for
    every entry of every replay, and a record's generic ``__init__`` costs several times
    as much."""

    __slots__ = ("checkpoint", "found", "index", "post", "upto")

    def __init__(self, index: int, found: Finding | None, post: int = 0,
                 upto: int | None = None, checkpoint: str | None = None) -> None:
        self.index = index
        self.found = found
        self.post = post  # a ``posted`` entry: the number of the post it marks (1 first)
        self.upto = upto  # its ``upto``, if a number
        self.checkpoint = checkpoint  # its ``checkpoint``, if a text


class Walk:
    """A walk along a log's chain: iterating it gives a :class:`Link` for each entry, in
    order. Its attributes hold what it has met so far; after the last entry, the whole
    log's."""

    def __init__(self, log: logfile.LogFile) -> None:
        self.head = logfile.header_link(log.header)  # the stored chain's head
        #: The content chain's head after the header (index 0) and after each entry.
        self.heads = [self.head]
        #: The ``upto`` of each ``posted`` entry whose ``upto`` is a number, post 1 first.
        self.posts: list[int] = []
        #: Entry number -> (the ``acknowledge`` entry saying it was edited, its reason).
        self.acknowledged: dict[int, tuple[int, Any]] = {}
        self._links = self._walk(log.entries)

    def __iter__(self) -> Iterator[Link]:
        return self._links

    def _walk(self, entries: list[Any]) -> Iterator[Link]:
        heads, head, posted = self.heads, self.head, 0
        found: Finding | None
        for index, raw in enumerate(entries):
            if not isinstance(raw, dict):
                heads.append(UNHASHABLE)
                yield Link(index, None)
                continue
            link = linked(head, raw)
            heads.append(link if heads[-1] == head else linked(heads[-1], raw))
            stored = raw.get("hash")
            if stored is None:
                head = link
                found = "unchained"
            else:
                # Chain over the stored hash, so one tampered entry is found once, where it is.
                found = None if stored == link else "mismatch"
                head = str(stored)
            self.head = head
            kind = raw.get("kind")
            if kind == "posted":
                posted += 1
                upto, mark = raw.get("upto"), raw.get("checkpoint")
                if isinstance(upto, int) and not isinstance(upto, bool):
                    self.posts.append(upto)
                yield Link(index, found, posted, upto if isinstance(upto, int) else None,
                           mark if isinstance(mark, str) else None)
                continue
            if kind == "acknowledge":
                numbers = raw.get("entries")
                for number in numbers if isinstance(numbers, list) else [numbers]:
                    if isinstance(number, int) and number <= index:
                        self.acknowledged[number] = (index + 1, raw.get("reason"))
            yield Link(index, found)


def linked(previous: str, raw: dict[str, Any]) -> str:
    """The entry's link after ``previous``, or :data:`UNHASHABLE` when it cannot be hashed
    (:func:`shmod.log.logfile.link` refuses it)."""
    try:
        return logfile.link(previous, raw)
    except (TypeError, ValueError):
        return UNHASHABLE


#: The fields that hold entry numbers, which a merge rewrites when it moves an entry
#: (:mod:`shmod.log.merge`): what a correction or an acknowledgement names, the deadline a
#: lapse is of.
NUMBERED = ("entries", "deadline")


def identity(raw: Any, earlier: Sequence[str] | None = None) -> str:
    """What an entry records, wherever it stands: a digest of it without its ``hash`` and
    the entry numbers it names (:data:`NUMBERED`), which a merge that moves it rewrites.
    With its ``at`` and ``mod``, two entries alike are one entry recorded once.

    ``earlier``: the identities of the entries before it in its log; the entries it names
    then count by theirs, so two corrections are one entry only if they void the same
    entries (an entry with no numbered field has the same identity either way)."""
    if not isinstance(raw, dict):
        return UNHASHABLE
    body = {k: v for k, v in raw.items() if k != "hash" and k not in NUMBERED}
    if earlier is not None:
        for key in NUMBERED:
            if key in raw:
                body["\0" + key] = _named(raw[key], earlier)
    try:
        text = logfile.canonical(body)
    except (TypeError, ValueError):
        return UNHASHABLE
    return digest.sha256_hex(text)[:logfile.HASH_LEN]


def identities(entries: Sequence[Any]) -> list[str]:
    """Each entry's :func:`identity`, the entries it names counted by theirs."""
    found: list[str] = []
    for raw in entries:
        found.append(identity(raw, found))
    return found


def first_places(entries: Sequence[Any]) -> dict[str, int]:
    """Each identity the entries have (:func:`identities`), with the index (0-based) of the
    first entry that has it."""
    found: dict[str, int] = {}
    for index, ident in enumerate(identities(entries)):
        found.setdefault(ident, index)
    return found


def _named(value: Any, earlier: Sequence[str]) -> list[str]:
    """The identities of the entries ``value`` names (a number or a list of them), in one
    order; a number that names no earlier entry stands as itself."""
    numbers = value if isinstance(value, list) else [value]
    return sorted(earlier[n - 1] if isinstance(n, int) and not isinstance(n, bool)
                  and 1 <= n <= len(earlier) else f"#{n!r}" for n in numbers)
