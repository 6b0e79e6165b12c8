"""What ``shmod stats`` is given that is not what it seems: names that look alike
(``Ann`` and ``Аnn`` with a Cyrillic А were two rows both shown as "Ann" on 3655be9), a
game dated in the year 9998 or before any forum played (counted for every ``--since``
and rated last on 3655be9), and entries named like logs that are no file to read (a link
to nothing, a folder named ``*.yaml``: skipped unsaid on 3655be9)."""  # noqa: RUF002
from __future__ import annotations

import json
import os

import pytest
from stats_games import game_one, game_two, write

from shmod.audit.flags import parse_time
from shmod.audit.players import fold
from shmod.audit.stats import EARLIEST, implausible

CYRILLIC_ANN = "\u0410nn"  # a Cyrillic capital A (U+0410), then Latin "nn"


def test_look_alike_letters_fold_to_one_player():
    assert fold(CYRILLIC_ANN) == fold("Ann") == fold("ANN") == "ann"
    assert fold("Zo\u0435") == fold("Zoë") == "zoe"  # a Cyrillic small ie, U+0435
    assert fold("Sam") != fold("Sarn")  # ASCII names fold as before: m is no rn
    assert fold("Player1") == "player1"


def test_ann_and_cyrillic_ann_are_one_player_with_a_warning(run, tmp_path):
    write(tmp_path, "a.yaml", game_one())
    write(tmp_path, "b.yaml", game_one((CYRILLIC_ANN, "Bob", "Cat", "Dan", "Eve"),
                                       created="2026-01-11T20:00:00Z"))
    code, out, err = run("stats", str(tmp_path), "--json")
    data = json.loads(out)
    anns = [p for p in data["players"] if p["name"] in ("Ann", CYRILLIC_ANN)]
    assert code == 0 and len(anns) == 1 and anns[0]["games"] == 2
    assert anns[0]["name"] == CYRILLIC_ANN and anns[0]["key"] == "ann"  # the latest spelling
    assert data["lookalikes"] == [["Ann", CYRILLIC_ANN]]
    code, out, _ = run("stats", str(tmp_path))
    warning = (f"Warning: 'Ann' and '{CYRILLIC_ANN}' look alike (the second holds a "
               "Cyrillic \u0410, U+0410) and are counted as one player")
    assert code == 0 and warning in out
    code, _, err = run("stats", str(tmp_path), "--post")
    assert code == 0 and warning in err
    aliases = tmp_path / "aliases.txt"  # joined by an alias: no look-alike to warn of
    aliases.write_text("Bob=Robert\n")
    write(tmp_path, "c.yaml", game_one(("Ann", "Robert", "Cat", "Dan", "Eve"),
                                       created="2026-01-12T20:00:00Z"))
    code, out, _ = run("stats", str(tmp_path), "--json", "--alias", str(aliases))
    assert code == 0 and json.loads(out)["lookalikes"] == [["Ann", CYRILLIC_ANN]]


def test_implausible_dates_are_named():
    now = parse_time("2026-11-26T18:00:00Z")
    assert implausible(parse_time("9998-01-01"), now) == (
        "created 9998-01-01T00:00:00Z, after the time now (2026-11-26 18:00 UTC)")
    assert implausible(parse_time("1970-01-01"), now) == "created 1970-01-01T00:00:00Z, before 2015"
    assert implausible(parse_time("2026-11-27T17:00:00Z"), now) is None  # a day's slack
    assert implausible(EARLIEST, now) is None


@pytest.mark.parametrize("created", ["9998-01-01T00:00:00Z", "1970-01-01T00:00:00Z"])
def test_a_game_dated_far_away_is_left_out_saying_so(run, tmp_path, monkeypatch, created):
    monkeypatch.setenv("SHMOD_NOW", "2026-11-26T18:00:00Z")
    write(tmp_path, "a.yaml", game_one())
    write(tmp_path, "odd.yaml", _dated(created))
    for since in ([], ["--since", "2026-06-01"], ["--since", "2000-01-01"]):
        code, out, _ = run("stats", str(tmp_path), "--json", *since)
        data = json.loads(out)
        assert code == 0 and data["counted"] == (0 if since == ["--since", "2026-06-01"] else 1)
        assert [(o["path"], o["reason"][:30]) for o in data["left_out"]] == [
            (str(tmp_path / "odd.yaml"), f"implausible date: created {created[:4]}")]
        assert all(p["last"] != created for p in data["players"])


def _dated(created: str):
    """Game two, created at ``created``."""
    t = game_two()
    t.header["created"] = created
    return t


def test_entries_that_are_no_log_are_listed_with_why(run, tmp_path):
    games = tmp_path / "games"
    write(games, "a.yaml", game_one())
    os.symlink(tmp_path / "nowhere.yaml", games / "dangling.yaml")
    (games / "season.yaml").mkdir()
    write(games / "season.yaml", "b.yaml", game_two())  # a folder named so: searched
    os.symlink(games / "season.yaml", games / "linked.yml")
    code, out, _ = run("stats", str(games), "--json")
    data = json.loads(out)
    assert code == 0 and data["counted"] == 2 and data["logs"] == 5
    assert {(o["path"].rsplit("/", 1)[1], o["reason"]) for o in data["left_out"]} == {
        ("dangling.yaml", f"a link to nothing: {str(tmp_path / 'nowhere.yaml')!r} does not exist"),
        ("season.yaml", "a folder, not a log: searched as a folder"),
        ("linked.yml", "a link to a folder, not a log: not followed"),
    }
    code, out, _ = run("stats", str(games))
    assert code == 0 and f"  {games / 'dangling.yaml'}: a link to nothing" in out
