"""The game's header: players in seating order, variants and the secret setup.

A header either carries a ``seed`` (shmod's own games: roles, the first President when
drawn, and the deck are derived from it and must match what is written) or gives the
roles and the deck explicitly with no seed (a game dealt with real cards or another tool).
"""
from __future__ import annotations

from typing import Any

from shmod.base import plaintext
from shmod.base.errors import BadInput
from shmod.core import commitment, shuffle
from shmod.core.house import rules_for
from shmod.core.names import lookalike_pair, shown, tidy, unseen, why_alike
from shmod.core.rules import ROLE_COUNTS, ROLES, Rules, parse_variants
from shmod.core.state import Public, Secret, Setup, State
from shmod.core.steps import Seating, parse_cards, seat_number

FORMAT = 1
MAX_NAME = 40
HEADER_KEYS = ("shmod", "created", "players", "variants", "first_president", "secret", "custom",
               "commitment")
SECRET_KEYS = ("seed", "salt", "roles", "deck")


def deal(players: list[str], seed: str, rules: Rules) -> tuple[str, ...]:
    """R-ROLES dealt from the seed: the role list (Liberals, Fascists, Hitler) shuffled."""
    pack = ["liberal"] * rules.liberals + ["fascist"] * rules.fascists + ["hitler"]
    return tuple(shuffle.shuffled(pack, seed, "roles"))


