"""``shmod replay -o game.html``: a whole game as one self-contained HTML page.

One file: the page's CSS and script inline (``replay_page.css``, ``replay_page.js``
beside this module), the game as JSON in a ``<script type="application/json">`` block,
every board drawn as :func:`shmod.texts.board_image.svg` draws it (its lines kept once
each and listed by number per step, so a 10-player game stays a few hundred KB). No
link, font or script from anywhere else: a Content-Security-Policy allows the page's own
script and style (by hash) and nothing else, so it opens from disk or any file host and
makes no request. What the page holds is exactly what :mod:`shmod.texts.replay` cut:
the public record, and the hidden part only for a revealed game.
"""
from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from importlib import resources
from typing import Any

from shmod.base.records import Record
from shmod.forum.deadlines import late_votes
from shmod.forum.events import Corrected
from shmod.game.events import Tallied
from shmod.game.terms import VOTE
from shmod.texts import phrases
from shmod.texts.catalog import get as language
from shmod.texts.replay import PHASE_WORDS, Frame, Replay, board_parts
from shmod.texts.views import PublicView


class Verdict(Record):
    """What the page says about the audit: a headline, its details, the commitment and
    how anyone checks it."""

    headline: str
    details: tuple[str, ...]
    commitment: str
    check: str


class _Strings:
    """Every text of the page kept once, numbered in order of first use."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        number = self.numbers.get(text)
        if number is None:
            number = self.numbers[text] = len(self.numbers)
        return number

    def table(self) -> list[str]:
        return list(self.numbers)


def page(game: Replay, *, title: str, verdict: Verdict) -> str:
    """The HTML page of ``game``."""
    s = _Strings()
    data = {"frames": [_frame(f, s) for f in game.frames], "revealed": game.revealed,
            "roles": [[s(name), s(role)] for name, role in game.roles]}
    data["strings"] = s.table()
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    css, js = _asset("replay_page.css"), _asset("replay_page.js")
    policy = (f"default-src 'none'; style-src '{_sha(css)}'; script-src '{_sha(js)}'; "
              "img-src data:; base-uri 'none'; form-action 'none'")
    last = game.frames[-1].view
    result = (f"The {last.winner} won: {phrases.win(language(None), last.win)}." if last.win
              else f"The game is in progress (round {last.round}).")
    shown = ("Finished game: hidden information (roles, hands, results, the deck) is in "
             "this page, behind the switches below, off at first." if game.revealed else
             "Public record only: this page holds nothing that was secret when it was made.")
    template = _asset("replay_page.html")
    if not game.revealed:  # the switches of the hidden information: not even their labels
        start, end = template.index("<!-- hidden:"), template.index("<!-- /hidden -->")
        template = template[:start] + template[end + len("<!-- /hidden -->\n"):]
    return template.format(
        policy=escape(policy, quote=False), title=escape(title), css=css, js=js, data=blob,
        players=len(last.players), result=escape(result), shown=escape(shown),
        headline=escape(verdict.headline),
        details="".join(f"<li>{escape(d)}</li>" for d in verdict.details),
        commitment=escape(verdict.commitment), check=escape(verdict.check),
        count=len(game.frames), count_less=len(game.frames) - 1)


def _frame(frame: Frame, s: _Strings) -> dict[str, Any]:
    view = frame.view
    president, chancellor = offices(view)
    title, votes = vote_list(view)
    out: dict[str, Any] = {
        "e": frame.entry, "k": s(frame.kind), "s": [s(t) for t in frame.said],
        "r": view.round, "ph": s(PHASE_WORDS[view.phase]),
        "w": s(phrases.waiting(language(None), view.waiting)),
        "p": s(president), "c": s(chancellor),
        "t": f"{view.tracker}/{view.chaos_at}", "d": view.draw_size, "x": view.discard_size,
        "l": f"{view.liberal}/{view.liberal_win}", "f": f"{view.fascist}/{view.fascist_win}",
        "vt": s(title), "v": [[s(n), s(v)] for n, v in votes],
        "G": [s(g.line()) for g in frame.governments],
        "b": [s(line) for line in board_parts(view)],
        "n": [s(n) for n in view.players],
    }
    if frame.voided_by is not None:
        out["vb"] = frame.voided_by
    if frame.hidden is not None:
        h = frame.hidden
        out["h"] = {"l": [[s(c), s(t)] for c, t in h.lines], "d": "".join(h.draw),
                    "x": "".join(h.discard), "G": [s(g.hidden_line()) for g in h.governments]}
    return out


def offices(view: PublicView) -> tuple[str, str]:
    """The President and the Chancellor at this step, each with the office's name then
    (as ``shmod status`` marks them), or a dash."""
    if view.winner is not None or not view.president:
        return "—", "—"
    electing = view.phase in ("nominate", "vote")
    president = f"{view.president} ({'Presidential Candidate' if electing else 'President'})"
    if view.chancellor is None:
        return president, "—"
    return president, f"{view.chancellor} ({'Chancellor nominee' if electing else 'Chancellor'})"


def vote_list(view: PublicView) -> tuple[str, list[tuple[str, str]]]:
    """The vote to show: while votes come in, who has voted (never how); otherwise the
    last vote counted, in seating order (R-VOTE)."""
    if view.phase == VOTE:
        title = (f"Votes coming in on {view.president} → {view.chancellor}: "
                 f"{len(view.voted)} of {view.living} living players have voted")
        removed = set(view.removed)
        return title, [(name, ("removed" if name in removed else "dead") if not up else "voted"
                        if name in view.voted else "not voted yet")
                       for name, up in zip(view.players, view.alive)]
    gone = {n for ev in view.history if isinstance(ev, Corrected) for n, _ in ev.voided}
    tallies = [ev for ev in view.history if isinstance(ev, Tallied) and ev.entry not in gone]
    if not tallies:
        return "No vote yet", []
    last = tallies[-1]
    result = "elected" if last.elected or last.eva_braun else "not elected"
    title = (f"Vote {len(tallies)}: {last.president} → {last.chancellor}: Ja {last.ja}, "
             f"Nein {last.nein}: {result}")
    late, removed = set(late_votes(view.history).get(last.entry, ())), set(view.removed)
    return title, [(name, ("removed" if name in removed else "dead") if vote is None else
                    "Nein (no vote by the deadline)" if name in late else "Ja" if vote
                    else "Nein") for name, vote in last.votes]


def _asset(name: str) -> str:
    return resources.files("shmod.texts").joinpath(name).read_text(encoding="utf-8")


def _sha(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")
