"""Issue 33 §3: bold that closes in CommonMark, and a briefing that says where to send.

A closing ``**`` after a space is no closing mark in CommonMark (nor an opening one before
a space), so ``**The game is waiting for you now: **your vote`` showed its asterisks on
Discourse. The Markdown profiles keep a bold text's edge spaces outside its marks, and
every message of every catalog that marks up words of its own (``{on}…{off}``) is read
back by markdown-it-py: each span must become bold. The replacement's briefing names
where what it owes goes: the thread for a nomination or a word, a PM for the rest.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from installed import Moderator
from markdown_it import MarkdownIt

from shmod.texts import catalog
from shmod.texts.formats import FORMATS

LOCALE = Path(catalog.LOCALE)
#: Discourse's reading: CommonMark, a newline a line break.
DISCOURSE = MarkdownIt("commonmark", {"breaks": True})
FIELD = re.compile(r"\{(\w+)\}")


def _messages() -> list[tuple[str, str]]:
    """(language, text) of every message and plural form, English from the template, each
    shipped catalog's translations, and the pseudo-language."""
    with (LOCALE / "shmod.pot").open("rb") as file:
        template = read_po(file)
    ids = [form for m in template if m.id for form in (m.id if isinstance(m.id, tuple)
                                                      else (m.id,))]
    out = [("en", text) for text in ids] + [("qps", catalog.pseudo(text)) for text in ids]
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/shmod.po")):
        with po.open("rb") as file:
            translated = read_po(file)
        out += [(po.parent.parent.name, form) for m in translated if m.id and m.string
                for form in (m.string if isinstance(m.string, tuple) else (m.string,))
                if form]
    return out


SPANS = [(code, text) for code, text in _messages() if "{on}" in text]


def test_the_catalogs_have_bold_spans_to_check():
    assert len({text for code, text in SPANS if code == "en"}) >= 10


@pytest.mark.parametrize("code", sorted({code for code, _ in SPANS}))
def test_every_span_a_message_marks_up_is_bold_in_commonmark(code):
    """Each ``{on}…{off}`` of each message, its fields filled with a name, renders as
    <strong> and leaves no asterisk (``{on}waiting: {off}`` would)."""
    for _, text in [(c, t) for c, t in SPANS if c == code]:
        fields = {name: "Name" for name in FIELD.findall(text)}
        fields.update(on="**", off="**")
        html = DISCOURSE.render(text.format(**fields))
        assert "*" not in re.sub(r"<[^>]+>", "", html), (code, text, html)
        assert html.count("<strong>") == text.count("{on}"), (code, text, html)


@pytest.mark.parametrize("profile", ["markdown", "discourse"])
def test_markdown_keeps_edge_spaces_outside_the_marks(profile):
    fmt = FORMATS[profile]()
    assert fmt.bold("waiting: ") == "**waiting:** "
    assert fmt.bold(" Ann") == " **Ann**"
    assert fmt.italic(" dead ") == " *dead* "
    rendered = DISCOURSE.render(f"x {fmt.bold('The game is waiting: ')}your vote")
    assert "<strong>The game is waiting:</strong> your vote" in rendered


def _briefing(out: str) -> str:
    return next(line for line in out.splitlines() if "waiting for you now" in line)


def test_a_replacement_owing_a_vote_reads_bold_and_is_told_to_send_it_by_pm(tmp_path):
    """The issue's repro, through the installed shmod, read as Discourse reads it."""
    mod = Moderator(tmp_path)
    mod.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--forum", "discourse", "--first", "Ann")
    mod.run("nominate", "Bob")
    mod.run("vote", "Ann", "ja")
    assert mod.run("replace", "Dan", "Yul").stdout == ""  # the briefing waits in the outbox
    line = _briefing(mod.run("send", "Yul").stdout)
    html = DISCOURSE.render(line)
    assert "<strong>The game is waiting for you now:</strong> your vote, Ja or Nein" in html
    assert "*" not in re.sub(r"<[^>]+>", "", html), html
    assert line.endswith("Please send it to me by PM.") and "nomination" not in line


def test_a_replacement_owing_a_nomination_is_told_to_post_it_in_the_thread(tmp_path):
    mod = Moderator(tmp_path)
    mod.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--forum", "discourse", "--first", "Ann")
    assert mod.run("replace", "Ann", "Yul").stdout == ""  # the briefing waits in the outbox
    line = _briefing(mod.run("send", "Yul").stdout)
    assert "your nomination of a Chancellor" in line
    assert line.endswith("Please post it in the thread.") and "by PM" not in line
