"""Issue 44 (its stats part, done with issue 43): the leaderboard post read where players
read it. Every forum engine's rendering of ``stats --post`` (each engine's parser,
tests/test_forum_profiles.py, into a page of the browser's own styles) opened in headless
Chromium (tests/test_replay_page.py's) does not scroll sideways at a phone's 375 px in
English, German and Polish, nor at 1280 px in German on Discourse and Markdown: on
f58529d its ten-column table did (a BBCode ``[code]`` grid of 110 characters; the German
table on Discourse at 1280 px). The forum has long names, abandoned games and a closed
group. And the stats' words and numbers as a German and a Polish reader write them:
``Siege als Hitler``, ``Erinnerungen``, ``Siegart``; ``Punkty`` for a rating beside
``Ranking graczy``, ``fasz.`` throughout; decimals ``4,8`` and ``1,8?``.
"""
from __future__ import annotations

import re

import pytest
from stats_games import forum, game_one, write
from test_forum_profiles import PARSERS
from test_replay_page import DESKTOP, PHONE, browser  # noqa: F401 (the module's Chromium)
from test_stats_groups import self_play

from shmod.forum.names import Seating
from shmod.log.store import log_text

NOW = "2026-12-01T00:00:00Z"
LONG = ("Grzegorz Brzęczyszczykiewicz", "xXDarkLord_Gamer99Xx", "Jürgen Weißmüller",
        "Bartłomiej Ząbek", "Małgorzata")


@pytest.fixture(autouse=True)
def _now(monkeypatch):
    monkeypatch.setenv("SHMOD_NOW", NOW)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The hand-made forum, twelve games of five long names (a closed group: always the
    same five) and a thirteenth of theirs abandoned, and another closed group of five."""
    root = forum(tmp_path_factory.mktemp("phone") / "games")
    for n in range(12):
        names = LONG[n % 5:] + LONG[:n % 5]
        write(root / "long", f"l{n:02d}.yaml", game_one(names, created=f"2026-04-{n + 1:02d}T20:00:00Z"))
    cut = game_one(LONG, created="2026-05-01T20:00:00Z")
    (root / "long" / "cut.yaml").write_text(log_text(cut.header, cut.steps[:-1],
                                                     at="2026-05-01T20:00:00Z"))
    self_play(root / "self", games=10)
    assert Seating(LONG)  # five names players can tell apart
    return root


def page(html: str) -> str:
    return ('<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"></head><body>{html}</body></html>')


def widths(browser, tmp_path, pages: dict[str, str], size: dict[str, int]) -> dict[str, int]:  # noqa: F811
    """Each page's ``document.scrollingElement.scrollWidth`` at ``size``."""
    opened = browser.new_context(viewport=size)
    try:
        tab = opened.new_page()
        out = {}
        for name, html in pages.items():
            path = tmp_path / f"{name}.html"
            path.write_text(page(html))
            tab.goto(path.resolve().as_uri())
            out[name] = tab.evaluate("document.scrollingElement.scrollWidth")
        return out
    finally:
        opened.close()


def posts(run, games, languages, profiles) -> dict[str, str]:
    out = {}
    for lang in languages:
        for profile in profiles:
            code, text, err = run("stats", str(games), "--post", "-f", profile, "-L", lang)
            assert code == 0, err
            out[f"{profile}-{lang}"] = PARSERS[profile](text)
    return out


def test_the_leaderboard_fits_a_phone_in_every_engine_and_language(run, games, browser,  # noqa: F811
                                                                    tmp_path):
    shown = posts(run, games, ("en", "de", "pl"), PARSERS)
    assert all("Brzęczyszczykiewicz" in html for html in shown.values())
    wide = {k: w for k, w in widths(browser, tmp_path, shown, PHONE).items() if w > 375}
    assert wide == {}, wide


def test_the_german_leaderboard_fits_a_desktop_on_discourse_and_markdown(run, games,
                                                                         browser, tmp_path):  # noqa: F811
    shown = posts(run, games, ("de",), ("discourse", "markdown"))
    wide = {k: w for k, w in widths(browser, tmp_path, shown, DESKTOP).items() if w > 1280}
    assert wide == {}, wide


def test_the_post_says_what_each_line_holds_in_german_and_polish(run, games):
    code, de, _ = run("stats", str(games), "--post", "-f", "markdown", "-L", "de")
    assert code == 0 and "### Rangliste: " in de
    line = next(x for x in de.splitlines() if "Neu" in x)
    assert re.fullmatch(r"\d+\. \*\*Neu\*\*: Wertung \d+,\d\?? · 10 Spiele, 10 gewonnen "
                        r"\(100%\) · geschlossene Gruppe \d", line), line
    assert ("Abgebrochen: ein nicht zu Ende gespieltes Spiel, dessen letzter Eintrag mehr als "
            "30 Tage zurückliegt.") in de
    code, pl, _ = run("stats", str(games), "--post", "-f", "markdown", "-L", "pl")
    line = next(x for x in pl.splitlines() if "Małgorzata" in x)
    assert re.fullmatch(r"\d+\. \*\*Małgorzata\*\*: punkty -?\d+,\d\?? · 12 gier, wygrane: "
                        r"\d+ \(\d+%\) · 1 gra porzucona · zamknięta grupa 1", line), line
    assert "### Ranking graczy: " in pl and "Punkty: openskill" in pl


def test_decimals_are_written_as_each_language_writes_them(run, games):
    """A rating of 1.8 is ``1,8`` in German and Polish, provisional ``1,8?``; English keeps
    its point, byte for byte as before."""
    ratings = {}
    for lang in ("en", "de", "pl"):
        code, text, _ = run("stats", str(games), "--post", "-L", lang)
        assert code == 0
        ratings[lang] = re.findall(r"(?:rating|Wertung|punkty) (-?\d+[.,]\d\??) ", text)
    assert len(ratings["en"]) == len(ratings["de"]) >= 15
    assert all(re.fullmatch(r"-?\d+\.\d\??", r) for r in ratings["en"])
    assert ratings["de"] == ratings["pl"] == [r.replace(".", ",") for r in ratings["en"]]
    code, text, _ = run("stats", str(games), "--post", "-L", "de", "--player", "Dan")
    after = re.findall(r"\| (-?\d+[.,]\d) \|?$", text, re.MULTILINE)
    assert code == 0 and "," in text and all("." not in r for r in after)


def test_a_players_page_in_german_and_polish(run, games):
    code, de, _ = run("stats", str(games), "--post", "-L", "de", "--player", "Eve")
    assert code == 0
    assert re.search(r"- Siege als Hitler: \d+% von \d+\n", de), de
    assert re.search(r"- Siege auf liberaler Seite: ", de) and "- Erinnerungen: " in de
    assert "Siegart" in de and "Erinnert" not in de and "Entscheidung" not in de
    assert "Hitler: " not in de.replace("Siege als Hitler: ", "")
    code, pl, _ = run("stats", str(games), "--post", "-L", "pl", "--player", "Eve")
    assert code == 0 and "- Punkty: " in pl and "- Punkty fasz.: " in pl
    assert "- Wejścia na zastępstwo: " in pl and "- Oddane miejsca: " in pl
    assert "- Przegapione terminy: " in pl and "Punkty po" in pl
    assert "Ranking" not in pl and "fas." not in pl.replace("fasz.", "")
