"""The leaderboard as people read it: provisional ratings marked and ranked after the
established ones (one-game players topped the board on 3655be9); the chart of the leading
players' ratings over time, with no two labels overlapping (measured with Pillow's own
font) and each date once, in order; the stats post in Markdown escaping only what the
markup needs (rendered by markdown-it); the terminal tables written to a pipe without a
word cut in two."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from itertools import combinations

import pytest
from stats_games import forum, game_one, write
from test_forum_profiles import shown, to_html

from shmod.audit.random_games import random_game
from shmod.audit.simulate import SIMULATED_AT
from shmod.log import logfile
from shmod.log.store import log_text
from shmod.texts.catalog import get as language

EN = language(None)


def dated(folder, games: int, seed: int, players: tuple[int, ...] = (5, 6, 7)) -> None:
    """``games`` random games (as ``shmod simulate`` plays them), one a day from
    2026-03-01, so that the ratings run over many dates."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(games):
        sim = random_game(players[n % len(players)], rng)
        header = {**logfile.published(sim.header),
                  "created": f"2026-{3 + n // 28:02d}-{1 + n % 28:02d}T20:00:00Z"}
        (folder / f"g{n:03d}.yaml").write_text(log_text(header, sim.steps, at=SIMULATED_AT))


@pytest.fixture(scope="module")
def regulars(tmp_path_factory):
    """60 dated random games of seven regulars, and one game of five newcomers, two of
    whom won it (Dan's and Eve's seats: the Fascists)."""
    root = tmp_path_factory.mktemp("board")
    dated(root / "regulars", 60, seed=5)
    write(root / "newcomers", "one.yaml", game_one(("Nia", "Ola", "Pip", "Quin", "Rex")))
    return root


def test_one_game_players_do_not_top_the_board(run, regulars):
    code, out, _ = run("stats", str(regulars), "--json")
    players = json.loads(out)["players"]
    keys = [p["key"] for p in players]
    assert code == 0 and keys[:7] == sorted(keys[:7], key=lambda k: -players[keys.index(k)]
                                            ["rating"]["rating"])
    assert all(k.startswith("player") for k in keys[:7]), keys
    assert all(not p["rating"]["provisional"] for p in players[:7])
    assert all(p["rating"]["provisional"] for p in players[7:])
    assert {"quin", "rex"} <= set(keys[7:9])  # the winners first among the newcomers
    code, out, _ = run("stats", str(regulars))
    board = out[out.index("Leaderboard"):out.index("How they played")]
    rows = [line.split("│") for line in board.splitlines() if line.count("│") > 9]
    marked = {r[2].strip(): r[3].strip() for r in rows if r[1].strip().isdigit()}
    assert marked["Rex"].endswith("?") and not marked["Player1"].endswith("?")
    assert "? after a rating: provisional, on fewer than 10 rated games" in out


def test_provisional_zero_ranks_everyone_together(run, regulars):
    code, out, _ = run("stats", str(regulars), "--json", "--provisional", "0")
    players = json.loads(out)["players"]
    ratings = [p["rating"]["rating"] for p in players]
    assert code == 0 and ratings == sorted(ratings, reverse=True)
    assert not any(p["rating"]["provisional"] for p in players)
    assert run("stats", str(regulars), "--provisional", "-1")[2] == (
        "Error: --provisional takes a number of games, 0 or more, not -1\n")


