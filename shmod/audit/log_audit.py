"""Auditing a game log: every problem located (file:line, entry, rule), then a summary.

Three independent checks run over a log: the hash chain (every entry, tampering located:
see :func:`chain_problems`), the form of every entry, and the rules. The last two are the
replay every command runs (:func:`shmod.log.store.replay`) in its listing mode: every entry
is read, and the rules are judged up to the first violation, after which nothing can be.
"""
from __future__ import annotations

from typing import Any

from shmod.audit.draws import draws
from shmod.audit.findings import Problem, ranges
from shmod.audit.summary import Summary, summarize
from shmod.audit.thread_audit import audit_thread
from shmod.base.errors import BadInput, IllegalStep, InternalError, LogError, ShmodError
from shmod.base.records import Record, field, replace
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
from shmod.log.store import Listing, replay
from shmod.texts.catalog import N_, Language, get as language

VALID, INVALID, UNREADABLE = 0, 1, 2
#: Chain mismatches beyond this many are reported without looking for where they came from.
MAX_TRACED = 64


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
    seed: str | None = None  # who chose the seed (R-COMMIT), in words
    corrections: list[dict[str, Any]] = field(default_factory=list)  # R-CORRECT, R-EDIT
    #: every value drawn from a seed, with its inputs (shmod.audit.draws, docs/verify.md)
    draws: list[dict[str, Any]] = field(default_factory=list)
    #: R-MODERATORS, R-HANDOVER: who recorded which entries, and each hand-over
    recorders: list[dict[str, Any]] = field(default_factory=list)
    handovers: list[dict[str, Any]] = field(default_factory=list)
    #: R-MISSENT: every item of the outbox given to the wrong reader
    missent: list[dict[str, Any]] = field(default_factory=list)
    #: with --thread: the commitment and the key found in the thread's opening post
    opening: dict[str, str | None] | None = None
    # What the audit read and replayed, for a caller that goes on from them (shmod stats);
    # never in the JSON, and dropped with the report.
    log: logfile.LogFile | None = None
    table: Table | None = None

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
            "problems": [p.to_json() for p in self.problems],
            "warnings": [p.to_json() for p in self.warnings],
            "commitment": self.commitment,
            "commitment_ok": self.commitment_ok,
            "summary": self.summary.to_json() if self.summary else None,
            "checkpoints": (None if self.checkpoints is None
                            else [c.to_json() for c in self.checkpoints]),
            "coverage": self.coverage,
            "opening": self.opening,
            "deal": self.deal,
            "seed": self.seed,
            "corrections": self.corrections,
            "draws": self.draws,
            "recorders": self.recorders,
            "handovers": self.handovers,
            "missent": self.missent,
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
    pinned = -1
    if thread is not None:
        found = audit_thread(log, setup, walk.heads, walk.posts, thread)
        report.problems += found.problems
        report.warnings += found.warnings
        report.opening, report.checkpoints = found.opening, found.checks
        report.coverage, pinned = found.coverage, found.pinned
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
    report.seed = seed_text(setup)
    report.commitment = commit.commitment(setup)
    if setup.commitment is not None and setup.commitment != report.commitment:
        report.problems.append(Problem(
            "commitment", f"the header's commitment {setup.commitment} is not the hash of its "
            f"secret setup ({report.commitment}): the setup was changed after `shmod new`",
            cause="header", facts=(("stated", setup.commitment),
                                   ("computed", report.commitment))))
    if expected is not None:
        why = commit.verify(setup, expected)
        report.commitment_ok = why is None
        if why:
            report.problems.append(Problem("commitment", why, cause="given", facts=(
                ("actual", report.commitment), ("expected", commit.parse_hex(expected)))))
    _judge(log, report)
    report.problems.sort(key=lambda p: p.entry or 0)
    return report


def _judge(log: logfile.LogFile, report: Report) -> None:
    """The form of every entry, and the rules up to the first entry that breaks one."""
    listing = Listing()
    listed: list[int] = []  # how many moderators were listed after each entry judged

    def watch(number: int, step: object, table: Table) -> None:
        listed.append(len(table.moderators))

    state = replay(log, listing, watch=watch).table
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
    report.table = state
    report.corrections = corrections(state, log)
    report.deal = deal_text(state)
    if report.stopped is None:  # a game judged to its end: every draw was the seed's
        report.draws = draws(state)
    report.recorders, report.handovers = recorders(log, len(state.setup.moderators), listed)
    _check_takeovers(report)
    report.missent = missent(state, log)
    report.warnings += [Problem("moderator", f"entry {n} names no moderator, in a game that "
                                "listed several (appended by hand?)", line=log.line_of(n - 1),
                                entry=n, rule="R-MODERATORS")
                        for n in unnamed(log, len(state.setup.moderators), listed)]
    report.warnings += [Problem("steerable", why, line=log.line_of(entry - 1), entry=entry,
                                rule=rule) for entry, rule, why in steerable(state)]


