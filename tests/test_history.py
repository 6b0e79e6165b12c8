"""Issue 10 §3: ``shmod history``, the voting record as a grid, in three formats, checked
through the parsers a forum would use and against snapshots read by eye."""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import bbcode
import pytest
from markdown_it import MarkdownIt
from scripted import AT
from thread_example import example_game

from shmod.forum import engine
from shmod.forum.setup import start
from shmod.game.events import Tallied
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
        assert row.votes == [DEAD if v is None else "Ja" if v else "Nein"
                             for _, v in tally.votes]
    assert any(DEAD in row.votes for row in rows)  # executions show
    assert any(row.policy.startswith("chaos") for row in rows)


def test_markdown_is_a_table(view):
    html = MarkdownIt("commonmark").enable("table").render(history_text(view, Markdown()))
    root = ET.fromstring(f"<root>{html}</root>")
    header = [th.text for th in root.findall(".//thead//th")]
    assert header[:3] == ["Round", "President", "Chancellor"] and header[3:-3] == list(view.players)
    body = root.findall(".//tbody/tr")
    assert len(body) == len(elections(view))


def test_bbcode_is_an_aligned_code_block_or_a_table(view):
    text = history_text(view, BBCode())
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


def test_plain_is_aligned(view):
    lines = history_text(view, Plain()).splitlines()[1:]
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
    from shmod.log import game

    path = tmp_path / "g.yaml"
    game.new_game(str(path), ["Ann", "Bob", "Cat", "Dan", "Eve"], seed="h", first="Ann", created=AT)
    code, out, _ = run("history", "-g", str(path))
    assert code == 0 and "no election yet" in out
    run("nominate", "Bob", "-g", str(path))
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
        run("vote", name, "nein" if name == "Cat" else "ja", "-g", str(path))
    code, out, _ = run("history", "-g", str(path), "-f", "markdown")
    assert code == 0 and "| 1 | Ann | Bob | Ja | Ja | Nein | Ja | Ja | elected |" in out
    assert "──" not in out


def test_one_election_is_not_called_elections(tmp_path, run):
    log = tmp_path / "g.yaml"
    assert run("new", "Ann", "Bob", "Cy", "Dee", "Eve", "-g", str(log))[0] == 0
    from shmod.log.game import load

    state = load(str(log)).state
    nominee = state.game.players[(state.game.president + 1) % 5]
    assert run("nominate", nominee, "-g", str(log))[0] == 0
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        assert run("vote", name, "ja", "-g", str(log))[0] == 0
    out = run("history", "-g", str(log))[1]
    assert "(1 election;" in out and "elections" not in out
