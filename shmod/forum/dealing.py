"""R-DEAL: a deal nobody can steer, from the moderator's committed seed and the players'
words.

In a game started with ``shmod new --deal players`` the header holds the seed and the
salt but no roles and no deck, and the opening post carries the commitment to them.
Each player then posts one word in the thread; the moderator records each (``word``
entries, like votes: one per seat, final once received). When the last word is in, the
roles, the deck and (unless chosen) the first President follow from :func:`words_seed`:
the moderator fixed the seed before seeing any word, and no player knows the seed, so
neither side could have chosen the deal. The game is dealt through its hook
(:func:`shmod.game.hooks.deal`), as a dealer at the table would deal it.

A word belongs to its seat, and enters in its canonical form: in format 4 plain ``a``-``z``
and ``0``-``9`` (:func:`shmod.forum.wordform.latin_word`: invisible characters and markup
refused, accents dropped, a fixed transliteration, everything else dropped, a letter of
another alphabet refused), so neither a name typed later (a rename, a replacement) nor the
way the moderator transcribes a word can move the deal, and the deal reads the recorded
word with no Unicode data at all. Logs of earlier formats replay as they were written:
format 3 recorded a word in NFKC, case-folded, and dealt by its look-alike skeleton
(:func:`word_key`); format 2 dealt the recorded word itself; format 1 (an earlier shmod)
dealt from names and words as typed (docs/verify.md states each to the byte).
"""
from __future__ import annotations

import json

from shmod.base import digest
from shmod.base.errors import RuleBroken, WrongActor
from shmod.forum.events import Dealt
from shmod.forum.names import shown, skeleton, unseen
from shmod.forum.steps import Word
from shmod.forum.table import Setup, Table
from shmod.forum.turns import word_posters
from shmod.forum.wordform import MAX_WORD, RECORDED, latin_word
from shmod.game import hooks
from shmod.game.setup import from_seed
from shmod.game.terms import Policy, Role


def words_seed(seed: str, words: list[str], format_: int = 4) -> str:
    """R-DEAL: the seed the deal is made from: HMAC-SHA256 keyed with the moderator's
    committed seed (its text, UTF-8) over :func:`words_message`, as 64 hex digits. Nobody
    can choose it: the moderator fixed the seed before the words were posted, and the
    players do not know the seed."""
    return digest.hmac_sha256(seed.encode(), words_message(words, format_).encode())


def words_message(words: list[str], format_: int = 4) -> str:
    """R-DEAL: what the words' seed is the HMAC of: ``shmod-words F`` and one line per
    seat in seating order, its number (from 1) and its word (never a name: a rename or a
    replacement cannot move it). Format 4 writes each recorded word as it is (``a``-``z``,
    ``0``-``9``); format 3 each word's look-alike key (:func:`word_key`) and format 2 the
    recorded word, each as a JSON string."""
    if format_ >= 4:
        return "shmod-words 4\n" + "".join(f"{seat} {word}\n"
                                           for seat, word in enumerate(words, 1))
    keyed = [word_key(word) for word in words] if format_ >= 3 else words
    return f"shmod-words {format_}\n" + "".join(
        f"{seat} {json.dumps(word, ensure_ascii=False)}\n" for seat, word in enumerate(keyed, 1))


def word_key(word: str) -> str:
    """R-DEAL (format 3): what a canonical word looks like, as the deal reads it: its
    UTS #39 skeleton (every character replaced by the one Unicode's confusables data says
    it looks like), case-folded. ``lemon`` typed with a Cyrillic ``\\u0435`` or a Greek ``\\u03bf``
    deals as ``lemon``."""
    return skeleton(word).casefold()


def words_seed_v1(seed: str, words: dict[str, str]) -> str:
    """The words' seed of a format-1 log (an earlier shmod): by name, words as typed."""
    return digest.hmac_sha256(seed.encode(), words_message_v1(words).encode())


def words_message_v1(words: dict[str, str]) -> str:
    """What a format-1 log's words' seed is the HMAC of: each seated name and its word."""
    return "shmod-words 1\n" + "".join(
        f"{json.dumps(name, ensure_ascii=False)} {json.dumps(word, ensure_ascii=False)}\n"
        for name, word in words.items())


def dealt(setup: Setup, seed: str) -> tuple[tuple[Role, ...], tuple[Policy, ...], int]:
    """The roles, the deck and the first President a seed deals for ``setup``'s table
    (R-ROLES, R-DECK, R-FIRST; the first President as chosen, if one was): by seat,
    whatever the seats' names are now."""
    return from_seed(setup.players, setup.rules, seed, setup.first)


def normal_word(text: str) -> str:
    """A word as a format-1 log recorded it: Unicode NFC, inner white space single."""
    import unicodedata  # only where a word is recorded: not worth every command's start-up

    return " ".join(unicodedata.normalize("NFC", text).split())


