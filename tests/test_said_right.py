"""Issue 33 §3: the words say it right, once and truly, and a post is reprinted as posted.

Real plurals in the role PMs; a prod that names the policies without a pile of brackets;
a veto that lapsed refused once, not twice; a rules card that does not say the moderator
"never votes or chooses for you" right under house rules that do, at a deadline; "entry 5
of the log was edited"; a lapsed vote marked in the voting record as the tally marks it;
the reveal marking what a lapse drew at random (a discard, an enactment, a target) and a
veto refused because it went unanswered; ``post --again N`` printing post N as the thread
saw it, without a silent correction it never saw.
"""
from __future__ import annotations

import re

import pytest
from installed import Moderator

from shmod.forum import deadlines, engine
from shmod.forum.events import Lapsed
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Acknowledge, Lapse, SetDeadline
from shmod.forum.turns import legal_steps
from shmod.game import legal
from shmod.game.events import Tallied
from shmod.game.steps import Discard, Enact, Nominate, Step, Veto, Vote
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import forum_texts, messages, replay_frames, replay_post, views
from shmod.texts.formats import FORMATS, Plain
from shmod.texts.history import history_text
from shmod.texts.reveal import reveal_text
from shmod.texts.thread_posts import state_at

AT = "2026-01-01T00:00:00Z"


# -- plurals, a prod, the rules card -----------------------------------------------------


@pytest.mark.parametrize("players", range(5, 11))
def test_role_pms_name_the_fascists_in_real_plurals(tmp_path, players):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"][:players]
    mod = Moderator(tmp_path)
    mod.run("new", *names, "--first", "Ann")
    fascists = {5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}[players]
    said = [mod.run("pm", name).stdout for name in names]
    assert not any("(s)" in pm for pm in said)
    fellow = [re.search(r"Your fellow (Fascists?): (.*)\.", pm) for pm in said]
    for found in filter(None, fellow):
        others = found.group(2).split(", ")
        assert len(others) == fascists - 1
        assert found.group(1) == ("Fascist" if len(others) == 1 else "Fascists")
    assert sum(found is not None for found in fellow) == (fascists if fascists > 1 else 0)
    hitler = [re.search(r"The (Fascists?): (.*)\. They know you\.", pm) for pm in said]
    known = [found for found in hitler if found]
    assert len(known) == (1 if players <= 6 else 0)  # R-KNOW: Hitler knows them in 5-6
    assert all(found.group(1) == "Fascist" for found in known)


def test_a_prod_names_the_policies_without_a_pile_of_brackets(tmp_path):
    mod = Moderator(tmp_path)
    mod.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--first", "Ann", "--forum", "markdown")
    mod.run("nominate", "Bob")
    mod.run("vote", "Ann", "ja", "Bob", "ja", "Cat", "ja", "Dan", "ja", "Eve", "ja")
    prod = mod.run("prods", "--preview").stderr  # a preview, for the moderator's eyes
    assert "your discard as President: one of the three policies I sent you (**" in prod
    assert ") (you are" not in prod and re.search(r"\*\*\)\. Please send it to me by PM\.", prod)


def _card(variants: list[str]) -> str:
    header = new_header(["Ann", "Bob", "Cat", "Dan", "Eve"], seed="c" * 32, salt="s" * 32,
                        created=AT, variants=variants)
    return forum_texts.rules_card(views.public_view(start(parse_setup(header))), Plain())


def test_the_rules_card_says_who_acts_at_a_deadline_truly():
    assert _card([]).endswith("The moderator may remind you, but never votes or chooses "
                              "for you.")
    for switch in ("late_vote=nein", "late_nomination=fail", "late_choice=random"):
        card = _card([switch])
        assert "House rules:" in card
        assert card.endswith("never votes or chooses for you: when a deadline passes, the "
                             "house rules above do."), switch


# -- lapses: a directed game ------------------------------------------------------------


def _lapsed_game() -> tuple[dict[str, object], list[Step]]:
    """Five players under every lapse switch, a veto from the first Fascist policy and an
    investigation on each Fascist slot: the first votes lapse (counted Nein), then a
    discard, an enactment and an investigation's target are drawn at random, a veto goes
    unanswered (refused), an entry is acknowledged as edited by hand; then play to the
    end."""
    header = new_header(["Ann", "Bob", "Cat", "Dan", "Eve"], seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65",
                        salt="c2a9f04e7b15d38e96a0f1c4b72d5e08", created=AT,
                        variants=["late_vote=nein", "late_choice=random"],
                        custom={"deck": {"liberal": 4, "fascist": 13},
                                "powers": ["investigate"] * 5, "veto_zone": 1})
    state = start(parse_setup(header))
    steps: list[Step] = []

    def apply(*some: Step) -> None:
        for step in some:
            engine.apply(state, step)
            steps.append(step)

    def lapse() -> None:  # each after the last: what a lapse made due falls due then
        day = 2 + 2 * sum(isinstance(step, Lapse) for step in steps)
        apply(SetDeadline(until=f"2026-01-{day:02}T00:00:00Z", zone="UTC"))
        apply(Lapse(deadline=state.entries, at=f"2026-01-{day + 1:02}T00:00:00Z",
                    choice=deadlines.drawn(state, state.entries + 1)))

    def nominate() -> None:
        game = state.game
        apply(Nominate(game.president, next(
            s for s in legal.nominees(game) if game.roles[s] != "hitler")))

    nominate()
    apply(Vote(state.game.president, True))
    lapse()  # the other four votes: Nein, a failed election
    phases: set[str] = set()
    while state.game.phase != OVER and len(steps) < 300:
        game = state.game
        if game.phase == "nominate":
            nominate()
        elif game.phase == "vote":
            apply(*[Vote(s, True) for s in game.living if s not in game.votes])
        elif game.phase in ("discard", "enact", "power") and game.phase not in phases:
            phases.add(game.phase)
            lapse()
        elif game.phase == "enact" and game.veto_unlocked and "veto" not in phases:
            phases.add("veto")
            apply(Veto(game.chancellor_seat(), "propose"))
        elif game.phase == "veto_answer":
            lapse()
            apply(Acknowledge(entries=(5,), reason="a typo fixed by hand"))
        elif game.phase == "discard":
            apply(Discard(game.president, game.hand[0]))
        elif game.phase == "enact":
            apply(Enact(game.chancellor_seat(), game.hand[0]))
        else:
            apply(legal_steps(state)[0])
    assert state.game.phase == OVER
    assert {ev.phase for ev in state.public if isinstance(ev, Lapsed)} >= {
        "vote", "discard", "enact", "power", "veto_answer"}
    return header, steps


