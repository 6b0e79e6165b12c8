"""Issue 43: self-play with alternate accounts still paid (a newcomer's 30 wins against
four accounts of his own ranked him near the top on f58529d). ``shmod stats`` flags a
closed group: players each of whose counted games (10 or more) had exactly the same
players, four or more. The flag is shown beside their rows, in ``--json`` and in the post,
and changes no rating. The cheater's search: the accounts' names typed in other cases and
with look-alike letters, the seats shuffled, the games spread over months, still flag
them; one game with the forum unflags only the player who played it (a documented limit).
And a leaderboard lists rated players only: a player who only left a seat (0 games) was
5th of a leaderboard with ``-0.1?`` on f58529d.
"""
from __future__ import annotations

import json
import random

import pytest
from scripted import Table
from stats_games import cheater_forum, game_one, head, liberal_win, write

from shmod.audit import forum_stats
from shmod.audit.forum_stats import collect
from shmod.forum.names import Seating
from shmod.forum.steps import Replace

NOW = "2026-12-01T00:00:00Z"
ALTS = ("Neu", "Sock1", "Sock2", "Sock3", "Sock4")
#: How the moderator may type each account: other cases, a Cyrillic Dze and o.
TYPED = {"Sock1": ("SOCK1", "sock1", "\u0405ock1"), "Sock2": ("S\u043eck2", "sOCK2"),
         "Sock3": ("Sock3",), "Sock4": ("SOCK4", "\u0405OCK4")}


@pytest.fixture(autouse=True)
def _now(monkeypatch):
    monkeypatch.setenv("SHMOD_NOW", NOW)


def self_play(folder, games: int = 30, seed: int = 1, outside: int = 0) -> None:
    """``games`` wins of Neu against his four accounts, seats shuffled, the accounts'
    names typed any way, one game every five days; ``outside``: that many of them with a
    regular in Sock4's seat instead. The last game names them as ``ALTS`` (the names
    shown are their latest)."""
    rng = random.Random(seed)
    for n in range(games):
        names = [rng.choice(TYPED.get(name, (name,))) if n < games - 1 else name
                 for name in ALTS]
        if n < outside:
            names[4] = "Reg01"
        rng.shuffle(names)
        neu = names.index("Neu")
        created = f"2026-{1 + n // 6:02d}-{1 + 5 * (n % 6):02d}T12:00:00Z"
        game = (liberal_win if neu < 3 else game_one)(tuple(names), created)
        write(folder, f"self-{n:02d}.yaml", game)


