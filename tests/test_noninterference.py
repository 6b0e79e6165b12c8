"""Non-interference (R-THREAD, R-SECRET): thread posts depend on public information only.

For a random legal game we build a *twin*: the same public decisions (nominations,
votes, veto answers, power targets, enacted policies) over different hidden information
(roles permuted, a different deck order, different discards, other secret veto votes
with the same outcome) chosen so that no public outcome can change. Every thread post of the two games must be byte-identical. The last
tests check that the harness notices a post that leaks a role or the discards.
"""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings, strategies as st

from shmod.audit.random_games import random_game
from shmod.base.records import replace
from shmod.forum import engine
from shmod.forum.setup import parse_setup, start
from shmod.forum.steps import Lapse, SetDeadline
from shmod.forum.table import Setup, Table as State
from shmod.game.events import Chaos, Enacted, Executed, Tallied, Vetoed
from shmod.game.steps import Discard, Enact, Reshuffle, Step, Veto, Vote
from shmod.texts import (
    board_image,
    game_texts as texts,
    messages,
    thread_posts as texts_thread_posts,
)
from shmod.texts.formats import FORMATS
from shmod.texts.history import history_text
from shmod.texts.views import PublicView, public_view

VARIANTS = [[], ["veto=secret-vote"], ["tracker_reset=election"], ["term5=seated"]]
FORMAT_LIST = [cls() for cls in FORMATS.values()]


@dataclasses.dataclass
class Draws:
    """Where each draw in a game came from: (deck number, positions, requirement)."""

    decks: list[tuple[str, ...]]
    groups: list[tuple[int, list[int], str | None, bool]]  # deck, positions, policy, exact


def trace(setup: Setup, steps: list[Step]) -> tuple[State, Draws]:
    """Replay ``steps`` and note which deck positions each session and chaos drew."""
    state = start(setup)
    draws = Draws([tuple(setup.deck)], [])
    sessions: list[list[int]] = []  # indices into draws.groups awaiting their outcome
    for step in steps:
        before, seen = len(state.game.draw), len(state.public)
        engine.apply(state, step)
        deck = len(draws.decks) - 1
        if step.kind == "reshuffle":
            draws.decks.append(tuple(step.deck))
            deck, before = deck + 1, len(step.deck)
        taken = before - len(state.game.draw)
        if taken <= 0:
            pass
        else:
            cursor = len(draws.decks[deck]) - before
            positions = list(range(cursor, cursor + taken))
            chaos = [ev for ev in state.public[seen:] if isinstance(ev, Chaos)]
            if chaos:
                draws.groups.append((deck, positions, chaos[0].policy, True))
            else:
                draws.groups.append((deck, positions, None, False))
                sessions.append([len(draws.groups) - 1])
        for ev in state.public[seen:]:
            if (isinstance(ev, Enacted) and not ev.chaos) or isinstance(ev, Vetoed):
                index = sessions.pop(0)[0]
                d, pos, _, _ = draws.groups[index]
                policy = ev.policy if isinstance(ev, Enacted) else None
                draws.groups[index] = (d, pos, policy, False)
    return state, draws


def twin_decks(draws: Draws, rng: random.Random) -> list[tuple[str, ...]]:
    """Other orders of every deck that give every session and chaos the same outcome."""
    out = []
    for number, deck in enumerate(draws.decks):
        cards: list[str | None] = [None] * len(deck)
        left = Counter(deck)
        for d, positions, policy, exact in draws.groups:
            if d != number or policy is None:
                continue
            at = positions[0] if exact else rng.choice(positions)
            cards[at] = policy
            left[policy] -= 1
        rest = list(left.elements())
        rng.shuffle(rest)
        out.append(tuple(c if c is not None else rest.pop() for c in cards))
    return out


def twin_roles(setup: Setup, state: State, rng: random.Random) -> tuple[str, ...]:
    """Roles permuted, keeping Hitler on anyone whose Hitler-ness became public."""
    exposed = {setup.players.index(ev.target) for ev in state.public
               if isinstance(ev, Executed)}
    exposed |= {setup.players.index(ev.chancellor) for ev in state.public
                if isinstance(ev, Tallied) and ev.not_hitler}
    hitler = setup.roles.index("hitler")
    if state.game.win and state.game.win.rule == "R-HITLER-ELECTED":
        exposed.add(hitler)
    if hitler not in exposed:
        hitler = rng.choice([s for s in range(len(setup.players)) if s not in exposed])
    others = [r for r in setup.roles if r != "hitler"]
    rng.shuffle(others)
    return tuple("hitler" if s == hitler else others.pop() for s in range(len(setup.players)))