def new_header(
    players: list[str],
    *,
    seed: str | None = None,
    first: str | None = None,
    variants: list[str] | dict[str, str] | None = None,
    salt: str,
    created: str,
    custom: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The header of a new seeded game, checked by :func:`parse_setup`."""
    names = check_players(players)
    chosen = parse_variants(variants)
    rules = rules_for(len(names), chosen, custom)
    seed = seed or shuffle.new_seed()
    if rules.first_president == "seat1":
        first_seat = 0
        if first is not None and Seating(tuple(names)).seat(first) != 0:
            raise BadInput("first_president=seat1: the first Presidential Candidate is seat 1")
    elif first is None:
        first_seat = shuffle.pick(len(names), seed, "first-president")  # R-FIRST
    else:
        first_seat = Seating(tuple(names)).seat(first)
    roles = deal(names, seed, rules)
    deck = shuffle.policy_pile(rules.deck_liberal, rules.deck_fascist, seed, "deck")
    header = {
        "shmod": FORMAT,
        "created": created,
        "players": names,
        "variants": chosen,
        "first_president": names[first_seat],
        "secret": {
            "seed": seed,
            "salt": salt,
            "roles": dict(zip(names, roles)),
            "deck": deck,
        },
    }
    if custom is not None:
        header["custom"] = custom
    header["commitment"] = commitment.commitment(parse_setup(header))
    return header


def seat_clash(name: str, count: int) -> str:
    """Why an all-digit ``name`` cannot sit in a ``count``-player game."""
    return (f"player name {name!r} could be read as a seat number: in a {count}-player game "
            f"shmod reads 1 to {count} as seats in seating order (`shmod vote {int(name)} ja` "
            f"is whoever sits in seat {int(name)}), so a name made of digits must be another "
            f"number (e.g. 555); give this player a name with a letter in it, e.g. "
            f"'Player {name}'")


def check_players(players: Any) -> list[str]:
    """R-SEAT / R-COUNT: 5 to 10 names in seating order that players can tell apart:
    distinct ignoring case, nothing in them that cannot be seen, in NFC, no two that
    look the same (:mod:`shmod.core.names`); an all-digit name only where it cannot be
    a seat number (555, but not 3 of 7). The count is checked before any name, so a
    list of any length costs nothing more than its length."""
    if not isinstance(players, list):
        raise BadInput("players must be a list of names in seating order")
    if not 5 <= len(players) <= 10:
        raise BadInput(f"R-COUNT: Secret Hitler takes 5 to 10 players, not {len(players)}")
    seated = [_seated_name(item) for item in players]
    by_key: dict[str, list[str]] = {}
    for name in seated:
        by_key.setdefault(name.casefold(), []).append(name)
    dupes = sorted({name for same in by_key.values() if len(same) > 1 for name in same})
    if dupes:
        raise BadInput(f"player names must differ (ignoring case): {', '.join(dupes)}")
    for name in seated:
        if seat_number(name, len(seated)) is not None:
            raise BadInput(seat_clash(name, len(seated)))
    pair = lookalike_pair(seated)
    if pair is not None:
        first, second = seated[pair[0]], seated[pair[1]]
        raise BadInput(f"player names {first!r} and {second!r} look the same "
                       f"({why_alike(first, second)}); choose names players can "
                       "tell apart")
    return seated


def _seated_name(item: Any) -> str:
    """One player's name as seated (:func:`~shmod.core.names.tidy`), or why it cannot be."""
    if not isinstance(item, (str, int)) or isinstance(item, bool):
        raise BadInput(f"player {item!r} is not a name")
    name = " ".join(str(item).split())
    if not name:
        raise BadInput("a player's name is empty")
    problem = plaintext.unsafe(name)
    if problem:
        raise BadInput(f"player name {name!r} holds a {problem}")
    hidden = unseen(name)
    if hidden:
        raise BadInput(f"player name {shown(name)} holds {hidden}: a name must look "
                       "like no other, so leave it out")
    name = tidy(name)
    if len(name) > MAX_NAME:
        raise BadInput(f"player name {name[:20]!r}… is longer than {MAX_NAME} characters")
    return name


def parse_setup(raw: Any) -> Setup:
    """Check a header mapping and return the :class:`Setup` it describes."""
    if not isinstance(raw, dict):
        raise BadInput("the log must be a YAML mapping with players, variants and secret")
    unknown = [str(k) for k in raw if k not in HEADER_KEYS and k != "log"]
    if unknown:
        raise BadInput(f"unknown header field(s): {', '.join(unknown)}")
    if raw.get("shmod") != FORMAT:
        raise BadInput(f"shmod: {raw.get('shmod')!r} is not a log format this shmod reads "
                       f"(expected shmod: {FORMAT})")
    names = check_players(raw.get("players"))
    if any(not isinstance(name, str) for name in raw["players"]):
        raise BadInput("a player's name must be text: write an all-digit name in quotes, "
                       'e.g. - "555"')
    for written, name in zip(raw["players"], names):
        if written != name:
            how = ("without extra spaces" if written != " ".join(written.split())
                   else "in Unicode's composed form (NFC), as `shmod new` writes it")
            raise BadInput(f"player name {written!r} must be written {how}")
    variants = parse_variants(raw.get("variants"))
    rules = rules_for(len(names), variants, raw.get("custom"))
    seating = Seating(tuple(names))
    if "first_president" not in raw:
        raise BadInput("the header is missing first_president")
    first = seating.seat(raw["first_president"], prefixes=False)
    if rules.first_president == "seat1" and first != 0:
        raise BadInput("first_president=seat1: the first Presidential Candidate must be seat 1")
    secret = raw.get("secret")
    if not isinstance(secret, dict):
        raise BadInput("the header is missing its secret setup (roles and deck)")
    unknown = [str(k) for k in secret if k not in SECRET_KEYS]
    if unknown:
        raise BadInput(f"unknown secret field(s): {', '.join(unknown)}")
    seed = _text(secret.get("seed"), "seed")
    salt = _text(secret.get("salt"), "salt")
    roles = _roles(secret.get("roles"), names, seating, rules)
    deck = parse_cards(secret.get("deck", ""))
    if sorted(deck) != sorted("L" * rules.deck_liberal + "F" * rules.deck_fascist):
        raise BadInput(f"R-DECK: the deck must hold {rules.deck_liberal} Liberal and "
                       f"{rules.deck_fascist} Fascist policies, not {deck.count('L')} and "
                       f"{deck.count('F')}")
    if seed is not None:
        if roles != deal(names, seed, rules):
            raise BadInput("R-ROLES: the roles are not the ones the seed deals")
        expected = shuffle.policy_pile(rules.deck_liberal, rules.deck_fascist, seed, "deck")
        if list(deck) != expected:
            raise BadInput("R-DECK: the deck is not in the order the seed gives")
    stored = raw.get("commitment")
    if stored is not None:
        stored = commitment.parse_hex(str(stored))
    return Setup(tuple(names), variants, rules, first, seed, salt, roles, deck, raw.get("custom"),
                 stored)


def start(setup: Setup) -> State:
    """The state before the first entry: roles dealt, deck shuffled, first President."""
    state = State(
        rules=setup.rules,
        players=setup.players,
        roles=setup.roles,
        seed=setup.seed,
        first=setup.first,
        alive=[True] * len(setup.players),
        president=setup.first,
        anchor=setup.first,
        draw=list(setup.deck),
        liberal=setup.rules.liberal_start,
        fascist=setup.rules.fascist_start,
        origin=setup,
    )
    state.public.append(Public(0, "start", {
        "players": list(setup.players), "president": setup.players[setup.first],
        "variants": dict(setup.variants), "commitment": setup.commitment}))
    for seat, name in enumerate(setup.players):
        state.secrets.append(Secret(0, name, "role", {"role": setup.roles[seat],
                                                      "knows": knows(setup.players, setup.roles, setup.rules, seat)}))
    return state


def knows(players: tuple[str, ...], roles: tuple[str, ...], rules: Rules,
          seat: int) -> dict[str, str]:
    """R-KNOW: whom the player in ``seat`` knows, name -> role."""
    role = roles[seat]
    if role == "liberal" or (role == "hitler" and not rules.hitler_knows_fascists):
        return {}
    return {
        name: other
        for s, (name, other) in enumerate(zip(players, roles))
        if s != seat and other != "liberal"
    }


def _roles(raw: Any, names: list[str], seating: Seating, rules: Rules) -> tuple[str, ...]:
    if not isinstance(raw, dict):
        raise BadInput("secret.roles must map every player to liberal, fascist or hitler")
    roles: list[str | None] = [None] * len(names)
    for key, value in raw.items():
        seat = seating.seat(key, prefixes=False)
        role = str(value).strip().lower()
        if role not in ROLES:
            raise BadInput(f"R-ROLES: {key}'s role {value!r} is not liberal, fascist or hitler")
        roles[seat] = role
    missing = [names[s] for s, r in enumerate(roles) if r is None]
    if missing:
        raise BadInput(f"R-ROLES: no role given for {', '.join(missing)}")
    got = tuple(r for r in roles if r)
    want = ROLE_COUNTS[len(names)]
    if (got.count("liberal"), got.count("fascist"), got.count("hitler")) != (*want, 1):
        raise BadInput(f"R-ROLES: {len(names)} players take {want[0]} Liberals, {want[1]} "
                       f"Fascist(s) and one Hitler")
    return got


def _text(value: Any, key: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool) or len(str(value)) > 200:
        raise BadInput(f"secret.{key} must be a short string")
    return str(value)
