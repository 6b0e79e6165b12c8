"""Issue 36: claims (R-CLAIM). What a player said in the thread about their session, power
or role is recorded as bookkeeping: refused with one line where it makes no sense, voided
with the session or power it is about (R-CORRECT), alone making no post, shown with what
was said during the game and marked true or false against what was dealt once the game is
over, and moving nothing: the cheater's search inserts claims anywhere in random games and
finds no deal, lapse draw or reshuffle moved.

``SHMOD_FORUM_GAMES`` and ``SHMOD_FORUM_SEED`` (tests/test_forum_properties.py) run the
search longer.
"""
from __future__ import annotations

import random

import pytest
from claiming import random_claim
from scripted import AT, Table, eligible, forum_table, refuse
from test_forum_properties import Plan, games as random_games, outcome, renumbered

from shmod.base.errors import BadInput, RuleBroken
from shmod.forum import claims, engine, thread
from shmod.forum.events import Claimed
from shmod.forum.names import Seating
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Claim, Correct, Lapse, Posted, Remove, Word
from shmod.game.rules import parse_cards
from shmod.game.steps import Reshuffle
from shmod.game.terms import OVER, Policy
from shmod.log import entries, store
from shmod.texts import claim_texts, formats, messages, reveal, thread_posts, views

PLAIN = formats.Plain()


def cards(text: str) -> tuple[Policy, ...]:
    return parse_cards(text)


def said(t: Table, who: str, about: str, round_: int = 0, drawn: str = "", passed: str = "",
         target: str | None = None, party: str | None = None, role: str | None = None) -> int:
    """Record a claim; its entry number."""
    t.apply(Claim(t.seat(who), about, round_, cards(drawn), cards(passed),  # type: ignore[arg-type]
                  None if target is None else t.seat(target), party, role))  # type: ignore[arg-type]
    return t.game.entries


def first_session() -> Table:
    """Five players (Dan Fascist, Eve Hitler); Ann draws F, F, L, discards F, passes F, L
    to Bob, who has not enacted yet."""
    t = forum_table(5, deck="FFL")
    t.elect("Bob")
    t.discard("F")
    return t


def test_a_session_s_claims_are_recorded_as_said_and_known_true_or_false():
    t = first_session()
    ann = said(t, "Ann", "president", 1, "LFF")  # the same policies in another order: true
    bob = said(t, "Bob", "chancellor", 1, "FF")  # he received F, L: false
    cat = said(t, "Cat", "role", role="liberal")
    dan = said(t, "Dan", "role", role="liberal")  # a Fascist's hard claim: false
    assert {n: f.true for n, f in t.state.claims.items()} == {ann: True, bob: False,
                                                              cat: True, dan: False}
    shown = [e for e in t.state.public if isinstance(e, Claimed)]
    assert [(e.name, e.about, e.round, "".join(e.cards)) for e in shown] == [
        ("Ann", "president", 1, "LFF"), ("Bob", "chancellor", 1, "FF"), ("Cat", "role", 0, ""),
        ("Dan", "role", 0, "")]
    assert t.game.phase == "enact" and t.game.draw[:3] == list(cards("FFF"))  # moved nothing


def test_a_claim_makes_no_post_and_shows_in_the_next():
    t = first_session()
    t.apply(Posted(t.game.entries))
    said(t, "Ann", "president", 1, "FFL")
    assert thread.news(t.state) == []  # alone it makes no post (R-CLAIM)
    t.enact("L")
    covered = thread.news(t.state)
    assert isinstance(covered[0], Claimed)
    text = "\n".join(claim_texts.sentence(e, PLAIN) for e in covered if isinstance(e, Claimed))
    assert text == "Claim by Ann (President, round 1): drew FFL."


@pytest.mark.parametrize(("claim", "words"), [
    # a Chancellor's claim of three cards, a President's of two
    (("Bob", "president", 1, "FFL"), "Bob was Chancellor in round 1, not President: a "
     "Chancellor's claim is the two policies received, not 3"),
    (("Ann", "chancellor", 1, "FL"), "Ann was President in round 1, not Chancellor"),
    (("Ann", "president", 1, "FL"), "a President's claim is the three policies drawn, not 2"),
    (("Bob", "chancellor", 1, "FLL"), "a Chancellor's claim is the two policies received, "
     "not 3"),
    # a session that did not happen, or not theirs
    (("Bob", "president", 2, "FFL"), "no legislative session sat in round 2"),
    (("Cat", "president", 1, "FFL"), "Cat sat in no government in round 1 (Ann and Bob did)"),
    # a pass that is not two of the three claimed
    (("Ann", "president", 1, "FFF", "FL"), "FL is not two of FFF"),
    # an investigation or a peek that nobody made
    (("Ann", "investigation", 1, "", "", "Bob", "Fascist"), "Ann did not investigate Bob in "
     "round 1"),
    (("Ann", "peek", 1, "FFL"), "Ann did not use Policy Peek in round 1"),
])
def test_a_claim_that_makes_no_sense_is_refused_naming_why(claim, words):
    t = first_session()
    refuse(t, RuleBroken, "R-CLAIM", said, t, *claim, match=words.replace("(", r"\(")
           .replace(")", r"\)"))