def _json(run, *args):
    code, out, err = run("stats", *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def forum(tmp_path_factory):
    folder = tmp_path_factory.mktemp("forum")
    cheater_forum(folder / "regulars", unfinished=False, background=120)
    self_play(folder / "self")
    return folder


def test_a_newcomers_self_play_is_flagged_beside_his_rows(run, forum):
    data = _json(run, str(forum))
    flagged = {p["name"]: p["closed_group"] for p in data["players"] if p["closed_group"]}
    assert flagged == dict.fromkeys(ALTS, 1)
    assert data["closed_groups"] == [{"players": list(ALTS), "flagged": list(ALTS),
                                      "games": 30}]
    neu = next(p for p in data["players"] if p["name"] == "Neu")
    assert (neu["games"], neu["wins"]) == (30, 30)
    code, out, _ = run("stats", str(forum))
    board = out[out.index("Leaderboard"):out.index("How they played")]
    assert code == 0 and " Neu [1] " in board and " Sock1 [1] " in board
    assert ("[1] Closed group 1: Neu, Sock1, Sock2, Sock3, Sock4. Every game of theirs (30 or "
            "more each) had exactly these players; the ratings are left as they are.") in out
    code, out, _ = run("stats", str(forum), "--post", "-f", "bbcode")
    assert code == 0 and "[b]Neu[/b]: rating " in out and "· closed group 1\n" in out
    assert "Closed group 1: Neu, Sock1, Sock2, Sock3, Sock4." in out


def test_the_flag_changes_no_rating(forum, monkeypatch):
    paths = [str(p) for p in sorted(forum.rglob("*.yaml"))]
    flagged = collect(paths)
    monkeypatch.setattr(forum_stats, "GROUP_GAMES", 10**9)
    plain = collect(paths)
    assert plain.groups == [] and len(flagged.groups) == 1
    assert ({k: c.rating for k, c in flagged.careers.items()}
            == {k: c.rating for k, c in plain.careers.items()})


def test_the_regulars_and_nine_games_are_not_flagged(run, tmp_path, forum):
    assert _json(run, str(forum / "regulars"))["closed_groups"] == []
    self_play(tmp_path / "nine", games=9)
    assert _json(run, str(tmp_path / "nine"))["closed_groups"] == []


def test_one_game_with_the_forum_unflags_only_who_played_it(run, tmp_path):
    self_play(tmp_path / "self", outside=1)
    data = _json(run, str(tmp_path / "self"))
    assert data["closed_groups"] == [{"players": list(ALTS), "flagged": ["Sock4"],
                                      "games": 29}]


def test_the_leaderboard_lists_rated_players_only(run, tmp_path):
    """Kekse:) held a seat for two rounds and was replaced: no game of his own, no rating
    of his own; he stays in --json and under How they played."""
    write(tmp_path, "a.yaml", game_one())
    write(tmp_path, "b.yaml", kekse())
    data = _json(run, str(tmp_path))
    kek = next(p for p in data["players"] if p["name"] == "Kekse:)")
    assert (kek["games"], kek["rated"]["games"], kek["replaced_out"]) == (0, 0, 1)
    code, out, _ = run("stats", str(tmp_path))
    board, play = out[out.index("Leaderboard"):out.index("How they played")], out[
        out.index("How they played"):]
    assert code == 0 and "Kekse:)" not in board and "Kekse:)" in play
    assert "The leaderboard lists the 6 player(s) with a rated game; 1 more are under How " \
           "they played." in out
    code, out, _ = run("stats", str(tmp_path), "--post", "-f", "markdown")
    assert code == 0 and "Kekse" not in out and out.count("\n6. ") == 1


def kekse():
    """tests/stats_games.py's game_two with Kekse:) in the seat Fay takes over, unprodded."""
    t = Table(head(["Ann", "Bob", "Cat", "Kekse:)", "Eve"], "Ann", ["Bob"], "LFF" * 5,
                   "2026-02-10T20:00:00Z"), forum=True)
    t.session("Cat", "F", "L")
    t.session("Kekse:)", "F", "L")
    t.apply(Replace(target=3, name="Fay"))
    t.seating = Seating(t.game.players)
    for chancellor in ("Eve", "Ann", "Bob"):
        t.session(chancellor, "F", "L")
    assert t.game.winner == "Liberals"
    return t


def test_a_closed_groups_sentence_in_german_and_polish():
    """Issue 44, third reading: DE-U3, the flagged players are joined with ``und`` and the
    count says of what; PL-U3, a group whose every player is flagged is not listed twice,
    and its games ``miała`` (past). English is unchanged."""
    from types import SimpleNamespace

    from shmod.audit.flags import Group
    from shmod.audit.leaderboard import group_lines
    from shmod.texts import catalog

    whole = Group(players=("Ann", "Bob", "Cy", "Dan"), flagged=("Ann", "Bob", "Cy", "Dan"),
                  games=12)
    part = Group(players=("Ann", "Bob", "Cy", "Dan"), flagged=("Cy", "Dan"), games=10)
    stats_ = SimpleNamespace(groups=[whole, part])
    careers = [SimpleNamespace(group=1), SimpleNamespace(group=2)]
    de = group_lines(stats_, careers, catalog.get("de"))  # type: ignore[arg-type]
    assert de == [
        "Geschlossene Gruppe 1: Ann, Bob, Cy, Dan. Jede dieser Personen hat 12 oder mehr Spiele, "
        "alle in genau dieser Besetzung; die Wertungen bleiben, wie sie sind.",
        "Geschlossene Gruppe 2: Ann, Bob, Cy, Dan. Alle Spiele von Cy und Dan \u2013 mindestens "
        "10 pro Person \u2013 hatten genau diese Besetzung; die Wertungen bleiben, wie sie sind."]
    pl = group_lines(stats_, careers, catalog.get("pl"))  # type: ignore[arg-type]
    assert pl == [
        "Zamknięta grupa 1: Ann, Bob, Cy, Dan. Każda ich gra (co najmniej 12 na osobę) miała "
        "dokładnie ten skład; punkty pozostają bez zmian.",
        "Zamknięta grupa 2: Ann, Bob, Cy, Dan. Cy i Dan: każda ich gra (co najmniej 10 na "
        "osobę) miała dokładnie ten skład; punkty pozostają bez zmian."]
    assert group_lines(stats_, careers)[1] == (  # type: ignore[arg-type]
        "Closed group 2: Ann, Bob, Cy, Dan. Every game of Cy, Dan (10 or more each) had "
        "exactly these players; the ratings are left as they are.")
