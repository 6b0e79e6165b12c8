"""``shmod replay``: the game as it stood after each step, what happened, and (for a
finished game) what was hidden, cut from one fold of the log.

A :class:`Frame` is one step a reader can stop at: the setup, then every entry that
changed what the thread can see (a public event, the phase, a prod, a backup, a
deadline). Votes and words that only tick "who has voted" fold into the step that counts
them, and ``posted`` entries are the thread's bookkeeping, not a step. Each frame holds
the public view (:func:`shmod.texts.views.public_view`) and sentences built from it and
from the public fields of the step. :class:`Hidden` holds what was secret at that step
(draws, hands, results, the piles' order) and is read from the state only when
:func:`frames` is asked to reveal, which :func:`shmod.audit.replay` does only for a game
that is over (R-THREAD: at game end the moderator may reveal all), so the page of a
game in progress is a function of the public record alone.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from shmod.base.records import Record, field, replace
from shmod.forum.absence import counted
from shmod.forum.deadlines import late_votes
from shmod.forum.events import (
    Briefing,
    Claimed,
    Corrected,
    DeadlineSet,
    DeadlineSpent,
    Dealt,
    HandedOver,
    Lapsed,
    ModeratorsChanged,
    Removed,
    Renamed,
    Replaced,
    Started,
)
from shmod.forum.setup import start
from shmod.forum.steps import Backup, Delivered, Prod, SetDeadline, Takeover
from shmod.forum.table import Table
from shmod.game.events import (
    Chaos,
    Drawn,
    Enacted,
    Executed,
    GameOver,
    Handed,
    Investigated,
    InvestigationResult,
    Nominated,
    Peeked,
    PeekResult,
    PowerGranted,
    PowerSkipped,
    Public,
    Reshuffled,
    RoundBegan,
    Secret,
    SpecialElectionCalled,
    Tallied,
    VetoAnswered,
    Vetoed,
    VetoProposed,
    VetoVoteAsked,
    VetoVoted,
)
from shmod.game.steps import Discard, Enact, Nominate, Reshuffle, Step, Veto, Vote
from shmod.game.terms import LIBERAL, RESHUFFLE, Policy
from shmod.log.store import Loaded, replay
from shmod.texts import (
    board_image,
    claim_texts,
    forum_texts,
    game_texts,
    glossary,
    messages,
    phrases,
)
from shmod.texts.catalog import ENGLISH, Language, Np_, Term, get as language
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView, public_view
from shmod.texts.wordings import ReplayWords

#: A frame's kind, shown as a word beside its sentence: what the step was.
KINDS: dict[str, Term] = {
    "setup": Np_("replay step", "setup"), "deal": Np_("replay step", "deal"),
    "nomination": Np_("replay step", "nomination"), "vote": Np_("replay step", "vote"),
    "legislation": Np_("replay step", "legislation"), "veto": Np_("replay step", "veto"),
    "power": Np_("replay step", "power"), "reshuffle": Np_("replay step", "reshuffle"),
    "deadline": Np_("replay step", "deadline"), "lapse": Np_("replay step", "lapse"),
    "prod": Np_("replay step", "prod"), "backup": Np_("replay step", "backup"),
    "replacement": Np_("replay step", "replacement"), "rename": Np_("replay step", "rename"),
    "removal": Np_("replay step", "removal"), "correction": Np_("replay step", "correction"),
    "edit": Np_("replay step", "edit"), "moderators": Np_("replay step", "moderators"),
    "claim": Np_("replay step", "claim"), "game over": Np_("replay step", "game over"),
    "misdelivery": Np_("replay step", "misdelivery")}
#: Each phase as the replay page names it.
PHASE_WORDS: dict[str, Term] = {
    "deal": Np_("phase", "the deal"), "nominate": Np_("phase", "nomination"),
    "vote": Np_("phase", "election"),
    "discard": Np_("phase", "legislative session (President)"),
    "enact": Np_("phase", "legislative session (Chancellor)"),
    "veto_answer": Np_("phase", "veto"), "veto_vote": Np_("phase", "veto"),
    "power": Np_("phase", "presidential power"), "reshuffle": Np_("phase", "reshuffle"),
    "over": Np_("phase", "game over")}


class Government(Record, frozen=False):
    """One election and what followed it, as far as it had got."""

    round: int
    president: str
    chancellor: str
    entry: int  # the entry whose vote was counted
    elected: bool
    ja: int
    nein: int
    enacted: Policy | None = None  # the policy it enacted
    vetoed: bool = False
    chaos: Policy | None = None  # the policy chaos enacted after this failed vote
    drawn: tuple[Policy, ...] = ()  # hidden: the President's three
    passed: tuple[Policy, ...] = ()  # hidden: the Chancellor's two

    def settle(self, *, enacted: Policy | None = None, vetoed: bool = False,
               chaos: Policy | None = None) -> None:
        """What came of it, the last event's word standing (chaos after a veto)."""
        self.enacted, self.vetoed, self.chaos = enacted, vetoed, chaos

    def line(self, escape: Callable[[str], str] = str, lang: Language | None = None) -> str:
        """``R3 · Ann → Bob · L`` (public); names passed through ``escape``; in ``lang``
        (English by default)."""
        t = lang or language(None)
        outcome = self._outcome(t)
        if not self.elected:
            failed = t._p("government", "not elected ({Ja} {ja}, {Nein} {nein})", ja=self.ja,
                          nein=self.nein, **glossary.BALLOTS)
            return self._line(escape, t, f"{failed} · {outcome}" if outcome else failed)
        return self._line(escape, t, outcome or t._p("government", "elected"))

    def hidden_line(self, escape: Callable[[str], str] = str,
                    lang: Language | None = None) -> str:
        """``R3 · Ann → Bob · FFL > FL > L``: the hands, each sorted (F first)."""
        t = lang or language(None)
        if not self.elected or not self.drawn:
            return self.line(escape, t)
        parts = [glossary.letters(t, sorted(self.drawn))]
        if self.passed:
            parts.append(glossary.letters(t, sorted(self.passed)))
            if self._outcome(t):
                parts.append(self._outcome(t))
        return self._line(escape, t, " > ".join(parts))

    def _outcome(self, t: Language) -> str:
        if self.enacted:
            return glossary.letters(t, self.enacted)
        if self.vetoed:
            return t._p("government", "vetoed")
        if self.chaos:
            # TRANSLATORS: after a failed vote, chaos enacted the top policy ({policy}
            # is its letter).
            return t._p("government", "chaos: {policy}", policy=glossary.letters(t, self.chaos))
        return ""

    def _line(self, escape: Callable[[str], str], t: Language, outcome: str) -> str:
        # TRANSLATORS: one government in the replay: R and the round's number, the
        # President, the Chancellor, and what came of it (a policy's letter, "elected",
        # "vetoed", or the vote that failed).
        return t._("R{round} · {president} → {chancellor} · {outcome}", round=self.round,
                   president=escape(self.president), chancellor=escape(self.chancellor),
                   outcome=outcome)