def test_a_chancellor_s_claim_waits_for_the_hand_and_a_dead_player_claims_nothing():
    t = forum_table(5, deck="FFL")
    t.elect("Bob")
    refuse(t, RuleBroken, "R-CLAIM", said, t, "Bob", "chancellor", 1, "FL",
           match="has not been passed the two policies of round 1 yet")
    refuse(t, RuleBroken, "R-CLAIM", said, t, "Ann", "president", 1, "FFL", "FL",
           match="has not passed two policies in round 1 yet")
    said(t, "Ann", "president", 1, "FFL")  # the draw is hers as soon as she is elected
    t.apply(Remove(t.seat("Cat"), "left the forum"))
    refuse(t, RuleBroken, "R-CLAIM", said, t, "Cat", "role", role="liberal",
           match="Cat was removed from the game: a dead player says nothing")


def test_no_role_is_claimed_before_the_deal_from_the_players_words():
    head = new_header(["Ann", "Bob", "Cat", "Dan", "Eve"], seed="ab" * 16, salt="cd" * 16,
                      created=AT, deal_by="players")
    state = start(parse_setup(head))
    with pytest.raises(RuleBroken, match="R-CLAIM: the roles are not dealt yet"):
        engine.apply(state, Claim(0, "role", role="liberal"))
    engine.apply(state, Word(0, "apple"))
    assert not state.claims


def test_an_entry_s_form_is_checked_before_its_rule():
    seating = Seating(("Ann", "Bob", "Cat", "Dan", "Eve"))
    good = {"kind": "claim", "by": "Ann", "about": "president", "round": 1, "cards": "FFL",
            "passed": "FL"}
    step = entries.parse_step(good, seating)
    assert step == Claim(0, "president", 1, cards("FFL"), cards("FL"))
    assert entries.to_entry(step, seating.players) == good
    for bad, words in [({**good, "cards": "FXL"}, "'X' is not a policy"),
                       ({**good, "about": "vote"}, "about must be one of"),
                       ({**good, "role": "liberal"}, "a claim about president has no role"),
                       ({k: v for k, v in good.items() if k != "round"}, "is missing round"),
                       ({**good, "round": 0}, "round must be a round's number"),
                       ({**good, "cards": "FFLFL"}, "one to three policies"),
                       ({"kind": "claim", "by": "Ann", "about": "investigation", "round": 1,
                         "target": "Bob", "party": "hitler"}, "is not a policy"),
                       ({"kind": "claim", "by": "Ann", "about": "role", "role": "king"},
                        "role must be one of")]:
        with pytest.raises(BadInput, match=words):
            entries.parse_step(bad, seating)


def test_a_correction_voids_the_claims_about_what_it_voids_and_keeps_the_others():
    t = first_session()
    discard = t.game.entries
    drew = said(t, "Ann", "president", 1, "FFL")
    passed = said(t, "Ann", "president", 1, "FFL", "FL")
    hand = said(t, "Bob", "chancellor", 1, "FL")
    role = said(t, "Cat", "role", role="liberal")
    t.apply(Correct((discard,), "the President discarded the Liberal"))
    assert set(t.state.corrections[-1][1]) == {discard, passed, hand}  # R-CORRECT
    assert sorted(t.state.claims) == [drew, role]
    assert [e.entry for e in claim_texts.in_effect(t.state.public)] == [drew, role]
    t.discard("L")  # the session goes on from the draw, which stands
    fresh = said(t, "Bob", "chancellor", 1, "FF")
    assert t.state.claims[fresh].true and t.state.claims[drew].true


def test_a_claim_typed_wrong_is_voided_alone_after_later_steps():
    t = first_session()
    mistyped = said(t, "Ann", "president", 1, "LLL")
    t.enact("L")
    t.elect("Cat")  # steps after it act on nothing it did
    t.apply(Correct((mistyped,), "Ann said FFL"))
    assert t.state.corrections[-1][1] == (mistyped,) and not t.state.claims
    assert t.game.phase == "discard" and t.game.liberal == 1


