"""Forum moderation entries: deadlines, replacements, corrections, posts marked and
hand edits acknowledged (docs/forum.md).

They are moves like the game's own (:class:`~shmod.core.turns.Move`, gathered by
:mod:`shmod.core.engine`): each handler checks first and raises an
:class:`~shmod.base.errors.IllegalStep` before changing anything. A correction replays the
steps left in effect through the engine's ``apply``, which :func:`moves` is given.
"""
from __future__ import annotations

from typing import Any

from shmod.base.errors import BadInput, IllegalStep, RuleBroken
from shmod.base.records import fields
from shmod.core.events import (
    Awaited,
    Briefing,
    Corrected,
    Deed,
    Public,
    Renamed,
    Replaced,
    Retraction,
    RoleSent,
    RoundBegan,
    Secret,
)
from shmod.core.explain import describe
from shmod.core.names import look_alike
from shmod.core.setup import check_players, knows, start
from shmod.core.state import State
from shmod.core.steps import (
    Acknowledge,
    Backup,
    Correct,
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    Posted,
    PowerUse,
    Remove,
    Rename,
    Replace,
    Reshuffle,
    SetDeadline,
    SpecialElection,
    Step,
    Veto,
    Vote,
    Word,
)
from shmod.core.terms import PLAYING
from shmod.core.turns import Handler, Move, waiting_for

#: Kinds a correction may leave in effect after a voided entry: they act on nothing
#: (a vote or a word that completed its ballot or the deal did act: it made it public).
PASSIVE = (Vote, Word)
#: The forum's own bookkeeping: it stays in effect after a voided entry, whatever it made
#: public, unless the correction names it (R-CORRECT).
KEPT = (SetDeadline, Backup, Replace, Rename, Remove)


# -- replacements -------------------------------------------------------------------


def _replace(state: State, step: Replace) -> None:
    """R-REPLACE: a newcomer takes a living seat with its role and everything it was sent
    (leaving the backup list if they were on it, R-BACKUP)."""
    seat, name = step.target, step.name
    old = state.name(seat)
    if not state.alive[seat]:
        raise RuleBroken("R-REPLACE", f"{old} is dead; a dead seat is not replaced")
    try:
        name = check_players([name if s == seat else n
                              for s, n in enumerate(state.players)])[seat]
    except BadInput as err:
        raise RuleBroken("R-REPLACE", f"cannot seat {name!r}: {err}") from None
    for other, former, _new, _entry in state.replaced:  # PMs are addressed by name (R-PM)
        if other != seat and look_alike(former, name):
            alike = "" if former.casefold() == name.casefold() else " (the names look the same)"
            raise RuleBroken("R-REPLACE", f"cannot seat {name!r}: {former} held seat "
                             f"{other + 1} and was sent its secrets{alike}; choose another "
                             "name")
    state.backups = [b for b in state.backups if b.casefold() != name.casefold()]
    if not state.roles:  # before the deal (R-DEAL): a seat with no role and no secrets yet
        _seat(state, seat, old, name)
        return
    history: list[tuple[int, Secret]] = []
    gone = voided(state)
    for secret in state.secrets:
        if secret.to != old or isinstance(secret, (RoleSent, Retraction)) or secret.entry in gone:
            continue
        if isinstance(secret, Briefing):
            history.extend(secret.history)
        else:
            history.append((round_of(state, secret.entry), secret))
    did = tuple(Deed(round_of(state, entry), done, _target_name(state, done))
                for entry, done in state.history
                if isinstance(done, DEEDS) and done.by == seat and entry not in gone)
    _seat(state, seat, old, name)
    awaited = seat in waiting_for(state).seats
    state.secrets.append(Briefing(
        state.entries, name, role=state.roles[seat], replacing=old, seat=seat + 1,
        knows=tuple(knows(state.players, state.roles, state.rules, seat).items()),
        history=tuple(history), did=did, round=state.round,
        awaited=Awaited(state.phase, state.name(state.president),
                        state.name(state.chancellor), state.power) if awaited else None))


def _rename(state: State, step: Rename) -> None:
    """R-RENAME: a player's name written wrong (a typo at ``shmod new``) is corrected; the
    same player keeps the seat and everything it was sent, and the header, which the
    opening post's commitment covers, is left as it was."""
    seat, name = step.target, " ".join(step.name.split())
    old = state.name(seat)
    try:
        name = check_players([name if s == seat else n
                              for s, n in enumerate(state.players)])[seat]
    except BadInput as err:
        raise RuleBroken("R-RENAME", f"cannot rename {old} to {name!r}: {err}") from None
    if any(look_alike(former, name) for _s, former, _n, _e in state.replaced):
        raise RuleBroken("R-RENAME", f"cannot rename {old} to {name!r}: a player of that name "
                         "(or one that looks like it) left a seat and was sent its secrets")
    players = list(state.players)
    players[seat] = name
    state.players = tuple(players)
    state.renamed.append((seat, old, name, state.entries))
    state.say(Renamed, old=old, new=name)


