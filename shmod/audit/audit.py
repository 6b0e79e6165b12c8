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
from shmod.forum import commitment as commit
from shmod.forum.events import Corrected
from shmod.forum.explain import voided_steps, waiting_text
from shmod.forum.setup import parse_setup
from shmod.forum.steps import Lapse, Word
from shmod.forum.table import Setup, Table
from shmod.forum.turns import waiting_for
from shmod.game.terms import OVER, POLICY_NAMES
from shmod.log import chain, checkpoints, logfile
from shmod.log.checkpoints import Check
from shmod.log.entries import CHECKPOINT_HEX
from shmod.log.game import Listing, replay
from shmod.texts.catalog import Language, get as language

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
    #: with --thread: the commitment and the key found in the thread's opening post
    opening: dict[str, str | None] | None = None
    # What the audit read and replayed, for a caller that goes on from them (shmod stats);
    # never in the JSON, and dropped with the report.
    log: logfile.LogFile | None = None
    state: Table | None = None

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
            "opening": self.opening,
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
    pinned = (_thread_checks(log, setup, walk.heads, walk.posts, thread, report)
              if thread is not None else -1)
    if setup is not None:
        _posted_checkpoints(log, walk, links, setup, report)
    report.problems += chain_problems(log, walk, links, report.warnings, pinned)
    if setup is None:
        report.stopped = "the header is invalid, so no entry could be judged"
        report.problems.sort(key=lambda p: p.entry or 0)
        return report
    for weakness in commit.weaknesses(setup):
        report.warnings.append(Problem("exposed", weakness, line=_secret_line(log),
                                       rule="R-COMMIT"))
    report.warnings += _key_warnings(log, setup)
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
    if report.stopped is None and state.game.phase != OVER:
        report.warnings.append(Problem("unfinished", "the game is not over: waiting for "
                                       + waiting_text(waiting_for(state))))
    report.summary = summarize(state)
    report.state = state
    report.corrections = corrections(state, log)
    report.deal = deal_text(state)
    report.warnings += [Problem("steerable", why, line=log.line_of(entry - 1), entry=entry,
                                rule=rule) for entry, rule, why in steerable(state)]


def steerable(state: Table) -> list[tuple[int, str, str]]:
    """What a log of an earlier format let the moderator steer, as (entry, rule, why):
    each random lapse choice and a words deal whose older rules depended on something the
    moderator types (docs/audit.md, logs of formats 1 and 2). None in format 3."""
    form = state.setup.format
    if form >= 3:
        return []
    found = []
    removed = sorted(state.removed.values())
    for entry, step in state.history:
        if isinstance(step, Lapse) and step.choice is not None:
            if form < 2:
                found.append((entry, "R-LAPSE", f"the random choice {step.choice!r} was drawn "
                              "by the lapse's entry number (format 1): entries the moderator "
                              "recorded before it (prods, backups) could have moved it"))
            elif removed and removed[0] < entry and step.choice not in POLICY_NAMES.values():
                found.append((entry, "R-LAPSE", f"the random target {step.choice!r} was drawn "
                              "among the seats a power could target (format 2): a removal "
                              f"before it (entry {removed[0]}) could have moved it"))
    if state.setup.deal == "players" and state.dealt is not None:
        odd = [w for w in state.words.values() if not w.isascii()]
        if form < 2:
            found.append((state.dealt, "R-DEAL", "the deal was keyed by the names seated "
                          "when the last word came in and the words as typed (format 1): a "
                          "rename or the way a word was typed could have moved it"))
        else:
            beyond = (f" (here {', '.join(map(repr, odd))}, beyond ASCII)" if odd else "")
            found.append((state.dealt, "R-DEAL", "format 2 dealt each word as typed: a "
                          "look-alike spelling of a posted word (rn for m, a Cyrillic \u0435 for "
                          f"e, an invisible character{beyond}) could have moved the deal; "
                          "format 3 deals by what a word looks like"))
    return found


def deal_text(state: Table, lang: Language | None = None) -> str:
    """How the game was dealt (R-DEAL), and what the audit recomputed of it, in words (in
    ``lang``, English by default: the replay page says it in the game's language)."""
    t = lang or language(None)
    setup = state.setup
    if setup.deal == "players":
        if state.dealt is None:
            return t._n("to be dealt from the moderator's committed seed and every player's "
                        "word (R-DEAL): {n} of {players} words are in",
                        "to be dealt from the moderator's committed seed and every player's "
                        "word (R-DEAL): {n} of {players} words are in", len(state.words),
                        players=len(state.game.players))
        words = ", ".join(map(str, sorted(entry for entry, step in state.history
                                          if isinstance(step, Word))))
        if setup.format >= 3:
            how = t._("each seat's word as it looks (its canonical form's look-alike "
                      "skeleton), by seat number")
        elif setup.format >= 2:
            how = t._("each seat's word in its canonical form, by seat number")
        else:
            how = t._("the words with the names seated at the deal (format 1, an earlier "
                      "shmod: a rename before the last word could move it)")
        # TRANSLATORS: {how} says how the words were read; {entries} lists the log's
        # entries that hold them.
        return t._("dealt from the moderator's committed seed and {how} (R-DEAL; entries "
                   "{entries}): the audit recomputed the roles, the deck and the first "
                   "President from them, and they are the ones played; nobody could choose "
                   "them", how=how, entries=words)
    if setup.seed is not None:
        return t._("dealt from the moderator's seed alone: the commitment shows the setup was "
                   "not changed, not that it was not chosen ({command} prevents that)",
                   command="`shmod new --deal players`")
    return t._("dealt outside shmod (no seed): the commitment covers the roles and the first "
               "deck; reshuffles are as the moderator recorded them")


