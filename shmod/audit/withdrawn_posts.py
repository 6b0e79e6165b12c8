"""The thread audit of posts withdrawn after a race between moderators (R-MERGE,
R-CHECKPOINT; :mod:`shmod.log.withdrawals`).

When two moderators both made post N, the merge kept one and recorded the other as a
``withdrawn`` entry. The thread may show both: the withdrawn version's checkpoint line is
the moderator's (its signature verifies) and the log no longer gives it, which alone would
fail the audit as "two versions of this post". It is accepted when the log records it as
withdrawn and the thread shows its withdrawal line after it, signed with the game's key (a
tag of the salt in format 1). A genuine withdrawal line of the version the log keeps is a
problem: the moderators withdrew in the thread what the log says counts.
"""
from __future__ import annotations

from shmod.audit.findings import Problem
from shmod.base.records import Record, field
from shmod.log import chain, logfile, withdrawals
from shmod.log.checkpoints import Check
from shmod.log.entries import CHECKPOINT_HEX


class Withdrawn(Record):
    """A ``withdrawn`` entry of the log: its number, the post, its checkpoint, who made it,
    and where in the log the steps it covered are (None where the log lacks one)."""

    entry: int
    post: int
    checkpoint: str
    by: str | None
    steps: tuple[int | None, ...] = ()


class Judged(Record, frozen=False):
    """What the thread shows of the withdrawn posts: a finding for each line checked
    (``(kind, message)``, by the checkpoint line's claim), findings of withdrawal lines
    alone, and what it pins in words."""

    claims: dict[object, tuple[str, str] | None] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    coverage: list[str] = field(default_factory=list)


def recorded(log: logfile.LogFile) -> list[Withdrawn]:
    """Every ``withdrawn`` entry of ``log``, with where the steps it covered are."""
    raws = [(number, raw) for number, raw in enumerate(log.entries, 1)
            if isinstance(raw, dict) and raw.get("kind") == "withdrawn"]
    if not raws:
        return []
    where = {ident: number for number, ident in
             reversed(list(enumerate(chain.identities(log.entries), 1)))}
    found = []
    for number, raw in raws:
        post, shown, covered = raw.get("post"), raw.get("checkpoint"), raw.get("covered")
        if not isinstance(post, int) or not isinstance(shown, str):
            continue
        mod = raw.get("mod")
        steps = tuple(where.get(ident) for ident in covered if isinstance(ident, str)) \
            if isinstance(covered, list) else ()
        found.append(Withdrawn(number, post, shown, mod if isinstance(mod, str) else None,
                               steps))
    return found


def judge(thread: str, checks: list[Check], withdrawn: list[Withdrawn], *,
          salt: str | None, key: str | None, commitment: str | None,
          standing: dict[int, str]) -> Judged:
    """Judge the thread's lines of withdrawn posts: ``thread`` as a forum shows it
    (:func:`shmod.log.checkpoints.readable`), ``checks`` its checkpoint lines judged,
    ``withdrawn`` the log's records, ``salt``, ``key`` and ``commitment`` what a genuine
    line is made with, ``standing`` the checkpoint value of each post the log keeps."""
    out = Judged()
    lines = withdrawals.find(thread)
    genuine = [line for line in lines
               if withdrawals.genuine(line, salt=salt, key=key, commitment=commitment)]
    by_version = {(w.post, w.checkpoint): w for w in withdrawn}
    used: set[int] = set()
    for check in checks:
        claim = check.claim
        mine = by_version.get((claim.post, claim.token)) if claim.post is not None else None
        if mine is None or not check.genuine:
            continue
        value = claim.token[:CHECKPOINT_HEX]
        shown_at = thread.lower().find(value)
        follows = next((line for line in genuine if line.post == mine.post
                        and line.value == value and line.start > shown_at), None)
        who = f", made by {mine.by}" if mine.by else ""
        if follows is None:
            out.claims[claim] = ("checkpoint", (
                f"post {mine.post}: a version of this post that lost a race with another "
                f"moderator's post {mine.post} and is withdrawn (entry {mine.entry}{who}), "
                "shown without its withdrawal line after it: edit that post and add the "
                f"line `shmod send` gives for it ({withdrawals.LABEL}: post {mine.post} · "
                f"{value} · …)"))
            continue
        used.add(follows.start)
        out.claims[claim] = None
        steps = [n for n in mine.steps if n is not None]
        held = f"entries {_listed(steps)}" if steps else "no step"
        out.coverage.append(
            f"post {mine.post}: the version withdrawn after a race (entry {mine.entry}{who}) "
            f"shows its withdrawal line after it; what it covered is in the log ({held})")
    for line in genuine:
        if line.start in used or any(line.post == w.post and line.value ==
                                     w.checkpoint[:CHECKPOINT_HEX] for w in withdrawn):
            continue
        if standing.get(line.post) == line.value:
            out.problems.append(Problem("checkpoint", (
                f"post {line.post}: the thread shows a signed withdrawal of the version of "
                f"post {line.post} this log keeps: the moderators withdrew in the thread the "
                "post the log says counts"), rule="R-MERGE"))
        else:
            out.warnings.append(Problem("thread", (
                f"post {line.post}: a signed withdrawal line for a version of the post "
                f"({line.value}) this log records no withdrawal of"), rule="R-MERGE"))
    for line in lines:
        if line not in genuine:
            out.warnings.append(Problem("thread", (
                f"post {line.post}: a withdrawal line whose mark was not made with this "
                "game's key: a forged or mistyped line, or another game's; it proves nothing "
                "and is ignored"), rule="R-MERGE"))
    return out


def _listed(numbers: list[int]) -> str:
    from shmod.audit.findings import ranges

    return ranges(sorted(numbers))
