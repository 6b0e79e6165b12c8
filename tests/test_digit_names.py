"""All-digit forum names (R-SEAT): a name made of digits is accepted whenever it cannot be a
seat number of that game (``555``, ``12`` of 7, ``0``), and refused, saying how seats are
read, when it could (``3`` of 7). A game seating ``555`` plays to its end and audits."""
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shmod.audit.random_games import command_for
from shmod.base.errors import BadInput
from shmod.forum.names import Seating
from shmod.forum.setup import new_header
from shmod.forum.turns import legal_steps
from shmod.game.terms import OVER
from shmod.log import store

SHMOD = Path(sys.executable).parent / "shmod"
PLAYERS = ["555", "Bob", "12", "Dan", "Eve", "0", "Remus West"]


@pytest.mark.parametrize("seed", ["digits-1", "digits-2", "digits-3"])
def test_a_game_seating_555_plays_to_the_end_and_audits(run, tmp_path, seed):
    path = str(tmp_path / "games" / "digits.yaml")
    code, _, err = run("new", *PLAYERS, "--seed", seed, "--guessable", "-g", path)
    assert code == 0, err
    commitment = err.split("Commitment (post it in the opening thread post): ")[1].split()[0]
    rng = random.Random(seed)
    for _ in range(500):
        state = store.load(path).table
        if state.game.phase == OVER:
            break
        step = rng.choice(legal_steps(state))
        args = command_for(step, state.game.players)
        code, _, err = run(*args, "-g", path)
        assert code == 0, (args, err)
    assert store.load(path).table.game.phase == OVER
    done = subprocess.run([str(SHMOD), "audit", path, "-c", commitment],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VALID" in done.stdout and "INVALID" not in done.stdout


def test_an_all_digit_name_is_that_player_and_seat_numbers_still_work(run, tmp_path):
    path = str(tmp_path / "g.yaml")
    assert run("new", *PLAYERS, "--seed", "s", "--guessable", "--first", "Bob", "-g", path)[0] == 0
    code, out, err = run("nominate", "555", "-g", path, "--show")
    assert code == 0, err
    assert "Bob nominates 555 for Chancellor" in out
    code, _, err = run("vote", "1", "ja", "-g", path)  # seat 1 is 555
    assert code == 0, err
    code, _, err = run("vote", "555", "ja", "-g", path)
    assert code == 1 and "R-VOTE: 555 has already voted" in err
    seating = Seating(tuple(PLAYERS))
    assert seating.seat("12") == 2 and seating.seat("0") == 5 and seating.seat("6") == 5
    assert seating.seat("5") == 4  # a seat number, not the prefix of 555
    assert seating.seat("55") == 0  # a prefix of 555: no 7-player game has seat 55


@pytest.mark.parametrize("name", ["3", "7", "03", "1"])
def test_a_name_that_could_be_a_seat_number_is_refused_with_how_seats_are_read(run, tmp_path, name):
    path = tmp_path / "g.yaml"
    code, _, err = run("new", "Ann", "Bob", name, "Dan", "Eve", "Fay", "Gus", "-g", str(path))
    assert code == 2 and not path.exists()
    number = int(name)
    assert err == (f"Error: player name {name!r} could be read as a seat number: in a 7-player "
                   f"game shmod reads 1 to 7 as seats in seating order (`shmod vote {number} ja` "
                   f"is whoever sits in seat {number}), so a name made of digits must be "
                   f"another number (e.g. 555); give this player a name with a letter in it, "
                   f"e.g. 'Player {name}'\n")


def test_the_seat_range_is_the_games_own():
    assert new_header(["Ann", "Bob", "Cat", "Dan", "8"], seed="s", salt="x", created="c")
    with pytest.raises(BadInput, match="'8' could be read as a seat number: in a 8-player"):
        new_header(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "8"], seed="s", salt="x",
                   created="c")


def test_a_newcomer_with_a_seat_number_name_is_refused(run, tmp_path):
    path = str(tmp_path / "g.yaml")
    assert run("new", *PLAYERS, "--seed", "s", "--guessable", "-g", path)[0] == 0
    before = Path(path).read_bytes()
    code, _, err = run("replace", "Dan", "4", "-g", path)
    assert code == 1 and "R-REPLACE: cannot seat '4': player name '4' could be read as a seat" in err
    assert Path(path).read_bytes() == before
    code, _, err = run("replace", "Dan", "4444", "-g", path)
    assert code == 0, err
    assert store.load(path).table.game.players[3] == "4444"


def test_an_unquoted_digit_name_in_a_hand_written_log_says_to_quote_it(run, tmp_path):
    path = tmp_path / "g.yaml"
    assert run("new", *PLAYERS, "--seed", "s", "--guessable", "-g", str(path))[0] == 0
    path.write_text(path.read_text().replace('- "555"', "- 555"))
    code, _, err = run("status", "-g", str(path))
    assert code == 2
    assert "a player's name must be text: write an all-digit name in quotes" in err


@pytest.mark.parametrize("text", ["²", "٣", "１"])  # noqa: RUF001 - a fullwidth digit, on purpose
def test_unicode_digits_are_a_name_or_unknown_never_a_crash(text):
    seating = Seating(("Ann", "Bob", "Cat", "Dan", "Eve"))
    try:
        seating.seat(text)
    except BadInput as err:
        assert "unknown player" in str(err)
