"""Forum moderation: deadlines, prods, replacements, corrections (docs/forum.md)."""
import random
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from scripted import AT

from shmod.base.errors import BadInput, GameIsOver, RuleBroken
from shmod.forum import corrections, deadlines
from shmod.forum.events import Briefing, Corrected
from shmod.forum.steps import Correct, Replace, SetDeadline
from shmod.forum.turns import legal_steps
from shmod.game import legal
from shmod.game.events import Handed, Tallied
from shmod.game.steps import Discard, Enact, Nominate, Reshuffle, Vote
from shmod.log import store
from shmod.texts import formats, forum_texts, messages, views

PLAIN = formats.get("plain")
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
LATER = datetime(2030, 1, 1, tzinfo=UTC)
EARLIER = datetime(2020, 1, 1, tzinfo=UTC)


@pytest.fixture
def path(tmp_path):
    out = tmp_path / "g.yaml"
    store.new_game(str(out), NAMES, seed="s7",
                   created=AT)  # Fay first; Ann, Eve Fascists, Gus Hitler
    return str(out)


def rec(path, step_or_make):
    make = step_or_make if callable(step_or_make) else (lambda g: step_or_make)
    return store.record(path, make, at=AT)


def seat(name):
    return NAMES.index(name)


def elect(path, president, chancellor, votes=None):
    rec(path, Nominate(by=seat(president), chancellor=seat(chancellor)))
    state = store.load(path).table
    for s in state.game.living:
        rec(path, Vote(by=s, vote=True if votes is None else votes))


def finish(path, rng):
    """Play legal steps (never a correction) until the game ends."""
    while True:
        state = store.load(path).table
        if state.game.winner:
            return state
        options = legal_steps(state)
        if state.game.phase == "vote":
            options = [o for o in options if o.vote]
        rec(path, rng.choice(options))


def post(done):
    return messages.post(views.public_view(done.loaded.table), done.public, PLAIN)


def test_new_user_story_replacement_correction_prod_to_the_end(path):
    elect(path, "Fay", "Gus")
    rec(path, Discard(by=seat("Fay"), policy="L"))
    rec(path, Enact(by=seat("Gus"), policy="L"))
    # Fay, who has been President, leaves; Zed takes seat 6.
    done = rec(path, lambda g: Replace(target=g.seating.seat("Fay"), name="Zed"))
    [pm] = done.secrets
    assert pm.to == "Zed" and isinstance(pm, Briefing)
    text = messages.pm_text(pm, PLAIN)
    assert "You replace Fay in seat 6" in text and "a Liberal" in text
    assert "Your three policies, top first: Liberal, Liberal, Liberal" in text
    assert "Zed replaces Fay in seat 6" in post(done)
    # A mistyped vote is corrected.
    rec(path, Nominate(by=seat("Gus"), chancellor=seat("Ann")))
    rec(path, Vote(by=seat("Ann"), vote=True))
    wrong = rec(path, Vote(by=seat("Bob"), vote=True))
    fix = rec(path, lambda g: Correct(entries=(corrections.last_step(g.table),),
                                   reason="Bob sent Nein"))
    words = post(fix)
    assert "voids the vote by Bob." in words and "entry 14" not in words and "Nein" not in words
    assert fix.loaded.table.game.votes == {seat("Ann"): True}
    assert wrong.entries[0]["kind"] == "vote"
    rec(path, Vote(by=seat("Bob"), vote=False))
    # One overdue vote is prodded.
    rec(path, SetDeadline(until="2026-11-20T17:00:00Z", zone="America/New_York"))
    for name in ("Cat", "Dan", "Eve", "Zed"):
        rec(path, lambda g, n=name: Vote(by=g.seating.seat(n), vote=True))
    view = views.public_view(store.load(path).table)
    assert forum_texts.deadline_line(view, LATER).endswith("OVERDUE: Gus")
    [(to, prod)] = forum_texts.prods(view, PLAIN, LATER)
    assert to == "Gus" and "your vote, Ja or Nein, on President Gus and Chancellor Ann" in prod
    assert "12:00 EST, America/New_York), and it has passed" in prod
    rec(path, Vote(by=seat("Gus"), vote=True))
    end = finish(path, random.Random(5))
    loaded = store.load(path)
    assert loaded.chain == [] and loaded.table.game.winner == end.game.winner
    voided_vote, correction = wrong.loaded.table.entries, fix.loaded.table.entries
    assert loaded.table.corrections == [(correction, (voided_vote,), "Bob sent Nein")]
    assert loaded.table.game.players[5] == "Zed" and loaded.table.replaced[0][:3] == (5, "Fay", "Zed")
    history = "\n".join(filter(None, (messages.post_words(views.public_view(loaded.table), e, PLAIN)
                                      for e in loaded.table.public)))
    assert "Correction" in history and "replaces Fay" in history


