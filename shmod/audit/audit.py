"""Auditing a game log: every problem located (file:line, entry, rule), then a summary.

Three independent checks run over a log: the hash chain (every entry, tampering located:
see :func:`chain_problems`), the form of every entry, and the rules. The last two are the
replay every command runs (:func:`shmod.log.game.replay`) in its listing mode: every entry
is read, and the rules are judged up to the first violation, after which nothing can be.
"""
from __future__ import annotations

from typing import Any

from shmod.audit.summary import Summary, summarize
from shmod.base.errors import BadInput, IllegalStep, InternalError, LogError, ShmodError
from shmod.base.records import Record, field, replace, values
from shmod.core import commitment as commit, engine
from shmod.core.events import Corrected
from shmod.core.explain import voided_steps, waiting_text
from shmod.core.setup import parse_setup
from shmod.core.state import Setup, State
from shmod.core.terms import OVER
from shmod.log import chain, checkpoints, logfile
from shmod.log.checkpoints import Check
from shmod.log.entries import CHECKPOINT_HEX
from shmod.log.game import Listing, replay

VALID, INVALID, UNREADABLE = 0, 1, 2
#: Chain mismatches beyond this many are reported without looking for where they came from.
MAX_TRACED = 64


class Problem(Record):
    """One finding. ``kind``: header, format, rule, chain, commitment or unreadable;
    ``entry`` is 1-based; ``line`` is the file line (None for the header as a whole)."""

    kind: str
    message: str
    line: int | None = None
    entry: int | None = None
    rule: str | None = None

    def where(self, path: str) -> str:
        place = f"{path}:{self.line}" if self.line else path
        return place + (f": entry {self.entry}" if self.entry else "")


class Report(Record, frozen=False):
    """The audit of one log."""

    path: str
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    entries: int = 0
    judged: int = 0
    stopped: str | None = None
    summary: Summary | None = None
    commitment: str | None = None
    commitment_ok: bool | None = None
    unreadable: bool = False
    checkpoints: list[Check] | None = None  # with --thread: each checkpoint found there
    coverage: list[str] = field(default_factory=list)  # with --thread: what the thread pins
    deal: str | None = None  # how the deal was made (R-DEAL), in words
    corrections: list[dict[str, Any]] = field(default_factory=list)  # R-CORRECT, R-EDIT
    # What the audit read and replayed, for a caller that goes on from them (shmod stats);
    # never in the JSON, and dropped with the report.
    log: logfile.LogFile | None = None
    state: State | None = None

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def exit_code(self) -> int:
        return UNREADABLE if self.unreadable else VALID if self.valid else INVALID

    def to_json(self) -> dict[str, Any]:
        """The documented ``--json`` shape (docs/audit.md)."""
        return {
            "path": self.path,
            "valid": self.valid,
            "exit": self.exit_code,
            "entries": self.entries,
            "judged": self.judged,
            "stopped": self.stopped,
            "problems": [values(p) for p in self.problems],
            "warnings": [values(p) for p in self.warnings],
            "commitment": self.commitment,
            "commitment_ok": self.commitment_ok,
            "summary": self.summary.to_json() if self.summary else None,
            "checkpoints": (None if self.checkpoints is None
                            else [c.to_json() for c in self.checkpoints]),
            "coverage": self.coverage,
            "deal": self.deal,
            "corrections": self.corrections,
        }


def audit_file(path: str, expected: str | None = None, thread: str | None = None) -> Report:
    """Read and audit ``path``; ``expected`` is a commitment to check the setup against,
    ``thread`` the game's thread as pasted text, whose checkpoints the log must give.
    Never raises for what a log holds: a log shmod cannot read, or trips a bug in shmod
    on, is reported as unreadable (so a folder's audit goes on to the next log)."""
    try:
        log = logfile.read(path)
        return shortened(audit_log(log, expected, thread))
    except LogError as err:
        report = Report(path, unreadable=True)
        report.problems.append(Problem("unreadable", err.reason, line=err.line))
        return report
    except ShmodError as err:  # an internal error, already in words
        report = Report(path, unreadable=True)
        report.problems.append(Problem("unreadable", str(err), line=getattr(err, "line", None)))
        return report
    except Exception as err:  # noqa: BLE001 - a bug: said, and the batch goes on
        report = Report(path, unreadable=True)
        report.problems.append(Problem("unreadable", str(InternalError(
            f"{type(err).__name__}: {err}", path))))
        return report


