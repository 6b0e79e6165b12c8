"""Issue 44: the rule slips that translating shmod exposed, in every language.

Each test fails on f58529d: a custom board's veto PM counts the Fascist policies on the
board (R-VETO); a peek's claim keeps the order it was claimed in and is true only in the
deck's order (R-CLAIM); a seat the moderator removed is "removed", never "dead", in the
tally, the board's own list, the voting record and the replay (R-MODKILL); ``term5=seated``
says what it means for the game's own count (R-TERM5); ``replay --post`` of a finished game
no longer says the claims' truth comes "once the game is over"; the rules card of a 5- or
6-player game has one Fascist, who has no "each other" (R-KNOW); and the commands take the
game language's words for a policy and a vote, or say which words to type.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from shmod.forum import engine
from shmod.forum.events import Removed
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Claim, Remove
from shmod.forum.table import Table
from shmod.forum.turns import legal_steps
from shmod.game.events import Handed, PeekResult, Tallied
from shmod.game.steps import Step
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import catalog, claim_texts, game_texts, history, messages, views
from shmod.texts.formats import get as profile

AT = "2026-11-23T10:00:00Z"
LANGS = ("en", "de", "pl")


def played(header: dict[str, object], until: Callable[[Table], bool], seed: int = 1,
           steps: list[Step] | None = None) -> tuple[Table, list[Step]]:
    """Random legal steps at a forum's table from ``header`` until ``until`` holds."""
    table, rng, done = start(parse_setup(header)), random.Random(seed), []
    for step in steps or []:
        engine.apply(table, step)
        done.append(step)
    while not until(table) and table.game.phase != OVER:
        step = rng.choice(legal_steps(table))
        engine.apply(table, step)
        done.append(step)
    return table, done


def head(players: int, seed: int, **kwargs: object) -> dict[str, object]:
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"][:players]
    return new_header(names, seed=f"{seed:032x}", salt="5" * 32, created=AT, **kwargs)


# -- R-VETO: the veto PM counts the board -------------------------------------------------

def test_a_custom_boards_veto_pm_counts_the_fascist_policies_on_the_board():
    for seed in range(1, 200):
        table, _ = played(head(5, seed, custom={"veto_zone": 1}),
                          lambda t: any(isinstance(s, Handed) and s.veto for s in t.secrets))
        hands = [s for s in table.secrets if isinstance(s, Handed) and s.veto]
        if hands:
            break
    hand = hands[0]
    assert 1 <= hand.fascist < 5
    said = messages.pm_with_subject(hand, profile("plain"), "G")
    assert "Five" not in said
    assert (f"{hand.fascist} Fascist polic" in said and "on the board: instead of enacting "
            "you may propose a veto" in said)
    assert "Fünf" not in messages.pm_with_subject(hand, profile("plain", lang="de"), "G")
    assert "Pięć" not in messages.pm_with_subject(hand, profile("plain", lang="pl"), "G")
    assert f"{hand.fascist} " in messages.pm_with_subject(hand, profile("plain", lang="pl"), "G")


def test_the_rulebook_boards_veto_pm_is_as_it_was():
    hand = Handed(to="Ann", entry=9, cards=("F", "L"), veto=True, fascist=5)
    assert ("Five Fascist policies are on the board: instead of enacting you may propose a "
            "veto, which the President must accept or refuse.") in messages.pm_text(
                hand, profile("plain"))


# -- R-CLAIM: a peek's order ---------------------------------------------------------------

def _peeked(seed: int) -> tuple[Table, PeekResult] | None:
    table, _ = played(head(5, seed, custom={"powers": ["peek", None, None, None, None]}),
                      lambda t: any(isinstance(s, PeekResult) for s in t.secrets), seed)
    peek = next((s for s in table.secrets if isinstance(s, PeekResult)), None)
    if peek is None or peek.cards == peek.cards[::-1] or table.game.phase == OVER:
        return None
    return table, peek


