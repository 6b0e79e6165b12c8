"""The game's header: players in seating order, variants and the secret setup, with the
forum's part (the commitment, the key pair, the time zone, who deals, the output profile);
and the table it starts.

A header either carries a ``seed`` (shmod's own games: roles, the first President when
drawn, and the deck are derived from it and must match what is written) or gives the
roles and the deck explicitly with no seed (a game dealt with real cards or another tool).
"""
from __future__ import annotations

from typing import Any

from shmod.base import patterns, plaintext
from shmod.base.errors import BadInput
from shmod.forum import commitment, log_formats
from shmod.forum.deadlines import UTC_TIME, ZONE_NAME, decision, zone_info
from shmod.forum.events import Started
from shmod.forum.house import parse_variants
from shmod.forum.log_formats import LogFormat
from shmod.forum.moderators import check_list
from shmod.forum.names import (
    Seating,
    look_alike,
    lookalike_pair,
    seat_number,
    shown,
    tidy,
    unseen,
    why_alike,
)
from shmod.forum.table import Setup, Table
from shmod.forum.terms import SEED_SOURCES, Deal, SeedSource
from shmod.game import setup as game_setup, shuffle
from shmod.game.house import rules_for
from shmod.game.rules import ROLE_COUNTS, Rules, parse_cards
from shmod.game.setup import deal
from shmod.game.terms import ROLES, Policy, Role

