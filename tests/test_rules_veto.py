"""R-VETO (and variant veto=secret-vote), with the tracker: chaos straight after a veto."""
from scripted import Table, chaos, header, refuse, table

from shmod.base.errors import OutOfTurn, RuleBroken, WrongActor
from shmod.base.records import replace
from shmod.game.events import (
    Chaos,
    Enacted,
    GameOver,
    VetoAnswered,
    Vetoed,
    VetoProposed,
    VetoRequested,
    VetoVoted,
)
from shmod.game.terms import DISCARD, ENACT, NOMINATE, RESHUFFLE, SPECIAL, VETO_ANSWER, VETO_VOTE


def vetoable(deck: str = "", players: int = 5, *, forum=False, **kw):
    """Five Fascist policies on the board by chaos (no powers), then ``deck`` on top
    (``forum``: at a forum's table)."""
    t = Table(header(players, deck="FFFFF" + deck, **kw), forum=forum)
    for _ in range(5):
        chaos(t)
    assert (t.game.fascist, t.game.tracker, t.game.phase) == (5, 0, NOMINATE)
    assert t.game.veto_unlocked
    return t


def to_enact(t, chancellor, discard):
    t.elect(chancellor)
    t.discard(discard)
    assert t.game.phase == ENACT


def test_veto_proposed_and_accepted():
    t = vetoable("LFF")
    to_enact(t, "Bob", "F")
    t.veto("propose")
    assert t.state.phase == VETO_ANSWER
    assert [(s.to, type(s)) for s in t.state.secrets[-1:]] == [("Ann", VetoRequested)]
    t.veto("accept")
    s = t.state
    assert (s.fascist, s.liberal, s.tracker, s.phase, t.president) == (5, 0, 1, NOMINATE, "Bob")
    assert s.discard[-2:] == ["L", "F"] and s.hand == []
    kinds = [type(p) for p in s.public[-4:]]
    assert kinds[:3] == [VetoProposed, VetoAnswered, Vetoed]  # public (R-THREAD)
    # a vetoed government is still the last elected one (R-TERM)
    assert (s.term_president, s.term_chancellor) == (0, 1)


def test_veto_vetoed_government_stays_term_limited_with_six_alive():
    t = vetoable("LFF", players=6, hitler="Fay")
    assert t.president == "Dan"  # 15 failed elections rotate six seats
    to_enact(t, "Eve", "F")
    t.veto("propose")
    t.veto("accept")
    assert t.president == "Eve"
    refuse(t, RuleBroken, "R-TERM", t.nominate, "Dan", match="last elected President")


def test_veto_of_two_liberal_policies_is_allowed():
    t = vetoable("LLL")
    to_enact(t, "Bob", "L")
    t.veto("propose")
    t.veto("accept")
    assert t.state.liberal == 0 and t.state.discard[-3:] == ["L", "L", "L"]


def test_veto_refused_must_enact_and_cannot_propose_again():
    t = vetoable("LFF")
    to_enact(t, "Bob", "F")
    t.veto("propose")
    refuse(t, WrongActor, "R-VETO", t.veto, "accept", by="Bob", match="Bob cannot propose or answer a veto now")
    refuse(t, RuleBroken, "R-VETO", t.veto, "propose", by="Ann", match="must accept or refuse")
    refuse(t, OutOfTurn, "R-PASS", t.enact, "L")
    t.veto("refuse")
    assert t.state.phase == ENACT
    refuse(t, RuleBroken, "R-VETO", t.veto, "propose", match="cannot be proposed again")
    t.enact("L")
    assert (t.state.liberal, t.state.tracker) == (1, 0)
    # the next session may veto again
    t.elect("Cat")
    t.discard("F")
    t.veto("propose")
    assert t.state.phase == VETO_ANSWER


