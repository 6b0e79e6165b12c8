"""Issue 33 §1: no word of the history, the reveal, the replay (the page and the game in
one post) or the board picture bypasses the message catalog (shmod/texts/catalog.py).

Whole games are rendered in the pseudo-language ``qps``, which accents every letter of
every message it is asked for: an ASCII word left in what it renders is a word that did
not come from the catalog, and the test names it with the text around it. Left out of
the search: the players' names and the game's title, hex values (commitments, seeds,
colours), the tag names of the markup, the ballots Ja and Nein (the same in every
language), the commands, file names and rule ids quoted, the deadline's clock time and
time zone, and the label of the commitment line ``audit --thread`` reads back.

The games: the shipped ones, a random game for each set of house rules (half stopped
mid-game) and the forum's steps (corrections, lapses, a removal, replacements, prods,
deadlines, backups, a rename, a deal from the players' words). Rendered: the history of
every fifth step and the last, the reveal, ``replay --post`` (revealed and public) in all
seven profiles; the board picture's labels and alt text at every step; the replay page
made by ``shmod replay --language qps``, its HTML and, in Chromium at a phone's width,
what every step shows with every switch on, without sideways scrolling.
"""
from __future__ import annotations

import html
import random
import re
from pathlib import Path
from typing import Any

import pytest
from test_forum_profiles import _absences, _dealt_by_words, _forum_game
from test_replay_page import PHONE, SHIPPED, VARIANTS, Opened, browser, write

from shmod.audit.random_games import random_game
from shmod.game.terms import OVER
from shmod.log import store
from shmod.log.checkpoints import COMMITMENT_LABEL
from shmod.texts import board_image, catalog, formats, pms, replay_frames, replay_post
from shmod.texts.history import history_text
from shmod.texts.reveal import reveal_text

__all__ = ["browser"]  # the Chromium fixture, shared with test_replay_page

QPS = catalog.get(catalog.PSEUDO)
WORD = re.compile(r"[A-Za-z]+")
#: Tag and attribute names of the profiles' markup (BBCode, Markdown's HTML, Discourse).
MARKUP = {"b", "i", "u", "color", "size", "list", "quote", "code", "spoiler", "details",
          "summary", "table", "tr", "th", "td", "url", "co", "de"}
