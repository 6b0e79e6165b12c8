"""Issue 20 §2, §4, §5: every text says the right thing in words people read, a hand edit
that breaks the commitment is said at once, and the command line behaves as a Unix user
expects. Each repro of the issue, through the CLI (in-process ``run``)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from scripted import AT

from shmod.audit import log_audit
from shmod.base.records import replace
from shmod.forum import engine
from shmod.forum.events import Corrected
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Correct
from shmod.game.events import GameOver, SpecialElectionCalled, Win
from shmod.game.steps import Discard, Enact, Nominate, SpecialElection, Veto, Vote
from shmod.log import store
from shmod.texts import board_image, messages, views
from shmod.texts.formats import Plain

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SEED = "7d1e4c9a02b3f58e6a0c1d27b94e3f65"


@pytest.fixture
def log(tmp_path, run) -> Path:
    path = tmp_path / "g.yaml"
    assert run("new", *NAMES, "--first", "Ann", "--seed", SEED, "-g", str(path))[0] == 0
    return path


def test_pm_says_which_pms_are_owed_and_when_none_is(run, log):
    run("nominate", "Bob", "-g", str(log))
    code, out, err = run("vote", "Ann", "ja", "-g", str(log))
    code, out, err = run("pm", "-g", str(log))
    assert code == 0 and out == "" and "Your secret role" not in out + err  # listed, not shown
    assert "0:Ann          PM to Ann — the secret role" in err and "shmod send ITEM" in err
    assert run("outbox", "--settle", "-g", str(log))[0] == 0  # sent by hand
    code, out, err = run("pm", "-g", str(log))
    assert code == 0 and out == "" and "No PMs: the outbox owes none." in err
    code, out, err = run("pm", "--entry", "0", "-g", str(log))
    assert "0:Eve          PM to Eve — the secret role (delivered)" in err


def test_a_custom_board_is_said_as_it_is(run, tmp_path):
    custom = tmp_path / "c.yaml"
    custom.write_text("powers: [special_election, none, none, execute, execute]\n")
    code, out, err = run("new", "A", "B", "C", "D", "E", "F", "G", "--seed", SEED, "--first",
                         "A", "--custom", str(custom), "-g", str(tmp_path / "s.yaml"), "--show")
    assert code == 0, err
    assert "Board for 7-8 players" not in out and "The custom board:" in out
    assert "Fascist policy 1: Call Special Election" in out
    assert "no variants" not in out and "no house rules" not in out
    assert "A custom board: the powers are as listed above." in out


def test_the_opening_post_states_house_rules_in_words(run, tmp_path):
    code, out, _ = run("new", "A", "B", "C", "D", "E", "F", "--seed", SEED, "-V", "rebalanced=on",
                       "-V", "eva_braun=on", "-g", str(tmp_path / "h.yaml"), "--show")
    assert code == 0
    opening = out.split("Setup commitment")[0]
    assert "=" not in opening.replace("==", "") and "start=" not in out
    assert "Rebalanced setup:" in opening and "Eva Braun house rule" in opening


def test_refusals_and_reports_name_steps_in_words(run, tmp_path):
    path = str(tmp_path / "g.yaml")
    header = new_header(["A1", "B1", "C1", "D1", "E1", "F1", "G1"], seed=SEED, salt="c2a9f04e7b15d38e96a0f1c4b72d5e08",
                        created="2026-01-01T00:00:00Z", first="A1")
    state = start(parse_setup(header))
    state.game.phase, state.game.power = "power", "special_election"
    with pytest.raises(Exception, match="B1 cannot call a Special Election now"):
        engine.apply(state, SpecialElection(by=1, target=2))
    store.new_game(path, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"], seed=SEED,
                   first="Ann", variants=["late_choice=random"], created=AT)
    import random

    from shmod.forum.turns import legal_steps

    rng = random.Random(5)
    while not any(isinstance(ev, SpecialElectionCalled) for ev in store.load(path).table.public):
        state = store.load(path).table
        assert state.game.phase != "over"
        options = legal_steps(state)
        store.record(path, lambda g, o=options: rng.choice(
            [s for s in o if not isinstance(s, Vote) or s.vote] or o), at=AT)
    _code, out, _ = run("audit", path)
    assert "Call Special Election by" in out and "special_election" not in out


def test_a_forced_correction_says_which_policy(tmp_path):
    path = str(tmp_path / "g.yaml")
    store.new_game(path, NAMES, seed=SEED, first="Ann", created=AT)
    store.record(path, lambda g: Nominate(by=0, chancellor=1), at=AT)
    store.record(path, lambda g: [Vote(by=s, vote=True) for s in range(5)], at=AT)
    hand = store.load(path).table.game.hand
    store.record(path, lambda g: Discard(by=0, policy=hand[0]), at=AT)
    policy = store.load(path).table.game.hand[0]
    done = store.record(path, lambda g: Enact(by=1, policy=policy), at=AT)
    enacted = done.loaded.table.entries - 1
    fixed = store.record(path, lambda g: Correct(entries=(enacted,), reason="x", force=True), at=AT)
    word = {"L": "Liberal", "F": "Fascist"}[policy]
    [event] = [e for e in fixed.public if isinstance(e, Corrected)]
    text = messages.post_words(views.public_view(fixed.loaded.table), event, Plain())
    assert f"the enactment of a {word} policy by Chancellor Bob" in text
    assert "enact by" not in text


def test_a_replacement_is_briefed_in_rounds_with_what_to_do_now(run, log):
    run("nominate", "Bob", "-g", str(log))
    run("vote", "Ann", "ja", "Bob", "nein", "-g", str(log))
    code, out, _ = run("replace", "Cy", "Zed", "-g", str(log), "--show")
    assert code == 0 and "(entry" not in out
    assert "the game is in round 1" in out
    assert "The game is waiting for you now: your vote, Ja or Nein, on President Ann and " \
           "Chancellor Bob" in out
    run("vote", "Zed", "ja", "Dee", "ja", "Eve", "ja", "-g", str(log))
    code, out, _ = run("history", "-g", str(log))
    assert "Cy→Zed" in out


def test_the_veto_refusal_follows_the_custom_board():
    for zone, expected in (("none", "this game has no veto"), (3, "needs 3 Fascist policies")):
        header = new_header(NAMES, seed=SEED, salt="c2a9f04e7b15d38e96a0f1c4b72d5e08", created="2026-01-01T00:00:00Z",
                            first="Ann", custom={"veto_zone": zone})
        state = start(parse_setup(header))
        state.game.phase, state.game.chancellor, state.game.hand, state.game.fascist = "enact", 1, ["F", "F"], 1
        with pytest.raises(Exception, match=expected):
            engine.apply(state, Veto(by=1, answer="propose"))


def test_nobody_is_elected_during_a_vote_and_the_end_reads_well(run, log):
    _code, out, _ = run("nominate", "Bob", "-g", str(log), "--show")
    assert "Presidential Candidate: Ann, Chancellor nominee: Bob" in out
    assert "President: Ann, Chancellor candidate" not in out
    view = views.public_view(store.load(str(log)).table)
    view = replace(view, winner="Fascists", win=Win("Fascists", "R-EVA-BRAUN", "Eli"))
    ended = messages.post_words(view, GameOver(9, Win("Fascists", "R-EVA-BRAUN", "Eli")),
                                  Plain())
    assert ended is not None and "A tied vote elected Hitler (Eli) Chancellor." in ended
    assert "Game over: the Fascists win. A tied vote elected Hitler" in board_image.svg(view)


@pytest.mark.filterwarnings("always::shmod.log.logfile.LogWarning")
def test_a_header_edit_is_said_at_once_and_rename_keeps_the_commitment(run, tmp_path):
    path = tmp_path / "t.yaml"
    code, _, err = run("new", "Ann", "Bob", "Cyy", "Dee", "Eve", "--seed", SEED, "-g", str(path))
    commitment = re.search(r"Commitment \(post it in the opening thread post\): (\w+)", err).group(1)
    edited = tmp_path / "edited.yaml"
    edited.write_text(path.read_text().replace("Cyy", "Cy"))
    code, _, err = run("status", "-g", str(edited))
    assert "the header was changed after `shmod new`" in err and "shmod rename OLD NEW" in err
    code, _, err = run("acknowledge", "0", "1", "-r", "typo", "-g", str(edited))
    assert code == 0 and "does not mend it" in err
    code, _, err = run("status", "-g", str(edited))
    assert "the header was changed" in err  # said every time, not only once
    assert not log_audit.audit_file(str(edited), commitment).valid
    code, out, _ = run("rename", "Cyy", "Cy", "-g", str(path))  # the proper way
    assert code == 0 and out == ""  # its post waits in the outbox
    assert "A name is corrected: Cyy is Cy" in run("post", "--again", "2", "-g", str(path))[1]
    code, _, err = run("vote", "cyy", "ja", "-g", str(path))
    assert code == 2 and "cyy is now called Cy" in err
    assert log_audit.audit_file(str(path), commitment).valid


def test_the_command_line_a_unix_user_expects(run, log):
    code, _, err = run("deadline", "2020-01-01 10:00", "-g", str(log))
    assert code == 1 and err.startswith("Error: R-DEADLINE")  # a rule: exit 1, as docs/commands.md says
    run("nominate", "Bob", "-g", str(log))
    run("vote", "Ann", "ja", "Bob", "ja", "Cy", "ja", "Dee", "ja", "Eve", "ja", "-g", str(log))
    hand = store.load(str(log)).table.game.hand
    word = {"F": "fasc", "L": "libe"}[hand[0]]
    assert run("discard", word, "-g", str(log))[0] == 0
    code, _, err = run("undo", "-g", str(log))
    assert code == 2 and "shmod correct --reason" in err


def test_completion_offers_rule_ids_and_only_the_living_where_only_they_count(tmp_path):
    import os
    import random
    import subprocess
    import sys

    from shmod.audit.random_games import random_game
    from shmod.log.store import log_text

    shmod = Path(sys.executable).parent / "shmod"
    sim = next(s for s in (random_game(5, random.Random(k)) for k in range(60))
               if any(step.kind == "execute" for step in s.steps))
    cut = next(n for n, step in enumerate(sim.steps) if step.kind == "execute") + 1
    path = tmp_path / "c.yaml"
    path.write_text(log_text(sim.header, sim.steps[:cut], at="2026-01-01T00:00:00Z"))
    state = store.load(str(path)).table
    living = [n for seat, n in enumerate(state.game.players) if state.game.alive[seat]]
    assert len(living) == 4

    def complete(words: str) -> list[str]:
        env = {**os.environ, "_SHMOD_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split(" ")) - 1), "SHMOD_GAME": str(path)}
        done = subprocess.run([str(shmod)], env=env, capture_output=True, text=True, timeout=60)
        return done.stdout.split()

    assert set(complete("shmod rules R-T")) == {"R-TRACK", "R-TERM", "R-TERM5", "R-THREAD",
                                                "R-TERM-ANYONE", "R-TRACKER-RESET"}
    assert complete("shmod vote ") == living
    assert complete("shmod execute ") == living
    assert complete("shmod pm ") == list(state.game.players)  # the dead are sent PMs too