def test_veto_needs_five_fascist_policies():
    for variant in ("rulebook", "secret-vote"):
        t = table(5, variants={"veto": variant})
        to_enact(t, "Bob", "F")
        refuse(t, RuleBroken, "R-VETO", t.veto, "propose", match="needs 5 Fascist policies on the board; there are 0")
    t = vetoable()
    refuse(t, OutOfTurn, "R-VETO", t.veto, "propose", by="Ann")  # no session yet
    to_enact(t, "Bob", "F")
    refuse(t, RuleBroken, "R-VETO", t.veto, "accept", by="Bob", match="may only propose")


def test_veto_with_the_tracker_at_two_triggers_chaos():
    t = vetoable("FFF" + "F")
    t.fail("Bob")
    t.fail("Cat")
    to_enact(t, "Dan", "F")  # Cat + Dan elected: the tracker stays at two
    assert t.state.tracker == 2
    t.veto("propose")
    t.veto("accept")
    s = t.state
    assert s.winner == "Fascists" and s.win and s.win.rule == "R-WIN-FAS"  # the chaos policy was F6
    assert [type(p) for p in s.public[-5:]] == [VetoAnswered, Vetoed, Chaos, Enacted, GameOver]


def test_veto_chaos_forgets_term_limits():
    t = vetoable("FFF" + "L")
    t.fail("Bob")
    t.fail("Cat")
    to_enact(t, "Dan", "F")
    t.veto("propose")
    t.veto("accept")
    s = t.state
    assert (s.liberal, s.tracker, s.term_limited(), s.phase) == (1, 0, {}, NOMINATE)
    assert t.president == "Dan"
    t.nominate("Cat")  # Cat was the last elected President


def test_veto_tracker_reset_election_variant_moves_tracker_from_zero_to_one():
    t = vetoable("FFF" + "L", variants={"tracker_reset": "election"})
    t.fail("Bob")
    t.fail("Cat")
    to_enact(t, "Dan", "F")
    assert t.state.tracker == 0
    t.veto("propose")
    t.veto("accept")
    assert (t.state.tracker, t.state.fascist, t.state.winner) == (1, 5, None)


def test_veto_chaos_with_an_empty_draw_pile_reshuffles_first():
    t = vetoable("FFF")
    s = t.state
    s.discard, s.draw = s.draw[3:], s.draw[:3]  # the next government draws the last three
    t.fail("Bob")
    t.fail("Cat")
    to_enact(t, "Dan", "F")
    assert s.draw == []
    t.veto("propose")
    t.veto("accept")
    assert (s.phase, s.tracker, s.fascist) == (RESHUFFLE, 3, 5)  # chaos waits for the pile
    refuse(t, OutOfTurn, "R-NOMINATE", t.nominate, "Eve")
    pile = sorted(s.discard)
    t.reshuffle("L" + "".join(c for c in pile if c == "F") + "L" * (pile.count("L") - 1))
    assert (s.liberal, s.fascist, s.tracker, s.phase) == (1, 5, 0, NOMINATE)
    assert len(s.draw) == len(pile) - 1


def test_veto_chaos_takes_the_pile_as_it_stands_then_reshuffles():
    t = vetoable("FFF" + "L")
    s = t.state
    s.discard, s.draw = s.draw[4:], s.draw[:4]
    t.fail("Bob")
    t.fail("Cat")
    to_enact(t, "Dan", "F")
    assert s.draw == ["L"]
    t.veto("propose")
    t.veto("accept")
    assert (s.liberal, s.tracker, s.phase) == (1, 0, RESHUFFLE)  # R-RESHUFFLE after the chaos
    t.reshuffle()
    assert s.phase == NOMINATE and len(s.draw) == 17 - 6  # all but the six on the board


