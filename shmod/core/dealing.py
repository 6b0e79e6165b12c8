"""R-DEAL: a deal nobody can steer, from the moderator's committed seed and the players'
words.

In a game started with ``shmod new --deal players`` the header holds the seed and the
salt but no roles and no deck, and the opening post carries the commitment to them.
Each player then posts one word in the thread; the moderator records each (``word``
entries, like votes: one per seat, final once received). When the last word is in, the
roles, the deck and (unless chosen) the first President follow from
:func:`shmod.core.setup.words_seed`: the moderator fixed the seed before seeing any word,
and no player knows the seed, so neither side could have chosen the deal.
"""
from __future__ import annotations

from shmod.base.errors import RuleBroken, WrongActor
from shmod.core.events import Dealt
from shmod.core.legal import word_posters
from shmod.core.setup import dealt, tell_roles, words_seed
from shmod.core.state import State
from shmod.core.steps import Word
from shmod.core.terms import DEAL, NOMINATE
from shmod.core.turns import Move

MAX_WORD = 40


def normal_word(text: str) -> str:
    """A word as recorded: Unicode NFC, inner white space as single spaces."""
    import unicodedata  # only where a word is recorded: not worth every command's start-up

    return " ".join(unicodedata.normalize("NFC", text).split())


def _word(state: State, step: Word) -> None:
    seat, word = step.by, step.word
    if seat not in word_posters(state):
        raise WrongActor("R-DEAL", f"{state.name(seat)} has already posted a word "
                         f"({state.words[seat]!r}); the first word a player posts counts")
    if word != normal_word(word) or not word:
        raise RuleBroken("R-DEAL", f"the word {word!r} must be written as posted, without "
                         "leading, trailing or doubled spaces")
    if len(word) > MAX_WORD:
        raise RuleBroken("R-DEAL", f"a word is at most {MAX_WORD} characters; {word[:20]!r}… "
                         f"has {len(word)}")
    state.words[seat] = word
    if len(state.words) == len(state.players):
        _deal(state)


def _deal(state: State) -> None:
    """Every word is in: deal the roles and the deck, send the role PMs, start round 1."""
    words = {state.players[seat]: state.words[seat] for seat in range(len(state.players))}
    assert state.seed is not None and state.origin is not None
    seed = words_seed(state.seed, words)
    roles, deck, first = dealt(state.origin, state.players, seed)
    state.seed, state.roles, state.draw = seed, roles, list(deck)
    state.first = state.president = state.anchor = first
    state.phase = NOMINATE
    state.say(Dealt, words=tuple(words.items()), president=state.name(first))
    tell_roles(state, state.entries)


#: The deal's one move.
MOVES = (Move(Word, _word, (DEAL,), "R-DEAL", "a word for the deal"),)