class Hidden(Record):
    """What was secret at a step: each line with the switch that shows it (``hands``,
    ``results``, ``deck``, ``roles``), the draw pile top first and the discard pile."""

    lines: tuple[tuple[str, str], ...]
    draw: tuple[Policy, ...]
    discard: tuple[Policy, ...]
    governments: tuple[Government, ...]  # every government so far, with its hands


class Frame(Record, frozen=False):
    """One step of the replay."""

    entry: int  # the log entry it stands after (0: the setup)
    kind: str  # one of KINDS
    view: PublicView
    said: list[str]  # what happened, sentence by sentence
    governments: list[Government]
    hidden: Hidden | None = None
    voided_by: int | None = None  # a later correction voided this entry (R-CORRECT)


class Replay(Record):
    """A whole game as frames worded in ``lang``, and (revealed) every seat's role."""

    frames: list[Frame]
    roles: tuple[tuple[str, str], ...] = ()  # (seat's names over the game, role), revealed
    revealed: bool = False
    lang: Language = field(default_factory=lambda: language(None))
    truth: claim_texts.Truth = field(default_factory=dict)  # revealed: each claim, true or false


def frames(game: Loaded, *, reveal: bool, lang: Language | None = None) -> Replay:
    """Every step of ``game``, worded in ``lang`` (English by default); with ``reveal`` (a
    finished game only) what was hidden."""
    t = lang or language(None)
    cut = _Cutter(reveal, t)
    cut.add(0, None, start(game.setup))
    replay(game.log, watch=cut.add)
    cut.flush()  # a log that ends waiting for the moderator's reshuffle
    voiders = {number: ev.entry for ev in game.table.public if isinstance(ev, Corrected)
               for number, _ in ev.voided}
    for frame in cut.frames:
        frame.voided_by = voiders.get(frame.entry)
    roles: tuple[tuple[str, str], ...] = ()
    if reveal:
        names = _seat_names(game.table)
        roles = tuple((names[seat], glossary.role(t, role))
                      for seat, role in enumerate(game.table.game.roles))
    return Replay(cut.frames, roles, reveal, t, cut.truth)


