"""Checkpoints: the thread pins the log, and tells nobody anything (R-CHECKPOINT).

Every thread post shmod prints is numbered and ends with one line::

    Log checkpoint: post 3 · entry 12 · <32 hex digits><16 hex digits>

The first 32 digits are the **value**: HMAC-SHA256, keyed with a key derived from the
game's secret salt (R-COMMIT: at least 128 random bits, committed in the opening post and
published by the reveal), over the entry number and the head of the hash chain after
the header and the first 12 entries, computed from what those entries *say* (never from
their ``hash`` fields). The last 16 are the **tag**: a second HMAC, under another key
derived from the salt, over the post number, the entry number and the value.

- *Hiding.* Without the salt, a value is indistinguishable from random: guessing an
  entry's content (a vote, a discard, the deck after a reshuffle) and hashing it gives
  nothing to compare with. Unkeyed chain heads could be brute-forced from consecutive
  posts in milliseconds; that is why they are never posted.
- *Binding.* After the game the salt is public; a changed log gives other values. Making
  a changed log give a posted value needs a second preimage (about 2^128 tries), or a
  collision prepared in advance (about 2^64).
- *Authenticity.* Before the reveal only the moderator can make a valid tag, so
  ``shmod audit --thread`` tells a line shmod made for this game (whose value the log must
  still give) from a forged, mistyped or foreign one (ignored, with a warning). Post
  numbers make two different claims for one post visible.

Logs of an earlier shmod carry unkeyed checkpoints (``Log checkpoint: entry 12 · <32 hex>``:
the chain head itself); they are still checked, and reported as unkeyed.
"""
from __future__ import annotations

import re
from typing import Any

from shmod.base import digest
from shmod.base.records import Record
from shmod.log.entries import CHECKPOINT_HEX, TAG_HEX

LABEL = "Log checkpoint"
TOKEN_HEX = CHECKPOINT_HEX + TAG_HEX
_KEYED = re.compile(rf"log\W{{0,3}}checkpoint\W{{0,20}}post\W{{0,10}}(\d{{1,6}})\W{{0,20}}"
                    rf"entry\W{{0,10}}(\d{{1,6}})\W{{0,20}}([0-9a-f]{{{TOKEN_HEX}}})(?![0-9a-f])",
                    re.IGNORECASE)
_UNKEYED = re.compile(rf"log\W{{0,3}}checkpoint\W{{0,20}}entry\W{{0,10}}(\d{{1,6}})\W{{0,20}}"
                      rf"([0-9a-f]{{{CHECKPOINT_HEX}}})(?![0-9a-f])", re.IGNORECASE)


def _key(salt: str, purpose: str) -> bytes:
    return bytes(digest.sha256(f"shmod/{purpose}-key/v1\n{salt}".encode()).digest())


def value(salt: str, entry: int, head: str) -> str:
    """The keyed value that pins the log up to ``entry``, whose chain head is ``head``."""
    mac = digest.hmac_sha256(_key(salt, "checkpoint"), f"{entry}\n{head}".encode())
    return mac[:CHECKPOINT_HEX]


def tag(salt: str, post: int, entry: int, pinned: str) -> str:
    """The tag that only the holder of ``salt`` can make for post ``post``."""
    return digest.hmac_sha256(_key(salt, "tag"), f"{post}\n{entry}\n{pinned}".encode())[:TAG_HEX]


def token(salt: str, post: int, entry: int, head: str) -> str:
    """What post ``post`` shows for the log up to ``entry``: value then tag."""
    pinned = value(salt, entry, head)
    return pinned + tag(salt, post, entry, pinned)


def line(post: int, entry: int, shown: str) -> str:
    """The checkpoint line that ends post ``post``, covering the log up to ``entry``."""
    return f"{LABEL}: post {post} · entry {entry} · {shown}"


class Claim(Record):
    """One checkpoint line found in thread text. ``post`` is None for an unkeyed line of
    an earlier shmod (its ``token`` is then the 32-digit chain head)."""

    post: int | None
    entry: int
    token: str

    @property
    def keyed(self) -> bool:
        return self.post is not None


def find(text: str) -> list[Claim]:
    """Every checkpoint in pasted thread text (BBCode, Markdown or plain, or as a browser
    shows it), in order of appearance, each distinct claim once."""
    found = [(m.start(), Claim(int(m.group(1)), int(m.group(2)), m.group(3).lower()))
             for m in _KEYED.finditer(text)]
    found += [(m.start(), Claim(None, int(m.group(1)), m.group(2).lower()))
              for m in _UNKEYED.finditer(text)]
    return list(dict.fromkeys(claim for _, claim in sorted(found, key=lambda f: f[0])))


def recorded(salt: str | None, post: int, upto: int, shown: str, chain: list[str]) -> bool:
    """Whether a ``posted`` entry's ``checkpoint`` (post ``post``, up to entry ``upto``)
    is what the log gives: keyed with the salt, or an earlier shmod's unkeyed head."""
    if not 0 <= upto < len(chain):
        return False
    if len(shown) == CHECKPOINT_HEX:
        return shown == chain[upto]
    return salt is not None and shown == token(salt, post, upto, chain[upto])


class Check(Record):
    """One claim from the thread, judged against the log.

    ``genuine``: its tag was made with this game's key (None for an unkeyed claim, which
    has no tag); ``matches``: the log still gives its value (None: the log has fewer
    entries); ``recorded_upto``: the entry the log's own post of that number covers
    (None: the log records no such post)."""

    claim: Claim
    genuine: bool | None
    matches: bool | None
    recorded_upto: int | None

    @property
    def ok(self) -> bool:
        return bool(self.matches) and self.genuine is not False

    def to_json(self) -> dict[str, Any]:
        return {"post": self.claim.post, "entry": self.claim.entry, "posted": self.claim.token,
                "genuine": self.genuine, "matches": self.matches, "ok": self.ok}


def judge(claim: Claim, salt: str | None, chain: list[str],
          posts: list[int]) -> Check:
    """Judge one claim: ``chain`` is the log's content chain (:attr:`shmod.log.chain.Walk.
    heads`), ``posts`` the ``upto`` of each post the log records (post 1 first)."""
    head = chain[claim.entry] if claim.entry < len(chain) else None
    if not claim.keyed:
        return Check(claim, None, None if head is None else claim.token == head, None)
    assert claim.post is not None
    shown, given = claim.token[:CHECKPOINT_HEX], claim.token[CHECKPOINT_HEX:]
    genuine = salt is not None and given == tag(salt, claim.post, claim.entry, shown)
    matches = None if head is None or salt is None else shown == value(salt, claim.entry, head)
    upto = posts[claim.post - 1] if 1 <= claim.post <= len(posts) else None
    return Check(claim, genuine, matches, upto)


def verify(chain: list[str], salt: str | None, thread: str,
           posts: list[int]) -> list[Check]:
    """Judge every checkpoint in ``thread`` against the log whose content chain is ``chain``
    (:func:`judge`)."""
    return [judge(claim, salt, chain, posts) for claim in find(thread)]
