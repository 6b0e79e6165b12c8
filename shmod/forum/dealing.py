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

A word belongs to its seat, and enters in the canonical form its log's format records
(``LogFormat.words``, :mod:`shmod.forum.log_formats`): in format 4 plain ``a``-``z``
and ``0``-``9`` (:func:`shmod.forum.wordform.latin_word`: invisible characters and markup
refused, accents dropped, a fixed transliteration, everything else dropped, a letter of
another alphabet refused), so neither a name typed later (a rename, a replacement) nor the
way the moderator transcribes a word can move the deal, and the deal reads the recorded
word with no Unicode data at all. Logs of earlier formats replay as they were written:
format 3 recorded a word in NFKC, case-folded, and dealt by its look-alike skeleton
(:mod:`shmod.forum.earlier_words`); format 2 dealt the recorded word itself; format 1 (an
earlier shmod) dealt from names and words as typed (docs/verify.md states each to the byte).
"""
from __future__ import annotations

from collections.abc import Sequence

from shmod.base import digest
from shmod.base.errors import RuleBroken, WrongActor
from shmod.forum.events import Dealt
from shmod.forum.log_formats import CURRENT, LogFormat
from shmod.forum.steps import Word
from shmod.forum.table import Setup, Table
from shmod.forum.turns import word_posters
from shmod.game import hooks
from shmod.game.setup import from_seed
from shmod.game.terms import Policy, Role


def words_seed(seed: str, words: Sequence[str], format_: LogFormat = CURRENT,
               names: Sequence[str] = ()) -> str:
    """R-DEAL: the seed the deal is made from: HMAC-SHA256 keyed with the moderator's
    committed seed (its text, UTF-8) over the message ``format_`` makes of the words, by
    seat (and, in format 1 only, the ``names`` seated: docs/verify.md 5.3, 5.4), as 64 hex
    digits. Nobody can choose it: the moderator fixed the seed before the words were
    posted, and the players do not know the seed."""
    message = format_.words.message(words, names)
    return digest.hmac_sha256(seed.encode(), message.encode())


def dealt(setup: Setup, seed: str) -> tuple[tuple[Role, ...], tuple[Policy, ...], int]:
    """The roles, the deck and the first President a seed deals for ``setup``'s table
    (R-ROLES, R-DECK, R-FIRST; the first President as chosen, if one was): by seat,
    whatever the seats' names are now."""
    return from_seed(setup.players, setup.rules, seed, setup.first)


def word(table: Table, step: Word) -> None:
    """R-DEAL: a seat's word, once; the last one in makes the deal."""
    seat, word = step.by, step.word
    if seat not in word_posters(table):
        raise WrongActor("R-DEAL", f"{table.game.name(seat)} has already posted a word "
                         f"({table.words[seat]!r}); the first word a player posts counts")
    if not word:
        raise RuleBroken("R-DEAL", "a word needs a letter, a digit or a symbol: punctuation "
                         "and spaces alone are dropped")
    table.setup.format.words.check(word)
    table.words[seat] = word
    if len(table.words) == len(table.game.players):
        _deal(table)


def _deal(table: Table) -> None:
    """Every word is in: deal the roles and the deck, send the role PMs, start round 1.
    The deal depends on the committed setup and each seat's word only (R-DEAL)."""
    game = table.game
    words = [table.words[seat] for seat in range(len(game.players))]
    assert game.seed is not None
    seed = words_seed(game.seed, words, table.setup.format, game.players)
    roles, deck, first = dealt(table.setup, seed)
    published = table.setup.published_roles
    if published and published != roles:
        raise RuleBroken("R-DEAL", "the header's secret.roles (added when the log was "
                         f"published) are not the roles the words deal: {', '.join(published)}"
                         f" where the words give {', '.join(roles)}")
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
