"""Issue 33 §2: a whole game in each shipped language shows no English word of shmod's,
in every output profile, and the forum engines read it as written.

Each test runs for every language with a catalog (``tools/catalog.py``'s ``languages()``),
so a language added later gets every check (tests/test_catalogs_complete.py checks each
catalog itself: complete, its fields, marks and lines kept):

- whole games rendered in the language in all seven profiles — every event, whole posts,
  whose move, reminders, prods, every PM, the board, the rules card, the history, the
  reveal, the game in one post (tests/test_forum_profiles.py's four games), and the
  directed and moderated games of tests/test_catalog_bypass.py (a lapse in every phase,
  corrections, a deadline in another zone, a hand-over) — hold no English word of shmod's:
  a word of the template's messages that none of the language's translations uses, once
  the players' names and words, markup and the machine-read lines are taken out;
- read by each forum engine's parser (tests/test_forum_profiles.py's), those texts show
  only the words of the plain profile's text: no markup is left standing as text and none
  swallowed a word;
- no translation longer than a label of two words is left as its English message (it
  would count as translated, and its words would hide from the check above);
- every string the code marks (``_``, ``_p``, ``_n``, ``_np``, ``N_``, ``Np_``) is in the
  template, found by reading the code, so that a lookup no game reaches is covered too:
  Babel's extractor loses a message nested in another's call or written inside an
  f-string, which then shows in English in every language.
"""
from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import test_catalog_bypass as bypass
import test_forum_profiles as profiles
from babel.messages.catalog import Catalog, Message
from test_catalog import tool
from test_forum_profiles import games_played

from shmod.texts import replay_frames, replay_post
from shmod.texts.formats import FORMATS, Plain, get as profile

__all__ = ["games_played"]  # the four games of test_forum_profiles, a module fixture

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = tool().languages()
#: The marking functions and where their message (and context) stand among the arguments.
MARKERS = {"_": (None, (0,)), "_p": (0, (1,)), "_n": (None, (0, 1)), "_np": (0, (1, 2)),
           "N_": (None, (0,)), "Np_": (0, (1,))}
WORD = re.compile(r"[^\W\d_]{2,}")


@functools.cache
def po(code: str) -> Catalog:
    return tool().read(tool().po_path(code), code)


def messages(code: str) -> Iterator[Message]:
    return (m for m in po(code) if m.id)


def label(text: str) -> bool:
    """Whether ``text`` is a label (at most two words), which a language may share with
    English; a longer message left as in English is untranslated."""
    return len(WORD.findall(re.sub(r"\{[^}]*\}", " ", text))) <= 2


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_translation_is_left_in_english(code):
    """A label of at most two words ("Hitler", "{name}: {role}") may be the same in both."""
    copied = [m.id for m in messages(code) if m.string == m.id and not label(m.id)]
    assert copied == [], f"{code}: as in English: {copied[:3]}"


