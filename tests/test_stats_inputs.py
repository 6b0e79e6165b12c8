"""What ``shmod stats`` is given that is not what it seems: names that look alike
(``Ann`` and ``Аnn`` with a Cyrillic А were two rows both shown as "Ann" on 3655be9), a
game dated in the year 9998 or before any forum played (counted for every ``--since``
and rated last on 3655be9), and entries named like logs that are no file to read (a link
to nothing, a folder named ``*.yaml``: skipped unsaid on 3655be9)."""  # noqa: RUF002
from __future__ import annotations

import json
import os
import re
import string

import pytest
from stats_games import game_one, game_two, write

from shmod.audit.flags import parse_time
from shmod.audit.forum_stats import EARLIEST, implausible
from shmod.audit.players import fold

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


GREEK_ANN = "\u0391\u039d\u039d"  # Greek capitals Alpha, Nu, Nu
CYRILLIC_BOB = "\u0412\u041e\u0412"  # Cyrillic capitals Ve, O, Ve


def test_capitals_of_other_scripts_fold_as_they_look():
    """Issue 43: case was folded first, and Greek Ν became ν, which looks like v: ``ΑΝΝ``
    and ``ВОВ`` were rows of their own, shown as ANN and BOB."""  # noqa: RUF002
    assert fold(GREEK_ANN) == fold("ANN") == fold("ann") == "ann"
    assert fold(CYRILLIC_BOB) == fold("BOB") == "bob"
    assert fold("R\u0395G25") == fold("reg25")  # a Greek capital Epsilon
    assert fold("\u03b1\u03bd\u03bd") == "avv"  # small Greek alpha, nu, nu: as they look
    assert fold("\u0399an") == fold("Ian") != fold("lan")  # a Greek capital Iota is an I
    assert fold("\uff21nn") == fold("\U0001d400nn") == "ann"  # full-width, bold A
    assert fold("m") != fold("rn") and fold("1") != fold("l") != fold("I")  # ASCII apart


#: ASCII letters whose look another ASCII character shares (I, l, 1 and |; O and 0; m
#: and rn): stats keeps them apart, so a character that looks like them may fold either way.
SHARED = set("Il1|O0m")


def test_every_look_alike_of_a_letter_folds_to_it():
    """The cheater's search: every character of Unicode's confusables table that looks,
    as written, like an ASCII letter or digit (their UTS #39 skeletons are the same), in a
    name in any case, is the same player as the name in ASCII."""
    from shmod.forum.lookalike_table import DATA
    from shmod.forum.names import skeleton

    table = {chr(int(code, 16)) for code in re.findall(r"(?:^|\s)([0-9A-F]+):", DATA)}
    tried = 0
    for char in sorted(c for c in table if not c.isascii()):
        shape = skeleton(char)
        for letter in string.ascii_letters + string.digits:
            if letter in SHARED or skeleton(letter) != shape:
                continue
            for name in (f"Re{letter}x", f"{letter}AN", f"ann {letter}"):
                twin = name.replace(letter, char, 1)
                assert fold(twin) == fold(name), (char, name)
                tried += 1
    assert tried > 1500


def test_ten_games_under_a_look_alike_name_make_no_second_row(run, tmp_path):
    """Issue 43: ten games as ``RΕG25`` (a Greek capital Epsilon) made a second REG25; and
    ``ΑΝΝ``, ``ВОВ`` beside ANN and BOB."""  # noqa: RUF002
    for n in range(10):
        write(tmp_path, f"a{n}.yaml", game_one(("REG25", "ANN", "BOB", "Dan", "Eve"),
                                               created=f"2026-01-{10 + n}T20:00:00Z"))
        write(tmp_path, f"b{n}.yaml", game_one(("R\u0395G25", GREEK_ANN, CYRILLIC_BOB, "Dan",
                                                "Eve"), created=f"2026-02-{10 + n}T20:00:00Z"))
    code, out, _ = run("stats", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and sorted(p["key"] for p in data["players"]) == [
        "ann", "bob", "dan", "eve", "reg25"]
    assert all(p["games"] == 20 for p in data["players"])
    assert data["lookalikes"] == sorted([sorted(["ANN", GREEK_ANN]), sorted(["BOB", CYRILLIC_BOB]),
                                         sorted(["REG25", "R\u0395G25"])])
