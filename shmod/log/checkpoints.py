"""Checkpoints: the thread pins the log, tells nobody anything, and only the moderator
can make one (R-CHECKPOINT).

Every thread post shmod prints is numbered and ends with one line. In a log of format 2::

    Log checkpoint: post 3 · <32 hex digits> · <128 hex digits>

The 32 digits are the **value**: HMAC-SHA256, keyed with a key derived from the game's
secret salt (R-COMMIT: at least 128 random bits, committed in the opening post and
published by the reveal), over the number of the last entry the post covers and the head
of the hash chain after it, computed from what the entries *say* (never from their
``hash`` fields). The 128 digits are the moderator's Ed25519 **signature**
(:mod:`shmod.log.signing`) of :func:`message`: the game's commitment, the post number and
the value. The line names no entry: how many entries a post covers (prods, corrections,
deadlines) is nobody's business until the reveal.

- *Hiding.* Without the salt, a value is indistinguishable from random: guessing an
  entry's content (a vote, a discard, the deck after a reshuffle) and hashing it gives
  nothing to compare with. The signature is a function of the value and public text.
- *Binding.* After the game the salt is public; a changed log gives other values. Making
  a changed log give a posted value needs a second preimage (about 2^128 tries), or a
  collision prepared in advance (about 2^64).
- *Authenticity.* Only the holder of the private key makes a signature that verifies
  under the public key the opening post shows, before the reveal and after it (the
  private key is never published). So ``shmod audit --thread`` tells the moderator's
  lines from anyone else's: a line that does not verify proves nothing and fails nothing.

Logs of format 1 (an earlier shmod) end posts with ``Log checkpoint: post 3 · entry 12 ·
<48 hex>``: the value, then a 16-digit tag made with another key derived from the salt
(anyone can make one once the reveal has published it); older ones still with
``Log checkpoint: entry 12 · <32 hex>``, the chain head itself. Both are still checked.
"""
from __future__ import annotations

import re
from typing import Any

from shmod.base import digest, patterns
from shmod.base.records import Record
from shmod.forum.commitment import commitment as _commitment
from shmod.forum.names import unseen
from shmod.forum.table import Setup
from shmod.log.entries import CHECKPOINT_HEX, SIGNATURE_HEX, TAG_HEX

LABEL = "Log checkpoint"
TOKEN_HEX = CHECKPOINT_HEX + TAG_HEX  # format 1: value and tag
SIGNED_HEX = CHECKPOINT_HEX + SIGNATURE_HEX  # format 2: value and signature
#: The opening post's lines the audit finds in pasted thread text (shmod.texts.game_texts).
COMMITMENT_LABEL = "Setup commitment"
KEY_LABEL = "Moderator's public key"
_SIGNED = patterns.later(rf"log\W{{0,3}}checkpoint\W{{0,20}}post\W{{0,10}}(\d{{1,6}})\W{{0,20}}"
                     rf"([0-9a-f]{{{CHECKPOINT_HEX}}})\W{{0,20}}([0-9a-f]{{{SIGNATURE_HEX}}})"
                     r"(?![0-9a-f])", re.IGNORECASE)
_KEYED = patterns.later(rf"log\W{{0,3}}checkpoint\W{{0,20}}post\W{{0,10}}(\d{{1,6}})\W{{0,20}}"
                    rf"entry\W{{0,10}}(\d{{1,6}})\W{{0,20}}([0-9a-f]{{{TOKEN_HEX}}})(?![0-9a-f])",
                    re.IGNORECASE)
_UNKEYED = patterns.later(rf"log\W{{0,3}}checkpoint\W{{0,20}}entry\W{{0,10}}(\d{{1,6}})\W{{0,20}}"
                      rf"([0-9a-f]{{{CHECKPOINT_HEX}}})(?![0-9a-f])", re.IGNORECASE)
_HEX64 = r"[^\n]{0,80}?(?<![0-9a-f])([0-9a-f]{64})(?![0-9a-f])"
_COMMITMENT = patterns.later(r"setup\W{1,3}commitment\b" + _HEX64, re.IGNORECASE)
_KEY = patterns.later(r"moderator\W{0,3}s?\W{1,3}public\W{1,3}key\b" + _HEX64, re.IGNORECASE)
#: Any 64-digit value, whatever its label (a commitment or a key in the opening post).
_HEX64_ANY = patterns.later(r"(?<![0-9a-f])([0-9a-f]{64})(?![0-9a-f])", re.IGNORECASE)


