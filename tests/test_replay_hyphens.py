"""Issue 44: on the replay page a long German or Polish word breaks only where it may.

Debian's headless Chromium does not hyphenate German with ``hyphens: auto``, and the page's
``overflow-wrap: anywhere`` breaks a word that does not fit wherever the line ends
("Präsidentschaftska|ndidat" at 390 px). So the page puts a soft hyphen at each break
point of every long word it shows (the catalog's list, ``replay_page.HYPHENATION``), and
the browser breaks a word there, showing the hyphen, or not at all.

Two checks, in German and Polish: every word of 13 letters or more in the page's texts of
whole games (the shipped ones: removals, replacements, prods, deadlines, a deal from words; and
test_catalog_bypass's directed game: lapses, corrections, a power with no target) has its break points; and
in headless Chromium at 375 px, at steps across a game with every switch on, no word is
split across two lines but at a soft hyphen. Names are the players' and stay whole (not
hyphenated; none here is that long), and a pile written as letters ("FFLLF") is no word.
English needs no list: its words are short enough for a phone.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_catalog_bypass as bypass
from test_replay_page import PHONE, browser  # noqa: F401 (the module's Chromium)

from shmod.audit import replay as audit_replay
from shmod.forum.steps import Delivered
from shmod.game.steps import Step
from shmod.log import references, store
from shmod.texts import catalog, replay_frames, replay_page

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("de", "pl")
LONG = 13
WORD = re.compile(r"[^\W\d_\u00ad]+(?:\u00ad[^\W\d_\u00ad]+)*")
PILE = re.compile(r"[LF]+")


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[Path]:
    """The shipped games and test_catalog_bypass's directed game (lapses, corrections, a
    veto left unanswered, a power with no target), as logs."""
    folder = tmp_path_factory.mktemp("hyphens")
    made = [bypass.directed_game()]
    out = sorted(ROOT.glob("games/*.yaml"))
    for n, played in enumerate(made):
        path = folder / f"g{n}.yaml"
        steps = referenced([step for _, step in played.plan], played.header, played.plan[-1][0])
        path.write_text(store.log_text(played.header, steps, at=played.plan[-1][0]))
        out.append(path)
    return out


def referenced(steps: list[Step], header: dict[str, object], at: str) -> list[Step]:
    """``steps`` with each delivery naming its entry as a log does (issue 40: by the entry's
    reference, never its number): the directed game names it by number only."""
    players = header["players"]
    assert isinstance(players, list)
    entries, _ = store.chained(steps, tuple(players), "", at)
    return [Delivered(references.digits(entries[step.entry - 1]), step.to, step.what, step.n,
                      step.wrong) if isinstance(step, Delivered) and step.entry > 0 else step
            for step in steps]


def page_texts(path: Path, code: str) -> Iterator[str]:
    """Every text the replay page of ``path`` shows in ``code`` but the players' names and
    the board pictures, as the page holds it."""
    game = store.load(str(path))
    t = catalog.get(code)
    made = replay_frames.frames(game, reveal=True, lang=t)
    shy = replay_page.hyphenation(t)
    strings = replay_page._Strings()
    frames = [replay_page._frame(f, strings, t, made.truth) for f in made.frames]
    kept = {n for f in frames for key in ("b", "n") for n in f[key]}
    yield from (replay_page.hyphenated(text, shy) for n, text in enumerate(strings.table())
                if n not in kept)
    for words in (replay_page.page_words(t, 3), replay_page.script_words(t)):
        yield from (replay_page.hyphenated(text, shy) for text in words.values())


@pytest.mark.parametrize("code", LANGS)
def test_every_long_word_of_the_page_has_its_break_points(logs, code):
    missing = sorted({word for path in logs for text in page_texts(path, code)
                      for word in WORD.findall(text)
                      if len(word) >= LONG and "\u00ad" not in word and not PILE.fullmatch(word)})
    assert missing == [], f"{code}: give these their break points in HYPHENATION: {missing}"


def test_english_and_the_pseudo_language_are_not_hyphenated():
    for code in ("en", "qps"):
        assert replay_page.hyphenation(catalog.get(code)) == {}
    de = replay_page.hyphenation(catalog.get("de"))
    assert de["Präsidentschaftskandidat"].replace("\u00ad", "") == "Präsidentschaftskandidat"
    assert replay_page.hyphenated("Präsidentschaftskandidat: Ann", de).count("\u00ad") >= 2


#: Each word of the page's visible text split across two lines but at a soft hyphen (JS:
#: the shortest start of the word that spans two lines ends at its break).
SPLIT = r"""() => {
  const out = [];
  const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const box = node.parentElement;
    if (!box || box.closest("svg, .gov, #govs") || !box.getClientRects().length) continue;
    for (const found of node.data.matchAll(/[^\s]+/g)) {
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      if (range.getClientRects().length < 2) continue;
      for (let k = 1; k <= found[0].length; k++) {  // the shortest start on two lines
        range.setEnd(node, found.index + k);
        if (range.getClientRects().length > 1) {
          // the soft hyphen it breaks at (drawn as a hyphen: a box of its own), or the
          // first letter after it
          if (found[0][k - 1] !== "\u00ad" && found[0][k - 2] !== "\u00ad") out.push(found[0]);
          break;
        }
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("code", LANGS)
def test_no_word_breaks_on_a_phone_but_at_a_shown_hyphen(logs, browser, tmp_path, code):  # noqa: F811
    path = next(p for p in logs if p.name == "forum-10-players.yaml")
    made = audit_replay.page(str(path), language=code)
    page = tmp_path / "replay.html"
    page.write_text(made.html)
    opened = browser.new_context(viewport=PHONE)
    split: set[str] = set()
    try:
        tab = opened.new_page()
        tab.goto(page.resolve().as_uri())
        for switch in ("roles", "hands", "results", "deck", "claims"):
            tab.check(f"#show-{switch}")
        for step in range(0, made.steps, 4):
            tab.evaluate("(n) => { const s = document.getElementById('slider'); s.value = n; "
                         "s.dispatchEvent(new Event('input', {bubbles: true})); }", step)
            split |= {w for w in tab.evaluate(SPLIT) if WORD.fullmatch(w.strip(".,:;()"))
                      and not PILE.fullmatch(w.strip(".,:;()"))}
    finally:
        opened.close()
    assert not split, f"{code}: words broken across lines without a hyphen: {sorted(split)}"