# variant veto=secret-vote
def test_secret_vote_both_ja_vetoes():
    t = vetoable("LFF", variants={"veto": "secret-vote"})
    to_enact(t, "Bob", "F")
    refuse(t, RuleBroken, "R-VETO", t.veto, "propose", match="enacts first")
    t.enact("L")
    assert t.state.phase == VETO_VOTE and t.state.liberal == 0
    # R-PM / R-SECRET: only the Chancellor's PM names the choice; the President's lists
    # the two policies the President passed and says a veto vote is due.
    president_pm, chancellor_pm = t.state.secrets[-2:]
    assert (president_pm.to, chancellor_pm.to) == ("Ann", "Bob")
    assert (president_pm.cards, president_pm.chosen) == (("L", "F"), None)
    assert (chancellor_pm.cards, chancellor_pm.chosen) == (("L", "F"), "L")
    refuse(t, WrongActor, "R-VETO", t.veto, "ja", by="Cat")
    refuse(t, RuleBroken, "R-VETO", t.veto, "accept", by="Ann", match="secret vote")
    t.veto("ja", by="Bob")
    refuse(t, WrongActor, "R-VETO", t.veto, "nein", by="Bob", match="already voted on the veto")
    t.veto("ja", by="Ann")
    s = t.state
    assert (s.liberal, s.fascist, s.tracker, s.phase) == (0, 5, 1, NOMINATE)
    assert [p.vetoed for p in s.public if isinstance(p, VetoVoted)] == [True]


def test_secret_vote_one_nein_enacts_the_chosen_policy():
    t = vetoable("LFF", variants={"veto": "secret-vote"})
    to_enact(t, "Bob", "F")
    t.enact("L")
    t.veto("nein", by="Ann")
    t.veto("ja", by="Bob")
    assert (t.state.liberal, t.state.tracker, t.state.phase) == (1, 0, NOMINATE)
    assert t.state.chosen is None and t.state.veto_votes == {}


def test_secret_vote_veto_at_tracker_two_is_chaos():
    t = vetoable("FFF" + "F", variants={"veto": "secret-vote"})
    t.fail("Bob")
    t.fail("Cat")
    to_enact(t, "Dan", "F")
    t.enact("F")
    t.veto("ja", by="Cat")
    t.veto("ja", by="Dan")
    assert (t.state.winner, t.state.fascist) == ("Fascists", 6)


def test_veto_session_draw_is_not_touched_by_a_discard_phase_veto():
    t = vetoable()
    t.elect("Bob")
    assert t.state.phase == DISCARD
    refuse(t, OutOfTurn, "R-VETO", t.veto, "propose", by="Bob", match="cannot record a veto step now")


def test_veto_ends_the_session_with_a_reshuffle_when_fewer_than_three_remain():
    t = vetoable("LFF")
    s = t.state
    s.discard, s.draw = s.draw[4:], s.draw[:4]
    to_enact(t, "Bob", "F")
    t.veto("propose")
    t.veto("accept")
    assert (s.phase, s.tracker, len(s.draw)) == (RESHUFFLE, 1, 1)  # R-RESHUFFLE after a veto too
    t.reshuffle()
    assert (s.phase, len(s.draw), t.president) == (NOMINATE, 12, "Bob")


def test_refused_veto_does_not_carry_into_a_special_election_session():
    """R-VETO: "cannot be proposed again in *that* session"; a Special Election granted by
    the enactment after a refused veto starts a new session (custom board)."""
    t = table(7, deck="LFF" * 5)  # Gus is Hitler
    t.state.rules = replace(t.state.rules, powers=(None, None, None, SPECIAL, None),
                                        veto_zone=3)
    t.session("Bob", "L", "F")
    t.session("Cat", "L", "F")
    t.session("Dan", "L", "F")
    to_enact(t, "Eve", "L")  # Dan + Eve, three Fascist policies down: the veto is unlocked
    t.veto("propose")
    t.veto("refuse")
    t.enact("F")  # F4: Dan calls a Special Election
    t.power(SPECIAL, "Ann")
    to_enact(t, "Bob", "L")
    t.veto("propose")
    assert t.state.phase == VETO_ANSWER