def test_refused_steps_leave_the_log_unchanged(path):
    elect(path, "Fay", "Gus")
    before = open(path, "rb").read()
    with pytest.raises(RuleBroken, match=r"R-CORRECT: entry 10 .the vote by Gus. came after entry 2"):
        rec(path, Correct(entries=(2,), reason="x"))  # the tally was posted after it
    with pytest.raises(RuleBroken, match="R-REPLACE: cannot seat 'ann'"):
        rec(path, Replace(target=seat("Bob"), name="ann"))
    with pytest.raises(RuleBroken, match="R-CORRECT: entry 99 is not a step in effect"):
        rec(path, Correct(entries=(99,), reason="x"))
    assert open(path, "rb").read() == before


def test_correction_voids_the_last_vote_and_a_step_that_ended_the_game(path):
    elect(path, "Fay", "Gus")  # entries 2-10 (posts 1 and 2 are 1 and 3); the tally is 10
    with pytest.raises(RuleBroken, match=r"R-CORRECT: entry 10 .the vote by Gus. was covered by "
                       "post 3"):  # its post (the tally) was printed for the thread
        rec(path, Correct(entries=(10,), reason="Gus sent Nein"))
    fix = rec(path, Correct(entries=(10,), reason="Gus sent Nein", force=True))
    assert fix.loaded.table.game.phase == "vote" and len(fix.loaded.table.game.votes) == 6
    assert isinstance(fix.post.events[0], Corrected) and "CORRECTION" in post(fix)  # loudly
    rec(path, Vote(by=seat("Gus"), vote=False))
    tally = [e for e in store.load(path).table.public if isinstance(e, Tallied)]
    assert [(t.ja, t.nein) for t in tally] == [(7, 0), (6, 1)]
    with pytest.raises(RuleBroken, match="not a step in effect"):
        rec(path, Correct(entries=(10,), reason="again"))


def test_a_correction_reopens_a_finished_game_only_when_forced(path):
    end = finish(path, random.Random(2))
    last = corrections.last_step(end)
    before = open(path, "rb").read()
    with pytest.raises(RuleBroken, match=r"R-CORRECT: the game is over.*--force"):
        rec(path, Correct(entries=(last,), reason="wrong card"))
    assert open(path, "rb").read() == before
    fix = rec(path, Correct(entries=(last,), reason="wrong card", force=True))
    assert fix.loaded.table.game.winner is None
    assert "CORRECTION" in post(fix)  # loud: the win was seen
    again = finish(path, random.Random(3))
    assert again.game.winner and store.load(path).chain == []
    with pytest.raises(GameIsOver):
        rec(path, SetDeadline(until="2030-01-01T00:00:00Z", zone="UTC"))


def test_voiding_a_step_voids_the_seeded_reshuffle_after_it(tmp_path):
    path = str(tmp_path / "r.yaml")
    store.new_game(path, NAMES, seed="s7", created=AT)
    rng = random.Random(1)
    while True:
        state = store.load(path).table
        done = rec(path, rng.choice([o for o in legal_steps(state) if not isinstance(o, Vote) or o.vote]))
        if any(entry["kind"] == "reshuffle" for entry in done.entries):
            break
    first = done.loaded.table.entries - len(done.entries) + 1  # the step, then its reshuffle
    assert done.entries[1]["kind"] == "reshuffle"
    fix = rec(path, Correct(entries=(first,), reason="x", force=True))
    assert fix.loaded.table.corrections[-1][1] == (first, first + 1)
    assert fix.loaded.table.game.reshuffles == 0


def test_deadline_parsing_and_lapse():
    now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    assert deadlines.until_text(deadlines.parse_deadline("48h", "UTC", now)) == "2026-11-23T12:00:00Z"
    assert deadlines.until_text(deadlines.parse_deadline("2026-11-23 18:00", "Europe/Berlin", now)) \
        == "2026-11-23T17:00:00Z"
    assert deadlines.until_text(deadlines.parse_deadline("2026-11-23T18:00-05:00", "UTC", now)) \
        == "2026-11-23T23:00:00Z"
    with pytest.raises(BadInput, match="neither a duration"):
        deadlines.parse_deadline("soon", "UTC", now)
    with pytest.raises(BadInput, match="unknown time zone"):
        deadlines.zone_info("Mars/Olympus")


