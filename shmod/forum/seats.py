"""Seats changing hands on a forum: a newcomer taking a living seat with its role and
everything it was sent (R-REPLACE, from the backup list, R-BACKUP), and a name written
wrong corrected (R-RENAME). The game sees only that a seat's player is known by another
name (:func:`shmod.game.hooks.reseat`): the seat keeps its role, its place and its record.
"""
from __future__ import annotations

from shmod.base.errors import BadInput, RuleBroken
from shmod.forum.corrections import voided
from shmod.forum.events import Awaited, Briefing, Deed, Renamed, Replaced, Retraction
from shmod.forum.names import look_alike
from shmod.forum.setup import check_players
from shmod.forum.steps import Rename, Replace
from shmod.forum.table import Table
from shmod.forum.turns import waiting_for
from shmod.game import hooks
from shmod.game.events import RoleSent, RoundBegan, Secret
from shmod.game.setup import knows
from shmod.game.steps import (
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    PowerUse,
    SpecialElection,
    Step,
    Veto,
    Vote,
)


def replace(table: Table, step: Replace) -> None:
    """R-REPLACE: a newcomer takes a living seat with its role and everything it was sent
    (leaving the backup list if they were on it, R-BACKUP)."""
    game = table.game
    seat, name = step.target, step.name
    old = game.name(seat)
    if not game.alive[seat]:
        raise RuleBroken("R-REPLACE", f"{old} is dead; a dead seat is not replaced")
    try:
        name = check_players([name if s == seat else n
                              for s, n in enumerate(game.players)])[seat]
    except BadInput as err:
        raise RuleBroken("R-REPLACE", f"cannot seat {name!r}: {err}") from None
    if table.setup.format.refuses_no_ops and look_alike(name, old):
        same = "is" if name == old else "looks like"
        raise RuleBroken("R-REPLACE", f"{name!r} {same} {old}, who holds the seat: a "
                         "replacement seats another player, so it would change nothing "
                         "(a name written wrong is corrected with `shmod rename`)")
    held = held_elsewhere(table, seat, name)
    if held is not None:
        former, other = held
        alike = "" if former.casefold() == name.casefold() else " (the names look the same)"
        where = (f"held seat {other + 1} and was sent its secrets" if other is not None else
                 "was sent another seat's secrets (in a step since voided)")
        raise RuleBroken("R-REPLACE", f"cannot seat {name!r}: {former} {where}{alike}; "
                         "choose another name")
    table.backups = [b for b in table.backups if b.casefold() != name.casefold()]
    if not game.roles:  # before the deal (R-DEAL): a seat with no role and no secrets yet
        _seat(table, seat, old, name)
        return
    history: list[tuple[int, Secret]] = []
    gone = voided(table)
    for secret in game.secrets:
        if secret.to != old or isinstance(secret, (RoleSent, Retraction)) or secret.entry in gone:
            continue
        if isinstance(secret, Briefing):
            history.extend(secret.history)
        else:
            history.append((round_of(table, secret.entry), secret))
    did = tuple(Deed(round_of(table, entry), done, _target_name(table, done))
                for entry, done in table.history
                if isinstance(done, DEEDS) and done.by == seat and entry not in gone)
    _seat(table, seat, old, name)
    awaited = seat in waiting_for(table).seats
    game.tell_name(
        name, Briefing, role=game.roles[seat], replacing=old, seat=seat + 1,
        knows=tuple(knows(game.players, game.roles, game.rules, seat).items()),
        history=tuple(history), did=did, round=game.round,
        awaited=Awaited(game.phase, game.name(game.president),
                        game.name(game.chancellor), game.power) if awaited else None)


def rename(table: Table, step: Rename) -> None:
    """R-RENAME: a player's name written wrong (a typo at ``shmod new``) is corrected; the
    same player keeps the seat and everything it was sent, and the header, which the
    opening post's commitment covers, is left as it was."""
    game = table.game
    seat, name = step.target, " ".join(step.name.split())
    old = game.name(seat)
    try:
        name = check_players([name if s == seat else n
                              for s, n in enumerate(game.players)])[seat]
    except BadInput as err:
        raise RuleBroken("R-RENAME", f"cannot rename {old} to {name!r}: {err}") from None
    if table.setup.format.refuses_no_ops and name == old:
        raise RuleBroken("R-RENAME", f"{old} is already called {name!r}: the rename would "
                         "change nothing")
    if held_elsewhere(table, seat, name) is not None:
        raise RuleBroken("R-RENAME", f"cannot rename {old} to {name!r}: a player of that name "
                         "(or one that looks like it) held another seat and was sent its "
                         "secrets")
    hooks.reseat(game, seat, name)
    table.renamed.append((seat, old, name, table.entries))
    game.say(Renamed, old=old, new=name)


def held_elsewhere(table: Table, seat: int, name: str) -> tuple[str, int | None] | None:
    """A name another seat had before (at the deal, before a replacement or before a
    rename), or that was sent any PM and never was this seat's (a replacement since
    voided), that looks like ``name``, with that seat if known; or None. R-PM: secrets are
    addressed by name, so a name once sent one seat's secrets never goes to another."""
    game = table.game
    held: list[tuple[str, int | None]] = [(former, s) for s, former in
                                          enumerate(table.setup.players)]
    held += [(former, s) for s, former, _new, _entry in [*table.replaced, *table.renamed]]
    own = {former for former, s in held if s == seat}
    own |= {new for s, _old, new, _entry in [*table.replaced, *table.renamed] if s == seat}
    held += [(secret.to, None) for secret in game.secrets if secret.to not in own]
    for former, other in held:
        if other == seat or (other is not None and former == game.players[other]):
            continue
        if look_alike(former, name):
            return former, other
    return None


def names_of(table: Table, seat: int) -> set[str]:
    """Every name the player in ``seat`` has had (R-RENAME), the current one included; a
    replacement is another player (R-REPLACE) and is not one of them."""
    names = {table.game.players[seat]}
    for renamed_seat, old, new, _entry in reversed(table.renamed):
        if renamed_seat == seat and new in names:
            names.add(old)
    return names


def round_of(table: Table, entry: int) -> int:
    """The round in which entry ``entry`` was recorded (from the public record): the round
    begun before it, since a round an entry begins (an enactment, a failed election's last
    vote, a power's use) starts after that entry's own step."""
    found = 1
    for event in table.public:
        if event.entry >= entry:
            break
        if isinstance(event, RoundBegan):
            found = event.round
    return found


def _seat(table: Table, seat: int, old: str, name: str) -> None:
    """``name`` takes ``seat`` from ``old`` (R-REPLACE), said in the thread."""
    hooks.reseat(table.game, seat, name)
    table.replaced.append((seat, old, name, table.entries))
    table.game.say(Replaced, seat=seat + 1, old=old, new=name, dealt=bool(table.game.roles))


#: What a seat's own steps were, for a replacement's briefing (R-REPLACE).
DEEDS = (Nominate, Vote, Discard, Enact, Veto, PowerUse)


def _target_name(table: Table, step: Step) -> str:
    """The name of the player a step names (a nominee, a power's target), as seated now."""
    if isinstance(step, Nominate):
        return table.game.name(step.chancellor)
    if isinstance(step, (Investigate, SpecialElection, Execute)):
        return table.game.name(step.target)
    return ""


def replacing(table: Table) -> dict[str, str]:
    """Current name -> the player it replaced first, for every replaced seat."""
    players = table.game.players
    first: dict[int, str] = {}
    for seat, old, _new, _entry in table.replaced:
        first.setdefault(seat, old)
    return {players[s]: old for s, old in first.items() if players[s] != old}
