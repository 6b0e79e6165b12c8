"""Issue 10 §3: ``shmod history``, the voting record, in every profile, checked through the
parsers a forum would use and against snapshots read by eye; issue 33 §3: a block a round
that reads at 80 columns and on a phone.

The record of ten players with names of 40 characters over a long game (through the
installed ``shmod``): plain text within 80 columns, the votes of each round listed by
ballot in seating order with each living player once; every other profile read by its
engine's parser (tests/test_forum_profiles.py) into a page that headless Chromium
(tests/test_replay_page.py's) opens at 375 px without scrolling sideways. The wide grid
stays behind ``--grid``.
"""
from __future__ import annotations

import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import bbcode
import pytest
from claiming import random_claim
from installed import Moderator
from markdown_it import MarkdownIt
from scripted import AT
from test_forum_profiles import PARSERS
from test_replay_page import PHONE, browser  # noqa: F401 (the module's Chromium)
from thread_example import example_game

from shmod.forum import engine
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.turns import legal_steps
from shmod.game.events import Tallied
from shmod.game.steps import Vote
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import claim_texts
from shmod.texts.formats import FORMATS, BBCode, Markdown, Plain
from shmod.texts.history import DEAD, elections, history_text
from shmod.texts.views import public_view

SNAPSHOTS = Path(__file__).parent / "snapshots"


@pytest.fixture(scope="module")
def view():
    setup, steps = example_game()
    state = start(setup)
    for step in steps:
        engine.apply(state, step)
    return public_view(state)


def test_every_election_in_order_with_every_seat(view):
    rows = elections(view)
    tallies = [ev for ev in view.history if isinstance(ev, Tallied)]
    assert len(rows) == len(tallies) > 5
    for row, tally in zip(rows, tallies):
        assert row.president == tally.president
        assert len(row.votes) == len(view.players)
        assert row.votes == list(tally.votes)
        assert row.grid() == [DEAD if v is None else "Ja" if v else "Nein"
                              for _, v in tally.votes]
    assert any(DEAD in row.grid() for row in rows)  # executions show
    assert any(row.policy.startswith("chaos") for row in rows)


def test_each_round_lists_its_voters_by_ballot_in_seating_order(view):
    text = history_text(view, Plain())
    blocks = text.split("\n\n")[1:]
    rows = elections(view)
    assert len(blocks) == len(rows)
    for block, row in zip(blocks, rows):
        lines = block.replace("\n  ", " ").splitlines()
        assert lines[0].startswith(f"Round {row.round} · President {row.president} · "
                                   f"Chancellor {row.chancellor} · {row.result}")
        for line, ballot in zip(lines[1:3], (True, False)):
            names = [name for name, vote in row.votes if vote is ballot]
            label = "Ja" if ballot else "Nein"
            assert line == f"{label} ({len(names)}): {', '.join(names) or '—'}"


def test_the_grid_markdown_is_a_table(view):
    html = MarkdownIt("commonmark").enable("table").render(
        history_text(view, Markdown(), grid=True))
    root = ET.fromstring(f"<root>{html}</root>")
    header = [th.text for th in root.findall(".//thead//th")]
    assert header[:3] == ["Round", "President", "Chancellor"] and header[3:-3] == list(view.players)
    body = root.findall(".//tbody/tr")
    assert len(body) == len(elections(view))


def test_the_grid_in_bbcode_is_an_aligned_code_block_or_a_table(view):
    text = history_text(view, BBCode(), grid=True)
    block = re.search(r"\[code\](.*)\[/code\]", text, re.S)
    assert block
    lines = block.group(1).splitlines()
    column = lines[0].index("Result")
    assert all(line[column:].split()[0] in ("elected", "failed", "Hitler") or line.startswith("-")
               for line in lines[1:])
    html = bbcode.Parser().format(text)
    assert "<code>Round" in html and "<strong>Voting record</strong>" in html
    table = history_text(view, BBCode(), bbcode_table=True)
    assert table.count("[tr]") == len(elections(view)) + 1


def test_the_grid_in_plain_text_is_aligned(view):
    lines = history_text(view, Plain(), grid=True).splitlines()[1:-1]
    column = lines[0].index("Result")
    assert all(line[column - 2:column] == "  " for line in lines[2:])


@pytest.mark.parametrize("name", list(FORMATS))
def test_history_snapshot(view, name):
    text = history_text(view, FORMATS[name]()) + "\n"
    path = SNAPSHOTS / f"history.{name}.txt"
    if os.environ.get("SHMOD_UPDATE_SNAPSHOTS"):
        path.write_text(text)
    assert text == path.read_text(), f"{path.name} differs (SHMOD_UPDATE_SNAPSHOTS=1 to accept)"