def test_a_phase_deadline_belongs_to_its_phase(path):
    rec(path, SetDeadline(until="2020-01-01T00:00:00Z", zone="Europe/Berlin", scope="phase"))
    view = views.public_view(store.load(path).table)
    assert forum_texts.deadline_line(view, LATER).endswith("OVERDUE: Fay")
    assert "OVERDUE" not in forum_texts.deadline_line(view, EARLIER)
    rec(path, Nominate(by=seat("Fay"), chancellor=seat("Gus")))
    state = store.load(path).table
    assert deadlines.current(state) is None
    assert forum_texts.deadline_line(views.public_view(state), LATER) is None


def test_replacing_a_fascist_tells_the_newcomer_the_team(path):
    done = rec(path, Replace(target=seat("Eve"), name="Xia"))
    [pm] = done.secrets
    assert pm.knows == (("Ann", "fascist"), ("Gus", "hitler"))
    done = rec(path, Replace(target=seat("Ann"), name="Yul"))
    assert done.secrets[0].knows == (("Xia", "fascist"), ("Gus", "hitler"))
    view = views.public_view(done.loaded.table)
    assert forum_texts.named(view, "Yul", PLAIN) == "Yul (replacing Ann)"
    assert "Yul (replacing Ann)" in forum_texts.rules_card(view, PLAIN)


def test_a_name_that_held_another_seat_is_not_reused(path):
    """R-REPLACE / R-PM: PMs are addressed by name, so a newcomer named like a player who
    left another seat would be shown that player's secrets (here a Fascist's role PM)."""
    rec(path, Replace(target=seat("Ann"), name="Xia"))
    with pytest.raises(RuleBroken, match=r"R-REPLACE: .*Ann held seat 1"):
        rec(path, Replace(target=seat("Bob"), name="ann"))
    state = store.load(path).table
    assert state.game.players[seat("Bob")] == "Bob"
    done = rec(path, Replace(target=seat("Ann"), name="Ann"))  # back to the own seat
    assert done.loaded.table.game.players[0] == "Ann"


def test_a_replacement_is_not_briefed_with_a_voided_pm(path):
    """R-CORRECT: a voided discard's hand PM is not part of the seat's history."""
    elect(path, "Fay", "Gus")
    hand = store.load(path).table.game.hand
    done = rec(path, Discard(by=seat("Fay"), policy=hand[0]))
    assert [type(s) for s in done.secrets] == [Handed]
    rec(path, Correct(entries=(done.loaded.table.entries,), reason="misread"))
    [pm] = rec(path, Replace(target=seat("Gus"), name="Zed")).secrets
    assert isinstance(pm, Briefing) and pm.history == ()


def test_a_replacement_is_told_the_round_of_each_deed(path):
    """R-REPLACE: a deed whose own entry begins the next round (an enactment, the last vote
    of a failed election) is dated in the round it was done in, not the round it began."""
    elect(path, "Fay", "Gus")  # round 1; Gus votes last
    rec(path, Discard(by=seat("Fay"), policy=store.load(path).table.game.hand[0]))
    rec(path, lambda g: Enact(by=seat("Gus"), policy=g.table.game.hand[0]))  # begins round 2
    elect(path, "Gus", "Ann", votes=False)  # round 2; Gus's Nein, last, begins round 3
    assert store.load(path).table.game.round == 3
    [pm] = rec(path, Replace(target=seat("Gus"), name="Zed")).secrets
    assert isinstance(pm, Briefing)
    assert [(d.round, type(d.step).__name__) for d in pm.did] == [
        (1, "Vote"), (1, "Enact"), (2, "Nominate"), (2, "Vote")]
    text = messages.pm_text(pm, PLAIN)
    assert "(Round 1) enacted a" in text and "(Round 2) enacted" not in text


def test_a_dead_seat_is_not_replaced(path):
    state = store.load(path).table
    state.game.alive[seat("Dan")] = False
    from shmod.forum import engine

    with pytest.raises(RuleBroken, match="R-REPLACE: Dan is dead"):
        engine.apply(state, Replace(target=seat("Dan"), name="Zed"))


def test_prods_never_offer_to_act_for_a_player(path):
    elect(path, "Fay", "Gus")
    view = views.public_view(store.load(path).table)
    [(to, text)] = forum_texts.prods(view, PLAIN, LATER)
    assert to == "Fay" and "discard" in text and "Liberal" not in text
    assert "on your behalf" not in text and "default" not in text.lower()


