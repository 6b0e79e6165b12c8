"""Issue 27 in a real browser: the replay page (``shmod replay LOG -o game.html``) opened
from disk in headless Chromium (Debian's package, /usr/bin/chromium; ``.ci/run`` installs
it when missing) through Playwright, one browser for the whole module.

For the shipped games, whole random games under every variant and the forum's steps
(corrections, lapses, removals, replacements, prods, deadlines, backups): step from the
first step to the last with the keyboard and back, and at every step compare what the
page shows with what ``shmod status`` (:func:`shmod.texts.board.lines`) and the history
grid (:func:`shmod.texts.history.elections`) say at that entry, the board with
``shmod board --svg``'s picture; no console error, no request but the file itself; the
switches show exactly the secrets of the log; no horizontal scrolling at a phone's width.
Chromium missing is a failure, never a skip.
"""
from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_forum_profiles import _absences, _dealt_by_words, _forum_game

from shmod.audit.random_games import random_game
from shmod.forum.seats import voided
from shmod.game.events import InvestigationResult, PeekResult
from shmod.game.terms import OVER, VOTE
from shmod.log import store
from shmod.texts import (
    board,
    board_image,
    catalog,
    glossary,
    phrases,
    replay_frames,
    thread_posts,
    views,
)
from shmod.texts.history import elections
from shmod.texts.reveal import governments

