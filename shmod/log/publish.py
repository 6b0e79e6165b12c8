"""``shmod publish``: the log as it may be published, without the moderator's private
signing key (R-CHECKPOINT).

The copy is the log's own bytes less the one line that holds ``secret.signing_key``; it
chains exactly as the moderator's file (:func:`shmod.log.logfile.header_link` leaves the
key out), so ``shmod audit`` gives the same verdict on both. The copy is read back before
it is written: the same header less the key, the same entries.
"""
from __future__ import annotations

import os
import re

from shmod.base.errors import BadInput
from shmod.game.terms import OVER
from shmod.log import logfile, outfiles
from shmod.log.game import Game, load

_KEY_LINE = re.compile(rb"[ \t]+signing_key[ \t]*:")


def default_target(path: str) -> str:
    """``games/friday.yaml`` -> ``games/friday.published.yaml``."""
    base, ext = os.path.splitext(path)
    return f"{base}.published{ext or '.yaml'}"


def published_text(game: Game) -> bytes:
    """The bytes of ``game``'s log without the line holding its private signing key."""
    data = game.log.data
    if game.setup.signing_key is None:
        return data
    lines = data.splitlines(keepends=True)
    number = game.log.key_lines.get("signing_key")
    if number is None or not _KEY_LINE.match(lines[number - 1]):
        raise BadInput(f"{game.path}: secret.signing_key is not on a line of its own, as "
                       "`shmod new` writes it, so it cannot be left out: nothing was written")
    return b"".join(lines[:number - 1] + lines[number:])


def publish(path: str, target: str | None = None, *, force: bool = False) -> tuple[str, Game]:
    """Write the log at ``path`` without its private key to ``target`` (default:
    :func:`default_target`), which must not exist; refused while the game goes on unless
    ``force``. Returns the path written and the game."""
    game = load(path, warn_edits=False, cache="off")
    if game.state.game.phase != OVER and not force:
        raise BadInput("R-THREAD: the game is not over, and its log holds every role and "
                       "card: publish it after the reveal (or with --force, e.g. for a game "
                       "abandoned for good); nothing was written")
    target = target or default_target(path)
    data = published_text(game)
    copy = logfile.parse(target, data)
    if copy.header != logfile.published(game.log.header) or copy.entries != game.log.entries:
        raise BadInput(f"{path}: the copy without the signing key would not read back as the "
                       "same log; nothing was written")
    # a game not over (--force): the copy still holds every secret, so it is the owner's
    # alone until the moderator chooses to publish it (as `shmod new` makes logs)
    mode = 0o644 if game.state.game.phase == OVER else 0o600
    try:
        outfiles.write(target, data, mode=mode, replace=False)
    except FileExistsError:
        raise BadInput(f"{target} already exists; shmod never overwrites a file (name another "
                       "with -o)") from None
    return target, game
