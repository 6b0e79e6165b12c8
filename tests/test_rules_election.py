"""Election rules: R-ROTATE, R-NOMINATE, R-TERM, R-TERM5, R-TERM-ANYONE, R-VOTE, R-MAJORITY,
R-HITLER-ELECTED, R-FAIL, R-CHAOS, R-TRACKER-RESET."""
import pytest
from scripted import chaos, eligible, refuse, table

from shmod.base.errors import GameIsOver, OutOfTurn, RuleBroken, WrongActor
from shmod.game.events import Chaos, Tallied, Win
from shmod.game.terms import DISCARD, NOMINATE, OVER, RESHUFFLE, VOTE


def kill(t, name):
    """Execute ``name`` through the 5-6 board (F3 Peek, F4 Execution) with an all-F deck."""
    for _ in range(3):
        t.session(eligible(t)[0] if eligible(t)[0] != name else eligible(t)[1], "F", "F")
        if t.state.power == "peek":
            t.power("peek")
    chan = next(n for n in eligible(t) if n != name)
    t.session(chan, "F", "F")
    assert t.state.power == "execute"
    t.power("execute", name)


# R-ROTATE
def test_rotate_passes_to_the_next_living_player():
    t = table(5, first="Dan")
    t.session("Ann", "F", "F")
    assert t.president == "Eve"
    t.fail("Bob")
    assert t.president == "Ann"  # wraps around


def test_rotate_skips_the_dead_and_only_the_candidate_nominates():
    t = table(6, hitler="Fay")
    kill(t, "Eve")  # Dan executed Eve in round 4
    assert t.president == "Fay"  # Eve's seat is skipped
    refuse(t, WrongActor, "R-NOMINATE", t.nominate, "Ann", by="Bob", match="waiting for Fay")


# R-NOMINATE
def test_nominate_another_living_player():
    t = table(5)
    t.nominate("Eve")
    assert t.state.phase == VOTE and t.chancellor == "Eve"


def test_nominate_self_or_dead_is_refused():
    t = table(5)
    refuse(t, RuleBroken, "R-NOMINATE", t.nominate, "Ann", match="cannot nominate themselves")
    t = table(6, hitler="Fay")
    kill(t, "Eve")
    refuse(t, RuleBroken, "R-NOMINATE", t.nominate, "Eve", match="Eve is dead")


def test_nominate_out_of_turn_is_refused():
    t = table(5)
    t.nominate("Bob")
    refuse(t, OutOfTurn, "R-NOMINATE", t.nominate, "Cat", match="cannot record a nomination now")


# R-TERM
def test_term_last_elected_president_and_chancellor_are_ineligible():
    t = table(6, hitler="Fay")
    t.session("Cat", "F", "F")  # Ann + Cat elected
    assert t.president == "Bob"
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Ann", match="Ann cannot be nominated Chancellor: last elected President")
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Cat", match="last elected Chancellor")
    t.nominate("Dan")


def test_term_failed_nominations_create_no_term_limits():
    for nominee in ("Bob", "Dan"):  # the failed candidate, then the failed nominee
        t = table(6, hitler="Fay")
        t.session("Cat", "F", "F")  # Ann + Cat elected
        t.fail("Dan")  # Bob + Dan fail
        assert t.president == "Cat"
        refuse(t, RuleBroken, "R-TERM", t.nominate, "Ann")  # still the last *elected* President
        t.nominate(nominee)
        assert t.state.phase == VOTE


# R-TERM5
def test_term5_five_alive_frees_the_last_president():
    t = table(5)
    t.session("Cat", "F", "F")
    t.nominate("Ann")  # Bob may nominate the last President
    t = table(5)
    t.session("Cat", "F", "F")
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Cat", match="last elected Chancellor")