def run(*args, env_game):
    return subprocess.run([sys.executable, "-m", "shmod", *args, "-g", env_game],
                          capture_output=True, text=True)


def test_cli_one_line_errors_and_rules_card(path):
    bad = run("correct", "2", "--reason", "oops", env_game=path)
    assert bad.returncode != 0 and bad.stderr.startswith("Error: R-CORRECT")
    assert len(bad.stderr.strip().splitlines()) == 1
    bad = run("deadline", "tomorrow", env_game=path)
    assert bad.returncode == 2 and "neither a duration" in bad.stderr
    card = run("rules", env_game=path)
    assert card.returncode == 0 and "Rules for this game: 7 players" in card.stdout
    assert "never votes or chooses for you" in card.stdout and "R-STALL" not in card.stdout
    ok = run("deadline", "48h", "--zone", "Asia/Tokyo", "--post", "--show", env_game=path)
    assert ok.returncode == 0 and "JST, Asia/Tokyo" in ok.stdout
    past = run("deadline", "2020-01-01 09:00", "--zone", "Asia/Tokyo", env_game=path)
    assert past.returncode == 1 and "R-DEADLINE" in past.stderr and "not in the future" in past.stderr
    with open(path, "a") as log:  # a deadline that has passed, as time goes by
        log.write('- {kind: deadline, until: "2020-01-01T00:00:00Z", zone: Asia/Tokyo}\n')
    status = run("status", env_game=path)
    assert "Deadline (this round): 2020-01-01 00:00 UTC (09:00 JST, Asia/Tokyo): passed " in status.stdout
    assert " ago — OVERDUE: Fay" in status.stdout
    prods = run("prods", "--show", env_game=path)  # framed on stdout as they are made
    assert "PM to Fay" in prods.stdout and "your nomination of a Chancellor" in prods.stdout
    assert "Please post it in the thread." in prods.stdout  # a nomination is public
    run("correct", "--reason", "typo in the date", env_game=path)
    audit = run("corrections", env_game=path)
    assert "entry 6 voids entry 4 (the deadline) — reason: typo in the date" in audit.stdout  # 5: the prod


def test_posts_again_and_the_audit_follow_replacements(path):
    from shmod.audit import log_audit
    from shmod.log import logfile
    from shmod.texts import thread_posts

    wrong = rec(path, Replace(target=seat("Bob"), name="Zed"))
    rec(path, Correct(entries=(wrong.loaded.table.entries - 1,), reason="wrong seat",
                   force=True))  # Bob plays on; the replacement's post was printed
    # (Zed, briefed with Bob's seat's secrets before the voiding, goes to no other seat:
    # R-PM; the newcomer for Cat's seat is another player)
    seated = rec(path, Replace(target=seat("Cat"), name="Zoe"))
    elect(path, "Fay", "Bob")
    loaded = store.load(path)
    cat = next(raw for raw in loaded.log.entries if raw.get("kind") == "vote"
               and raw.get("by") in ("Cat", "Zoe"))
    assert cat["by"] == "Zoe"  # Cat's seat votes under the newcomer's name
    again = thread_posts.earlier_post(loaded, seated.post.number, PLAIN).text
    assert "Zoe replaces Cat in seat 3" in again and "3. Cat: Ja" not in again
    tally = thread_posts.earlier_post(loaded, len(loaded.table.posts), PLAIN).text
    assert "3. Zoe: Ja" in tally
    assert thread_posts.earlier_post(loaded, 1, PLAIN).text.startswith("== Secret Hitler")
    report = log_audit.audit_log(logfile.read(path))
    assert report.problems == [] and report.judged == len(loaded.log.entries)
    tampered = logfile.parse(path, open(path, "rb").read().replace(b"by: Zoe", b"by: Cat"))
    [problem] = [p for p in log_audit.audit_log(tampered).problems if p.kind == "format"]
    assert "Cat was replaced by Zoe" in problem.message


