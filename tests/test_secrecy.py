"""Issue 18 §1: nothing shmod tells the thread lets a player with a script compute anything
hidden (R-CHECKPOINT, R-COMMIT).

Each attack of the issue is written out as a search a player could run, and first aimed
at what an earlier shmod published (the unkeyed chain heads, a header without a salt), so
the test shows the search works; then at what shmod publishes now, where it must find
nothing. The attacker here is stronger than a real one: they know every field of every
entry (names, times, public choices) except the secret being guessed.
"""
from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

from shmod.base.records import replace
from shmod.forum import commitment
from shmod.forum.setup import new_header, parse_setup
from shmod.forum.steps import SetDeadline
from shmod.forum.turns import legal_steps
from shmod.game.steps import Step, Vote
from shmod.game.terms import VOTE
from shmod.log import checkpoints, logfile, signing, store
from shmod.texts import thread_posts
from shmod.texts.formats import Plain

AT = "2026-11-23T18:00:00Z"  # every entry's time: known to the attacker, to make it easy
NAMES = ["Alice", "Bob", "Cy", "Dan", "Eve"]
SEED = "5eed" * 8  # a fixed deal, so that the games below are the same on every run


def _play(path: str, rng: random.Random) -> list[str]:
    """A game recorded as a moderator does, with a deadline set while votes come in;
    returns the text of every post shmod printed for the thread."""
    printed = [thread_posts.earlier_post(store.load(path), 1, Plain()).text]  # `new` printed post 1

    def rec(step: Step) -> None:
        done = store.record(path, lambda g: step, at=AT)
        post = thread_posts.recorded_post(done, Plain())
        if post is not None:
            printed.append(post.text)

    deadlines = 0
    while True:
        state = store.load(path).table
        if state.game.winner or (state.game.reshuffles >= 1 and deadlines >= 2):
            return printed
        if state.game.phase == VOTE and len(state.game.votes) == 3 and deadlines < 2:
            deadlines += 1
            rec(SetDeadline(until="2099-01-01T00:00:00Z", zone="UTC"))
        options = legal_steps(state)
        rec(rng.choice([o for o in options if not isinstance(o, Vote) or o.vote or rng.random() < .3]))


def _guesses(raw: dict[str, Any], state_before: Any) -> list[dict[str, Any]]:
    """Every value the secret in entry ``raw`` could have had (itself if none)."""
    kind = raw["kind"]
    if kind == "vote":
        return [{**raw, "vote": v} for v in ("ja", "nein")]
    if kind == "discard":
        return [{**raw, "policy": p} for p in ("liberal", "fascist")]
    if kind == "reshuffle":
        pile = raw["deck"]
        liberals = pile.count("L")
        orders = itertools.combinations(range(len(pile)), liberals)
        return [{**raw, "deck": ["L" if i in spots else "F" for i in range(len(pile))]}
                for spots in orders]
    return [raw]


def _attack(log: logfile.LogFile, shown: list[tuple[int, str]],
            step: Callable[[str, dict[str, Any]], str]) -> list[tuple[list[Any], list[Any]]]:
    """For each pair of consecutive checkpoints ``(entry, value)`` with a secret recorded
    between them, try every combination of those secrets, chaining with ``step`` from the
    first value: ``(the truth, the combinations that gave the second value)``."""
    results = []
    for (first, value), (last, target) in itertools.pairwise(shown):
        between = [{k: v for k, v in raw.items() if k != "hash"}
                   for raw in log.entries[first:last]]
        choices = [_guesses(raw, None) for raw in between]
        if all(len(c) == 1 for c in choices):
            continue
        found = []
        for combo in _combinations(choices, limit=20_000):
            head = value
            for entry in combo:
                head = step(head, entry)
            if head == target:
                found.append(_secrets(list(combo)))
        results.append((_secrets(between), found))
    return results


def _combinations(choices: list[list[dict[str, Any]]], limit: int) -> Iterator[tuple[Any, ...]]:
    total = 1
    for options in choices:
        total *= len(options)
    assert total <= limit, f"{total} combinations: the test's search would be too slow"
    return itertools.product(*choices)


def _secrets(combo: list[dict[str, Any]]) -> list[Any]:
    return [(e["kind"], e.get("vote"), e.get("policy"), e.get("deck")) for e in combo]


