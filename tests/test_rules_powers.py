"""Executive action: R-POWER, R-INVESTIGATE (+ R-PARTY), R-SPECIAL, R-NO-TARGET, R-PEEK,
R-EXECUTE, and R-TRACK after deaths."""
from scripted import Table, chaos, header, refuse, table

from shmod.base.errors import OutOfTurn, RuleBroken, WrongActor
from shmod.base.records import replace
from shmod.game.events import (
    Executed,
    Investigated,
    InvestigationResult,
    Peeked,
    PeekResult,
    PowerSkipped,
    Win,
)
from shmod.game.terms import EXECUTE, INVESTIGATE, NOMINATE, OVER, POWER, RESHUFFLE, SPECIAL


def public_since(t, entry):
    return [p for p in t.state.public if p.entry > entry]


# R-POWER
def test_power_goes_to_the_sitting_president_and_must_be_used_first():
    t = table(9)  # board 9-10: Investigate on the first Fascist slot
    t.session("Cat", "F", "F")
    assert (t.state.phase, t.state.power, t.president) == (POWER, INVESTIGATE, "Ann")
    refuse(t, OutOfTurn, "R-NOMINATE", t.nominate, "Dan", by="Bob", match="Investigate Loyalty")
    refuse(t, OutOfTurn, "R-POWER", t.power, EXECUTE, "Dan", match="holds Investigate Loyalty, not Execution")
    refuse(t, WrongActor, "R-INVESTIGATE", t.power, INVESTIGATE, "Dan", by="Cat")
    t.power(INVESTIGATE, "Dan")
    assert (t.state.phase, t.state.power, t.president) == (NOMINATE, None, "Bob")


def test_power_not_granted_by_chaos_or_a_liberal_policy():
    t = table(9, deck="LFF")
    t.session("Cat", "F", "L")
    assert t.state.phase == NOMINATE
    chaos(t)  # the top policy is Fascist, on the Investigate slot
    assert (t.state.fascist, t.state.phase, t.state.power) == (1, NOMINATE, None)
    refuse(t, OutOfTurn, "R-INVESTIGATE", t.power, INVESTIGATE, "Ann")


# R-INVESTIGATE and R-PARTY
def test_investigate_learns_party_secretly_hitler_shows_fascist():
    t = table(9)  # Ivy is Hitler; Fay, Gus, Hal Fascists
    t.session("Cat", "F", "F")
    mark = t.state.entries
    t.power(INVESTIGATE, "Ivy")
    secret = t.state.secrets[-1]
    assert secret == InvestigationResult(secret.entry, "Ann", target="Ivy", party="Fascist")
    shown = [p for p in public_since(t, mark - 1) if isinstance(p, Investigated)]
    assert shown == [Investigated(shown[0].entry, president="Ann", target="Ivy")]  # no result
    t.session("Dan", "F", "F")  # Bob + Dan; Bob investigates
    t.power(INVESTIGATE, "Eve")
    result = t.state.secrets[-1]
    assert isinstance(result, InvestigationResult)
    assert (result.to, result.target, result.party) == ("Bob", "Eve", "Liberal")


def test_investigate_never_twice_never_self():
    t = table(9)
    t.session("Cat", "F", "F")
    refuse(t, RuleBroken, "R-INVESTIGATE", t.power, INVESTIGATE, "Ann", match="cannot investigate themselves")
    t.power(INVESTIGATE, "Dan")
    t.session("Dan", "F", "F")
    refuse(t, RuleBroken, "R-INVESTIGATE", t.power, INVESTIGATE, "Dan", match="already been investigated")


# R-SPECIAL
def seven_to_special(*, forum=False):
    t = Table(header(7), forum=forum)  # Gus is Hitler; Eve and Fay Fascists
    t.session("Bob", "F", "F")  # Ann + Bob: F1, no power
    t.session("Cat", "F", "F")  # Bob + Cat: F2, Investigate
    t.power(INVESTIGATE, "Ann")
    t.session("Dan", "F", "F")  # Cat + Dan: F3, Special Election
    assert (t.game.power, t.president) == (SPECIAL, "Cat")
    return t


def test_special_election_term_limited_target_and_rotation_resumes_after_the_caller():
    t = seven_to_special()
    t.power(SPECIAL, "Dan")  # Dan is the last elected Chancellor: may still be President
    assert (t.president, t.state.special) == ("Dan", True)
    t.fail("Eve")
    assert t.president == "Dan"  # the player after the caller: President twice in a row
    assert t.state.tracker == 1


