"""Every post and PM, in each format, read back by a real parser of that format.

BBCode goes through the ``bbcode`` package and Markdown through ``markdown-it-py``
(CommonMark); the HTML they produce is parsed and checked for structure: lists of players
in seating order, bold names, quotes for the board, hard line breaks, nothing left raw.
"""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import bbcode
import pytest
from markdown_it import MarkdownIt
from thread_example import EXAMPLE, example_game, thread

from shmod.audit.random_games import random_game
from shmod.base.records import replace
from shmod.forum import engine
from shmod.forum.events import Started
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.table import Table as State
from shmod.forum.turns import legal_steps
from shmod.game.events import (
    Drawn,
    Handed,
    InvestigationResult,
    PeekResult,
    RoleSent,
    Tallied,
    VetoRequested,
)
from shmod.log.store import load, log_text
from shmod.texts import game_texts as texts, messages
from shmod.texts.formats import BBCode, Markdown, Plain
from shmod.texts.reveal import reveal_text
from shmod.texts.views import public_view

HOSTILE = ["[b]Bo[/b]", "*Star*", "_Und_", "<i>Tag", "A|B #1", "Ann [url]x"]


def _bbcode_parser() -> bbcode.Parser:
    parser = bbcode.Parser()
    parser.add_formatter("spoiler", lambda tag, value, options, parent, context:
                         f"<details><summary>{options.get('spoiler', '')}</summary>{value}</details>")
    return parser


BB = _bbcode_parser()
MD = MarkdownIt("commonmark")


def to_html(fmt_name: str, text: str) -> ET.Element:
    html = BB.format(text) if fmt_name == "bbcode" else MD.render(text)
    return ET.fromstring(f"<root>{html}</root>")


def flat(node: ET.Element) -> str:
    return "".join(node.itertext())


FORMATS = [("bbcode", BBCode()), ("markdown", Markdown())]


def _played(state: State, steps) -> State:  # type: ignore[no-untyped-def]
    for step in steps:
        engine.apply(state, step)
    return state


@pytest.fixture(scope="module")
def games() -> list[State]:
    setup, steps = example_game()
    return [_played(start(setup), steps)]


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_every_post_of_the_example_thread_parses_with_nothing_left_raw(name, fmt):
    posts, _ = thread(fmt)
    for post in posts:
        root = to_html(name, post)
        text = flat(root)
        assert "[b]" not in text and "[/" not in text and "**" not in text
        assert root.findall(".//blockquote"), "every post ends with the board in a quote"


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_opening_post_lists_the_players_in_seating_order_in_bold(name, fmt, games):
    state = games[0]
    root = to_html(name, messages.post_words(public_view(state), state.public[0], fmt) or "")
    items = root.find(".//ol").findall("li")  # type: ignore[union-attr]
    assert [flat(li) for li in items] == list(state.game.players)
    assert all(li.find("strong") is not None for li in items)
    powers = root.findall(".//ul/li")
    assert [flat(li) for li in powers][1] == "Fascist policy 2: Investigate Loyalty"


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_every_tally_lists_votes_in_seating_order_with_the_dead_marked(name, fmt, games):
    state = games[0]
    view = public_view(state)
    tallies = [ev for ev in state.public if isinstance(ev, Tallied)]
    assert any(None in dict(ev.votes).values() for ev in tallies)
    for ev in tallies:
        root = to_html(name, messages.post_words(view, ev, fmt) or "")
        items = root.find(".//ol").findall("li")  # type: ignore[union-attr]
        assert len(items) == len(state.game.players)
        for li, (player, vote) in zip(items, ev.votes):
            if vote is None:
                assert li.find("em") is not None and flat(li) == f"{player}: dead"
            else:
                assert flat(li.find("strong")) == player  # type: ignore[arg-type]
                assert flat(li) == f"{player}: {'Ja' if vote else 'Nein'}"
        assert f"Ja {ev.ja}, Nein {ev.nein}" in flat(root)


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_board_lines_are_separate_lines_inside_one_quote(name, fmt, games):
    root = to_html(name, texts.board_text(public_view(games[0]), fmt))
    quote = root.find("blockquote")
    assert quote is not None
    assert len(quote.findall(".//br")) >= 2
    assert "Draw pile: " in flat(quote)


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_game_over_is_a_heading(name, fmt, games):
    state = games[0]
    over = state.public[-1]
    root = to_html(name, messages.post_words(public_view(state), over, fmt) or "")
    heading = root.find("h3") if name == "markdown" else root.find("strong/u")
    assert heading is not None and flat(heading) == f"Game over: the {state.game.winner} win"


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_every_pm_parses_and_bolds_what_matters(name, fmt, games):
    state = games[0]
    kinds = set()
    for secret in state.secrets:
        root = to_html(name, messages.pm_text(secret, fmt))
        kinds.add(type(secret))
        assert root.findall(".//strong")
        if isinstance(secret, (Drawn, Handed, PeekResult)):
            shown = [flat(s) for s in root.findall(".//strong")]
            assert shown == [{"L": "Liberal", "F": "Fascist"}[c] for c in secret.cards]
    assert {RoleSent, Drawn, Handed, InvestigationResult, VetoRequested} <= kinds


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_reveal_lists_every_role_and_government(name, fmt, tmp_path):
    players, seed = EXAMPLE
    sim = random_game(players, random.Random(seed))
    path = tmp_path / "g.yaml"
    path.write_text(log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z"))
    game = load(str(path))
    state = game.table
    root = to_html(name, reveal_text(game, fmt))
    roles = [flat(li) for li in root.find(".//ul").findall("li")]  # type: ignore[union-attr]
    assert roles[0].startswith(state.game.players[0] + ": ")
    assert len(roles) == len(state.game.players)
    governments = root.find(".//ol").findall("li")  # type: ignore[union-attr]
    assert len(governments) == sum(1 for s in state.secrets if isinstance(s, Drawn))


def test_plain_text_has_no_markup():
    posts, _ = thread(Plain())
    for post in posts:
        assert "[b]" not in post and "**" not in post and "<" not in post


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_hostile_names_stay_literal(name, fmt):
    header = new_header(HOSTILE, seed="names", salt="s", created="2026-01-01T00:00:00Z")
    state = start(parse_setup(header))
    rng = random.Random(1)
    while not any(isinstance(ev, Tallied) for ev in state.public):
        engine.apply(state, rng.choice(legal_steps(state)))
    view = public_view(state)
    root = to_html(name, messages.post(view, state.public, fmt))
    items = root.find(".//ol").findall("li")  # type: ignore[union-attr]
    assert [flat(li) for li in items] == HOSTILE
    assert not root.findall(".//i") and not root.findall(".//a")
    tally = root.findall(".//ol")[-1]
    assert [flat(li).rsplit(":", 1)[0] for li in tally.findall("li")] == HOSTILE


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_opening_post_shows_the_setup_commitment_when_present(name, fmt, games):
    state = games[0]
    start = state.public[0]
    assert isinstance(start, Started)
    bare = replace(start, commitment=None)
    plain = to_html(name, texts.start_text(public_view(state), fmt, bare))
    assert "commitment" not in flat(plain)
    event = replace(start, commitment="ab12" * 16)
    root = to_html(name, texts.start_text(public_view(state), fmt, event))
    assert "Setup commitment (check it against the reveal at the end): " + "ab12" * 16 in flat(root)
