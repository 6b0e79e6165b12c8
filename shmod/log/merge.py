"""Two copies of one log joined without losing, duplicating or reordering a step (R-MERGE):
what ``shmod merge-driver`` does for git and ``shmod merge`` for a synced folder.

The hash chain says where the copies part (their first entry that differs). If only one
has entries after it, the merge is that copy. If both do, the copy that made a post for
the thread is the *base*: its entries stay as they are, so every checkpoint it posted
still verifies; the other copy's entries are applied after them one by one, through the
engine (the rules, the forum's house rules, the moderators' R-MODERATORS and R-HANDOVER),
and chained anew, each keeping its time and its moderator. When neither copy posted,
the copy whose new entries were recorded first is tried as the base first, then the
other: the choice depends on the copies only, so merging A into B and B into A gives the
same game. When both posted (a race: two posts of one number), the copy whose post was
delivered first (``delivered`` entries; a post an earlier shmod printed, when it was
made) is the base; when neither post was delivered, as when neither copy posted. Each
post of the other copy is then taken out: one that reached the thread is kept as a
``withdrawn`` entry where it stood (its number, its checkpoint, the identities of the
entries it covered, and the signed mark of its withdrawal line, :mod:`shmod.log.withdrawals`),
whose line the outbox then owes; one that never did is dropped; their deliveries go with
them, and the steps they covered are applied as any other. On the way:

- an entry the base already holds (the same entry, moved by an earlier merge: its
  :func:`~shmod.log.chain.identity`, a correction's counting the entries it voids by
  theirs), or a player's vote or word the base recorded alike and still has in effect,
  counts once; the same vote in effect with different values refuses the merge; a voided
  vote never stands for another (the other is applied anew: no recorded vote is lost);
- the entry numbers a moved entry names (a correction's, an acknowledgement's, the
  deadline a lapse is of) are rewritten to where those entries now are;
- a moved step must send every PM it sent on its own copy, alike; a PM it sends only now
  (the last vote in, the President's draw) is owed (``shmod outbox``), and news for
  the thread makes the next ``shmod post``;
- deliveries of the outbox's items commute like prods (bookkeeping: their item is named
  by what caused it, :mod:`shmod.log.references`); one item delivered on both copies is
  kept twice and said as a warning, not a conflict;
- a step that names a seat which changed hands on the base, a step of the game taken in
  a round the base's entries ended, or a step the rules refuse there refuses the merge
  (:class:`~shmod.base.errors.Diverged`), naming for each copy the first entry they differ
  at, who recorded it and when.

The result is read back through the reader and the replay every command uses before it
is returned; writing it is the caller's (atomically: ``logfile.replace``).
"""
from __future__ import annotations

from collections.abc import Iterator

from shmod.base.errors import BadInput, Diverged, IllegalStep, LogError
from shmod.base.records import Record, replace
from shmod.forum import deliveries, engine, thread
from shmod.forum.steps import Acknowledge, Correct, Delivered, Lapse, Posted, Withdrawn, Word
from shmod.forum.table import Table
from shmod.game import legal
from shmod.game.events import Secret
from shmod.game.steps import Act, Reshuffle, Step, Vote
from shmod.game.terms import RESHUFFLE
from shmod.log import chain, logfile, withdrawals
from shmod.log.entries import (
    CHECKPOINT_HEX,
    PLAYER_FIELDS,
    SIGNATURE_HEX,
    TAG_HEX,
    at_text,
    summary,
    to_entry,
)
from shmod.log.store import Loaded, read_back, recorder_of, replay

YOURS, THEIRS = "yours", "theirs"
#: What a merge did: one copy held every step of the other (``nothing``), one extended
#: the other (``forward``), or the other's steps were applied after it (``merged``).
NOTHING, FORWARD, MERGED = "nothing", "forward", "merged"


