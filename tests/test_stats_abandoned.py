"""Issue 43: leaving one's losses unfinished does not hide them. A valid game that has not
moved for longer than ``abandoned_after`` (30 days; the ``[stats]`` table of the first
folder's shmod.toml) at the time now (``SHMOD_NOW``) is abandoned: listed, and each of its
players' abandoned games shown beside their rating; ``abandoned_cost = true`` rates it as
a loss for all its players.

The scenario of the issue (tests/stats_games.py's ``cheater_forum``): 60 honest games of a
player among 27 regulars, won 22 and lost 38. On f58529d, the same forum with the 38
losses left unfinished rated him 19.5 (2nd of 28) against 3.0 (19th) played out, and the
38 logs were only "left out: unfinished" at the foot of the output. The cheater's search:
a prod, a post marked, a claim or a deadline recorded after the last move, or a move
stamped in the future, keeps no game alive.
"""
from __future__ import annotations

import json

import pytest
from scripted import Table
from stats_games import CHEAT, cheater_forum, game_one, head, write

from shmod.audit.flags import IDLE
from shmod.forum import moves
from shmod.forum.steps import Claim, Posted, Prod, SetDeadline
from shmod.log import logfile
from shmod.log.store import chained

NOW = "2026-12-01T00:00:00Z"


@pytest.fixture(autouse=True)
def _now(monkeypatch):
    monkeypatch.setenv("SHMOD_NOW", NOW)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("played")
    cheater_forum(folder, unfinished=False)
    return folder


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("unfinished")
    cheater_forum(folder, unfinished=True)
    return folder