def twin_steps(setup: Setup, steps: list[Step], draws: Draws, decks: list[tuple[str, ...]],
               roles: tuple[str, ...], rng: random.Random) -> tuple[Setup, list[Step]]:
    """The same public decisions played over the twin's roles, decks and discards."""
    twin = replace(setup, roles=roles, deck=decks[0], seed=None)
    state = start(twin)
    outcomes = [policy for _, _, policy, exact in draws.groups if not exact]
    out, shuffles = [], iter(decks[1:])
    steps = _secret_veto_votes(steps, rng)
    for step in steps:
        if isinstance(step, Reshuffle):
            step = Reshuffle(deck=next(shuffles))
        elif isinstance(step, Discard):
            need = outcomes[0]
            options = [c for c in set(state.game.hand)
                       if need is None or need in _minus(state.game.hand, c)]
            step = Discard(by=step.by, policy=rng.choice(sorted(options)))
        elif isinstance(step, Enact):
            need = outcomes[0]
            step = Enact(by=step.by, policy=need or rng.choice(state.game.hand))
        engine.apply(state, step)
        if state.public and state.public[-1].entry == state.entries:
            ended = [ev for ev in state.public if ev.entry == state.entries
                     and ((isinstance(ev, Enacted) and not ev.chaos) or isinstance(ev, Vetoed))]
            if ended:
                outcomes.pop(0)
        out.append(step)
    return twin, out


def _secret_veto_votes(steps: list[Step], rng: random.Random) -> list[Step]:
    """Under veto=secret-vote only the outcome is public: re-deal any failed pair of votes."""
    out = list(steps)
    votes = [n for n, s in enumerate(steps) if isinstance(s, Veto) and s.answer in ("ja", "nein")]
    for first, second in zip(votes[::2], votes[1::2]):
        if (steps[first].answer, steps[second].answer) != ("ja", "ja"):
            pair = rng.choice([("ja", "nein"), ("nein", "ja"), ("nein", "nein")])
            for n, answer in zip((first, second), pair):
                out[n] = Veto(by=steps[n].by, answer=answer)
    return out


def _minus(hand: list[str], card: str) -> list[str]:
    rest = list(hand)
    rest.remove(card)
    return rest


ViewFn = Callable[[State], PublicView]


def thread_posts(setup: Setup, steps: list[Step], view_fn: ViewFn = public_view) -> list[str]:
    """Every post a moderator could make: after each step (rotating the output profiles),
    the note of whose move it is (with votes in progress) and the voting record
    (``shmod history``), the board picture after each enactment, and one catch-up post
    over the whole game."""
    state = start(setup)
    out = [messages.post(view_fn(state), state.public, FORMAT_LIST[0])]
    for n, step in enumerate(steps):
        seen = len(state.public)
        engine.apply(state, step)
        view, fmt = view_fn(state), FORMAT_LIST[n % len(FORMAT_LIST)]
        out.append(messages.post(view, state.public[seen:], fmt))
        out.append(texts.prompt_text(view, fmt) or "")
        if step.kind in ("vote", "enact"):
            out.append(history_text(view, fmt, bbcode_table=n % 2 == 0))
        if step.kind == "enact":  # the board picture (shmod board --svg)
            out.append(board_image.svg(view))
    out.append(messages.post(view_fn(state), state.public, FORMAT_LIST[len(steps) % len(FORMAT_LIST)]))
    return out


def make_pair(game_seed: int, players: int, variants: list[str]):  # type: ignore[no-untyped-def]
    rng = random.Random(game_seed)
    sim = random_game(players, rng, variants=variants)
    setup = parse_setup(sim.header)
    state, draws = trace(setup, sim.steps)
    decks = twin_decks(draws, rng)
    roles = twin_roles(setup, state, rng)
    twin, steps = twin_steps(setup, sim.steps, draws, decks, roles, rng)
    return setup, sim.steps, twin, steps


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(st.integers(0, 2**32), st.integers(5, 10), st.sampled_from(VARIANTS))
@pytest.mark.slow
def test_posts_do_not_depend_on_hidden_information(game_seed, players, variants):
    setup, steps, twin, twin_moves = make_pair(game_seed, players, variants)
    assert thread_posts(setup, steps) == thread_posts(twin, twin_moves)


def test_twins_really_differ_in_hidden_information():
    roles = discards = decks = 0
    for n in range(60):
        setup, steps, twin, twin_moves = make_pair(n, 5 + n % 6, VARIANTS[n % 4])
        roles += setup.roles != twin.roles
        decks += setup.deck != twin.deck
        discards += [s for s in steps if s.kind == "discard"] != \
            [s for s in twin_moves if s.kind == "discard"]
    assert roles > 45 and decks > 45 and discards > 30


