"""Loading, replaying and recording: the library function behind every command.

:func:`load` reads a log and replays it through the engine; :func:`record` does the
same under the log's exclusive lock, validates one new step and appends it (plus any
reshuffle the seed now determines) in a single fsync'd write.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Generic, Literal, TypeVar, overload

from shmod.base.errors import BadInput, IllegalStep, InternalError, LogError, ShmodError
from shmod.base.records import Record, field, replace
from shmod.forum import engine, moderators, thread
from shmod.forum.commitment import commitment, guessable, strong, unguessable
from shmod.forum.names import Seating
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Correct, Delivered, Lapse, Posted, Rename, Replace, Withdrawn
from shmod.forum.table import Setup, Table
from shmod.forum.terms import SeedSource
from shmod.game import legal
from shmod.game.events import Public, Secret
from shmod.game.steps import Reshuffle, Step
from shmod.game.terms import RESHUFFLE
from shmod.log import chain, checkpoints, logfile, seen
from shmod.log.entries import at_text, parse_step, to_entry
from shmod.log.references import References


class ChainNote(Record, frozen=False):
    """A hash-chain finding at one entry."""

    index: int
    line: int
    problem: str  # "unchained", "mismatch" (edited), "acknowledged" (R-EDIT) or "checkpoint"
    detail: str = ""
    upto: int = 0  # checkpoint: the last entry the post covered

    def describe(self) -> str:
        """The finding in words, starting with its entry."""
        entry = f"entry {self.index + 1}"
        if self.problem == "mismatch":
            return (f"{entry} was changed after shmod wrote it (its hash no longer matches: "
                    "an edit, or an entry removed or inserted just before it)")
        if self.problem == "checkpoint":
            return f"{entry} (posted): {self.detail}"
        return f"{entry}: {self.problem} {self.detail}".rstrip()


class Loaded(Record, frozen=False):
    """A replayed log: its setup, its state, the hash chain's head, and the checkpoint
    (:mod:`shmod.log.checkpoints`) after the header and after each entry."""

    log: logfile.LogFile
    setup: Setup
    table: Table
    head: str
    chain: list[ChainNote] = field(default_factory=list)
    heads: list[str] = field(default_factory=list)

    def header_changed(self) -> str | None:
        """Why the header no longer gives the commitment it was created with, if it does
        not: an edit that makes the game's audit against the opening post fail (R-COMMIT)."""
        stored = self.setup.commitment
        if stored is None or commitment(self.setup) == stored:
            return None
        line = self.log.key_lines.get("players") or self.log.key_lines.get("secret") or 1
        return (f"{self.path}:{line}: the header was changed after `shmod new`: it no longer "
                f"gives its commitment {stored}, the one in the opening post, so the game's "
                "audit against it will fail. Undo the edit (a name written wrong is corrected "
                "with `shmod rename OLD NEW`, which keeps the commitment, R-RENAME), or record "
                "it with `shmod acknowledge 0 --reason …`")

    def edits(self) -> list[ChainNote]:
        """Hand edits nobody has acknowledged (R-EDIT), and posted checkpoints the log no
        longer reproduces (R-CHECKPOINT)."""
        return [n for n in self.chain if n.problem in ("mismatch", "checkpoint")]

    @property
    def path(self) -> str:
        return self.log.path

    @property
    def seating(self) -> Seating:
        """Players as seated now; a name of a player who left says who replaced them."""
        return Seating(self.table.game.players, self.table.replaced, self.table.renamed)


#: What a caller of :func:`record` composes from the step before it is written.
C = TypeVar("C")


class Recorded(Record, Generic[C], frozen=False):
    """What one recorded command changed: entries appended, what became public or secret,
    and the post recorded with it (:class:`Marked`), if any; ``composed``: what the
    caller's ``before_write`` made of it (None without one)."""

    loaded: Loaded
    entries: list[dict[str, object]]
    public: list[Public]
    secrets: list[Secret]
    post: Marked | None = None
    composed: C | None = None


Cache = Literal["use", "read", "off"]


