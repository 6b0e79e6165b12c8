"""Issue 35, players named as a moderator types them, through the installed ``shmod``:
level by level, the whole name, the seat number, the start of the name or of a word of it,
a former name, then any part of at least three characters; a level is taken only when it
finds exactly one player, and several are named (``shmod/forum/names.py``, ``Seating``).
On the main of 3655be9 ``walrus`` did not find ``TheWalrus``."""
from __future__ import annotations

import pytest
from installed import Moderator

from shmod.base.errors import BadInput
from shmod.forum.names import Seating

PLAYERS = ["TheWalrus", "Ann", "Joanna", "Hannah", "Bob", "Steve"]


@pytest.fixture()
def mod(tmp_path):
    mod = Moderator(tmp_path)
    mod.run("new", *PLAYERS, "--first", "Ann")
    return mod


def test_any_part_of_a_name_finds_the_one_player_it_is_in(mod):
    done = mod.run("nominate", "walrus", "--show")
    assert "nominates TheWalrus for Chancellor" in done.stdout
    mod.run("vote", "ann", "ja", "JOANNA", "ja", "hann", "ja", "bo", "nein", "tev", "nein",
            "rus", "ja")
    assert "5 of 6" not in mod.run("status").stdout
    history = mod.run("history").stdout
    for name in PLAYERS:
        assert name in history


def test_a_level_that_finds_several_names_each_and_records_nothing(mod):
    err = mod.refused("nominate", "anna", rule="ambiguous", code=2)
    assert "Joanna (seat 3)" in err and "Hannah (seat 4)" in err and "Ann (seat 2)" not in err


def test_ann_stays_ann_and_two_letters_match_no_part(mod):
    mod.run("nominate", "Bob")
    mod.run("vote", "ann", "ja")
    assert "Ann" in mod.run("status").stdout
    err = mod.refused("vote", "wa", "ja", rule="unknown player", code=2)  # no word starts with wa
    assert "unknown player 'wa'" in err


def test_a_former_name_is_never_matched_inside_another():
    """``eve`` is in ``Steve``; after Eve's seat changed hands it names Eve's seat's
    history, not Steve (R-PM: a PM never goes to another seat)."""
    seating = Seating(("Zed", "Ann", "Steve", "Bob", "Cat"), replaced=[(0, "Eve", "Zed", 4)])
    with pytest.raises(BadInput, match="eve was replaced by Zed"):
        seating.seat("eve")
    assert seating.seat("stev") == 2 and seating.seat("tev") == 2
    renamed = Seating(("Zed", "Ann", "Steve", "Bob", "Cat"), renamed=[(0, "Eve", "Zed", 4)])
    with pytest.raises(BadInput, match="eve is now called Zed"):
        renamed.seat("eve")


@pytest.mark.parametrize("typed, seat", [
    ("TheWalrus", 0), ("walrus", 0), ("the", 0), ("ann", 1), ("Joan", 2), ("nnah", 3),
    ("6", 5), ("an", 1), ("ANNA", None), ("nn", None), ("xyz", None), ("wa", None),
])
def test_the_levels_in_order(typed, seat):
    seating = Seating(tuple(PLAYERS))
    if seat is None:
        with pytest.raises(BadInput):
            seating.seat(typed)
    else:
        assert seating.seat(typed) == seat


def test_a_log_names_players_in_full():
    """What a log holds is matched whole (``prefixes=False``), never by a part."""
    seating = Seating(tuple(PLAYERS))
    with pytest.raises(BadInput, match="unknown player"):
        seating.seat("walrus", prefixes=False)


# -- issue 42: letters folded as R-DEAL's words fold them ---------------------------

POLISH = ("Małgorzata", "Łukasz", "Jürgen", "Ann", "Søren", "Straße")


@pytest.mark.parametrize(("typed", "name"), [
    ("malgorzata", "Małgorzata"), ("mal", "Małgorzata"), ("lukasz", "Łukasz"),
    ("ŁUKASZ", "Łukasz"), ("juergen", "Jürgen"), ("jurgen", "Jürgen"), ("JUERG", "Jürgen"),
    ("soren", "Søren"), ("strasse", "Straße"), ("gorzata", "Małgorzata"),
])
def test_names_fold_as_the_words_deal_folds_letters(typed, name):
    """On main ``malgorzata``, ``mal`` and ``lukasz`` found nobody: ł does not decompose,
    and only accents were taken off; ``juergen`` is how a German types Jürgen."""
    seating = Seating(POLISH)
    assert seating.players[seating.seat(typed)] == name


def test_an_exact_match_wins_and_a_fold_that_finds_two_is_refused_listing_both():
    seating = Seating(("Jurgen", "Jürgen", "Lukasz", "Łukasz", "Bob"))
    assert seating.seat("jurgen") == 0 and seating.seat("JÜRGEN") == 1
    assert seating.seat("juergen") == 1  # only Jürgen is typed that way
    assert seating.seat("lukasz") == 2 and seating.seat("łukasz") == 3
    with pytest.raises(BadInput, match=r"'jurg' is ambiguous: it could be Jurgen \(seat 1\), "
                       r"Jürgen \(seat 2\)"):
        seating.seat("jurg")
    with pytest.raises(BadInput, match=r"Lukasz \(seat 3\), Łukasz \(seat 4\)"):
        seating.seat("lukas")


def test_a_moderator_types_polish_and_german_names_without_their_letters(tmp_path):
    mod = Moderator(tmp_path, show=True)  # each step's items framed on stdout
    mod.run("new", *POLISH, "--first", "Ann")
    mod.run("nominate", "lukasz")
    done = mod.run("vote", "malgorzata", "ja", "lukasz", "ja", "juergen", "nein", "ann", "ja",
                   "soren", "ja", "strasse", "ja")
    assert "Łukasz" in done.stdout and "Jürgen" in done.stdout


def test_a_very_long_unknown_name_is_quoted_cut_short():
    """A 5,000-character name typed where a player is named: the refusal quotes its first 40
    characters and says how long it was, so the error stays one readable line."""
    with pytest.raises(BadInput) as refused:
        Seating(["Ann", "Bob", "Cat", "Dan", "Eve"]).seat("x" * 5000)
    message = str(refused.value)
    assert message.startswith(f"unknown player {'x' * 40!r}… (5000 characters) (players: 1. Ann")
    assert len(message) < 200
