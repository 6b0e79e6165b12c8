"""Legislative session: R-DRAW, R-PASS, R-SECRET, R-RESHUFFLE."""
import random

import pytest
from scripted import random_play, refuse, seeded, table

from shmod.base.errors import OutOfTurn, RuleBroken, WrongActor
from shmod.game import engine
from shmod.game.events import Drawn, Enacted, Handed
from shmod.game.legal import legal_steps
from shmod.game.steps import Reshuffle
from shmod.game.terms import DISCARD, ENACT, NOMINATE, RESHUFFLE


# R-DRAW
def test_draw_president_is_sent_the_top_three_secretly():
    t = table(5, deck="LFL")
    t.elect("Bob")
    draws = [s for s in t.state.secrets if isinstance(s, Drawn)]
    assert [(s.to, s.cards) for s in draws] == [("Ann", ("L", "F", "L"))]
    assert len(t.state.draw) == 14 and t.state.phase == DISCARD
    t.discard("liberal")
    assert t.state.hand == ["F", "L"] and t.state.phase == ENACT


def test_draw_discard_must_be_in_the_hand_and_by_the_president():
    t = table(5, deck="LLL")
    t.elect("Bob")
    refuse(t, RuleBroken, "R-DRAW", t.discard, "F", match=r"hand \[L, L, L\] has no Fascist")
    refuse(t, WrongActor, "R-DRAW", t.discard, "L", by="Bob", match="Bob cannot discard a policy now")
    refuse(t, OutOfTurn, "R-PASS", t.enact, "L", match="cannot record an enactment now")


# R-PASS
def test_pass_chancellor_gets_the_other_two_and_enacts_one():
    t = table(5, deck="LFF")
    t.elect("Bob")
    t.discard("F")
    hands = [s for s in t.state.secrets if isinstance(s, Handed)]
    assert [(s.to, s.cards) for s in hands] == [("Bob", ("L", "F"))]
    t.enact("L")
    assert (t.state.liberal, t.state.fascist, t.state.discard) == (1, 0, ["F", "F"])
    assert t.state.phase == NOMINATE and t.president == "Bob"


def test_pass_enact_must_be_in_the_hand_and_by_the_chancellor():
    t = table(5, deck="LFF")
    t.elect("Bob")
    t.discard("L")
    refuse(t, RuleBroken, "R-PASS", t.enact, "L", match=r"hand \[F, F\] has no Liberal")
    refuse(t, WrongActor, "R-PASS", t.enact, "F", by="Ann", match="Ann cannot enact a policy now")
    refuse(t, OutOfTurn, "R-DRAW", t.discard, "F")


def test_refused_steps_leave_entry_numbers_alone():
    """Core bug fixed: a step refused by its handler used to bump ``state.entries``,
    so every later PM and post carried the wrong entry number."""
    t = table(5, deck="FFF")
    t.elect("Bob")
    for _ in range(3):
        refuse(t, RuleBroken, "R-DRAW", t.discard, "L")
    t.discard("F")
    assert t.state.entries == len(t.steps) == 7
    assert t.state.secrets[-1].entry == 7


# R-SECRET
def test_secret_discards_never_reach_the_table():
    t = table(5, deck="LFL" + "FFL")
    t.session("Bob", "L", "F")
    t.session("Cat", "F", "L")
    public = [p for p in t.state.public if p.entry > 0]
    text = repr(public)
    assert "discard" not in text.lower()
    assert "hand" not in text and "cards" not in text
    assert [p.policy for p in public if isinstance(p, Enacted)] == ["F", "L"]


def test_secret_hands_go_only_to_the_government():
    t = table(5, deck="LFL")
    t.elect("Bob")
    t.discard("L")
    assert {(s.to, type(s)) for s in t.state.secrets if s.entry > 0} == {("Ann", Drawn), ("Bob", Handed)}


# R-RESHUFFLE
def test_reshuffle_when_fewer_than_three_remain_after_a_session():
    t = table(5)
    t.state.discard, t.state.draw = t.state.draw[5:], t.state.draw[:5]
    t.elect("Bob")
    t.discard("F")
    t.enact("F")
    assert t.state.phase == RESHUFFLE and len(t.state.draw) == 2
    refuse(t, OutOfTurn, "R-NOMINATE", t.nominate, "Cat")
    refuse(t, RuleBroken, "R-RESHUFFLE", t.reshuffle, "L" * 7 + "F" * 9,
           match="not the draw and discard piles together")
    t.reshuffle("L" * 6 + "F" * 10)  # the 16 policies not on the board
    assert (t.state.phase, len(t.state.draw), t.state.discard) == (NOMINATE, 16, [])


def test_reshuffle_not_due_with_three_left():
    t = table(5)
    t.state.discard, t.state.draw = t.state.draw[6:], t.state.draw[:6]
    t.session("Bob", "F", "F")
    assert t.state.phase == NOMINATE and len(t.state.draw) == 3
    refuse(t, OutOfTurn, "R-RESHUFFLE", t.reshuffle, None)


def seeded_at_reshuffle():
    """A random seeded game on the game floor, played to its first reshuffle."""
    for n in range(40):
        rng = random.Random(n)
        state = seeded(5, f"{rng.getrandbits(128):032x}")
        random_play(state, rng, until=(RESHUFFLE,))
        if state.phase == RESHUFFLE:
            return state
    raise AssertionError("no random game reached a reshuffle")


def test_reshuffle_seeded_order_must_follow_the_seed():
    state = seeded_at_reshuffle()
    [right] = legal_steps(state)
    wrong = tuple(sorted(right.deck))
    wrong = wrong if wrong != right.deck else wrong[::-1]
    assert wrong != right.deck
    with pytest.raises(RuleBroken, match=r"^R-RESHUFFLE: .*not the order the seed gives"):
        engine.apply(state, Reshuffle(deck=wrong))
    assert state.reshuffles == 0 and state.phase == RESHUFFLE
    engine.apply(state, right)
    assert state.reshuffles == 1