def load(path: str, *, warn_edits: bool = True, cache: Cache = "use") -> Loaded:
    """Read and replay ``path``; the first problem raises :class:`LogError` with its line.

    ``cache``: ``"use"`` reads the parse cache and keeps a new parse in it, ``"read"`` only
    reads it (shell completion), ``"off"`` parses the log's bytes (what a step is recorded
    after). Warns (:class:`~shmod.log.logfile.LogWarning`) when others may read the log of
    a game that is not over: it holds every secret.
    """
    loaded = _replayed(logfile.read(path, cached=cache != "off"), keep=cache == "use")
    if loaded.table.game.winner is None:
        for note in loaded.log.warnings:
            warnings.warn(note, logfile.LogWarning, stacklevel=2)
    for found in loaded.edits() if warn_edits else ():
        warnings.warn(f"{path}:{found.line}: {found.describe()}{EDIT_ADVICE}",
                      logfile.LogWarning, stacklevel=2)
    changed = loaded.header_changed()  # warned even once acknowledged: it stays wrong
    if changed and warn_edits:
        warnings.warn(changed, logfile.LogWarning, stacklevel=2)
    return loaded


def _replayed(log: logfile.LogFile, *, keep: bool) -> Loaded:
    """Replay ``log``. A parse from the cache counts only if it replays with no error and
    no chain note; otherwise the log's own bytes are parsed and replayed, so a cache file
    can never make a command see, or blame the log for, what the log does not hold. With
    ``keep``, a fresh parse that replays cleanly is kept for the next command."""
    if log.cached:
        try:
            loaded = replay(log)
        except ShmodError:
            loaded = None
        if loaded is not None and not loaded.chain:
            return loaded
        log = logfile.reparse(log)
    loaded = replay(log)
    if keep and not loaded.chain:
        logfile.keep(log)
    return loaded


EDIT_ADVICE = ("; undo the edit, or if it was deliberate record it with `shmod acknowledge "
               "ENTRY --reason …` (R-EDIT); audit lists it either way")


class Listing(Record, frozen=False):
    """The audit's mode of :func:`replay`: instead of raising the first problem, every
    entry is read and each problem listed: the form of every entry, the rules up to the
    first entry that breaks one (after it the state of the game is unknown). The hash
    chain is not followed in this mode; :mod:`shmod.audit.log_audit` checks it over every
    entry, tracing where an edit was made."""

    found: list[tuple[int, BadInput | IllegalStep]] = field(default_factory=list)
    judged: int = 0  # entries judged by the rules, from the first
    stopped: str | None = None  # why judging stopped short, if it did

    def stop(self, index: int, err: BadInput | IllegalStep, total: int) -> None:
        self.found.append((index, err))
        if isinstance(err, IllegalStep):
            later = f"; entries {index + 2}-{total} were not judged" if index + 1 < total else ""
            self.stopped = (f"judging stopped at entry {index + 1}: after a rule violation "
                            f"the state of the game is unknown{later}")
        else:
            self.stopped = (f"entry {index + 1} could not be read, so entries "
                            f"{index + 1}-{total} were not judged by the rules")


