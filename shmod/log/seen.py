"""What this terminal last wrote to a log, so that a copy that lost its steps is never
written on (R-MERGE): a log shared through a synced folder can be replaced by another
moderator's copy, or by an older one, between two commands.

After every write (:func:`shmod.log.game.record`, ``shmod new``, ``shmod merge``) the log
as written is kept per user beside the parse cache (:mod:`shmod.log.parsecache`: the same
private folder, ``SHMOD_CACHE``; a file ``….seen`` for each log), never in the log. Before
the next write, :func:`check` takes a file that extends it (entry for entry, by the hash
chain) or that holds every one of its entries (a merge moved them and chained them anew,
:func:`shmod.log.chain.identity`), and refuses any other: the report names the first
entry the two differ at on each side and the way out (``shmod merge --mine`` puts what
this terminal wrote back on top, ``shmod merge --forget`` leaves it out). With the cache
off there is no memory and no check; a memory that cannot be read is no memory.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

from shmod.base.errors import Diverged
from shmod.log import chain, logfile, parsecache
from shmod.log.entries import summary

SUFFIX = ".seen"
VERSION = 1


def remember(log: logfile.LogFile) -> None:
    """Keep ``log`` (as just written, parsed) as what this terminal last wrote to it."""
    memory = {"v": VERSION, "start": logfile.header_link(log.header),
              "hashes": [_hash(raw) for raw in log.entries],
              "ids": [chain.identity(raw) for raw in log.entries],
              "log": log.data.decode("utf-8", "surrogateescape")}
    try:
        blob = json.dumps(memory, ensure_ascii=False, separators=(",", ":")).encode()
    except (TypeError, ValueError):
        return
    parsecache.write_beside(log.path, SUFFIX, blob)


def recall(path: str) -> dict[str, Any] | None:
    """What this terminal last wrote to the log at ``path``, if it remembers it."""
    blob = parsecache.read_beside(path, SUFFIX)
    if blob is None:
        return None
    try:
        memory = json.loads(blob)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(memory, dict) and memory.get("v") == VERSION
            and isinstance(memory.get("start"), str) and isinstance(memory.get("log"), str)
            and _strings(memory.get("hashes")) and _strings(memory.get("ids"))
            and len(memory["hashes"]) == len(memory["ids"])):
        return None
    return memory


def mine(path: str) -> bytes | None:
    """The log as this terminal last wrote it (``shmod merge --mine``)."""
    memory = recall(path)
    return None if memory is None else str(memory["log"]).encode("utf-8", "surrogateescape")


def forget(path: str) -> bool:
    """Forget what this terminal wrote to the log at ``path``; whether it remembered."""
    return parsecache.remove_beside(path, SUFFIX)


def check(log: logfile.LogFile) -> None:
    """Refuse (:class:`Diverged`) a log that lacks an entry this terminal last wrote to it
    (a sync that replaced it, an older copy put back, another moderator's fork)."""
    memory = recall(log.path)
    if memory is None or memory["start"] != logfile.header_link(log.header):
        return  # nothing remembered, or another game at this path
    hashes, ids = memory["hashes"], memory["ids"]
    here = [_hash(raw) for raw in log.entries]
    common = 0
    for mine_hash, its_hash in zip(hashes, here):
        if mine_hash is None or mine_hash != its_hash:
            break
        common += 1
    if common == len(hashes):
        return
    held = Counter(chain.identity(raw) for raw in log.entries[common:])
    wanted = Counter(ids[common:])
    if not wanted - held:
        return  # every entry is there: a merge chained them anew
    raise Diverged(log.path, log.line_of(common) or None, lost_report(log, memory, common))


def lost_report(log: logfile.LogFile, memory: dict[str, Any], common: int) -> str:
    """The refusal: where the file and what this terminal wrote part, and the way out."""
    theirs = (summary(log.entries[common], common + 1) if common < len(log.entries)
              else f"no entry {common + 1}: it ends at entry {len(log.entries)}")
    try:
        written = logfile.parse(log.path, str(memory["log"]).encode("utf-8", "surrogateescape"))
        ours = summary(written.entries[common], common + 1)
    except Exception:  # noqa: BLE001 - a memory that does not parse: named by number only
        ours = f"entry {common + 1}"
    count = len(memory["ids"])
    return (f"nothing was recorded: this file lacks entries this terminal recorded (R-MERGE): "
            f"you last wrote {count} entries, and from {ours} on they are not here; the file "
            f"has {theirs} there (a synced folder replaced it with another copy, or an older "
            "one was put back). Put yours back on top of it with `shmod merge --mine` (it "
            "refuses, naming the step, if one no longer applies), or merge the other copy "
            "with `shmod merge COPY`; to leave yours out on purpose, `shmod merge --forget`")


def _hash(raw: Any) -> str | None:
    value = raw.get("hash") if isinstance(raw, dict) else None
    return value if isinstance(value, str) else None


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(v is None or isinstance(v, str) for v in value)