def test_term5_counts_players_alive_not_seated():
    t = table(6, hitler="Fay")
    kill(t, "Cat")  # 5 alive; Dan (President) and his Chancellor are the last government
    last_president, last_chancellor = t.name(t.state.term_president), t.name(t.state.term_chancellor)
    assert t.president == "Eve" and last_president == "Dan"
    refuse(t, RuleBroken, "R-TERM", t.nominate, last_chancellor)
    t.nominate(last_president)


def test_term5_six_alive_keeps_the_last_president_limited():
    t = table(6, hitler="Fay")
    t.session("Cat", "F", "F")
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Ann", match=r"\(R-TERM5 lifts this only with five or fewer players alive\)$")


def test_term5_seated_variant_applies_only_to_five_player_games():
    t = table(6, hitler="Fay", variants={"term5": "seated"})
    kill(t, "Cat")
    assert len(t.state.living) == 5
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Dan",
           match=r"last elected President \(R-TERM5 lifts this only in games seated with five players\)$")
    t = table(5, variants={"term5": "seated"})
    t.session("Cat", "F", "F")
    t.nominate("Ann")


# R-TERM-ANYONE
def test_term_anyone_may_be_president_even_if_term_limited():
    t = table(6, hitler="Fay")
    t.session("Bob", "F", "F")  # Bob was Chancellor
    assert t.president == "Bob"  # and is now the Presidential Candidate
    t.nominate("Cat")
    assert t.state.phase == VOTE


def test_term_anyone_limits_still_bind_the_chancellorship():
    t = table(6, hitler="Fay")
    t.session("Bob", "F", "F")
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Ann")


# R-VOTE
def test_vote_every_living_player_once_and_result_only_when_all_are_in():
    t = table(5)
    t.nominate("Bob")
    for name in ("Eve", "Ann", "Bob", "Dan"):  # candidates vote too, in any order
        t.vote(name, True)
        assert not [p for p in t.state.public if isinstance(p, Tallied)]
    t.vote("Cat", False)
    tally = [p for p in t.state.public if isinstance(p, Tallied)][-1]
    assert tally.votes == (("Ann", True), ("Bob", True), ("Cat", False), ("Dan", True),
                           ("Eve", True))  # in seating order
    assert tally.elected is True


def test_vote_twice_or_out_of_turn_is_refused():
    t = table(5)
    refuse(t, OutOfTurn, "R-VOTE", t.vote, "Ann", True)
    t.nominate("Bob")
    t.vote("Cat", False)
    refuse(t, WrongActor, "R-VOTE", t.vote, "Cat", True, match="already voted; a vote is final")


def test_vote_dead_players_never_vote():
    t = table(6, hitler="Fay")
    kill(t, "Cat")
    t.nominate(eligible(t)[0])
    refuse(t, WrongActor, "R-VOTE", t.vote, "Cat", True, match="Cat is dead")
    for name in ("Ann", "Bob", "Dan", "Eve", "Fay"):
        t.vote(name, True)
    assert t.state.phase == DISCARD  # five votes complete the count
    tally = [p for p in t.state.public if isinstance(p, Tallied)][-1]
    assert ("Cat", None) in tally.votes and tally.alive == 5


# R-MAJORITY
@pytest.mark.parametrize(("players", "ja", "elected"), [
    (5, 3, True), (5, 2, False), (6, 4, True), (6, 3, False), (7, 4, True), (7, 3, False),
    (10, 6, True), (10, 5, False),
])
def test_majority_strictly_more_than_half(players, ja, elected):
    t = table(players)
    names = [t.name(s) for s in t.state.living]
    t.elect("Bob", ja={n: i < ja for i, n in enumerate(names)})
    assert (t.state.phase == DISCARD) is elected
    assert t.state.tracker == (0 if elected else 1)


def test_majority_counts_the_living():
    t = table(6, hitler="Fay")
    kill(t, "Cat")  # 5 alive: 3 Ja of 5 elects, where 3 of 6 would have been a tie
    names = [t.name(s) for s in t.state.living]
    t.elect(eligible(t)[0], ja={n: i < 3 for i, n in enumerate(names)})
    assert t.state.phase == DISCARD