def audit_log(log: logfile.LogFile, expected: str | None = None,
              thread: str | None = None) -> Report:
    """Audit a parsed log: header, chain, form of every entry, then the rules; with
    ``thread``, every checkpoint posted there (R-CHECKPOINT)."""
    report = Report(log.path, entries=len(log.entries), log=log)
    walk = chain.Walk(log)
    links = list(walk)  # the chain, walked once: what every check of it below reads
    setup: Setup | None = None
    try:
        setup = parse_setup(log.header)
    except BadInput as err:
        report.problems.append(Problem("header", str(err), rule=_rule_of(str(err))))
    salt = setup.salt if setup is not None else None
    pinned = (_thread_checks(log, walk.heads, salt, walk.posts, thread, report)
              if thread is not None else -1)
    _posted_checkpoints(log, walk, links, salt, report)
    report.problems += chain_problems(log, walk, links, report.warnings, pinned)
    if setup is None:
        report.stopped = "the header is invalid, so no entry could be judged"
        report.problems.sort(key=lambda p: p.entry or 0)
        return report
    for weakness in commit.weaknesses(setup):
        report.warnings.append(Problem("exposed", weakness, line=_secret_line(log),
                                       rule="R-COMMIT"))
    report.deal = (
        "dealt from the moderator's committed seed and every player's word (R-DEAL): "
        "nobody could choose it" if setup.deal == "players" else
        "dealt from the moderator's seed alone: the commitment shows the setup was not "
        "changed, not that it was not chosen (`shmod new --deal players` prevents that)"
        if setup.seed is not None else
        "dealt outside shmod (no seed): the commitment covers the roles and the first "
        "deck; reshuffles are as the moderator recorded them")
    report.commitment = commit.commitment(setup)
    if setup.commitment is not None and setup.commitment != report.commitment:
        report.problems.append(Problem(
            "commitment", f"the header's commitment {setup.commitment} is not the hash of its "
            f"secret setup ({report.commitment}): the setup was changed after `shmod new`"))
    if expected is not None:
        why = commit.verify(setup, expected)
        report.commitment_ok = why is None
        if why:
            report.problems.append(Problem("commitment", why))
    _judge(log, report)
    report.problems.sort(key=lambda p: p.entry or 0)
    return report


def _judge(log: logfile.LogFile, report: Report) -> None:
    """The form of every entry, and the rules up to the first entry that breaks one."""
    listing = Listing()
    state = replay(log, listing).state
    for index, err in listing.found:
        line, entry = log.line_of(index), index + 1
        if isinstance(err, IllegalStep):
            report.problems.append(Problem("rule", err.reason, line=line, entry=entry,
                                           rule=err.rule))
        else:
            report.problems.append(Problem("format", str(err), line=line, entry=entry,
                                           rule=_rule_of(str(err))))
    report.judged, report.stopped = listing.judged, listing.stopped
    if report.stopped is None and state.phase != OVER:
        report.warnings.append(Problem("unfinished", "the game is not over: waiting for "
                                       + waiting_text(engine.waiting_for(state))))
    report.summary = summarize(state)
    report.state = state
    report.corrections = corrections(state, log)


def corrections(state: State, log: logfile.LogFile) -> list[dict[str, Any]]:
    """Every correction (R-CORRECT) and acknowledged hand edit (R-EDIT) in the log: what
    it voided or vouched for, the moderator's reason, and whether players had seen it."""
    out: list[dict[str, Any]] = []
    said = {ev.entry: ev for ev in state.public if isinstance(ev, Corrected)}
    for at, numbers, reason in state.corrections:
        event = said.get(at)
        steps = voided_steps(event) if event else []
        seen = [w for n, w in steps if event and n in event.posted]
        out.append({"entry": at, "line": log.line_of(at - 1), "kind": "correction",
                    "entries": list(numbers), "steps": [w for _, w in steps],
                    "reason": reason, "forced": bool(event and event.forced),
                    "seen": bool(seen), "seen_steps": seen})
    for at, numbers, reason in state.acknowledged:
        out.append({"entry": at, "line": log.line_of(at - 1), "kind": "acknowledgment",
                    "entries": list(numbers), "steps": [], "reason": reason,
                    "forced": False, "seen": any(n <= max(state.posts, default=-1)
                                                  for n in numbers), "seen_steps": []})
    return sorted(out, key=lambda c: c["entry"])


