"""Issue 19: a forum game that keeps moving. Deadlines that last (R-DEADLINE), a recorded
answer for every absent player (R-LAPSE, R-MODKILL, R-STALL, R-BACKUP), R-NO-NOMINEE,
fewer keystrokes and no confusion between games; through the installed ``shmod`` as a
moderator runs it, with the clock injected (``SHMOD_NOW``), never slept on. Every rule id
has a legal and an illegal case."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from installed import DAY1, DAY2, DAY4, SHMOD, Moderator
from scripted import AT

from shmod.audit import log_audit
from shmod.base.records import replace
from shmod.forum import deadlines, engine
from shmod.forum.events import Lapsed, RemovedNotice, Retraction
from shmod.forum.setup import parse_setup, start
from shmod.forum.steps import Lapse, Prod, Remove, SetDeadline
from shmod.game.events import Handed
from shmod.game.steps import Nominate, Veto, Vote
from shmod.game.terms import VOTE
from shmod.log import logfile, store
from shmod.texts import thread_posts
from shmod.texts.formats import Plain

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SEED = "f07c3a91d25e4b68a0e1c9f37d2b5a46"  # Ann is the first Presidential Candidate (--first)


@pytest.fixture
def mod(tmp_path) -> Moderator:
    m = Moderator(tmp_path, show=True)  # what each step made, framed on stdout (--show)
    m.run("new", *NAMES, "--first", "Ann", "--seed", SEED, "--zone", "Europe/Berlin",
          "-V", "late_vote=nein", "-V", "late_nomination=fail", "-V", "late_choice=random")
    return m


pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")


def test_new_stamps_the_game_and_its_opening_post_with_the_injected_clock(mod):
    text = mod.log.read_text()
    assert f'created: "{DAY1}"' in text
    assert f'at: "{DAY1}"' in text.split("\nlog:\n")[1].splitlines()[0]


def test_a_round_deadline_lasts_the_round_and_shows_time_left_in_both_zones(mod):
    done = mod.run("deadline", "48h", "--post")  # the zone comes from `new --zone`
    assert "Deadline for this round: 2026-11-25 10:00 UTC (11:00 CET, Europe/Berlin): 2 d left." in done.stdout
    assert done.stdout.count("Deadline for this round") == 1
    mod.now = DAY2
    nominated = mod.run("nominate", "Bob")
    assert "Deadline for this round: 2026-11-25 10:00 UTC (11:00 CET, Europe/Berlin): 1 d left." in nominated.stdout
    status = mod.run("status").stdout
    assert "Deadline (this round): 2026-11-25 10:00 UTC (11:00 CET, Europe/Berlin): 1 d left" in status
    prods = mod.run("prods").stdout
    assert "The deadline is 2026-11-25 10:00 UTC (11:00 CET, Europe/Berlin): 1 d left." in prods
    remind = mod.run("remind").stdout
    assert remind.startswith("Reminder: 1 d left until the deadline, 2026-11-25 10:00 UTC")
    assert "still waiting for Ann, Bob, Cy, Dee, Eve (a vote)" in remind
    mod.run("vote", "Ann", "nein", "Bob", "nein", "Cy", "nein", "Dee", "nein", "Eve", "nein")
    assert "Deadline" not in mod.run("status").stdout  # the round ended: the deadline with it


def test_a_phase_deadline_is_met_with_its_phase_and_a_cleared_one_is_gone(mod):
    mod.run("deadline", "1d", "--phase", "--zone", "Asia/Tokyo")
    assert "this phase" in mod.run("status").stdout and "JST" in mod.run("status").stdout
    mod.run("nominate", "Bob")
    assert "Deadline" not in mod.run("status").stdout
    mod.run("deadline", "1d")  # the zone given last is remembered
    assert "JST, Asia/Tokyo" in mod.run("status").stdout
    cleared = mod.run("deadline", "--clear", "--post")
    assert "the deadline is cleared" in cleared.stdout and "Deadline" not in mod.run("status").stdout
    mod.refused("deadline", "--clear", rule="R-DEADLINE: there is no deadline to clear")
    mod.refused("deadline", "2020-01-01 10:00", rule="R-DEADLINE")


def test_a_lapsed_deadline_is_never_posted(mod):
    mod.run("deadline", "1d")
    mod.now = DAY4  # long past it
    assert "Deadline for" not in mod.run("nominate", "Bob").stdout
    assert "OVERDUE: Ann, Bob, Cy, Dee, Eve" in mod.run("status").stdout


def test_missing_votes_lapse_as_nein(mod):
    mod.run("nominate", "Bob")
    mod.run("deadline", "1d")
    mod.run("vote", "Ann", "ja", "Bob", "ja")
    mod.refused("lapse", rule="R-LAPSE: the deadline 2026-11-24T10:00:00Z has not passed yet")
    mod.now = DAY4
    done = mod.run("lapse")
    assert "Cy, Dee, Eve sent no vote by the deadline: counted as Nein." in done.stdout
    assert "3. Cy: Nein (no vote by the deadline)" in done.stdout and "Ja 2, Nein 3" in done.stdout
    mod.refused("lapse", rule="R-LAPSE: no deadline is in force")


def test_a_nomination_not_made_lapses_as_a_failed_election(mod):
    mod.run("deadline", "1d")
    mod.now = DAY4
    done = mod.run("lapse")
    assert ("Presidential Candidate Ann made no nomination by the deadline: the turn passes as a "
            "failed election (Election Tracker: 1).") in done.stdout
    assert "Bob is the Presidential Candidate" in done.stdout


def test_a_lapse_the_house_rules_leave_to_the_moderator_is_refused(tmp_path):
    m = Moderator(tmp_path)
    m.run("new", *NAMES, "--first", "Ann", "--seed", SEED)  # the official game: no switches
    m.run("deadline", "1d")
    m.now = DAY4
    err = m.refused("lapse", rule="R-LAPSE: the house rules leave a nomination not made to the "
                    "moderator (late_nomination=wait)")
    assert "shmod prods" in err and "shmod replace" in err


def _game_at(tmp_path, phase: str, variants: tuple[str, ...] = ()) -> Path:
    """A seeded game (late_choice=random) played to ``phase`` with legal random steps,
    a deadline set, and its log."""
    import random

    from shmod.forum.turns import legal_steps

    path = tmp_path / f"{phase}.yaml"
    store.new_game(str(path), NAMES, seed=SEED, first="Ann", created=DAY1,
                   variants=["late_choice=random", *variants])
    rng = random.Random(phase)
    for _ in range(400):
        state = store.load(str(path)).table
        if state.game.phase == phase.split(":")[0] and (":" not in phase or state.game.power == phase.split(":")[1]):
            break
        options = legal_steps(state)
        store.record(str(path), lambda g, o=options: rng.choice(
            [s for s in o if not isinstance(s, Vote) or s.vote] or o), at=DAY1)
    else:
        raise AssertionError(f"{phase} not reached")
    store.record(str(path), lambda g: SetDeadline(until="2026-11-24T10:00:00Z", zone="UTC"),
                 at=DAY1)
    return path


@pytest.mark.parametrize("phase", ["discard", "enact", "power:execute", "power:peek"])
def test_a_missing_choice_lapses_to_the_seeds_random_choice_which_audit_recomputes(tmp_path, phase):
    path = _game_at(tmp_path, phase)
    before = store.load(str(path)).table
    expected = deadlines.drawn(before, before.entries + 1)
    options = deadlines.choices(before)
    other = next((c for c in options if c != expected), None)
    if other is not None:  # the moderator cannot record another choice than the seed's
        with pytest.raises(Exception, match="R-LAPSE: the random choice recorded"):
            store.record(str(path), lambda g: Lapse(deadline=deadlines.current(g.table).entry, at=DAY4, choice=other), at=DAY4)
    done = store.record(str(path), lambda g: Lapse(deadline=deadlines.current(g.table).entry, at=DAY4, choice=expected), at=DAY4)
    post = thread_posts.recorded_post(done, Plain()).text
    assert "by the deadline" in post
    if phase == "discard":  # the discard stays secret: the post never names it
        assert "at random" in post and "policies was discarded" in post
        assert not re.search(r"discarded (a )?(Liberal|Fascist)", post)
    assert log_audit.audit_file(str(path)).valid
    if other is None:
        return
    # A log edited to another choice fails its audit, which recomputes every random lapse.
    text = path.read_text()
    forged = text.replace(f"choice: {logfile.scalar(expected)}", f"choice: {logfile.scalar(other)}")
    assert forged != text
    path.write_text(forged)
    report = log_audit.audit_file(str(path))
    assert not report.valid
    assert any(p.rule == "R-LAPSE" and "not the one the game's seed gives" in p.message
               for p in report.problems)


def test_an_unanswered_veto_lapses_as_refused():
    state = start(parse_setup(store.new_header(NAMES, seed=SEED, salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=DAY1,
                                               first="Ann", variants=["late_choice=random"])))
    state.game.fascist, state.game.phase, state.game.chancellor = 5, "enact", 1
    state.game.hand = ["F", "F"]
    engine.apply(state, Veto(by=1, answer="propose"))
    engine.apply(state, SetDeadline(until="2026-11-24T10:00:00Z", zone="UTC"))
    engine.apply(state, Lapse(deadline=state.entries, at=DAY4))
    assert state.game.phase == "enact" and state.game.veto_refused
    [lapsed] = [e for e in state.public if isinstance(e, Lapsed)]
    from shmod.texts.forum_texts import lapse_text

    assert lapse_text(lapsed, Plain()) == ("President Ann did not answer the veto by the "
                                                "deadline: it is refused.")


def test_late_choice_random_needs_a_seed():
    from scripted import header

    head = header(5)
    head["variants"] = {"late_choice": "random"}
    with pytest.raises(Exception, match="R-LAPSE: late_choice=random draws from the game's seed"):
        parse_setup(head)


def test_prods_are_recorded_and_counted(mod):
    mod.run("nominate", "Bob")
    mod.run("vote", "Ann", "ja")
    first = mod.run("prods")
    assert first.stdout.count("Subject: Friday: a reminder") == 4
    assert "reminder number" not in first.stdout
    status = mod.run("status").stdout
    assert "prodded" not in status  # a prod counts once delivered (issue 40)
    assert "not made again" in mod.run("prods").stderr  # while they are still owed
    mod.run("outbox", "--settle")  # sent by hand
    second = mod.run("prods", "--preview")
    assert "This is reminder number 2." in second.stderr  # a preview: on stderr
    status = mod.run("status").stdout
    assert "prodded 1×" in status and status.count("prodded") == 4
    loaded = store.load(str(mod.log))
    with pytest.raises(Exception, match="R-STALL: Ann owes nothing now"):
        engine.apply(loaded.table, Prod(target=0))


def test_a_replacements_prods_start_at_zero(mod):
    """Issue 42, R-STALL, R-REPLACE: the prods Dee was sent are Dee's; Zed, who takes her
    seat, gets a first reminder, not "reminder number 2" (main counted the seat's)."""
    mod.run("nominate", "Bob")
    mod.run("prods")
    mod.run("outbox", "--settle")  # sent by hand: a prod counts once delivered (R-STALL)
    assert "This is reminder number 2." in mod.run("prods", "--preview").stderr
    mod.run("replace", "Dee", "Zed")

    def zeds() -> str:
        said = mod.run("prods", "--preview").stderr
        return next(pm for pm in said.split("Subject: ") if "Hi Zed," in pm)

    assert "reminder number" not in zeds()
    assert "prodded" not in next(row for row in mod.run("status").stdout.splitlines()
                                 if "Zed" in row)
    mod.run("prods")
    mod.run("outbox", "--settle")  # sent by hand: a prod counts once delivered (R-STALL)
    assert "This is reminder number 2." in zeds()


def test_backups_take_seats_in_order(mod):
    mod.run("backup", "Zed", "Yul")
    assert "1. Zed\n2. Yul" in mod.run("backup").stdout
    mod.refused("backup", "Zed", rule="R-BACKUP: 'Zed' is already on the backup list")
    mod.refused("backup", "bob", rule="R-BACKUP: cannot list 'bob'")
    done = mod.run("replace", "Cy")
    assert "Zed replaces Cy in seat 3" in done.stdout and "Welcome! You replace Cy" in done.stdout
    assert "1. Yul" in mod.run("backup").stdout
    mod.run("backup", "--drop", "Yul")
    mod.refused("replace", "Dee", rule="R-BACKUP: name the newcomer: the backup list is empty")


def test_a_removal_ends_the_round_or_the_game_as_the_rules_say(mod):
    roles = store.load(str(mod.log)).table.game.roles
    hitler = NAMES[roles.index("hitler")]
    others = [n for n in NAMES if n != hitler and n != "Ann"]
    mod.run("nominate", others[0])
    mod.run("vote", "Ann", "ja")
    removed = mod.run("remove", others[1], "--reason", "left the forum")
    assert f"The moderator has removed {others[1]} from the game" in removed.stdout
    assert f"PM to {others[1]}" in removed.stdout
    assert "Subject: Friday: you have left the game" in removed.stdout
    state = store.load(str(mod.log)).table
    assert state.game.phase == VOTE and not state.game.alive[NAMES.index(others[1])]
    removed = mod.run("remove", others[0], "--reason", "gone")  # the nominee: the round fails
    assert "The round ends as a failed election." in removed.stdout
    assert "Election Tracker: 1/3" in removed.stdout
    mod.refused("remove", others[0], "-r", "x", rule="R-MODKILL: ")
    done = mod.run("remove", hitler, "--reason", "banned")
    assert f"{hitler} was Hitler: Hitler has left the game" in done.stdout
    assert "Game over: the Liberals win" in done.stdout
    summary = json.loads(mod.run("audit", "--json", str(mod.log)).stdout)["summary"]
    assert (summary["winner"], summary["rule"], summary["how"]) == (
        "Liberals", "R-MODKILL", "hitler_removed")  # a removal, never counted as an execution


def test_a_removed_president_hands_the_policies_back(tmp_path):
    path = _game_at(tmp_path, "discard")
    state = store.load(str(path)).table
    hand, draw = list(state.game.hand), list(state.game.draw)
    done = store.record(str(path), lambda g: Remove(target=g.table.game.president, reason="x"), at=AT)
    after = done.loaded.table.game
    assert after.draw[:3] == hand and after.draw[3:] == draw and after.tracker == state.game.tracker + 1
    assert after.phase == "nominate"


def test_removing_the_president_retracts_the_chancellors_two_policies(mod):
    """R-MODKILL with the Chancellor holding two policies: the round fails, the two go back
    on top of the draw pile, and the Chancellor is told that PM no longer holds (this
    crashed before the typed events: the retraction's fields clashed with tell's)."""
    roles = store.load(str(mod.log)).table.game.roles
    assert roles[NAMES.index("Ann")] != "hitler"  # Ann is President; her removal ends no game
    chancellor = next(n for n, r in zip(NAMES, roles) if r != "hitler" and n != "Ann")
    mod.run("nominate", chancellor)
    mod.run("vote", *[word for name in NAMES for word in (name, "ja")])
    mod.run("discard", {"L": "liberal", "F": "fascist"}[store.load(str(mod.log)).table.game.hand[0]])
    mod.run("outbox", "--settle")  # the two policies reached the Chancellor (issue 40)
    before = store.load(str(mod.log)).table
    done = mod.run("remove", "Ann", "--reason", "gone")
    assert "PM to Ann" in done.stdout and f"PM to {chancellor}" in done.stdout
    assert "Please disregard the two policies I sent you as Chancellor" in done.stdout
    assert "The round ends as a failed election." in done.stdout
    after = store.load(str(mod.log)).table
    assert after.game.draw[:2] == before.game.hand and after.game.phase == "nominate"
    assert [(type(s), s.to) for s in after.secrets[-2:]] == [(RemovedNotice, "Ann"),
                                                           (Retraction, chancellor)]
    assert after.secrets[-1].what is Handed


def test_the_last_two_and_an_undealt_seat_are_not_removed(tmp_path):
    path = tmp_path / "w.yaml"
    store.new_game(str(path), NAMES, seed=SEED, deal_by="players", created=AT)
    with pytest.raises(Exception, match="R-MODKILL: the roles are not dealt yet"):
        store.record(str(path), lambda g: Remove(target=1, reason="x"), at=AT)
    state = start(parse_setup(store.new_header(NAMES, seed=SEED, salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=DAY1)))
    state.game.alive = [True, True, False, False, False]
    state.game.roles = ("liberal", "fascist", "hitler", "liberal", "liberal")
    with pytest.raises(Exception, match="R-MODKILL: a game needs two living players"):
        engine.apply(state, Remove(target=1, reason="x"))


def test_no_nominee_sets_the_term_limits_aside(tmp_path):
    """R-NO-NOMINEE: three Executions at five players leave two alive; the only one the
    Presidential Candidate could nominate is the last elected Chancellor."""
    from shmod.game.house import adjust

    setup = parse_setup(store.new_header(NAMES, seed=SEED, salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=DAY1,
                                         first="Ann"))
    state = start(replace(setup, rules=adjust(setup.rules, setup.variants)))
    state.game.alive = [True, True, False, False, False]
    state.game.term_chancellor, state.game.president = 1, 0
    engine.apply(state, Nominate(by=0, chancellor=1))  # allowed: nobody else is left
    assert state.game.phase == VOTE
    state2 = start(setup)
    state2.game.term_chancellor = 1
    with pytest.raises(Exception, match="R-TERM"):
        engine.apply(state2, Nominate(by=0, chancellor=1))  # others are eligible


def test_several_votes_in_one_command_all_or_nothing(mod):
    mod.run("nominate", "Bob")
    before = mod.log.read_bytes()
    err = mod.refused("vote", "Ann", "ja", "Bob", "nein", "Ann", "ja",
                      rule="R-VOTE: Ann is named twice in this command")  # issue 26 §4
    assert "Error" in err and mod.log.read_bytes() == before
    mod.refused("vote", "Ann", "ja", "Bob", rule="has no partner", code=2)
    done = mod.run("vote", "Ann", "ja", "Bob", "nein", "Cy", "ja")
    assert "Recorded as entries 4-6 of " in done.stderr and done.stderr.count("Recorded as") == 1
    assert "games/friday.yaml" in done.stderr
    mod.refused("vote", "Dee", "ja", "Ann", "nein", rule="R-VOTE: Ann has already voted")


def test_the_game_is_named_everywhere_and_g_comes_before_or_after(mod):
    done = mod.run("-g", str(mod.log), "nominate", "Bob")
    assert "Recorded as entry 2 of " in done.stderr and str(mod.log) in done.stderr
    assert mod.run("-h").stdout.startswith("Usage: shmod")
    assert mod.run("vote", "-h").stdout.startswith("Usage: shmod vote")
    pm = mod.run("pm", "Ann").stdout  # each of Ann's PMs framed (--show) with its subject
    assert pm.startswith("── PM to Ann (entry 0, role) ─")
    assert "\nSubject: Friday: your secret role\n\nYour secret role" in pm
    plain = Moderator(mod.folder).run("pm", "Ann")  # without --show: the heading on stderr
    assert plain.stdout.startswith("Subject: Friday: your secret role\n\nYour secret role")
    assert "── PM to Ann (entry 0, role) ─" in plain.stderr
    alone = mod.run("pm", "Ann", "--entry", "0")
    assert alone.stdout.startswith("Your secret role") and "Friday: your secret role" in alone.stderr


def test_a_title_names_the_game_in_every_pm(tmp_path):
    m = Moderator(tmp_path)
    m.run("new", *NAMES, "--title", "Friday game", "--seed", SEED)
    assert re.search(r"^Subject: Friday game: your secret role$", m.run("pm", "Ann").stdout, re.M)


def test_a_deadline_in_the_hour_the_clocks_skip_is_refused(mod):
    """R-DEADLINE: 02:30 on the night Berlin's clocks go forward (2027-03-28) never
    happens; it was moved to 03:30 without a word. Now refused, the log unchanged; the
    hour after it, the night the clocks go back (02:30 happens twice: the first is
    taken) and an explicit offset are accepted."""
    mod.refused("deadline", "2027-03-28 02:30", rule="R-DEADLINE: 2027-03-28 02:30 does not "
                "exist in Europe/Berlin")
    assert "2027-03-28 01:30 UTC (03:30 CEST" in mod.run("deadline", "2027-03-28 03:30", "--post").stdout
    assert "2027-10-31 00:30 UTC (02:30 CEST" in mod.run("deadline", "2027-10-31 02:30", "--post").stdout
    mod.run("deadline", "2027-03-28 02:30+01:00")