def _seat_names(state: Table) -> list[str]:
    """Each seat as ``Ann`` or, where it changed hands, ``Ann → Dee``."""
    names = [[name] for name in state.setup.players]
    for seat, _old, new, _entry in sorted(state.replaced, key=lambda r: r[3]):
        names[seat].append(new)
    for seat, old, new, _entry in state.renamed:
        names[seat] = [new if n == old else n for n in names[seat]]
    return [" → ".join(chain) for chain in names]


class _Cutter:
    """The fold's watcher: a frame at each entry that changed what the thread can see. A
    step that leaves a reshuffle due is shown with the reshuffle (a seeded game appends
    it in the same write; the thread never sees the wait)."""

    def __init__(self, reveal: bool, lang: Language) -> None:
        self.reveal = reveal
        self.lang = lang
        self.frames: list[Frame] = []
        self.seen = 0  # public events met so far
        self.signature: tuple[object, ...] = ()
        self.told = 0  # secrets shown so far (revealed)
        self.acks = 0
        self.held: tuple[int, Step | None, Table, str] | None = None  # awaiting a reshuffle
        self.said: list[str] = []  # what the held steps did
        self.truth: claim_texts.Truth = {}  # revealed: every claim ever in effect, true or false

    def add(self, entry: int, step: Step | None, state: Table) -> None:
        events = state.public[self.seen:]
        self.seen = len(state.public)
        ack = self.reveal and len(state.acknowledged) > self.acks
        self.acks = len(state.acknowledged)
        # R-MISSENT: an item given to the wrong reader, shown once the game is over
        wrong = self.reveal and isinstance(step, Delivered) and step.wrong is not None
        signature, self.signature = self.signature, _signature(state)
        if step is not None and not (events or ack or wrong or signature != self.signature):
            return
        view = public_view(state)
        self.said += _said(view, step, events, self.lang)
        if wrong and isinstance(step, Delivered):
            self.said.append(_missent(step, self.lang))
        if ack:
            _at, numbers, reason = state.acknowledged[-1]
            # TRANSLATORS: {entries} lists the numbers of the log's entries; {reason} is
            # the moderator's, as typed.
            self.said.append(self.lang._n(
                "The moderator recorded that entry {entries} of the log was edited by hand: "
                "{reason}.",
                "The moderator recorded that entries {entries} of the log were edited by "
                "hand: {reason}.", len(numbers), entries=", ".join(map(str, numbers)),
                reason=reason))
        kind = self.held[3] if self.held else _kind(step, events, ack)
        self.held = (entry, step, state, kind)
        if view.phase != RESHUFFLE or step is None:
            self.flush()

    def flush(self) -> None:
        """Make the frame of the step held, if any."""
        if self.held is None:
            return
        entry, step, state, kind = self.held
        view = public_view(state)
        secrets = state.secrets[self.told:] if self.reveal else []
        self.told = len(state.secrets)
        governments = _governments(view)
        hidden = (_hidden(state, secrets, step, governments, self.lang) if self.reveal
                  else None)
        if self.reveal:
            self.truth.update(claim_texts.dealt(state))
        self.frames.append(Frame(entry, kind, view, self.said, governments, hidden))
        self.held, self.said = None, []


