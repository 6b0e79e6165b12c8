"""Issue 33 §3: a name shows as typed, never as a smiley (docs/posts.md: names show
literally).

A player named ``Eve :)`` or ``Hal 8-)`` showed as a smiley image on phpBB, as 🙂 or 😎 on
Discourse and as a smilie on XenForo, in the seating, the tallies, the lapse lines and
the history. Each engine's reading is modelled here as its parser applies it:

- phpBB (and the BBCode profiles, on phpBB's defaults): s9e's Emoticons plugin over the
  post's text as typed, tags included, with phpBB's settings (a code only at the start,
  after a newline, a space, a dot or a "]", and not before a word character), never inside
  ``[code]``;
- XenForo: its default smilies in the text between tags, in any case, anywhere;
- Discourse: its emoji rule (pretty-text's emoji.js) as a markdown-it core rule after
  every other, on each inline text token: a ``:name:`` of an emoji after a space or
  punctuation, a shortcut after a space or punctuation and before a space or the end.

Whole games of players with such names (every kind of text, tests/test_forum_profiles.py's
``_texts``) and the issue's commands through the installed ``shmod`` show no smiley in any
profile, and every name shows as typed.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from installed import Moderator
from markdown_it import MarkdownIt
from markdown_it.common.utils import isPunctChar, isStrSpace
from markdown_it.rules_core import StateCore
from test_forum_profiles import _details, _texts, flat, to_html

from shmod.forum import deadlines, engine
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Lapse, Replace, SetDeadline
from shmod.forum.turns import legal_steps
from shmod.game.events import Tallied
from shmod.game.steps import Step, Vote
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import smilies
from shmod.texts.formats import FORMATS

#: Names with codes of each engine's list (the issue's two first).
NAMES = ["Eve :)", "Hal 8-)", "Ann :smile:", "Bo ;-)", "Cy :D", "Dee (y)", "Gus :P",
         "Ivy o_O"]
REPLACEMENT = "Zed ^_^"
#: Emoji names Discourse knows (its emoji data), enough for the names above.
EMOJI = {"smile", "slight_smile", "sunglasses", "wink", "smiley", "stuck_out_tongue",
         "stuck_out_tongue_winking_eye", "open_mouth", "expressionless", "confused", "cry",
         "frowning", "blush", "grin", "+1", "thumbsup", "heart"}
AT = "2026-01-01T00:00:00Z"


# -- each engine's reading ---------------------------------------------------------------


def _alternatives(codes: tuple[str, ...]) -> str:
    return "|".join(re.escape(c) for c in sorted(codes, key=len, reverse=True))


#: phpBB 3.3's factory: notAfter = '[^\n .\]]', notBefore = '\w', codes as typed.
PHPBB = re.compile(rf"(?<![^\n .\]])(?:{_alternatives(smilies.PHPBB_CODES)})(?!\w)")
XENFORO = re.compile(_alternatives(smilies.XENFORO_CODES), re.IGNORECASE)
TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.IGNORECASE)


def phpbb_smilies(text: str) -> list[str]:
    """What phpBB would show as smilies: its text as typed, outside [code]."""
    return PHPBB.findall(re.sub(r"\[code\].*?\[/code\]", "", text, flags=re.S | re.I))


def xenforo_smilies(text: str) -> list[str]:
    """What XenForo would show as smilies: in each run of text between tags."""
    text = re.sub(r"\[(code|plain|icode)\].*?\[/\1\]", "", text, flags=re.S | re.I)
    return [found for piece in TAG.split(text) for found in XENFORO.findall(piece)]


def _emoji_rule(found: list[str]) -> Callable[[StateCore], None]:
    """Discourse's emoji rule (enable_emoji and enable_emoji_shortcuts on, inline emoji
    off), collecting the codes it would turn into pictures."""
    shortcuts = sorted(smilies.DISCOURSE_CODES, key=len, reverse=True)

    def boundary(content: str, at: int) -> bool:  # start, or after a space or punctuation
        return at == 0 or isStrSpace(content[at - 1]) or isPunctChar(content[at - 1])

    def scan(content: str) -> None:
        i = 0
        while i < len(content) - 1:
            named = re.match(r":([^:]{1,59}):", content[i:])
            if named and boundary(content, i) and named.group(1).lower() in EMOJI:
                found.append(named.group())
                i += len(named.group())
                continue
            code = next((c for c in shortcuts if content.startswith(c, i)), None)
            end = i + len(code) if code else i
            if code and boundary(content, i) and (end == len(content)
                                                  or isStrSpace(content[end])):
                found.append(code)
                i = end
                continue
            i += 1

    def rule(state: StateCore) -> None:
        for block in state.tokens:
            for token in block.children or ():
                if block.type == "inline" and token.type == "text":
                    scan(token.content)
    return rule


def discourse_smilies(text: str) -> list[str]:
    found: list[str] = []
    md = MarkdownIt("commonmark", {"breaks": True}).enable(["table", "strikethrough"])
    md.block.ruler.after("fence", "details", _details,
                         {"alt": ["paragraph", "reference", "blockquote", "list"]})
    md.core.ruler.push("emoji", _emoji_rule(found))
    md.parse(text)
    return found


READERS: dict[str, Callable[[str], list[str]]] = {
    "bbcode": phpbb_smilies, "phpbb": phpbb_smilies, "phpbb-spoiler": phpbb_smilies,
    "xenforo": xenforo_smilies, "discourse": discourse_smilies}


@pytest.mark.parametrize("profile", list(READERS))
def test_each_reading_finds_the_smilies_of_a_name_as_typed(profile):
    """The models fire on the issue's names: without the profile's escaping, a smiley."""
    assert READERS[profile]("Eve :) votes") and READERS[profile]("Hal 8-) votes")
    assert READERS[profile]("[b]Eve :)[/b] votes Ja") or profile == "discourse"
    if profile == "discourse":
        assert discourse_smilies("**Eve :)**, Bob") and discourse_smilies("Ann :smile:, x")
        assert not discourse_smilies("Eve:) and Bo :)x")  # no boundary, no emoji


@pytest.mark.parametrize("profile", list(READERS))
def test_a_name_escaped_for_the_profile_is_no_smiley(profile):
    fmt = FORMATS[profile]()
    for name in [*NAMES, REPLACEMENT, ":):)", ">:(", ":?:", "x :smile:wink:", "8-)8-)"]:
        for context in ("{}", "Votes: {}, Ann", "[b]{}[/b]", "**{}**", "{}\nNext"):
            text = context.format(fmt.escape(name))
            assert not READERS[profile](text), (profile, name, text)


# -- whole games ------------------------------------------------------------------------


def _smiley_game() -> tuple[dict[str, object], list[Step]]:
    """Eight players with smiley names under the lapse house rules: the first votes lapse
    (a lapse line naming them), a seat is taken over by one more, then play to the end."""
    header = new_header(NAMES, seed="9" * 32, salt="8" * 32, created=AT,
                        variants=["late_vote=nein", "late_choice=random"])
    state = start(parse_setup(header))
    steps: list[Step] = []

    def apply(step: Step) -> None:
        engine.apply(state, step)
        steps.append(step)

    rng = random.Random(7)
    while state.game.phase != "vote":
        apply(legal_steps(state)[0])
    apply(Vote(state.game.president, True))
    apply(SetDeadline(until="2026-01-02T00:00:00Z", zone="UTC"))
    apply(Lapse(deadline=state.entries, at="2026-01-03T00:00:00Z",
                choice=deadlines.drawn(state, state.entries + 1)))
    apply(Replace(target=3, name=REPLACEMENT))
    while state.game.phase != OVER:
        options = legal_steps(state)
        yes = [s for s in options if isinstance(s, Vote) and s.vote]
        apply(rng.choice(yes if yes and rng.random() < 0.7 else options))
    return header, steps


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[store.Loaded, list[Step]]:  # type: ignore[no-untyped-def]
    header, steps = _smiley_game()
    path = tmp_path_factory.mktemp("smilies") / "g.yaml"
    path.write_text(store.log_text(header, steps, at=AT))
    return store.load(str(path)), steps


@pytest.mark.parametrize("profile", list(READERS))
def test_no_text_of_a_whole_game_shows_a_name_as_a_smiley(played, profile):
    game, steps = played
    texts = _texts(game, steps, FORMATS[profile]())
    assert len(texts) > 200
    kinds = {text.kind for text in texts}
    assert {"Started", "Tallied", "Lapsed", "history", "reveal", "replay-post"} <= kinds
    for text in texts:
        assert not READERS[profile](text.text), (profile, text.kind, text.text)
    names = [*NAMES, REPLACEMENT]
    shown = flat(to_html(profile, next(t.text for t in texts if t.kind == "history")))
    assert all(name in shown.replace("\u2060", "") for name in names)


def test_the_issue_s_commands_show_the_names_as_typed(tmp_path):
    """Through the installed shmod: the opening post's seating, a tally and the history."""
    for profile in READERS:
        (tmp_path / profile).mkdir()
        mod = Moderator(tmp_path / profile)
        mod.run("new", "Eve :)", "Hal 8-)", "Ann", "Bob", "Cat", "--forum", profile,
                "--first", "Ann")
        opening = mod.run("send", "thread").stdout  # from the outbox
        mod.run("nominate", "Hal 8-)")
        mod.run("vote", "Eve :)", "ja", "Hal 8-)", "ja", "Ann", "ja", "Bob", "nein", "Cat",
                "nein")
        tally = mod.run("post", "--again", "3").stdout
        history = mod.run("history").stdout
        for text in (opening, tally, history):
            assert not READERS[profile](text), (profile, text)
            shown = flat(to_html(profile, text)).replace("\u2060", "")
            assert "Eve :)" in shown and "Hal 8-)" in shown, (profile, shown)
        assert any(isinstance(ev, Tallied) for ev in store.load(str(mod.log)).table.public)
