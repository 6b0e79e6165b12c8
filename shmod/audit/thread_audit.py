"""The thread audit (``shmod audit LOG --thread FILE``, R-COMMIT, R-CHECKPOINT): the
opening post's commitment and key against the log's, every checkpoint line in the thread
judged against the log, and what the thread pins, proves and cannot prove, in words.

The thread is read as a forum shows it (:func:`shmod.log.checkpoints.readable`: a soft
hyphen or a zero-width space a forum put inside a string of digits is not there). Without
an opening post (a thread pasted from a later post) nothing in the text is taken for it,
so a player's line "Setup commitment: ..." cannot fail an honest log. The work is linear
in the thread: each line's signature is checked once under the opening post's key (or the
log's) and under at most :data:`~shmod.log.checkpoints.MAX_OPENINGS` other signed
openings, and the opening post is searched among a bounded number of candidates.
"""
from __future__ import annotations

from shmod.audit import withdrawn_posts
from shmod.audit.findings import Problem, ranges
from shmod.base.records import Record, field
from shmod.forum import commitment as commit
from shmod.forum.table import Setup
from shmod.log import checkpoints, logfile, withdrawals
from shmod.log.checkpoints import Check
from shmod.log.entries import CHECKPOINT_HEX


class ThreadAudit(Record, frozen=False):
    """What the thread audit found: problems and warnings, the opening post's commitment
    and key, each line judged, what the thread pins in words, and the last entry a genuine
    matching line vouches for (-1: none)."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    opening: dict[str, str | None] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    coverage: list[str] = field(default_factory=list)
    pinned: int = -1


class _Thread(Record):
    """What a thread's lines are judged with: the key signed lines must verify under
    (format 2 and later) and the commitment their signatures bind, whether both came from
    the thread's opening post (else from the log itself, which a rewritten log replaces),
    and the other signed openings the thread shows."""

    key: str | None
    commitment: str | None
    anchored: bool  # the thread's opening post gave them
    others: tuple[tuple[str, str], ...] = ()


def _opening(setup: Setup | None, thread: str, found: ThreadAudit) -> _Thread:
    """R-COMMIT: the commitment (and in format 2 and later the key) the thread's opening
    post carries, against this log's."""
    old = setup is not None and not setup.format.signed
    shown = checkpoints.opening(thread, setup.salt if setup is not None and old else None,
                                None if setup is None or old else setup.moderator_key,
                                None if setup is None or old else commit.commitment(setup))
    found.opening = {"commitment": shown.commitment, "key": shown.key}
    if setup is None:
        return _Thread(None, None, False)
    ours = commit.commitment(setup)
    signed = setup.format.signed
    for key, commitment in shown.signed:
        found.warnings.append(Problem(
            "thread", f"the thread shows an opening post signed under another key ({key[:8]}…, "
            f"commitment {commitment[:8]}…), not this log's: another game's, or a copy pasted "
            "in; nothing ties it to this log, so it fails nothing and is not the opening post "
            "checked (if the forum shows this game's moderator posted it, this log is not the "
            "game the thread played)", rule="R-COMMIT"))
    if not shown.found:
        return _without_opening(setup, shown, found)
    _commitment_shown(shown, ours, found)
    if not signed:
        return _Thread(None, shown.commitment or ours, True)
    _key_shown(setup, shown, found)
    return _Thread(shown.key or setup.moderator_key, shown.commitment or ours,
                   shown.key is not None, shown.signed)


def _without_opening(setup: Setup, shown: checkpoints.Opening, found: ThreadAudit) -> _Thread:
    """R-COMMIT: a thread pasted without its opening post: its lines are judged with the
    log's own key and commitment, and the thread's other openings are set aside."""
    signed = setup.format.signed
    found.warnings.append(Problem(
        "thread", "the thread text holds no opening post of this log (post 1, which shows "
        "the setup commitment and ends with its own checkpoint line"
        + (", signed under this log's moderator's key" if signed else "")
        + "): the lines are checked with this log's own "
        + ("key and commitment" if signed else "salt") + ", which a rewritten log would "
        "replace, and nothing shows that this log is of the game the thread played; paste "
        "the thread from its opening post (post 1): the commitment could not be checked "
        "from this text", rule="R-COMMIT"))
    for other in shown.others:
        found.warnings.append(Problem(
            "thread", f"the thread shows the commitment {other} outside an opening post "
            "(a quote, a typo or another game's): it proves nothing and is not checked",
            rule="R-COMMIT"))
    return _Thread(setup.moderator_key if signed else None, checkpoints.game_commitment(setup),
                   False, tuple(o for o in shown.signed if o[0] != setup.moderator_key))