# R-HITLER-ELECTED
def test_hitler_elected_after_three_fascist_policies_wins():
    t = table(5)  # Eve is Hitler
    for chan in ("Bob", "Cat", "Dan"):
        t.session(chan, "F", "F")
        if t.state.power:
            t.power("peek")
    assert t.state.fascist == 3 and t.president == "Dan"
    t.elect("Eve")
    assert (t.state.phase, t.state.win) == (OVER, Win("Fascists", "R-HITLER-ELECTED", "Eve"))
    refuse(t, GameIsOver, "R-HITLER-ELECTED", t.discard, "F", match="the game is over")


def test_hitler_elected_with_two_fascist_policies_is_no_win():
    t = table(5)
    t.session("Bob", "F", "F")
    t.session("Cat", "F", "F")
    t.elect("Eve")
    assert t.state.phase == DISCARD and t.state.winner is None
    assert t.state.not_hitler == set()


def test_hitler_elected_zone_confirms_other_chancellors_not_hitler():
    t = table(5)
    for chan in ("Bob", "Cat", "Dan"):
        t.session(chan, "F", "F")
        if t.state.power:
            t.power("peek")
    t.elect("Ann")
    assert t.state.not_hitler == {0}
    assert [p for p in t.state.public if isinstance(p, Tallied)][-1].not_hitler is True


# R-FAIL
def test_fail_advances_tracker_and_presidency_without_term_limits():
    t = table(5)
    t.fail("Bob")
    assert (t.state.tracker, t.president, t.state.term_chancellor) == (1, "Bob", None)
    t.fail("Ann")
    assert (t.state.tracker, t.president) == (2, "Cat")


# R-CHAOS
def test_chaos_enacts_the_top_policy_ignores_power_forgets_term_limits():
    t = table(5)  # all eleven Fascist policies on top
    t.session("Bob", "F", "F")
    t.session("Cat", "F", "F")  # Bob President, Cat Chancellor
    top = t.state.draw[0]
    assert (top, t.state.rules.power_at(3)) == ("F", "peek")
    limited = set(t.state.term_limited())
    assert limited
    chaos(t)
    assert (t.state.tracker, t.state.fascist) == (0, 3)
    assert [p.policy for p in t.state.public if isinstance(p, Chaos)] == [top]
    assert t.state.phase == NOMINATE and t.state.power is None  # the Peek slot is ignored
    assert t.state.term_limited() == {}


def test_chaos_the_formerly_limited_may_be_nominated():
    t = table(6, hitler="Fay")
    t.session("Cat", "F", "F")  # Ann + Cat
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Cat")
    chaos(t)  # Bob, Cat, Dan fail
    assert t.president == "Eve"
    t.nominate("Cat")


def test_chaos_reshuffles_when_fewer_than_three_remain():
    t = table(5)
    t.state.discard = t.state.draw[3:]
    t.state.draw = t.state.draw[:3]
    chaos(t)
    assert t.state.phase == RESHUFFLE and len(t.state.draw) == 2
    refuse(t, OutOfTurn, "R-NOMINATE", t.nominate, "Bob", match="reshuffled draw pile")
    t.reshuffle()
    assert t.state.phase == NOMINATE and len(t.state.draw) == 16


# R-TRACKER-RESET
def test_tracker_reset_on_enactment_not_on_election():
    t = table(5)
    t.fail("Bob")
    t.fail("Ann")
    t.elect("Dan")
    assert t.state.tracker == 2  # elected, nothing enacted yet
    t.discard("F")
    t.enact("F")
    assert t.state.tracker == 0


def test_tracker_reset_variant_election_resets_on_a_successful_vote():
    t = table(5, variants={"tracker_reset": "election"})
    t.fail("Bob")
    t.fail("Ann")
    t.elect("Dan")
    assert t.state.tracker == 0
    refuse(t, WrongActor, "R-DRAW", t.discard, "F", by="Dan")