CHROMIUM = os.environ.get("SHMOD_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 375, "height": 740}
SHIPPED = sorted(Path(__file__).parent.parent.glob("games/*.yaml"))
AT = "2026-01-01T00:00:00Z"
#: One random game for each set of house rules, at every player count.
VARIANTS = [(5, []), (6, ["term5=seated"]), (7, ["veto=secret-vote"]),
            (8, ["tracker_reset=election"]),
            (10, ["veto=secret-vote", "tracker_reset=election", "term5=seated"]),
            (9, ["rebalanced=on"]), (6, ["eva_braun=on"]), (7, ["first_president=seat1"])]

READ = """function read() {
  const text = (id) => document.getElementById(id).textContent;
  const all = (selector) => [...document.querySelectorAll(selector)].map((e) => e.textContent);
  const svg = document.querySelector("#board svg");
  return {
    position: text("position"), kind: text("kind"), said: all("#said li"),
    voided: text("voided"), gov: text("gov"), round: text("round"), phase: text("phase"),
    president: text("president"), chancellor: text("chancellor"), tracker: text("tracker"),
    draw: text("draw"), discard: text("discard"), liberal: text("liberal"),
    fascist: text("fascist"), waiting: text("waiting"), voteTitle: text("vote-title"),
    votes: all("#votes li"), govs: all("#govs li"), label: svg.getAttribute("aria-label"),
    role: svg.getAttribute("role"), svgTexts: all("#board svg text"),
    secrets: all("#secrets li"), roles: all("#roles li"),
    wide: document.documentElement.scrollWidth > window.innerWidth,
    first: document.getElementById("first").disabled,
    last: document.getElementById("last").disabled,
  };
}"""
#: A key pressed as the page hears it, then what it shows: one round trip a step.
PRESS = f"""(key) => {{
  document.dispatchEvent(new KeyboardEvent("keydown", {{key, bubbles: true}}));
  return ({READ})();
}}"""
#: ``count`` presses of ``key``, and what each step showed, in one round trip.
WALK = f"""([key, count]) => {{
  const out = [];
  for (let i = 0; i < count; i++) {{
    document.dispatchEvent(new KeyboardEvent("keydown", {{key, bubbles: true}}));
    out.push(({READ})());
  }}
  return out;
}}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):  # CI installs it (.ci/run): missing is a failure
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (.ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield launched
        launched.close()


class Opened:
    """A page opened from disk, with every request it made and every console error."""

    def __init__(self, browser: Any, path: Path, size: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=size)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.url = path.resolve().as_uri()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda m: m.type in ("error", "warning") and
                     self.errors.append(m.text))
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.goto(self.url)

    def read(self) -> dict[str, Any]:
        shown: dict[str, Any] = self.page.evaluate(f"({READ})()")
        return shown

    def press(self, key: str) -> dict[str, Any]:
        shown: dict[str, Any] = self.page.evaluate(PRESS, key)
        return shown

    def walk(self, key: str, count: int) -> list[dict[str, Any]]:
        shown: list[dict[str, Any]] = self.page.evaluate(WALK, [key, count])
        return shown

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors
        assert set(self.requests) <= {self.url}, self.requests


def made(run: Any, log: str, out: Path, *extra: str) -> Path:
    code, _, err = run("replay", log, "-o", str(out), *extra)
    assert code == 0, err
    return out


def write(path: Path, header: dict[str, object], steps: list[Any]) -> str:
    path.write_text(store.log_text(header, steps, at=AT))
    return str(path)


def entry_of(shown: dict[str, Any]) -> int:
    match = re.fullmatch(r"(\d+) of (\d+) · after entry (\d+)", shown["position"])
    assert match, shown["position"]
    return int(match.group(3))


def status_facts(view: views.PublicView) -> dict[str, str]:
    """What ``shmod status`` prints for ``view``: tracker and piles, round, and the
    seats marked President and Chancellor (as the page must show them)."""
    lines = board.lines(view, board.Ink(open(os.devnull, "w")), None)  # noqa: SIM115
    facts: dict[str, str] = {}
    for line in lines:
        found = re.match(r"Election Tracker: (\d+/\d+) +Draw pile: (\d+) +Discard pile: (\d+)",
                         line)
        if found:
            facts.update(tracker=found.group(1), draw=found.group(2), discard=found.group(3))
        found = re.match(r"Round (\d+), phase", line)
        if found:
            facts["round"] = found.group(1)
        found = re.match(r"│ +\d+ │ (.+?) +│ (.*?) *│$", line)
        if found:
            name, marks = found.group(1), found.group(2)
            for office in ("Presidential Candidate", "President", "Chancellor nominee",
                           "Chancellor"):
                if re.search(rf"(^|, ){office}(,|$)", marks):
                    key = "president" if office.startswith("President") else "chancellor"
                    facts[key] = f"{name} ({office})"
    return facts


def check_step(shown: dict[str, Any], view: views.PublicView, voided_later: bool) -> None:
    """The page at one step against status, the history grid and the board picture."""
    facts = status_facts(view)
    assert shown["tracker"] == facts["tracker"] and shown["draw"] == facts["draw"]
    assert shown["discard"] == facts["discard"]
    if view.phase != OVER:
        assert shown["round"] == facts["round"]
    assert shown["president"] == facts.get("president", "—")
    assert shown["chancellor"] == facts.get("chancellor", "—")
    assert shown["liberal"] == f"{view.liberal}/{view.liberal_win}"
    assert shown["fascist"] == f"{view.fascist}/{view.fascist_win}"
    assert shown["waiting"] == f"Waiting for {phrases.waiting(catalog.get(None), view.waiting)}"
    rows = elections(view)
    if view.phase == VOTE:
        marks = [v.rsplit(": ", 1)[1] for v in shown["votes"]]
        assert marks.count("voted") == len(view.voted)
        assert len(marks) == len(view.players)
    elif rows:
        values = [v.rsplit(": ", 1)[1] for v in shown["votes"]]
        grid = ["†" if v in ("dead", "removed") else "Nein" if v.startswith("Nein") else v
                for v in values]
        names = [v.rsplit(": ", 1)[0].split(" (")[0] for v in shown["votes"]]
        for name, value in zip(names, values):  # a seat out of the game: removed or dead
            if value in ("dead", "removed"):
                assert (value == "removed") == (name in view.removed), (name, value)
        assert grid == rows[-1].grid()
    else:
        assert shown["votes"] == [] and shown["voteTitle"] == "No vote yet"
    assert len(shown["govs"]) == len(rows)
    for line, row in zip(shown["govs"], rows):
        assert line.startswith(f"R{row.round} · {row.president} → {row.chancellor} · "), line
        policy = row.policy.replace("Liberal", "L").replace("Fascist", "F")
        if policy:
            assert line.endswith(policy), (line, row)
    assert shown["gov"] == (f"Government: {shown['govs'][-1]}" if rows else "No government yet.")
    assert shown["role"] == "img" and shown["label"] == board_image.describe(view)
    texts = [s.text for s in board_image.layout(view)[0] if s.kind == "text"]
    assert shown["svgTexts"] == texts
    assert shown["said"] and shown["kind"].removeprefix("· ") in replay_frames.KINDS
    assert shown["voided"].startswith("Voided") == voided_later
    assert not shown["wide"]


def step_through(opened: Opened, game: store.Loaded) -> list[dict[str, Any]]:
    """Every step, first to last with the keyboard and back, each checked; returns them."""
    page = opened.page
    later = {n for _at, numbers, _why in game.table.corrections for n in numbers}
    seen: list[dict[str, Any]] = []
    shown = opened.read()
    while True:
        entry = entry_of(shown)
        check_step(shown, views.public_view(thread_posts.state_at(game, entry)), entry in later)
        seen.append(shown)
        if shown["last"]:
            break
        if len(seen) == 1:  # the keyboard itself once; then as the page hears it
            page.keyboard.press("ArrowRight")
            shown = opened.read()
        else:
            shown = opened.press("ArrowRight")
    assert seen[0]["first"] and entry_of(seen[0]) == 0 and len(seen) > 3
    assert (seen[-1]["kind"] == "· game over") == (game.table.game.phase == OVER)
    count = int(seen[0]["position"].split(" of ")[1].split(" ")[0])
    assert len(seen) == count
    entries = [entry_of(s) for s in seen]
    assert entries == sorted(set(entries))  # each step later in the log than the one before
    back = opened.walk("ArrowLeft", count - 1)
    assert [entry_of(s) for s in back] == entries[-2::-1]
    assert [s["said"] for s in back] == [s["said"] for s in seen[-2::-1]]
    page.keyboard.press("End")
    assert entry_of(opened.read()) == entries[-1]
    page.keyboard.press("ArrowLeft")
    assert entry_of(opened.read()) == entries[-2]
    page.keyboard.press("Home")
    assert entry_of(opened.read()) == 0
    page.click("#next")
    page.click("#next")
    assert entry_of(opened.read()) == entries[2]
    page.click("#prev")
    assert entry_of(opened.read()) == entries[1]
    page.click("#last")
    assert opened.read()["last"]
    page.locator("#slider").fill(str(count // 2))
    assert entry_of(opened.read()) == entries[count // 2]
    page.click("#first")
    return seen


def check_switches(opened: Opened, game: store.Loaded, steps: int) -> None:
    """Off: nothing hidden shows. On, one at a time: exactly the log's secrets of that kind."""
    page = opened.page
    page.keyboard.press("End")
    plain = opened.read()
    assert plain["secrets"] == [] and plain["roles"] == []
    assert not any(re.search(r"\((Liberal|Fascist|Hitler)\):", v) for v in plain["votes"])
    page.check("#show-roles")
    shown = opened.read()
    seats = [[name] for name in game.setup.players]
    for seat, _old, new, _entry in game.table.replaced:
        seats[seat].append(new)
    for seat, old, new, _entry in game.table.renamed:  # a name corrected (R-RENAME)
        seats[seat] = [new if name == old else name for name in seats[seat]]
    assert shown["roles"] == [f"{' → '.join(names)}: {glossary.ROLE[role].msgid}"
                              for names, role in zip(seats, game.table.game.roles)]
    assert [re.search(r"\((\w+)\): ", v).group(1) for v in shown["votes"]] == \
        [glossary.ROLE[role].msgid for role in game.table.game.roles]  # type: ignore[union-attr]
    page.uncheck("#show-roles")
    page.check("#show-hands")
    lines = opened.read()["govs"]
    sessions = [line for line in lines if line.count(" > ") == 2]
    revealed = governments(game)
    assert len(sessions) == len(revealed)
    for line, gov in zip(sessions, revealed):
        kept = list(gov.drawn)
        for card in gov.president_discard:
            kept.remove(card)
        assert line.endswith(f"{gov.president} → {gov.chancellor} · {''.join(sorted(gov.drawn))} "
                             f"> {''.join(sorted(kept))} > {gov.enacted or 'vetoed'}"), line
    page.uncheck("#show-hands")
    gone = voided(game.table)
    expected = sorted(f"{s.to} learnt that {s.target}'s party is {s.party}."
                      if isinstance(s, InvestigationResult) else
                      f"{s.to} saw the top three: {''.join(s.cards)}."
                      for s in game.table.secrets if isinstance(s, (InvestigationResult,
                                                                     PeekResult))
                      and s.entry not in gone)
    decks = [list(game.setup.deck)] + [
        list(raw["deck"]) for n, raw in enumerate(game.log.entries, 1)
        if raw.get("kind") == "reshuffle" and n not in gone]
    page.keyboard.press("Home")
    page.check("#show-results")
    every = [opened.read(), *opened.walk("ArrowRight", steps - 1)]
    results = [line for shown in every if not shown["voided"] for line in shown["secrets"]]
    assert sorted(results) == expected
    page.uncheck("#show-results")
    page.check("#show-deck")
    every = [opened.read(), *opened.walk("ArrowLeft", steps - 1)][::-1]
    shuffles = []
    for index, shown in enumerate(every):
        draw = next(s for s in shown["secrets"] if s.startswith("Draw pile, top first: "))
        cards = re.fullmatch(r"Draw pile, top first: (\w*?)(?:empty)? \((\d+)\)", draw)
        assert cards and len(cards.group(1)) == int(cards.group(2)) == int(shown["draw"])
        if index == 0:
            assert cards.group(1) == "".join(decks[0])
        for line in shown["secrets"]:
            found = re.fullmatch(r"The reshuffled draw pile, top first: (\w+)\.", line)
            if found and not shown["voided"]:
                shuffles.append(found.group(1))
        assert all(line.startswith(("Draw pile", "Discard pile", "The reshuffled"))
                   for line in shown["secrets"])
    assert shuffles == ["".join(deck) for deck in decks[1:]]
    page.uncheck("#show-deck")


def test_the_shipped_games_step_by_step_with_their_secrets(browser, run, tmp_path):
    for log in SHIPPED:
        page = made(run, str(log), tmp_path / f"{log.stem}.html")
        game = store.load(str(log))
        opened = Opened(browser, page, DESKTOP)
        seen = step_through(opened, game)
        check_switches(opened, game, len(seen))
        opened.close()


def test_random_games_under_every_variant_at_phone_width(browser, run, tmp_path):
    """Phone width; every other game stopped half-way (a game in progress: no switches)."""
    for n, (players, variants) in enumerate(VARIANTS):
        sim = random_game(players, random.Random(f"replay-{n}"), variants=variants)
        steps = sim.steps if n % 2 == 0 else sim.steps[:len(sim.steps) // 2]
        log = write(tmp_path / f"g{n}.yaml", sim.header, steps)
        game = store.load(log)
        opened = Opened(browser, made(run, log, tmp_path / f"g{n}.html"),
                        PHONE if n % 3 else DESKTOP)
        seen = step_through(opened, game)
        if game.table.game.phase == OVER:
            check_switches(opened, game, len(seen))
        else:
            assert opened.page.locator("input[type=checkbox]").count() == 0
            assert "Not audited here" in opened.page.text_content("#verdict")  # type: ignore[operator]
        opened.close()


def test_the_forums_steps_show_as_what_they_were(browser, run, tmp_path):
    """Corrections (one forced), lapses, a removal, replacements, prods, deadlines, a
    backup, a rename and a deal from the players' words, each said as what it was."""
    kinds: set[str] = set()
    for n, (header, steps) in enumerate([_forum_game(), _absences(), _dealt_by_words()]):
        log = write(tmp_path / f"f{n}.yaml", header, steps)
        game = store.load(log)
        opened = Opened(browser, made(run, log, tmp_path / f"f{n}.html"), PHONE)
        seen = step_through(opened, game)
        check_switches(opened, game, len(seen))
        opened.close()
        kinds |= {s["kind"].removeprefix("· ") for s in seen}
        said = " ".join(" ".join(s["said"]) for s in seen)
        voided_steps = [s for s in seen if s["voided"]]
        if n == 0:
            assert "CORRECTION: the moderator voids a step already posted here" in said
            assert "Correction: the moderator mistyped and voids" in said
            assert voided_steps and all("Voided: a correction at entry" in s["voided"]
                                        for s in voided_steps)
        if n == 1:
            assert "sent no vote by the deadline: counted as Nein" in said
            assert "The moderator has removed" in said and "The moderator prodded" in said
            assert "joins the list of backup players" in said
    assert {"setup", "deal", "nomination", "vote", "legislation", "power", "deadline",
            "lapse", "prod", "backup", "replacement", "rename", "removal", "correction",
            "game over"} <= kinds, kinds


def test_the_page_is_accessible(browser, run, tmp_path):
    """Real buttons, headings, a labelled slider and board, text that says what colour
    says, focus that moves with the keyboard."""
    opened = Opened(browser, made(run, str(SHIPPED[2]), tmp_path / "a.html"), PHONE)
    page = opened.page
    assert page.locator("h1").count() == 1 and page.locator("h2").count() >= 7
    for name in ("First", "Previous", "Next", "Last"):
        assert page.get_by_role("button", name=name, exact=True).count() == 1
    assert page.get_by_role("slider", name=re.compile("Step")).count() == 1
    assert page.get_by_role("img").count() == 1
    for name in ("Roles", "Investigation and peek results", "Deck order and reshuffles"):
        assert page.get_by_role("checkbox", name=name).count() == 1
    page.keyboard.press("Tab")  # First and Previous are disabled at the start: Next
    assert page.evaluate("document.activeElement.id") == "next"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert opened.read()["position"].startswith("3 of ")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "slider"
    page.keyboard.press("ArrowRight")  # the slider's own keys
    assert opened.read()["position"].startswith("4 of ")
    box = page.locator("#board svg").bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]
    opened.close()


def test_a_hostile_name_is_text_and_nothing_runs(browser, run, tmp_path):
    names = ["</script><img src=x onerror=alert(1)>", "<b>Bo", 'Q"uo', "Dee", "Eve"]
    log = tmp_path / "h.yaml"
    assert run("new", *names, "-g", str(log), "--seed", "cd" * 16, "--guessable")[0] == 0
    opened = Opened(browser, made(run, str(log), tmp_path / "h.html"), DESKTOP)
    dialogs: list[str] = []
    opened.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    shown = opened.read()
    assert any(names[0] in line for line in shown["svgTexts"])
    assert opened.page.locator("img").count() == 0 and dialogs == []
    opened.close()
