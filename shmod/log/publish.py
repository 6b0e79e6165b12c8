"""``shmod publish``: the log as it may be published, without the moderator's private
signing key (R-CHECKPOINT).

The copy is the log's own bytes less the one line that holds ``secret.signing_key``; in
a game dealt from the players' words it also gives, under ``secret:``, the roles the words
dealt (``secret.roles``), so that anyone recomputing the deal has the roles to check
against (the deal checks them on replay). It chains exactly as the moderator's file
(:func:`shmod.log.logfile.header_link` leaves the key and those roles out), so ``shmod
audit`` gives the same verdict on both. The copy is read back before it is written: the
same header less the key (and with those roles), the same entries.
"""
from __future__ import annotations

import os
import re

from shmod.base.errors import BadInput
from shmod.game.terms import OVER, Role
from shmod.log import logfile, outfiles
from shmod.log.store import Loaded, load

_KEY_LINE = re.compile(rb"[ \t]+signing_key[ \t]*:")


def default_target(path: str) -> str:
    """``games/friday.yaml`` -> ``games/friday.published.yaml``."""
    base, ext = os.path.splitext(path)
    return f"{base}.published{ext or '.yaml'}"


def dealt_roles(game: Loaded) -> dict[str, Role]:
    """R-DEAL: in a game dealt from the players' words, once dealt, the roles the words
    dealt by the header's names (``secret.roles``, which its header lacks): the published
    log gives them, for anyone recomputing the deal to check against. Else nothing."""
    roles = game.table.game.roles
    if game.setup.deal != "players" or not roles or game.setup.published_roles:
        return {}
    return dict(zip(game.setup.players, roles))


def published_text(game: Loaded) -> bytes:
    """The bytes of ``game``'s log without the line holding its private signing key, and
    with the roles its players' words dealt (:func:`dealt_roles`) under ``secret:``."""
    lines = game.log.data.splitlines(keepends=True)
    keys = game.log.key_lines
    roles = dealt_roles(game)
    if roles:
        after = max(keys.get(key, 0) for key in ("seed", "salt", "signing_key"))
        lines[after:after] = [b"  roles:\n", *(
            f"    {logfile.scalar(name)}: {role}\n".encode() for name, role in roles.items())]
    if game.setup.signing_key is None:
        return b"".join(lines)
    number = keys.get("signing_key")
    if number is None or not _KEY_LINE.match(lines[number - 1]):
        raise BadInput(f"{game.path}: secret.signing_key is not on a line of its own, as "
                       "`shmod new` writes it, so it cannot be left out: nothing was written")
    return b"".join(lines[:number - 1] + lines[number:])


def publish(path: str, target: str | None = None, *, force: bool = False) -> tuple[str, Loaded]:
    """Write the log at ``path`` without its private key to ``target`` (default:
    :func:`default_target`), which must not exist; refused while the game goes on unless
    ``force``. Returns the path written and the game."""
    game = load(path, warn_edits=False, cache="off")
    if game.table.game.phase != OVER and not force:
        raise BadInput("R-THREAD: the game is not over, and its log holds every role and "
                       "card: publish it after the reveal (or with --force, e.g. for a game "
                       "abandoned for good); nothing was written")
    target = target or default_target(path)
    data = published_text(game)
    copy = logfile.parse(target, data)
    header = logfile.published(game.log.header)
    roles = dealt_roles(game)
    if roles:
        header = {**header, "secret": {**header["secret"], "roles": roles}}
    if copy.header != header or copy.entries != game.log.entries:
        raise BadInput(f"{path}: the copy without the signing key would not read back as the "
                       "same log; nothing was written")
    # a game not over (--force): the copy still holds every secret, so it is the owner's
    # alone until the moderator chooses to publish it (as `shmod new` makes logs)
    mode = 0o644 if game.table.game.phase == OVER else 0o600
    try:
        outfiles.write(target, data, mode=mode, replace=False)
    except FileExistsError:
        raise BadInput(f"{target} already exists; shmod never overwrites a file (name another "
                       "with -o)") from None
    return target, game