def names_of(state: State, seat: int) -> set[str]:
    """Every name the player in ``seat`` has had (R-RENAME), the current one included; a
    replacement is another player (R-REPLACE) and is not one of them."""
    names = {state.players[seat]}
    for renamed_seat, old, new, _entry in reversed(state.renamed):
        if renamed_seat == seat and new in names:
            names.add(old)
    return names


def round_of(state: State, entry: int) -> int:
    """The round in which entry ``entry`` was recorded (from the public record)."""
    found = 1
    for event in state.public:
        if event.entry > entry:
            break
        if isinstance(event, RoundBegan):
            found = event.round
    return found


def _seat(state: State, seat: int, old: str, name: str) -> None:
    """``name`` takes ``seat`` from ``old`` (R-REPLACE), said in the thread."""
    players = list(state.players)
    players[seat] = name
    state.players = tuple(players)
    state.replaced.append((seat, old, name, state.entries))
    state.say(Replaced, seat=seat + 1, old=old, new=name, dealt=bool(state.roles))


#: What a seat's own steps were, for a replacement's briefing (R-REPLACE).
DEEDS = (Nominate, Vote, Discard, Enact, Veto, PowerUse)


def _target_name(state: State, step: Step) -> str:
    """The name of the player a step names (a nominee, a power's target), as seated now."""
    if isinstance(step, Nominate):
        return state.name(step.chancellor)
    if isinstance(step, (Investigate, SpecialElection, Execute)):
        return state.name(step.target)
    return ""


def replacing(state: State) -> dict[str, str]:
    """Current name -> the player it replaced first, for every replaced seat."""
    first: dict[int, str] = {}
    for seat, old, _new, _entry in state.replaced:
        first.setdefault(seat, old)
    return {state.players[s]: old for s, old in first.items() if state.players[s] != old}


# -- corrections --------------------------------------------------------------------


def voided(state: State) -> set[int]:
    """The entries corrections voided: their PMs and reshuffles no longer count."""
    return {number for _at, numbers, _why in state.corrections for number in numbers}


def last_step(state: State) -> int:
    """The entry number a correction voids by default: the latest step in effect."""
    for entry, step in reversed(state.history):
        if not isinstance(step, Reshuffle):
            return entry
    raise BadInput("R-CORRECT: there is no entry to correct yet")


def _correct(state: State, step: Correct, apply: Handler) -> None:
    """R-CORRECT: void entries nobody has acted on yet, then replay the rest through
    ``apply`` (the engine's)."""
    in_effect = dict(state.history)
    for number in step.entries:
        if number not in in_effect:
            raise RuleBroken("R-CORRECT", f"entry {number} is not a step in effect (voided "
                             "already, a correction, or not written yet)")
        if isinstance(in_effect[number], Reshuffle):
            raise RuleBroken("R-CORRECT", f"entry {number} is a reshuffle; void the step "
                             "that caused it")
    voided = set(step.entries)
    _refuse_redealing(state, voided, in_effect)
    earliest = min(voided)
    follows = False
    for number, done in state.history:
        if number < earliest:
            continue
        if number in voided:
            follows = True
        elif isinstance(done, Reshuffle) and follows:
            voided.add(number)
        elif not isinstance(done, KEPT):  # bookkeeping between a step and its reshuffle
            follows = False
            public = any(p.entry == number for p in state.public)
            if not isinstance(done, PASSIVE) or public:
                raise RuleBroken("R-CORRECT", f"entry {number} ({describe(done, state.players)}) "
                                 f"came after entry {earliest} and acted on it; it must be "
                                 "voided too")
    if not step.force:
        _refuse_rewriting(state, voided, in_effect)
    assert state.origin is not None  # every replayed state starts from its setup
    fresh = start(state.origin)
    for number, done in state.history:
        if number in voided:
            continue
        fresh.entries = number - 1
        fresh.clock = state.times.get(number)
        try:
            apply(fresh, done)
        except IllegalStep as err:
            raise RuleBroken("R-CORRECT", f"without the voided entries, entry {number} "
                             f"({describe(done, state.players)}) no longer stands: {err}") from None
    reason = step.reason
    what = tuple((n, in_effect[n]) for n in sorted(voided))
    players = state.players
    shown = state.posts[-1] if state.posts else -1
    earlier = {n for _, numbers, _ in state.corrections for n in numbers}
    retract = [s for s in state.secrets if s.entry in voided and s.entry not in earlier
               and not isinstance(s, RoleSent)]
    for key in fields(State):
        if key not in _NOT_REPLAYED:
            setattr(state, key, getattr(fresh, key))
    state.corrections.append((state.entries, tuple(sorted(voided)), reason))
    # The reason stays out of the thread (it may quote a vote or a card): audit only. A
    # word was posted by its player in the thread: voiding one is announced like a post.
    state.say(Corrected, voided=what, players=players, waiting=waiting_for(state),
              forced=step.force, posted=tuple(n for n, done in what
                                              if n <= shown or isinstance(done, Word)))
    for secret in retract:  # R-CORRECT: whoever was sent something voided is told so
        state.secrets.append(Retraction(state.entries, secret.to, what=type(secret),
                                        sent=secret.entry))