def _signature(state: Table) -> tuple[object, ...]:
    """What the thread can see change without an event of its own (votes coming in aside):
    the phase and the power, prods (once they count, R-STALL), backups, the deadline, seats
    removed or changing hands."""
    prods = sum(1 for entry, _seat in state.prods if counted(state, entry))
    return (state.game.phase, state.game.power, prods, tuple(state.backups),
            state.deadline, len(state.removed), len(state.replaced), len(state.renamed),
            state.game.players)


#: The kind of a step by the first of these events it caused, else by the step.
EVENT_KINDS: tuple[tuple[type[Public], str], ...] = (
    (GameOver, "game over"), (Corrected, "correction"), (Removed, "removal"),
    (Replaced, "replacement"), (Renamed, "rename"), (Lapsed, "lapse"), (Dealt, "deal"),
    (DeadlineSet, "deadline"), (ModeratorsChanged, "moderators"), (HandedOver, "moderators"),
    (Claimed, "claim"))
STEP_KINDS: tuple[tuple[type[Step], str], ...] = (
    (Prod, "prod"), (Backup, "backup"), (Reshuffle, "reshuffle"), (Nominate, "nomination"),
    (Vote, "vote"), (Discard, "legislation"), (Enact, "legislation"), (Veto, "veto"),
    (SetDeadline, "deadline"), (Takeover, "moderators"))


def _kind(step: Step | None, events: list[Public], ack: bool) -> str:
    """What the step was, as one of :data:`KINDS`."""
    if step is None:
        return "setup"
    if ack:
        return "edit"
    if isinstance(step, Delivered):
        return "misdelivery" if step.wrong is not None else "prod"
    for event_type, kind in EVENT_KINDS:
        if any(isinstance(ev, event_type) for ev in events):
            return kind
    return next((kind for step_type, kind in STEP_KINDS if isinstance(step, step_type)),
                "power")


def _said(view: PublicView, step: Step | None, events: list[Public], t: Language) -> list[str]:
    """What happened, in sentences: each public event, and what a step without one did."""
    out = [text for text in (event_sentence(view, ev, t) for ev in events) if text]
    if isinstance(step, Discard):
        out.insert(0, t._("President {president} discarded one policy and passed the other "
                          "two to Chancellor {chancellor}.", president=view.president,
                          chancellor=view.chancellor))
    elif isinstance(step, (Prod, Delivered)) and dict(view.prods).get(
            step.to if isinstance(step, Delivered) else view.players[step.target]):
        name = step.to if isinstance(step, Delivered) else view.players[step.target]
        count = dict(view.prods)[name]
        # TRANSLATORS: {count} is how many times this player has been prodded so far.
        out.append(t._("The moderator prodded {name} by PM for what the game awaits "
                       "(prod {count} for {name}).", name=name, count=count))
    elif isinstance(step, Backup):
        listed = ", ".join(view.backups) or t._p("backup players", "nobody")
        out.append(t._("{name} leaves the list of backup players (in order: {listed}).",
                       name=step.name, listed=listed) if step.drop else
                   t._("{name} joins the list of backup players (in order: {listed}).",
                       name=step.name, listed=listed))
    elif isinstance(step, Reshuffle) and not out:
        out.append(t._n("The draw pile is reshuffled: {n} policy.",
                        "The draw pile is reshuffled: {n} policies.", view.draw_size))
    if not out and step is not None:  # a phase changed without an event
        # TRANSLATORS: {waiting} says whom the game waits for and for what (in English
        # with a capital, as an English sentence after a colon; in small letters else).
        out.append(t._("Now: {waiting}.", waiting=phrases.waiting(
            t, view.waiting, capital=t.code == ENGLISH)))
    return out


