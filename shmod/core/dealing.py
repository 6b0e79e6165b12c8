"""R-DEAL: a deal nobody can steer, from the moderator's committed seed and the players'
words.

In a game started with ``shmod new --deal players`` the header holds the seed and the
salt but no roles and no deck, and the opening post carries the commitment to them.
Each player then posts one word in the thread; the moderator records each (``word``
entries, like votes: one per seat, final once received). When the last word is in, the
roles, the deck and (unless chosen) the first President follow from
:func:`shmod.core.setup.words_seed`: the moderator fixed the seed before seeing any word,
and no player knows the seed, so neither side could have chosen the deal.

A word belongs to its seat, and enters in its canonical form (:func:`canonical_word`), so
neither a name typed later (a rename, a replacement) nor the way the moderator transcribes
a word can move the deal. Logs of format 1 (an earlier shmod) dealt from names and words
as typed; they replay as they were written.
"""
from __future__ import annotations

from shmod.base.errors import RuleBroken, WrongActor
from shmod.core.events import Dealt
from shmod.core.legal import word_posters
from shmod.core.setup import dealt, tell_roles, words_seed, words_seed_v1
from shmod.core.state import State
from shmod.core.steps import Word
from shmod.core.terms import DEAL, NOMINATE, Policy
from shmod.core.turns import Move

MAX_WORD = 40


def normal_word(text: str) -> str:
    """A word as a format-1 log recorded it: Unicode NFC, inner white space single."""
    import unicodedata  # only where a word is recorded: not worth every command's start-up

    return " ".join(unicodedata.normalize("NFC", text).split())


def canonical_word(text: str) -> str:
    """R-DEAL: a word as it enters the deal: Unicode NFKC, case-folded (NFKC again after
    folding, so the form is stable), leading and trailing punctuation and spaces dropped,
    inner white space collapsed to single spaces. ``Lemon!``, ``LEMON`` and ``lemon``
    are one word, so transcribing a post leaves the moderator no choice."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
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


def recorded_word(text: str, format_: int) -> str:
    """A word as the log records it: canonical (format 2), or as a format-1 log wrote it."""
    return canonical_word(text) if format_ >= 2 else normal_word(text)


def _word(state: State, step: Word) -> None:
    seat, word = step.by, step.word
    if seat not in word_posters(state):
        raise WrongActor("R-DEAL", f"{state.name(seat)} has already posted a word "
                         f"({state.words[seat]!r}); the first word a player posts counts")
    if not word:
        raise RuleBroken("R-DEAL", "a word needs a letter, a digit or a symbol: punctuation "
                         "and spaces alone are dropped")
    if _format(state) >= 2 and word != canonical_word(word):
        raise RuleBroken("R-DEAL", f"the word {word!r} is recorded in its canonical form "
                         f"{canonical_word(word)!r} (Unicode NFKC, case-folded, without leading "
                         "or trailing punctuation and spaces), so that nobody chooses how a "
                         "post is transcribed")
    if word != normal_word(word):
        raise RuleBroken("R-DEAL", f"the word {word!r} must be written as posted, without "
                         "leading, trailing or doubled spaces")
    if len(word) > MAX_WORD:
        raise RuleBroken("R-DEAL", f"a word is at most {MAX_WORD} characters; {word[:20]!r}… "
                         f"has {len(word)}")
    state.words[seat] = word
    if len(state.words) == len(state.players):
        _deal(state)


def _format(state: State) -> int:
    return 2 if state.origin is None else state.origin.format


def _deal(state: State) -> None:
    """Every word is in: deal the roles and the deck, send the role PMs, start round 1.
    The deal depends on the committed setup and each seat's word only (R-DEAL)."""
    words = [state.words[seat] for seat in range(len(state.players))]
    assert state.seed is not None and state.origin is not None
    if _format(state) >= 2:
        seed = words_seed(state.seed, words)
    else:  # format 1: by the names seated when the last word came in, as it was written
        seed = words_seed_v1(state.seed, dict(zip(state.players, words)))
    roles, deck, first = dealt(state.origin, seed)
    state.seed, state.roles, state.draw = seed, roles, list(deck)
    state.first = state.president = state.anchor = first
    state.phase = NOMINATE
    state.dealt = state.entries
    state.say(Dealt, words=tuple(zip(state.players, words)), president=state.name(first))
    tell_roles(state, state.entries)


def starting_deck(state: State) -> tuple[Policy, ...]:
    """The first draw pile: the header's, or the one the players' words dealt (R-DEAL)."""
    origin = state.origin
    assert origin is not None
    if origin.deal != "players" or state.dealt is None:
        return origin.deck
    assert state.seed is not None  # the words' seed, once dealt
    return dealt(origin, state.seed)[1]


#: The deal's one move.
MOVES = (Move(Word, _word, (DEAL,), "R-DEAL", "a word for the deal"),)
