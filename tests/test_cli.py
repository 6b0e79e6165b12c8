"""The command line: exit codes, one-line messages, and a byte-identical log after every
refused command (illegal steps, unknown or ambiguous players, typos, bad logs)."""
import re
import sys

import pytest
import yaml

from shmod.cli.main import main

SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


@pytest.fixture
def log(tmp_path, run):
    """A new five-player game, seed s1, Ann first: Ann is Hitler, Dan the Fascist."""
    path = tmp_path / "g.yaml"
    code, _, _ = run("new", *SEATS, "-g", str(path), "--seed", "s1", "--guessable", "--first", "Ann")
    assert code == 0
    roles = yaml.safe_load(path.read_text())["secret"]["roles"]
    assert roles == {"Ann": "hitler", "Bob": "liberal", "Cat": "liberal", "Dan": "fascist", "Eve": "liberal"}
    return path


def refused(run, path, args, code, pattern):
    """``args`` fails with ``code`` and one ``Error: …`` line matching ``pattern``;
    the log is byte-identical."""
    before = path.read_bytes()
    got, out, err = run(*args, "-g", str(path))
    assert got == code, (got, out, err)
    assert err.count("\n") == 1 and err.startswith("Error: "), err
    assert "Traceback" not in err + out
    assert re.search(pattern, err), err
    assert path.read_bytes() == before
    return err


def ok(run, path, *args):
    """Run an accepted command; what the moderator sees (pastes on stdout, headings and
    hints on stderr)."""
    code, out, err = run(*args, "-g", str(path))
    assert code == 0, err
    return out + err


def elect(run, path, chancellor, ja=True):
    ok(run, path, "nominate", chancellor)
    out = ""
    for name in SEATS:
        out = ok(run, path, "vote", name, "ja" if ja else "nein")
    return out


def test_illegal_steps_exit_1_with_the_rule_and_leave_the_log_alone(run, log):
    refused(run, log, ["nominate", "Ann"], 1, r"R-NOMINATE: Ann cannot nominate themselves")
    refused(run, log, ["vote", "Bob", "ja"], 1, r"R-VOTE: cannot record a vote now")
    refused(run, log, ["discard", "fascist"], 1, r"R-DRAW: cannot record a discard now")
    refused(run, log, ["nominate", "Cat", "--by", "Bob"], 1, r"R-NOMINATE: Bob cannot nominate now")
    refused(run, log, ["peek"], 1, r"R-PEEK: cannot record a Policy Peek now")
    refused(run, log, ["execute", "Bob"], 1, r"R-EXECUTE: cannot record an execution now")
    refused(run, log, ["veto", "propose"], 1, r"R-VETO: cannot record a veto step now")
    elect(run, log, "Bob")  # Ann draws F, F, L
    refused(run, log, ["vote", "Cat", "ja"], 1, r"R-VOTE: cannot record a vote now")
    refused(run, log, ["discard", "liberal", "--by", "Bob"], 1, r"R-DRAW: Bob cannot discard a policy now")
    ok(run, log, "discard", "liberal")
    refused(run, log, ["enact", "liberal"], 1, r"R-PASS: the Chancellor's hand \[F, F\] has no Liberal")
    refused(run, log, ["veto", "propose"], 1, r"R-VETO: the veto needs 5 Fascist policies")
    refused(run, log, ["reshuffle", "FFL"], 1, r"this game has a seed: shmod appends the reshuffle")
    ok(run, log, "enact", "fascist")
    refused(run, log, ["nominate", "Bob"], 1, r"R-NOMINATE: Bob cannot nominate themselves")
    elect(run, log, "Cat", ja=False)  # Bob + Cat fail; Cat is the next candidate
    refused(run, log, ["nominate", "Bob"], 1, r"R-TERM: Bob cannot be nominated Chancellor: last elected Chancellor")
    ok(run, log, "nominate", "Ann")  # R-TERM5: five alive, the last President is eligible
    ok(run, log, "vote", "Dan", "nein")
    refused(run, log, ["vote", "dan", "ja"], 1, r"R-VOTE: Dan has already voted; a vote is final")