def _missent(step: Delivered, t: Language) -> str:
    """R-MISSENT, in a finished game's replay: an item the moderator gave the wrong reader."""
    if step.to == "thread":  # a post
        # TRANSLATORS: R-MISSENT: {reader} is the player who was sent a post by PM.
        return t._("The moderator sent a thread post by PM to {reader} by mistake.",
                   reader=step.wrong)
    if step.wrong == "thread":
        # TRANSLATORS: R-MISSENT: {name} is the player the PM was meant for.
        return t._("The moderator posted the PM meant for {name} in the thread by mistake.",
                   name=step.to)
    # TRANSLATORS: R-MISSENT: {name} is the player the PM was meant for, {reader} the
    # player who got it.
    return t._("The moderator sent the PM meant for {name} to {reader} by mistake.",
               name=step.to, reader=step.wrong)


def event_sentence(view: PublicView, event: Public, lang: Language | None = None) -> str | None:
    """One public event as a sentence of the replay (past tense, no instructions), in
    ``lang`` (English by default): its row of :data:`REPLAY_WORDS`."""
    return REPLAY_WORDS[type(event)](view, event, lang or language(None))


def _started(view: PublicView, event: Started, t: Language) -> str:
    if event.president:
        return t._n("The game is set up: {n} player. {president} is the first "
                    "Presidential Candidate.",
                    "The game is set up: {n} players. {president} is the first "
                    "Presidential Candidate.", len(event.players),
                    president=event.president)
    return t._n("The game is set up: {n} player. The roles are dealt from the "
                "players' words.",
                "The game is set up: {n} players. The roles are dealt from the "
                "players' words.", len(event.players))


def _dealt(view: PublicView, event: Dealt, t: Language) -> str:
    return t._("Every player posted a word; the roles and the deck were dealt from "
               "them and the seed. {president} is the first Presidential Candidate.",
               president=event.president)


def _round_began(view: PublicView, event: RoundBegan, t: Language) -> str:
    if event.special:
        return t._("Round {round}: {president} is the Presidential Candidate by "
                   "Special Election.", round=event.round, president=event.president)
    return t._("Round {round}: {president} is the Presidential Candidate.",
               round=event.round, president=event.president)


def _nominated(view: PublicView, event: Nominated, t: Language) -> str:
    return t._("{president} nominated {chancellor} for Chancellor.",
               president=event.president, chancellor=event.chancellor)


def _enacted(view: PublicView, event: Enacted, t: Language) -> str | None:
    if event.chaos:
        return None  # said by the chaos event
    if event.policy == LIBERAL:
        return t._("President {president} and Chancellor {chancellor} enacted a "
                   "Liberal policy.", president=event.president,
                   chancellor=event.chancellor)
    return t._("President {president} and Chancellor {chancellor} enacted a Fascist "
               "policy.", president=event.president, chancellor=event.chancellor)


def _chaos(view: PublicView, event: Chaos, t: Language) -> str:
    return t._("Chaos: the top policy, {policy}, was enacted; powers ignored, tracker "
               "reset, term limits forgotten.",
               policy=glossary.policy(t, event.policy))


def _veto_proposed(view: PublicView, event: VetoProposed, t: Language) -> str:
    return t._("Chancellor {chancellor} proposed a veto.", chancellor=event.chancellor)


def _veto_answered(view: PublicView, event: VetoAnswered, t: Language) -> str | None:
    if game_texts.refused_by_lapse(view, event):
        return None  # said by the lapse's sentence
    if event.accepted:
        return t._("President {president} agreed to the veto.",
                   president=event.president)
    return t._("President {president} refused the veto.", president=event.president)


def _veto_voted(view: PublicView, event: VetoVoted, t: Language) -> str:
    return (t._("The secret veto vote: vetoed.") if event.vetoed else
            t._("The secret veto vote: the veto failed."))


def _vetoed(view: PublicView, event: Vetoed, t: Language) -> str:
    return t._("Both policies were discarded; Election Tracker {tracker}/{limit}.",
               tracker=event.tracker, limit=view.chaos_at)


def _reshuffled(view: PublicView, event: Reshuffled, t: Language) -> str:
    return t._n("The draw and discard piles were shuffled together: {n} policy.",
                "The draw and discard piles were shuffled together: {n} policies.",
                event.draw)


def _power_granted(view: PublicView, event: PowerGranted, t: Language) -> str:
    return t._("President {president} gains {power}.", president=event.president,
               power=glossary.power(t, event.power))