class Merged(Record):
    """A merge made: the merged log's bytes; ``how`` (:data:`NOTHING`, :data:`FORWARD`,
    :data:`MERGED`); ``base``, the copy whose entries stand where they were (the merged
    log, unless ``how`` is ``merged``), and ``other``, as the moderator calls them
    (``yours``: this clone's, also during a rebase); each moved entry's number on its copy
    and in the merged log; each entry that was there already (its number, and the merged
    entry it is), and those recorded alike on both copies, described; the merged entries
    whose PMs nobody was shown; the merged deliveries of an item the other copy had
    delivered too; whether there is news for the thread; when both copies posted, each
    post of the other copy's that reached the thread, withdrawn (its number, its
    ``withdrawn`` entry, who made it), and the numbers of those that never did, dropped."""

    data: bytes
    how: str
    base: str = YOURS
    other: str = THEIRS
    moved: tuple[tuple[int, int], ...] = ()
    kept: tuple[tuple[int, int], ...] = ()
    alike: tuple[str, ...] = ()
    pms: tuple[int, ...] = ()
    news: bool = False
    twice: tuple[int, ...] = ()
    withdrawn: tuple[tuple[int, int, str], ...] = ()
    dropped: tuple[int, ...] = ()

    def said(self) -> str:
        """What the merge did, in a line for the moderator."""
        both = ""
        if self.alike:
            count = len(self.alike)
            both = (f"{count} step{'' if count == 1 else 's'} recorded alike on both copies "
                    f"counted once: {'; '.join(self.alike)}")
        dropped = "".join(f"; post {post} of {self.other} never reached the thread: dropped "
                          "(its steps stand)" for post in self.dropped)
        if self.how == NOTHING:
            return (f"{self.base} already holds every step of {self.other}"
                    + (f" ({both})" if both else "") + ": nothing to merge" + dropped)
        if self.how == FORWARD:
            return f"{self.base} extends {self.other}: the log is now {self.base} (a fast-forward)"
        first, last = self.moved[0][1], self.moved[-1][1]
        where = f"entry {first}" if first == last else f"entries {first}-{last}"
        text = (f"{len(self.moved)} entr{'y' if len(self.moved) == 1 else 'ies'} of "
                f"{self.other} applied after {self.base} and chained anew as {where}")
        if both:
            text += f" ({both})"
        if self.pms:
            text += ("; PMs no moderator has sent yet, from entr"
                     + ("y " if len(self.pms) == 1 else "ies ") + ", ".join(map(str, self.pms))
                     + ": in the outbox (shmod outbox)")
        if self.twice:
            text += ("; warning: delivered on both copies (kept twice, R-PM): entr"
                     + ("y " if len(self.twice) == 1 else "ies ")
                     + ", ".join(map(str, self.twice)))
        for post, entry, who in self.withdrawn:
            by = f" ({who}'s)" if who else ""
            text += (f"; both copies made post {post}: the one in {self.base} was delivered "
                     f"first and stands, the one in {self.other}{by} is withdrawn (entry "
                     f"{entry}): its withdrawal line is owed, for whoever made that post to add "
                     "by editing it in the thread (shmod send gives it)")
        text += dropped
        if self.news:
            text += "; news for the thread: shmod send makes the post"
        return text


class _Copy:
    """One copy, replayed: its typed steps and the seating before each entry."""

    def __init__(self, label: str, log: logfile.LogFile, where: str) -> None:
        self.label, self.log = label, log
        self.ids = chain.identities(log.entries)
        self.steps: dict[int, Step] = {}
        self.seated: dict[int, tuple[str, ...]] = {}
        self.rounds: dict[int, int] = {0: 1}  # the round after each entry

        def watch(number: int, step: Step, state: Table) -> None:
            self.steps[number] = step
            self.seated[number] = state.game.players
            self.rounds[number] = state.game.round

        if log.torn:
            raise Diverged(where, None, f"{label} ends in a torn line (`shmod repair` on that "
                           "copy moves it aside); nothing was merged")
        try:
            self.loaded: Loaded = replay(log, watch=watch)
        except LogError as err:
            raise Diverged(where, err.line, f"{label} cannot be read ({err.reason}); nothing "
                           "was merged") from None
        edited = self.loaded.edits()
        if edited:
            raise Diverged(where, edited[0].line, f"{label} was edited by hand: "
                           f"{edited[0].describe()}; undo or acknowledge that edit on that "
                           "copy first; nothing was merged")

    def before(self, number: int) -> tuple[str, ...]:
        """The seating before entry ``number`` was applied."""
        return self.seated.get(number - 1, self.loaded.setup.players)

    def posts(self, after: int) -> list[tuple[int, int]]:
        """(entry, post number) of each post this copy made after entry ``after``."""
        found, post = [], 0
        for index, raw in enumerate(self.log.entries):
            if isinstance(raw, dict) and raw.get("kind") == "posted":
                post += 1
                if index >= after:
                    found.append((index + 1, post))
        return found

    def delivered(self, after: int) -> dict[int, str]:
        """Each post this copy made after entry ``after`` that reached the thread: its
        ``posted`` entry, and when it was first delivered (a post an earlier shmod printed
        before the outbox began: when it was made)."""
        state, found = self.loaded.table, {}
        for entry, _post in self.posts(after):
            if entry <= state.legacy_until:
                found[entry] = at_text(self.log.entries[entry - 1]) or ""
                continue
            times = [d.at or "" for d in state.deliveries
                     if d.of == entry and d.what == deliveries.POST and d.wrong is None]
            if times:
                found[entry] = min(times)
        return found

    def secrets(self, number: int) -> list[Secret]:
        return [s for s in self.loaded.table.secrets if s.entry == number]


