"""``shmod replay``: the page of a whole game with the audit's verdict, and the game in
one post (docs/replay.md).

The hidden information goes into either only for a game that is over, when ``shmod
reveal`` may be posted (R-THREAD), and not with ``public``; otherwise both are built from
the public record alone, and the page says the audit comes once the log is published.
"""
from __future__ import annotations

import os

from shmod.audit.findings import Problem
from shmod.audit.log_audit import Report, audit_file, deal_text
from shmod.base.records import Record
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import catalog, formats, pms, replay_frames, replay_page, replay_post
from shmod.texts.catalog import Language, Np_

#: Problems the page lists before it says how many more there are.
SHOWN = 10


class Page(Record):
    """A replay page: its HTML, its number of steps, and whether it holds the hidden
    information."""

    html: str
    steps: int
    revealed: bool


def page(path: str, *, public: bool = False, commitment: str | None = None,
         language: str | None = None) -> Page:
    """The replay page of the log at ``path``; ``commitment``: the one posted in the
    opening post, to check the setup against (a finished game's page only); in the
    language ``language`` (else the game's)."""
    loaded = store.load(path)
    t = catalog.get(language or loaded.setup.language)
    reveal = loaded.table.game.phase == OVER and not public
    made = replay_frames.frames(loaded, reveal=reveal, lang=t)
    stated = loaded.setup.commitment
    if reveal:
        verdict = _verdict(audit_file(path, commitment), stated, os.path.basename(path), t,
                           deal_text(loaded.table, t))
    else:
        command = f"shmod audit LOG --commitment {stated or 'HEX'}"
        # TRANSLATORS: {command} is shmod's command line to run.
        check = t._("Once the game is over and its log is published, anyone checks every "
                    "step, the hash chain and the setup against this commitment: {command} "
                    "(docs/audit.md).", command=command)
        verdict = replay_page.Verdict(
            t._("Not audited here: it was made with --public.")
            if loaded.table.game.phase == OVER else
            t._("Not audited here: the game is not over: its log holds every secret and "
                "stays with the moderator until the end."), (),
            stated or t._p("commitment", "none recorded"), check)
    title = t._("Secret Hitler replay: {title}", title=pms.title(path, loaded.log.header))
    return Page(replay_page.page(made, title=title, verdict=verdict), len(made.frames), reveal)


def _verdict(report: Report, stated: str | None, name: str, t: Language,
             deal: str) -> replay_page.Verdict:
    """The audit of a finished game's log, as the page says it: its problems worded in
    ``t`` (:func:`problem_text`; in English as ``shmod audit`` prints them)."""
    word = (t._p("audit verdict", "VALID") if report.valid else
            t._p("audit verdict", "UNREADABLE") if report.unreadable else
            t._p("audit verdict", "INVALID"))
    # TRANSLATORS: {verdict} is VALID, INVALID or UNREADABLE; {entries} the log's entries,
    # {judged} how many of them the rules judged.
    counts = {"entries": t._n("{n} entry", "{n} entries", report.entries),
              "judged": t._n("{n} judged by the rules", "{n} judged by the rules",
                             report.judged)}
    headline = (t._("Audit: {verdict}: {entries}, {judged}, every rule kept and the hash chain "
                    "unbroken.", verdict=word, **counts) if report.valid else
                t._("Audit: {verdict}: {entries}, {judged}.", verdict=word, **counts))
    details = [problem_text(p, name, t) for p in report.problems[:SHOWN]]
    if len(report.problems) > SHOWN:
        details.append(t._n("… and {n} more ({command} lists them).",
                            "… and {n} more ({command} lists them).",
                            len(report.problems) - SHOWN, command="shmod audit"))
    if report.commitment is not None:
        if stated is None:
            details.append(t._("The log records no commitment: there was none to post at the "
                               "start."))
        elif stated == report.commitment:
            details.append(t._("The setup in the log gives commitment {commitment}, which "
                               "matches the one recorded at the start ({stated}).",
                               commitment=report.commitment, stated=stated))
        else:
            details.append(t._("The setup in the log gives commitment {commitment}, which "
                               "does NOT match the one recorded at the start ({stated}).",
                               commitment=report.commitment, stated=stated))
    if report.commitment_ok is not None:
        details.append(t._("It matches the commitment given to {command}.",
                           command="shmod replay --commitment") if report.commitment_ok else
                       t._("It does NOT match the commitment given to {command}.",
                           command="shmod replay --commitment"))
    if report.deal:
        details.append(t._("The deal: {deal}.", deal=deal))
    shown = stated or report.commitment or "HEX"
    command = f"shmod audit {name} --commitment {shown}"
    # TRANSLATORS: {command} is shmod's command line to run.
    return replay_page.Verdict(
        headline, tuple(details), shown,
        t._("Check it yourself with the published log: {command} (compare the commitment "
            "with the one in the game's opening post; docs/audit.md).", command=command))