class _Forms:
    """The seating an entry's names are read with once judging has stopped: the setup's,
    with every replacement read so far in place unless a correction voided it
    (R-REPLACE, R-CORRECT)."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.replaced: dict[int, Replace | Rename] = {}  # entry number -> a replacement in effect
        self.seating = Seating(players)

    def note(self, index: int, step: Step) -> None:
        if isinstance(step, (Replace, Rename)):
            self.replaced[index + 1] = step
        elif isinstance(step, Correct) and self.replaced.keys() & set(step.entries):
            for number in step.entries:
                self.replaced.pop(number, None)
        else:
            return
        players = list(self.players)
        for done in self.replaced.values():
            players[done.target] = done.name
        self.seating = Seating(tuple(players))


def replay(log: logfile.LogFile, listing: Listing | None = None,
           watch: Callable[[int, Step, Table], None] | None = None) -> Loaded:
    """Replay a parsed log through the engine, following and checking the hash chain;
    the first problem raises :class:`LogError` with its line. With ``listing`` (the
    audit's mode), problems are listed there and the replay goes on (:class:`Listing`).
    ``watch(number, step, state)`` is called after each entry is applied (``shmod
    replay``: the game as it stood after every entry, from one fold)."""
    setup, state = _started(log)
    seating = Seating(setup.players)
    forms = _Forms(setup.players)
    walk = chain.Walk(log)
    links = iter(walk)  # followed entry by entry, as each is judged
    notes: list[ChainNote] = []
    references: References | None = None  # made when a delivery names an entry
    identities: dict[str, int] | None = None  # made when a withdrawn post names entries
    for index, raw in enumerate(log.entries):
        line = log.line_of(index)
        judging = listing is None or listing.stopped is None
        try:
            step = parse_step(raw, seating if judging else forms.seating)
            if isinstance(step, Delivered):
                references = references or References(log.entries)
                step = replace(step, entry=references.find(step.of, index + 1))
            elif isinstance(step, Withdrawn):
                identities = identities or chain.first_places(log.entries)
                _held(step, identities, index)
            forms.note(index, step)
            if not judging:
                continue
            state.clock, state.recorder = at_text(raw), recorder_of(raw)
            engine.apply(state, step)
            if state.game.players != seating.players:  # a replacement (shmod.forum.seats)
                seating = Seating(state.game.players, state.replaced, state.renamed)
            if watch is not None:
                watch(index + 1, step, state)
            if listing is not None:
                listing.judged = index + 1
                continue
            link = next(links)
            if link.checkpoint is not None and link.upto is not None and not \
                    checkpoints.recorded(setup, link.post, link.upto,
                                         link.checkpoint, walk.heads):
                notes.append(_checkpoint_note(index, line, link.post, link.checkpoint, link.upto))
            if link.found:
                notes.append(ChainNote(index, line, link.found))
        except (BadInput, IllegalStep) as err:
            if listing is None:
                raise _entry_error(log, setup, notes, index, err) from None
            if judging:
                listing.stop(index, err, len(log.entries))
            else:
                listing.found.append((index, err))
        except ShmodError:
            raise
        except Exception as err:  # noqa: BLE001 - a bug, reported with its place
            raise InternalError(f"{type(err).__name__}: {err}", log.path, line) from err
    _acknowledge(notes, state)
    return Loaded(log, setup, state, walk.head, notes, walk.heads)


def _started(log: logfile.LogFile) -> tuple[Setup, Table]:
    """The setup ``log``'s header describes and the table it starts, or an error at the
    header's line."""
    try:
        setup = parse_setup(log.header)
        return setup, start(setup)
    except BadInput as err:
        raise LogError(log.path, log.header_line(str(err)), f"header: {err}") from None
    except ShmodError:
        raise
    except Exception as err:  # noqa: BLE001 - a bug, reported with its place
        raise InternalError(f"{type(err).__name__}: {err}", log.path, 1) from err


def _checkpoint_note(index: int, line: int, post: int, checkpoint: str, upto: int
                     ) -> ChainNote:
    """R-CHECKPOINT: post ``post``, marked at entry ``index + 1``, showed a checkpoint for
    entry ``upto`` that the log no longer gives."""
    return ChainNote(index, line, "checkpoint", (
        f"the post it marks (post {post}) showed checkpoint {checkpoint} for entry {upto}, "
        f"which the log no longer gives: an entry at or before entry {upto} was changed "
        "after it was posted (R-CHECKPOINT)"), upto)


def _entry_error(log: logfile.LogFile, setup: Setup, notes: list[ChainNote], index: int,
                 err: BadInput | IllegalStep) -> LogError:
    """``err`` at entry ``index + 1`` as the replay raises it: with its line, and why the
    step may no longer stand; a torn last line's own error for a torn entry."""
    line = log.line_of(index)
    if log.torn and index == len(log.entries) - 1:
        return logfile.at_line(log.torn_error(), line)
    hint = _edit_hint(setup, notes)
    return LogError(log.path, line, f"entry {index + 1}: {err}{hint}",
                    rule=getattr(err, "rule", None))


def _acknowledge(notes: list[ChainNote], state: Table) -> None:
    """Mark the chain's findings at entries an ``acknowledge`` entry named (R-EDIT)."""
    acknowledged = {n: (at, why) for at, numbers, why in state.acknowledged for n in numbers}
    for found in notes:
        if found.problem == "mismatch" and found.index + 1 in acknowledged:
            at, why = acknowledged[found.index + 1]
            found.problem, found.detail = "acknowledged", f"edit (entry {at}: {why})"
        elif found.problem == "checkpoint" and any(n <= found.upto for n in acknowledged):
            found.problem = "acknowledged"


def _held(step: Withdrawn, identities: dict[str, int], index: int) -> None:
    """R-MERGE: every step a withdrawn post covered is in the log before it."""
    for ident in step.covered:
        if identities.get(ident, index) >= index:
            raise BadInput(f"R-MERGE: withdrawn entry's covered names {ident}, which is no "
                           f"earlier entry's identity: a step post {step.post} announced is "
                           "not in the log")


def _edit_hint(setup: Setup, notes: list[ChainNote]) -> str:
    """Why a step may no longer stand: the header was changed after ``shmod new`` (a name,
    a role, the seed), which the commitment shows (R-COMMIT), or an earlier entry was
    edited by hand, which the hash chain shows (R-EDIT)."""
    if setup.commitment is not None and commitment(setup) != setup.commitment:
        return ("; note: the header was changed after `shmod new` (it no longer gives its "
                "commitment, R-COMMIT), which may be why: undo that edit")
    edited = next((n for n in notes if n.problem == "mismatch"), None)
    if edited is None:
        return ""
    return (f"; note: entry {edited.index + 1} (line {edited.line}) was changed after shmod "
            "wrote it, which may be why: undo that edit (R-EDIT)")


def new_game(path: str, players: list[str], *, seed: str | None = None,
             first: str | None = None, variants: list[str] | None = None,
             custom: dict[str, object] | None = None, deal_by: str = "moderator",
             zone: str | None = None, title: str | None = None, created: str,
             forum: str | None = None, language: str | None = None,
             moderators_listed: list[str] | None = None, moderator: str | None = None,
             before_write: Callable[[Loaded], None] | None = None,
             seed_source: SeedSource | None = None) -> Loaded:
    """Create a new seeded game log at ``path`` (0600), with its opening post recorded as
    post 1, and return it replayed. ``zone``, ``title``, ``forum`` and ``language`` are
    public: the game's time zone, its name in PM subjects, the output profile its posts are
    written in, the language players read;
    ``created`` is the time it is created at (the caller's clock: this layer reads none).
    ``moderators_listed``: the game's moderators when it has more than one, ``moderator``
    the one creating it (R-MODERATORS). ``before_write`` is given the new game, replayed,
    before the file is created. ``seed_source``: see :func:`shmod.forum.setup.new_header`."""
    import secrets

    from shmod.log import signing

    header = new_header(players, seed=seed, first=first, variants=variants,
                        salt=secrets.token_hex(16), created=created, custom=custom,
                        deal_by=deal_by, zone=zone, title=title, forum=forum,
                        keys=signing.new_key(), language=language,
                        moderators=moderators_listed, seed_source=seed_source)
    logfile.check_strings(header, "the new log's header")
    text = logfile.header_text(header)
    try:
        parsed = logfile.parse(path, text.encode("utf-8"))
        opened = replay(parsed)
        mod = moderators.recorder(opened.table, moderator)
        mark = _mark(opened.table, opened.setup, opened.heads[-1])
        opened.table.clock, opened.table.recorder = header["created"], mod
        engine.apply(opened.table, mark)
        entries, _ = chained([mark], opened.table.game.players, opened.head, header["created"],
                             mod)
        text += "".join(map(logfile.entry_line, entries))
        parsed = logfile.parse(path, text.encode("utf-8"))
        made = replay(parsed)
    except LogError as err:
        raise BadInput(f"nothing was created: the header would not read back ({err.reason})"
                       ) from None
    if parsed.header != header:
        raise InternalError("the new log's header read back differently from how it was "
                            "written", path)
    if before_write is not None:
        try:
            before_write(made)
        except ShmodError:
            raise
        except Exception as err:  # noqa: BLE001 - a bug, said as one
            raise InternalError(f"{type(err).__name__}: {err}, while composing the opening "
                                "post", path) from err
    logfile.create(path, text)
    made = load(path)
    seen.remember(made.log)
    return made


def _mark(state: Table, setup: Setup, head: str, short: bool = False) -> Posted:
    """The ``posted`` entry for the next post, covering the log up to its last entry,
    whose chain head (from content) is ``head`` (R-THREAD, R-CHECKPOINT); ``short``: it
    says a deadline alone (R-DEADLINE). The first post of a log that keeps no outbox yet
    begins it (``outbox: true``, :mod:`shmod.forum.deliveries`)."""
    number, upto = len(state.posts) + 1, state.entries
    return Posted(upto, checkpoints.mark(setup, number, upto, head), short=short,
                  outbox=state.outbox_from is None)


def recorder_of(raw: object) -> str | None:
    """The moderator an entry says recorded it (its ``mod``), if it names one."""
    mod = raw.get("mod") if isinstance(raw, dict) else None
    return mod if isinstance(mod, str) else None


def acts(log: logfile.LogFile) -> list[seen.Act]:
    """Each entry's vote or word (:func:`shmod.log.seen.act`) and whether it is in effect,
    from a replay (None for any other entry): how a terminal recognises its vote in a log
    where a merge counted it once, as the other moderator recorded it."""
    found: list[tuple[object, ...] | None] = [None] * len(log.entries)
    rounds = [1]

    def watch(number: int, step: Step, table: Table) -> None:
        found[number - 1] = seen.act(step, rounds[-1])
        rounds.append(table.game.round)

    in_effect = {number for number, _ in replay(log, watch=watch).table.history}
    return [None if key is None else (key, number in in_effect)
            for number, key in enumerate(found, 1)]


def log_text(header: dict[str, object], steps: list[Step], *, at: str) -> str:
    """A whole log (header and chained entries) for steps already known to be legal."""
    players = header["players"]
    assert isinstance(players, list)  # the seating, as the header was made
    entries, _ = chained(steps, tuple(players), logfile.header_link(header), at)
    return logfile.header_text(header) + "".join(map(logfile.entry_line, entries))


def chained(steps: list[Step], players: tuple[str, ...], head: str, at: str,
            mod: str | None = None) -> tuple[list[dict[str, object]], str]:
    """The log entries for legal ``steps`` taken after the chain link ``head``, each
    stamped ``at`` (and ``mod``, the moderator who records them, in a game that lists its
    moderators) and hashed, naming players as seated when it was taken; and the new head
    of the chain."""
    entries: list[dict[str, object]] = []
    for step in steps:
        entry = to_entry(step, players)
        own = step.at if isinstance(step, Lapse) else None  # a lapse's own time (R-LAPSE)
        entry["at"] = own or at
        if mod is not None:
            entry["mod"] = mod
        entry["hash"] = head = logfile.link(head, entry)
        entries.append(entry)
        if isinstance(step, (Replace, Rename)):  # later entries name the seat anew
            players = (*players[:step.target], step.name, *players[step.target + 1:])
    return entries, head


class Marked(Record, frozen=False):
    """A thread post recorded as posted: its number, the entries it covers, the
    checkpoint it ends with (:func:`shmod.log.checkpoints.line`) and its public events."""

    number: int
    first: int
    upto: int
    token: str
    events: list[Public]
    at: str  # when it was recorded (the time it shows the deadline at)
    short: bool = False  # it says a deadline alone (R-DEADLINE)


@overload
def record(path: str, make: Callable[[Loaded], Step | list[Step] | None], *, at: str,
           edits_ok: bool = False, post: bool = True, asked: bool = False,
           moderator: str | None = None, before_write: None = None) -> Recorded[None]: ...


@overload
def record(path: str, make: Callable[[Loaded], Step | list[Step] | None], *, at: str,
           edits_ok: bool = False, post: bool = True, asked: bool = False,
           moderator: str | None = None,
           before_write: Callable[[Recorded[Any]], C]) -> Recorded[C]: ...


def record(path: str, make: Callable[[Loaded], Step | list[Step] | None], *, at: str,
           edits_ok: bool = False, post: bool = True, asked: bool = False,
           moderator: str | None = None,
           before_write: Callable[[Recorded[Any]], C] | None = None) -> Recorded[C]:
    """Under the lock: replay, build the step with ``make``, validate, append, each new
    entry stamped ``at`` (the caller's clock: this layer reads none).

    Nothing is written unless the step is legal and the exact bytes about to be appended
    read back, after the log's own, through the loader and replay every command uses
    (:func:`read_back`). When the step leaves the game waiting for a reshuffle and the
    game has a seed, the seed's reshuffle is appended with it. With ``post``, everything
    public since the last post that is worth a post (:func:`shmod.forum.thread.news`) is
    recorded as the next post in the same write (``Recorded.post``): whatever shmod
    prints for the thread is known to the log; ``asked``: the moderator asked for a post,
    and a deadline alone makes one, short (:func:`shmod.forum.thread.short`). ``make`` may
    return several steps (votes sent together: each is checked as if recorded alone, and if
    one is refused nothing is written) or None (``shmod post``: the post alone).
    ``before_write`` is given what is about to be recorded before a byte is written (the
    caller composes what it will show, returned as ``Recorded.composed``: whatever it
    raises, nothing is recorded).
    ``moderator``: who records (``--as``, ``SHMOD_MODERATOR``), written as each new entry's
    ``mod`` in a game that lists its moderators (:func:`shmod.forum.moderators.recorder`,
    R-MODERATORS).

    A file that lacks an entry this terminal wrote to it is refused before anything
    (:func:`shmod.log.seen.check`, R-MERGE), and what is written is remembered for the
    next command.
    """
    with logfile.locked(path) as fd:
        game = _opened(path, edits_ok)
        state = game.table
        mod = moderators.recorder(state, moderator)
        seen_public, seen_secret = len(state.public), len(state.secrets)
        try:
            entries, head, marked = _new_entries(game, make, at, mod, post, asked)
        except ShmodError:
            raise
        except Exception as err:  # noqa: BLE001 - a bug, reported with its place
            raise InternalError(f"{type(err).__name__}: {err}, while checking a new entry",
                                path, _line_after(game.log)) from err
        prefix = "\n" if game.log.torn else ""
        text = prefix + "".join(logfile.entry_line(e) for e in entries)
        written = read_back(game, text, head, len(entries))
        game.head, game.heads = head, written.heads  # the chain after the new entries
        done: Recorded[C] = Recorded(game, entries, state.public[seen_public:],
                                     state.secrets[seen_secret:], marked)
        if before_write is not None:
            done.composed = _before_write(before_write, done, game.log)
        _warn_if_earlier(game, at)  # once the step is known to be recorded
        logfile.append(fd, text, path)
        if not written.chain:
            logfile.keep(written.log)  # the next command finds the new log parsed
        seen.remember(written.log)
        done.loaded = written  # the log as written, replayed (what the outbox is read from)
        return done


def _opened(path: str, edits_ok: bool) -> Loaded:
    """The log at ``path`` replayed from its own bytes, never the parse cache (the chain
    head is the file's), refused if it may not be recorded on: a salt a script could guess
    (R-COMMIT), an edit not acknowledged (unless ``edits_ok``, R-EDIT), or an entry this
    terminal wrote to it missing (R-MERGE). A changed header is recorded on, but never
    quietly (R-COMMIT)."""
    game = load(path, warn_edits=False, cache="off")
    changed = game.header_changed()
    if changed:
        warnings.warn(changed, logfile.LogWarning, stacklevel=3)
    _require_secret(game, changed is not None)
    edited = game.edits()
    if edited and not edits_ok:
        found = edited[0]
        raise LogError(path, found.line, f"nothing was recorded: {found.describe()}"
                       f"{EDIT_ADVICE}", rule="R-EDIT")
    seen.check(game.log, acts)
    return game


def _new_entries(game: Loaded, make: Callable[[Loaded], Step | list[Step] | None], at: str,
                 mod: str | None, post: bool, asked: bool
                 ) -> tuple[list[dict[str, object]], str, Marked | None]:
    """The entries :func:`record` appends, applied to ``game``'s state, the chain's head
    after them, and the post among them if one is made."""
    state = game.table
    players = state.game.players  # entries name players as they were before the step
    state.clock, state.recorder = at, mod
    steps = _seeded_reshuffles(state)  # one an interrupted write left out, if any
    made = make(game)
    for step in [] if made is None else [made] if isinstance(made, Step) else made:
        named = state.game.players
        state.clock = step.at if isinstance(step, Lapse) and step.at else at
        engine.apply(state, step)  # each checked as if it were recorded alone
        state.clock = at
        check_form(step, named)
        steps += [step, *_seeded_reshuffles(state)]
    entries, head = chained(steps, players, game.head, at, mod)
    marked = _post(state, game, entries, at, mod, asked) if post else None
    if marked is not None:
        entries.append(marked[1])
        return entries, str(marked[1]["hash"]), marked[0]
    if not made:
        raise BadInput(f"R-THREAD: nothing new to post since the last post (entry "
                       f"{thread.last_posted(state)}); nothing was recorded")
    return entries, head, None


def _line_after(log: logfile.LogFile) -> int:
    """The line after the log's last entry (after ``log:`` when it has none)."""
    count = len(log.entries)
    return (log.line_of(count - 1) if count else log.key_lines.get("log", 0)) + 1


def _before_write(call: Callable[[Recorded[Any]], C], done: Recorded[C],
                  log: logfile.LogFile) -> C:
    try:
        return call(done)
    except ShmodError:
        raise
    except Exception as err:  # noqa: BLE001 - a bug, reported with its place
        raise InternalError(f"{type(err).__name__}: {err}, while composing what the step "
                            "shows", log.path, _line_after(log)) from err


def _post(state: Table, game: Loaded, entries: list[dict[str, object]], stamp: str,
          mod: str | None = None, asked: bool = False
          ) -> tuple[Marked, dict[str, object]] | None:
    """The next post, if there is news (``asked``: a deadline alone is), applied to
    ``state``: what it covers and its ``posted`` entry, chained after ``entries`` (the new
    entries before it)."""
    events = thread.news(state, asked=asked)
    if not events:
        return None
    content = game.heads[-1]
    for entry in entries:
        content = logfile.link(content, entry)
    first = thread.last_posted(state) + 1
    mark = _mark(state, game.setup, content, thread.short(events))
    engine.apply(state, mark)
    head = str(entries[-1]["hash"]) if entries else game.head
    done, _ = chained([mark], state.game.players, head, stamp, mod)
    assert mark.checkpoint is not None
    return (Marked(len(state.posts), first, mark.upto, mark.checkpoint, events, stamp,
                   mark.short), done[0])


def _latest_time(game: Loaded) -> tuple[int, str] | None:
    """The last time the log was written at: the number of its last entry with a time
    (0: the header's ``created``) and that time, if it has one a clock wrote."""
    from shmod.forum.deadlines import UTC_TIME

    for index in range(len(game.log.entries) - 1, -1, -1):
        raw = game.log.entries[index]
        at = raw.get("at") if isinstance(raw, dict) else None
        if isinstance(at, str) and UTC_TIME.fullmatch(at):
            return index + 1, at
    created = game.log.header.get("created")
    return (0, created) if isinstance(created, str) and UTC_TIME.fullmatch(created) else None


def _warn_if_earlier(game: Loaded, at: str) -> None:
    """A clock earlier than the log's last entry is warned about, not refused: one entry
    stamped by a clock far ahead (a mistyped ``SHMOD_NOW``) would otherwise block every
    later step until that time. Entry times are bookkeeping; only a lapse's own time is
    judged (R-LAPSE), by the clock that records it."""
    last = _latest_time(game)
    if last is None or at >= last[1] or len(at) != len(last[1]):
        return
    number, when = last
    what = "the log was created" if number == 0 else f"entry {number} was recorded"
    warnings.warn(f"the clock reads {at}, earlier than {when}, when {what}: this step is "
                  "recorded at the clock's time, so the log's times go back. If the clock is "
                  "wrong (or SHMOD_NOW is set), set it right", logfile.LogWarning, stacklevel=3)


def _require_secret(game: Loaded, changed: bool) -> None:
    """R-COMMIT: a game is played on only with a salt no script can guess, which hides
    the commitment and keys the thread's checkpoints. Its form (128 bits or more) is
    checked on every step; whether a script could guess it (the common words' hashes,
    :func:`~shmod.forum.commitment.guessable`) only where the salt may be new: a header
    written by hand (no entry yet) or ``changed`` since its commitment. ``shmod new`` draws
    the salt, the commitment and the chain pin it from then on, and ``shmod audit`` checks
    it again."""
    salt, names = game.setup.salt, game.setup.players
    if strong(salt) if game.log.entries and not changed else unguessable(salt, names):
        return
    import secrets

    line = game.log.key_lines.get("salt") or game.log.key_lines.get("secret")
    missing = ("has no secret salt" if salt is None
               else "has a salt too short to be secret" if not strong(salt)
               else f"has a salt anyone can guess ({guessable(salt or '', names)})")
    raise LogError(game.path, line, f"nothing was recorded: the header {missing} (at least 128 "
                   "random bits), so its commitment and the thread's checkpoints would give "
                   "away every role and card to a player with a script. If the commitment is "
                   f"not posted yet, add the line `  salt: {secrets.token_hex(16)}` (freshly "
                   "drawn) under `secret:`; `shmod audit` still reads this log as it is",
                   rule="R-COMMIT")


def check_form(step: Step, players: tuple[str, ...]) -> None:
    """Refuse a legal ``step`` whose entry the replay would not read (a text too long, a
    control character, a newcomer's name a seat number could be mistaken for): the
    replay's own form checks, :func:`shmod.log.entries.parse_step`, decide."""
    entry = to_entry(step, players)
    logfile.check_strings(entry, f"{step.kind} entry")
    parse_step(entry, Seating(players))


def read_back(game: Loaded, text: str, head: str, count: int) -> Loaded:
    """Refuse ``text`` unless the log with it appended loads, replays to ``head`` with the
    new entries chained cleanly onto the log's bytes (no chain note at them), and stays
    within the size limit: the same reader and replay every later command will use, on a
    fresh parse (never the cache). Returns the log with ``text`` appended, replayed."""
    data = game.log.data + text.encode("utf-8")
    if len(data) > logfile.MAX_BYTES:
        raise BadInput(f"nothing was recorded: this step would take the log to {len(data)} "
                       f"bytes, over the {logfile.MAX_BYTES}-byte limit of a game log")
    try:
        again = replay(logfile.parse(game.path, data))
    except LogError as err:
        raise BadInput(f"nothing was recorded: the entry would not read back ({err.reason})"
                       ) from None
    before = len(game.log.entries)
    if again.head != head or len(again.log.entries) != before + count:
        raise InternalError("a new entry read back differently from how it was written",
                            game.path)
    broken = [note for note in again.chain if note.index >= before]
    if broken:
        raise InternalError(f"a new entry would not chain onto the log's own bytes "
                            f"({broken[0].describe()})", game.path,
                            again.log.line_of(broken[0].index))
    return again


def _seeded_reshuffles(state: Table) -> list[Step]:
    """Apply and return the reshuffle a seeded game is waiting for (R-RESHUFFLE)."""
    steps: list[Step] = []
    while state.game.phase == RESHUFFLE and state.game.seed is not None:
        auto = Reshuffle(tuple(legal.expected_reshuffle(state.game)))
        engine.apply(state, auto)
        steps.append(auto)
    return steps