def test_special_election_far_target_nobody_skipped():
    t = seven_to_special()
    t.power(SPECIAL, "Fay")
    t.session("Ann", "F", "F")  # Fay + Ann: F4 gives Fay an Execution
    t.power(EXECUTE, "Bob")
    assert t.president == "Dan"  # back to the player after Cat, the caller


def test_special_election_self_or_dead_refused():
    t = seven_to_special()
    refuse(t, RuleBroken, "R-SPECIAL", t.power, SPECIAL, "Cat", match="cannot choose themselves")
    t = table(5, hitler="Eve")
    t.state.rules = replace(t.state.rules, powers=(EXECUTE, SPECIAL, None, None, None))
    t.session("Bob", "F", "F")
    t.power(EXECUTE, "Dan")
    t.session("Cat", "F", "F")
    refuse(t, RuleBroken, "R-SPECIAL", t.power, SPECIAL, "Dan", match="Dan is dead")


# R-NO-TARGET (custom board: every slot Investigate)
def test_no_target_power_is_skipped_and_logged():
    t = table(5, deck="FFL" * 5)  # Eve is Hitler
    t.state.rules = replace(t.state.rules, powers=(INVESTIGATE,) * 5)
    for chancellor, target in (("Bob", "Bob"), ("Cat", "Cat"), ("Dan", "Dan"), ("Ann", "Ann")):
        t.session(chancellor, "L", "F")
        t.power(INVESTIGATE, target)
    assert t.president == "Eve" and t.state.investigated == {0, 1, 2, 3}
    t.session("Bob", "L", "F")  # F5: nobody left for Eve to investigate
    skipped = [p for p in t.state.public if isinstance(p, PowerSkipped)]
    assert [(p.power, p.president) for p in skipped] == [(INVESTIGATE, "Eve")]
    assert (t.state.phase, t.president) == (NOMINATE, "Ann")
    refuse(t, OutOfTurn, "R-INVESTIGATE", t.power, INVESTIGATE, "Ann", by="Eve")


def test_no_target_not_applied_while_someone_is_left():
    t = table(5, deck="FFL" * 5)
    t.state.rules = replace(t.state.rules, powers=(INVESTIGATE,) * 5)
    for chancellor, target in (("Bob", "Bob"), ("Cat", "Cat"), ("Dan", "Dan"), ("Ann", "Eve")):
        t.session(chancellor, "L", "F")
        t.power(INVESTIGATE, target)
    t.session("Bob", "L", "F")
    assert (t.state.phase, t.president) == (POWER, "Eve")
    refuse(t, RuleBroken, "R-INVESTIGATE", t.power, INVESTIGATE, "Bob", match="already been investigated")
    t.power(INVESTIGATE, "Ann")


# R-PEEK
def five_to_peek(deck=""):
    t = table(5, deck=deck)
    t.session("Bob", "F", "F")
    t.session("Cat", "F", "F")
    t.session("Dan", "F", "F")
    assert (t.state.power, t.president) == ("peek", "Cat")
    return t


def test_peek_shows_the_top_three_secretly_order_unchanged():
    t = five_to_peek("FFFFFF" + "FFF" + "LFL")
    before = list(t.state.draw)
    refuse(t, WrongActor, "R-PEEK", t.power, "peek", by="Dan")
    t.power("peek")
    assert t.state.draw == before
    peek = t.state.secrets[-1]
    assert isinstance(peek, PeekResult) and (peek.to, peek.cards) == ("Cat", ("L", "F", "L"))
    assert [p.president for p in t.state.public if isinstance(p, Peeked)] == ["Cat"]
    t.elect("Bob", ja={"Ann": True, "Bob": True, "Cat": True, "Dan": False, "Eve": False})
    assert t.state.hand == ["L", "F", "L"]


def test_peek_only_when_granted():
    t = table(5)
    refuse(t, OutOfTurn, "R-PEEK", t.power, "peek")
    t = five_to_peek()
    t.power("peek")
    refuse(t, OutOfTurn, "R-PEEK", t.power, "peek", by="Dan")