#: What a problem of each kind is, in a sentence that names its kind.
KINDS = {"rule": Np_("audit kind", "rule"), "format": Np_("audit kind", "format"),
         "chain": Np_("audit kind", "chain"), "commitment": Np_("audit kind", "commitment"),
         "checkpoint": Np_("audit kind", "checkpoint"), "header": Np_("audit kind", "header"),
         "unreadable": Np_("audit kind", "unreadable")}


def problem_text(problem: Problem, name: str, t: Language) -> str:
    """One of the audit's problems as the page lists it, in ``t``, made from its kind,
    place, cause and facts (:class:`~shmod.audit.findings.Problem`); in English, the
    words ``shmod audit`` prints (its terminal stays English in every language)."""
    if t.code == catalog.ENGLISH:
        return f"{problem.where(name)}: {problem.kind}: {problem.message}"
    line, entry = problem.line, problem.entry
    place = (t._("{file}:{line}: entry {entry}", file=name, line=line, entry=entry)
             if line and entry else t._("{file}: entry {entry}", file=name, entry=entry)
             if entry else f"{name}:{line}" if line else name)
    facts = dict(problem.facts)
    kind = t.term(KINDS[problem.kind]) if problem.kind in KINDS else problem.kind
    match problem.kind, problem.cause:
        case _, "more":
            return t._n("{place}: {kind}: {n} more {kind} problems not listed: only the "
                        "first {limit} of each kind are",
                        "{place}: {kind}: {n} more {kind} problems not listed: only the "
                        "first {limit} of each kind are", int(facts["count"]), place=place,
                        kind=kind, limit=facts["limit"])
        case "chain", "moved" if facts["after"]:
            return t._("{place}: chain: broken hash chain: this entry is unchanged but out of "
                       "place: it was written right after entry {after} (line {line}); entries "
                       "were moved, inserted or removed here", place=place, **facts)
        case "chain", "moved":
            return t._("{place}: chain: broken hash chain: this entry is unchanged but out of "
                       "place: it was written right after the header; entries were moved, "
                       "inserted or removed here", place=place)
        case "chain", "first":
            return t._("{place}: chain: broken hash chain: this entry or the header was "
                       "changed after it was written", place=place)
        case "chain", "changed":
            return t._("{place}: chain: broken hash chain: this entry was changed after it "
                       "was written, or an entry right before it was removed", place=place)
        case "checkpoint", "posted":
            return t._("{place}: checkpoint: the post this entry marks (post {post}) showed "
                       "checkpoint {mark} for entry {upto}, which the log no longer gives: an "
                       "entry at or before entry {upto} was changed after it was posted",
                       place=place, **facts)
        case "commitment", "header":
            return t._("{place}: commitment: the header's commitment {stated} is not the hash "
                       "of its secret setup ({computed}): the setup was changed after `shmod "
                       "new`", place=place, **facts)
        case "commitment", "given":
            return t._("{place}: commitment: the setup in this log (roles, deck, seed, salt, "
                       "seating) hashes to {actual}, not to the commitment {expected}: the "
                       "secret setup is not the one committed at the start", place=place,
                       **facts)
        case "rule", _:
            return t._("{place}: rule {rule} broken ({command} says how)", place=place,
                       rule=problem.rule or "?", command="shmod audit")
    return t._("{place}: {kind} ({command} says what)", place=place, kind=kind,
               command="shmod audit")


class GamePost(Record):
    """The game in one post, the profile it is written in, and whether it holds the hidden
    part (in the profile's spoiler, or after its warning line)."""

    text: str
    fmt: formats.Plain
    revealed: bool


def post(path: str, fmt_name: str | None, *, public: bool = False,
         language: str | None = None) -> GamePost:
    """The whole game in one post, in the markup of the profile ``fmt_name``, else the
    game's forum's (:func:`shmod.texts.formats.chosen`), in the language ``language``
    (else the game's)."""
    loaded = store.load(path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, language or loaded.setup.language)
    reveal = loaded.table.game.phase == OVER and not public
    text = replay_post.post_text(replay_frames.frames(loaded, reveal=reveal, lang=fmt.lang), fmt,
                                 title=pms.title(path, loaded.log.header),
                                 commitment=loaded.setup.commitment)
    return GamePost(text, fmt, reveal)