MAX_NAME = 40
#: The form of ``forum``: an output profile's name (which names exist is the texts layer's).
FORUM_NAME = patterns.later(r"[a-z][a-z0-9-]{0,31}\Z")
#: The form of ``language``: a language code (``de``, ``pt-BR``; which exist is the texts
#: layer's: shmod/texts/catalog.py).
LANGUAGE_CODE = patterns.later(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?\Z")
HEADER_KEYS = ("shmod", "created", "title", "zone", "players", "variants", "deal",
               "first_president", "secret", "custom", "commitment", "forum", "moderator_key",
               "language", "moderators", "seed_source", "first_chosen")
SECRET_KEYS = ("seed", "salt", "roles", "deck", "signing_key")
#: Format 2's key pair (R-CHECKPOINT): the public key checkpoints are signed with, and
#: (secret, never published) its private half; ``shmod.log.signing`` makes and uses them.
KEY_FIELDS = ("moderator_key", "secret.signing_key")
_KEY = patterns.later(r"[0-9a-f]{64}")


DEALS: tuple[Deal, ...] = ("moderator", "players")  # R-DEAL: who makes the deal unpredictable


def new_header(
    players: list[str],
    *,
    seed: str | None = None,
    first: str | None = None,
    variants: list[str] | dict[str, str] | None = None,
    salt: str,
    created: str,
    custom: dict[str, Any] | None = None,
    deal_by: str = "moderator",
    zone: str | None = None,
    title: str | None = None,
    forum: str | None = None,
    keys: tuple[str, str] | None = None,
    language: str | None = None,
    moderators: list[str] | None = None,
    seed_source: SeedSource | None = None,
) -> dict[str, Any]:
    """The header of a new seeded game, checked by :func:`parse_setup`. ``deal_by``
    ``players``: the roles and the deck are dealt later, from the seed and a word from
    every player (R-DEAL), so the header holds neither. ``forum``: the output profile its
    posts are written in (public); ``language``: the language players read (public; English
    when absent). ``keys``: the moderator's key pair, ``(private,
    public)`` (:func:`shmod.log.signing.new_key`), that the thread's checkpoints are
    signed with; without one the game can be replayed but no post made. ``moderators``:
    the game's moderators, when it has more than one (public; R-MODERATORS).
    ``seed_source`` (public, committed): ``drawn`` by shmod when ``seed`` is None, else
    ``supplied`` by the moderator, or ``guessable`` when they accepted it unchecked
    (``shmod new --guessable``); the opening post and the audit say which."""
    names = check_players(players)
    if seed_source is None:
        seed_source = "drawn" if seed is None else "supplied"
    chosen = parse_variants(variants)
    rules = rules_for(len(names), chosen, custom)
    seed = _text(seed, "seed") or shuffle.new_seed()
    if deal_by not in DEALS:
        raise BadInput(f"the deal is made by one of {', '.join(DEALS)}, not {deal_by!r}")
    if rules.first_president == "seat1":
        first_seat: int | None = 0
        if first is not None and Seating(tuple(names)).seat(first) != 0:
            raise BadInput("first_president=seat1: the first Presidential Candidate is seat 1")
    elif first is not None:
        first_seat = Seating(tuple(names)).seat(first)
    elif deal_by == "players":
        first_seat = None  # drawn at the deal (R-FIRST, R-DEAL)
    else:
        first_seat = shuffle.pick(len(names), seed, "first-president")  # R-FIRST
    secret: dict[str, Any] = {"seed": seed, "salt": salt}
    if keys is not None:
        secret["signing_key"] = keys[0]
    if deal_by == "moderator":
        secret["roles"] = dict(zip(names, deal(names, seed, rules)))
        secret["deck"] = shuffle.policy_pile(rules.deck_liberal, rules.deck_fascist, seed,
                                             "deck")
    header: dict[str, Any] = {
        "shmod": log_formats.CURRENT.number,
        "created": created,
        "players": names,
        "variants": chosen,
    }
    if deal_by == "players":
        header["deal"] = "players"
    for key, value in (("zone", zone), ("title", title)):
        if value is not None and value.strip():
            header[key] = _public(value.strip(), key)
    if zone is not None and zone.strip():
        zone_info(zone.strip())  # a zone shmod cannot find: refused now, not at a deadline
    if first_seat is not None:
        header["first_president"] = names[first_seat]
    if first is not None and rules.first_president != "seat1" and \
            "first_chosen" in log_formats.CURRENT.frames:
        header["first_chosen"] = True  # R-FIRST: the moderator's choice, not the seed's draw
    header["secret"] = secret
    if custom is not None:
        header["custom"] = custom
    if forum is not None:
        header["forum"] = forum
    if language is not None:
        header["language"] = _language(language)
    if keys is not None:
        header["moderator_key"] = keys[1]
    if moderators:
        header["moderators"] = list(check_list([tidy(m) for m in moderators], tuple(names)))
    if "seed_source" in log_formats.CURRENT.frames:
        header["seed_source"] = seed_source
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
    look the same (:mod:`shmod.forum.names`); an all-digit name only where it cannot be
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
    """One player's name as seated (:func:`~shmod.forum.names.tidy`), or why it cannot be."""
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


def check_name(name: str, seated: tuple[str, ...], former: list[str]) -> str:
    """A newcomer's name (a replacement, a backup): a player's name (R-SEAT), unlike
    every seated one and every player who left a seat (PMs are addressed by name, R-PM).
    Returns it as it will be written."""
    checked = check_players([name, *seated[1:]])[0]  # against every seat but the first,
    check_players([seated[0], checked, *seated[2:]])  # then against the first
    for old in former:
        if look_alike(checked, old):
            alike = "" if old.casefold() == checked.casefold() else " (the names look the same)"
            raise BadInput(f"{old} held a seat and was sent its secrets{alike}; choose another "
                           "name")
    return checked


def parse_setup(raw: Any) -> Setup:
    """Check a header mapping and return the :class:`Setup` it describes."""
    if not isinstance(raw, dict):
        raise BadInput("the log must be a YAML mapping with players, variants and secret")
    unknown = [str(k) for k in raw if k not in HEADER_KEYS and k != "log"]
    if unknown:
        raise BadInput(f"unknown header field(s): {', '.join(unknown)}")
    version = log_formats.read(raw.get("shmod"))
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
    deal_by = raw.get("deal", "moderator")
    if deal_by not in DEALS:
        raise BadInput(f"deal: {deal_by!r} is not one of {', '.join(DEALS)}")
    first: int | None = None
    if "first_president" in raw:
        first = seating.seat(raw["first_president"], prefixes=False)
    elif deal_by == "moderator" or rules.first_president == "seat1":
        raise BadInput("the header is missing first_president")
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
    if variants["late_choice"] == "random" and seed is None:
        raise BadInput("R-LAPSE: late_choice=random draws from the game's seed, and this game "
                       "has none")
    if deal_by == "players":
        roles, deck = _undealt(secret, seed)
        published = (_roles(secret["roles"], names, seating, rules) if "roles" in secret
                     else ())
    else:
        roles, deck = _dealt(secret, names, seating, rules, seed)
        published = ()
    keys = _keys(raw, secret, version)
    source = _seed_source(raw, version, seed)
    chosen = _first_chosen(raw, version, rules, deal_by, seed, first)
    stored = raw.get("commitment")
    if stored is not None:
        stored = commitment.parse_hex(str(stored))
    zone = _public(raw["zone"], "zone") if "zone" in raw else None
    listed = check_list(raw["moderators"], tuple(names)) if "moderators" in raw else ()
    if "title" in raw:
        _public(raw["title"], "title")
    return Setup(tuple(names), variants, rules, first, seed, salt, roles, deck, raw.get("custom"),
                 stored, deal_by, zone, forum=_forum(raw.get("forum")), format=version,
                 language=_language(raw.get("language")),
                 created=_created(raw.get("created")), moderator_key=keys[0],
                 signing_key=keys[1], moderators=listed, seed_source=source,
                 first_chosen=chosen, published_roles=published)


def _created(value: Any) -> str | None:
    """The header's ``created`` as UTC text (YAML may read an unquoted time as a datetime;
    a hand-written header may leave it out)."""
    if hasattr(value, "utcoffset") and hasattr(value, "strftime"):
        if value.utcoffset() is not None:
            from datetime import UTC

            value = value.astimezone(UTC)
        return str(value.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return value if isinstance(value, str) and UTC_TIME.fullmatch(value) else None


def _keys(raw: dict[str, Any], secret: dict[str, Any],
          version: LogFormat) -> tuple[str | None, str | None]:
    """Format 2's ``moderator_key`` and ``secret.signing_key``: each absent or 64 hex
    digits (a published log has no signing key); a format-1 header has neither."""
    found = (raw.get("moderator_key"), secret.get("signing_key"))
    for value, where in zip(found, KEY_FIELDS):
        if value is None:
            continue
        if not version.signed:
            raise BadInput(f"{where} is a field of log format 2, not of this header's "
                           f"shmod: {version.number}")
        if not isinstance(value, str) or not _KEY.fullmatch(value):
            raise BadInput(f"{where} must be 64 lowercase hexadecimal digits (an Ed25519 "
                           f"key, as `shmod new` writes it), not {shown(str(value)[:70])}")
    return found[0], found[1]


def _seed_source(raw: dict[str, Any], version: LogFormat,
                 seed: str | None) -> SeedSource | None:
    """The header's ``seed_source`` (R-COMMIT): whether shmod drew the seed, in a format
    that commits it, and only there; required in a game with a seed."""
    value = raw.get("seed_source")
    if "seed_source" not in version.frames:
        if value is not None:
            raise BadInput(f"seed_source is a field of log format 5, not of this header's "
                           f"shmod: {version.number}")
        return None
    if value is None and seed is None:
        return None
    if value not in SEED_SOURCES:
        raise BadInput(f"seed_source must be one of {', '.join(SEED_SOURCES)} (whether shmod "
                       f"drew the seed or the moderator supplied it), not {value!r}")
    return value  # type: ignore[no-any-return]


def _first_chosen(raw: dict[str, Any], version: LogFormat, rules: Rules, deal_by: str,
                  seed: str | None, first: int | None) -> bool:
    """The header's ``first_chosen`` (R-FIRST), in a format that commits it: ``true`` when
    the moderator chose the first President (``shmod new --first``). Without it the first
    President is drawn: a game dealt by the moderator with a seed must name the seed's
    draw, one dealt from the players' words names none (drawn at the deal)."""
    value = raw.get("first_chosen")
    if "first_chosen" not in version.frames:
        if value is not None:
            raise BadInput(f"first_chosen is a field of log format 5, not of this header's "
                           f"shmod: {version.number}")
        return False
    if value is not None and not isinstance(value, bool):
        raise BadInput(f"first_chosen must be true (the moderator chose the first President) "
                       f"or absent, not {value!r}")
    if value:
        if rules.first_president == "seat1":
            raise BadInput("first_chosen: true with first_president=seat1: the house rule "
                           "names the first President, not the moderator")
        if first is None:
            raise BadInput("first_chosen: true, but the header names no first_president")
        return True
    if rules.first_president == "seat1" or first is None:
        return False
    if deal_by == "players":
        raise BadInput("R-FIRST: a game dealt from the players' words draws its first "
                       "President at the deal; a first_president in its header is one the "
                       "moderator chose, which the header says with first_chosen: true")
    if seed is not None and first != shuffle.pick(len(raw["players"]), seed, "first-president"):
        raise BadInput("R-FIRST: first_president is not the one the seed draws, and the header "
                       "does not say the moderator chose one (first_chosen: true)")
    return False


def _public(value: Any, key: str) -> str:
    """A public header text (the game's time zone, its title): one short line."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME * 2:
        raise BadInput(f"{key} must be a short text")
    problem = plaintext.unsafe(value)
    if problem:
        raise BadInput(f"the {key} holds a {problem}")
    if key == "zone" and not ZONE_NAME.fullmatch(value):
        raise BadInput(f"zone {value!r} is not a time zone name (Europe/Berlin, or UTC)")
    return value


def _dealt(secret: dict[str, Any], names: list[str], seating: Seating, rules: Rules,
           seed: str | None) -> tuple[tuple[Role, ...], tuple[Policy, ...]]:
    """The roles and the deck a header gives; with a seed, they must be the seed's."""
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
    return roles, deck


def _undealt(secret: dict[str, Any],
             seed: str | None) -> tuple[tuple[Role, ...], tuple[Policy, ...]]:
    """R-DEAL: a game dealt from the players' words has a seed and no roles or deck yet
    (``shmod publish`` adds the roles the words dealt, :func:`shmod.log.publish.dealt_roles`,
    which the deal then checks)."""
    if seed is None:
        raise BadInput("R-DEAL: a game dealt from the players' words needs secret.seed")
    if "deck" in secret:
        raise BadInput("R-DEAL: a game dealt from the players' words has no deck in its "
                       "header: it follows from the seed and the words")
    return (), ()


def start(setup: Setup) -> Table:
    """The table before the first entry: the game started (roles dealt, deck shuffled,
    first President; in a game dealt from the players' words, waiting for the words,
    R-DEAL) and the opening post's facts said."""
    game = game_setup.start(setup.players, setup.rules, roles=setup.roles, deck=setup.deck,
                            first=setup.first, seed=setup.seed)
    president = None if setup.first is None else setup.players[setup.first]
    game.say(Started, players=setup.players, president=president,
             variants=tuple(setup.variants.items()), commitment=setup.commitment,
             deal=setup.deal, key=setup.moderator_key, seed_source=setup.seed_source)
    table = Table(game=game, setup=setup, zone=setup.zone, moderators=list(setup.moderators))
    table.decision, table.due = decision(table), setup.created  # R-LAPSE: owed since then
    return table


def _roles(raw: Any, names: list[str], seating: Seating, rules: Rules) -> tuple[Role, ...]:
    if not isinstance(raw, dict):
        raise BadInput("secret.roles must map every player to liberal, fascist or hitler")
    roles: list[Role | None] = [None] * len(names)
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


def _forum(value: Any) -> str | None:
    """The header's ``forum``: absent, or an output profile's name (``phpbb``)."""
    if value is None or (isinstance(value, str) and FORUM_NAME.match(value)):
        return value
    raise BadInput(f"forum {value!r} is not the name of a forum engine (e.g. forum: phpbb; "
                   "docs/posts.md lists them)")


def _language(value: Any) -> str | None:
    """The header's ``language``: absent, or a language code (``de``)."""
    if value is None or (isinstance(value, str) and LANGUAGE_CODE.match(value)):
        return value
    raise BadInput(f"language {value!r} is not a language code (e.g. language: de; "
                   "docs/languages.md lists the languages shmod speaks)")


def _text(value: Any, key: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool) or len(str(value)) > 200:
        raise BadInput(f"secret.{key} must be a short string")
    problem = plaintext.unsafe(str(value))
    if problem:
        raise BadInput(f"the {key} holds a {problem}")
    return str(value)
