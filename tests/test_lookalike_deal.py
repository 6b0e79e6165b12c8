"""Issue 41, "the deal" (R-DEAL, log format 5): how the moderator transcribes a post cannot
move the deal.

On main f58529d (format 4) ``Cy modern`` and ``Cy rnodern`` dealt different roles, so did
every look-alike transcription (``0``/``o``, ``1``/``l``, ``cl``/``d``, ``vv``/``w``), and the
audit said "nobody could choose them"; ``🅰pple`` was recorded ``pple`` while the thread
showed "apple"; ``apple :P`` was recorded ``applep`` on a forum that shows a smiley. Now the
deal keys on each word's look-alike key (docs/verify.md 5.3, ``shmod/forum/wordkey.py``),
symbols are refused, a word the game's forum shows otherwise is refused naming what it
shows, the words post still shows each recorded word, and the audit warns where a format-4
deal left that choice.

The steering search is a property test with a fixed seed and a budget: a moderator's
choice, for every word of a seven-player game, among the transcriptions of what the thread
shows (every look-alike glyph, symbol and markup alternative of :data:`ALIKE`, as typed
or as the forum renders it). ``SHMOD_STEER_CASES`` games (default 150) drawn with
``SHMOD_STEER_SEED`` (default 41): in format 5 no word may have two accepted transcriptions
that deal differently (0 steering successes); the same search finds such words in format 4,
so it can fail.
"""
from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest
from installed import Moderator
from scripted import AT

from shmod.audit import log_audit
from shmod.base.errors import RuleBroken
from shmod.forum.log_formats import FORMATS
from shmod.forum.steps import Word
from shmod.forum.wordkey import FOLD, lookalike_key
from shmod.log import store
from shmod.texts import formats, word_markup

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
CASES = int(os.environ.get("SHMOD_STEER_CASES", "150"))
SEED = int(os.environ.get("SHMOD_STEER_SEED", "41"))
ROOT = Path(__file__).resolve().parent.parent
#: What a forum's font shows alike (written independently of shmod's table): each group's
#: members show the same; a glyph may be transcribed as any member of its group.
ALIKE = [("l", "I", "1", "|", "\u2223", "\uff5c"), ("O", "0", "\u25cb"), ("S", "5", "$"),
         ("Z", "2"), ("B", "8"), ("b", "6"), ("g", "9", "q"), ("m", "rn", "IVI"),
         ("d", "cl", "cI", "c1"), ("w", "vv"), ("W", "VV"), ("A", "\U0001f170", "\U0001f150"),
         ("a", "\u237a"), ("e", "\u212e"), ("x", "\u00d7"), ("E", "\u22ff"),
         ("v", "\\/"), ("o", "()")]
#: Markup and what each forum shows for it (the raw text is one transcription, the shown
#: text another): smiley codes, strike-through, links, Discourse's typographer.
MARKUP = [(":P", "\U0001f61b"), (":D", "\U0001f600"), ("<3", "\u2764"), ("o_O", "\U0001f633"),
          ("~~pear~~", "pear"), ("[fig](https://x.test)", "fig"), ("(c)", "\u00a9"),
          ("+-", "\u00b1")]
WORDS = (  # noqa: SIM905 - a list read as prose
    "modern clear word love lemon season book quiz apple banana cherry orange mango melon "
    "island violin window dolphin bottle silver wizard museum candle forest summer mirror "
    "diamond willow pillow helmet goblin saddle meadow puzzle glimmer dream cloud bridge "
    "tiger 42 1984 cava strasse thorn").split()


def _variants(text: str, rng: random.Random, cap: int = 48) -> list[str]:
    """Up to ``cap`` transcriptions of ``text``: every occurrence of a member of an
    :data:`ALIKE` group may be typed as any member."""
    choices: list[list[str]] = []
    at = 0
    while at < len(text):
        group = next((g for g in ALIKE for m in sorted(g, key=len, reverse=True)
                      if text.startswith(m, at)), None)
        if group is None:
            choices.append([text[at]])
            at += 1
            continue
        member = next(m for m in sorted(group, key=len, reverse=True) if text.startswith(m, at))
        choices.append(list(group))
        at += len(member)
    every = [list(c) for c in choices]
    out = {text}
    for _ in range(cap * 4):
        out.add("".join(rng.choice(c) for c in every))
        if len(out) >= cap:
            break
    return sorted(out)