def marked_in_code(root: Path = ROOT) -> Iterator[tuple[str, int, str | None, object]]:
    """Every call of a marking function in ``root/shmod/`` with literal strings: its file,
    line, context and message id (a pair for a plural)."""
    for path in sorted((root / "shmod").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name not in MARKERS:
                continue
            context_at, ids_at = MARKERS[name]
            wanted = [context_at, *ids_at] if context_at is not None else list(ids_at)
            if len(node.args) <= max(wanted) or not all(
                    isinstance(node.args[i], ast.Constant) and isinstance(node.args[i].value, str)
                    for i in wanted):
                continue
            ids = [node.args[i].value for i in ids_at]  # type: ignore[attr-defined]
            context = node.args[context_at].value if context_at is not None else None  # type: ignore[attr-defined]
            yield (str(path.relative_to(root)), node.lineno, context,
                   ids[0] if len(ids) == 1 else tuple(ids))


def test_every_message_the_code_marks_is_in_the_template():
    """Babel's extractor drops a message nested in another marked call's arguments, and
    one inside an f-string; such a message is looked up at run time, found in no
    catalog, and shows in English in every language."""
    template = tool().keys(tool().read(tool().TEMPLATE))
    found = list(marked_in_code())
    missing = [(where, line, msgid) for where, line, context, msgid in found
               if (msgid, context) not in template]
    assert missing == [] and len(found) > 500, missing


def test_the_scan_sees_a_nested_message_babel_drops(tmp_path):
    """The check above finds what the extractor loses: a call nested in another's, and
    one in an f-string."""
    nested = tmp_path / "shmod" / "nested.py"
    nested.parent.mkdir()
    nested.write_text('t._n("{a} x", "{a} xs", n, a=t._("Inner words"))\n'
                      'f"{t._(\'In an f-string\')}"\n')
    seen = {msgid for _, _, _, msgid in marked_in_code(tmp_path)}
    assert {"Inner words", ("{a} x", "{a} xs"), "In an f-string"} <= seen


# -- whole games in each language -------------------------------------------------------


@functools.cache
def english_only(code: str) -> frozenset[str]:
    """The words of the template's messages that no translation of ``code`` uses (one
    left as its English message counts only if it is a label of at most two words, such
    as "Hitler" or "Seed: {seed} | Salt: {salt}"): one of them in a text of that language
    came from no catalog entry of it."""
    def words(texts: Iterator[str]) -> set[str]:
        return {w.lower() for text in texts for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}

    def forms(value: object) -> tuple[str, ...]:
        return value if isinstance(value, tuple) else (value,)  # type: ignore[return-value]
    template = tool().read(tool().TEMPLATE)
    english = words(form for m in template if m.id for form in forms(m.id))
    translated = words(form for m in messages(code) for form in forms(m.string)
                       if form not in forms(m.id) or label(form))
    return frozenset(english - translated)


def english_words(text: str, fmt: Plain, names: set[str], code: str,
                  values: frozenset[str] = frozenset()) -> list[str]:
    """The English words of shmod's in ``text``, a text in language ``code``: what
    test_catalog_bypass's check leaves of it (names, markup, machine-read lines, time
    zones, rule ids, the ballots taken out), in words of any script, less ``values``
    (a seed or a salt, taken as whole words only)."""
    text = bypass.HEX.sub(" ", bypass.FIXED.sub(" ", text))
    for shown in sorted({n for name in names for n in (name, fmt.escape(name))}, key=len,
                        reverse=True):
        text = text.replace(shown, " ")
    text = bypass.FOREIGN.sub(" ", bypass.MARKUP.sub(" ", text))
    return [w for w in WORD.findall(text) if w.lower() in english_only(code) and w not in values]


def game_texts(game, steps, fmt: Plain) -> list[profiles.Text]:
    """test_forum_profiles' texts of a finished game, the game in one post worded in the
    profile's language too."""
    texts = [t for t in profiles._texts(game, steps, fmt) if t.kind != "replay-post"]
    made = replay_frames.frames(game, reveal=True, lang=fmt.lang)
    texts.append(profiles.Text("replay-post", replay_post.post_text(
        made, fmt, title="Friday", commitment=game.setup.commitment),
        tuple(name for name, _ in made.roles), made))
    return texts


def names_of(game) -> set[str]:
    """Every name and word players chose, and the game's title."""
    state = game.table
    return {*profiles.TYPED, *state.setup.players, *state.game.players, *state.backups,
            *state.words.values(), *(new for _s, _o, new, _e in state.replaced),
            *(new for _s, _o, new, _e in state.renamed), "Friday"}


def values_of(game) -> frozenset[str]:
    """The game's seed and salt, which the reveal shows (a seed may be any word)."""
    return frozenset(v for v in (game.setup.seed, game.setup.salt) if v)


Texts = list[tuple[profiles.Text, set[str], frozenset[str]]]


@pytest.fixture(scope="module")
def texts(games_played) -> Callable[[str, str], Texts]:  # type: ignore[no-untyped-def]
    """``texts(code, profile)``: each text of the four games, with the game's names and
    values."""
    made: dict[tuple[str, str], Texts] = {}

    def of(code: str, name: str) -> Texts:
        if (code, name) not in made:
            fmt = profile(name, lang=code)
            made[code, name] = [(t, names_of(game), values_of(game))
                                for game, steps in games_played
                                for t in game_texts(game, steps, fmt) if t.text]
        return made[code, name]
    return of


class Forum(bypass.Corpus):
    """test_catalog_bypass's games rendered in one language, every text checked for
    English words of shmod's."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    def check(self, entry: bypass.Entry, names: set[str], turn: int) -> None:
        for number, name in enumerate(bypass.PROFILES):
            renderers = bypass.RENDERERS + (
                bypass.SITUATION if turn % len(bypass.PROFILES) == number else []) + (
                bypass.FINISHED if entry.state.game.phase == bypass.OVER else [])
            fmt = profile(name, lang=self.code)
            for render in renderers:
                for kind, text in render(entry, fmt):
                    self.kinds[kind] += 1
                    left = english_words(text, fmt, names, self.code)
                    if left and len(self.problems) < 10:
                        self.problems.append(f"{kind} in {name}: English {left[:5]} in {text!r}")


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_english_word_of_shmods_is_left_in_whole_games(code, texts):
    problems, checked = [], 0
    for name in FORMATS:
        fmt = profile(name, lang=code)
        for text, data, values in texts(code, name):
            checked += 1
            left = english_words(text.text, fmt, data | set(text.players), code, values)
            if left:
                problems.append(f"{text.kind} in {name}: English {left[:5]} in {text.text!r}")
    forum = Forum(code)
    for played in (bypass.directed_game(), bypass.moderated_game()):
        bypass.render_game(forum, played.header, played.plan, "Friday", played.recorder)
    assert problems[:10] + forum.problems == []
    assert checked > 3000 and {"event:Lapsed", "event:HandedOver", "deadline", "reminder",
                               "event:Corrected"} <= set(forum.kinds)


def test_the_english_check_finds_a_sentence_no_catalog_made():
    """An English sentence left in a German text is found; names, the ballots and the
    machine-read checkpoint line are not."""
    fmt = profile("phpbb", lang="de")
    line = "Log checkpoint: post 3 · " + "ab" * 16 + " · " + "cd" * 64
    german = "Präsident [b]Ann[/b] und Kanzler [b]Bob[/b]: Ja\n" + line
    assert english_words(german, fmt, {"Ann", "Bob"}, "de") == []
    assert english_words(german + " The Election Tracker moves.", fmt, {"Ann", "Bob"},
                         "de") == ["The", "Election", "Tracker"]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("name", [p for p in FORMATS if p != "plain"])
def test_each_engine_shows_the_words_and_no_markup(code, name, texts):
    """Each text read by its forum engine's parser: no markup left standing among the
    words (names aside), and every word shown is a word of the plain profile's text."""
    plain = {w for text, _, _ in texts(code, "plain") for w in WORD.findall(text.text)}
    residue = profiles.BB_RESIDUE if name in profiles.BB_PROFILES else profiles.MD_RESIDUE
    problems = []
    for text, data, _ in texts(code, name):
        shown = profiles.to_html(name, text.text)
        for node in profiles.text_nodes(shown):
            node = node.replace("\u2060", "")
            for typed in sorted(data | set(text.players), key=len, reverse=True):
                node = node.replace(typed, " ")
            if residue.search(node):
                problems.append(f"{text.kind}: markup {residue.search(node)!r} in {node!r}")
        words = {w for node in shown.iter() for run in (node.text, node.tail) if run
                 for w in WORD.findall(run.replace("\u2060", ""))}
        for typed in data | set(text.players):
            words -= set(WORD.findall(typed))
        stray = words - plain - {"Spoiler"}  # phpbb-spoiler's own summary
        if stray:
            problems.append(f"{text.kind}: {sorted(stray)[:5]} shown, in no plain text")
    assert problems[:10] == [], f"{code} {name}"