def missent(state: Table, log: logfile.LogFile) -> list[dict[str, Any]]:
    """R-MISSENT: each item given to the wrong reader: the ``delivered`` entry that says so
    (and its line), the item (the entry that caused it, its addressee, what it is), whom
    it reached, when and by which moderator."""
    return [{"entry": d.entry, "line": log.line_of(d.entry - 1), "caused_by": d.of,
             "to": d.to, "what": d.what, "n": d.n, "reached": d.wrong, "at": d.at, "by": d.by}
            for d in state.deliveries if d.wrong is not None]


def steerable(state: Table) -> list[tuple[int, str, str]]:
    """What a log of an earlier format let the moderator steer, as (entry, rule, why):
    each random lapse choice and a words deal whose older rules depended on something the
    moderator types (docs/audit.md, logs of earlier formats; ``LogFormat``'s fields say
    which)."""
    form = state.setup.format
    found = []
    removed = sorted(state.removed.values())
    for entry, step in state.history if form.lapse_draw == "index" else ():
        if isinstance(step, Lapse) and step.choice is not None:
            if form.lapse_label == "entry":
                found.append((entry, "R-LAPSE", f"the random choice {step.choice!r} was drawn "
                              "by the lapse's entry number (format 1): entries the moderator "
                              "recorded before it (prods, backups) could have moved it"))
            elif removed and removed[0] < entry and step.choice not in POLICY_NAMES.values():
                found.append((entry, "R-LAPSE", f"the random target {step.choice!r} was drawn "
                              "among the seats a power could target (format 2): a removal "
                              f"before it (entry {removed[0]}) could have moved it"))
    if state.setup.deal == "players" and state.dealt is not None:
        why = form.words.choice(list(state.words.values()))
        if why is not None:
            found.append((state.dealt, "R-DEAL", why))
    return found