# R-EXECUTE
def five_to_execution():
    t = five_to_peek("FFF" * 3 + "FLL" * 2)
    t.power("peek")
    t.session("Ann", "L", "F")  # Dan + Ann: F4, Execution
    assert (t.state.power, t.president) == (EXECUTE, "Dan")
    return t


def test_execute_kills_and_reveals_nothing_but_not_hitler():
    t = five_to_execution()
    mark = t.state.entries
    t.power(EXECUTE, "Bob")
    assert t.state.alive == [True, False, True, True, True]
    events = public_since(t, mark)
    assert [(p.president, p.target, p.hitler) for p in events if isinstance(p, Executed)] == [
        ("Dan", "Bob", False)]
    assert "liberal" not in repr(events).lower()
    assert t.president == "Eve"
    # dead players may not be nominated, vote, or be targeted again
    refuse(t, RuleBroken, "R-NOMINATE", t.nominate, "Bob", match="Bob is dead")
    t.session("Cat", "L", "F")  # Eve + Cat: F5, another Execution
    refuse(t, RuleBroken, "R-EXECUTE", t.power, EXECUTE, "Bob", match="Bob is dead and cannot be targeted")
    refuse(t, RuleBroken, "R-EXECUTE", t.power, EXECUTE, "Eve", match="cannot execute themselves")


def test_execute_hitler_wins_for_the_liberals_and_reveals_hitler():
    t = five_to_execution()
    t.power(EXECUTE, "Eve")
    s = t.state
    assert (s.phase, s.win) == (OVER, Win("Liberals", "R-WIN-LIB", hitler="Eve"))
    assert [p.hitler for p in s.public if isinstance(p, Executed)] == [True]


# R-TRACK: the board never changes when players die
def test_track_board_fixed_by_players_seated():
    t = table(7)
    t.state.rules = replace(t.state.rules, powers=(EXECUTE, None, SPECIAL, EXECUTE, EXECUTE))
    t.session("Bob", "F", "F")
    t.power(EXECUTE, "Cat")
    assert len(t.state.living) == 6 and t.state.rules.board == "7-8"
    t.session("Dan", "F", "F")
    t.session("Eve", "F", "F")
    assert t.state.power == SPECIAL  # a 5-6 board would have granted Policy Peek here


def test_peek_comes_after_the_end_of_session_reshuffle():
    t = table(5)
    t.session("Bob", "F", "F")
    t.session("Cat", "F", "F")
    s = t.state
    s.discard, s.draw = s.discard + s.draw[5:], s.draw[:5]  # the third session leaves two
    t.elect("Dan")
    t.discard("F")
    t.enact("F")
    assert (s.phase, s.power) == (RESHUFFLE, None)  # R-RESHUFFLE first, then the power
    refuse(t, OutOfTurn, "R-PEEK", t.power, "peek")
    t.reshuffle("LLF" + "F" * 7 + "L" * 4)
    assert s.power == "peek" and t.president == "Cat"
    t.power("peek")
    assert isinstance(s.secrets[-1], PeekResult) and s.secrets[-1].cards == ("L", "L", "F")


def test_investigate_dead_player_refused():
    t = table(5)
    t.state.rules = replace(t.state.rules, powers=(EXECUTE, INVESTIGATE, None, None, None))
    t.session("Bob", "F", "F")
    t.power(EXECUTE, "Cat")
    t.session("Dan", "F", "F")
    refuse(t, RuleBroken, "R-INVESTIGATE", t.power, INVESTIGATE, "Cat", match="Cat is dead")
    t.power(INVESTIGATE, "Dan")


def test_special_election_chaos_in_the_special_round_resumes_after_the_caller():
    t = seven_to_special()
    t.power(SPECIAL, "Fay")
    t.fail("Ann")  # Fay's special election fails: Dan (after Cat, the caller) is next
    assert t.president == "Dan"
    t.fail("Ann")
    t.fail("Ann")  # Eve's fails: the third in a row, chaos
    assert (t.state.tracker, t.state.fascist) == (0, 4) and t.state.power is None
    assert t.president == "Fay"


def test_special_election_caller_executed_rotation_continues_after_the_callers_seat():
    t = seven_to_special()
    t.power(SPECIAL, "Fay")
    t.session("Ann", "F", "F")  # Fay + Ann: F4, Execution
    t.power(EXECUTE, "Cat")  # the caller dies
    assert t.president == "Dan"