def _thread_checks(log: logfile.LogFile, heads: list[str], salt: str | None, posts: list[int],
                   thread: str, report: Report) -> int:
    """Judge every checkpoint in ``thread`` (R-CHECKPOINT) and say what the thread pins;
    returns the last entry a genuine, matching checkpoint vouches for (-1: none).

    A line whose tag this game's key did not make is a forgery, a typo or another game's,
    and never fails the log; a genuine line the log no longer gives does, unless another
    genuine line for the same post matches (then both claims are shown)."""
    report.checkpoints = checks = checkpoints.verify(heads, salt, thread, posts)
    if not checks:
        report.problems.append(Problem("checkpoint", "no log checkpoint found in the thread "
                                       "text given with --thread", rule="R-CHECKPOINT"))
    legacy = any(len(str(raw.get("checkpoint", ""))) == CHECKPOINT_HEX
                 for raw in log.entries if isinstance(raw, dict) and raw.get("kind") == "posted")
    matched = {c.claim.post for c in checks if c.ok and c.claim.keyed}
    for check in checks:
        found = _thread_finding(check, salt, len(posts), legacy, check.claim.post in matched)
        if found is None:
            continue
        kind, message = found
        entry = check.claim.entry
        line = log.line_of(entry - 1) if 0 < entry <= len(log.entries) else None
        where = report.problems if kind == "checkpoint" else report.warnings
        where.append(Problem(kind, message, line=line, entry=entry or None, rule="R-CHECKPOINT"))
    pinned = max((c.claim.entry for c in checks if c.ok), default=-1)
    report.coverage = _coverage(checks, posts, pinned, len(log.entries))
    return pinned


def _thread_finding(check: Check, salt: str | None, recorded: int, legacy: bool,
                    answered: bool) -> tuple[str, str] | None:
    """``(kind, message)`` for a checkpoint that is not simply a match: ``checkpoint`` (a
    problem) or ``thread`` (a warning); None for a match."""
    claim = check.claim
    post = f"post {claim.post} (entry {claim.entry})" if claim.keyed else f"entry {claim.entry}"
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
    if check.recorded_upto is None:
        return ("checkpoint", f"{post}: a genuine checkpoint for a post the log does not "
                f"record (the log records {recorded} posts): posts were removed from the log")
    if check.recorded_upto != claim.entry:
        return ("checkpoint", f"{post}: a genuine checkpoint, but the log's post {claim.post} "
                f"covers entry {check.recorded_upto}: the log's posts were changed")
    if check.matches is None:
        return ("checkpoint", f"{post}: the thread shows a genuine checkpoint, but the log "
                "ends before that entry: entries were removed from its end")
    if check.matches:
        return None
    if answered:
        return ("thread", f"{post}: a second, different genuine checkpoint for a post whose "
                "other line matches the log: a second version of the post was made with the "
                "game's key (by the moderator before the reveal, or by anyone after the "
                "reveal published it); compare when the two lines were posted")
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
    if pinned < entries:
        after = _ranges(list(range(max(pinned, 0) + 1, entries + 1)))
        out.append(f"entr{'y' if '-' not in after else 'ies'} {after} "
                   f"{'is' if '-' not in after else 'are'} after the last matching "
                   "checkpoint: nothing in the thread vouches for "
                   f"{'it' if '-' not in after else 'them'}")
    if posts:
        out.append(f"the log records {len(posts)} post(s); found in the thread: "
                   f"{_ranges(found) or 'none'}; not found: {_ranges(missing) or 'none'}")
    return out


def _ranges(numbers: list[int]) -> str:
    """``1-3, 5, 7-8``."""
    out: list[tuple[int, int]] = []  # (first, last) of each run
    for number in numbers:
        if out and out[-1][1] == number - 1:
            out[-1] = (out[-1][0], number)
        else:
            out.append((number, number))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in out)


def _posted_checkpoints(log: logfile.LogFile, walk: chain.Walk, links: list[chain.Link],
                        salt: str | None, report: Report) -> None:
    """A ``posted`` entry's checkpoint must still be what the log gives (R-CHECKPOINT);
    after an acknowledged edit (R-EDIT) of an entry it covers, a warning says so."""
    acknowledged = _acknowledged(walk)
    heads = walk.heads
    for link in links:
        number, upto, mark = link.post, link.upto, link.checkpoint
        if not (number and upto is not None and mark is not None and 0 <= upto < len(heads)):
            continue
        if checkpoints.recorded(salt, number, upto, mark, heads):
            continue
        found = Problem(
            "checkpoint", f"the post this entry marks (post {number}) showed checkpoint "
            f"{mark} for entry {upto}, which the log no longer gives: an entry at or before "
            f"entry {upto} was changed after it was posted", line=log.line_of(link.index),
            entry=link.index + 1, rule="R-CHECKPOINT")
        known = [why for n, why in sorted(acknowledged.items()) if n <= upto]
        if known:
            report.warnings.append(replace(found, kind="edited",
                                           message=f"{found.message} ({known[0]})"))
        else:
            report.problems.append(found)


