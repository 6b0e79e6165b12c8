"""A post withdrawn after a race between moderators, and the line that withdraws it in the
thread (R-MERGE, R-CHECKPOINT).

Two moderators who record on their own copies can both make post N. When their copies are
joined (:mod:`shmod.log.merge`) the post delivered first stands; the other, if it reached
the thread, stays in the record as a ``withdrawn`` entry (its number, its checkpoint as
the thread shows it, the identities of the entries it covered, which the merge applied
after the other copy's), and the thread must show after it a line only the game's key
makes, added by editing that post::

    Log withdrawal: post 5 · <32 hex digits> · <128 hex digits>

The 32 digits are the withdrawn post's checkpoint value, as its own checkpoint line shows
it; the 128 are the moderator's Ed25519 signature of :func:`message` (the game's
commitment, the post number and that value). In a log of format 1 they are a 16-digit tag
made with a key derived from the salt (:func:`tag`), like that format's checkpoints. Like
the checkpoint line, the line keeps this one form in every language, after the
translated words that say what it means (:mod:`shmod.texts.forum_texts`).
``docs/verify.md`` (section 9) specifies it; ``shmod audit --thread`` accepts a withdrawn
version of a post only when its withdrawal line follows it.
"""
from __future__ import annotations

import re

from shmod.base import digest, patterns
from shmod.base.records import Record
from shmod.forum.table import Setup
from shmod.log.checkpoints import game_commitment
from shmod.log.entries import CHECKPOINT_HEX, SIGNATURE_HEX, TAG_HEX

LABEL = "Log withdrawal"
_LINE = patterns.later(rf"log\W{{0,3}}withdrawal\W{{0,20}}post\W{{0,10}}(\d{{1,6}})\W{{0,20}}"
                       rf"([0-9a-f]{{{CHECKPOINT_HEX}}})\W{{0,20}}"
                       rf"([0-9a-f]{{{SIGNATURE_HEX}}}|[0-9a-f]{{{TAG_HEX}}})(?![0-9a-f])",
                       re.IGNORECASE)


def message(commitment: str, post: int, value: str) -> bytes:
    """What the moderator signs to withdraw the version of post ``post`` whose checkpoint
    value is ``value``, in the game whose commitment is ``commitment`` (a checkpoint's
    signature, of ``shmod-checkpoint 2``, can never serve as one)."""
    return f"shmod-withdrawal 1\n{commitment}\n{post}\n{value}\n".encode()


def tag(salt: str, post: int, value: str) -> str:
    """Format 1: the withdrawal's tag, made with a key derived from ``salt``."""
    key = digest.sha256(f"shmod/withdrawal-key/v1\n{salt}".encode()).digest()
    return digest.hmac_sha256(bytes(key), f"{post}\n{value}".encode())[:TAG_HEX]


def mark(setup: Setup, post: int, checkpoint: str) -> str:
    """The mark of the line that withdraws the version of post ``post`` showing
    ``checkpoint`` (value and signature, or format 1's value and tag): the signature
    under ``secret.signing_key`` (format 2 and later), or the tag."""
    value = checkpoint[:CHECKPOINT_HEX]
    if len(checkpoint) == CHECKPOINT_HEX + TAG_HEX:
        assert setup.salt is not None
        return tag(setup.salt, post, value)
    from shmod.base.errors import BadInput
    from shmod.log import signing

    if setup.signing_key is None:
        raise BadInput("R-CHECKPOINT: the header has no secret.signing_key, so the withdrawal "
                       "line cannot be signed: merge the moderators' own copies, not a "
                       "published one")
    return signing.sign(setup.signing_key, message(game_commitment(setup), post, value))


def line(post: int, checkpoint: str, made: str) -> str:
    """The withdrawal line for the version of post ``post`` showing ``checkpoint``."""
    return f"{LABEL}: post {post} · {checkpoint[:CHECKPOINT_HEX]} · {made}"


class Found(Record):
    """A withdrawal line found in thread text: the post it names, the checkpoint value it
    withdraws, its mark, and where it starts."""

    post: int
    value: str
    mark: str
    start: int


def find(text: str) -> list[Found]:
    """Every withdrawal line in thread text (:func:`shmod.log.checkpoints.readable`
    first), in order."""
    return [Found(int(m.group(1)), m.group(2).lower(), m.group(3).lower(), m.start())
            for m in _LINE.finditer(text)]


def genuine(found: Found, *, salt: str | None, key: str | None,
            commitment: str | None) -> bool:
    """Whether a line's mark is the game's: its signature verifies under ``key`` for
    ``commitment`` (format 2 and later), or its tag is the one ``salt`` makes (format 1)."""
    if len(found.mark) == TAG_HEX:
        return salt is not None and found.mark == tag(salt, found.post, found.value)
    if key is None or commitment is None:
        return False
    from shmod.log import signing

    return signing.verify(key, message(commitment, found.post, found.value), found.mark)