def _leaks(view_fn: ViewFn) -> bool:
    for n in range(200):
        setup, steps, twin, twin_moves = make_pair(n, 5 + n % 6, VARIANTS[n % 4])
        if thread_posts(setup, steps, view_fn) != thread_posts(twin, twin_moves, view_fn):
            return True
    return False


def test_a_post_that_names_the_presidents_role_is_caught():
    def leaky(state: State) -> PublicView:
        view = public_view(state)
        return replace(view, president=f"{view.president} ({state.game.roles[state.game.president]})")

    assert _leaks(leaky)


def test_a_post_that_counts_discarded_fascist_policies_is_caught():
    def leaky(state: State) -> PublicView:
        return replace(public_view(state), discard_size=state.game.discard.count("F"))

    assert _leaks(leaky)


def test_catch_up_posts_are_identical_too():
    for n in range(20):
        setup, steps, twin, twin_moves = make_pair(n, 5 + n % 6, [])
        state_a, state_b = start(setup), start(twin)
        for cut in range(0, len(steps), 7):
            for step in steps[cut:cut + 7]:
                engine.apply(state_a, step)
            for step in twin_moves[cut:cut + 7]:
                engine.apply(state_b, step)
            fmt = FORMAT_LIST[cut % len(FORMAT_LIST)]
            assert (texts_thread_posts.render(state_a, texts_thread_posts.unposted(state_a), fmt)
                    == texts_thread_posts.render(state_b, texts_thread_posts.unposted(state_b), fmt))


def test_board_pictures_are_byte_identical_too():
    """The PNG (Pillow) as well as the SVG: the board drawn after every tenth step of twin
    games is the same pixel for pixel, and the final PNG the same byte for byte (issue 13)."""
    pytest.importorskip("PIL")
    for n in range(12):
        setup, steps, twin, twin_moves = make_pair(n, 5 + n % 6, VARIANTS[n % 4])
        state_a, state_b = start(setup), start(twin)
        for k, (a, b) in enumerate(zip(steps, twin_moves)):
            engine.apply(state_a, a)
            engine.apply(state_b, b)
            if k % 10 == 9:
                pixels_a = board_image.raster(public_view(state_a)).tobytes()
                assert pixels_a == board_image.raster(public_view(state_b)).tobytes(), (n, k)
        assert board_image.png(public_view(state_a)) == board_image.png(public_view(state_b))


def _with_lapses(game_seed: int, players: int) -> tuple[Setup, list[Step]]:
    """A random game under late_vote=nein and late_nomination=fail in which deadlines are
    set and lapse now and then, in place of a nomination or of the last votes (R-LAPSE)."""
    from shmod.forum.setup import new_header
    from shmod.forum.turns import legal_steps

    rng = random.Random(game_seed)
    header = new_header([f"P{n}" for n in range(1, players + 1)], seed=f"{game_seed:032x}",
                        salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created="2026-01-01T00:00:00Z",
                        variants=["late_vote=nein", "late_nomination=fail"])
    setup = parse_setup(header)
    state, steps = start(setup), []
    while state.game.phase != "over" and len(steps) < 2000:
        if state.game.phase in ("nominate", "vote") and rng.random() < 0.12:
            moves = [SetDeadline(until="2026-01-02T00:00:00Z", zone="UTC")]
            moves.append(Lapse(deadline=state.entries + 1, at="2026-01-03T00:00:00Z"))
        else:
            options = legal_steps(state)
            moves = [rng.choice([o for o in options if not isinstance(o, Vote) or rng.random() < .6]
                                or options)]
        for step in moves:
            engine.apply(state, step)
            steps.append(step)
    return setup, steps


@pytest.mark.parametrize("game_seed", range(12))
def test_lapse_posts_depend_on_public_facts_only(game_seed):
    """A lapse post says who sent nothing and what followed: the same whatever the roles,
    the deck and the discards (a random lapse choice is checked by the audit instead:
    tests/test_forum_time.py)."""
    setup, steps = _with_lapses(game_seed, 5 + game_seed % 6)
    assert any(s.kind == "lapse" for s in steps)
    rng = random.Random(game_seed)
    state, draws = trace(setup, steps)
    twin, twin_moves = twin_steps(setup, steps, draws, twin_decks(draws, rng),
                                  twin_roles(setup, state, rng), rng)
    assert thread_posts(setup, steps) == thread_posts(twin, twin_moves)