def test_a_peek_claim_keeps_its_order_and_is_true_only_in_the_decks_order():
    found = next(filter(None, map(_peeked, range(1, 300))))
    table, peek = found
    seat = table.game.players.index(peek.to)
    round_ = (claim_texts.in_effect(table.public) and 0) or None
    from shmod.forum.claims import latest_power

    round_ = latest_power(table, seat, "peek", None, None)
    backwards = tuple(reversed(peek.cards))
    engine.apply(table, Claim(seat, "peek", round_, backwards))
    engine.apply(table, Claim(seat, "peek", round_, tuple(peek.cards)))
    made = claim_texts.in_effect(table.public)
    assert [c.cards for c in made] == [backwards, tuple(peek.cards)]
    truth = claim_texts.dealt(table)
    assert [truth[c.entry] for c in made] == [False, True]
    lines = claim_texts.page_lines(table.public, catalog.get("en"), truth)
    assert "".join(backwards) in lines[0] and lines[0].endswith("false")
    assert "".join(peek.cards) in lines[1] and lines[1].endswith("true")


def test_a_sessions_claim_is_shown_as_typed_and_compared_in_any_order():
    for seed in range(1, 100):
        table, _ = played(head(5, seed), lambda t: t.game.phase == "enact", seed)
        if table.game.phase == "enact":
            break
    drawn = next(s for s in table.secrets if type(s).__name__ == "Drawn")
    seat = table.game.players.index(drawn.to)
    turned = tuple(sorted(drawn.cards, reverse=True))  # L before F: not the old F-first order
    engine.apply(table, Claim(seat, "president", table.game.round, turned))
    claim = claim_texts.in_effect(table.public)[-1]
    assert claim_texts.said(catalog.get("en"), claim) == "drew " + "".join(turned)
    assert claim_texts.dealt(table)[claim.entry] is True


# -- R-MODKILL: removed, never dead --------------------------------------------------------

REMOVAL = head(7, 3)


def _removed_then_tallied() -> Table:
    table, _ = played(REMOVAL, lambda t: t.game.phase == "nominate" and t.game.round > 1)
    game = table.game
    out = next(s for s in range(7) if game.alive[s] and s != game.president)
    engine.apply(table, Remove(out, "left the forum"))
    table, _ = played(REMOVAL, lambda t: any(
        isinstance(e, Tallied) and any(v is None for _, v in e.votes) for e in t.public),
        steps=_steps_of(table))
    return table


def _steps_of(table: Table) -> list[Step]:
    return [step for _, step in table.history]


def test_a_removed_seat_is_removed_in_the_tally_the_board_and_the_voting_record():
    table = _removed_then_tallied()
    gone = next(e.name for e in table.public if isinstance(e, Removed))
    view = views.public_view(table)
    tally = next(e for e in table.public if isinstance(e, Tallied)
                 and any(v is None for _, v in e.votes))
    for code in LANGS:
        fmt = profile("plain", lang=code)
        t = fmt.lang
        text = messages.post_words(view, tally, fmt) or ""
        assert t._("{name}: removed", name=gone) in text
        assert t._("{name}: dead", name=gone) not in text
        board = game_texts.board_text(view, fmt)
        assert t._("Removed: {names}", names=gone) in board
        assert t._("Dead: {names}", names=gone).split(":")[0] + ":" not in board
        grid = history.history_text(view, fmt, grid=True)
        rows = grid.split("\n")[:-1]  # the legend last
        assert history.REMOVED in "".join(rows) and history.DEAD not in "".join(rows)
        assert t._("{dead}; {removed} = removed", dead=t._("{dead} = dead", dead=history.DEAD),
                   removed=history.REMOVED) in grid
    assert gone in view.removed


def test_a_removed_seat_is_removed_in_the_replay_post(tmp_path: Path, run):
    table = _removed_then_tallied()
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(REMOVAL, _steps_of(table), at=AT))
    code, out, _ = run("history", "--grid", "-g", str(path))
    assert code == 0 and history.REMOVED in out and "removed" in out


# -- R-TERM5: term5=seated says what it means here ------------------------------------------

@pytest.mark.parametrize("players", [5, 6, 9])
def test_term5_seated_is_said_for_the_games_own_count(players):
    table = start(parse_setup(head(players, 7, variants=["term5=seated"])))
    view = views.public_view(table)
    for code in LANGS:
        fmt = profile("plain", lang=code)
        said = " ".join(game_texts.variant_rules(view, fmt))
        five = fmt.lang._(game_texts.HOUSE_RULES[("term5", "seated")])
        big = fmt.lang._(game_texts.TERM5_SEATED_BIG)
        assert (five in said) == (players == 5) and (big in said) == (players > 5)
    assert "started with five" not in " ".join(game_texts.variant_rules(view, profile("plain"))) \
        or players == 5


