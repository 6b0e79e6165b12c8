"""Corrections (R-CORRECT): entries voided that nobody has acted on yet, and the game
rebuilt from the steps left in effect.

A correction replays the steps it keeps through the forum engine's ``apply`` (handed to
it: :func:`shmod.forum.moves.moves`) on a fresh table, and the rebuilt game goes on from
the record the table already has (:func:`shmod.game.hooks.keep_record`): what was posted
and sent stays, and whoever was sent something voided is told so.
"""
from __future__ import annotations

from collections.abc import Callable

from shmod.base.errors import BadInput, IllegalStep, RuleBroken
from shmod.base.records import fields
from shmod.forum import deliveries
from shmod.forum.claims import about_voided
from shmod.forum.events import Corrected, Retraction
from shmod.forum.explain import describe
from shmod.forum.setup import start
from shmod.forum.steps import Backup, Claim, Correct, Remove, Rename, Replace, SetDeadline, Word
from shmod.forum.table import Table
from shmod.forum.turns import waiting_for
from shmod.game import hooks
from shmod.game.events import RoleSent
from shmod.game.steps import Reshuffle, Step, Vote

#: Kinds a correction may leave in effect after a voided entry: they act on nothing
#: (a vote or a word that completed its ballot or the deal did act: it made it public).
PASSIVE = (Vote, Word)
#: The forum's own bookkeeping: it stays in effect after a voided entry, whatever it made
#: public, unless the correction names it (R-CORRECT) or, a claim, voids what it is about.
KEPT = (SetDeadline, Backup, Replace, Rename, Remove, Claim)


def voided(table: Table) -> set[int]:
    """The entries corrections voided: their PMs and reshuffles no longer count."""
    return {number for _at, numbers, _why in table.corrections for number in numbers}


def last_step(table: Table) -> int:
    """The entry number a correction voids by default: the latest step in effect."""
    for entry, step in reversed(table.history):
        if not isinstance(step, Reshuffle):
            return entry
    raise BadInput("R-CORRECT: there is no entry to correct yet")


def correct(table: Table, step: Correct, apply: Callable[[Table, Step], None]) -> None:
    """R-CORRECT: void entries nobody has acted on yet, then replay the rest through
    ``apply`` (the forum engine's)."""
    game = table.game
    in_effect = dict(table.history)
    _refuse_naming(step, in_effect)
    voided = set(step.entries)
    _refuse_redealing(table, voided, in_effect)
    voided |= _reshuffles_after(table, voided, in_effect)
    voided |= about_voided(table, voided)  # a claim about a session or power voided (R-CORRECT)
    if not step.force:
        _refuse_rewriting(table, voided, in_effect)
    fresh = _replayed_without(table, voided, apply)
    what = tuple((n, in_effect[n]) for n in sorted(voided))
    players = game.players
    shown = table.posts[-1] if table.posts else -1
    earlier = {n for _, numbers, _ in table.corrections for n in numbers}
    retract = [s for index, s in enumerate(game.secrets) if s.entry in voided
               and s.entry not in earlier and not isinstance(s, RoleSent)
               and _delivered(table, index)]
    hooks.keep_record(fresh.game, game)
    for key in fields(Table):
        if key not in _NOT_REPLAYED:
            setattr(table, key, getattr(fresh, key))
    game = table.game
    table.corrections.append((table.entries, tuple(sorted(voided)), step.reason))
    # The reason stays out of the thread (it may quote a vote or a card): audit only. A
    # word was posted by its player in the thread: voiding one is announced like a post.
    game.say(Corrected, voided=what, players=players, waiting=waiting_for(table),
             forced=step.force, posted=tuple(n for n, done in what
                                             if n <= shown or isinstance(done, Word)))
    for secret in retract:  # R-CORRECT: whoever was sent something voided is told so
        game.tell_name(secret.to, Retraction, what=type(secret), sent=secret.entry)


def _refuse_naming(step: Correct, in_effect: dict[int, Step]) -> None:
    """R-CORRECT: a correction names steps in effect, never a reshuffle (its cause is
    voided instead)."""
    for number in step.entries:
        if number not in in_effect:
            raise RuleBroken("R-CORRECT", f"entry {number} is not a step in effect (voided "
                             "already, a correction, or not written yet)")
        if isinstance(in_effect[number], Reshuffle):
            raise RuleBroken("R-CORRECT", f"entry {number} is a reshuffle; void the step "
                             "that caused it")


