"""``shmod replay -o game.html``: a whole game as one self-contained HTML page.

One file: the page's CSS and script inline (``replay_page.css``, ``replay_page.js``
beside this module), the game as JSON in a ``<script type="application/json">`` block,
every board drawn as :func:`shmod.texts.board_image.svg` draws it (its lines kept once
each and listed by number per step, so a 10-player game stays a few hundred KB). No
link, font or script from anywhere else: a Content-Security-Policy allows the page's own
script and style (by hash) and nothing else, so it opens from disk or any file host and
makes no request. What the page holds is exactly what :mod:`shmod.texts.replay_frames` cut:
the public record, and the hidden part only for a revealed game.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
from html import escape
from importlib import resources
from typing import Any

from shmod.base.records import Record
from shmod.forum.deadlines import late_votes
from shmod.forum.events import Corrected
from shmod.game.events import Tallied
from shmod.game.terms import VOTE
from shmod.texts import claim_texts, glossary, phrases
from shmod.texts.catalog import ENGLISH, PSEUDO, Language, Np_
from shmod.texts.replay_frames import KINDS, PHASE_WORDS, Frame, Replay, board_parts
from shmod.texts.views import PublicView

_WORD = re.compile(r"[^\W\d_]+")


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


#: A soft hyphen: where a long word may break, the hyphen shown only if it does.
SHY = "\u00ad"
# TRANSLATORS: not a sentence: the long words the replay page shows, each with a hyphen at
# every point where a phone may break it across two lines (the browser shows the hyphen
# only when it breaks the word there), separated by spaces; each form of a word as the
# page writes it (e.g. "Loyalitäts-prüfung Loyalitäts-prüfungen"). Every word of 13
# letters or more needs one (tests/test_replay_hyphens.py). English needs none: keep
# the message as it is.
HYPHENATION = Np_("hyphenation", "long-words with-their break-points")


def hyphenation(t: Language) -> dict[str, str]:
    """Each long word of ``t`` the page shows, and the same word with a soft hyphen at each
    of its break points (the catalog's :data:`HYPHENATION`); none for English and the
    pseudo-language, whose words break at spaces."""
    if t.code in (ENGLISH, PSEUDO):
        return {}
    return {word.replace("-", ""): word.replace("-", SHY) for word in t.term(HYPHENATION).split()
            if "-" in word}


def hyphenated(text: str, words: dict[str, str]) -> str:
    """``text`` with each whole word of ``words`` given its soft hyphens."""
    if not words:
        return text
    return _WORD.sub(lambda found: words.get(found.group(), found.group()), text)


def page(game: Replay, *, title: str, verdict: Verdict) -> str:
    """The HTML page of ``game``, in the language its frames are worded in: the page's own
    words in the template (``{w[key]}``), the script's in the data (``words``); a long
    word breaks on a phone only where the language's :data:`HYPHENATION` allows."""
    t = game.lang
    s = _Strings()
    truth = game.truth if game.revealed else None
    shy = hyphenation(t)
    frames = [_frame(f, s, t, truth) for f in game.frames]
    data: dict[str, Any] = {
        "frames": frames, "revealed": game.revealed,
        "roles": [[s(name), s(role)] for name, role in game.roles],
        "words": {k: hyphenated(v, shy) for k, v in script_words(t).items()}}
    kept = {n for f in frames for key in ("b", "n") for n in f[key]}  # pictures, names
    data["strings"] = [text if n in kept else hyphenated(text, shy)
                       for n, text in enumerate(s.table())]
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    css, js = _asset("replay_page.css"), _asset("replay_page.js")
    policy = (f"default-src 'none'; style-src '{_sha(css)}'; script-src '{_sha(js)}'; "
              "img-src data:; base-uri 'none'; form-action 'none'")
    last = game.frames[-1].view
    if last.winner and last.win:
        result = glossary.won(t, last.winner, "The {team} won: {reason}.",
                              reason=phrases.win(t, last.win))
    else:
        result = t._("The game is in progress (round {round}).", round=last.round)
    shown = (t._("Finished game: hidden information (roles, hands, results, the deck) is in "
                 "this page, behind the switches below, off at first.") if game.revealed else
             t._("Public record only: this page holds nothing that was secret when it was "
                 "made."))
    template = _asset("replay_page.html")
    if not game.revealed:  # the switches of the hidden information: not even their labels
        start, end = template.index("<!-- hidden:"), template.index("<!-- /hidden -->")
        template = template[:start] + template[end + len("<!-- /hidden -->\n"):]
    count = len(game.frames)
    return template.format(
        lang=escape(t.code), policy=escape(policy, quote=False), title=escape(title), css=css,
        js=js, data=blob, w={k: hyphenated(v, shy) for k, v in page_words(t, count).items()},
        players=escape(t._n("{n} player.", "{n} players.", len(last.players))),
        result=escape(hyphenated(result, shy)), shown=escape(hyphenated(shown, shy)),
        headline=escape(hyphenated(verdict.headline, shy)),
        details="".join(f"<li>{escape(hyphenated(d, shy))}</li>" for d in verdict.details),
        commitment=escape(t._("Setup commitment: {commitment}")).format(
            commitment=f'<code id="commitment">{escape(verdict.commitment)}</code>'),
        check=escape(verdict.check), count_less=count - 1)


def page_words(t: Language, count: int) -> dict[str, str]:
    """The page's own words in ``t``, escaped for HTML (an attribute's value too), by
    their key in the template."""
    office = {key: glossary.office(t, key) for key in ("president", "chancellor")}
    words = {
        "steps": t._p("replay page", "Steps"), "first": t._p("replay page", "First"),
        "previous": t._p("replay page", "Previous"), "next": t._p("replay page", "Next"),
        "last": t._p("replay page", "Last"), "step": t._p("replay page", "Step"),
        # TRANSLATORS: the replay page's position before its script runs: step 1 of all.
        "position": t._("{at} of {count}", at=1, count=count),
        "keys": t._("Keys: ← and → step, Home and End jump to the start and the end."),
        "noscript": t._("The replay steps through the game with its script; this browser "
                        "runs none."),
        "what": t._p("replay page", "What happened"), "board": t._p("replay page", "Board"),
        "state": t._p("replay page", "Government and piles"),
        "round": t._p("replay page", "Round"), "phase": t._p("replay page", "Phase"),
        **office, "tracker": t._("Election Tracker"), "draw": t._p("replay page", "Draw pile"),
        "discard": t._p("replay page", "Discard pile"), "liberal": t._("Liberal policies"),
        "fascist": t._("Fascist policies"), "votes": t._p("replay page", "Votes"),
        "hidden": t._p("replay page", "Hidden information"),
        "reveal": t._("The game is over and the reveal is made: switch on what you want to "
                      "see."),
        "show": t._p("replay page", "Show"), "roles": t._p("replay page", "Roles"),
        "hands": t._("Each President's draw and discard, each Chancellor's pair"),
        "results": t._("Investigation and peek results"),
        "deck": t._("Deck order and reshuffles"),
        "governments": t._p("replay page", "Governments so far"),
        "claims": t._p("replay page", "Claims so far"),
        "claimsTrue": t._("Whether each claim was true"),
        "audit": t._p("replay page", "Audit"),
    }
    return {key: escape(text, quote=False).replace('"', "&quot;") for key, text in words.items()}


def script_words(t: Language) -> dict[str, str]:
    """What the page's script says, in ``t``: each a message whose ``{fields}`` the script
    fills (``replay_page.js``)."""
    return {
        # TRANSLATORS: the replay page's position: step {at} of {count}, which stands after
        # the log's entry {entry}.
        "position": t._("{at} of {count} · after entry {entry}"),
        # TRANSLATORS: the step slider's value as a screen reader says it; {kind} is what
        # the step was (e.g. "nomination").
        "step": t._("Step {at} of {count}: {kind}"),
        # TRANSLATORS: beside "What happened": what the step was (e.g. "nomination").
        "kind": t._("· {kind}"),
        "voided": t._("Voided: a correction at entry {entry} took this step back; it is "
                      "shown as it was."),
        # TRANSLATORS: {government} is a line like "R3 · Ann → Bob · L".
        "government": t._("Government: {government}"),
        "noGovernment": t._("No government yet."),
        # TRANSLATORS: {waiting} says whom the game waits for and for what.
        "waiting": t._("Waiting for {waiting}"),
        # TRANSLATORS: a seat in the list of votes: its name and its vote (or "voted").
        "vote": t._("{name}: {vote}"),
        # TRANSLATORS: a seat in the list of votes with its role shown.
        "voteRole": t._("{name} ({role}): {vote}"),
        # TRANSLATORS: a seat in the list of roles: its name(s) and its role.
        "role": t._("{names}: {role}"),
        "rolesHeading": t._("Roles, by seat"),
        "noClaims": t._("No claim yet."),
        "hiddenHeading": t._("Hidden at this step"),
    }


def _frame(frame: Frame, s: _Strings, t: Language,
           truth: claim_texts.Truth | None) -> dict[str, Any]:
    view = frame.view
    president, chancellor = offices(view, t)
    title, votes = vote_list(view, t)
    out: dict[str, Any] = {
        "e": frame.entry, "k": s(t.term(KINDS[frame.kind])), "s": [s(x) for x in frame.said],
        "r": view.round, "ph": s(t.term(PHASE_WORDS[view.phase])),
        "w": s(phrases.waiting(t, view.waiting)),
        "p": s(president), "c": s(chancellor),
        "t": f"{view.tracker}/{view.chaos_at}", "d": view.draw_size, "x": view.discard_size,
        "l": f"{view.liberal}/{view.liberal_win}", "f": f"{view.fascist}/{view.fascist_win}",
        "vt": s(title), "v": [[s(n), s(v)] for n, v in votes],
        "G": [s(g.line(lang=t)) for g in frame.governments],
        "b": [s(line) for line in board_parts(view, t)],
        "n": [s(n) for n in view.players],
        "K": [s(line) for line in claim_texts.page_lines(view.history, t)],
    }
    if frame.voided_by is not None:
        out["vb"] = frame.voided_by
    if frame.hidden is not None:
        h = frame.hidden
        empty = t._p("pile", "empty")
        said = [("claims", claim_texts.hidden_line(ev, truth[ev.entry], t))
                for ev in claim_texts.in_effect(view.history)
                if ev.entry == frame.entry and truth and ev.entry in truth]
        out["h"] = {"l": [[s(c), s(x)] for c, x in (*h.lines, *said)],
                    "K": [s(line) for line in claim_texts.page_lines(view.history, t, truth)],
                    "d": s(t._("Draw pile, top first: {cards} ({n})",
                               cards=glossary.letters(t, h.draw) or empty, n=len(h.draw))),
                    "x": s(t._("Discard pile: {cards} ({n})",
                               cards=glossary.letters(t, h.discard) or empty,
                               n=len(h.discard))),
                    "G": [s(g.hidden_line(lang=t)) for g in h.governments]}
    return out


def offices(view: PublicView, t: Language) -> tuple[str, str]:
    """The President and the Chancellor at this step, each with the office's name then
    (as ``shmod status`` marks them), or a dash."""
    if view.winner is not None or not view.president:
        return "—", "—"
    electing = view.phase in ("nominate", "vote")
    # TRANSLATORS: a player and the office they hold at this step of the replay.
    president = t._("{name} ({office})", name=view.president,
                    office=glossary.office_in(t, "candidate" if electing else "president"))
    if view.chancellor is None:
        return president, "—"
    return president, t._("{name} ({office})", name=view.chancellor,
                          office=t._p("seat marker", "Chancellor nominee") if electing
                          else glossary.office_in(t, "chancellor"))


def vote_list(view: PublicView, t: Language) -> tuple[str, list[tuple[str, str]]]:
    """The vote to show: while votes come in, who has voted (never how); otherwise the
    last vote counted, in seating order (R-VOTE)."""
    removed = set(view.removed)

    def out(name: str) -> str:
        return (t._p("vote list", "removed") if name in removed else
                t._p("vote list", "dead"))

    if view.phase == VOTE:
        # TRANSLATORS: {n} of {living} living players have voted on this government.
        title = t._n("Votes coming in on {president} → {chancellor}: {n} of {living} living "
                     "players have voted",
                     "Votes coming in on {president} → {chancellor}: {n} of {living} living "
                     "players have voted", len(view.voted), president=view.president,
                     chancellor=view.chancellor, living=view.living)
        return title, [(name, out(name) if not up else t._p("vote list", "voted")
                        if name in view.voted else t._p("vote list", "not voted yet"))
                       for name, up in zip(view.players, view.alive)]
    gone = {n for ev in view.history if isinstance(ev, Corrected) for n, _ in ev.voided}
    tallies = [ev for ev in view.history if isinstance(ev, Tallied) and ev.entry not in gone]
    if not tallies:
        return t._("No vote yet"), []
    last = tallies[-1]
    # TRANSLATORS: the last vote counted: its number, the government, the count, and
    # "elected" or "not elected".
    title = t._("Vote {number}: {president} → {chancellor}: {Ja} {ja}, {Nein} {nein}: "
                "{result}", number=len(tallies), president=last.president,
                chancellor=last.chancellor, ja=last.ja, nein=last.nein, **glossary.BALLOTS,
                result=t._p("vote list", "elected") if last.elected or last.eva_braun else
                t._p("vote list", "not elected"))
    late = set(late_votes(view.history).get(last.entry, ()))
    return title, [(name, out(name) if vote is None else
                    t._p("vote list", "{Nein} (no vote by the deadline)", **glossary.BALLOTS)
                    if name in late else
                    glossary.ballot(vote)) for name, vote in last.votes]


def _asset(name: str) -> str:
    return resources.files("shmod.texts").joinpath(name).read_text(encoding="utf-8")


def _sha(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")