def _commitment_shown(shown: checkpoints.Opening, ours: str, found: ThreadAudit) -> None:
    """R-COMMIT: the opening post's commitment against the log's, and any rival to it."""
    if shown.commitment is None:
        found.warnings.append(Problem(
            "thread", "the thread's opening post shows no setup commitment: nothing shows "
            "that players were shown this log's", rule="R-COMMIT"))
    elif shown.commitment != ours:
        found.problems.append(Problem(
            "commitment", f"the thread's opening post carries commitment {shown.commitment}; "
            f"this log gives {ours}: it is not the log of the game the thread played",
            rule="R-COMMIT"))
    if shown.rivals:
        found.problems.append(Problem(
            "commitment", "the thread's opening post (the text before its own checkpoint "
            f"line) shows more than one setup commitment or moderator's key: "
            f"{', '.join(v for v in (shown.commitment, shown.key, *shown.rivals) if v)}; "
            "the moderator could show the players one and the audit another, so neither "
            "pins this log (paste the thread as posted, from the opening post)",
            rule="R-COMMIT"))
    for other in shown.others:
        found.warnings.append(Problem(
            "thread", f"the thread also shows the commitment {other} after the opening "
            "post's (a quote, a typo or another game's): the opening post's is the one "
            "checked", rule="R-COMMIT"))


def _key_shown(setup: Setup, shown: checkpoints.Opening, found: ThreadAudit) -> None:
    """R-CHECKPOINT: the opening post's moderator's key against the log's."""
    if shown.key is None:
        found.warnings.append(Problem(
            "thread", "the thread's opening post shows no moderator's public key: its own "
            "checkpoint line verifies under this log's, which a rewritten log would replace",
            rule="R-CHECKPOINT"))
    elif setup.moderator_key is not None and shown.key != setup.moderator_key:
        found.problems.append(Problem(
            "commitment", f"the thread's opening post shows the moderator's key {shown.key}; "
            f"this log gives {setup.moderator_key}: it is not the log of the game the thread "
            "played", rule="R-CHECKPOINT"))


#: What a thread of a format-1 log cannot prove.
SALTED = ("this log is of format 1 (an earlier shmod): its lines are tagged with the salt, "
          "which the reveal publishes, so after the reveal anyone can make a line that "
          "passes for the moderator's; the forum's post dates tell the two apart")


def audit_thread(log: logfile.LogFile, setup: Setup | None, heads: list[str],
                 posts: list[int], thread: str) -> ThreadAudit:
    """Judge the thread's opening post and every checkpoint in it (R-COMMIT,
    R-CHECKPOINT) and say what the thread pins, proves and cannot prove.

    Format 2 and later: a line is the moderator's iff its signature verifies under the key
    the opening post shows; one that does not is a forgery, a typo or another game's and
    never fails the log; one that does and that the log no longer gives fails it. Format 1:
    the same with the salt's tag, which anyone can make once the reveal has published it."""
    thread = checkpoints.readable(thread)
    found = ThreadAudit()
    salt = setup.salt if setup is not None else None
    judged = _opening(setup, thread, found)
    shown = checkpoints.counted(thread)
    found.checks = checks = checkpoints.verify(heads, salt, list(shown), posts, judged.key,
                                               judged.commitment)
    if not checks:
        found.problems.append(Problem("checkpoint", "no log checkpoint found in the thread "
                                      "text given with --thread", rule="R-CHECKPOINT"))
    signed = setup is not None and setup.format.signed
    legacy = _legacy(log)
    matched = {c.claim.post for c in checks if c.ok and c.claim.keyed}
    ours = [c for c in checks if c.claim.keyed and c.claim.signed == signed]
    unanchored = bool(ours) and not any(c.genuine for c in ours) and not judged.anchored
    if unanchored:  # not one line is the log's: said once, below, not line by line
        checks = [c for c in checks if c not in ours]
    revealed = _revealed_at(thread, salt, checks) if not signed else -1
    lowered = thread.lower() if revealed >= 0 else ""
    raced = _raced(log, thread, checks, salt, judged)
    for check in checks:
        finding: tuple[str, str] | None
        if raced is not None and check.claim in raced.claims:  # a post withdrawn (R-MERGE)
            finding = raced.claims[check.claim]
        elif check.claim.signed != signed:
            finding = (
                "thread", f"{_named(check)}: a checkpoint line of log format "
                f"{2 if check.claim.signed else 1}, not of this log's: another game's, ignored")
        elif signed:
            finding = _signed_line(check, salt, len(posts), check.claim.post in matched, judged)
        else:
            after = 0 <= revealed < lowered.find(check.claim.token) if revealed >= 0 else False
            finding = _thread_finding(check, salt, len(posts), legacy,
                                      check.claim.post in matched, after)
        if finding is not None:
            _file(found, log, check, *finding)
    if unanchored:
        found.problems.append(Problem("checkpoint", _none_genuine(len(ours), signed),
                                      rule="R-CHECKPOINT"))
    if raced is not None:
        found.problems += raced.problems
        found.warnings += raced.warnings
    found.pinned = max((c.entry for c in checks if c.ok and c.entry is not None), default=-1)
    found.coverage = _coverage(checks, posts, found.pinned, len(log.entries))
    found.coverage[:0] = _opening_covered(setup, found.opening)
    if setup is not None and not signed and ours:
        found.coverage.append(SALTED)
    found.coverage += _witnesses(checks, shown)
    if raced is not None:
        found.coverage += raced.coverage
    return found