def _reshuffles_after(table: Table, voided: set[int], in_effect: dict[int, Step]) -> set[int]:
    """The reshuffles the ``voided`` entries caused, voided with them; a later step that
    acted on them (not bookkeeping, nor a vote or a word that made nothing public) refuses
    the correction (R-CORRECT)."""
    named = {n for n in voided if not isinstance(in_effect[n], Claim)}  # a claim acts on nothing
    earliest = min(named, default=table.entries)
    follows = False
    caused: set[int] = set()
    for number, done in table.history:
        if number < earliest:
            continue
        if number in named:
            follows = True
        elif isinstance(done, Reshuffle) and follows:
            caused.add(number)
        elif not isinstance(done, KEPT):  # bookkeeping between a step and its reshuffle
            follows = False
            public = any(p.entry == number for p in table.public)
            if not isinstance(done, PASSIVE) or public:
                raise RuleBroken("R-CORRECT", f"entry {number} "
                                 f"({describe(done, table.game.players)}) came after entry "
                                 f"{earliest} and acted on it; it must be voided too")
    return caused


def _replayed_without(table: Table, voided: set[int],
                      apply: Callable[[Table, Step], None]) -> Table:
    """A fresh table with every step in effect but the ``voided`` replayed through
    ``apply``, each at its own time and number; one that no longer stands refuses the
    correction (R-CORRECT)."""
    fresh = start(table.setup)
    for number, done in table.history:
        if number in voided:
            continue
        hooks.renumber(fresh.game, number - 1)
        fresh.clock = table.times.get(number)
        try:
            apply(fresh, done)
        except IllegalStep as err:
            raise RuleBroken("R-CORRECT", f"without the voided entries, entry {number} "
                             f"({describe(done, table.game.players)}) no longer stands: {err}"
                             ) from None
    return fresh


#: What a correction keeps as it was rather than rebuilds: the record of corrections,
#: edits and posts, the prods made (a prod is a PM: it stays, R-STALL), the outbox's
#: deliveries (R-PM), the
#: game's moderators (R-MODERATORS, R-HANDOVER), and the clock and the recorder of the
#: correction's own entry (R-CORRECT). The game is rebuilt, and keeps
#: the record of what was said and sent (:func:`shmod.game.hooks.keep_record`).
_NOT_REPLAYED = ("corrections", "posts", "short_posts", "acknowledged", "prods", "clock",
                 "moderators", "handover", "taken", "announced", "recorder", "deliveries",
                 "outbox_from", "legacy_until")


def _delivered(table: Table, index: int) -> bool:
    """Whether the table's ``index``-th PM reached its player (R-PM): a PM still in the
    outbox leaves it silently when its step is voided, and nobody is told to disregard it."""
    secret = table.game.secrets[index]
    n = sum(1 for s in table.game.secrets[:index]
            if s.entry == secret.entry and s.to == secret.to and s.kind == secret.kind)
    return deliveries.sent(table, secret.entry, secret.kind, secret.to, n + 1)


def _refuse_redealing(table: Table, voided: set[int], in_effect: dict[int, Step]) -> None:
    """R-DEAL: once the roles are dealt from the players' words nothing re-deals them: a
    word, or a seat handed to a newcomer before the deal, stands (the way out is a new
    game, with a new commitment)."""
    if table.dealt is None:
        return
    for number in sorted(voided):
        done = in_effect[number]
        if isinstance(done, Word) or (isinstance(done, Replace) and number < table.dealt):
            raise RuleBroken("R-DEAL", f"entry {number} ({describe(done, table.game.players)}) "
                             f"went into the deal made at entry {table.dealt}; once the roles "
                             "are dealt nothing re-deals them, not even with --force. If the "
                             "deal must be made again, start a new game (shmod new) with a new "
                             "commitment")


def _refuse_rewriting(table: Table, voided: set[int], in_effect: dict[int, Step]) -> None:
    """R-CORRECT: what players have seen stands unless the moderator forces it: what a
    post covered, and a word (its player posted it in the thread, R-DEAL)."""
    players = table.game.players
    if table.game.win is not None:
        raise RuleBroken("R-CORRECT", "the game is over: its steps stand (the last post and "
                         "the reveal may be out); use --force to void one anyway, said "
                         "loudly in the next post and in audit")
    shown = table.posts[-1] if table.posts else -1
    words = [n for n in sorted(voided) if isinstance(in_effect[n], Word)]
    if words:
        raise RuleBroken("R-CORRECT", f"entry {words[0]} "
                         f"({describe(in_effect[words[0]], players)}) is a word its player "
                         "posted in the thread, where everyone saw it; use --force to void it "
                         "anyway, said in the next post and in audit")
    seen = [n for n in sorted(voided) if n <= shown]
    if seen:
        post = next(number for number, upto in enumerate(table.posts, 1) if upto >= seen[0])
        raise RuleBroken("R-CORRECT", f"entry {seen[0]} "
                         f"({describe(in_effect[seen[0]], players)}) "
                         f"was covered by post {post}, which shmod printed for the thread: "
                         "players may have seen it; use --force to void it anyway, said "
                         "loudly in the next post and in audit")
