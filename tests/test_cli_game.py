"""A whole game through the installed ``shmod`` command, from an empty folder, as a new
moderator would run it: every PM, tally post and waiting-for line checked, and
``shmod status`` during a vote and at the end.

Seed ``s1`` deals Ann Hitler and Dan the Fascist and the deck F F L | L F F | F F F | L L F.
"""
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SHMOD = Path(sys.executable).parent / "shmod"
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
HEADING = re.compile(
    r"^(?:── )?(PM to \w+|Post in the thread|Votes coming in|Waiting for)(?: \([^)]*\))? ─+$", re.M)


class Moderator:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # SHMOD_SHOW=1: each step's PMs and post framed on stdout, as this test reads them
        self.env = {**os.environ, "SHMOD_GAME": "game.yaml", "COLUMNS": "100", "SHMOD_SHOW": "1"}
        self.env.pop("SHMOD_FORMAT", None)

    @property
    def log(self) -> Path:
        return self.folder / "game.yaml"

    def run(self, *args: str, code: int = 0) -> dict[str, str]:
        """Run shmod as a terminal shows it (headings and hints on stderr, PMs and posts on
        stdout, interleaved); return its sections by heading (plus ``out``/``err``)."""
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=60)
        assert done.returncode == code, (args, done.stdout)
        parts = HEADING.split(done.stdout)
        sections = {}
        for title, body in zip(parts[1::2], parts[2::2]):
            body = re.sub(r"\s*(?:Recorded as entr|Outbox: ).*", "", body.strip(), flags=re.S)
            if title.startswith("PM to "):  # every PM is ready to send: subject, then text
                subject, _, body = body.partition("\n\n")
                assert subject.startswith("Subject: Game: "), subject
            sections[title] = body
        return {**sections, "out": done.stdout, "err": done.stdout}

    def vote_all(self, ballot: str) -> dict[str, str]:
        for name in PLAYERS[:-1]:
            shown = self.run("vote", name, ballot)
            assert "Post in the thread" not in shown  # R-VOTE: nothing public before all are in
            assert re.search(r"votes from \d of 5 living players", shown["Waiting for"])
        return self.run("vote", PLAYERS[-1], ballot)

    def government(self, president: str, chancellor: str, draw: str, discard: str,
                   enact: str) -> dict[str, str]:
        """Nominate, all Ja, check the President's and Chancellor's PMs, discard, enact."""
        shown = self.run("nominate", chancellor)
        assert f"{president} nominates {chancellor} for Chancellor" in shown["Post in the thread"]
        tally = self.vote_all("ja")
        assert "Ja 5, Nein 0" in tally["Post in the thread"]
        assert (f"Elected: President {president}, Chancellor {chancellor}."
                in tally["Post in the thread"])
        assert f"top first: {draw}." in tally[f"PM to {president}"]
        assert draw not in tally["Post in the thread"]  # R-DRAW: the draw is secret
        assert tally["Waiting for"] == f"{president} (President) to discard one of three policies"
        shown = self.run("discard", discard)
        assert set(shown) == {f"PM to {chancellor}", "Waiting for", "out", "err"}  # nothing public
        assert shown["Waiting for"].startswith(f"{chancellor} (Chancellor) to enact")
        done = self.run("enact", enact)
        post = done["Post in the thread"]
        policy = {"l": "Liberal", "f": "Fascist"}[enact[0].lower()]
        assert f"President {president} and Chancellor {chancellor} enacted a {policy} policy" in post
        assert "discarded" not in post.lower()  # R-SECRET
        return done


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed next to this Python")
def test_a_whole_game_from_an_empty_folder(tmp_path):
    m = Moderator(tmp_path)
    assert list(tmp_path.iterdir()) == []

    shown = m.run("new", *PLAYERS, "--seed", "s1", "--guessable", "--first", "Ann")
    assert stat.S_IMODE(m.log.stat().st_mode) == 0o600
    assert "Keep this file private" in shown["err"]
    assert shown["PM to Ann"].startswith("Your secret role: you are Hitler.")
    assert "The Fascist: Dan." in shown["PM to Ann"]  # R-KNOW: 5 players, Hitler knows
    assert "Hitler is Ann." in shown["PM to Dan"]
    for liberal in ("Bob", "Cat", "Eve"):
        assert shown[f"PM to {liberal}"] == ("Your secret role: you are a Liberal. Your party is "
                                             "Liberal.\nYou do not know anyone's role.")
    post = shown["Post in the thread"]
    assert "1. Ann\n2. Bob\n3. Cat\n4. Dan\n5. Eve" in post
    assert "secret role" not in post and "Hitler is Ann" not in post  # R-THREAD
    assert "The first Presidential Candidate is Ann." in post
    assert shown["Waiting for"] == "Ann (Presidential Candidate) to nominate a Chancellor"

    # Round 1: Ann + Bob, Fascist.
    m.government("Ann", "Bob", "Fascist, Fascist, Liberal", "liberal", "fascist")

    # Round 2: Bob + Cat fail; status mid-vote shows who has voted, never how.
    m.run("nominate", "Cat")
    m.run("vote", "Ann", "nein")
    board = m.run("status")["out"]
    assert "Waiting for votes from 4 of 5 living players: Bob, Cat, Dan, Eve" in board
    assert "Nein" not in board and "Ja" not in board
    for name in ("Bob", "Cat", "Dan"):
        m.run("vote", name, "no")
    tally = m.run("vote", "Eve", "n")
    assert "1. Ann: Nein\n2. Bob: Nein" in tally["Post in the thread"]
    assert "The government is not elected. Election Tracker: 1/3." in tally["Post in the thread"]
    assert tally["Waiting for"] == "Cat (Presidential Candidate) to nominate a Chancellor"

    # Round 3: Cat + Dan, Fascist; the tracker resets (R-TRACKER-RESET).
    done = m.government("Cat", "Dan", "Liberal, Fascist, Fascist", "L", "F")
    # the board's line folded within 80 columns in plain text (its "> " kept)
    assert "Election Tracker: 0/3" in done["Post in the thread"].replace("\n>   ", " ")

    # Round 4: Dan + Eve, the third Fascist policy: Policy Peek for Dan.
    done = m.government("Dan", "Eve", "Fascist, Fascist, Fascist", "fascist", "fascist")
    assert done["Waiting for"] == "Dan (President) to use Policy Peek"
    before = m.log.read_bytes()
    refused = m.run("nominate", "Ann", code=1)
    assert refused["err"].startswith("Error: R-NOMINATE: cannot record a nomination now") and m.log.read_bytes() == before
    peek = m.run("peek")
    assert "Liberal, Liberal, Fascist" in peek["PM to Dan"]
    assert "Liberal" not in peek["Post in the thread"].split(">")[0]  # R-PEEK: secret

    # Round 5: Eve + Cat, with three Fascist policies down Cat is confirmed not Hitler.
    m.run("nominate", "Cat")
    tally = m.vote_all("ja")
    assert "the table learns that Cat is not Hitler" in tally["Post in the thread"]
    m.run("discard", "liberal")
    done = m.run("enact", "fascist")
    assert done["Waiting for"] == "Eve (President) to use Execution"

    # Eve executes Ann, who is Hitler: the Liberals win (R-EXECUTE, R-WIN-LIB).
    done = m.run("execute", "ann")
    post = done["Post in the thread"]
    assert "Ann" in post and "was Hitler" in post and "Liberals win" in post
    assert done["Waiting for"].startswith("nobody: the game is over (Liberals won")

    final = m.run("status")["out"]
    assert "Liberals" in final and "dead" in final
    before = m.log.read_bytes()
    over = m.run("nominate", "Bob", code=1)
    assert over["err"] == ("Error: R-WIN-LIB: the game is over (Liberals won: Hitler (Ann) was "
                           "executed); no nominate can be recorded (shmod rules R-WIN-LIB)\n")
    assert m.log.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.yaml"]
