"""Checkpoints: the thread pins the log (R-CHECKPOINT).

Every thread post shmod renders ends with one line, ``Log checkpoint: entry N · <hash>``:
the head of the hash chain over the header and the first N entries, computed from what
those entries *say* (never from their ``hash`` fields). Once posted, the line is in the
thread, out of the moderator's hands; ``shmod audit LOG --thread FILE`` finds every such
line in the pasted thread and checks that the log still gives it. A log changed anywhere
at or before a posted checkpoint fails, whatever hashes were recomputed or stripped.

The checkpoint is the full 32 hex digits (128 bits) of the chain link: to make a changed
log give the posted value one must find a second preimage of truncated SHA-256 (about
2^128 tries), and even a moderator preparing two versions of an entry in advance needs a
collision (about 2^64 tries, decades on a GPU). The chain starts from a hash of the whole
header, secrets and salt included, so a checkpoint says nothing about hidden information.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from shmod.core.steps import CHECKPOINT_HEX
from shmod.log import logfile

LABEL = "Log checkpoint"
_FOUND = re.compile(rf"log\W{{0,3}}checkpoint\W{{0,20}}entry\W{{0,10}}(\d{{1,6}})\W{{0,20}}"
                    rf"([0-9a-f]{{{CHECKPOINT_HEX}}})(?![0-9a-f])", re.IGNORECASE)


def line(entry: int, head: str) -> str:
    """The checkpoint line that ends a post covering the log up to ``entry``."""
    return f"{LABEL}: entry {entry} · {head}"


def find(text: str) -> list[tuple[int, str]]:
    """Every checkpoint in pasted thread text (BBCode, Markdown or plain, or as a browser
    shows it), in order, each once: ``(entry, head)``."""
    found = ((int(m.group(1)), m.group(2).lower()) for m in _FOUND.finditer(text))
    return list(dict.fromkeys(found))


def heads(log: logfile.LogFile) -> list[str]:
    """The chain's head after the header (index 0) and after each entry, computed from
    the entries' content; an entry that cannot be hashed breaks the chain from there."""
    head = logfile.header_link(log.header)
    out = [head]
    for raw in log.entries:
        try:
            head = logfile.link(head, raw) if isinstance(raw, dict) else "unhashable"
        except (TypeError, ValueError):
            head = "unhashable"
        out.append(head)
    return out


@dataclass(frozen=True)
class Check:
    """One checkpoint found in the thread, and whether the log gives it."""

    entry: int
    posted: str
    computed: str | None  # None: the log has fewer entries than the checkpoint names

    @property
    def ok(self) -> bool:
        return self.posted == self.computed

    def describe(self) -> str:
        if self.ok:
            return f"entry {self.entry}: {self.posted} matches"
        if self.computed is None:
            return (f"entry {self.entry}: the thread shows checkpoint {self.posted}, but the "
                    "log ends before that entry: entries were removed from its end")
        return (f"entry {self.entry}: the thread shows checkpoint {self.posted}, but the log "
                f"gives {self.computed}: an entry at or before entry {self.entry} (or the "
                "header) was changed after this post was made")

    def to_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "posted": self.posted, "log": self.computed,
                "ok": self.ok}


def verify(log: logfile.LogFile, thread: str) -> list[Check]:
    """Check every checkpoint in ``thread`` against ``log``."""
    chain = heads(log)
    return [Check(entry, posted, chain[entry] if entry < len(chain) else None)
            for entry, posted in find(thread)]
