"""``shmod stats`` as a user runs it: the tables, what was left out and why, ``--sort``,
``--min-games``, ``--since``, ``--player``, ``--json``, ``--csv`` (a spreadsheet runs no
formula from a name), ``--post`` in every forum profile read back by that engine's parser,
``--png``, and every mistake as one line."""
from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys

import pytest
from stats_games import forum, game_one, game_two, write
from test_forum_profiles import (
    BB_RESIDUE,
    MD_PROFILES,
    MD_RESIDUE,
    MENTION,
    MENTIONING,
    PROFILES,
    shown,
    text_nodes,
    to_html,
)

from shmod.log.store import log_text
from shmod.texts.catalog import get as language
from shmod.texts.formats import FORMATS

#: The time these tests run at: after every game, and within 30 days of the unfinished
#: copy's last entry (not abandoned: tests/test_stats_abandoned.py).
NOW = "2026-03-20T00:00:00Z"


@pytest.fixture(autouse=True)
def _now(monkeypatch):
    monkeypatch.setenv("SHMOD_NOW", NOW)

EN = language(None)

HOSTILE = ("[b]Bo[/b]", "*Star*", "@Vorret", "A|B #1", "=SUM(A1)")


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The three hand-made games, a tampered copy, an unfinished copy (its last entry five
    days before NOW) and a file that is no log, in one folder."""
    where = forum(tmp_path_factory.mktemp("stats") / "games")
    text = (where / "a.yaml").read_text()
    (where / "tampered.yaml").write_text(text.replace("vote: ja", "vote: nein", 1))
    two = game_two()
    (where / "unfinished.yaml").write_text(log_text(two.header, two.steps[:-6],
                                                    at="2026-03-15T00:00:00Z"))
    (where / "notes.yml").write_text("just: [notes\n")
    return where


def test_the_tables_and_what_was_left_out(run, games):
    code, out, err = run("stats", str(games))
    assert code == 0 and err == ""
    assert out.startswith("6 log(s) read: 3 counted, 3 left out\n")
    for heading in ("Leaderboard", "How they played", "Win rates by player count",
                    "Win conditions", "Left out (only valid, finished games are counted):\n"):
        assert heading in out
    board = out[out.index("Leaderboard"):out.index("How they played")]
    rows = [line.split("│") for line in board.splitlines() if "│" in line]
    assert [r[2].strip() for r in rows if r[1].strip().isdigit()] == [
        "Eve", "Cat", "Fay", "Dan", "Bob", "Zoë", "ANN"]  # by rating
    left = out[out.index("Left out"):].splitlines()[1:]
    assert [line.split(": ")[0] for line in left] == [
        f"  {games / name}" for name in ("notes.yml", "tampered.yaml", "unfinished.yaml")]
    assert left[0].startswith(f"  {games / 'notes.yml'}: unreadable: {games / 'notes.yml'}:")
    assert left[1].startswith(f"  {games / 'tampered.yaml'}: invalid: {games / 'tampered.yaml'}:")
    assert "chain: broken hash chain" in left[1] or "broken hash chain" in left[1]
    assert left[2].startswith(f"  {games / 'unfinished.yaml'}: unfinished: the game is not "
                              "over: waiting for ")


def test_json_holds_every_figure_and_names_what_was_left_out(run, games):
    code, out, _ = run("stats", str(games), "--json")
    data = json.loads(out)
    assert code == 0 and (data["logs"], data["counted"]) == (6, 3)
    assert sorted(o["path"].rsplit("/", 1)[1] for o in data["left_out"]) == [
        "notes.yml", "tampered.yaml", "unfinished.yaml"]
    assert data["wins_by_players"] == {"5": {"games": 3, "Liberals": 1, "Fascists": 2}}
    dan = next(p for p in data["players"] if p["key"] == "dan")
    assert (dan["games"], dan["wins"], dan["replaced_out"], dan["lapses"]) == (2, 1, 1, 1)
    assert set(dan["rating"]) == {"rating", "mu", "sigma", "provisional"}
    assert dan["rated"] == {"games": 2, "liberal": 1, "fascist": 1}
    assert [p["rating"]["rating"] for p in data["players"]] == sorted(
        (p["rating"]["rating"] for p in data["players"]), reverse=True)


@pytest.mark.parametrize(("args", "keys"), [
    (["--sort", "player"], ["ann", "bob", "cat", "dan", "eve", "fay", "zoe"]),
    (["--sort", "games", "--min-games", "3"], ["ann", "bob", "cat"]),
    (["--sort", "vote-accuracy"], ["ann", "cat", "dan", "bob", "zoe", "eve", "fay"]),
    (["--sort", "lapses", "--min-games", "2"], ["dan", "ann", "bob", "cat", "eve"]),
    (["--since", "2026-02-01", "--sort", "player"], ["ann", "bob", "cat", "dan", "eve",
                                                     "fay", "zoe"]),
    (["--since", "2026-03-01T00:00:00+01:00", "--sort", "player"],
     ["ann", "bob", "cat", "dan", "zoe"]),
])
def test_sort_min_games_and_since(run, games, args, keys):
    code, out, _ = run("stats", str(games), "--json", *args)
    assert code == 0 and [p["key"] for p in json.loads(out)["players"]] == keys


def test_a_players_page_lists_their_games_in_date_order(run, games):
    code, out, _ = run("stats", str(games), "--player", "dan")
    assert code == 0 and "Dan: 2 games" in out
    rows = [line for line in out.splitlines() if line.startswith("│ 2026-")]
    assert [r.split("│")[1].strip() for r in rows] == ["2026-01-10", "2026-02-10", "2026-03-10"]
    assert ["won" in rows[0], "replaced" in rows[1], "lost" in rows[2]] == [True] * 3
    assert "40%" in rows[1] and "Shot acc." in out and "100% of 1" in out
    code, out, _ = run("stats", str(games), "--player", "DAN", "--json")
    page = json.loads(out)["player"]
    assert [g["result"] for g in page["games"]] == ["won", "replaced", "lost"]
    assert page["games"][1]["share"] == 0.4
    assert {**page["games"][-1]["rating"], "provisional": True} == page["rating"]


def test_a_hostile_name_is_shown_as_written(run, tmp_path):
    folder = tmp_path / "games"
    write(folder, "g.yaml", game_one(("[/b]", "[bold red]x", "*Star*", "Dan", "Eve")))
    code, out, _ = run("stats", str(folder), "--player", "[/b]")
    assert code == 0 and "[/b]: 1 games" in out
    code, out, _ = run("stats", str(folder), "--sort", "player")
    assert code == 0 and "│ [bold red]x " in out and "│ [/b] " in out


def test_every_sort_key_is_a_column():
    from shmod.audit.leaderboard import BY_KEY
    from shmod.cli.stats import SORTS

    assert tuple(BY_KEY) == SORTS


def test_an_unknown_player_is_one_line_with_the_closest_names(run, games):
    code, out, err = run("stats", str(games), "--player", "dna")
    assert (code, out) == (2, "")
    assert err == "Error: --player: nobody called 'dna' played in a counted game; did you mean Dan?\n"


def test_csv_is_one_row_a_player_and_runs_no_formula(run, tmp_path):
    folder = tmp_path / "games"
    write(folder, "g.yaml", game_one(HOSTILE))
    code, out, err = run("stats", str(folder), "--csv", "--sort", "player")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and err == ""
    names = [r["name"] for r in rows]
    assert set(names) == {"[b]Bo[/b]", "*Star*", "'@Vorret", "A|B #1", "'=SUM(A1)"}  # text
    star = next(r for r in rows if r["name"] == "*Star*")  # Bob's seat: Ja on Hitler
    assert (star["games"], star["wins"], star["liberal_games"], star["vote_accuracy_votes"],
            star["vote_accuracy_accurate"], star["fascist_rating_mu"]) == ("1", "0", "1", "1",
                                                                         "0", "")
    code, out, _ = run("stats", str(folder), "--csv", "--player", "@vorret")
    (row,) = csv.DictReader(io.StringIO(out))
    assert (row["name"], row["role"], row["result"]) == ("'@Vorret", "liberal", "lost")


def test_csv_and_post_name_what_was_left_out_on_stderr(run, games):
    for mode in ("--csv", "--post"):
        code, out, err = run("stats", str(games), mode)
        assert code == 0 and "tampered.yaml" not in out
        assert sorted(line.split(": ", 2)[1].rsplit("/", 1)[1] for line in err.splitlines()) == [
            "notes.yml", "tampered.yaml", "unfinished.yaml"]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_leaderboard_post_in_every_forum_profile(run, tmp_path, profile):
    folder = tmp_path / "games"
    write(folder, "g.yaml", game_one(HOSTILE))
    code, out, _ = run("stats", str(folder), "--post", "-f", profile)
    assert code == 0
    if profile == "plain":
        assert out.startswith("== Leaderboard: 1 game, 2026-01-10 to 2026-01-10 ==\n")
        assert all(name in out for name in HOSTILE)
        return
    root = to_html(profile, out)
    text = shown(root)
    assert "Leaderboard: 1 game, 2026-01-10 to 2026-01-10" in text
    for name in HOSTILE:
        assert name in text, name
    residue = MD_RESIDUE if profile in MD_PROFILES else BB_RESIDUE
    for node in text_nodes(root):
        assert not residue.search(node), node
    if profile in MENTIONING:  # the "@" is followed by an invisible word joiner
        assert not MENTION.search("".join(root.itertext()))
    assert len(root.findall(".//ol/li")) == len(HOSTILE)  # a numbered line a player


def test_a_players_page_as_a_post(run, games):
    code, out, _ = run("stats", str(games), "--post", "-f", "markdown", "--player", "Fay")
    root = to_html("markdown", out)
    assert code == 0 and shown(root.find("h3")) == "Fay: 1 game"
    assert [shown(td) for td in root.findall(".//tbody/tr")[0]] == [
        "2026-02-10", "5", "Liberal", "won (subbed in)", "five Liberal policies",
        out.split("| ")[-1].split(" |")[0]]


def test_png_draws_win_rates_by_player_count_and_a_rating(run, games, tmp_path):
    from PIL import Image

    from shmod.audit import chart
    from shmod.audit.forum_stats import collect

    path = tmp_path / "out" / "stats.png"
    code, out, err = run("stats", str(games), "--player", "Dan", "--png", str(path))
    assert code == 0 and "Dan: 2 games" in out
    assert err.startswith(f"Wrote {path} (alt text: Win rates by player count: 5 players: "
                          "Liberals 33%, Fascists 67% of 3. Rating of Dan after each game (3): Overall over 3 "
                          "games from ")
    assert "; Liberal over 2 games from " in err and "; Fascist over 3 games from " in err
    image = Image.open(path)
    assert image.format == "PNG" and image.size[0] == 800
    result = collect([str(p) for p in sorted(games.rglob("*.yaml"))], player="Dan")
    shapes, height = chart.layout(result, "Dan", chart.player_lines(result.history, EN), EN)
    assert image.size[1] == height
    bars = sorted(s.box[3] for s in shapes if s.kind == "rect")
    assert bars == [67, 133]  # 1 of 3 and 2 of 3 of 200 pixels
    names = [s.text for s in shapes if s.kind == "text"]
    assert {"Overall", "Liberal", "Fascist", "L 33%", "F 67%", "5 players"} <= set(names)
    lines = [s for s in shapes if s.kind == "line" and s.fill == "#1b1b1b"]
    assert len(lines) >= 2  # the overall rating: three games, two segments (and stripes)


def test_png_without_a_player_draws_the_leaders(run, games, tmp_path):
    path = tmp_path / "board.png"
    code, _, err = run("stats", str(games), "--png", str(path), "--json")
    assert code == 0 and path.stat().st_size > 1000
    assert "Ratings of the leading 5 players after each game: Eve over 2 games from " in err
    assert [part.split(" over ")[0] for part in err.split(": Eve")[1].split("; ")[1:]] == [
        "Cat", "Fay", "Dan", "Bob"]


def test_a_missing_pillow_is_one_clear_line(games, tmp_path):
    code = ("import sys\nsys.modules['PIL'] = None\nfrom shmod.cli.main import main\n"
            f"sys.argv = ['shmod', 'stats', {str(games)!r}, '--png', {str(tmp_path / 'x.png')!r}]\n"
            "main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (2, "Error: PNG needs Pillow: pip install "
                                                 "'shmod[images]'\n")


@pytest.mark.parametrize(("args", "error"), [
    (["--sort", "fame"], "Error: --sort takes one of player, rating, "),
    (["--since", "last week"], "Error: --since takes a date like 2026-09-01"),
    (["--json", "--csv"], "Error: choose one of --json, --csv and --post"),
    (["--min-games", "-1"], "Error: --min-games takes a number of games, 0 or more, not -1"),
    (["--alias", "/nonexistent/aliases.txt"], "Error: /nonexistent/aliases.txt: no such alias file"),
    (["--post", "-f", "myspace"], "Error: unknown format 'myspace' (choose plain, markdown"),
])
def test_mistakes_are_one_line(run, games, args, error):
    code, out, err = run("stats", str(games), *args)
    assert (code, out) == (2, "") and err.startswith(error) and err.count("\n") == 1


def test_no_logs_or_no_folder_is_one_line(run, tmp_path):
    assert run("stats", str(tmp_path)) == (
        2, "", f"Error: no game logs (*.yaml, *.yml) in {tmp_path}\n")
    assert run("stats", str(tmp_path / "nope")) == (
        2, "", f"Error: {tmp_path / 'nope'}: no such file or folder\n")
    code, _, err = run("stats")
    assert code == 2 and err.endswith("\nError: Missing argument 'FOLDER'.\n")


def test_only_logs_left_out_is_still_a_report(run, tmp_path):
    (tmp_path / "bad.yaml").write_text("log: [\n")
    code, out, _ = run("stats", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and data["counted"] == 0 and data["players"] == []
    assert data["left_out"][0]["reason"].startswith("unreadable: ")


def test_the_same_folder_gives_the_same_numbers_whatever_the_file_order(run, games, tmp_path):
    shuffled = tmp_path / "shuffled"
    for n, path in enumerate(sorted(games.rglob("*.yaml"), reverse=True)):
        (shuffled / f"sub{n % 2}").mkdir(parents=True, exist_ok=True)
        shutil.copy(path, shuffled / f"sub{n % 2}" / f"{n:02d}.yaml")
    first = json.loads(run("stats", str(games), "--json")[1])
    again = json.loads(run("stats", str(games), "--json")[1])
    moved = json.loads(run("stats", str(shuffled), "--json")[1])
    assert first == again
    assert first["players"] == moved["players"] and moved["counted"] == 3


def test_every_profile_is_known_to_the_tests():
    assert set(PROFILES) == set(FORMATS)


def test_a_progress_bar_on_stderr_only_at_a_terminal(games):
    import os
    import pty

    shmod = os.path.join(os.path.dirname(sys.executable), "shmod")
    main, tty = pty.openpty()
    try:
        done = subprocess.run([shmod, "stats", str(games), "--json"], stdout=subprocess.PIPE,
                              stderr=tty, timeout=120, env={**os.environ, "COLUMNS": "100"})
        os.close(tty)
        seen = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed: all read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(main)
    assert done.returncode == 0 and json.loads(done.stdout)["counted"] == 3
    assert b"Reading logs" in seen  # and nothing of it on stdout, which is not a terminal