def corrections(state: Table, log: logfile.LogFile) -> list[dict[str, Any]]:
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


def _key_warnings(log: logfile.LogFile, setup: Setup) -> list[Problem]:
    """Format 2's key pair (R-CHECKPOINT): a log that still holds the private half must not
    be published; one without the public half had no post signed."""
    if setup.signing_key is not None:
        return [Problem("signing_key", "this log holds the moderator's private signing key "
                        "(secret.signing_key): do not publish this file, or anyone could sign "
                        "checkpoints in the moderator's name; publish the copy `shmod publish` "
                        "writes, which leaves the key out and chains identically",
                        line=log.key_lines.get("signing_key"), rule="R-CHECKPOINT")]
    if setup.format >= 2 and setup.moderator_key is None:
        return [Problem("signing_key", "the header has no moderator_key: no post of this log "
                        "could be signed, so a thread cannot tell the moderator's checkpoint "
                        "lines from anyone else's", rule="R-CHECKPOINT")]
    return []


class _Thread(Record):
    """What a thread's lines are judged with: the key signed lines must verify under
    (format 2) and the commitment their signatures bind, and whether both came from the
    thread's opening post (else from the log itself, which a rewritten log replaces)."""

    key: str | None
    commitment: str | None
    anchored: bool  # the thread's opening post gave them


def _opening(log: logfile.LogFile, setup: Setup | None, thread: str,
             report: Report) -> _Thread:
    """R-COMMIT: the commitment (and in format 2 the key) the thread's opening post
    carries, against this log's."""
    found = checkpoints.opening(thread, setup.salt if setup is not None and setup.format < 2
                                else None)
    report.opening = {"commitment": found.commitment, "key": found.key}
    if setup is None:
        return _Thread(None, None, False)
    ours = commit.commitment(setup)
    if found.commitment is None:
        report.warnings.append(Problem(
            "thread", "the thread text shows no setup commitment: paste the thread from its "
            "opening post (post 1), which carries it; without it nothing shows that this log "
            "is of the game the thread played", rule="R-COMMIT"))
    elif found.commitment != ours:
        report.problems.append(Problem(
            "commitment", f"the thread's opening post carries commitment {found.commitment}; "
            f"this log gives {ours}: it is not the log of the game the thread played",
            rule="R-COMMIT"))
    if found.rivals:
        report.problems.append(Problem(
            "commitment", "the thread's opening post (the text before its own checkpoint "
            f"line) shows more than one setup commitment or moderator's key: "
            f"{', '.join(v for v in (found.commitment, found.key, *found.rivals) if v)}; "
            "the moderator could show the players one and the audit another, so neither "
            "pins this log (paste the thread as posted, from the opening post)",
            rule="R-COMMIT"))
    for other in found.others:
        report.warnings.append(Problem(
            "thread", f"the thread also shows the commitment {other} after the opening "
            "post's (a quote, a typo or another game's): the opening post's, the first in "
            "the text, is the one checked", rule="R-COMMIT"))
    if setup.format < 2:
        return _Thread(None, found.commitment or checkpoints.game_commitment(setup),
                       found.commitment is not None)
    if found.key is None:
        report.warnings.append(Problem(
            "thread", "the thread text shows no moderator's public key: the checkpoint "
            "lines are checked with this log's own key instead, which a rewritten log would "
            "replace; paste the thread from its opening post (post 1), which carries it",
            rule="R-CHECKPOINT"))
    elif setup.moderator_key is not None and found.key != setup.moderator_key:
        report.problems.append(Problem(
            "commitment", f"the thread's opening post shows the moderator's key {found.key}; "
            f"this log gives {setup.moderator_key}: it is not the log of the game the thread "
            "played", rule="R-CHECKPOINT"))
    return _Thread(found.key or setup.moderator_key,
                   found.commitment or checkpoints.game_commitment(setup),
                   found.key is not None and found.commitment is not None)