def test_a_typed_name_matches_any_word_without_accents_and_never_guesses(run, tmp_path):
    """Issue 26 §4: `Zoe` finds Zoë, `guapo` finds El Guapo; several matches are refused
    with each candidate and its seat; the name as seated always wins."""
    path = tmp_path / "g.yaml"
    players = ["Zoë", "El Guapo", "Moliere", "Remus West", "Westley", "Zoe Ann", "Émile"]
    assert run("new", *players, "-g", str(path), "--seed", "x", "--guessable",
               "--first", "Moliere")[0] == 0
    for typed, seated in [("Zoë", "Zoë"), ("ZOË", "Zoë"), ("Zoe Ann", "Zoe Ann"),
                          ("guapo", "El Guapo"), ("GUA", "El Guapo"), ("emile", "Émile"),
                          ("ann", "Zoe Ann"), ("westl", "Westley"), ("remus", "Remus West")]:
        code, out, err = run("pm", typed, "-g", str(path))
        assert code == 0 and f"── PM to {seated} (entry 0, role) ─" in err, (typed, out, err)
    refused(run, path, ["pm", "west"], 2, r"'west' is ambiguous: it could be Remus West \(seat 4\), "
            r"Westley \(seat 5\); name one in full or by seat number$")
    refused(run, path, ["pm", "zoe"], 2, r"it could be Zoë \(seat 1\), Zoe Ann \(seat 6\)")
    refused(run, path, ["nominate", "e"], 2, r"it could be El Guapo \(seat 2\), Émile \(seat 7\)")
    ok(run, path, "nominate", "guapo")
    assert "El Guapo" in yaml.safe_load(path.read_text())["log"][-2]["chancellor"]
    ok(run, path, "vote", "zoe ann", "ja", "Zoë", "nein", "émi", "ja")


def test_a_player_named_twice_in_one_command_is_said_so(run, tmp_path):
    """Issue 26 §4: the issue's own words: `shmod vote Moliere ja Vorret ja Moliere nein`."""
    path = tmp_path / "g.yaml"
    assert run("new", "Moliere", "Vorret", "Cat", "Dan", "Eve", "-g", str(path), "--seed", "x",
               "--guessable", "--first", "Cat")[0] == 0
    ok(run, path, "nominate", "Dan")
    refused(run, path, ["vote", "Moliere", "ja", "Vorret", "ja", "Moliere", "nein"], 1,
            r"^Error: R-VOTE: Moliere is named twice in this command; a vote is final once "
            r"received, so nothing was recorded: give each player once")
    refused(run, path, ["vote", "Moliere", "ja", "mol", "nein"], 1,
            r"Moliere is named twice in this command \(as 'Moliere' and 'mol'\)")
    ok(run, path, "vote", "Moliere", "ja")
    refused(run, path, ["vote", "Vorret", "ja", "Moliere", "nein"], 1,
            r"R-VOTE: Moliere has already voted")


def test_unknown_and_ambiguous_players_list_the_candidates(run, tmp_path):
    path = tmp_path / "g.yaml"
    assert run("new", "Anna", "Anne", "Bob", "Cat", "Dan", "-g", str(path), "--seed", "x", "--guessable",
               "--first", "Dan")[0] == 0
    refused(run, path, ["nominate", "An"], 2, r"'An' is ambiguous: it could be Anna \(seat 1\), Anne \(seat 2\); name one in full or by seat number$")
    refused(run, path, ["nominate", "Zed"], 2,
            r"unknown player 'Zed' \(players: 1\. Anna, 2\. Anne, 3\. Bob, 4\. Cat, 5\. Dan\)")
    refused(run, path, ["nominate", "9"], 2, r"unknown player '9'")
    ok(run, path, "nominate", "ANNE")  # any case
    refused(run, path, ["vote", "Anni", "ja"], 2, r"unknown player 'Anni'")
    ok(run, path, "vote", "b", "yes")  # unique prefix, yes for ja
    ok(run, path, "vote", "4", "n")  # seat number


def test_typos_in_policies_votes_and_veto_answers(run, log):
    refused(run, log, ["vote", "Bob", "jaa"], 2, r"'jaa' is not a vote \(ja or nein\)")
    elect(run, log, "Bob")
    refused(run, log, ["discard", "fascsit"], 2, r"'fascsit' is not a policy")
    ok(run, log, "discard", "F")
    refused(run, log, ["enact", "blue"], 2, r"'blue' is not a policy")
    refused(run, log, ["veto", "maybe"], 2, r"'maybe' is not a veto answer")
    refused(run, log, ["veto", "ja"], 2, r"a secret veto vote needs --by")
    refused(run, log, ["enact", "F", "-f", "html"], 2, r"unknown format 'html'")


def test_new_refuses_bad_setups_and_never_overwrites(run, log, tmp_path):
    before = log.read_bytes()
    code, _, err = run("new", *SEATS, "-g", str(log), "--seed", "s2", "--guessable")
    assert code != 0 and err.startswith("Error: ") and log.read_bytes() == before
    other = tmp_path / "h.yaml"
    code, _, err = run("new", "A1", "B1", "C1", "D1", "-g", str(other))
    assert (code, err) == (1, "Error: R-COUNT: Secret Hitler takes 5 to 10 players, not 4 (shmod rules R-COUNT)\n")
    code, _, err = run("new", *SEATS, "-g", str(other), "-V", "term5=never")
    assert code == 2 and "term5='never' is not one of: alive, seated" in err
    assert not other.exists()