def _secret_line(log: logfile.LogFile) -> int | None:
    return log.key_lines.get("salt") or log.key_lines.get("secret")


def _acknowledged(walk: chain.Walk) -> dict[int, str]:
    """Entries a later ``acknowledge`` entry says were edited by hand (R-EDIT): why."""
    return {number: f"acknowledged at entry {at}: {reason}"
            for number, (at, reason) in walk.acknowledged.items()}


def chain_problems(log: logfile.LogFile, walk: chain.Walk, links: list[chain.Link],
                   warnings: list[Problem], pinned: int = -1) -> list[Problem]:
    """What the walk of ``log``'s chain (``walk``, walked to the end, and ``links``, all it
    gave) found, with tampering located.

    Each entry is checked against the *stored* hash of the entry before it, so one
    edit is reported once, where it is. A mismatching entry whose hash fits after some
    other entry is intact but out of place (moved, or something was inserted before
    it); one that fits after nothing was changed, or the entry before it was removed.
    Entries without a hash are warnings (unchained), chained over by the next one.
    """
    problems: list[Problem] = []
    origins: dict[str, int] | None = None
    acknowledged: dict[int, str] = {}
    for link in links:
        index = link.index
        if link.found == "unchained":
            if index + 1 > pinned:
                warnings.append(Problem(
                    "unverified", "entry has no hash (appended by hand, or its hash was "
                    "removed): nothing vouches for it but a thread checkpoint posted after it "
                    "(audit --thread)", line=log.line_of(index), entry=index + 1))
        elif link.found == "mismatch":
            if origins is None:
                origins = _origins(log, walk.heads[0])
                acknowledged = _acknowledged(walk)
            traced = len(problems) < MAX_TRACED
            found = Problem("chain", _mismatch(log, log.entries[index], index, origins, traced),
                            line=log.line_of(index), entry=index + 1, rule="R-EDIT")
            if index + 1 in acknowledged:
                warnings.append(replace(found, kind="edited",
                                        message=f"{found.message}; {acknowledged[index + 1]}"))
            else:
                problems.append(found)
    return problems


def _origins(log: logfile.LogFile, start_link: str) -> dict[str, int]:
    """Every stored hash (and the header's link) -> its entry number (0 for the header)."""
    out = {start_link: 0}
    for index, raw in enumerate(log.entries):
        if isinstance(raw, dict) and isinstance(raw.get("hash"), str):
            out.setdefault(raw["hash"], index + 1)
    return out


def _mismatch(log: logfile.LogFile, raw: dict[str, Any], index: int,
              origins: dict[str, int], traced: bool) -> str:
    """Explain a chain mismatch at entry ``index`` (0-based)."""
    if traced:
        for link, number in origins.items():
            if number != index + 1 and chain.linked(link, raw) == raw["hash"]:
                after = "the header" if number == 0 else (
                    f"entry {number} (line {log.line_of(number - 1)})")
                return (f"broken hash chain: this entry is unchanged but out of place: it "
                        f"was written right after {after}; entries were moved, inserted "
                        "or removed here")
    if index == 0:
        return ("broken hash chain: this entry or the header was changed after it "
                "was written")
    return ("broken hash chain: this entry was changed after it was written, or an "
            "entry right before it was removed")


#: Problems, and warnings, of one kind listed at most; one more line counts the rest.
MAX_LISTED = 30


def shortened(report: Report) -> Report:
    """``report`` with at most :data:`MAX_LISTED` problems and as many warnings of each
    kind, each kind cut short followed by one line of that kind saying exactly how many
    more there were (a hostile log can hold thousands of broken entries)."""
    report.problems = _first_of_each_kind(report.problems, "problems")
    report.warnings = _first_of_each_kind(report.warnings, "warnings")
    return report


def _first_of_each_kind(found: list[Problem], what: str) -> list[Problem]:
    counts: dict[str, int] = {}
    kept = []
    for problem in found:
        counts[problem.kind] = counts.get(problem.kind, 0) + 1
        if counts[problem.kind] <= MAX_LISTED:
            kept.append(problem)
    return kept + [Problem(kind, f"{count - MAX_LISTED} more {kind} {what} not listed: only "
                           f"the first {MAX_LISTED} of each kind are")
                   for kind, count in counts.items() if count > MAX_LISTED]


def _rule_of(message: str) -> str | None:
    head = message.split(":", 1)[0]
    return head if head.startswith("R-") else None
