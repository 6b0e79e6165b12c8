"""The forum's own entries as the engine sees them: one :class:`~shmod.game.steps.Step`
class per kind, beside the game's (:mod:`shmod.game.steps`): a word for the deal, the
clock, absent players, seats changing hands, corrections, posts marked, items of the
outbox delivered, posts withdrawn after a race, hand edits acknowledged, the game's
moderators and a hand-over between them, and the claims players made in the thread.
Their moves are the table in :mod:`shmod.forum.moves`.
"""
from __future__ import annotations

from shmod.forum.terms import ClaimAbout, Scope
from shmod.game.steps import Act, Step
from shmod.game.terms import Party, Policy, Role


class Word(Act):
    """A player's word for the deal (R-DEAL)."""

    kind = "word"
    word: str


class SetDeadline(Step):
    """R-DEADLINE: ``until`` a UTC time, or :data:`shmod.forum.deadlines.CLEAR`."""

    kind = "deadline"
    until: str
    zone: str | None = None  # the moderator's time zone
    scope: Scope | None = None  # round (the default) or phase


class Lapse(Step):
    """R-LAPSE: the deadline set by entry ``deadline`` has passed."""

    kind = "lapse"
    deadline: int
    at: str | None  # when it was recorded (the entry's at), after the deadline
    choice: str | None = None  # the random choice the seed gave (late_choice=random)


class Prod(Step):
    """R-STALL: the moderator prodded a player by PM."""

    kind = "prod"
    target: int


class Remove(Step):
    """R-MODKILL: a player nobody can replace leaves the game."""

    kind = "remove"
    target: int
    reason: str


class Backup(Step):
    """R-BACKUP: a backup player joins the list, or leaves it (``drop``)."""

    kind = "backup"
    name: str
    drop: bool = False


class Replace(Step):
    """R-REPLACE: ``name`` takes over the seat ``target``."""

    kind = "replace"
    target: int
    name: str


class Rename(Step):
    """R-RENAME: the name of the player in ``target`` corrected to ``name``."""

    kind = "rename"
    target: int
    name: str


class Correct(Step):
    """R-CORRECT: voids ``entries``; ``force`` voids what players may have seen."""

    kind = "correct"
    entries: tuple[int, ...]
    reason: str
    force: bool = False


class Posted(Step):
    """R-THREAD: a post covered entries up to ``upto``, ending with ``checkpoint``."""

    kind = "posted"
    upto: int
    checkpoint: str | None = None  # the chain head at upto, as posted (R-CHECKPOINT)
    short: bool = False  # the post said a deadline alone, without the board (R-DEADLINE)
    outbox: bool = False  # the log's first post made for the outbox: delivered by a
    # ``delivered`` entry, as everything after it is (shmod.forum.deliveries)


class Delivered(Step):
    """R-PM, R-MISSENT: the moderator delivered an item of the outbox (a PM or a post), or
    by mistake gave it to the ``wrong`` reader. The item is named by what caused it,
    ``of`` (the causing entry's reference, :mod:`shmod.log.outbox`: never its number, which
    a merge may change), its addressee ``to`` (a player's name as the item names it, or
    ``thread``), what it is (``what``: a PM's kind, ``prod`` or ``post``) and, when the
    entry caused that addressee more than one of that kind, which (``n``). ``entry`` is the
    causing entry's number, found by the log layer when it reads the entry (not written)."""

    kind = "delivered"
    of: str
    to: str
    what: str
    n: int | None = None  # the n-th of that kind to that addressee (None: the first)
    wrong: str | None = None  # R-MISSENT: whom it reached instead (a player, or thread)
    entry: int = -1


class Withdrawn(Step):
    """R-MERGE, R-THREAD: a post another moderator's post of the same number beat in a
    race (both copies made post ``post``; the merge kept the other's): the version this
    entry keeps, by its ``checkpoint`` as the thread shows it (value and signature, or
    format 1's tag), the identities of the entries it covered
    (:func:`shmod.log.chain.identity`, as the log holds them: the merge applied them
    after the other copy's), and ``withdrawal``, the mark of its withdrawal line, which
    the thread must show after it (:mod:`shmod.log.withdrawals`)."""

    kind = "withdrawn"
    post: int
    checkpoint: str
    covered: tuple[str, ...]
    withdrawal: str


class Acknowledge(Step):
    """R-EDIT: ``entries`` were edited by hand on purpose, for ``reason``."""

    kind = "acknowledge"
    entries: tuple[int, ...]
    reason: str


class Moderator(Step):
    """R-MODERATORS: ``name`` joins the game's moderators, or leaves them (``drop``)."""

    kind = "moderator"
    name: str
    drop: bool = False


class Handover(Step):
    """R-HANDOVER: moderation passes to the listed moderator ``name``."""

    kind = "handover"
    name: str


class Takeover(Step):
    """R-HANDOVER: the incoming moderator checked their copy of the log against the
    checkpoint of post ``post``, the hand-over's, as the thread shows it."""

    kind = "takeover"
    post: int


class Claim(Step):
    """R-CLAIM: what the player in seat ``by`` said in the thread: as President of the
    session of ``round``, the three policies drawn (and the two ``passed``, if said); as
    its Chancellor, the two received; as the President who used a power in ``round``, an
    investigation's result (``target``, ``party``) or a peek's ``cards``; or their own
    ``role``. Bookkeeping: it is no step of the game, and not an :class:`Act` (it moves
    nothing and counts for no share of the game)."""

    kind = "claim"
    by: int
    about: ClaimAbout
    round: int = 0  # the round of the session or power (0: a claim of a role)
    cards: tuple[Policy, ...] = ()
    passed: tuple[Policy, ...] = ()
    target: int | None = None
    party: Party | None = None
    role: Role | None = None