def _legacy(log: logfile.LogFile) -> bool:
    """Whether the log records an unkeyed checkpoint (an earlier shmod's: the hash alone,
    neither tag nor signature)."""
    return any(len(str(raw.get("checkpoint", ""))) == CHECKPOINT_HEX
               for raw in log.entries if isinstance(raw, dict) and raw.get("kind") == "posted")


def _file(found: ThreadAudit, log: logfile.LogFile, check: Check, kind: str,
          message: str) -> None:
    """A line's finding, located at its entry: a problem for a checkpoint the log no longer
    gives, else a warning."""
    entry = check.entry
    line = log.line_of(entry - 1) if entry and 0 < entry <= len(log.entries) else None
    where = found.problems if kind == "checkpoint" else found.warnings
    where.append(Problem(kind, message, line=line, entry=entry or None, rule="R-CHECKPOINT"))


def _signed_line(check: Check, salt: str | None, posts: int, matched: bool,
                 judged: _Thread) -> tuple[str, str] | None:
    """What a signed checkpoint line shows (:func:`_signed_finding`), or that another
    moderator's key shown in the thread signed it."""
    finding = _signed_finding(check, salt, posts, matched)
    other = checkpoints.signer(check.claim, judged.others) if check.genuine is False else None
    if other is not None:
        finding = ("thread", f"{_named(check)}: signed under another moderator's key "
                   f"shown in the thread ({other[:8]}…), not the opening post's: a "
                   "second signed game in one thread. If the opening post's moderator "
                   "made it, this log may not be the game the thread played; the "
                   "forum's post authors tell whose it is")
    return finding


def _opening_covered(setup: Setup | None, opening: dict[str, str | None]) -> list[str]:
    """What the opening post pins: this log's commitment (and its key), if it carries it."""
    if setup is None or opening.get("commitment") != commit.commitment(setup):
        return []
    signed = setup.format.signed
    key = " and moderator's key" if signed and opening.get("key") == setup.moderator_key else ""
    return [f"the opening post carries this log's commitment{key}"]


def _raced(log: logfile.LogFile, thread: str, checks: list[Check], salt: str | None,
           judged: _Thread) -> withdrawn_posts.Judged | None:
    """The lines of posts withdrawn after a race between moderators, judged
    (:mod:`shmod.audit.withdrawn_posts`); None when neither the log nor the thread has one."""
    withdrawn = withdrawn_posts.recorded(log)
    if not withdrawn and withdrawals.LABEL.lower() not in thread.lower():
        return None
    standing, number = {}, 0
    for raw in log.entries:
        if isinstance(raw, dict) and raw.get("kind") == "posted":
            number += 1
            standing[number] = str(raw.get("checkpoint", ""))[:CHECKPOINT_HEX]
    return withdrawn_posts.judge(thread, checks, withdrawn, salt=salt, key=judged.key,
                                 commitment=judged.commitment, standing=standing)