def merge(ours: logfile.LogFile, theirs: logfile.LogFile, *, where: str,
          advice: str = "", labels: tuple[str, str] = (YOURS, THEIRS)) -> Merged:
    """Merge ``theirs`` into ``ours``, two copies of one log (see the module docstring);
    ``where`` names the log in a refusal, which ends with ``advice`` (what to do);
    ``labels``: what the moderator calls each copy (during a rebase git hands over the
    other moderator's copy as ``ours``: ``(THEIRS, YOURS)``). Which copy's entries move
    depends on the copies only, never on which is ``ours``: merging either way round
    gives the same log."""
    mine, other = _Copy(labels[0], ours, where), _Copy(labels[1], theirs, where)
    if ours.header != theirs.header:
        raise Diverged(where, 1, "the two copies are not one game: their headers differ "
                       f"({_header_difference(ours.header, theirs.header)}); nothing was "
                       "merged")
    common = _common(ours.entries, theirs.entries)
    if common == len(theirs.entries):
        return Merged(ours.data, NOTHING, mine.label, other.label)
    if common == len(ours.entries):
        return Merged(theirs.data, FORWARD, other.label, mine.label)
    posted = [copy for copy in (mine, other) if copy.posts(common)]
    if len(posted) == 1:
        orders = [(posted[0], other if posted[0] is mine else mine)]
    else:
        first, second = sorted((mine, other), key=lambda copy: (
            min(copy.delivered(common).values(), default=_NEVER), _started(copy, common)))
        orders = [(first, second)]
        if not first.delivered(common):  # no post of either reached the thread
            orders.append((second, first))
    failed: Diverged | None = None
    for base, moved in orders:
        try:
            return _rebase(base, moved, common)
        except _Refusal as why:
            failed = failed or _refused(where, mine, other, common, str(why), advice)
    assert failed is not None
    raise failed


#: Later than any time: how a post never delivered sorts.
_NEVER = "~"


def _started(copy: _Copy, common: int) -> list[tuple[str, str, str]]:
    """What orders two copies when neither posted: the copy whose new entries were
    recorded first stays (their times, then what they record, then their hashes: the
    same order whichever copy is ``ours``)."""
    key = []
    for raw, ident in zip(copy.log.entries[common:], copy.ids[common:]):
        try:
            at = at_text(raw) or ""
        except BadInput:
            at = ""
        key.append((at, ident, str(raw.get("hash")) if isinstance(raw, dict) else ""))
    return key


class _Refusal(Exception):
    """Why one order of a merge does not go (said in full by :func:`_refused`)."""


def _refused(where: str, mine: _Copy, other: _Copy, common: int, why: str,
             advice: str) -> Diverged:
    ours = summary(mine.log.entries[common], common + 1)
    theirs = summary(other.log.entries[common], common + 1)
    return Diverged(where, mine.log.line_of(common) or None, (
        f"the two copies cannot be merged (R-MERGE): {why}. They part after entry {common}: "
        f"{mine.label} goes on with {ours}, {other.label} with {theirs}. Both are left as "
        "they were" + (f"; {advice}" if advice else "")))


def _rebase(base: _Copy, moved: _Copy, common: int) -> Merged:
    """``moved``'s entries after ``common`` applied after ``base``'s (or a _Refusal)."""
    rebase = _Rebase(base, moved, common)
    for index in range(common, len(moved.log.entries)):
        rebase.take(index)
    return rebase.merged()


