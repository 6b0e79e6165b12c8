"""Issue 10 §2: posts and PMs a moderator sends as they are: stdout holds only the text to
paste, prods name the policies a choice is made from, an executed player is told, a
replaced name says who took the seat and a replacement's briefing what the seat did, and
the BBCode reveal colours runs of policies, not each card."""
from __future__ import annotations

import random
from datetime import UTC, datetime

from scripted import AT

from shmod.audit.random_games import random_game
from shmod.forum.steps import Replace
from shmod.game.events import ExecutedNotice
from shmod.game.steps import Execute, Nominate, Vote
from shmod.log import store
from shmod.texts import forum_texts, game_texts as texts, messages, views
from shmod.texts.formats import BBCode, Plain

NAMES = ["Grundbegriff", "Ann", "Bob", "Cat", "Dan"]


def _game(tmp_path):
    path = str(tmp_path / "g.yaml")
    store.new_game(path, NAMES, seed="polish", first="Ann", created=AT)
    return path


def _elect(path: str) -> None:
    state = store.load(path).table
    store.record(path, lambda g: Nominate(by=state.game.president, chancellor=0), at=AT)
    for seat in range(5):
        store.record(path, lambda g, s=seat: Vote(by=s, vote=True), at=AT)


def test_stdout_is_only_the_text_to_paste(run, tmp_path):
    path = _game(tmp_path)
    code, out, err = run("rules", "-f", "bbcode", "-g", path)
    assert code == 0 and out.startswith("[b][u]Rules for this game") and "──" not in out
    code, out, err = run("nominate", "Grundbegriff", "-g", path)
    assert out == "" and "── Waiting for" in err and "Outbox: " in err  # the post waits there
    code, out, err = run("send", "thread", "-g", path)
    assert code == 0 and out and "──" not in out and "post 1 for the thread" in err
    code, out, err = run("vote", "Ann", "ja", "-g", path)
    assert "Nothing to post yet" not in out + err
    assert out == "" and "Votes coming in" in err and "1 of 5" in err


def test_prods_name_the_policies_the_choice_is_made_from(tmp_path):
    path = _game(tmp_path)
    _elect(path)
    state = store.load(path).table
    view = views.public_view(state)
    sent = {n: views.player_view(state, n).secrets for n in view.waiting_on}
    [(to, text)] = forum_texts.prods(view, Plain(), datetime.now(UTC), sent)
    hand = texts.cards(Plain(), state.game.hand)
    assert to == state.game.players[state.game.president]
    assert f"one of the three policies I sent you ({hand})" in text


def test_an_executed_player_is_told(tmp_path):
    rng = random.Random(4)
    for _ in range(200):
        sim = random_game(7, rng)
        if any(isinstance(s, Execute) for s in sim.steps):
            break
    from shmod.forum import engine
    from shmod.forum.setup import parse_setup, start

    state = start(parse_setup(sim.header))
    for step in sim.steps:
        engine.apply(state, step)
    executed = [s for s in state.secrets if isinstance(s, ExecutedNotice)]
    assert executed
    text = messages.pm_text(executed[0], Plain())
    assert text.startswith("President ") and "has executed you" in text


def test_a_replaced_name_says_who_took_the_seat(run, tmp_path):
    path = _game(tmp_path)
    run("replace", "Grundbegriff", "Moe", "-g", path)
    code, _, err = run("nominate", "Grundbegriff", "-g", path)
    assert code == 2
    assert err.startswith("Error: Grundbegriff was replaced by Moe (entry 2); name Moe or seat 1")


def test_a_replacement_briefing_says_what_the_seat_did(tmp_path):
    path = _game(tmp_path)
    _elect(path)
    state = store.load(path).table
    president = state.game.president
    done = store.record(path, lambda g: Replace(target=president, name="Zed"), at=AT)
    [pm] = done.secrets
    text = messages.pm_text(pm, Plain())
    assert "What this seat did so far, oldest first:" in text
    assert "nominated Grundbegriff for Chancellor" in text and "voted Ja" in text


def test_the_bbcode_reveal_colours_runs_not_cards(tmp_path):
    from pathlib import Path

    from shmod.texts.reveal import reveal_text

    log = Path(__file__).resolve().parent.parent / "games" / "dealt-without-seed-7-players.yaml"
    loaded = store.load(str(log))
    text = reveal_text(loaded, BBCode())
    assert len(text.encode()) < 4000  # was 4,882 bytes with [color][b] around every card
    assert "[b]Fascist[/b]" not in text and "Fascist, Fascist" in text