def test_history_command(run, tmp_path):
    from shmod.log import store

    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cat", "Dan", "Eve"], seed="h", first="Ann", created=AT)
    code, out, _ = run("history", "-g", str(path))
    assert code == 0 and "no election yet" in out
    run("nominate", "Bob", "-g", str(path))
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
        run("vote", name, "nein" if name == "Cat" else "ja", "-g", str(path))
    code, out, _ = run("history", "-g", str(path), "-f", "markdown")
    assert code == 0 and "**Round 1** · President Ann · Chancellor Bob · elected  \n" \
        "Ja (4): Ann, Bob, Dan, Eve  \nNein (1): Cat" in out
    code, out, _ = run("history", "-g", str(path), "-f", "markdown", "--grid")
    assert code == 0 and "| 1 | Ann | Bob | Ja | Ja | Nein | Ja | Ja | elected |" in out
    assert "──" not in out


def test_one_election_is_not_called_elections(tmp_path, run):
    log = tmp_path / "g.yaml"
    assert run("new", "Ann", "Bob", "Cy", "Dee", "Eve", "-g", str(log))[0] == 0
    from shmod.log.store import load

    state = load(str(log)).table
    nominee = state.game.players[(state.game.president + 1) % 5]
    assert run("nominate", nominee, "-g", str(log))[0] == 0
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        assert run("vote", name, "ja", "-g", str(log))[0] == 0
    out = run("history", "-g", str(log))[1]
    assert "(1 election)" in out and "elections" not in out


# -- issue 33 §3: at 80 columns and on a phone -------------------------------------------

#: Ten forum names of 40 characters each, words a line can break between.
LONG = [f"{first} {'the Lonely Moderator of the Far Seas'[:39 - len(first)]}"
        for first in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")]


@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> Moderator:  # type: ignore[no-untyped-def]
    """Ten players with 40-character names, votes mostly failing (many rounds, chaos),
    claims now and then (R-CLAIM), played to the end, in a folder of its own for the
    installed shmod."""
    assert all(len(name) == 40 for name in LONG)
    header = new_header(LONG, seed="5" * 32, salt="6" * 32, created=AT)
    state = start(parse_setup(header))
    rng, steps = random.Random(33), []
    while state.game.phase != OVER:
        options = legal_steps(state)
        noes = [s for s in options if isinstance(s, Vote) and not s.vote]
        step = ((rng.random() < 0.1 and random_claim(state, rng))
                or rng.choice(noes if noes and rng.random() < 0.45 else options))
        engine.apply(state, step)
        steps.append(step)
    mod = Moderator(tmp_path_factory.mktemp("long"))
    mod.log.parent.mkdir(parents=True)
    mod.log.write_text(store.log_text(header, steps, at=AT))
    assert len(elections(public_view(state))) >= 16
    assert len(claim_texts.in_effect(state.public)) >= 10
    return mod


def test_plain_text_history_is_within_80_columns(long_game):
    text = long_game.run("history", "-f", "plain").stdout
    assert max(map(len, text.splitlines())) <= 80
    state = store.load(str(long_game.log)).table
    rows = elections(public_view(state))
    text, said = text.split("\nClaims (")  # then a line a claim, marked
    assert said.count("\n- ") == len(claim_texts.in_effect(state.public))
    assert said.count(" · true") + said.count(" · false") == len(claim_texts.in_effect(state.public))
    blocks = text.rstrip("\n").split("\n\n")[1:]
    assert len(blocks) == len(rows)
    for block, row in zip(blocks, rows):  # every living seat's vote once, in seating order
        lines = block.replace("\n  ", " ").splitlines()
        voters = [name for line in lines[1:3] for name in line.split(": ", 1)[1].split(", ")
                  if name != "—"]
        assert sorted(voters) == sorted(name for name, vote in row.votes if vote is not None)
        for line, ballot in zip(lines[1:3], (True, False)):
            listed = line.split(": ", 1)[1].split(", ")
            assert listed == [n for n, v in row.votes if v is ballot] or listed == ["—"]


def test_the_history_scrolls_no_page_sideways_on_a_phone(long_game, browser, tmp_path):  # noqa: F811
    """Each profile's history, as its engine renders it, in a page at 375 px."""
    for profile in [p for p in FORMATS if p != "plain"]:
        html = PARSERS[profile](long_game.run("history", "-f", profile).stdout)
        page = tmp_path / f"{profile}.html"
        page.write_text('<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
                        'content="width=device-width, initial-scale=1"></head>'
                        f"<body>{html}</body></html>")
        opened = browser.new_context(viewport=PHONE)
        try:
            tab = opened.new_page()
            tab.goto(page.resolve().as_uri())
            wide = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        finally:
            opened.close()
        assert wide <= 0, f"{profile}: {wide} px wider than a phone"