def test_missing_log_and_environment_variable(run, log, tmp_path, monkeypatch):
    code, _out, err = run("status", "-g", str(tmp_path / "nope.yaml"))
    assert code != 0 and err.startswith("Error: ") and err.count("\n") == 1 and "nope.yaml" in err
    monkeypatch.setenv("SHMOD_GAME", str(log))
    monkeypatch.setattr(sys, "argv", ["shmod", "nominate", "Cat"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code in (0, None)
    assert log.read_text().splitlines()[-2].startswith("- {kind: nominate, by: Ann, chancellor: Cat")
    assert log.read_text().splitlines()[-1].startswith("- {kind: posted, upto: 2")


@pytest.mark.parametrize(("tail", "message"), [
    ("- {kind: vote, by: Bob, vote: [\n", r"g\.yaml:(31|32): malformed YAML"),  # EOF: yaml's mark
    ("- {kind: nominate, by: Ann, chancellor: Bob\n- {kind: vote, by: Ann, vote: ja}\n",
     r"g\.yaml:31: malformed YAML: did not find expected ',' or '}'"),
    ("- {kind: nominate, by: Ann, chancellor: Ann}\n", r"g\.yaml:31: entry 2: R-NOMINATE: Ann cannot nominate themselves"),
    ("- {kind: nominate, by: Bob, chancellor: Cat}\n", r"g\.yaml:31: entry 2: R-NOMINATE: Bob cannot nominate now"),
    ("- {kind: vote, by: Zed, vote: ja}\n", r"g\.yaml:31: entry 2: unknown player 'Zed'"),
    ("- {kind: coup, by: Ann}\n", r"g\.yaml:31: entry 2: unknown entry kind 'coup'"),
    ("- {kind: nominate, by: Ann, chancellor: Bob, x: 1}\n", r"g\.yaml:31: entry 2: nominate entry has unknown field\(s\) x"),
    ("- &a {kind: nominate, by: Ann, chancellor: Bob}\n- *a\n", r"g\.yaml:31: anchors and aliases \(&, \*\) are not allowed"),
])
def test_malformed_or_illegal_log_entries_are_reported_with_file_and_line(run, log, tail, message):
    assert log.read_text().count("\n") == 30  # the header ends on line 29 (log:), then post 1
    with log.open("a") as out:
        out.write(tail)
    before = log.read_bytes()
    for args in (["status"], ["nominate", "Cat"]):
        code, out, err = run(*args, "-g", str(log))
        assert code == 2 and err.startswith("Error: ") and err.count("\n") == 1, err
        assert re.search(message, err), err
        assert log.read_bytes() == before


def test_every_recorded_step_names_its_entry_number_for_corrections(run, log):
    code, _, err = run("nominate", "Bob", "-g", str(log))
    assert code == 0 and f"\nRecorded as entry 2 of {log}, with post 2 (entry 3).\nOutbox: " in err
    ok(run, log, "vote", "Ann", "ja")
    code, _, err = run("vote", "Bob", "nein", "-g", str(log))
    assert f"\nRecorded as entry 5 of {log}.\nOutbox: " in err
    ok(run, log, "vote", "Cat", "ja")
    code, out, err = run("correct", "5", "--reason", "Bob sent Ja", "-g", str(log))
    assert code == 0 and "voids the vote by Bob." in err and "(entry 5)" not in err
    assert "Correction" not in out  # players never saw the vote: nothing to post


def test_the_step_that_ends_the_game_says_what_is_left(run, tmp_path):
    import random

    from shmod.audit.random_games import random_game
    from shmod.game.steps import Enact
    from shmod.log.store import log_text

    sim = next(s for s in (random_game(5, random.Random(k)) for k in range(50))
               if isinstance(s.steps[-1], Enact))
    path = tmp_path / "g.yaml"
    path.write_text(log_text(sim.header, sim.steps[:-1], at="2026-01-01T00:00:00Z"))
    policy = {"L": "liberal", "F": "fascist"}[sim.steps[-1].policy]
    code, out, err = run("enact", policy, "-g", str(path), "--show")
    assert code == 0 and "Game over" in out
    assert f"\nRecorded as entry {len(sim.steps)} of {path}, with post 1 (entry {len(sim.steps) + 1}). The game is over" in err
    assert "shmod reveal" in err and "shmod audit" in err


def test_secret_votes_stay_hidden_until_all_are_in(run, log):
    ok(run, log, "nominate", "Bob")
    for name in SEATS[:-1]:
        out = ok(run, log, "vote", name, "nein" if name == "Cat" else "ja")
        assert "Nein" not in out and "Ja" not in out.replace("Ja or Nein", "")
        assert "votes from" in out  # whom the game waits for
    out = ok(run, log, "vote", "Eve", "ja", "--show")  # each text it made, framed
    assert "3. Cat: Nein" in out and "Ja 4, Nein 1" in out
    assert "PM to Ann" in out and "Fascist, Fascist, Liberal" in out  # the President's draw


def test_hand_appended_entry_leaving_a_seeded_reshuffle_due_is_not_a_dead_end(run, tmp_path):
    """Core bug fixed: with a seeded reshuffle due at the end of a hand-edited log, every
    command was refused (and ``reshuffle`` refuses seeded games)."""
    import random

    from shmod.audit.random_games import random_game
    from shmod.game.steps import Nominate, Peek, Reshuffle
    from shmod.log import store

    sim = next(s for s in (random_game(5, random.Random(n)) for n in range(40))
               if any(isinstance(step, Reshuffle) for step in s.steps))
    index = next(i for i, s in enumerate(sim.steps) if isinstance(s, Reshuffle))
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, sim.steps[:index], at="2026-01-01T00:00:00Z"))
    assert store.load(str(path)).table.game.phase == "reshuffle"
    after = sim.steps[index + 1]
    names = sim.header["players"]
    args = (["peek"] if isinstance(after, Peek) else
            ["nominate", names[after.chancellor]] if isinstance(after, Nominate) else
            [after.kind.replace("_", "-"), names[after.target]])  # a power with a target
    ok(run, path, *args)
    lines = path.read_text().splitlines()
    assert lines[-3].startswith("- {kind: reshuffle, deck: ")  # then the step, then its post
    assert lines[-1].startswith("- {kind: posted, ")
    replayed = store.load(str(path))
    assert replayed.chain == [] and replayed.table.game.reshuffles == 1
    assert len(replayed.log.entries) == index + 3