def _shown(rng: random.Random) -> list[str]:
    """A word as a player may post it, and each markup transcription of it: as typed, and
    as the forum shows it."""
    word = rng.choice(WORDS)
    word = rng.choice([word, word.capitalize(), word.upper()])
    if rng.random() < 0.3:
        raw, rendered = rng.choice(MARKUP)
        return [f"{word} {raw}", f"{word} {rendered}"]
    return [word]


def _accepted(typed: str, number: int, profile: formats.Plain) -> str | None:
    """What the deal reads of ``typed`` in format ``number`` (its words' seed line), or
    None when ``shmod word`` refuses it."""
    form = FORMATS[number]
    try:
        if form.words.forum:
            word_markup.refuse(typed, profile)
        recorded = form.words.record(typed)
    except RuleBroken:
        return None
    return form.words.message([recorded], ["Ann"]).split("\n")[1]


def _steered(number: int, rng: random.Random) -> tuple[int, int]:
    """One seven-player game's words: how many transcriptions were tried, and how many
    words had two accepted transcriptions the deal reads differently."""
    profile = formats.get(rng.choice(list(formats.FORMATS)))
    tried = steered = 0
    for _ in range(7):
        keys = set()
        for shown in _shown(rng):
            for typed in _variants(shown, rng):
                tried += 1
                key = _accepted(typed, number, profile)
                if key is not None:
                    keys.add(key)
        steered += len(keys) > 1
    return tried, steered


def test_the_steering_search_finds_no_choice_in_format_5_and_finds_them_in_format_4(
        report_counts):
    found = {}
    for number in (5, 4):
        rng = random.Random(SEED)
        tried = steered = games = 0
        for _ in range(CASES):
            t, s = _steered(number, rng)
            tried, steered, games = tried + t, steered + s, games + (s > 0)
        found[number] = (tried, steered, games)
    report_counts("steering (format 5)", f"{CASES} games, {found[5][0]} transcriptions tried, "
                  f"{found[5][2]} games steerable, {found[5][1]} words")
    assert found[5][1] == 0
    assert found[4][2] > CASES // 2  # the search has teeth: format 4 left a choice


def test_every_fold_row_and_pair_deals_alike_and_the_key_is_one_form():
    assert lookalike_key("modern") == lookalike_key("rnodern") == lookalike_key("iviodern")
    for source, written in FOLD.items():
        assert lookalike_key(f"x{source}y") == lookalike_key(f"x{written}y")
    for a, b in [("clear", "dear"), ("vvord", "word"), ("c1ear", "dear"), ("5ea5on", "season"),
                 ("vw", "wv"), ("vvv", "wv")]:
        assert lookalike_key(a) == lookalike_key(b), (a, b)
    rng = random.Random(SEED)
    for _ in range(2000):  # the key of a key is itself: one form per class
        word = "".join(rng.choice("0123456789abcdefghijklmnopqrstuvwxyz")
                       for _ in range(rng.randint(1, 12)))
        assert lookalike_key(lookalike_key(word)) == lookalike_key(word)


def _words_game(tmp_path: Path, name: str, words: list[str]) -> tuple[tuple[str, ...], str]:
    """A words-dealt game of format 5 with these words typed; its roles, and its text."""
    path = tmp_path / name
    shutil.copy(tmp_path / "base.yaml", path)
    form = FORMATS[5]
    for seat, typed in enumerate(words):
        store.record(str(path), lambda g, s=seat, t=typed: Word(s, form.words.record(t)), at=AT)
    loaded = store.load(str(path))
    return tuple(loaded.table.game.roles), path.read_text()