def _witnesses(checks: list[Check], shown: dict[checkpoints.Claim, int]) -> list[str]:
    """What the thread proves and cannot, and which lines it shows more than once: a line
    quoted in another post is a witness that an edit of its own post cannot remove."""
    quoted = sorted({c.claim.post for c in checks
                     if c.ok and c.claim.post is not None and shown.get(c.claim, 1) > 1})
    out = ["what the thread proves: the log gives every checkpoint line the moderator "
           "signed there as the thread shows it now; what it cannot: a post edited after "
           "players read it (a moderator who rewrote a finished log under the same salt and "
           "key and edited every post to match would pass), unless a quote of the earlier "
           "line or a copy a player kept shows it"]
    if quoted:
        out.append(f"checkpoint lines the thread shows more than once (quoted in another "
                   f"post: an edit of their own post cannot remove the quote): post(s) "
                   f"{ranges(quoted)}")
    else:
        out.append("no checkpoint line is quoted elsewhere in the thread: each rests on its "
                   "own post alone, which its author can edit")
    return out


def _named(check: Check) -> str:
    claim = check.claim
    if claim.signed:
        return f"post {claim.post}"
    return f"post {claim.post} (entry {claim.entry})" if claim.keyed else f"entry {claim.entry}"


def _none_genuine(count: int, signed: bool) -> str:
    """Every line of the log's form fails: it is the log that changed, not the thread."""
    if signed:
        return (f"none of the thread's {count} signed checkpoint line(s) verifies under this "
                "log's key, nor does any opening post the thread shows: the log's key is not "
                "the one the thread's posts were signed with, so this log was rewritten or is "
                "another game's (paste the thread from post 1 to see which)")
    return (f"none of the thread's {count} tagged checkpoint line(s) carries the tag this "
            "log's salt makes, and the thread text has no opening post with a commitment to "
            "tell whose salt is right: the log's salt is not the one the thread's posts were "
            "made with, so this log was rewritten or is another game's (paste the thread from "
            "post 1 to see which)")


def _signed_finding(check: Check, salt: str | None, recorded: int,
                    answered: bool) -> tuple[str, str] | None:
    """Format 2: ``(kind, message)`` for a line that is not simply a match: ``checkpoint``
    (a problem) or ``thread`` (a warning); None for a match."""
    claim = check.claim
    post = _named(check)
    if not check.genuine:
        return ("thread", f"{post}: the line's signature does not verify under the "
                "moderator's key: a forged or mistyped line, or another game's; it proves "
                "nothing and is ignored")
    if salt is None:
        return ("thread", f"{post}: cannot be checked: the log has no salt to key it with")
    if check.matches:
        return None
    shown = claim.token[:CHECKPOINT_HEX]
    moved = (f"; the log gives that value at entry {check.found}, so the log's posts were "
             "renumbered, moved or removed" if check.found is not None else "")
    if check.recorded_upto is None:
        gone = moved or ": posts or entries were removed from the log"
        return ("checkpoint", f"{post}: the moderator's signed checkpoint {shown} is for a "
                f"post the log does not record (the log records {recorded} posts){gone}")
    if check.matches is None:
        return ("checkpoint", f"{post}: the moderator's signed checkpoint, but the log ends "
                f"before entry {check.recorded_upto}, the last its post {claim.post} covers: "
                "entries were removed from its end")
    twice = (" The thread also holds a signed line for this post that matches: only the key's "
             "holder could sign both, so two versions of this post were made"
             if answered else "")
    if check.found is not None:
        return ("checkpoint", f"{post}: the moderator's signed checkpoint {shown}, but the "
                f"log's post {claim.post} covers entry {check.recorded_upto}{moved}.{twice}")
    return ("checkpoint", f"{post}: the thread shows the moderator's signed checkpoint "
            f"{shown}, which the log no longer gives at its post {claim.post} (entry "
            f"{check.recorded_upto}): an entry at or before it (or the header) was changed "
            f"after this post was made.{twice}")


def _revealed_at(thread: str, salt: str | None, checks: list[Check]) -> int:
    """Format 1: where the thread shows the game's salt (the reveal's post), -1 if it does
    not: anyone could have made a line's tag after it. The reveal comes after the game's
    last post, so only a salt shown after the last line that matches the log counts: one the
    moderator showed early (a "game id") excuses nothing. Computed once for all lines."""
    if not salt:
        return -1
    text = thread.lower()
    last = max((text.find(c.claim.token) for c in checks if c.ok), default=-1)
    return text.find(salt.lower(), max(last, 0))