def _key(salt: str, purpose: str) -> bytes:
    return bytes(digest.sha256(f"shmod/{purpose}-key/v1\n{salt}".encode()).digest())


def value(salt: str, entry: int, head: str) -> str:
    """The keyed value that pins the log up to ``entry``, whose chain head is ``head``."""
    mac = digest.hmac_sha256(_key(salt, "checkpoint"), f"{entry}\n{head}".encode())
    return mac[:CHECKPOINT_HEX]


def tag(salt: str, post: int, entry: int, pinned: str) -> str:
    """Format 1: the tag of post ``post``, made with a key derived from ``salt``."""
    return digest.hmac_sha256(_key(salt, "tag"), f"{post}\n{entry}\n{pinned}".encode())[:TAG_HEX]


def token(salt: str, post: int, entry: int, head: str) -> str:
    """Format 1: what post ``post`` shows for the log up to ``entry``: value then tag."""
    pinned = value(salt, entry, head)
    return pinned + tag(salt, post, entry, pinned)


def message(commitment: str, post: int, pinned: str) -> bytes:
    """Format 2: what the moderator signs for post ``post`` showing the value ``pinned``,
    in the game whose commitment is ``commitment`` (so that no signature of one game or
    one post serves another)."""
    return f"shmod-checkpoint 2\n{commitment}\n{post}\n{pinned}\n".encode()


def game_commitment(setup: Setup) -> str:
    """The commitment a game's posts show and its signatures bind: the header's, else
    the one its setup hashes to."""
    return setup.commitment or _commitment(setup)


def mark(setup: Setup, post: int, entry: int, head: str) -> str:
    """What post ``post`` records and shows for the log up to ``entry`` (chain head
    ``head``): in format 2 the value and the moderator's signature, in format 1 the value
    and the tag. Format 2 signs with ``secret.signing_key``, which must be the private
    half of ``moderator_key``; without it no post can be made."""
    assert setup.salt is not None
    if not setup.format.signed:
        return token(setup.salt, post, entry, head)
    from shmod.base.errors import BadInput
    from shmod.log import signing

    if setup.moderator_key is None:
        private, public = signing.new_key()
        raise BadInput("R-CHECKPOINT: nothing was recorded: the header has no moderator_key, "
                       "so the post's checkpoint cannot be signed. If the commitment is not "
                       f"posted yet, add the line `moderator_key: {public}` to the header and "
                       f"`  signing_key: {private}` under `secret:` (a key pair freshly drawn); "
                       "otherwise start the game anew with `shmod new`")
    if setup.signing_key is None:
        raise BadInput("R-CHECKPOINT: nothing was recorded: the header has no "
                       "secret.signing_key, so the post's checkpoint cannot be signed: this "
                       "looks like the published copy of the log (`shmod publish`); play on "
                       "the moderator's own file")
    if signing.public_key(setup.signing_key) != setup.moderator_key:
        raise BadInput("R-CHECKPOINT: nothing was recorded: the header's secret.signing_key "
                       "is not the private half of its moderator_key, so no line it signs "
                       "would verify; put back the key `shmod new` wrote")
    pinned = value(setup.salt, entry, head)
    return pinned + signing.sign(setup.signing_key, message(game_commitment(setup), post,
                                                            pinned))


def line(post: int, entry: int, shown: str) -> str:
    """The checkpoint line that ends post ``post``, covering the log up to ``entry``:
    format 2's names no entry."""
    if len(shown) == SIGNED_HEX:
        return f"{LABEL}: post {post} · {shown[:CHECKPOINT_HEX]} · {shown[CHECKPOINT_HEX:]}"
    return f"{LABEL}: post {post} · entry {entry} · {shown}"


class Claim(Record):
    """One checkpoint line found in thread text: format 2's (``signed``: a post number and
    value and signature, no entry), format 1's (a post number, an entry and value and tag)
    or an earlier shmod's unkeyed one (``post`` None, the 32-digit chain head)."""

    post: int | None
    entry: int | None
    token: str

    @property
    def keyed(self) -> bool:
        return self.post is not None

    @property
    def signed(self) -> bool:
        return len(self.token) == SIGNED_HEX


def readable(text: str) -> str:
    """Pasted thread text as a forum shows it: HTML character references decoded
    (``&shy;``, ``&#8203;``), ``<wbr>`` tags and every character that cannot be seen
    (soft hyphens, zero-width spaces, direction marks: what some forums put inside a long
    string of digits so that it wraps) removed, so that a checkpoint line, a commitment or
    a key reads as its digits wherever a forum broke it. One pass, linear in the text."""
    import html

    decoded = html.unescape(_WBR.sub("", text)) if "&" in text or "<" in text else text
    if decoded.isascii():
        return decoded
    return "".join(char for char in decoded if char.isascii() or not unseen(char))