def test_modern_and_rnodern_deal_the_same_roles_and_the_post_shows_each_as_typed(tmp_path):
    store.new_game(str(tmp_path / "base.yaml"), NAMES, deal_by="players", seed="7c" * 16,
                   created=AT)
    base = ["lemon", "apple", None, "cloud", "willow"]
    one, text = _words_game(tmp_path, "one.yaml", [w or "modern" for w in base])
    other, text2 = _words_game(tmp_path, "two.yaml", [w or "rnodern" for w in base])
    assert one == other
    assert "modern" in text and "rnodern" in text2  # recorded as typed, shown as recorded
    loaded = store.load(str(tmp_path / "two.yaml"))
    from shmod.texts import thread_posts
    dealt_post = thread_posts.earlier_post(loaded, len(loaded.table.posts), formats.Plain()).text
    assert "rnodern" in dealt_post
    report = log_audit.audit_file(str(tmp_path / "two.yaml"))
    assert report.valid and "nobody could choose them" in (report.deal or "")
    assert not any(w.kind == "steerable" for w in report.warnings)


def test_the_same_through_the_installed_shmod(tmp_path):
    mod = Moderator(tmp_path)
    mod.run("new", *NAMES, "--deal", "players")
    copy = tmp_path / "games" / "copy.yaml"
    shutil.copy(mod.log, copy)
    mod.run("word", "Ann", "lemon", "Bob", "apple", "Cy", "modern", "Dee", "cloud", "Eve", "l0ve")
    mod.run("word", "Ann", "lemon", "Bob", "apple", "Cy", "rnodern", "Dee", "cloud", "Eve", "love",
            "-g", str(copy))
    assert store.load(str(mod.log)).table.game.roles == store.load(str(copy)).table.game.roles


@pytest.mark.parametrize("typed", ["\U0001f170pple", "\U0001f150pple", "\U0001f1e6pple",
                                   "\u237apple", "\u25cbrange", "\u00d7mas", "he\u2223\u2223o",
                                   "c\uff5cean", "\u212evil", "\u22ffgg", "$nake",
                                   "\U0001d41apple", "\u24d0pple", "\\/\\/ord", "c()de"])
def test_a_symbol_is_refused_not_dropped(typed):
    with pytest.raises(RuleBroken, match="R-DEAL"):
        FORMATS[5].words.record(typed)
    assert FORMATS[5].words.record("Crème brûlée!") == "cremebrulee"


@pytest.mark.parametrize("forum, typed, shown", [
    ("xenforo", "apple <3", "'<3' as a smiley picture"),
    ("phpbb", "apple :P", "':P' as a smiley picture"),
    ("discourse", "~~banana~~ apple", "'~~banana~~' as 'banana' struck through"),
    ("discourse", "[w](url)", "as a link showing 'w'"),
    ("discourse", "apple(c)", "'(c)' as '\u00a9'"),
    (None, "x:Dx", "':D' as a smiley picture on bbcode, phpbb"),
])
def test_markup_the_games_forum_shows_otherwise_is_refused_naming_what_it_shows(
        tmp_path, forum, typed, shown):
    mod = Moderator(tmp_path)
    mod.run("new", *NAMES, "--deal", "players", *(["--forum", forum] if forum else []))
    err = mod.refused("word", "Ann", typed, rule="R-DEAL")
    assert shown in err and "shown otherwise than typed" in err


def test_a_format_4_words_deal_with_look_alike_letters_is_flagged():
    report = log_audit.audit_file(str(ROOT / "games" / "words-dealt-8-players.yaml"))
    assert report.valid
    [warning] = [w for w in report.warnings if w.kind == "steerable" and w.rule == "R-DEAL"]
    assert "format 4 dealt each word as it was transcribed" in warning.message
    assert "nobody could choose them" not in (report.deal or "")


def test_the_look_alike_classes_cover_the_confusables_data_among_letters_and_digits():
    """Every pair Unicode's confusables data lists among ASCII letters and digits (case
    folded: a word is recorded in small letters) deals alike."""
    from shmod.forum.names import ASCII_PROTOTYPES

    for source, prototype in ASCII_PROTOTYPES.items():
        if source.isalnum() and prototype.isalnum():
            assert lookalike_key(source.lower()) == lookalike_key(prototype.lower())