def _thread_checks(log: logfile.LogFile, setup: Setup | None, heads: list[str],
                   posts: list[int], thread: str, report: Report) -> int:
    """Judge the thread's opening post and every checkpoint in it (R-COMMIT,
    R-CHECKPOINT) and say what the thread pins; returns the last entry a genuine, matching
    checkpoint vouches for (-1: none).

    Format 2: a line is the moderator's iff its signature verifies under the key the
    opening post shows; one that does not is a forgery, a typo or another game's and never
    fails the log; one that does and that the log no longer gives fails it. Format 1: the
    same with the salt's tag, which anyone can make once the reveal has published it."""
    salt = setup.salt if setup is not None else None
    judged = _opening(log, setup, thread, report)
    report.checkpoints = checks = checkpoints.verify(heads, salt, thread, posts, judged.key,
                                                     judged.commitment)
    if not checks:
        report.problems.append(Problem("checkpoint", "no log checkpoint found in the thread "
                                       "text given with --thread", rule="R-CHECKPOINT"))
    signed = setup is not None and setup.format >= 2
    legacy = any(len(str(raw.get("checkpoint", ""))) == CHECKPOINT_HEX
                 for raw in log.entries if isinstance(raw, dict) and raw.get("kind") == "posted")
    matched = {c.claim.post for c in checks if c.ok and c.claim.keyed}
    ours = [c for c in checks if c.claim.keyed and c.claim.signed == signed]
    unanchored = bool(ours) and not any(c.genuine for c in ours) and not judged.anchored
    if unanchored:  # not one line is the log's: said once, below, not line by line
        checks = [c for c in checks if c not in ours]
    for check in checks:
        if check.claim.signed != signed:
            found: tuple[str, str] | None = ("thread", f"{_named(check)}: a checkpoint line of "
                                             f"log format {2 if check.claim.signed else 1}, "
                                             "not of this log's: another game's, ignored")
        elif signed:
            found = _signed_finding(check, salt, len(posts), check.claim.post in matched)
            other = (checkpoints.signer(check.claim, thread, (judged.key,))
                     if check.genuine is False else None)
            if other is not None:
                found = ("thread", f"{_named(check)}: signed under another moderator's key "
                         f"shown in the thread ({other[:8]}…), not the opening post's: a "
                         "second signed game in one thread. If the opening post's moderator "
                         "made it, this log may not be the game the thread played; the "
                         "forum's post authors tell whose it is")
        else:
            found = _thread_finding(check, salt, len(posts), legacy, check.claim.post in matched,
                                    _after_reveal(thread, salt, check, checks))
        if found is None:
            continue
        kind, message = found
        entry = check.entry
        line = log.line_of(entry - 1) if entry and 0 < entry <= len(log.entries) else None
        where = report.problems if kind == "checkpoint" else report.warnings
        where.append(Problem(kind, message, line=line, entry=entry or None, rule="R-CHECKPOINT"))
    if unanchored:
        report.problems.append(Problem("checkpoint", _none_genuine(len(ours), signed),
                                       rule="R-CHECKPOINT"))
    pinned = max((c.entry for c in checks if c.ok and c.entry is not None), default=-1)
    report.coverage = _coverage(checks, posts, pinned, len(log.entries))
    shown = report.opening or {}
    if setup is not None and shown.get("commitment") == commit.commitment(setup):
        key = " and moderator's key" if signed and shown.get("key") == setup.moderator_key else ""
        report.coverage.insert(0, f"the opening post carries this log's commitment{key}")
    if setup is not None and not signed and ours:
        report.coverage.append(
            "this log is of format 1 (an earlier shmod): its lines are tagged with the salt, "
            "which the reveal publishes, so after the reveal anyone can make a line that "
            "passes for the moderator's; the forum's post dates tell the two apart")
    return pinned


def _named(check: Check) -> str:
    claim = check.claim
    if claim.signed:
        return f"post {claim.post}"
    return f"post {claim.post} (entry {claim.entry})" if claim.keyed else f"entry {claim.entry}"


def _none_genuine(count: int, signed: bool) -> str:
    """Every line of the log's form fails: it is the log that changed, not the thread."""
    if signed:
        return (f"none of the thread's {count} signed checkpoint line(s) verifies under this "
                "log's key, and the thread text has no opening post to take the key from: "
                "the log's key is not the one the thread's posts were signed with, so this log "
                "was rewritten or is another game's (paste the thread from post 1 to see which)")
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


def _after_reveal(thread: str, salt: str | None, check: Check, checks: list[Check]) -> bool:
    """Format 1: whether the thread shows the game's salt (the reveal's post) before this
    line, so that anyone could have made its tag. The reveal comes after the game's last
    post, so only a salt shown after the last line that matches the log counts: one the
    moderator showed early (a "game id") excuses nothing."""
    text = thread.lower()
    last = max((text.find(c.claim.token) for c in checks if c.ok), default=-1)
    revealed = text.find(salt.lower(), max(last, 0)) if salt else -1
    return 0 <= revealed < text.find(check.claim.token)


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
                        setup: Setup, report: Report) -> None:
    """A ``posted`` entry's checkpoint must still be what the log gives (R-CHECKPOINT);
    after an acknowledged edit (R-EDIT) of an entry it covers, a warning says so."""
    acknowledged = _acknowledged(walk)
    heads = walk.heads
    for link in links:
        number, upto, mark = link.post, link.upto, link.checkpoint
        if not (number and upto is not None and mark is not None and 0 <= upto < len(heads)):
            continue
        if checkpoints.recorded(setup, number, upto, mark, heads):
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