def test_voiding_the_election_voids_the_presidents_claim_of_its_draw():
    t = forum_table(5, deck="FFL")
    t.elect("Bob")
    last_vote = t.game.entries
    drew = said(t, "Ann", "president", 1, "FFL")
    t.apply(Correct((last_vote,), "Eve voted Nein"))
    assert drew in t.state.corrections[-1][1] and not t.state.claims


def play_out(t: Table) -> None:
    """Sessions that each draw F, F, L and enact the Liberal, to the Liberals' win."""
    while t.game.phase != OVER:
        t.elect(eligible(t)[0])
        t.discard("F")
        t.enact("L")


def test_the_marks_come_only_once_the_game_is_over():
    t = forum_table(5, deck="FFL" * 5)
    t.elect("Bob")
    t.discard("F")
    said(t, "Ann", "president", 1, "FFL", "FL")
    said(t, "Bob", "chancellor", 1, "FF")  # a conflict: the pass said was F, L
    said(t, "Eve", "role", role="liberal")
    view = views.public_view(t.state)
    assert claim_texts.truth(t.state) is None
    during = claim_texts.table_text(view.history, PLAIN)
    assert "true" not in during.split("over)")[1] and "false" not in during.split("over)")[1]
    assert marks(during) == ["conflict", "conflict", ""], during


def marks(table: str) -> list[str]:
    """The last column of a plain claims table (title, header, rule, rows)."""
    lines = table.splitlines()
    start = lines[1].index("Check")
    return [line[start:].strip() for line in lines[3:]]


def test_after_the_game_each_claim_is_marked_against_what_was_dealt():
    t = forum_table(5, deck="FFL" * 5)
    t.elect("Bob")
    t.discard("F")
    said(t, "Ann", "president", 1, "FFL", "FL")
    said(t, "Bob", "chancellor", 1, "FF")
    t.enact("L")
    play_out(t)
    said(t, "Eve", "role", role="liberal")
    said(t, "Cat", "role", role="liberal")
    view = views.public_view(t.state)
    text = claim_texts.table_text(view.history, PLAIN, claim_texts.truth(t.state))
    assert marks(text) == ["true; conflict", "false; conflict", "false", "true"], text


def test_the_reveal_lists_the_claims_marked(tmp_path):
    t = forum_table(5, deck="FFL" * 5)
    t.elect("Bob")
    t.discard("F")
    said(t, "Bob", "chancellor", 1, "FL")
    t.enact("L")
    play_out(t)
    log = tmp_path / "g.yaml"
    log.write_text(store.log_text(t.header, t.steps, at=AT))
    text = reveal.reveal_text(store.load(str(log)), PLAIN, spoiler=False)
    assert "Claims, against what was dealt:\n- Claim by Bob (Chancellor, round 1): received " \
           "FL. true" in text


def test_the_cheater_inserts_claims_anywhere_and_moves_no_deal_draw_or_reshuffle():
    """Claims, true or not, inserted at random places of random forum games (deadlines
    that lapse with a random draw, corrections, replacements among them) leave the same
    deal, the same lapse draws (each recorded choice re-checked against the seed), the
    same reshuffles and the same outcome (R-CLAIM: bookkeeping moves nothing)."""
    rng = random.Random(36)
    inserted = lapses = drawn = reshuffles = 0
    for played in random_games():
        plan: Plan = []
        where: dict[int, int] = {}
        state = played.start()
        for number, (at, step) in enumerate(played.plan, 1):
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                claim = random_claim(state, rng)
                if claim is not None and played.apply(state, at, claim):
                    plan.append((at, claim))
                    inserted += 1
            where[number] = len(plan) + 1
            (_, moved), = renumbered([(at, step)], where)
            assert played.apply(state, at, moved), (number, step)
            plan.append((at, moved))
        lapses += sum(isinstance(s, Lapse) for _, s in plan)
        drawn += sum(isinstance(s, Lapse) and s.choice is not None for _, s in plan)
        reshuffles += sum(isinstance(s, Reshuffle) for _, s in plan)
        assert outcome(state) == outcome(played.state)
    assert inserted > 300 and lapses > 5 and drawn and reshuffles > 5, (
        inserted, lapses, drawn, reshuffles)


