"""The outbox (R-PM, R-MISSENT): every text the game owes a reader, as items, in the order
to send them.

An *item* is each PM a step caused (one :class:`~shmod.game.events.Secret`), each prod
(R-STALL), each post for the thread (a ``posted`` entry) and each withdrawal line a post
withdrawn after a race between moderators must show (a ``withdrawn`` entry, R-MERGE:
:mod:`shmod.log.withdrawals`); news that waits for the next post is one more, the post not
yet made. An item is owed until a ``delivered`` entry
says it reached its reader (:mod:`shmod.forum.deliveries`, which also says what a log written
before the outbox counts as delivered); a voided step's items that never left leave the
outbox silently (R-CORRECT).

**Names.** A delivery names its item by the causing entry's reference
(:mod:`shmod.log.references`: ``header``, ``post N``, or the digest of its public fields),
its addressee (a player's name as the PM names them, or ``thread``), what it is (a PM's
kind, ``prod`` or ``post``) and, when that entry caused the addressee more than one of
that kind, which (``n``). On the command line an item is named by the causing entry's
number instead (:func:`handle`: ``8:Ann``, ``13:thread``), which is what the moderator
sees now; the log never keeps it, since a merge renumbers entries.

**Order** (:func:`items`): items go in the order of the entries that caused them. Among
the items of one step, its role PMs come first (every player knows their role when the
game, or the deal, is announced), then its post (the thread learns what happened: the
tally before the President's three policies), then its other PMs in the order the game
told them. A post made later comes after everything its entries caused before it.

Nothing here imports a text or a catalog: ``shmod status`` and every recording command
print the outbox's summary line (:func:`summary`) at little cost.
"""
from __future__ import annotations

from shmod.base.errors import BadInput
from shmod.base.records import Record, field
from shmod.forum import deliveries
from shmod.forum.corrections import voided
from shmod.forum.deliveries import POST, PROD, THREAD, WITHDRAWAL
from shmod.forum.explain import describe
from shmod.forum.table import Delivery, Table
from shmod.forum.thread import news
from shmod.game.events import RoleSent, Secret
from shmod.log import withdrawals
from shmod.log.entries import CHECKPOINT_HEX, at_text
from shmod.log.references import References
from shmod.log.store import Loaded

__all__ = ["POST", "PROD", "THREAD", "WITHDRAWAL", "Item", "handle", "items", "owed", "pick",
           "summary"]

#: What each kind of item is, in the moderator's words (English, on the terminal only).
WHAT = {
    "role": "the secret role", "draw": "the three policies (President)",
    "hand": "the two policies (Chancellor)", "veto_request": "the Chancellor's veto proposal",
    "veto_vote": "the secret veto vote", "investigation": "the investigation result",
    "peek": "the Policy Peek", "executed": "executed", "removed": "has left the game",
    "lapse": "what the deadline decided", "retract": "disregard an earlier PM",
    "briefing": "the seat, role and history", PROD: "a reminder (prod)",
    WITHDRAWAL: "its withdrawal line, added by editing that post in the thread",
}
#: Where the post not yet made goes in the order: after everything.
LAST = 1 << 62


class Item(Record, frozen=False):
    """One text owed or delivered: what caused it (``entry``, its number now; :attr:`of`,
    its reference), to whom (``to``: a player, or :data:`THREAD`), what it is (``what``),
    which of that kind (``n``), a post's number (``post``), when it was caused (``at``),
    the PM itself (``secret``), its deliveries to its reader and to a wrong one, and
    whether it is owed. ``made`` is False for the post not yet made."""

    entry: int
    to: str
    what: str
    n: int = 1
    post: int = 0
    at: str | None = None
    secret: Secret | None = None
    delivered: list[Delivery] = field(default_factory=list)
    wrong: list[Delivery] = field(default_factory=list)
    owed: bool = True
    voided: bool = False
    made: bool = True
    order: tuple[int, int, int] = (0, 0, 0)
    names: References | None = None  # the log's references (for :attr:`of`, on demand)

    @property
    def of(self) -> str:
        """How a delivery names what caused the item (:mod:`shmod.log.references`):
        computed only when asked, since listing the outbox needs none."""
        if self.what == POST:
            return f"post {self.post}" if self.made else ""
        assert self.names is not None
        return self.names.of(self.entry)

    def label(self) -> str:
        """``PM to Ann``, ``post 3``, ``post (not yet made)``: the item in a few words."""
        if self.what == POST:
            return f"post {self.post}" if self.made else "post (not yet made)"
        if self.what == WITHDRAWAL:
            return f"withdrawal of post {self.post}"
        return f"PM to {self.to}"

    def about(self) -> str:
        """What the item is, for the listing: a PM's kind in words, or what a post covers."""
        return WHAT.get(self.what, self.what.replace("_", " "))