_WBR = patterns.later(r"<wbr\s*/?>", re.IGNORECASE)


def find(text: str) -> list[Claim]:
    """Every checkpoint in pasted thread text (BBCode, Markdown or plain, or as a browser
    shows it; :func:`readable` first), in order of appearance, each distinct claim once."""
    return list(counted(text))


def counted(text: str) -> dict[Claim, int]:
    """Every distinct checkpoint claim in ``text``, in order of first appearance, with how
    many times the text shows it (a line quoted in another post shows twice)."""
    found = [(m.start(), Claim(int(m.group(1)), None, (m.group(2) + m.group(3)).lower()))
             for m in _SIGNED.finditer(text)]
    found += [(m.start(), Claim(int(m.group(1)), int(m.group(2)), m.group(3).lower()))
              for m in _KEYED.finditer(text)]
    found += [(m.start(), Claim(None, int(m.group(1)), m.group(2).lower()))
              for m in _UNKEYED.finditer(text)]
    counts: dict[Claim, int] = {}
    for _, claim in sorted(found, key=lambda f: f[0]):
        counts[claim] = counts.get(claim, 0) + 1
    return counts


class Opening(Record):
    """What the thread's opening post shows: its setup commitment and moderator's key
    (None: it shows none, or the text holds no opening post: ``found``); ``rivals``, any
    other commitment or key shown in the opening post (or the thread's title above it);
    ``others``, every other commitment shown anywhere else (a quote, a typo, another
    game's); ``signed``, the other signed openings shown in the thread (key, commitment), at most
    :data:`MAX_OPENINGS`: a second signed game."""

    commitment: str | None
    key: str | None
    others: tuple[str, ...] = ()
    rivals: tuple[str, ...] = ()
    signed: tuple[tuple[str, str], ...] = ()
    found: bool = False  # the text holds an opening post (its own checkpoint line)


#: How many keys, commitments and post-1 lines the search for the opening post tries,
#: and how many other signed openings lines are tried against: the work stays linear in
#: the thread, however much a player pastes into it.
MAX_TRIED = 3
MAX_OPENINGS = 3


def opening(text: str, salt: str | None = None, key: str | None = None,
            commitment: str | None = None) -> Opening:
    """The commitment and the key the thread's opening post carries (``text`` is to be
    :func:`readable`); ``salt`` (format 1), or ``key`` and ``commitment`` (the log's, format 2
    and later), to tell the opening post's own checkpoint line.

    The opening post ends with its own checkpoint line, post 1's: the first one in the text
    that is genuine, that is the log's (signed under the log's ``key``, binding a commitment
    shown before it or the log's, among the first :data:`MAX_TRIED`; in a log of format 1,
    tagged with ``salt``; with no log to tie it to, under a key shown before it), with no
    genuine line of a later post before it (that would be a quote in a thread pasted from a
    later post). A post-1 line signed under another key shown in the thread, another game's
    or a fake, can be tied to nothing of the log: it is never taken for the opening post's
    (it is listed in ``signed``), and the opening post begins after the last such line
    before its own. The first commitment and key shown in the opening post are its own;
    every other 64-digit value there (the label aside: a commitment or a key however
    written) is a rival (R-COMMIT: the moderator could show the players one and the audit
    the other). A text without such a line holds no opening post: nothing in it is taken
    for the opening post's, whatever a player wrote ("Setup commitment: ...")."""
    shown = list(dict.fromkeys(m.group(1).lower() for m in _COMMITMENT.finditer(text)))
    found = _opening_end(text, salt, key, commitment)
    if found is None:
        return Opening(None, None, tuple(shown), (), _signed_openings(text, key))
    line, end = found
    signed = _signed_openings(text, key)
    region = text[_foreign_end(text[:line], signed):end]
    first = _COMMITMENT.search(region)
    keyed = _KEY.search(region)
    ours = first.group(1).lower() if first else None
    theirs = keyed.group(1).lower() if keyed else None
    if ours is None and theirs is None:  # post 1's line alone: its post was not pasted
        return Opening(None, None, tuple(shown), (), _signed_openings(text, key))
    values = dict.fromkeys(m.group(1).lower() for m in _HEX64_ANY.finditer(region))
    rivals = tuple(v for v in values if v not in (ours, theirs))
    others = tuple(v for v in shown if v != ours and v not in rivals)
    return Opening(ours, theirs, others, rivals, signed, True)