@pytest.fixture(scope="module")
def lapsed(tmp_path_factory) -> store.Loaded:  # type: ignore[no-untyped-def]
    header, steps = _lapsed_game()
    path = tmp_path_factory.mktemp("lapsed") / "g.yaml"
    path.write_text(store.log_text(header, steps, at=AT))
    return store.load(str(path))


def _post_of(game: store.Loaded, entry: int, fmt: Plain) -> str:
    """The public events of ``entry`` as a post says them, the view as it stood then."""
    state = state_at(game, entry)
    view = views.public_view(state)
    return "\n".join(filter(None, (messages.post_words(view, event, fmt)
                                   for event in state.public if event.entry == entry)))


def test_a_veto_that_lapsed_is_refused_once(lapsed):
    [entry] = [ev.entry for ev in lapsed.table.public
               if isinstance(ev, Lapsed) and ev.phase == "veto_answer"]
    post = _post_of(lapsed, entry, Plain())
    assert post.count("refuse") == 1 and "did not answer the veto by the deadline: it is " \
        "refused." in post
    [frame] = [f for f in replay_frames.frames(lapsed, reveal=False).frames if f.entry == entry]
    said = " ".join(frame.said)
    assert said.count("refuse") == 1, said


def test_the_replay_says_an_entry_was_edited_in_the_singular(lapsed):
    said = [s for f in replay_frames.frames(lapsed, reveal=True).frames for s in f.said]
    assert "The moderator recorded that entry 5 of the log was edited by hand: a typo fixed " \
        "by hand." in said


def test_the_reveal_marks_what_a_lapse_drew_at_random(lapsed):
    text = reveal_text(lapsed, Plain(), spoiler=False)
    assert re.search(r"the President discarded (Liberal|Fascist) \(drawn at random\);", text)
    assert re.search(r"and enacted (Liberal|Fascist) \(drawn at random\)\.", text)
    assert re.search(r"investigated \w+ \(drawn at random\): (Liberal|Fascist)\.", text)
    assert "The veto was refused: its deadline passed unanswered." in text
    assert text.count("(drawn at random)") == 3  # the rest were the players' own


@pytest.mark.parametrize("profile", list(FORMATS))
def test_the_voting_record_marks_a_lapsed_vote(lapsed, profile):
    view = views.public_view(lapsed.table)
    [tally] = [ev for ev in lapsed.table.public if isinstance(ev, Tallied)][:1]
    late = [name for name, vote in tally.votes if vote is False]
    assert len(late) == 4
    fmt = FORMATS[profile]()
    text = history_text(view, fmt)
    marked = ", ".join(f"{name} (no vote by the deadline)" for name in late)
    whole = replay_post.post_text(replay_frames.frames(lapsed, reveal=True), fmt, title="Friday",
                                  commitment=None)  # the game in one post holds the record
    for made in (text, whole):
        first = made.split("Round 2")[0].replace("\n  ", " ")  # plain text folds at 80
        assert f"Nein (4): {marked}" in first, (profile, first)


# -- post --again: as the thread saw it ----------------------------------------------


def test_post_again_reprints_a_post_as_it_was_posted(tmp_path):
    """The issue's repro: a vote voided before anyone saw it (nothing was posted) is no
    part of the post that followed, then or again."""
    mod = Moderator(tmp_path, show=True)  # each step's texts on stdout
    mod.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--first", "Ann")
    mod.run("nominate", "Bob")
    mod.run("vote", "Ann", "nein")
    corrected = mod.run("correct", "--reason", "typo")
    assert "players never saw it, so nothing is posted" in corrected.stderr
    posted = mod.run("vote", "Ann", "ja", "Bob", "ja", "Cat", "ja", "Dan", "nein", "Eve", "ja")
    again = mod.run("post", "--again", "3")
    assert "Post 3" in again.stderr and "Correction" not in again.stdout
    assert posted.stdout.rstrip("\n").endswith(again.stdout.rstrip("\n"))
    assert again.stdout.startswith("Votes on President Ann and Chancellor Bob")