def canonical_word(text: str, format_: int = 3) -> str:
    """R-DEAL, formats 2 and 3: a word as it was recorded: NFKC, case-folded, NFKC again
    (``NFKC(casefold(NFKC(text)))``), then (format 3) every character that cannot be
    seen dropped (:func:`shmod.forum.names.unseen`), runs of white space made single
    spaces, and leading and trailing characters of Unicode categories P* and Z* dropped.
    ``Lemon!``, ``LEMON``, ``lemon`` and ``le\u200bmon`` are one word (docs/verify.md)."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    if format_ >= 3:
        folded = "".join(char for char in folded if not unseen(char))
    words = folded.split()
    if not words:
        return ""
    edge = 0
    joined = " ".join(words)
    while edge < len(joined) and unicodedata.category(joined[edge])[0] in "PZ":
        edge += 1
    end = len(joined)
    while end > edge and unicodedata.category(joined[end - 1])[0] in "PZ":
        end -= 1
    return " ".join(joined[edge:end].split())


#: Bidirectional controls: they reorder what a post shows (U+202E shows ``nomel`` as
#: ``lemon``), so a word holding one could be transcribed as shown or as stored.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def recorded_word(text: str, format_: int) -> str:
    """A word as the log records it: ``a``-``z`` and ``0``-``9`` (format 4,
    :func:`~shmod.forum.wordform.latin_word`, which may refuse it), canonical (formats 2
    and 3), or as a format-1 log wrote it. Format 3 refuses a word holding a bidirectional
    control (R-DEAL): the moderator types the word as the post shows it."""
    if format_ >= 4:
        return latin_word(text)
    if format_ >= 3 and BIDI_CONTROLS & set(text):
        raise RuleBroken("R-DEAL", f"the word {shown(text)} holds a right-to-left or "
                         "left-to-right control, which changes the order its letters show in: "
                         "type the word as the post shows it, letter by letter")
    return canonical_word(text, format_) if format_ >= 2 else normal_word(text)


def word(table: Table, step: Word) -> None:
    """R-DEAL: a seat's word, once; the last one in makes the deal."""
    seat, word = step.by, step.word
    if seat not in word_posters(table):
        raise WrongActor("R-DEAL", f"{table.game.name(seat)} has already posted a word "
                         f"({table.words[seat]!r}); the first word a player posts counts")
    if not word:
        raise RuleBroken("R-DEAL", "a word needs a letter, a digit or a symbol: punctuation "
                         "and spaces alone are dropped")
    form = table.setup.format
    if form >= 4:  # a-z and 0-9: checked with no Unicode data
        if not RECORDED.fullmatch(word):
            raise RuleBroken("R-DEAL", f"the word {shown(word)} is not recorded in its "
                             f"canonical form: {MAX_WORD} or fewer letters a-z and digits 0-9 "
                             "(`shmod word` writes that form: accents and punctuation dropped, "
                             "capitals small), so that nobody chooses how a post is "
                             "transcribed")
    else:
        _check_earlier(word, form)
    table.words[seat] = word
    table.words[seat] = word
    if len(table.words) == len(table.game.players):
        _deal(table)


def _check_earlier(word: str, form: int) -> None:
    """A recorded word of formats 1 to 3 (R-DEAL): canonical as its format made it."""
    if form >= 2 and word != canonical_word(word, form):
        raise RuleBroken("R-DEAL", f"the word {shown(word)} is recorded in its canonical form "
                         f"{shown(canonical_word(word, form))} (Unicode NFKC, case-folded, "
                         "without leading or trailing punctuation and spaces"
                         f"{', without invisible characters' if form >= 3 else ''}), so that "
                         "nobody chooses how a post is transcribed")
    if word != normal_word(word):
        raise RuleBroken("R-DEAL", f"the word {word!r} must be written as posted, without "
                         "leading, trailing or doubled spaces")
    if len(word) > MAX_WORD:
        raise RuleBroken("R-DEAL", f"a word is at most {MAX_WORD} characters; {word[:20]!r}… "
                         f"has {len(word)}")


def _deal(table: Table) -> None:
    """Every word is in: deal the roles and the deck, send the role PMs, start round 1.
    The deal depends on the committed setup and each seat's word only (R-DEAL)."""
    game = table.game
    words = [table.words[seat] for seat in range(len(game.players))]
    assert game.seed is not None
    if table.setup.format >= 2:
        seed = words_seed(game.seed, words, table.setup.format)
    else:  # format 1: by the names seated when the last word came in, as it was written
        seed = words_seed_v1(game.seed, dict(zip(game.players, words)))
    roles, deck, first = dealt(table.setup, seed)
    hooks.deal(game, seed, roles, deck, first)
    table.dealt = game.entries
    game.say(Dealt, words=tuple(zip(game.players, words)), president=game.name(first))


def starting_deck(table: Table) -> tuple[Policy, ...]:
    """The first draw pile: the header's, or the one the players' words dealt (R-DEAL)."""
    setup = table.setup
    if setup.deal != "players" or table.dealt is None:
        return setup.deck
    assert table.game.seed is not None  # the words' seed, once dealt
    return dealt(setup, table.game.seed)[1]