def _power_skipped(view: PublicView, event: PowerSkipped, t: Language) -> str:
    return t._("{power} had no legal target and was skipped.",
               power=glossary.power(t, event.power))


def _investigated(view: PublicView, event: Investigated, t: Language) -> str:
    return t._("President {president} investigated {target}.",
               president=event.president, target=event.target)


def _special_election(view: PublicView, event: SpecialElectionCalled, t: Language) -> str:
    return t._("President {president} called a Special Election: {target} is the next "
               "Presidential Candidate.", president=event.president,
               target=event.target)


def _peeked(view: PublicView, event: Peeked, t: Language) -> str:
    return t._("President {president} looked at the top three policies.",
               president=event.president)


def _executed(view: PublicView, event: Executed, t: Language) -> str:
    if event.hitler:
        return t._("President {president} executed {target}, who was Hitler.",
                   president=event.president, target=event.target)
    return t._("President {president} executed {target}, who was not Hitler.",
               president=event.president, target=event.target)


def _game_over(view: PublicView, event: GameOver, t: Language) -> str:
    # TRANSLATORS: {reason} says how the game was won.
    return glossary.won(t, event.win.team, "Game over: the {team} win: {reason}.",
                        reason=phrases.win(t, event.win))


def _deadline_set(view: PublicView, event: DeadlineSet, t: Language) -> str:
    if event.until is None:
        return t._("The moderator cleared the deadline.")
    when = forum_texts.when_text(event.until, event.zone, t)
    if event.scope == "round":
        return t._("The moderator set a deadline for this round: {when}.", when=when)
    return t._("The moderator set a deadline for this phase: {when}.", when=when)


def _as_posted(view: PublicView, event: Public, t: Language) -> str | None:
    """Forum moderation's events read in the replay as the thread read them, unmarked."""
    return messages.post_words(view, event, Plain(t))


def _tally(view: PublicView, event: Tallied, t: Language) -> str:
    """The vote counted, and what it did."""
    if event.eva_braun:
        result = t._("a tie elected Hitler Chancellor under the Eva Braun rule")
    elif event.elected and event.not_hitler:
        result = t._("{president} and {chancellor} are elected; {chancellor} is not Hitler",
                     president=event.president, chancellor=event.chancellor)
    elif event.elected:
        result = t._("{president} and {chancellor} are elected", president=event.president,
                     chancellor=event.chancellor)
    else:
        result = t._("the government is not elected; Election Tracker {tracker}/{limit}",
                     tracker=event.tracker, limit=view.chaos_at)
    marked = late_votes(view.history).get(event.entry, ())
    if marked:
        # TRANSLATORS: {names} lists who sent no vote by the deadline (counted as Nein);
        # {result} is what the vote did.
        return t._n("The vote: {Ja} {ja}, {Nein} {nein} ({names} sent no vote by the "
                    "deadline: {Nein}): {result}.",
                    "The vote: {Ja} {ja}, {Nein} {nein} ({names} sent no vote by the "
                    "deadline: {Nein}): {result}.", len(marked), ja=event.ja, nein=event.nein,
                    names=forum_texts.joined(list(marked), t), result=result, **glossary.BALLOTS)
    # TRANSLATORS: {result} is what the vote did.
    return t._("The vote: {Ja} {ja}, {Nein} {nein}: {result}.", ja=event.ja, nein=event.nein,
               result=result, **glossary.BALLOTS)

#: Every public event as a sentence of the replay, one row per event class.
REPLAY_WORDS: dict[type[Public], ReplayWords] = {
    Started: _started, Dealt: _dealt, RoundBegan: _round_began, Nominated: _nominated,
    Tallied: _tally, Enacted: _enacted,
    Chaos: _chaos, VetoProposed: _veto_proposed, VetoAnswered: _veto_answered,
    VetoVoted: _veto_voted, Vetoed: _vetoed, Reshuffled: _reshuffled,
    PowerGranted: _power_granted, PowerSkipped: _power_skipped, Investigated: _investigated,
    SpecialElectionCalled: _special_election, Peeked: _peeked, Executed: _executed,
    GameOver: _game_over, DeadlineSet: _deadline_set, Lapsed: _as_posted,
    DeadlineSpent: _as_posted, Renamed: _as_posted, Replaced: _as_posted,
    Corrected: _as_posted, Removed: _as_posted, ModeratorsChanged: _as_posted,
    HandedOver: _as_posted, Claimed: _as_posted,
}