class _Rebase:
    """One order of a merge under way: a fresh table of the base (the copy's own stays as
    it was read) with the moved entries applied so far, the entries they make, and what
    the merge will say."""

    def __init__(self, base: _Copy, moved: _Copy, common: int) -> None:
        self.base, self.moved = base, moved
        self.table = replay(base.log).table
        self.players, self.head = self.table.game.players, base.loaded.head
        self.numbers = {n: n for n in range(common + 1)}  # moved entry -> merged entry
        self.ids = list(base.ids)  # the merged log's identities, as it grows
        self.same: dict[str, list[int]] = {}  # each base entry matches one moved entry at most
        for i, ident in enumerate(base.ids[common:]):
            self.same.setdefault(ident, []).append(common + 1 + i)
        self.acts: dict[tuple[object, ...], list[int]] = {}
        for n, step in base.steps.items():
            key = _act(step, base.rounds[n - 1])
            if n > common and key is not None:
                self.acts.setdefault(key, []).append(n)
        self.entries: list[dict[str, object]] = []
        self.moves: list[tuple[int, int]] = []
        self.kept: list[tuple[int, int]] = []
        self.alike: list[str] = []
        self.owed: list[int] = []
        self.twice: list[int] = []
        self.raced = dict(moved.posts(common))  # the moved copy's posts: withdrawn or dropped
        self.sent = moved.delivered(common)
        self.withdrawn: list[tuple[int, int, str]] = []
        self.dropped: list[int] = []
        self.number = len(base.log.entries)

    def take(self, index: int) -> None:
        """The moved copy's entry ``index + 1``: left out (a post that lost the race, or
        its delivery), found on the base already, or applied anew with the reshuffles the
        seed then draws."""
        raws = self.moved.log.entries
        raw, old = raws[index], index + 1
        step = self._unraced(old, self.moved.steps[old])
        if step is None:
            return
        there = self._held(index, step, raw)
        if there is not None:
            self.numbers[old] = there
            self.kept.append((old, there))
            return
        self._apply(step, raw, old)
        upcoming = raws[index + 1] if index + 1 < len(raws) else None
        for auto in _reshuffles(self.table, upcoming):
            self.number += 1
            self._append(auto, raw)

    def _unraced(self, old: int, step: Step) -> Step | None:
        """``step``, a post that lost the race as withdrawn, or None when it is left out (a
        post that never reached the thread, one withdrawn by an earlier merge, or a
        withdrawn post's delivery: its withdrawal says it was delivered)."""
        if isinstance(step, Delivered) and step.what == deliveries.POST and \
                step.entry in self.raced:
            return None
        if isinstance(step, Posted):
            if old not in self.sent:
                self.dropped.append(self.raced[old])
                return None
            step = _withdrawn(self.base, self.moved, old, self.raced[old], step, self.numbers,
                              self.ids)
            if any((post, shown) == (step.post, step.checkpoint)
                   for _entry, post, shown in self.table.withdrawn):
                return None
        return step

    def _held(self, index: int, step: Step, raw: dict[str, object]) -> int | None:
        """The base's entry that is the moved entry ``index + 1`` already (the same entry,
        or the player's same vote or word), if there is one."""
        matches = self.same.get(self.moved.ids[index])
        there = matches.pop(0) if matches else None
        round_ = self.moved.rounds[index]
        if there is None and _act(step, round_):
            there = _same_act(step, round_, self.acts, self.table, self.base, index + 1, raw,
                              self.moved.label)
            if there is not None:
                self.alike.append(_described(self.base, there))
        return there

    def _apply(self, step: Step, raw: dict[str, object], old: int) -> None:
        """Apply the moved entry ``old`` after the base's, as the merged log's next entry."""
        state, label, what = self.table, self.moved.label, summary(raw, old)
        step = _renumbered(step, self.numbers, what, label)
        _same_seats(step, self.moved.before(old), self.players, what, label)
        _same_round(step, self.moved.rounds[old - 1], state, what, label)
        state.clock, state.recorder = at_text(raw), recorder_of(raw)
        told = len(state.secrets)
        if isinstance(step, Delivered) and step.wrong is None and deliveries.deliveries(
                state, step.entry, step.what, step.to, step.n or 1)[0]:
            self.twice.append(self.number + 1)
        try:
            engine.apply(state, step)
        except IllegalStep as err:
            raise _Refusal(f"{what} of {label} no longer applies after the entries of "
                           f"{self.base.label}: {err}") from None
        self.number += 1
        if _new_pms(self.moved.secrets(old), state.secrets[told:], what, label):
            self.owed.append(self.number)
        self._append(step, raw)
        self.numbers[old] = self.number
        self.moves.append((old, self.number))
        if isinstance(step, Withdrawn):
            self.withdrawn.append((step.post, self.number, recorder_of(raw) or ""))
        self.players = state.game.players

    def _append(self, step: Step, raw: dict[str, object]) -> None:
        """``step``'s entry, with ``raw``'s time and moderator, chained onto the merged log."""
        entry, self.head = _entry(step, self.players, raw, self.head)
        self.entries.append(entry)
        self.ids.append(chain.identity(entry, self.ids))

    def merged(self) -> Merged:
        """The merge made, its log read back as every command reads it (or a _Refusal)."""
        base, moved = self.base, self.moved
        if not self.entries:
            return Merged(base.log.data, NOTHING, base.label, moved.label,
                          kept=tuple(self.kept), alike=tuple(self.alike),
                          dropped=tuple(self.dropped))
        text = "".join(map(logfile.entry_line, self.entries))
        try:
            merged = read_back(base.loaded, text, self.head, len(self.entries))
        except BadInput as err:
            raise _Refusal(str(err).replace("nothing was recorded: ", "")) from None
        return Merged(merged.log.data, MERGED, base.label, moved.label, tuple(self.moves),
                      tuple(self.kept), tuple(self.alike), tuple(self.owed),
                      bool(thread.news(self.table)), tuple(self.twice),
                      tuple(self.withdrawn), tuple(self.dropped))