#: What a correction keeps as it was rather than rebuilds: what was posted and sent, the
#: record of corrections and edits, the prods sent (a prod is a PM that was sent: it
#: stays, R-STALL), and the clock of the correction's own entry (R-CORRECT).
_NOT_REPLAYED = ("public", "secrets", "corrections", "entries", "posts", "acknowledged",
                 "prods", "clock")


def _refuse_redealing(state: State, voided: set[int], in_effect: dict[int, Step]) -> None:
    """R-DEAL: once the roles are dealt from the players' words nothing re-deals them: a
    word, or a seat handed to a newcomer before the deal, stands (the way out is a new
    game, with a new commitment)."""
    if state.dealt is None:
        return
    for number in sorted(voided):
        done = in_effect[number]
        if isinstance(done, Word) or (isinstance(done, Replace) and number < state.dealt):
            raise RuleBroken("R-DEAL", f"entry {number} ({describe(done, state.players)}) "
                             f"went into the deal made at entry {state.dealt}; once the roles "
                             "are dealt nothing re-deals them, not even with --force. If the "
                             "deal must be made again, start a new game (shmod new) with a new "
                             "commitment")


def _refuse_rewriting(state: State, voided: set[int], in_effect: dict[int, Step]) -> None:
    """R-CORRECT: what players have seen stands unless the moderator forces it: what a
    post covered, and a word (its player posted it in the thread, R-DEAL)."""
    if state.win is not None:
        raise RuleBroken("R-CORRECT", "the game is over: its steps stand (the last post and "
                         "the reveal may be out); use --force to void one anyway, said "
                         "loudly in the next post and in audit")
    shown = state.posts[-1] if state.posts else -1
    words = [n for n in sorted(voided) if isinstance(in_effect[n], Word)]
    if words:
        raise RuleBroken("R-CORRECT", f"entry {words[0]} "
                         f"({describe(in_effect[words[0]], state.players)}) is a word its player "
                         "posted in the thread, where everyone saw it; use --force to void it "
                         "anyway, said in the next post and in audit")
    seen = [n for n in sorted(voided) if n <= shown]
    if seen:
        post = next(number for number, upto in enumerate(state.posts, 1) if upto >= seen[0])
        raise RuleBroken("R-CORRECT", f"entry {seen[0]} "
                         f"({describe(in_effect[seen[0]], state.players)}) "
                         f"was covered by post {post}, which shmod printed for the thread: "
                         "players may have seen it; use --force to void it anyway, said "
                         "loudly in the next post and in audit")


# -- bookkeeping: the thread and the log --------------------------------------------

#: Public events that alone make no post: the next round is said by the post before it.
QUIET = (RoundBegan,)


def last_posted(state: State) -> int:
    """The last entry already covered by a post (-1 before the opening post)."""
    return state.posts[-1] if state.posts else -1


def unposted(state: State) -> list[Public]:
    """The public events no post has covered yet, less those of voided entries and the
    corrections that voided only what was never posted (R-CORRECT): players never saw
    them, so a post does not tell them about entries they cannot see."""
    last = last_posted(state)
    gone = voided(state)
    return [ev for ev in state.public if ev.entry > last and ev.entry not in gone
            and not (isinstance(ev, Corrected) and not ev.posted)]


def news(state: State) -> list[Public]:
    """What the next post covers: :func:`unposted`, if any of it is worth a post."""
    events = unposted(state)
    return events if any(not isinstance(ev, QUIET) for ev in events) else []



def _posted(state: State, step: Posted) -> None:
    """The moderator posted everything public up to entry ``upto`` (R-THREAD)."""
    upto = step.upto
    last = state.posts[-1] if state.posts else -1
    if not last < upto < state.entries:
        raise RuleBroken("R-THREAD", f"a post can cover entries {last + 1} to "
                         f"{state.entries - 1} only, not up to {upto}")
    if not any(last < ev.entry <= upto for ev in state.public):
        raise RuleBroken("R-THREAD", f"nothing new to mark posted: no public event after "
                         f"entry {last} up to entry {upto}")
    state.posts.append(upto)


def _acknowledge(state: State, step: Acknowledge) -> None:
    """R-EDIT: the moderator says that earlier entries were edited by hand on purpose,
    and why; the edit stays visible (the chain and the thread's checkpoints show it)."""
    late = [n for n in step.entries if n >= state.entries]
    if late:
        raise RuleBroken("R-EDIT", f"entry {late[0]} is not an earlier entry (this is entry "
                         f"{state.entries})")
    state.acknowledged.append((state.entries, step.entries, step.reason))


def moves(apply: Handler) -> tuple[Move[Any], ...]:
    """The forum's moves; ``apply`` is the engine's, through which a correction replays
    the steps it leaves in effect."""
    return (
        Move(Replace, _replace, PLAYING, "R-REPLACE", "a replacement"),
        Move(Rename, _rename, PLAYING, "R-RENAME", "a name corrected"),
        Move(Correct, lambda state, step: _correct(state, step, apply), None),
        Move(Posted, _posted, None),
        Move(Acknowledge, _acknowledge, None),
    )
