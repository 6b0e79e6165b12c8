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

from shmod.base.records import Record, replace
from shmod.forum.deadlines import late_votes
from shmod.forum.events import (
    Briefing,
    Corrected,
    DeadlineSet,
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
from shmod.forum.steps import Backup, Prod, SetDeadline, Takeover
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
from shmod.game.explain import win_text
from shmod.game.steps import Discard, Enact, Nominate, Reshuffle, Step, Veto, Vote
from shmod.game.terms import POLICY_NAMES, POWER_NAMES, RESHUFFLE, Policy, Role
from shmod.log.game import Game, replay
from shmod.texts import board_image, forum_texts, phrases
from shmod.texts.catalog import get as language
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView, public_view

#: A frame's kind, shown as a word beside its sentence: what the step was.
KINDS = ("setup", "deal", "nomination", "vote", "legislation", "veto", "power", "reshuffle",
         "deadline", "lapse", "prod", "backup", "replacement", "rename", "removal",
         "correction", "edit", "moderators", "game over")
ROLE_WORDS: dict[Role, str] = {"liberal": "Liberal", "fascist": "Fascist", "hitler": "Hitler"}
PHASE_WORDS = {"deal": "the deal", "nominate": "nomination", "vote": "election",
               "discard": "legislative session (President)",
               "enact": "legislative session (Chancellor)", "veto_answer": "veto",
               "veto_vote": "veto", "power": "presidential power", "reshuffle": "reshuffle",
               "over": "game over"}


class Government(Record, frozen=False):
    """One election and what followed it, as far as it had got."""

    round: int
    president: str
    chancellor: str
    entry: int  # the entry whose vote was counted
    elected: bool
    ja: int
    nein: int
    outcome: str = ""  # "L", "F", "vetoed", or "chaos: L" after a failed vote
    drawn: tuple[Policy, ...] = ()  # hidden: the President's three
    passed: tuple[Policy, ...] = ()  # hidden: the Chancellor's two

    def line(self, escape: Callable[[str], str] = str) -> str:
        """``R3 · Ann → Bob · L`` (public); names passed through ``escape``."""
        if not self.elected:
            tail = f"not elected (Ja {self.ja}, Nein {self.nein})"
            return self._head(escape) + tail + (f" · {self.outcome}" if self.outcome else "")
        return self._head(escape) + (self.outcome or "elected")

    def hidden_line(self, escape: Callable[[str], str] = str) -> str:
        """``R3 · Ann → Bob · FFL > FL > L``: the hands, each sorted (F first)."""
        if not self.elected or not self.drawn:
            return self.line(escape)
        parts = ["".join(sorted(self.drawn))]
        if self.passed:
            parts.append("".join(sorted(self.passed)))
            if self.outcome:
                parts.append(self.outcome)
        return self._head(escape) + " > ".join(parts)

    def _head(self, escape: Callable[[str], str]) -> str:
        return f"R{self.round} · {escape(self.president)} → {escape(self.chancellor)} · "


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
    """A whole game as frames, and (revealed) every seat's role."""

    frames: list[Frame]
    roles: tuple[tuple[str, str], ...] = ()  # (seat's names over the game, role), revealed
    revealed: bool = False


def frames(game: Game, *, reveal: bool) -> Replay:
    """Every step of ``game``; with ``reveal`` (a finished game only) what was hidden."""
    cut = _Cutter(reveal)
    cut.add(0, None, start(game.setup))
    replay(game.log, watch=cut.add)
    cut.flush()  # a log that ends waiting for the moderator's reshuffle
    voiders = {number: ev.entry for ev in game.state.public if isinstance(ev, Corrected)
               for number, _ in ev.voided}
    for frame in cut.frames:
        frame.voided_by = voiders.get(frame.entry)
    roles: tuple[tuple[str, str], ...] = ()
    if reveal:
        names = _seat_names(game.state)
        roles = tuple((names[seat], ROLE_WORDS[role])
                      for seat, role in enumerate(game.state.game.roles))
    return Replay(cut.frames, roles, reveal)


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

    def __init__(self, reveal: bool) -> None:
        self.reveal = reveal
        self.frames: list[Frame] = []
        self.seen = 0  # public events met so far
        self.signature: tuple[object, ...] = ()
        self.told = 0  # secrets shown so far (revealed)
        self.acks = 0
        self.held: tuple[int, Step | None, Table, str] | None = None  # awaiting a reshuffle
        self.said: list[str] = []  # what the held steps did

    def add(self, entry: int, step: Step | None, state: Table) -> None:
        events = state.public[self.seen:]
        self.seen = len(state.public)
        ack = self.reveal and len(state.acknowledged) > self.acks
        self.acks = len(state.acknowledged)
        signature, self.signature = self.signature, _signature(state)
        if step is not None and not (events or ack or signature != self.signature):
            return
        view = public_view(state)
        self.said += _said(view, step, events)
        if ack:
            _at, numbers, reason = state.acknowledged[-1]
            self.said.append(f"The moderator recorded that entr"
                             f"{'y' if len(numbers) == 1 else 'ies'} "
                             f"{', '.join(map(str, numbers))} of the log were edited by hand: "
                             f"{reason}.")
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
        hidden = _hidden(state, secrets, step, governments) if self.reveal else None
        self.frames.append(Frame(entry, kind, view, self.said, governments, hidden))
        self.held, self.said = None, []


def _signature(state: Table) -> tuple[object, ...]:
    """What the thread can see change without an event of its own (votes coming in aside):
    the phase and the power, prods, backups, the deadline, seats removed or changing hands."""
    return (state.game.phase, state.game.power, len(state.prods), tuple(state.backups),
            state.deadline, len(state.removed), len(state.replaced), len(state.renamed),
            state.game.players)


#: The kind of a step by the first of these events it caused, else by the step.
EVENT_KINDS: tuple[tuple[type[Public], str], ...] = (
    (GameOver, "game over"), (Corrected, "correction"), (Removed, "removal"),
    (Replaced, "replacement"), (Renamed, "rename"), (Lapsed, "lapse"), (Dealt, "deal"),
    (DeadlineSet, "deadline"), (ModeratorsChanged, "moderators"), (HandedOver, "moderators"))
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
    for event_type, kind in EVENT_KINDS:
        if any(isinstance(ev, event_type) for ev in events):
            return kind
    return next((kind for step_type, kind in STEP_KINDS if isinstance(step, step_type)),
                "power")


def _said(view: PublicView, step: Step | None, events: list[Public]) -> list[str]:
    """What happened, in sentences: each public event, and what a step without one did."""
    out = [text for text in (event_sentence(view, ev) for ev in events) if text]
    if isinstance(step, Discard):
        out.insert(0, f"President {view.president} discarded one policy and passed the other "
                      f"two to Chancellor {view.chancellor}.")
    elif isinstance(step, Prod):
        name = view.players[step.target]
        count = dict(view.prods).get(name, 0)
        out.append(f"The moderator prodded {name} by PM for what the game awaits "
                   f"(prod {count} for {name}).")
    elif isinstance(step, Backup):
        listed = ", ".join(view.backups) or "nobody"
        out.append(f"{step.name} {'leaves' if step.drop else 'joins'} the list of backup "
                   f"players (in order: {listed}).")
    elif isinstance(step, Reshuffle) and not out:
        out.append(f"The draw pile is reshuffled: {view.draw_size} policies.")
    if not out and step is not None:  # a phase changed without an event
        waiting = phrases.waiting(language(None), view.waiting)
        out.append(f"Now: {waiting[:1].upper()}{waiting[1:]}.")
    return out


def event_sentence(view: PublicView, event: Public) -> str | None:
    """One public event as a sentence of the replay (past tense, no instructions)."""
    plain = Plain()
    match event:
        case Started():
            first = (f" {event.president} is the first Presidential Candidate."
                     if event.president else " The roles are dealt from the players' words.")
            return f"The game is set up: {len(event.players)} players.{first}"
        case Dealt():
            return (f"Every player posted a word; the roles and the deck were dealt from them "
                    f"and the seed. {event.president} is the first Presidential Candidate.")
        case RoundBegan():
            how = " by Special Election" if event.special else ""
            return f"Round {event.round}: {event.president} is the Presidential Candidate{how}."
        case Nominated():
            return f"{event.president} nominated {event.chancellor} for Chancellor."
        case Tallied():
            marked = late_votes(view.history).get(event.entry, ())
            late = f" ({', '.join(marked)} sent no vote by the deadline: Nein)" \
                if marked else ""
            if event.eva_braun:
                result = "a tie elected Hitler Chancellor under the Eva Braun rule"
            elif event.elected:
                result = f"{event.president} and {event.chancellor} are elected"
                if event.not_hitler:
                    result += f"; {event.chancellor} is not Hitler"
            else:
                result = (f"the government is not elected; Election Tracker "
                          f"{event.tracker}/{view.chaos_at}")
            return f"The vote: Ja {event.ja}, Nein {event.nein}{late}: {result}."
        case Enacted() if not event.chaos:
            return (f"President {event.president} and Chancellor {event.chancellor} enacted a "
                    f"{POLICY_NAMES[event.policy]} policy.")
        case Chaos():
            return (f"Chaos: the top policy, {POLICY_NAMES[event.policy]}, was enacted; powers "
                    "ignored, tracker reset, term limits forgotten.")
        case VetoProposed():
            return f"Chancellor {event.chancellor} proposed a veto."
        case VetoAnswered():
            return (f"President {event.president} "
                    f"{'agreed to' if event.accepted else 'refused'} the veto.")
        case VetoVoted():
            return "The secret veto vote: " + ("vetoed." if event.vetoed else "the veto failed.")
        case Vetoed():
            return (f"Both policies were discarded; Election Tracker "
                    f"{event.tracker}/{view.chaos_at}.")
        case Reshuffled():
            return f"The draw and discard piles were shuffled together: {event.draw} policies."
        case PowerGranted():
            return f"President {event.president} gains {POWER_NAMES[event.power]}."
        case PowerSkipped():
            return f"{POWER_NAMES[event.power]} had no legal target and was skipped."
        case Investigated():
            return f"President {event.president} investigated {event.target}."
        case SpecialElectionCalled():
            return (f"President {event.president} called a Special Election: {event.target} "
                    "is the next Presidential Candidate.")
        case Peeked():
            return f"President {event.president} looked at the top three policies."
        case Executed():
            tail = "who was Hitler" if event.hitler else "who was not Hitler"
            return f"President {event.president} executed {event.target}, {tail}."
        case GameOver():
            reason = win_text(event.win)
            return f"Game over: the {event.win.team} win: {reason}."
        case DeadlineSet():
            if event.until is None:
                return "The moderator cleared the deadline."
            what = "this round" if event.scope == "round" else "this phase"
            return (f"The moderator set a deadline for {what}: "
                    f"{forum_texts.when_text(event.until, event.zone, language(None))}.")
    return forum_texts.event_text(view, event, plain)


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
            out[-1].outcome = ev.policy
        elif isinstance(ev, Chaos):
            out[-1].outcome = f"chaos: {ev.policy}"
        elif isinstance(ev, Vetoed) or (isinstance(ev, VetoVoted) and ev.vetoed):
            out[-1].outcome = "vetoed"
    return out


def _hidden(state: Table, secrets: list[Secret], step: Step | None,
            governments: list[Government]) -> Hidden:
    """What was secret at this step (a finished game's replay only)."""
    gone = {number for _at, numbers, _why in state.corrections for number in numbers}
    lines: list[tuple[str, str]] = []
    for secret in secrets:
        text = _secret_sentence(secret)
        if text:
            lines.append(text)
    if isinstance(step, Reshuffle):
        lines.append(("deck", f"The reshuffled draw pile, top first: {''.join(step.deck)}."))
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


def _secret_sentence(secret: Secret) -> tuple[str, str] | None:
    """A secret PM as a line of the reveal: (what it is, the sentence)."""
    match secret:
        case Drawn():
            return "hands", f"President {secret.to} drew {_cards(secret.cards)} (top first)."
        case Handed():
            return "hands", f"Chancellor {secret.to} was passed {_cards(secret.cards)}."
        case VetoVoteAsked() if secret.chosen is not None:
            return "hands", (f"Chancellor {secret.to} chose {POLICY_NAMES[secret.chosen]} from "
                             f"{_cards(secret.cards)}.")
        case InvestigationResult():
            return "results", (f"{secret.to} learnt that {secret.target}'s party is "
                               f"{secret.party}.")
        case PeekResult():
            return "results", f"{secret.to} saw the top three: {_cards(secret.cards)}."
        case Briefing():
            return "roles", (f"{secret.to} took over the role of {secret.replacing}: "
                             f"{ROLE_WORDS[secret.role]}.")
    return None


def _cards(cards: tuple[Policy, ...]) -> str:
    return "".join(cards)


def board_parts(view: PublicView) -> list[str]:
    """The board picture as :func:`shmod.texts.board_image.svg` writes it, line by line."""
    return board_image.svg(view).splitlines()