def _foreign_end(text: str, openings: tuple[tuple[str, str], ...]) -> int:
    """Where the last post-1 line in ``text`` signed under another signed opening (key and
    commitment, :func:`_signed_openings`) ends: another game's opening post, or a fake,
    before the log's; 0 when there is none. At most :data:`MAX_TRIED` lines are tried."""
    if not openings:
        return 0
    lines = [m for m in _SIGNED.finditer(text) if int(m.group(1)) == 1][-MAX_TRIED:]
    for m in reversed(lines):
        if any(_verifies(k, c, 1, m.group(2).lower(), m.group(3).lower()) for k, c in openings):
            return m.end()
    return 0


def _opening_end(text: str, salt: str | None, key: str | None,
                 commitment: str | None) -> tuple[int, int] | None:
    """Where the opening post's own checkpoint line (post 1's) starts and ends; None when
    the text holds none."""
    if salt is not None:  # format 1: tagged with the salt
        for m in _KEYED.finditer(text):
            post, entry, token = int(m.group(1)), int(m.group(2)), m.group(3).lower()
            if token[CHECKPOINT_HEX:] != tag(salt, post, entry, token[:CHECKPOINT_HEX]):
                continue
            return (m.start(), m.end()) if post == 1 else None  # a later post's first: none
        return None
    tried = 0
    for m in _SIGNED.finditer(text):
        if int(m.group(1)) != 1:
            continue
        before = text[:m.start()]
        keys = [key] if key else _first(_KEY, before)  # the log's: nothing else ties to it
        commitments = [*_first(_COMMITMENT, before), *([commitment] if commitment else [])]
        pair = next(((k, c) for c in dict.fromkeys(commitments) for k in dict.fromkeys(keys)
                     if _verifies(k, c, 1, m.group(2).lower(), m.group(3).lower())), None)
        if pair is not None:
            later = (e for e in _SIGNED.finditer(before) if int(e.group(1)) > 1)
            if any(_verifies(*pair, int(e.group(1)), e.group(2).lower(), e.group(3).lower())
                   for e in later):
                return None  # a quote of post 1 after later posts: no opening post
            return m.start(), m.end()
        tried += 1
        if tried == MAX_TRIED:
            break
    return None


def _first(pattern: re.Pattern[str], text: str) -> list[str]:
    """The first :data:`MAX_TRIED` distinct values ``pattern`` finds in ``text``."""
    found: dict[str, None] = {}
    for m in pattern.finditer(text):
        found[m.group(1).lower()] = None
        if len(found) == MAX_TRIED:
            break
    return list(found)


def _verifies(key: str, commitment: str, post: int, value: str, signature: str) -> bool:
    from shmod.log import signing

    return signing.verify(key, message(commitment, post, value), signature)


def _signed_openings(text: str, exclude: str | None) -> tuple[tuple[str, str], ...]:
    """Other signed openings in ``text``: each key shown (not ``exclude``) with the last
    commitment shown before it, whose next post-1 line verifies under them; one signature
    check for each key, at most :data:`MAX_OPENINGS` found."""
    found: dict[str, str] = {}
    lines = [m for m in _SIGNED.finditer(text) if int(m.group(1)) == 1]
    commitments = [(m.start(), m.group(1).lower()) for m in _COMMITMENT.finditer(text)]
    line = shown = 0  # the next post-1 line after the key, the commitments before it
    for m in _KEY.finditer(text):
        key = m.group(1).lower()
        while line < len(lines) and lines[line].start() < m.end():
            line += 1
        while shown < len(commitments) and commitments[shown][0] < m.start():
            shown += 1
        if key == exclude or key in found or line == len(lines) or not shown:
            continue
        commitment, signed = commitments[shown - 1][1], lines[line]
        if _verifies(key, commitment, 1, signed.group(2).lower(), signed.group(3).lower()):
            found[key] = commitment
            if len(found) == MAX_OPENINGS:
                break
    return tuple(found.items())


def signer(claim: Claim, openings: tuple[tuple[str, str], ...]) -> str | None:
    """The key of another signed opening in the thread (:attr:`Opening.signed`) that a
    signed ``claim`` verifies under: a second signed game in the thread."""
    if not claim.signed or claim.post is None:
        return None
    value, signature = claim.token[:CHECKPOINT_HEX], claim.token[CHECKPOINT_HEX:]
    return next((key for key, commitment in openings
                 if _verifies(key, commitment, claim.post, value, signature)), None)