def test_a_voided_enactment_is_not_in_the_reveal_or_the_audit_summary(tmp_path):
    from shmod.audit import log_audit
    from shmod.audit.random_games import random_game
    from shmod.log import logfile
    from shmod.texts import reveal

    sim = next(s for s in (random_game(7, random.Random(k)) for k in range(50))
               if any(isinstance(a, Enact) and isinstance(b, Reshuffle)
                      for a, b in zip(s.steps, s.steps[1:])))
    cut = next(i for i, (a, b) in enumerate(zip(sim.steps, sim.steps[1:]))
               if isinstance(a, Enact) and isinstance(b, Reshuffle)) + 2  # the enact and its reshuffle
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(sim.header, sim.steps[:cut - 2], at="2026-01-01T00:00:00Z"))
    path.chmod(0o600)
    hand = store.load(str(path)).table.game.hand
    wrong = sim.steps[cut - 2]
    right = next(p for p in ("L", "F") if p in hand and (p != wrong.policy or hand.count(p) == 2))
    rec(str(path), wrong)
    rec(str(path), Correct(entries=(cut - 1,), reason="wrong card", force=True))
    rec(str(path), Enact(by=wrong.by, policy=right))
    end = finish(str(path), random.Random(1))
    loaded = store.load(str(path))
    assert corrections.voided(end) == {cut - 1, cut}
    text = reveal.reveal_text(loaded, PLAIN, spoiler=False)
    assert text.count("Reshuffle ") == end.game.reshuffles
    summary = log_audit.audit_log(logfile.read(str(path))).summary
    assert summary is not None and summary.reshuffles == end.game.reshuffles
    assert len(summary.enacted) == end.game.liberal + end.game.fascist
    gov = [g for g in reveal.governments(loaded) if g.chancellor == sim.header["players"][wrong.by]]
    assert any(g.enacted == right and sorted(g.drawn) == sorted(g.president_discard + hand)
               for g in gov)


def test_log_text_names_the_newcomer_after_a_replacement(tmp_path):
    from shmod.forum.setup import new_header

    header = new_header(NAMES, seed="s7", salt="x", created="2026-01-01T00:00:00Z")
    steps = [Replace(target=seat("Fay"), name="Zed"),
             Nominate(by=seat("Fay"), chancellor=seat("Gus"))]
    path = tmp_path / "t.yaml"
    path.write_text(store.log_text(header, steps, at="2026-01-01T00:00:00Z"))
    assert "by: Zed" in path.read_text()
    assert store.load(str(path)).table.game.chancellor == seat("Gus")


SAME = ("players", "alive", "phase", "president", "chancellor", "anchor", "special",
        "term_president", "term_chancellor", "tracker", "liberal", "fascist", "draw",
        "discard", "votes", "hand", "power", "investigated", "not_hitler", "reshuffles",
        "round", "winner")


@pytest.mark.parametrize("players", range(5, 11))
def test_a_correction_is_as_if_the_step_was_never_recorded(players):
    """Property: voiding the latest step leaves exactly the state without it."""
    from shmod.audit.random_games import random_game
    from shmod.forum import engine
    from shmod.forum.setup import parse_setup, start

    rng = random.Random(players)
    sim = random_game(players, rng)
    setup = parse_setup(sim.header)
    for cut in sorted(rng.sample(range(1, len(sim.steps)), 8)):
        if isinstance(sim.steps[cut - 1], Reshuffle):
            continue
        without, corrected = start(setup), start(setup)
        for step in sim.steps[:cut - 1]:
            engine.apply(without, step)
            engine.apply(corrected, step)
        engine.apply(corrected, sim.steps[cut - 1])
        while corrected.game.phase == "reshuffle":
            engine.apply(corrected, Reshuffle(deck=tuple(legal.expected_reshuffle(corrected.game))))
        engine.apply(corrected, Correct(entries=(cut,), reason="typo"))
        for name in SAME:
            assert getattr(corrected.game, name) == getattr(without.game, name), (cut, name)
        if without.game.phase == "vote" and len(without.game.votes) >= 1:
            # Any vote of a ballot still open can be voided, not only the latest.
            first = min(n for n, s in corrected.history if isinstance(s, Vote) and
                        n > max(m for m, t in corrected.history if isinstance(t, Nominate)))
            voter = dict(corrected.history)[first].by
            engine.apply(corrected, Correct(entries=(first,), reason="wrong voter"))
            assert voter not in corrected.game.votes
            assert len(corrected.game.votes) == len(without.game.votes) - 1


def test_a_hand_written_unquoted_deadline_reads(path):
    with open(path, "a") as log:
        log.write("- {kind: deadline, until: 2026-11-23T17:00:00Z, zone: UTC}\n")
    loaded = store.load(path)
    found = deadlines.current(loaded.table)
    assert found is not None and (found.until, found.zone) == ("2026-11-23T17:00:00Z", "UTC")
    assert [n.problem for n in loaded.chain] == ["unchained"]
