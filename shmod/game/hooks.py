"""The game's public hooks: what a layer above (a forum's moderator) may do to a game
besides its players' steps, each keeping the game consistent. A forum
(:mod:`shmod.forum`) drives the game through :func:`shmod.game.engine.apply` and these,
never by writing the state's fields itself (tests/test_game_alone.py searches for that).

- the record: entries the driver records between the game's steps (:func:`entry`), a
  replay that leaves some out (:func:`renumber`), a rebuilt game that goes on from what
  the table was already told (:func:`keep_record`);
- a late deal (:func:`deal`) and a seat whose player is known by another name
  (:func:`reseat`);
- a step taken for a player by its rule alone (:func:`play_for`), and a nomination
  counted as a failed election (:func:`fail_election`);
- a seat that leaves the game, not by the table's hand (:func:`leave`, then
  :func:`abandon_round` or :func:`drop_vote`; :func:`hitler_left`).
"""
from __future__ import annotations

from collections.abc import Callable

from shmod.base.errors import IllegalStep
from shmod.game import moves
from shmod.game.events import Win
from shmod.game.setup import tell_roles
from shmod.game.state import State
from shmod.game.steps import Step
from shmod.game.terms import (
    DISCARD,
    ENACT,
    LIBERALS,
    NOMINATE,
    POWER,
    POWERS,
    RESHUFFLE,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
    Policy,
    Role,
)

# -- the record ---------------------------------------------------------------------


def entry(state: State, record: Callable[[], None]) -> None:
    """An entry that is not a step of the game, counted as the record's next one so that
    what it makes the table learn is stamped with it; ``record`` raises an
    :class:`~shmod.base.errors.IllegalStep` before changing anything, and the entry is not
    counted then."""
    state.entries += 1
    try:
        record()
    except IllegalStep:
        state.entries -= 1
        raise


def renumber(state: State, entries: int) -> None:
    """The record goes on after entry ``entries``: a replay that leaves entries out."""
    state.entries = entries


def keep_record(rebuilt: State, record: State) -> None:
    """``rebuilt`` (a game replayed without some steps) goes on from ``record``'s record:
    what the table was told and sent, and the entries counted, stay as they were."""
    rebuilt.public, rebuilt.secrets, rebuilt.entries = record.public, record.secrets, record.entries


# -- the table ----------------------------------------------------------------------


def deal(state: State, seed: str, roles: tuple[Role, ...], deck: tuple[Policy, ...],
         first: int) -> None:
    """A game started without its cards (phase ``deal``) is dealt: the roles, told to
    every player (R-KNOW), the deck, the first Presidential Candidate, and ``seed`` for
    every later reshuffle (R-RESHUFFLE)."""
    assert not state.roles, "dealt already"
    state.seed, state.roles, state.draw = seed, roles, list(deck)
    state.first = state.president = state.anchor = first
    state.phase = NOMINATE
    tell_roles(state, state.entries)


def reseat(state: State, seat: int, name: str) -> None:
    """The player in ``seat`` is known as ``name`` from now on (another person taking the
    seat, or the same one's name corrected): the seat keeps its role and its place."""
    players = list(state.players)
    players[seat] = name
    state.players = tuple(players)


# -- steps taken for a player -------------------------------------------------------


def play_for(state: State, step: Step) -> None:
    """A player's ``step`` taken on their behalf, by its rule alone (no turn check: the
    caller chose it from what the game waits for)."""
    moves.HANDLERS[type(step)](state, step)


def fail_election(state: State) -> None:
    """The Presidential Candidate's turn ends as a failed election (R-FAIL): the Election
    Tracker moves, and R-CHAOS at its end."""
    assert state.phase == NOMINATE
    moves.failed(state)


# -- a seat that leaves -------------------------------------------------------------


def leave(state: State, seat: int) -> bool:
    """The living player in ``seat`` leaves the game: the seat dies, not by an execution.
    Returns whether the round ends with it (:func:`abandon_round` then; otherwise
    :func:`drop_vote` during a vote): the seat was the Presidential Candidate, the
    nominee, or the President or Chancellor before the policy is enacted, or a President
    with a power pending."""
    state.alive[seat] = False
    phase = state.phase
    if phase in (NOMINATE, VOTE, DISCARD, ENACT, VETO_ANSWER, VETO_VOTE):
        return seat in (state.president, state.chancellor)
    if phase in (POWER, RESHUFFLE):
        return seat == state.president and (phase == POWER or state.resume in POWERS)
    return False


def abandon_round(state: State) -> None:
    """The round a seat's leaving ended: before the policy is enacted, a failed election
    with the hand back on top of the draw pile in its order (R-FAIL); a pending power is
    simply lost and the next round begins."""
    if state.phase in (POWER, RESHUFFLE):
        if state.phase == RESHUFFLE:
            state.resume = "round"
            return
        moves.next_round(state)
        return
    state.draw[:0] = state.hand
    state.hand = []
    state.chosen = None
    state.votes = {}
    state.veto_votes = {}
    moves.failed(state)


def drop_vote(state: State, seat: int) -> None:
    """During a vote, a seat that left no longer votes: its vote, if in, is dropped, and
    the votes are counted if every living player's is in (R-MAJORITY)."""
    assert state.phase == VOTE
    state.votes.pop(seat, None)
    if len(state.votes) == len(state.living):
        moves.count(state)


def hitler_left(state: State, rule: str) -> None:
    """Hitler has left the game other than by an execution: the Liberals win, under
    ``rule`` (the caller's)."""
    moves.win(state, Win(LIBERALS, rule, hitler=state.name(state.hitler)))