# -- R-KNOW: the 5-6 player rules card -------------------------------------------------------

@pytest.mark.parametrize("players", [5, 6, 7])
def test_the_rules_card_has_no_each_other_for_one_fascist(players):
    from shmod.texts import forum_texts

    view = views.public_view(start(parse_setup(head(players, 2))))
    card = forum_texts.rules_card(view, profile("plain"))
    assert ("each other" in card) == (players > 6)
    if players <= 6:
        assert "The Fascist knows Hitler; Hitler knows the Fascist." in card
    for code in ("de", "pl"):
        text = forum_texts.rules_card(view, profile("plain", lang=code))
        assert ("gegenseitig" not in text and "nawzajem" not in text) or players > 6


# -- replay --post after the game ------------------------------------------------------------

def test_replay_post_after_the_game_no_longer_waits_for_its_end(tmp_path: Path, run):
    for seed in range(1, 60):
        header = head(5, seed)
        table, steps = played(header, lambda t: t.game.phase == OVER, seed)
        drawn = [s for s in table.secrets if type(s).__name__ == "Drawn"]
        if drawn and table.game.alive[table.game.players.index(drawn[0].to)]:
            break
    seat = table.game.players.index(drawn[0].to)
    from shmod.forum.claims import record

    round_ = next(s.round for s in record(table)[0] if s.president == seat)
    claim = Claim(seat, "president", round_, tuple(drawn[0].cards))
    engine.apply(table, claim)
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(header, [*steps, claim], at=AT))
    for flags in ((), ("--public",)):
        code, out, _ = run("replay", str(path), "--post", "-f", "plain", *flags)
        assert code == 0, out
        assert "once the game is over" not in out
        assert "Claims (1 claim: what was said)" in out


# -- the game's words in commands ------------------------------------------------------------

@pytest.mark.parametrize("code, fascist, liberal, yes, no", [
    ("de", "faschistisch", "liberal", "ja", "nein"),
    ("pl", "faszystowska", "liberalna", "tak", "nie"),
])
def test_commands_take_the_game_languages_words(tmp_path: Path, run, monkeypatch, code,
                                                 fascist, liberal, yes, no):
    monkeypatch.setenv("SHMOD_NOW", AT)
    path = str(tmp_path / "g.yaml")
    assert run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--seed", "a" * 32, "--guessable",
               "-g", path, "--language", code)[0] == 0
    game = store.load(path)
    pres = game.table.game.players[game.table.game.president]
    nominee = next(n for n in game.table.game.players if n != pres)
    assert run("nominate", nominee, "-g", path)[0] == 0
    names = list(game.table.game.players)
    votes = [w for n in names for w in (n, yes if n != names[0] else no)]
    assert run("vote", *votes, "-g", path)[0] == 0
    hand = store.load(path).table.game.hand
    word = {"F": fascist, "L": liberal}[hand[0]]
    assert run("discard", word.upper(), "-g", path)[0] == 0
    assert store.load(path).table.game.phase == "enact"
    before = Path(path).read_bytes()
    refused = run("enact", "faschistsch", "-g", path)
    assert refused[0] == 2 and "faschistsch" in refused[2]
    assert refused[2].strip() == ("Error: 'faschistsch' is not a policy (liberal or fascist); "
                                  f"in this game's language also {liberal}, {fascist}")
    assert Path(path).read_bytes() == before


def test_an_english_game_refuses_another_languages_word_naming_its_own(tmp_path, run,
                                                                         monkeypatch):
    monkeypatch.setenv("SHMOD_NOW", AT)
    path = str(tmp_path / "g.yaml")
    assert run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--seed", "a" * 32, "--guessable",
               "-g", path)[0] == 0
    code, _, err = run("vote", "Ann", "tak", "-g", path)
    assert code == 2 and err.strip() == "Error: 'tak' is not a vote (ja or nein)"  # as ever
