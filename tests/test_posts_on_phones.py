"""Issue 44: every kind of post and PM, as each forum engine renders it, read on a phone.

The texts of tests/test_forum_profiles.py's four whole games (every event, whole posts
ending in their checkpoint line, whose move, reminders, prods, every PM, the board, the
rules card, the voting record with its claims, the reveal, the game in one post, the
opening post with its commitment and key), in English, German and Polish, each profile's
texts rendered by the parser that models its engine (``PARSERS``), are opened in headless
Chromium at 375 px, each text in a box as the engines put a post: a word longer than the
line breaks (phpBB's ``.content``, XenForo's ``.bbWrapper`` and Discourse's ``.cooked``
all set ``overflow-wrap: break-word``), a code box and a table scroll inside themselves.
The page never scrolls sideways (``document.scrollingElement.scrollWidth <= 375``), and
nothing scrolls inside a post but the wide grid of ``history --grid``. Plain text is
shown as typed, in a box of its own that keeps its lines. The stats post is not here
(its layout is tests/test_stats*.py's).
"""
from __future__ import annotations

import html
from pathlib import Path

import pytest
from test_forum_profiles import PARSERS, Text, _texts, games_played  # noqa: F401
from test_replay_page import PHONE, browser  # noqa: F401 (the module's Chromium)

from shmod.log import checkpoints
from shmod.texts import catalog, claim_texts, views
from shmod.texts.formats import FORMATS
from shmod.texts.history import record_text

LANGS = ("en", "de", "pl")
#: A checkpoint line as every post ends with it (format 2: value and signature).
CHECKPOINT = checkpoints.line(12, 40, "a" * checkpoints.SIGNED_HEX)
STYLE = """
body { margin: 8px; font: 15px/1.4 sans-serif; }
.post { margin: 0 0 12px; padding: 6px; border: 1px solid #ccc; overflow-wrap: break-word; }
.post pre { overflow-x: auto; }
.post .table { overflow-x: auto; }
.plain { white-space: pre-wrap; }
"""
MEASURE = """() => [...document.querySelectorAll(".post")].map((post) => {
  const inside = [...post.querySelectorAll("pre, .table")]
    .filter((box) => box.scrollWidth > box.clientWidth).length;
  const quoted = Math.max(0, ...[...post.querySelectorAll("blockquote")]
    .map((quote) => quote.getBoundingClientRect().height));
  return [post.dataset.kind, post.scrollWidth > post.clientWidth, inside, quoted];
})"""
#: XenForo folds a quote taller than this behind "Click to expand" (its
#: ``.bbCodeBlock--expandable`` limit): what a post shows must not be folded away.
XENFORO_FOLDS = 200


def _texts_of(games: list, profile: str, code: str) -> list[Text]:
    fmt = FORMATS[profile](catalog.get(code))
    out = []
    for game, steps in games:
        for text in _texts(game, steps, fmt):
            if text.kind == "post":
                text = Text("post", f"{text.text}\n\n{CHECKPOINT}")
            out.append(text)
        view = views.public_view(game.table)
        truth = claim_texts.truth(game.table)
        out.append(Text("history+claims", record_text(view, fmt, truth)))
        out.append(Text("history --grid", record_text(view, fmt, truth, grid=True)))
    return [t for t in out if t.text]


def _page(texts: list[Text], profile: str) -> str:
    def box(text: Text) -> str:
        body = (f'<div class="plain">{html.escape(text.text)}</div>' if profile == "plain"
                else PARSERS[profile](text.text).replace("<table", '<div class="table"><table')
                .replace("</table>", "</table></div>"))
        return f'<div class="post" data-kind="{html.escape(text.kind)}">{body}</div>'
    return ('<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><style>{STYLE}</style></head>'
            f'<body>{"".join(map(box, texts))}</body></html>')


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("profile", list(FORMATS))
def test_every_post_reads_on_a_phone(games_played, browser, tmp_path: Path, profile,  # noqa: F811
                                     code):
    texts = _texts_of(games_played, profile, code)
    page = tmp_path / "page.html"
    page.write_text(_page(texts, profile))
    opened = browser.new_context(viewport=PHONE)
    try:
        tab = opened.new_page()
        tab.goto(page.resolve().as_uri())
        wide = tab.evaluate("document.scrollingElement.scrollWidth")
        measured = tab.evaluate(MEASURE)
    finally:
        opened.close()
    assert len(measured) == len(texts)
    overflowing = sorted({kind for kind, over, inside, _ in measured
                          if over or (inside and kind != "history --grid")})
    assert overflowing == [], f"{profile}/{code}: {overflowing} wider than a phone"
    assert wide <= PHONE["width"], f"{profile}/{code}: the page is {wide} px wide"
    if profile == "xenforo":
        folded = sorted({kind for kind, _, _, tall in measured if tall > XENFORO_FOLDS})
        assert folded == [], f"{code}: XenForo would fold {folded} behind Click to expand"


def test_the_check_sees_what_a_phone_cannot_show(browser, tmp_path: Path):  # noqa: F811
    """A code box wider than the phone outside the grid, a table, and a tall quote."""
    texts = [Text("post", "[code]" + "x " * 10 + "y" * 80 + "[/code]"),
             Text("history --grid", "[code]" + "y" * 80 + "[/code]"),
             Text("board", "[quote]" + "\n".join(["line"] * 12) + "[/quote]")]
    page = tmp_path / "page.html"
    page.write_text(_page(texts, "xenforo"))
    opened = browser.new_context(viewport=PHONE)
    try:
        tab = opened.new_page()
        tab.goto(page.resolve().as_uri())
        measured = tab.evaluate(MEASURE)
    finally:
        opened.close()
    assert [(kind, inside > 0) for kind, _, inside, _ in measured] == [
        ("post", True), ("history --grid", True), ("board", False)]
    assert measured[2][3] > XENFORO_FOLDS


@pytest.mark.parametrize("code", LANGS)
def test_the_plain_boards_lines_fit_80_columns_and_keep_their_marker(
        games_played, code):  # noqa: F811
    """Issue 44: in the plain profile the board's ``> `` lines reached 111, 116 and 125
    columns (en/de/pl) and lost their marker where a terminal wrapped them: each is now
    within 80 columns, every folded line keeping its ``> `` (a name kept whole)."""
    board = [t.text for t in _texts_of(games_played, "plain", code)
             if t.kind in ("board", "post")]
    quoted = [line for text in board for line in text.split("\n") if line.startswith(">")]
    assert quoted and max(map(len, quoted)) <= 80
    assert any(line.startswith(">   ") for line in quoted)  # a folded line keeps its marker
    for text in board:  # a quote's lines are all quoted: none lost its marker
        block = text.split("\n\n")[-1].split("\n")
        if block[0].startswith("> "):
            assert all(line.startswith(">") for line in block), block