def _withdrawn(base: _Copy, moved: _Copy, old: int, post: int, step: Posted,
               numbers: dict[int, int], ids: list[str]) -> Withdrawn:
    """The moved copy's post ``post`` (its ``posted`` entry ``old``), which reached the
    thread and lost the race: kept as withdrawn, with its checkpoint, the identities the
    merged log holds for the entries it covered (each already placed), and the mark of
    its withdrawal line (R-MERGE)."""
    shown = step.checkpoint or ""
    if len(shown) not in (CHECKPOINT_HEX + SIGNATURE_HEX, CHECKPOINT_HEX + TAG_HEX):
        raise _Refusal(f"{summary(moved.log.entries[old - 1], old)} of {moved.label} is a post "
                       "with no checkpoint of this log's form, which cannot be withdrawn")
    earlier = moved.loaded.table.posts[post - 2] if post >= 2 else -1
    covered = []
    for number in range(earlier + 1, step.upto + 1):
        raw = moved.log.entries[number - 1] if number else None
        if not isinstance(raw, dict) or raw.get("kind") in _THREAD_KINDS:
            continue
        if number not in numbers:
            raise _Refusal(f"post {post} of {moved.label} covered entry {number}, which the "
                           "merge cannot place")
        covered.append(ids[numbers[number] - 1])
    setup = base.loaded.setup
    return Withdrawn(post, shown, tuple(covered), withdrawals.mark(setup, post, shown))


#: The thread's own bookkeeping, which a withdrawn post's steps leave out: the posts and
#: their deliveries (a post made on one copy only has no place in the merged log).
_THREAD_KINDS = ("posted", "delivered", "withdrawn")


def _described(base: _Copy, number: int) -> str:
    """A step recorded on both copies, as the merged log holds it."""
    raw = base.log.entries[number - 1]
    return summary(raw, number)


def _entry(step: Step, players: tuple[str, ...], raw: dict[str, object],
           head: str) -> tuple[dict[str, object], str]:
    """``step``'s entry as ``raw`` recorded it (its time, its moderator), chained after
    ``head``."""
    entry: dict[str, object] = to_entry(step, players)
    at = at_text(raw)
    if isinstance(step, Lapse) and step.at:
        at = step.at
    if at is not None:
        entry["at"] = at
    if recorder_of(raw) is not None:
        entry["mod"] = recorder_of(raw)
    entry["hash"] = head = logfile.link(head, entry)
    return entry, head


def _act(step: Step, round_: int) -> tuple[object, ...] | None:
    """A player's vote in a round, or word, as one recorded twice alike is known (None:
    another step)."""
    if isinstance(step, Vote):
        return ("vote", step.by, round_)
    if isinstance(step, Word):
        return ("word", step.by)
    return None