def items(game: Loaded, *, pending: bool = True) -> list[Item]:
    """Every item of ``game``, delivered or owed, in the outbox's order (module docstring);
    with ``pending``, the post not yet made last, when there is news for one."""
    state = game.table
    names = References(game.log.entries)
    gone = voided(state)
    out: list[Item] = []
    seen: dict[tuple[int, str, str], int] = {}
    for index, secret in enumerate(state.secrets):
        key = (secret.entry, secret.to, secret.kind)
        n = seen[key] = seen.get(key, 0) + 1
        rank = -1 if isinstance(secret, RoleSent) else 1
        out.append(_made(state, Item(secret.entry, secret.to, secret.kind, n,
                                     at=_when(game, secret.entry), secret=secret,
                                     voided=secret.entry in gone,
                                     order=(secret.entry, rank, index), names=names)))
    for entry, seat in state.prods:
        out.append(_made(state, Item(entry, _prodded(game, entry, seat), PROD,
                                     at=_when(game, entry), order=(entry, 1, 0), names=names)))
    for number, upto in enumerate(state.posts, 1):
        marked = names.post(number)
        if marked is None:  # cannot be: every post is a ``posted`` entry
            continue
        out.append(_made(state, Item(marked, THREAD, POST, post=number,
                                     at=_when(game, marked), order=(max(upto, 0), 0, 0))))
    for entry, post, _shown in state.withdrawn:
        out.append(_made(state, Item(entry, THREAD, WITHDRAWAL, post=post, at=_when(game, entry),
                                     order=(entry, 0, 0), names=names)))
    out.sort(key=lambda item: item.order)
    if pending and news(state, asked=True):
        out.append(Item(state.entries + 1, THREAD, POST, post=len(state.posts) + 1,
                        made=False, order=(LAST, 0, 0)))
    return out


def owed(game: Loaded) -> list[Item]:
    """The items owed, in the order to send them: what ``shmod send`` gives next."""
    return [item for item in items(game) if item.owed]


def _made(state: Table, item: Item) -> Item:
    """``item`` with its deliveries, and whether it is owed."""
    item.delivered, item.wrong = deliveries.deliveries(state, item.entry, item.what, item.to,
                                                   item.n)
    sent = deliveries.sent(state, item.entry, item.what, item.to, item.n)
    item.owed = not sent and not item.voided
    return item


def _when(game: Loaded, entry: int) -> str | None:
    """When entry ``entry`` was recorded (0: when the game was created)."""
    if entry == 0:
        created = game.log.header.get("created")
        return created if isinstance(created, str) else None
    return at_text(game.log.entries[entry - 1]) if entry <= len(game.log.entries) else None


def _prodded(game: Loaded, entry: int, seat: int) -> str:
    """The name the prod of entry ``entry`` was made to (the seat's player then)."""
    state = game.table
    name = state.game.players[seat]
    changes = sorted([*state.replaced, *state.renamed], key=lambda change: -change[3])
    for target, old, _new, when in changes:
        if target == seat and when > entry:
            name = old
    return name


def handle(item: Item) -> str:
    """How the command line names ``item`` now: ``ENTRY:NAME`` (``#n`` for the n-th of its
    kind), ``ENTRY:thread`` for a post, ``thread`` for the post not yet made."""
    if not item.made:
        return THREAD
    return f"{item.entry}:{item.to}" + (f"#{item.n}" if item.n > 1 else "")


def pick(game: Loaded, wanted: str | None, *, owed_only: bool = True) -> Item | None:
    """The item ``wanted`` names: ``ENTRY:NAME`` (as :func:`handle` writes it), a player's
    name (their oldest owed item; unless ``owed_only``, their latest when none is owed),
    ``thread`` or ``post`` (the oldest owed post), ``withdrawal`` (the oldest owed
    withdrawal line); None: the oldest owed item. None when
    nothing is owed; :class:`BadInput` for a name that names no item."""
    every = items(game)
    if wanted is None:
        return next((item for item in every if item.owed), None)
    text = wanted.strip()
    if text in (THREAD, POST, WITHDRAWAL):
        kind = WITHDRAWAL if text == WITHDRAWAL else POST
        found = [item for item in every if item.what == kind and item.owed]
        if not found:
            raise BadInput(f"no {kind} is owed ({owed_text(every)})")
        return found[0]
    entry, colon, rest = text.partition(":")
    if colon and entry.strip().isdigit():
        return _exact(game, every, int(entry), rest.strip())
    seat = game.seating.seat(text)
    name = game.table.game.players[seat]
    theirs = [item for item in every if item.to == name]
    found = [item for item in theirs if item.owed] or ([] if owed_only else theirs[-1:])
    if not found:
        raise BadInput(f"nothing is owed to {name} ({owed_text(every)}); `shmod outbox "
                       "--all` lists what was delivered, and `shmod send ENTRY:NAME` gives "
                       "an item again")
    return found[0]


