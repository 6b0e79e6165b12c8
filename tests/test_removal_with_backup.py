"""Issue 35, R-MODKILL and R-BACKUP, through the installed ``shmod``: a removal is for a
player nobody can replace, so ``shmod remove`` is refused while a backup player waits
(one line, its rule id, pointing to ``shmod replace``) and the log stays as it was;
``--force`` removes the seat anyway, and the removed player's PM says truthfully that a
backup was waiting (never "as nobody could take your seat"); with nobody waiting the PM
says that. The thread's words for a removal read plainly ("It is not an execution").
On the main of 23f640b the removal was accepted without a word and its PM said nobody
could take the seat.
"""
from __future__ import annotations

import pytest
from installed import SHMOD, Moderator

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
NOBODY = "as nobody could take your seat"
WAITED = "A backup player was waiting to take your seat, but the moderator chose to remove " \
         "the seat instead."

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")


#: A deal where neither Bob nor Eve, whom these tests remove, is Hitler (Fay is): removing
#: Hitler would end the game (R-MODKILL), which is not what they are about.
SEED = "8e3b1f6a2d7c49e05a1b3c8d6f2e47a9"


@pytest.fixture
def mod(tmp_path) -> Moderator:
    """A game waiting for votes on Ann and Bob, with Zed on the backup list."""
    m = Moderator(tmp_path, show=True)  # each step's texts on stdout
    m.run("new", *PLAYERS, "--first", "Ann", "--forum", "discourse", "--seed", SEED)
    m.run("backup", "Zed")
    m.run("nominate", "Bob")
    return m


def test_a_removal_while_a_backup_waits_is_refused_pointing_to_replace(mod):
    err = mod.refused("remove", "Eve", "--reason", "gone", rule="R-MODKILL")
    assert "a backup player is waiting (Zed" in err and "`shmod replace Eve`" in err
    assert "--force" in err
    done = mod.run("replace", "Eve")  # as the moderator then does: Zed takes the seat
    assert "**Zed** replaces Eve in seat 5" in done.stdout


def test_force_removes_the_seat_and_the_pm_says_a_backup_was_waiting(mod):
    done = mod.run("remove", "Eve", "--reason", "gone", "--force")
    pm = mod.run("pm", "Eve").stdout
    assert WAITED in pm and NOBODY not in pm
    assert WAITED in done.stdout  # the PM printed with the step
    assert "Removed: Eve" in done.stdout and "Dead: Eve" not in done.stdout  # R-MODKILL
    assert ": VALID" in mod.run("audit", str(mod.log)).stdout


def test_with_nobody_waiting_the_removal_needs_no_force_and_says_so(mod):
    mod.run("backup", "--drop", "Zed")
    done = mod.run("remove", "Eve", "--reason", "left the forum")
    pm = mod.run("pm", "Eve").stdout
    assert NOBODY in pm and WAITED not in pm
    said = ("The moderator has removed **Eve** from the game. It is not an execution: nothing "
            "about their role is revealed, and the seat counts as dead.")
    assert said in done.stdout and "not the table" not in done.stdout


def test_the_removal_that_ends_the_round_reads_plainly(mod):
    done = mod.run("remove", "Bob", "--reason", "gone", "--force")  # the nominee
    assert ("It is not an execution: nothing about their role is revealed, and the seat "
            "counts as dead. The round ends as a failed election.") in done.stdout