def test_checkpoints_give_away_no_vote_discard_or_reshuffled_pile(tmp_path):
    path = str(tmp_path / "g.yaml")
    store.new_game(path, NAMES, first="Alice", seed=SEED,
                   created=AT)  # the salt: fresh, as a real game's
    printed = _play(path, random.Random(18))
    thread = "\n".join(printed)
    loaded = store.load(path)
    claims = checkpoints.find(thread)
    assert len(claims) == len(printed) == len(loaded.table.posts)
    assert loaded.table.game.reshuffles >= 1  # a reshuffle's new order lies between two posts

    # The lines name no entry (format 2); the attacker is told them anyway (each post's
    # last entry, from the log), which only makes the search easier.
    assert all(c.entry is None and c.signed for c in claims)
    entries = loaded.table.posts
    # What an earlier shmod showed: the chain heads themselves. The search recovers every
    # vote, discard and reshuffled pile between two posts, exactly.
    unkeyed = [(entry, loaded.heads[entry]) for entry in entries]
    results = _attack(loaded.log, unkeyed, logfile.link)
    kinds = {kind for truth, _ in results for kind, *_ in truth}
    assert {"vote", "discard", "reshuffle"} <= kinds
    assert all(found == [truth] for truth, found in results)

    # What shmod shows now: keyed values. The same search finds nothing.
    keyed = [(entry, c.token[:checkpoints.CHECKPOINT_HEX]) for entry, c in zip(entries, claims)]
    assert not any(value in thread for _, value in unkeyed)  # no chain head is ever shown
    results = _attack(loaded.log, keyed, logfile.link)
    assert len(results) >= 3 and all(found == [] for _, found in results)
    # Nor does chaining under a guessed key: the key is the salt's, 128 random bits.
    for guess in ("", "0" * 32, loaded.setup.seed or ""):
        results = _attack(loaded.log, keyed,
                          lambda head, entry, g=guess: checkpoints.value(g, 0, head))
        assert all(found == [] for _, found in results)
    # The signature is the moderator's over public text and the value: every line of the
    # thread verifies under the opening post's key, and tells nothing the value does not.
    key, made = loaded.setup.moderator_key, loaded.setup.commitment
    assert key and made and key in thread and made in thread
    assert all(signing.verify(key, checkpoints.message(made, c.post or 0, c.token[:32]),
                              c.token[32:]) for c in claims)


def _invert(setup: Any, posted: str, mine: tuple[int, str]) -> list[tuple[str, ...]]:
    """The search of the issue: every deal a player who knows their own role (seat, role)
    could be in, hashed as the commitment is (docs/audit.md spells out the bytes), against
    the one posted in the opening post. The players, the first President and the variants
    are public; the salt, if there is one, is not."""
    bare = replace(setup, seed=None, salt=None)
    text = commitment.canonical_bytes(bare)
    prefix = text[:text.index(b"\nroles ") + 1]
    suffix = text[text.index(b"\nseed ") + 1:]  # the key line of format 2 is public
    head = hashlib.sha256(prefix)
    found = []
    seats = range(len(setup.players))
    for hitler in seats:
        for chosen in itertools.combinations([s for s in seats if s != hitler],
                                             setup.rules.fascists):
            roles = tuple("hitler" if s == hitler else "fascist" if s in chosen else "liberal"
                          for s in seats)
            if roles[mine[0]] != mine[1]:
                continue
            with_roles = head.copy()
            with_roles.update(("roles " + " ".join(roles) + "\n").encode())
            for spots in itertools.combinations(range(17), setup.rules.deck_liberal):
                guess = with_roles.copy()
                deck = "".join("L" if i in spots else "F" for i in range(17))
                guess.update(f"deck {deck}\n".encode() + suffix)
                if guess.hexdigest() == posted:
                    found.append(roles)
    return found


def test_the_commitment_gives_away_no_role_and_no_card(tmp_path):
    path = str(tmp_path / "g.yaml")
    made = store.new_game(path, NAMES, first="Alice", seed="0" * 31 + "1", created=AT)
    setup = made.setup
    mine = (1, setup.roles[1])  # what Bob knows: his own seat and role
    # Without a salt (a header written by hand, as the shipped example was): found.
    bare = replace(setup, seed=None, salt=None)
    assert _invert(setup, commitment.commitment(bare), mine) == [setup.roles]
    # As shmod writes it, with 128 random bits of salt: nothing.
    assert setup.salt is not None and commitment.strong(setup.salt)
    assert _invert(setup, made.setup.commitment, mine) == []


