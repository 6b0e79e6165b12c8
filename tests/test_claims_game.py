"""Issue 36: a whole game with claims, played through the installed ``shmod`` from an empty
folder as a moderator plays it (tests/installed.py), seven players, every Fascist power:
each session claimed by its President and Chancellor (one Chancellor lying: a conflict),
investigations claimed, hard claims of roles; the claims that make no sense refused with
one line and the log unchanged. ``shmod history`` shows the claims (no mark during the
game, marked after it), ``shmod reveal`` marks them, ``replay --post`` holds them, the
replay page (opened in Debian's Chromium through Playwright, tests/test_replay_page.py's
fixtures, at a phone's 375 px and a desktop's 1280 px) lists them at every step and marks
them behind their switch, and ``shmod stats`` counts them.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from installed import Moderator
from test_replay_page import DESKTOP, PHONE, Opened, browser, entry_of, step_through

from shmod.forum import claims as forum_claims
from shmod.game import legal
from shmod.game.events import Drawn, Handed, InvestigationResult
from shmod.game.terms import OVER, POWER
from shmod.log import store
from shmod.texts import claim_texts
from shmod.texts.catalog import get as language

__all__ = ["browser"]  # the module's Chromium, from tests/test_replay_page.py
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
ENGLISH = language(None)
CLAIMS = """() => ({
  claims: [...document.querySelectorAll("#claims li")].map((e) => e.textContent),
  none: document.getElementById("no-claims").textContent,
  wide: document.documentElement.scrollWidth > window.innerWidth,
})"""


def loaded(mod: Moderator) -> store.Loaded:
    return store.load(str(mod.log))


def claim_session(mod: Moderator, game: store.Loaded, lie: bool) -> None:
    """The last session's President and Chancellor say what they drew and received (the
    Chancellor claiming another hand when ``lie``: a conflict with the President's pass)."""
    sessions, _ = forum_claims.record(game.table)
    last = sessions[-1]
    names = game.table.game.players
    drawn = next(s for s in game.table.secrets if isinstance(s, Drawn) and s.entry == last.drew)
    hand = [s for s in game.table.secrets if isinstance(s, Handed)][-1]
    if game.table.game.alive[last.president]:
        mod.run("claim", names[last.president], "".join(drawn.cards), "--passed",
                "".join(hand.cards))
    if game.table.game.alive[last.chancellor]:
        received = "".join(sorted(hand.cards))
        mod.run("claim", names[last.chancellor], ("FL" if received == "FF" else "FF") if lie
                else received)


def play(mod: Moderator) -> dict[str, Any]:
    """The whole game: Fascist policies when a hand has one, Hitler never nominated, each
    power on the first player it may target; claims after every session and power, and
    the refusals along the way. Returns what the test checks afterwards."""
    mod.run("new", *NAMES, "--seed", "c1a5" * 8, "--guessable", "--first", "Ann")
    roles = dict(zip(NAMES, loaded(mod).setup.roles))
    hitler = next(name for name, role in roles.items() if role == "hitler")
    liberal = next(name for name, role in roles.items() if role == "liberal")
    mod.run("claim", hitler, "--role", "liberal")  # a lie
    mod.run("claim", liberal, "--role", "liberal")
    sessions = 0
    middle: dict[str, str] = {}
    while True:
        game = loaded(mod)
        g = game.table.game
        if g.phase == OVER:
            break
        name = g.players
        if g.phase == "nominate":
            mod.run("nominate", next(name[s] for s in legal.nominees(g) if name[s] != hitler))
        elif g.phase == "vote":
            mod.run("vote", *[x for s in g.living for x in (name[s], "ja")])
        elif g.phase == "discard":
            mod.run("discard", "liberal" if "L" in g.hand else "fascist")
        elif g.phase == "enact":
            mod.run("enact", "fascist" if "F" in g.hand else "liberal")
            sessions += 1
            if loaded(mod).table.game.phase != OVER:  # the page's last step: game over
                claim_session(mod, loaded(mod), lie=sessions == 2)
            if sessions == 2:
                middle["history"] = mod.run("history").stdout
                chancellor = name[g.chancellor_seat()]
                mod.refused("claim", chancellor, "FFL", "--round", "2", rule="R-CLAIM")
                mod.refused("claim", "Ann", "FFL", "--round", "40", rule="R-CLAIM")
                mod.refused("claim", "Gus", "Ann", "fascist", rule="R-CLAIM")
                mod.refused("claim", "Ann", "FFFF", rule="R-CLAIM")
                before = mod.log.read_bytes()
                assert "'X' is not a policy" in mod.run("claim", "Ann", "FXL", code=2).stderr
                assert mod.log.read_bytes() == before
        elif g.phase == POWER:
            assert g.power is not None
            kind = {"investigate": "investigate", "special_election": "special-election",
                    "execute": "execute", "peek": "peek"}[g.power]
            target = next(name[s] for s in legal.power_targets(g, g.power) if name[s] != hitler)
            president = name[g.president]
            mod.run(kind, target)
            if kind == "investigate":
                result = next(s for s in loaded(mod).table.secrets
                              if isinstance(s, InvestigationResult))
                mod.run("claim", president, target, result.party.lower())
            if kind == "execute":
                middle["dead"] = mod.refused("claim", target, "--role", "liberal",
                                             rule="R-CLAIM")
        else:
            raise AssertionError(f"the test plays no {g.phase}")
    return middle


