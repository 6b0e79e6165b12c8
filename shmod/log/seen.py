"""What this terminal last wrote to a log, so that a copy that lost its steps is never
written on (R-MERGE): a log shared through a synced folder can be replaced by another
moderator's copy, or by an older one, between two commands.

After every write (:func:`shmod.log.store.record`, ``shmod new``, ``shmod merge``) the log
as written is kept per user beside the parse cache (:mod:`shmod.log.parsecache`: the same
private folder, ``SHMOD_CACHE``; a file ``….seen`` for each log), never in the log. Before
the next write, :func:`check` takes a file that extends it (entry for entry, by the hash
chain) or that holds every one of its entries (a merge moved them and chained them anew,
:func:`shmod.log.chain.identity`; or, for a vote or a word, holds the other moderator's
entry of it from the same PM, in effect alike, which a merge counted once: :func:`act`;
or lacks only a post of this terminal's that lost a race with the other moderator's post
of its number, held as a ``withdrawn`` entry, or dropped since it never reached the thread,
and that post's deliveries), and refuses any other: the report names the first entry the
two differ at on each side and the way out (``shmod merge --mine`` puts what this terminal
wrote back on top, ``shmod merge --forget`` leaves it out). With the cache off there is no
memory and no check; a memory that cannot be read is no memory.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from shmod.base.errors import Diverged
from shmod.forum.steps import Word
from shmod.game.steps import Step, Vote
from shmod.log import chain, logfile, parsecache
from shmod.log.entries import summary

SUFFIX = ".seen"
VERSION = 2  # 2: a correction's identity counts the entries it voids by theirs

#: An entry as :func:`act` knows it: its act and whether it is in effect (None: another
#: step).
Act = tuple[tuple[object, ...], bool] | None
#: What :func:`check` is given to read a log's acts, entry by entry (a replay).
Acts = Callable[[logfile.LogFile], list[Act]]


def act(step: Step, round_: int) -> tuple[object, ...] | None:
    """A player's vote in a round (its value with it), or word: what two moderators who
    each recorded the same PM recorded alike (None: another step)."""
    if isinstance(step, Vote):
        return ("vote", step.by, round_, step.vote)
    if isinstance(step, Word):
        return ("word", step.by, step.word)
    return None


def remember(log: logfile.LogFile) -> None:
    """Keep ``log`` (as just written, parsed) as what this terminal last wrote to it."""
    memory = {"v": VERSION, "start": logfile.header_link(log.header),
              "hashes": [_hash(raw) for raw in log.entries],
              "ids": chain.identities(log.entries),
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


def check(log: logfile.LogFile, acts: Acts | None = None) -> None:
    """Refuse (:class:`Diverged`) a log that lacks an entry this terminal last wrote to it
    (a sync that replaced it, an older copy put back, another moderator's fork). ``acts``
    reads a log's votes and words (a replay): a vote or word of this terminal's that a
    merge counted once, the other moderator's entry of it standing in the log, is then
    recognised."""
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
    held = Counter(chain.identities(log.entries)[common:])
    missing = [i for i in range(common, len(ids)) if not _take(held, ids[i])]
    if not missing:
        return  # every entry is there: a merge chained them anew
    missing = _unraced(log, memory, missing)
    if not missing:
        return  # and the posts it lacks lost a race: withdrawn, or dropped undelivered
    if acts is not None and _recognised(log, memory, missing, common, acts):
        return  # and the votes it lacks are there as the other moderator recorded them
    raise Diverged(log.path, log.line_of(common) or None, lost_report(log, memory, common))


def _unraced(log: logfile.LogFile, memory: dict[str, Any], missing: list[int]) -> list[int]:
    """``missing`` (0-based, entries this terminal wrote that ``log`` lacks) less the posts
    a merge took out after a race with the other moderator's post of their number (R-MERGE):
    one that reached the thread is there as a ``withdrawn`` entry with its checkpoint; one
    that never did (no delivery of it, in a log that keeps an outbox) is dropped; and
    the deliveries of such posts go with them."""
    try:
        written = logfile.parse(log.path, str(memory["log"]).encode("utf-8", "surrogateescape"))
    except Exception:  # noqa: BLE001 - a memory that does not parse: nothing recognised
        return missing
    withdrawn = {(raw.get("post"), raw.get("checkpoint")) for raw in log.entries
                 if isinstance(raw, dict) and raw.get("kind") == "withdrawn"}
    posts: dict[int, int] = {}  # index of each ``posted`` entry -> its post number
    delivered: set[object] = set()  # the posts delivered to the thread, as ``post N``
    outbox_from: int | None = None  # the first entry of the outbox (shmod.forum.deliveries)
    for index, raw in enumerate(written.entries):
        kind = raw.get("kind") if isinstance(raw, dict) else None
        if kind == "posted":
            posts[index] = len(posts) + 1
            if raw.get("outbox") is True and outbox_from is None:
                outbox_from = index
        elif kind == "delivered":
            outbox_from = index if outbox_from is None else outbox_from
            if raw.get("what") == "post" and raw.get("to") == "thread" and "wrong" not in raw:
                delivered.add(raw.get("of"))
    gone = set()
    for index in missing:
        if index in posts:
            raw, post = written.entries[index], posts[index]
            if (post, raw.get("checkpoint")) in withdrawn or (
                    outbox_from is not None and outbox_from <= index
                    and f"post {post}" not in delivered):
                gone.add(f"post {post}")
    if not gone:
        return missing
    left = []
    for index in missing:
        raw = written.entries[index] if index < len(written.entries) else None
        if index in posts and f"post {posts[index]}" in gone:
            continue
        if isinstance(raw, dict) and raw.get("kind") == "delivered" and \
                raw.get("what") == "post" and raw.get("of") in gone:
            continue
        left.append(index)
    return left


def _take(held: Counter[Any], key: Any) -> bool:
    """Take one ``key`` from ``held``; whether there was one."""
    if held[key] <= 0:
        return False
    held[key] -= 1
    return True


def _recognised(log: logfile.LogFile, memory: dict[str, Any], missing: list[int],
                common: int, acts: Acts) -> bool:
    """Whether each entry this terminal wrote that ``log`` lacks (``missing``, 0-based) is
    a vote or a word ``log`` holds after the shared entries, recorded by the other
    moderator, in effect or voided alike."""
    try:
        written = logfile.parse(log.path, str(memory["log"]).encode("utf-8", "surrogateescape"))
        ours, theirs = acts(written), acts(log)
    except Exception:  # noqa: BLE001 - a memory or a file that does not replay: not recognised
        return False
    if len(ours) != len(memory["ids"]):
        return False
    held = Counter(found for found in theirs[common:] if found is not None)
    return all(ours[i] is not None and _take(held, ours[i]) for i in missing)


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