def _thread_finding(check: Check, salt: str | None, recorded: int, legacy: bool,
                    answered: bool, after_reveal: bool = False) -> tuple[str, str] | None:
    """Format 1: ``(kind, message)`` for a checkpoint that is not simply a match:
    ``checkpoint`` (a problem) or ``thread`` (a warning); None for a match. A genuine line
    that disagrees with the log is only a warning when anyone could have made it: the
    thread shows the salt before it (the reveal), or another line for its post matches
    (docs/audit.md, logs of format 1)."""
    claim = check.claim
    post = _named(check)
    if not claim.keyed:
        if check.matches:
            return ("thread", f"{post}: an unkeyed checkpoint of an earlier shmod; it "
                    "matches, but it could be brute-forced by players while the game ran")
        if legacy:
            return ("checkpoint", f"{post}: the thread shows the unkeyed checkpoint "
                    f"{claim.token}, which the log no longer gives: an entry at or before "
                    f"entry {claim.entry} (or the header) was changed after that post")
        return ("thread", f"{post}: the line {claim.token} is not of this game's form (no "
                "post number, no tag): ignored")
    if salt is None:
        return ("thread", f"{post}: cannot be checked: the log has no salt to key it with")
    if not check.genuine:
        return ("thread", f"{post}: the line's tag was not made with this game's key: a "
                "forged or mistyped line, or another game's; it proves nothing and is ignored")
    if check.matches and check.recorded_upto == claim.entry:
        return None
    if after_reveal:
        return ("thread", f"{post}: a line tagged with the game's salt that the log does not "
                "give, posted after the thread shows the salt (the reveal): anyone could have "
                "made it then; it proves nothing and is ignored (the forum's post dates and "
                "authors tell)")
    if answered:
        return ("thread", f"{post}: a second, different genuine checkpoint for a post whose "
                "other line matches the log: a second version of the post was made with the "
                "game's key (by the moderator before the reveal, or by anyone after the "
                "reveal published it); compare when the two lines were posted")
    if check.recorded_upto is None:
        return ("checkpoint", f"{post}: a genuine checkpoint for a post the log does not "
                f"record (the log records {recorded} posts): posts were removed from the log")
    if check.recorded_upto != claim.entry:
        return ("checkpoint", f"{post}: a genuine checkpoint, but the log's post {claim.post} "
                f"covers entry {check.recorded_upto}: the log's posts were changed")
    if check.matches is None:
        return ("checkpoint", f"{post}: the thread shows a genuine checkpoint, but the log "
                "ends before that entry: entries were removed from its end")
    return ("checkpoint", f"{post}: the thread shows the genuine checkpoint "
            f"{claim.token[:CHECKPOINT_HEX]}, which the log no longer gives: an "
            f"entry at or before entry {claim.entry} (or the header) was changed after this "
            "post was made")


def _coverage(checks: list[Check], posts: list[int], pinned: int, entries: int) -> list[str]:
    """What the thread pins, in words: entries, and which of the log's posts it shows."""
    found = sorted({c.claim.post for c in checks if c.ok and c.claim.post is not None})
    missing = [n for n in range(1, len(posts) + 1) if n not in found]
    out = [f"the thread pins the header and entries 1-{pinned} (its last matching checkpoint)"
           if pinned > 0 else "the thread pins the header only" if pinned == 0 else
           "the thread pins nothing: no checkpoint in it matches the log"]
    if pinned < entries and posts and posts[-1] == pinned == entries - 1:
        out.append(f"entry {entries} is the last post's own record (posted), which no "
                   "checkpoint can show: nothing later vouches for it, as on every log whose "
                   "last entry records its last post; not a problem")
    elif pinned < entries:
        after = ranges(list(range(max(pinned, 0) + 1, entries + 1)))
        out.append(f"entr{'y' if '-' not in after else 'ies'} {after} "
                   f"{'is' if '-' not in after else 'are'} after the last matching "
                   "checkpoint: nothing in the thread vouches for "
                   f"{'it' if '-' not in after else 'them'}")
    if posts:
        out.append(f"the log records {len(posts)} post(s); found in the thread: "
                   f"{ranges(found) or 'none'}; not found: {ranges(missing) or 'none'}")
    return out