def test_a_whole_game_with_claims_through_the_installed_shmod(browser, tmp_path):
    mod = Moderator(tmp_path)
    middle = play(mod)
    game = loaded(mod)
    assert game.table.game.winner == "Fascists"
    made = claim_texts.in_effect(game.table.public)
    truth = claim_texts.truth(game.table)
    assert truth is not None and len(made) > 12
    assert {c.about for c in made} == {"president", "chancellor", "investigation", "role"}
    assert sorted(truth.values()).count(False) == 2  # Hitler's claim, and the lying one
    # during the game: what was said, a conflict, no mark
    during = middle["history"]
    assert "Claims (" in during and "conflict" in during
    assert not re.search(r"\b(true|false)\b", during.split("game is over)")[1])
    assert "is dead: a dead player says nothing in the thread" in middle["dead"]
    # after it: every claim marked, in the history and the reveal
    history = mod.run("history").stdout
    table = history.split("Claims (")[1]
    assert table.count("true") == len(made) - 2 and table.count("false") == 2
    reveal = mod.run("reveal", "--no-spoiler").stdout
    marked = reveal.split("Claims, against what was dealt:")[1]
    assert marked.count(". true") == len(made) - 2 and marked.count(". false") == 2
    post = mod.run("replay", "--post", str(mod.log), "-f", "plain").stdout
    assert "Claims (" in post and "conflict" in post
    # the page, at a phone's width and a desktop's
    page = tmp_path / "game.html"
    mod.run("replay", str(mod.log), "-o", str(page))
    for size in (PHONE, DESKTOP):
        check_page(browser, page, game, size)
    # the stats
    stats = json.loads(mod.run("stats", str(mod.log.parent), "--json").stdout)
    counted = {p["name"]: p["claims"]["made"] for p in stats["players"]}
    assert counted == {name: sum(c.name == name for c in made) for name in NAMES}


def check_page(browser: Any, page: Path, game: store.Loaded, size: dict[str, int]) -> None:
    """Step through the page; at each step the claims so far are listed, marked only
    behind their switch, and nothing is wider than the screen."""
    opened = Opened(browser, page, size)
    seen = step_through(opened, game)
    assert any(s["kind"] == "· claim" for s in seen)
    lines = []
    opened.page.keyboard.press("Home")
    for step in range(len(seen)):
        shown = opened.page.evaluate(CLAIMS)
        entry = entry_of(opened.read())
        public = [ev for ev in game.table.public if ev.entry <= entry]
        assert shown["claims"] == claim_texts.page_lines(public, ENGLISH)
        assert (shown["none"] == "No claim yet.") == (not shown["claims"])
        assert not shown["wide"]
        lines.append(shown["claims"])
        if step < len(seen) - 1:
            opened.press("ArrowRight")
    assert lines[-1] and not any(re.search(r"· (true|false)", x) for x in lines[-1])
    opened.page.check("#show-claims")
    marked = opened.page.evaluate(CLAIMS)["claims"]
    truth = claim_texts.truth(game.table)
    assert marked == claim_texts.page_lines(game.table.public, ENGLISH, truth)
    assert sum("· false" in x for x in marked) == 2
    opened.close()