def _json(run, *args):
    code, out, err = run("stats", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def _player(data, key):
    keys = [p["key"] for p in data["players"]]
    return keys.index(key) + 1, data["players"][keys.index(key)]


def test_the_scenario_of_the_issue_played_out(run, played):
    data = _json(run, str(played))
    rank, cheat = _player(data, "cheat")
    assert (data["counted"], len(data["players"]), data["abandoned"]) == (260, 28, [])
    assert (cheat["games"], cheat["wins"], cheat["abandoned"]) == (60, 22, 0)
    assert (cheat["rating"]["rating"], rank) == (2.974, 19)


def test_the_38_losses_left_unfinished_show_beside_the_rating(run, unfinished):
    data = _json(run, str(unfinished))
    rank, cheat = _player(data, "cheat")
    assert (data["counted"], data["left_out"], len(data["abandoned"])) == (222, [], 38)
    assert (cheat["games"], cheat["wins"], cheat["abandoned"]) == (22, 22, 38)
    assert (cheat["rating"]["rating"], rank) == (19.455, 2)  # no cost by default
    assert all(CHEAT in game["players"] for game in data["abandoned"])
    assert data["abandoned_after_days"] == 30 and data["abandoned_cost"] is False
    code, out, _ = run("stats", str(unfinished))
    assert code == 0 and out.startswith("260 log(s) read: 222 counted, 0 left out, "
                                        "38 abandoned\n")
    board = out[out.index("Leaderboard"):out.index("How they played")]
    header = next(line for line in board.splitlines() if "Player" in line)
    assert [c.strip() for c in header.split("┃")[2:5]] == ["Player", "Rating", "Abandoned"]
    row = next(line for line in board.splitlines() if f" {CHEAT} " in line)
    assert [c.strip() for c in row.split("│")[1:5]] == ["2", CHEAT, "19.5", "38"]
    listed = out[out.index("Abandoned (no entry for more than 30 days; not counted, no "
                           "rating changed;"):].splitlines()[1:]
    assert len(listed) == 38 and all(f"{unfinished}/" in line and ": last entry 2026-"
                                     in line for line in listed)
    code, out, err = run("stats", str(unfinished), "--post", "-f", "markdown")
    assert code == 0 and (f"2. **{CHEAT}**: rating 19.5 · 22 games, 22 won (100%) · "
                          "38 games abandoned\n") in out
    assert ("Abandoned: a game left unfinished, its last entry more than 30 days old. It "
            "is not counted and changes no rating.") in out
    assert err.count("Abandoned: ") == 38


def test_abandoned_games_may_cost_rating(run, unfinished, played, tmp_path):
    """``abandoned_cost = true``: each abandoned game a loss for both sides; the cheater
    ends below the rating he had with the games played out."""
    (unfinished / "shmod.toml").write_text("[stats]\nabandoned_cost = true\n")
    try:
        data = _json(run, str(unfinished))
        code, out, _ = run("stats", str(unfinished), "--post")
    finally:
        (unfinished / "shmod.toml").unlink()
    rank, cheat = _player(data, "cheat")
    honest = _player(_json(run, str(played)), "cheat")[1]
    assert data["abandoned_cost"] is True and cheat["abandoned"] == 38
    assert cheat["rating"]["rating"] < honest["rating"]["rating"] and rank > 2
    assert code == 0 and "Each counts as a loss for all its players in the ratings." in out


def test_a_game_moved_within_the_limit_is_only_unfinished(run, tmp_path, monkeypatch):
    t = game_one(created="2026-11-01T20:00:00Z")
    _write(tmp_path / "games", "a.yaml", t.header, [(t.steps[:-1], "2026-11-01T20:00:00Z")])
    data = _json(run, str(tmp_path / "games"))
    assert data["abandoned"] == [] and data["left_out"][0]["reason"].startswith("unfinished")
    monkeypatch.setenv("SHMOD_NOW", "2026-12-01T20:00:01Z")  # 30 days and a second later
    data = _json(run, str(tmp_path / "games"))
    assert data["left_out"] == [] and data["abandoned"] == [{
        "path": str(tmp_path / "games" / "a.yaml"), "last_entry": "2026-11-01T20:00:00Z",
        "players": ["Ann", "Bob", "Cat", "Dan", "Eve"],
        "waiting": "the game is not over: waiting for votes from 1 of 5 living players: Eve"}]
    assert {p["key"]: p["abandoned"] for p in data["players"]} == dict.fromkeys(
        ["ann", "bob", "cat", "dan", "eve"], 1)  # in no counted game: not on the board
    code, out, _ = run("stats", str(tmp_path / "games"))
    assert code == 0 and "Abandoned" not in out[:out.index("How they played")]


def test_the_first_folders_settings_choose_the_limit(run, tmp_path):
    old = game_one(created="2026-11-20T20:00:00Z")
    _write(tmp_path / "a", "a.yaml", old.header, [(old.steps[:-1], "2026-11-20T20:00:00Z")])
    write(tmp_path / "b", "b.yaml", game_one())
    (tmp_path / "a" / "shmod.toml").write_text("[stats]\nabandoned_after = 7\n")
    (tmp_path / "b" / "shmod.toml").write_text("[stats]\nabandoned_after = 100\n")
    assert len(_json(run, str(tmp_path / "a"), str(tmp_path / "b"))["abandoned"]) == 1
    assert _json(run, str(tmp_path / "b"), str(tmp_path / "a"))["abandoned"] == []
    assert _json(run, str(tmp_path / "a" / "a.yaml"))["abandoned_after_days"] == 7
    (tmp_path / "a" / "shmod.toml").write_text("[stats]\nabandoned_after = '7 days'\n")
    code, out, err = run("stats", str(tmp_path / "a"))
    assert (code, out) == (2, "") and err == (
        f"Error: {tmp_path / 'a' / 'shmod.toml'}: stats.abandoned_after: a number of days, "
        "1 or more, not '7 days'\n")


def _write(folder, name, header, parts):
    """A log whose entries come in ``parts``, each a list of steps and the time they are
    stamped with."""
    folder.mkdir(parents=True, exist_ok=True)
    text, head, players = logfile.header_text(header), logfile.header_link(header), tuple(
        header["players"])
    for steps, at in parts:
        entries, head = chained(steps, players, head, at)
        text += "".join(map(logfile.entry_line, entries))
    (folder / name).write_text(text)


def test_idle_entries_are_the_forums_bookkeeping_and_the_deadline():
    bookkeeping = {move.step.kind for move in moves.moves(lambda table, step: None)
                   if move.phases is None}
    assert set(IDLE) == bookkeeping | {"deadline"}


@pytest.mark.parametrize("kept", ["prod", "posted", "claim", "deadline", "future", "both"])
def test_no_bookkeeping_nor_a_stamp_in_the_future_keeps_a_game_alive(run, tmp_path, kept):
    """The cheater's search: a game stopped on 2026-01-10, then kept in appearance by an
    entry that moves nothing recorded a week before the time now, or by its last move
    stamped in the year 9998: abandoned all the same, its last move 2026-01-10."""
    t = Table(head(["Ann", "Bob", "Cat", "Dan", "Eve"], "Eve", ["Dan"], "F" * 9,
                   "2026-01-10T20:00:00Z"), forum=True)
    t.session("Dan", "F", "F")
    t.nominate("Eve")
    t.vote("Ann", False)
    late = {"prod": [Prod(target=1)], "claim": [Claim(by=0, about="role", role="liberal")],
            "deadline": [SetDeadline(until="2026-12-30T20:00:00Z", zone="UTC")],
            "posted": [Posted(upto=len(t.steps))]}
    parts = [(t.steps, "2026-01-10T20:00:00Z")]
    if kept in ("future", "both"):
        parts = [(t.steps[:-1], "2026-01-10T20:00:00Z"), (t.steps[-1:], "9998-01-01T00:00:00Z")]
    if kept == "both":
        kept = "prod"
    parts += [(late[kept], "2026-11-24T00:00:00Z")] if kept in late else []
    _write(tmp_path / "games", "a.yaml", t.header, parts)
    data = _json(run, str(tmp_path / "games"))
    assert data["left_out"] == [], data["left_out"]
    assert [g["last_entry"] for g in data["abandoned"]] == ["2026-01-10T20:00:00Z"]