def _same_act(step: Step, round_: int, acts: dict[tuple[object, ...], list[int]],
              state: Table, base: _Copy, old: int, raw: object, label: str) -> int | None:
    """The base's entry in effect (in the merged log so far) recording the player's same
    vote in the same round, or word, if it has one; the same one in effect with another
    value refuses the merge. A voided entry never stands for another: the step is then
    applied anew."""
    key = _act(step, round_)
    in_effect = dict(state.history)
    found = [n for n in (acts.get(key, []) if key else []) if n in in_effect]
    if not found:
        return None
    there = found[-1]
    if base.steps[there] != step:
        raise _Refusal(f"the same {key[0] if key else 'step'} was recorded on both copies "
                       f"with different values: {summary(raw, old)} of {label}, "
                       f"{summary(base.log.entries[there - 1], there)} of {base.label}")
    return there


def _renumbered(step: Step, numbers: dict[int, int], what: str, label: str) -> Step:
    """``step`` naming the entries it names where they now are."""
    def moved(number: int) -> int:
        if number not in numbers:
            raise _Refusal(f"{what} of {label} names entry {number}, which the merge cannot "
                           "place")
        return numbers[number]

    if isinstance(step, (Correct, Acknowledge)):
        return replace(step, entries=tuple(sorted({moved(n) for n in step.entries})))
    if isinstance(step, Lapse):
        return replace(step, deadline=moved(step.deadline))
    if isinstance(step, Delivered):  # its entry named by reference, found where it is now
        return replace(step, entry=moved(step.entry))
    return step


def _same_seats(step: Step, then: tuple[str, ...], now: tuple[str, ...], what: str,
                label: str) -> None:
    """A moved step names each seat's player as it did: none changed hands in between."""
    for key in PLAYER_FIELDS:
        seat = getattr(step, key, None)
        if isinstance(seat, int) and seat < len(then) and then[seat] != now[seat]:
            raise _Refusal(f"{what} of {label} is {then[seat]}'s, whose seat is {now[seat]}'s "
                           "on the other copy")


def _same_round(step: Step, then: int, table: Table, what: str, label: str) -> None:
    """A moved step of the game lands in the round it was taken in: a vote of a ballot the
    other copy ended must not count in the next round's."""
    if isinstance(step, Act) and table.game.round != then:
        raise _Refusal(f"{what} of {label} is a step of round {then}, which the other copy's "
                       f"entries ended (it is round {table.game.round} there)")


def _new_pms(sent: list[Secret], made: list[Secret], what: str, label: str) -> bool:
    """Whether a moved step makes a PM its copy never sent; a PM it sent there that the
    merged log would not send alike refuses the merge."""
    left = [replace(s, entry=0) for s in made]
    for secret in sent:
        alike = replace(secret, entry=0)
        if alike not in left:
            raise _Refusal(f"{what} of {label} sent {secret.to} a PM that, after the other "
                           "copy's entries, would say something else")
        left.remove(alike)
    return bool(left)


def _reshuffles(table: Table, upcoming: object) -> Iterator[Reshuffle]:
    """The reshuffle a seeded game waits for after a moved step, applied, unless the moved
    copy recorded it next (R-RESHUFFLE)."""
    if isinstance(upcoming, dict) and upcoming.get("kind") == "reshuffle":
        return
    while table.game.phase == RESHUFFLE and table.game.seed is not None:
        auto = Reshuffle(tuple(legal.expected_reshuffle(table.game)))
        engine.apply(table, auto)
        yield auto


def _common(ours: list[object], theirs: list[object]) -> int:
    """How many entries the two copies share, from the first."""
    count = 0
    for mine, other in zip(ours, theirs):
        if mine != other:
            break
        count += 1
    return count


def _header_difference(ours: dict[str, object], theirs: dict[str, object]) -> str:
    """The first header field the two copies write differently."""
    for key in dict.fromkeys([*ours, *theirs]):
        if ours.get(key) != theirs.get(key):
            if key == "secret" and isinstance(ours.get(key), dict) and \
                    isinstance(theirs.get(key), dict):
                mine, other = ours[key], theirs[key]
                assert isinstance(mine, dict) and isinstance(other, dict)
                if ("signing_key" in mine) != ("signing_key" in other):
                    return "one is a published copy, without the signing key"
            return f"{key}"
    return "?"