def recorded(setup: Setup, post: int, upto: int, shown: str, chain: list[str]) -> bool:
    """Whether a ``posted`` entry's ``checkpoint`` (post ``post``, up to entry ``upto``)
    is what the log gives. Format 2: its value (the signature is checked where the thread
    is, by the audit: no command that reads a log loads the signing library); format 1:
    value and tag, or an earlier shmod's unkeyed head."""
    if not 0 <= upto < len(chain):
        return False
    salt = setup.salt
    if setup.format.signed:
        return (len(shown) == SIGNED_HEX and salt is not None
                and shown[:CHECKPOINT_HEX] == value(salt, upto, chain[upto]))
    if len(shown) == CHECKPOINT_HEX:
        return shown == chain[upto]
    return (len(shown) == TOKEN_HEX and salt is not None
            and shown == token(salt, post, upto, chain[upto]))


class Check(Record):
    """One claim from the thread, judged against the log.

    ``genuine``: format 2, its signature verifies under the moderator's key; format 1, its
    tag was made with this game's salt (None for an unkeyed claim, which has neither);
    ``matches``: the log still gives its value (None: the log has no such entry or post);
    ``recorded_upto``: the last entry the log's own post of that number covers (None: the
    log records no such post); ``found``: format 2, when the log's post does not give the
    value, the entry whose value it is, if any (the log's posts were renumbered)."""

    claim: Claim
    genuine: bool | None
    matches: bool | None
    recorded_upto: int | None
    found: int | None = None

    @property
    def ok(self) -> bool:
        return bool(self.matches) and self.genuine is not False

    @property
    def entry(self) -> int | None:
        """The last entry the line pins: the one it names (format 1), or the log's post's."""
        return self.claim.entry if not self.claim.signed else self.recorded_upto

    def to_json(self) -> dict[str, Any]:
        return {"post": self.claim.post, "entry": self.entry, "posted": self.claim.token,
                "genuine": self.genuine, "matches": self.matches, "ok": self.ok}


def judge(claim: Claim, salt: str | None, chain: list[str], posts: list[int],
          key: str | None = None, commitment: str | None = None,
          values: dict[str, int] | None = None) -> Check:
    """Judge one claim: ``chain`` is the log's content chain (:attr:`shmod.log.chain.Walk.
    heads`), ``posts`` the ``upto`` of each post the log records (post 1 first); ``key``
    and ``commitment`` those a signed line must verify under (the thread's opening
    post's); ``values``, each entry's value by the value (filled once, when needed)."""
    upto = (posts[claim.post - 1] if claim.post is not None and 1 <= claim.post <= len(posts)
            else None)
    if claim.signed:
        return _judge_signed(claim, salt, chain, upto, key, commitment,
                             {} if values is None else values)
    assert claim.entry is not None
    head = chain[claim.entry] if claim.entry < len(chain) else None
    if not claim.keyed:
        return Check(claim, None, None if head is None else claim.token == head, None)
    assert claim.post is not None
    shown, given = claim.token[:CHECKPOINT_HEX], claim.token[CHECKPOINT_HEX:]
    genuine = salt is not None and given == tag(salt, claim.post, claim.entry, shown)
    matches = None if head is None or salt is None else shown == value(salt, claim.entry, head)
    return Check(claim, genuine, matches, upto)


def _judge_signed(claim: Claim, salt: str | None, chain: list[str], upto: int | None,
                  key: str | None, commitment: str | None, values: dict[str, int]) -> Check:
    from shmod.log import signing

    assert claim.post is not None
    shown, signature = claim.token[:CHECKPOINT_HEX], claim.token[CHECKPOINT_HEX:]
    genuine = (key is not None and commitment is not None
               and signing.verify(key, message(commitment, claim.post, shown), signature))
    if salt is None:
        return Check(claim, genuine, None, upto)
    matches = (None if upto is None or not 0 <= upto < len(chain)
               else shown == value(salt, upto, chain[upto]))
    found = None
    if genuine and not matches:  # only the key's holder makes such a line: rare
        if not values:
            values.update((value(salt, n, head), n) for n, head in reversed(list(enumerate(chain))))
        found = values.get(shown)
    return Check(claim, genuine, matches, upto, found)


def verify(chain: list[str], salt: str | None, claims: list[Claim], posts: list[int],
           key: str | None = None, commitment: str | None = None) -> list[Check]:
    """Judge every checkpoint claim found in a thread (:func:`counted`) against the log
    whose content chain is ``chain`` (:func:`judge`): one signature check a line."""
    values: dict[str, int] = {}
    return [judge(claim, salt, chain, posts, key, commitment, values) for claim in claims]