def _exact(game: Loaded, every: list[Item], entry: int, rest: str) -> Item:
    """The item entry ``entry`` caused ``rest`` (``NAME``, ``NAME#n`` or ``thread``)."""
    name, _, count = rest.rpartition("#") if "#" in rest and rest.rpartition("#")[2].isdigit() \
        else (rest, "", "1")
    caused = [item for item in every if item.entry == entry and item.made]
    if not caused:
        raise BadInput(f"entry {entry} caused no PM and made no post (`shmod outbox --all` "
                       "lists every item)")
    if name.lower() in (THREAD, POST):
        to = THREAD
    else:
        to = game.table.game.players[game.seating.seat(name)] if name not in \
            {item.to for item in caused} else name
    found = [item for item in caused if item.to == to and item.n == int(count)]
    if not found:
        listed = ", ".join(handle(item) for item in caused)
        raise BadInput(f"entry {entry} caused nothing for {rest!r}; its items: {listed}")
    return found[0]


def owed_text(every: list[Item]) -> str:
    """``3 owed, next: PM to Ann`` or ``nothing is owed``."""
    left = [item for item in every if item.owed]
    if not left:
        return "nothing is owed"
    return f"{len(left)} owed, next: {left[0].label()}"


def summary(game: Loaded) -> str:
    """The outbox in one line, for ``status`` and after every recording command:
    ``Outbox: 3 owed · next: PM to Ann · shmod send`` (or ``nothing owed``)."""
    left = owed(game)
    if not left:
        return "Outbox: nothing owed."
    return f"Outbox: {len(left)} owed · next: {left[0].label()} · shmod send"


def covered(game: Loaded, item: Item) -> str:
    """What a post item covers, in public words: ``entries 5 to 9, up to the vote by
    Eve``; for a withdrawal, which version of which post it withdraws."""
    state = game.table
    if item.what == WITHDRAWAL:
        raw = game.log.entries[item.entry - 1]
        who = raw.get("mod") if isinstance(raw, dict) else None
        value = str(raw.get("checkpoint", ""))[:CHECKPOINT_HEX] if isinstance(raw, dict) else ""
        made = f", made by {who}" if isinstance(who, str) else ""
        return (f"edit the post {item.post} whose checkpoint line shows {value[:8]}…{made}, and "
                "add this at its end")
    if not item.made:
        return "news since the last post"
    upto = state.posts[item.post - 1]
    first = state.posts[item.post - 2] + 1 if item.post > 1 else 0
    steps = [step for entry, step in state.history if first <= entry <= upto]
    span = f"entry {upto}" if first == upto else f"entries {first} to {upto}"
    if item.post == 1 and upto == 0:
        return "the opening post"
    return span + (f", up to {describe(steps[-1], state.game.players)}" if steps else "")


#: The PM a phase's choice is made from (R-LAPSE): its kind, by the phase awaited.
CHOICE_PM = {"discard": "draw", "enact": "hand", "veto_answer": "veto_request",
             "veto_vote": "veto_vote"}


def withdrawal_line(game: Loaded, item: Item) -> str:
    """The fixed line a withdrawal item adds to its post (:mod:`shmod.log.withdrawals`)."""
    raw = game.log.entries[item.entry - 1]
    assert isinstance(raw, dict) and raw.get("kind") == "withdrawn"
    return withdrawals.line(item.post, str(raw["checkpoint"]), str(raw["withdrawal"]))


def unreceived(game: Loaded) -> Item | None:
    """The PM the choice awaited now is made from (the President's three policies, the
    Chancellor's two, a veto's question), if it is still owed: its player never had it."""
    state = game.table
    kind = CHOICE_PM.get(state.game.phase)
    if kind is None:
        return None
    latest = [item for item in items(game, pending=False) if item.what == kind]
    if not latest:
        return None
    newest = max(item.entry for item in latest)
    owed_now = [item for item in latest if item.entry == newest and item.owed]
    return owed_now[0] if owed_now else None