def test_unseeded_log_written_by_hand_is_played_on_with_explicit_reshuffles(run, tmp_path):
    """A game dealt with real cards (no seed): shmod replays it and the moderator records
    the reshuffle's order; a pile that is not the draw and discard piles is refused."""
    from scripted import header

    from shmod.log import store

    head = header(5, hitler="Ann", fascists=["Dan"], deck="LFF" * 5)
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(head, [], at="2026-01-01T00:00:00Z"))
    living = list(SEATS)
    for _president, chancellor, power in (("Ann", "Bob", None), ("Bob", "Cat", None),
                                         ("Cat", "Dan", ["peek"]), ("Dan", "Eve", ["execute", "Bob"]),
                                         ("Eve", "Cat", None)):
        ok(run, path, "nominate", chancellor)
        for name in living:
            ok(run, path, "vote", name, "ja")
        ok(run, path, "discard", "liberal")
        shown = ok(run, path, "enact", "fascist")
        if power:
            ok(run, path, *power)
        if "Bob" in (power or []):
            living.remove("Bob")
    assert "the moderator to record the reshuffled draw pile (R-RESHUFFLE)" in shown
    refused(run, path, ["execute", "Cat"], 1, r"R-EXECUTE: cannot record an execution now: waiting for the moderator")
    refused(run, path, ["reshuffle", "L" * 7 + "F" * 5], 1,
            r"R-RESHUFFLE: the new draw pile .* is not the draw and discard piles together \(6 Liberal, 6 Fascist\)")
    refused(run, path, ["reshuffle", "LFX"], 2, r"'X' is not a policy")
    shown = ok(run, path, "reshuffle", "FFFFFF LLLLLL")
    assert "Eve (President) to use Execution" in shown
    ok(run, path, "execute", "Cat")
    state = store.load(str(path)).table
    assert (state.game.fascist, state.game.reshuffles, state.game.draw, state.game.alive) == (
        5, 1, list("FFFFFFLLLLLL"), [True, False, False, True, True])
    assert state.game.president == 0  # Ann, after Eve


def test_torn_last_line_is_reported_and_nothing_is_built_on_it(run, log):
    ok(run, log, "nominate", "Bob")
    with log.open("a") as out:
        out.write('- {kind: vote, by: Ann, vote: ja, at: "2026')  # cut off mid-write
    refused(run, log, ["vote", "Bob", "ja"], 2, r"g\.yaml:33: torn final entry")
    refused(run, log, ["status"], 2, r"g\.yaml:33: torn final entry")