def test_a_claim_of_a_session_by_anyone_else_is_refused_leaving_the_table_as_it_was():
    """Through random games, at every entry: a claim of each session's draw by every other
    living player is refused, and the table's phase, entries and record stay as they were."""
    for played in random_games(3):
        state = played.start()
        for at, step in played.plan:
            played.apply(state, at, step)
            sessions, _ = claims.record(state)
            for s in sessions:
                for seat in range(len(state.game.players)):
                    if seat in (s.president, s.chancellor) or not state.game.alive[seat]:
                        continue
                    before = (state.game.phase, state.entries, len(state.public))
                    assert not played.apply(state, at, Claim(seat, "president", s.round,
                                                             cards("FFL")))
                    assert (state.game.phase, state.entries, len(state.public)) == before


def test_logs_with_claims_audit_valid_and_the_verifier_recomputes_them_alike():
    """docs/verify.md says a claim enters neither the commitment nor any draw: random
    forum games (lapse draws, corrections, replacements) with claims inserted audit VALID,
    and tests/verifier.py, written from verify.md alone, recomputes every draw as the
    audit does."""
    from test_verifier import _agrees, _log_text, _parsed

    from shmod.audit import log_audit

    rng = random.Random(360)
    checked = 0
    for played in random_games(8):
        plan: Plan = []
        seated: list[tuple[str, ...]] = []
        where: dict[int, int] = {}
        state = played.start()
        for number, (at, step) in enumerate(played.plan, 1):
            claim = random_claim(state, rng) if rng.random() < 0.3 else None
            players = state.game.players
            if claim is not None and played.apply(state, at, claim):
                plan.append((at, claim))
                seated.append(players)
            where[number] = len(plan) + 1
            (_, moved), = renumbered([(at, step)], where)
            players = state.game.players
            assert played.apply(state, at, moved)
            plan.append((at, moved))
            seated.append(players)
        text = _log_text(played.header, plan, seated)
        _agrees(text, log_audit.audit_log(_parsed(text)).to_json())
        checked += sum(isinstance(s, Claim) for _, s in plan)
    assert checked > 50


# -- issue 42: a claim after the game, and a conflict in the post that shows it --------


def test_a_claim_recorded_after_the_game_is_over_makes_no_post_ever(tmp_path):
    """R-CLAIM: on main such a claim said "the next post shows it", and a later post (here
    a moderator dropped after the game) would have shown it; history, the reveal and the
    replay show it."""
    from installed import Moderator

    from shmod.texts import replay_frames

    t = forum_table(5, deck="FFL" * 5)
    play_out(t)
    mod = Moderator(tmp_path, show=True)  # each step's items framed on stdout
    mod.log.parent.mkdir(parents=True)
    mod.log.write_text(store.log_text(t.header, t.steps, at=AT))
    mod.log.chmod(0o600)
    mod.run("post")
    said = mod.run("claim", "Eve", "--role", "liberal").stderr
    assert "Claim recorded: no post: the game is over (R-CLAIM; history, the reveal and " \
        "the replay show it)" in said
    assert "Nothing new since the last post" in mod.run("post").stderr
    later = mod.run("moderators", "Ned", "--as", "Mia").stdout  # news after the game
    assert "Ned is now a moderator" in later and "Role claim" not in later
    loaded = store.load(str(mod.log))
    assert [ev for ev in thread.unposted(loaded.table) if isinstance(ev, Claimed)] == []
    line = "Role claim by Eve: Liberal."
    assert line in reveal.reveal_text(loaded, PLAIN, spoiler=False)
    view = views.public_view(loaded.table)
    assert "role: Liberal" in claim_texts.table_text(view.history, PLAIN)
    assert "role: Liberal" in mod.run("history").stdout
    shown = replay_frames.frames(loaded, reveal=True).frames
    assert any(line in sentence for frame in shown for sentence in frame.said)
    assert all(line not in thread_posts.earlier_post(loaded, n, PLAIN).text
               for n in range(1, len(loaded.table.posts) + 1))


def test_the_post_that_shows_a_conflicting_claim_marks_the_conflict():
    t = first_session()
    said(t, "Ann", "president", 1, "FFL", "FL")
    t.apply(Posted(t.game.entries))
    before = views.public_view(t.state)
    ann = next(ev for ev in before.history if isinstance(ev, Claimed))
    assert messages.post_words(before, ann, PLAIN) == \
        "Claim by Ann (President, round 1): drew FFL, passed FL."
    said(t, "Bob", "chancellor", 1, "FF")  # she says she passed F, L: both cannot be true
    t.enact("L")
    covered = thread.news(t.state)
    post = thread_posts.render(t.state, covered, PLAIN, board=False)
    assert "Claim by Bob (Chancellor, round 1): received FF. conflict" in post
