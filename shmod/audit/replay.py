"""``shmod replay``: the page of a whole game with the audit's verdict, and the game in
one post (docs/replay.md).

The hidden information goes into either only for a game that is over, when ``shmod
reveal`` may be posted (R-THREAD), and not with ``public``; otherwise both are built from
the public record alone, and the page says the audit comes once the log is published.
"""
from __future__ import annotations

import os

from shmod.audit.audit import Report, audit_file
from shmod.base.records import Record
from shmod.game.terms import OVER
from shmod.log import game as games
from shmod.texts import formats, pms, replay, replay_page, replay_post

#: Problems the page lists before it says how many more there are.
SHOWN = 10


class Page(Record):
    """A replay page: its HTML, its number of steps, and whether it holds the hidden
    information."""

    html: str
    steps: int
    revealed: bool


def page(path: str, *, public: bool = False, commitment: str | None = None) -> Page:
    """The replay page of the log at ``path``; ``commitment``: the one posted in the
    opening post, to check the setup against (a finished game's page only)."""
    loaded = games.load(path)
    reveal = loaded.state.game.phase == OVER and not public
    made = replay.frames(loaded, reveal=reveal)
    stated = loaded.setup.commitment
    if reveal:
        verdict = _verdict(audit_file(path, commitment), stated, os.path.basename(path))
    else:
        why = ("it was made with --public" if loaded.state.game.phase == OVER
               else "the game is not over: its log holds every secret and stays with the "
                    "moderator until the end")
        verdict = replay_page.Verdict(
            "Not audited here: " + why + ".", (),
            stated or "none recorded",
            "Once the game is over and its log is published, anyone checks every step, the "
            "hash chain and the setup against this commitment: shmod audit LOG "
            "--commitment " + (stated or "HEX") + " (docs/audit.md).")
    title = "Secret Hitler replay: " + pms.title(path, loaded.log.header)
    return Page(replay_page.page(made, title=title, verdict=verdict), len(made.frames), reveal)


def _verdict(report: Report, stated: str | None, name: str) -> replay_page.Verdict:
    """The audit of a finished game's log, as the page says it."""
    word = "VALID" if report.valid else "UNREADABLE" if report.unreadable else "INVALID"
    headline = (f"Audit: {word}: {report.entries} entries, {report.judged} judged by the rules"
                + (", every rule kept and the hash chain unbroken." if report.valid else "."))
    details = [f"{p.where(name)}: {p.kind}: {p.message}" for p in report.problems[:SHOWN]]
    if len(report.problems) > SHOWN:
        details.append(f"… and {len(report.problems) - SHOWN} more (shmod audit lists them).")
    if report.commitment is not None:
        if stated is None:
            details.append("The log records no commitment: there was none to post at the start.")
        else:
            same = "matches" if stated == report.commitment else "does NOT match"
            details.append(f"The setup in the log gives commitment {report.commitment}, which "
                           f"{same} the one recorded at the start ({stated}).")
    if report.commitment_ok is not None:
        details.append("It " + ("matches" if report.commitment_ok else "does NOT match")
                       + " the commitment given to shmod replay --commitment.")
    if report.deal:
        details.append(f"The deal: {report.deal}.")
    shown = stated or report.commitment or "HEX"
    return replay_page.Verdict(
        headline, tuple(details), shown,
        f"Check it yourself with the published log: shmod audit {name} --commitment "
        f"{shown} (compare the commitment with the one in the game's opening post; "
        "docs/audit.md).")


def post(path: str, fmt_name: str | None, *, public: bool = False) -> str:
    """The whole game in one post, in the markup of the profile ``fmt_name``, else the
    game's forum's (:func:`shmod.texts.formats.chosen`)."""
    loaded = games.load(path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    reveal = loaded.state.game.phase == OVER and not public
    return replay_post.post_text(replay.frames(loaded, reveal=reveal), fmt,
                                 title=pms.title(path, loaded.log.header),
                                 commitment=loaded.setup.commitment)