def text_boxes(shapes) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Every text shape's box as Pillow draws it (its own default font, the anchor and
    the stroke of bold text the painter uses)."""
    from PIL import ImageFont

    out = []
    for s in shapes:
        if s.kind != "text":
            continue
        x, y, size, centre = s.box
        font = ImageFont.load_default(size=size)
        left, top, right, bottom = font.getbbox(s.text, anchor="ms" if centre else "ls",
                                                stroke_width=1 if s.bold else 0)
        out.append((s.text, (x + left, y + top, x + right, y + bottom)))
    return out


def overlapping(shapes) -> list[tuple[str, str]]:
    return [(a, b) for (a, (l1, t1, r1, b1)), (b, (l2, t2, r2, b2))
            in combinations(text_boxes(shapes), 2)
            if l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1]


def test_the_chart_draws_the_leading_players_with_every_label_apart(run, regulars, tmp_path):
    from shmod.audit import chart, leaderboard
    from shmod.audit.forum_stats import collect
    from shmod.audit.ratings import rate

    path = tmp_path / "leaders.png"
    code, _, err = run("stats", str(regulars), "--png", str(path))
    assert code == 0 and "Ratings of the leading 5 players after each game: Player" in err
    result = collect([str(p) for p in sorted(regulars.rglob("*.yaml"))])
    leaders = leaderboard.ranked(result)[:chart.LEADERS]
    histories = rate(result.matches, len(result.careers), [c.number for c in leaders]).history
    lines = chart.leader_lines(leaders, histories)
    assert len(lines) == 5 and all(len(line.points) >= 20 for line in lines)
    shapes, _height = chart.layout(result, "leaders", lines, EN)
    assert overlapping(shapes) == []
    names = [s.text for s in shapes if s.kind == "text" and s.box[0] > chart._RIGHT]
    assert names == [c.name for c in leaders]
    dates = [s.text for s in shapes if s.kind == "text" and re.fullmatch(r"\d{4}-\d\d-\d\d", s.text)]
    assert len(dates) >= 3 and dates == sorted(set(dates))
    assert dates[0] == "2026-01-10" and dates[-1] == "2026-05-04"  # the first and last games


def test_a_players_chart_keeps_its_three_names_apart(regulars):
    from shmod.audit import chart
    from shmod.audit.forum_stats import collect

    result = collect([str(p) for p in sorted(regulars.rglob("*.yaml"))], player="Player1")
    lines = chart.player_lines(result.history, EN)
    assert [line.name for line in lines] == ["Overall", "Liberal", "Fascist"]
    shapes, _ = chart.layout(result, "Player1", lines, EN)
    assert overlapping(shapes) == []
    ends = {s.text: s.box[1] for s in shapes if s.kind == "text" and s.text in
            ("Overall", "Liberal", "Fascist")}
    assert len(ends) == 3 and min(abs(a - b) for a, b in combinations(ends.values(), 2)) >= 18


def test_one_date_is_written_once(tmp_path):
    from shmod.audit import chart
    from shmod.audit.forum_stats import collect

    write(tmp_path, "a.yaml", game_one())
    write(tmp_path, "b.yaml", game_one(("Ann", "Bob", "Cat", "Eve", "Dan")))
    result = collect(sorted(str(p) for p in tmp_path.glob("*.yaml")), player="Dan")
    shapes, _ = chart.layout(result, "Dan", chart.player_lines(result.history, EN), EN)
    assert [s.text for s in shapes if s.text.startswith("2026")] == ["2026-01-10"]
    assert overlapping(shapes) == []


@pytest.mark.parametrize("profile", ["markdown", "discourse"])
def test_the_post_escapes_only_what_markdown_needs(run, tmp_path, profile):
    folder = forum(tmp_path / "games")
    write(folder, "hostile.yaml", game_one(("*Star*", "Eve_", "A|B", "1. Ann", "snake_case"),
                                           created="2026-04-01T20:00:00Z"))
    code, out, _ = run("stats", str(folder), "--post", "-f", profile)
    assert code == 0
    assert "Leaderboard: 4 games, 2026-01-10 to 2026-04-01" in out  # as typed, in the source
    assert "mu - 3 sigma" in out and "(Weng-Lin)" in out and "snake_case" in out
    assert not re.search(r"\\[-().!#+]", out), out
    root = to_html(profile, out)
    assert shown(root.find("h3")) == "Leaderboard: 4 games, 2026-01-10 to 2026-04-01"
    names = [shown(strong) for strong in root.iter("strong")]
    assert {"*Star*", "Eve_", "A|B", "1. Ann", "snake_case"} <= set(names)
    lines = [shown(li) for li in root.iter("li")]
    assert len(lines) == 12 and all(re.search(r": rating -?\d+\.\d\?? · \d+ games?, \d+ won "
                                              r"\(\d+%\)$", line) for line in lines), lines
    assert "mu - 3 sigma" in shown(root)


@pytest.fixture
def three(tmp_path):
    return forum(tmp_path / "games")


def test_a_pipe_gets_whole_words(three):
    """Written to a file or a pipe (no terminal, no COLUMNS), the tables are as wide as
    they need: rich wrapped them at 80 columns on 3655be9, "Rati" over "ng"."""
    shmod = os.path.join(os.path.dirname(sys.executable), "shmod")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    for args in ([], ["--player", "Dan"]):
        done = subprocess.run([shmod, "stats", str(three), *args], capture_output=True,
                              text=True, timeout=120, env=env)
        assert done.returncode == 0
        header = next(line for line in done.stdout.splitlines()
                      if "Player" in line or "Date" in line)
        for heading in (["Rating", "Lib. rating", "Fas. rating", "As Liberal", "As Hitler"]
                        if not args else ["Date", "Players", "Result", "Rating after"]):
            assert f" {heading} " in header, (heading, header)


def english_left(text: str, names: tuple[str, ...]) -> list[str]:
    """The words of ``text`` in plain ASCII letters once the players' names are taken out:
    in the pseudo-language, every word of shmod's is accented."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]+", text)


NAMES = ("ANN", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Zoë")


@pytest.mark.parametrize("args", [[], ["--player", "Dan"]])
def test_the_post_is_in_the_language_asked_for(run, three, args):
    code, out, _ = run("stats", str(three), "--post", "-f", "markdown", "--language", "qps",
                       *args)
    assert code == 0 and english_left(out, NAMES) == []
    assert "2026-01-10" in out and "Dan" in out  # dates and names as they are


def test_the_chart_is_in_the_language_asked_for(run, three, tmp_path):
    from shmod.audit import chart
    from shmod.audit.forum_stats import collect
    from shmod.texts.catalog import PSEUDO

    pseudo = language(PSEUDO)
    result = collect([str(p) for p in sorted(three.rglob("*.yaml"))], player="Dan")
    lines = chart.player_lines(result.history, pseudo)
    shapes, _ = chart.layout(result, chart.player_title("Dan", result.history, pseudo), lines,
                             pseudo)
    assert english_left(" ".join(s.text for s in shapes if s.kind == "text"), NAMES) == []
    assert overlapping(shapes) == []  # a third longer, still apart
    code, _, err = run("stats", str(three), "--png", str(tmp_path / "c.png"), "-L", "qps")
    alt = err.split("(alt text: ", 1)[1]
    assert code == 0 and english_left(alt, NAMES) == []


def test_every_way_of_winning_has_its_words():
    from shmod.audit.leaderboard import HOW_SHORT
    from shmod.audit.summary import HOW

    assert set(HOW_SHORT) == set(HOW)
    assert all(HOW[k].startswith(term.msgid) for k, term in HOW_SHORT.items())


def test_an_unknown_language_is_one_line(run, three):
    code, out, err = run("stats", str(three), "--post", "--language", "xx")
    assert (code, out) == (2, "") and err.startswith("Error: shmod does not speak language 'xx'")