BALLOTS = {"Ja", "Nein"}
#: What is no word of shmod's to translate: machine-read, quoted or data.
FIXED = [re.compile(pattern) for pattern in (
    re.escape(COMMITMENT_LABEL), r"R-[A-Z0-9-]+", r"shmod audit(?: \S+ --commitment \S+)?",
    r"shmod replay --commitment", r"`shmod new --deal players`", r"docs/audit\.md",
    r"(?<![0-9A-Za-z])[0-9a-fA-F]{16,}(?![0-9A-Za-z])", r"#[0-9a-fA-F]{6}\b",
    r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", r"\d\d:\d\d [A-Z]{2,5}\b", r"\b[A-Z][a-z]+/[A-Z]\w+")]


def leftovers(text: str, data: set[str]) -> list[str]:
    """The English words in ``text``, each once with what surrounds it; ``data``: the
    names and other values of the game, whose words are left alone."""
    for pattern in FIXED:
        text = pattern.sub(" ", text)
    allowed = MARKUP | BALLOTS | {w for value in data for w in WORD.findall(value)}
    found: dict[str, str] = {}
    for m in WORD.finditer(text):
        if m.group() not in allowed:
            found.setdefault(m.group(), text[max(0, m.start() - 30):m.end() + 30])
    return list(found.values())


def assert_translated(kind: str, text: str, data: set[str]) -> None:
    left = leftovers(text, data)
    assert not left, f"{kind}: English left in the pseudo-language: {left[:5]}"


def game_data(game: store.Loaded, path: str) -> set[str]:
    """The game's own values: every name it seated, its title, seed and salt, words."""
    state = game.table
    names = {*state.setup.players, *state.game.players, *state.backups,
             *(new for _seat, _old, new, _entry in state.replaced),
             *(new for _seat, _old, new, _entry in state.renamed)}
    return {*names, pms.title(path, game.log.header), Path(path).name, game.setup.seed or "",
            game.setup.salt or ""}


def logs(tmp_path: Path) -> list[str]:
    """The shipped games, a random game per set of house rules, the forum's steps."""
    out = [str(path) for path in SHIPPED]
    for n, (players, variants) in enumerate(VARIANTS):
        sim = random_game(players, random.Random(f"bypass-{n}"), variants=variants)
        steps = sim.steps if n % 2 == 0 else sim.steps[:len(sim.steps) // 2]
        out.append(write(tmp_path / f"r{n}.yaml", sim.header, steps))
    for n, (header, steps) in enumerate([_forum_game(), _absences(), _dealt_by_words()]):
        out.append(write(tmp_path / f"f{n}.yaml", header, steps))
    return out


def test_history_reveal_post_and_picture_say_nothing_in_english(tmp_path):
    checked = set()
    for path in logs(tmp_path):
        game = store.load(path)
        data = game_data(game, path)
        over = game.table.game.phase == OVER
        revealed = replay_frames.frames(game, reveal=over, lang=QPS)
        public = replay_frames.frames(game, reveal=False, lang=QPS)
        for n, frame in enumerate(revealed.frames):
            view = frame.view
            texts = [s.text for s in board_image.layout(view, QPS)[0] if s.kind == "text"]
            assert_translated("board picture", "\n".join(texts), data)
            assert_translated("alt text", board_image.describe(view, QPS), data)
            assert_translated("replay step", "\n".join(frame.said), data)
            if frame.hidden is not None:
                assert_translated("hidden", "\n".join(t for _, t in frame.hidden.lines), data)
            if n % 5 == 0 or n == len(revealed.frames) - 1:
                for name in formats.FORMATS:
                    fmt = formats.get(name, lang=catalog.PSEUDO)
                    assert_translated(f"history -f {name}", history_text(view, fmt), data)
        for name in formats.FORMATS:
            fmt = formats.get(name, lang=catalog.PSEUDO)
            for made in (revealed, public):
                post = replay_post.post_text(made, fmt, title=Path(path).stem,
                                             commitment=game.setup.commitment)
                assert_translated(f"replay --post -f {name}", post, data)
            if over:
                assert_translated(f"reveal -f {name}", reveal_text(game, fmt), data)
                assert_translated(f"reveal --no-spoiler -f {name}",
                                  reveal_text(game, fmt, spoiler=False), data)
        checked.add("over" if over else "going")
    assert checked == {"over", "going"}


def test_a_word_bypassing_the_catalog_is_found():
    """The search itself: an English word among accented ones is named, data is not."""
    fine = QPS._("The vote: {Ja} {ja}, {Nein} {nein}: {result}.", ja=3, nein=2, Ja="Ja",
                 Nein="Nein", result=QPS._("{president} and {chancellor} are elected",
                                           president="Ann", chancellor="Bob"))
    assert leftovers(fine, {"Ann", "Bob"}) == []
    found = leftovers(fine + " Round 3", {"Ann", "Bob"})
    assert len(found) == 1 and found[0].endswith(" Round 3")
    assert leftovers("Ann", set()) and leftovers("[b]Ann[/b]", {"Ann"}) == []


#: Every step's text, the svg's, the labels, and whether the page scrolls sideways; with
#: every switch on, from the first step to the last.
EVERY_STEP = """() => {
  for (const box of document.querySelectorAll("input[type=checkbox]")) { box.click(); }
  document.getElementById("first").click();
  const out = [];
  while (true) {
    const svg = document.querySelector("#board svg");
    out.push({
      text: document.body.innerText,
      svg: [...document.querySelectorAll("#board svg text")].map((e) => e.textContent),
      labels: [svg.getAttribute("aria-label"),
               document.querySelector("nav").getAttribute("aria-label"),
               document.getElementById("slider").getAttribute("aria-valuetext")],
      wide: document.documentElement.scrollWidth > window.innerWidth,
    });
    const next = document.getElementById("next");
    if (next.disabled) { break; }
    next.click();
  }
  return out;
}"""


def visible_html(page: str) -> str:
    """The page's text outside its script, style and tags (what the template says)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]*>", " ", page))


@pytest.mark.parametrize("which", ["shipped", "forum", "absences", "words", "going"])
def test_the_replay_page_says_nothing_in_english_and_fits_a_phone(which, browser, run,
                                                                   tmp_path):
    made: dict[str, Any] = {"shipped": lambda: str(SHIPPED[2]),
                            "forum": lambda: write(tmp_path / "f.yaml", *_forum_game()),
                            "absences": lambda: write(tmp_path / "a.yaml", *_absences()),
                            "words": lambda: write(tmp_path / "w.yaml", *_dealt_by_words())}
    if which == "going":
        sim = random_game(7, random.Random("bypass-page"), variants=["veto=secret-vote"])
        made["going"] = lambda: write(tmp_path / "g.yaml", sim.header,
                                      sim.steps[:len(sim.steps) // 2])
    log = made[which]()
    game = store.load(log)
    data = game_data(game, log)
    out = tmp_path / f"{which}.html"
    code, _, err = run("replay", log, "-o", str(out), "--language", catalog.PSEUDO)
    assert code == 0, err
    source = out.read_text()
    assert '<html lang="qps">' in source
    assert_translated("the page's HTML", visible_html(source), data)
    opened = Opened(browser, out, PHONE)
    title = opened.page.title()
    assert_translated("the page's title", title, data)
    steps = opened.page.evaluate(EVERY_STEP)
    assert len(steps) > 3
    for n, step in enumerate(steps):
        shown = "\n".join([step["text"], *step["svg"], *step["labels"]])
        assert_translated(f"replay page, step {n + 1}", shown, data)
        assert not step["wide"], f"step {n + 1} scrolls sideways at 375 px"
    opened.close()


def test_replay_speaks_the_games_language_unless_told_otherwise(run, tmp_path):
    """``shmod replay`` writes in the log's language; ``--language`` chooses another; an
    unknown one is refused in one line before anything is written."""
    log = tmp_path / "g.yaml"
    assert run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", str(log), "--seed", "ab" * 16,
               "--guessable", "--language", catalog.PSEUDO, "--first", "Ann")[0] == 0
    assert run("nominate", "Bob", "-g", str(log))[0] == 0
    code, post, _ = run("replay", str(log), "--post", "-f", "plain")
    assert code == 0 and "ŧħḗ ẇħǿŀḗ ɠȧḿḗ" in post
    assert_translated("replay --post", post, {"Ann", "Bob", "Cat", "Dan", "Eve", "G"})
    code, english, _ = run("replay", str(log), "--post", "-f", "plain", "--language", "en")
    assert code == 0 and "G: the whole game" in english and "ŧħḗ" not in english
    page = tmp_path / "g.html"
    code, _, err = run("replay", str(log), "-o", str(page), "--language", "xx")
    assert code == 2 and err.startswith("Error: ") and "'xx'" in err and not page.exists()
    assert run("replay", str(log), "-o", str(page))[0] == 0
    assert '<html lang="qps">' in page.read_text()