def test_a_log_without_a_salt_is_played_on_no_further_and_audited_as_exposed(tmp_path, run):
    path = tmp_path / "g.yaml"
    store.new_game(str(path), NAMES, first="Alice", created=AT)
    text = path.read_text()
    salt = next(line for line in text.splitlines() if line.startswith("  salt: "))
    path.write_text(text.replace(salt + "\n", ""))
    before = path.read_bytes()
    code, _, err = run("nominate", "Bob", "-g", str(path))
    assert code == 2 and "R-COMMIT" in err and "salt: " in err and path.read_bytes() == before
    code, out, _ = run("audit", str(path))
    assert "hid nothing" in out and "R-COMMIT" in out


def test_a_guessable_seed_is_refused_unless_asked_for(tmp_path, run):
    code, _, err = run("new", *NAMES, "--seed", "s1", "-g", str(tmp_path / "a.yaml"))
    assert code == 1 and "R-COMMIT" in err and "--guessable" in err
    assert not (tmp_path / "a.yaml").exists()
    # issue 25: 128 bits that follow a pattern are no secret either (R-COMMIT)
    for pattern in ("0" * 32, "0123456789abcdef" * 2, "deadbeef" * 4):
        code, _, err = run("new", *NAMES, "--seed", pattern, "-g", str(tmp_path / "p.yaml"))
        assert code == 1 and "can be guessed (it is a pattern" in err and "--guessable" in err
        assert not (tmp_path / "p.yaml").exists()
    assert run("new", *NAMES, "--seed", "0" * 32, "--guessable", "-g",
               str(tmp_path / "p.yaml"))[0] == 0
    assert "the seed '00000000000000000000000000000000' can be guessed (it is a pattern" in \
        run("audit", str(tmp_path / "p.yaml"))[1]
    assert run("new", *NAMES, "--seed", "3f9a0c71e2d84b56a1c09e7f42d3b8a5", "-g",
               str(tmp_path / "b.yaml"))[0] == 0
    assert run("new", *NAMES, "--seed", "s1", "--guessable", "-g", str(tmp_path / "c.yaml"))[0] == 0
    code, out, _ = run("audit", str(tmp_path / "c.yaml"))
    assert "the seed 's1' has fewer than 128 bits" in out


def test_the_moderator_can_choose_a_seed_but_not_a_deal_from_the_players_words():
    """The third attack: trying seeds until the deal is as wished (Hitler and the first
    President in seat 1) works when the moderator deals alone; with --deal players the
    same seed, committed before the words, deals whatever the words make it."""
    def wished(roles: tuple[str, ...], first: int) -> bool:
        return roles[0] == "hitler" and first == 0

    def dealt_alone(seed: str) -> tuple[tuple[str, ...], int]:
        setup = parse_setup(new_header(NAMES, seed=seed, salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=AT))
        return setup.roles, setup.first or 0

    tries = next(n for n in range(1, 2000) if wished(*dealt_alone(f"{n:032x}")))
    assert tries < 2000  # found, as the 488 deals were

    # Against the players' words: the moderator tries seeds against the words they expect
    # (here: every player posts "x"), commits to one, and the players post other words.
    from shmod.forum.dealing import dealt, words_seed

    base = parse_setup(new_header(NAMES, seed="0" * 32, salt="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=AT,
                                       deal_by="players"))

    def dealt_with(seed: str, words: list[str]) -> tuple[tuple[str, ...], int]:
        roles, _, first = dealt(base, words_seed(seed, words))
        return roles, first

    expected = ["x"] * 5
    chosen = next(f"{n:032x}" for n in range(1, 5000) if wished(*dealt_with(f"{n:032x}", expected)))
    rng = random.Random(3)
    outcomes = [dealt_with(chosen, [f"{rng.getrandbits(32):x}" for _ in NAMES])
                for _ in range(200)]
    hitlers = {roles.index("hitler") for roles, _ in outcomes}
    assert hitlers == set(range(5))  # every seat: the chosen seed steered nothing
    assert sum(wished(*o) for o in outcomes) < 30  # about 1 in 25, as chance has it


def test_every_checkpoint_of_a_whole_game_is_keyed(tmp_path):
    """What the replay checks of a ``posted`` entry is the keyed token of that post."""
    path = str(tmp_path / "g.yaml")
    store.new_game(path, NAMES, seed=SEED, created=AT)
    printed = _play(path, random.Random(7))
    loaded = store.load(path)
    salt = loaded.setup.salt
    assert salt is not None
    claims = checkpoints.find("\n".join(printed))
    assert len(claims) == len(loaded.table.posts) > 3
    for number, (claim, upto) in enumerate(zip(claims, loaded.table.posts), 1):
        assert claim.post == number
        assert claim.token == checkpoints.mark(loaded.setup, number, upto, loaded.heads[upto])
        assert claim.token[:32] == checkpoints.value(salt, upto, loaded.heads[upto])