def recorders(log: logfile.LogFile, start: int,
              listed: list[int]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """R-MODERATORS, R-HANDOVER: each moderator and the entries they recorded (as ranges),
    in the order they first recorded; each hand-over and its take-over. Empty for a game
    that never listed its moderators."""
    if not start and not any(listed):
        return [], []
    found: dict[str | None, list[int]] = {}
    handovers: list[dict[str, Any]] = []
    for index, raw in enumerate(log.entries):
        mod = raw.get("mod") if isinstance(raw, dict) else None
        found.setdefault(mod if isinstance(mod, str) else None, []).append(index + 1)
        kind = raw.get("kind") if isinstance(raw, dict) else None
        if kind == "handover":
            handovers.append({"entry": index + 1, "from": mod, "to": raw.get("name"),
                              "taken": None})
        elif kind == "takeover" and handovers:
            handovers[-1]["taken"] = index + 1
            handovers[-1]["post"] = raw.get("post")
    return [{"moderator": name, "entries": ranges(numbers), "count": len(numbers)}
            for name, numbers in found.items()], handovers


def _check_takeovers(report: Report) -> None:
    """R-HANDOVER: a take-over names the hand-over post its moderator checked their copy
    against; only the thread shows that post's signed line. With ``--thread`` each
    take-over is checked: its post's line is there, genuine, and the log gives it;
    without, it is said not checked (a take-over entry appended by hand, with its hash
    recomputed, looks like any other)."""
    for hand in report.handovers:
        if not hand["taken"]:
            continue
        if report.checkpoints is None:
            hand["checked"] = None
            continue
        post = hand.get("post")
        hand["checked"] = any(c.ok and c.genuine and c.claim.post == post
                              for c in report.checkpoints)
        if not hand["checked"]:
            report.warnings.append(Problem(
                "takeover", f"the take-over at entry {hand['taken']} names post {post}, whose "
                "signed checkpoint line the thread given does not show as this log gives it: "
                "nothing shows the incoming moderator checked their copy against the "
                "hand-over post", line=report.log.line_of(hand["taken"] - 1) if report.log
                else None, entry=hand["taken"], rule="R-HANDOVER"))


def unnamed(log: logfile.LogFile, start: int, listed: list[int]) -> list[int]:
    """The entries that name no moderator though two or more were listed before them."""
    before = [start, *listed]
    return [index + 1 for index, raw in enumerate(log.entries)
            if index < len(before) and before[index] >= 2
            and not (isinstance(raw, dict) and isinstance(raw.get("mod"), str))]


#: How a format's deal read the words (``Words.kind``), in the audit's deal sentence.
DEAL_HOW = {
    "lookalike": N_("each seat's word by its look-alike key (letters that look alike read as "
                    "one: rn as m, 0 as o), by seat number"),
    "latin": N_("each seat's word in letters a-z and digits, by seat number"),
    "skeleton": N_("each seat's word as it looks (its canonical form's look-alike skeleton), "
                   "by seat number"),
    "canonical": N_("each seat's word in its canonical form, by seat number"),
    "names": N_("the words with the names seated at the deal (format 1, an earlier shmod: a "
                "rename before the last word could move it)"),
}


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
        how = t._(DEAL_HOW[setup.format.words.kind])
        if not any(rule == "R-DEAL" for _, rule, _ in steerable(state)):
            # TRANSLATORS: {how} says how the words were read; {entries} lists the log's
            # entries that hold them.
            return t._("dealt from the moderator's committed seed and {how} (R-DEAL; entries "
                       "{entries}): the audit recomputed the roles, the deck and the first "
                       "President from them, and they are the ones played; nobody could "
                       "choose them", how=how, entries=words)
        # TRANSLATORS: {how} says how the words were read; {entries} lists the log's
        # entries that hold them.
        return t._("dealt from the moderator's committed seed and {how} (R-DEAL; entries "
                   "{entries}): the audit recomputed the roles, the deck and the first "
                   "President from them, and they are the ones played; the moderator could "
                   "not choose the seed, but the rule of this log's format left a choice in "
                   "how the words were written (the warning above)", how=how, entries=words)
    if setup.seed is not None:
        return t._("dealt from the moderator's seed alone: the commitment shows the setup was "
                   "not changed, not that it was not chosen ({command} prevents that)",
                   command="`shmod new --deal players`")
    return t._("dealt outside shmod (no seed): the commitment covers the roles and the first "
               "deck; reshuffles are as the moderator recorded them")


#: What the header's ``seed_source`` says (log format 5), for the audit's "Seed:" line.
SEED_SOURCES = {
    "drawn": "drawn by shmod (128 random bits), as the header's seed_source says under the "
             "commitment",
    "supplied": "supplied by the moderator (`shmod new --seed`), not drawn by shmod, as the "
                "header's seed_source says under the commitment; `shmod new` refuses a seed "
                "that is a pattern or the hash of a text a player tries first (docs/audit.md)",
    "guessable": "supplied by the moderator and accepted unchecked (`shmod new --guessable`), "
                 "as the header's seed_source says under the commitment",
}


def seed_text(setup: Setup) -> str | None:
    """Who chose the secret seed (R-COMMIT), as the header records it under the commitment
    (log format 5); None for a game without a seed or a format that records nothing."""
    if setup.seed is None or setup.seed_source is None:
        return None
    return SEED_SOURCES[setup.seed_source]


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
    if setup.format.signed and setup.moderator_key is None:
        return [Problem("signing_key", "the header has no moderator_key: no post of this log "
                        "could be signed, so a thread cannot tell the moderator's checkpoint "
                        "lines from anyone else's", rule="R-CHECKPOINT")]
    return []


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
            entry=link.index + 1, rule="R-CHECKPOINT", cause="posted",
            facts=(("post", number), ("mark", mark), ("upto", upto)))
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
            message, cause, facts = _mismatch(log, log.entries[index], index, origins, traced)
            found = Problem("chain", message, line=log.line_of(index), entry=index + 1,
                            rule="R-EDIT", cause=cause, facts=facts)
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


def _mismatch(log: logfile.LogFile, raw: dict[str, Any], index: int, origins: dict[str, int],
              traced: bool) -> tuple[str, str, tuple[tuple[str, int | str], ...]]:
    """Explain a chain mismatch at entry ``index`` (0-based): the sentence, its cause and
    facts (:class:`~shmod.audit.findings.Problem`)."""
    if traced:
        for link, number in origins.items():
            if number != index + 1 and chain.linked(link, raw) == raw["hash"]:
                line = log.line_of(number - 1) if number else 0
                after = "the header" if number == 0 else f"entry {number} (line {line})"
                return (f"broken hash chain: this entry is unchanged but out of place: it "
                        f"was written right after {after}; entries were moved, inserted "
                        "or removed here", "moved", (("after", number), ("line", line)))
    if index == 0:
        return ("broken hash chain: this entry or the header was changed after it "
                "was written", "first", ())
    return ("broken hash chain: this entry was changed after it was written, or an "
            "entry right before it was removed", "changed", ())


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
                           f"the first {MAX_LISTED} of each kind are", cause="more",
                           facts=(("count", count - MAX_LISTED), ("limit", MAX_LISTED)))
                   for kind, count in counts.items() if count > MAX_LISTED]


def _rule_of(message: str) -> str | None:
    head = message.split(":", 1)[0]
    return head if head.startswith("R-") else None