def _governments(view: PublicView) -> list[Government]:
    """Every election so far, leaving out what corrections had voided by then."""
    gone = {number for ev in view.history if isinstance(ev, Corrected)
            for number, _ in ev.voided}
    out: list[Government] = []
    round_ = 1
    for ev in view.history:
        if ev.entry in gone:
            continue
        if isinstance(ev, RoundBegan):
            round_ = ev.round
        elif isinstance(ev, Tallied):
            out.append(Government(round_, ev.president, ev.chancellor, ev.entry,
                                  ev.elected or ev.eva_braun, ev.ja, ev.nein))
        elif not out:
            continue
        elif isinstance(ev, Enacted) and not ev.chaos:
            out[-1].settle(enacted=ev.policy)
        elif isinstance(ev, Chaos):
            out[-1].settle(chaos=ev.policy)
        elif isinstance(ev, Vetoed) or (isinstance(ev, VetoVoted) and ev.vetoed):
            out[-1].settle(vetoed=True)
    return out


def _hidden(state: Table, secrets: list[Secret], step: Step | None,
            governments: list[Government], t: Language) -> Hidden:
    """What was secret at this step (a finished game's replay only)."""
    gone = {number for _at, numbers, _why in state.corrections for number in numbers}
    lines: list[tuple[str, str]] = []
    for secret in secrets:
        text = _secret_sentence(secret, t)
        if text:
            lines.append(text)
    if isinstance(step, Reshuffle):
        lines.append(("deck", t._("The reshuffled draw pile, top first: {cards}.",
                                  cards=glossary.letters(t, step.deck))))
    governments = [replace(g) for g in governments]
    starts = [g.entry for g in governments]
    for secret in state.secrets:  # each hand goes to the last election counted before it
        if secret.entry in gone or not isinstance(secret, (Drawn, Handed)):
            continue
        at = bisect_right(starts, secret.entry) - 1
        if at < 0 or not governments[at].elected:
            continue
        government = governments[at]
        if isinstance(secret, Drawn) and not government.drawn:
            government.drawn = secret.cards
        elif isinstance(secret, Handed) and not government.passed:
            government.passed = secret.cards
    return Hidden(tuple(lines), tuple(state.game.draw), tuple(sorted(state.game.discard)),
                  tuple(governments))


def _secret_sentence(secret: Secret, t: Language) -> tuple[str, str] | None:
    """A secret PM as a line of the reveal: (what it is, the sentence)."""
    match secret:
        case Drawn():
            return "hands", t._("President {president} drew {cards} (top first).",
                                president=secret.to, cards=glossary.letters(t, secret.cards))
        case Handed():
            return "hands", t._("Chancellor {chancellor} was passed {cards}.",
                                chancellor=secret.to, cards=glossary.letters(t, secret.cards))
        case VetoVoteAsked() if secret.chosen is not None:
            return "hands", t._("Chancellor {chancellor} chose {policy} from {cards}.",
                                chancellor=secret.to, policy=glossary.policy(t, secret.chosen),
                                cards=glossary.letters(t, secret.cards))
        case InvestigationResult():
            return "results", t._("{president} learnt that {target}'s party is {party}.",
                                  president=secret.to, target=secret.target,
                                  party=glossary.party(t, secret.party))
        case PeekResult():
            return "results", t._("{president} saw the top three: {cards}.",
                                  president=secret.to, cards=glossary.letters(t, secret.cards))
        case Briefing():
            return "roles", t._("{name} took over the role of {before}: {role}.",
                                name=secret.to, before=secret.replacing,
                                role=glossary.role(t, secret.role))
    return None


def board_parts(view: PublicView, lang: Language | None = None) -> list[str]:
    """The board picture as :func:`shmod.texts.board_image.svg` writes it, line by line."""
    return board_image.svg(view, lang).splitlines()
