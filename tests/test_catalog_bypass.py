"""Issue 33: no word a player reads bypasses the catalog, and a longer language breaks no
layout.

Whole games are played entry by entry: the shipped logs (``games/``, ``tests/logs/``)
replayed, and random forum games from a fixed seed (every house rule, custom boards,
deals from the players' words, deadlines that lapse in every phase, prods, backups,
renames, replacements before and after the deal, removals, corrections forced or not,
posts, claims). At every entry each text a player can read is rendered in English and in the
pseudo-language ``qps`` (:mod:`shmod.texts.catalog`), in all seven profiles: the opening
post, each new event's words, whole posts with their checkpoint line, whose move it is
and the progress of a vote, the board, the deadline note, the reminder, every prod and
every PM with its subject line, and the rules card. Two checks, on every text:

(a) **no English left**: ``qps`` accents every letter of a message, so once what is no
    word of shmod's is taken out (players' names and words, the game's title, markup,
    hex values, time zones, rule ids, the ballots Ja and Nein, and the machine-read lines:
    the checkpoint line and the commitment's and key's labels), an ASCII letter left is a
    string that bypassed the catalog; and the ballots, the same in every language, are
    never translated (a message that spells them instead of taking them as a field);
(b) **nothing overflows**: the ``qps`` text with its padding taken out and its letters
    unaccented is the English text exactly, so its longer words forced no line wider
    through a fixed-width layout (a column padded to a translated cell), and broke or
    joined no line.

Another module's texts join in through a function ``(Entry, profile) -> (kind, text)…``
added to :data:`RENDERERS` (what an entry made), :data:`SITUATION` (where the game stands)
or :data:`FINISHED` (once a game is over). ``SHMOD_BYPASS_GAMES`` (default 12) random games
and ``SHMOD_BYPASS_SEED`` run longer campaigns.
"""
from __future__ import annotations

import os
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from claiming import random_claim

from shmod.base.errors import BadInput, IllegalStep
from shmod.forum import deadlines, engine, thread
from shmod.forum.events import (
    Briefing,
    Corrected,
    Lapsed,
    ModeratorsChanged,
    Removed,
    Renamed,
    Replaced,
)
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import (
    Backup,
    Correct,
    Delivered,
    Handover,
    Lapse,
    Moderator,
    Posted,
    Prod,
    Remove,
    Rename,
    Replace,
    SetDeadline,
)
from shmod.forum.table import Table
from shmod.forum.turns import legal_steps
from shmod.game import events as game_events, legal
from shmod.game.legal import voters
from shmod.game.steps import Discard, Enact, Investigate, Nominate, Reshuffle, Step, Veto, Vote
from shmod.game.terms import OVER, VOTE
from shmod.log import checkpoints, store
from shmod.log.checkpoints import COMMITMENT_LABEL, KEY_LABEL
from shmod.texts import catalog, forum_texts, game_texts, messages, pms, thread_posts, views
from shmod.texts.formats import FORMATS, Plain, get as profile

ROOT = Path(__file__).resolve().parent.parent
GAMES = int(os.environ.get("SHMOD_BYPASS_GAMES", "12"))
SEED = int(os.environ.get("SHMOD_BYPASS_SEED", "33"))
T0 = datetime(2026, 11, 23, 10, 0, tzinfo=UTC)
PROFILES = list(FORMATS)
LANGUAGES = (catalog.ENGLISH, catalog.PSEUDO)
#: Names that look like markup, as players choose them.
HOSTILE = ["[b]Bo[/b]", "*Star*", "@Vorret", "A|B #1", "Eve_", "Zoë"]

Texts = Iterator[tuple[str, str]]


@dataclass
class Entry:
    """What the renderers get at one entry: the table, its public view, the events and
    PMs the entry made, the post it marked, the time, the game's title."""

    state: Table
    view: views.PublicView
    events: list[game_events.Public]
    secrets: list[game_events.Secret]
    now: datetime
    title: str
    post: tuple[int, Posted, list[game_events.Public]] | None = None
    sent: dict[str, tuple[game_events.Secret, ...]] = field(default_factory=dict)


def _events(entry: Entry, fmt: Plain) -> Texts:
    for event in entry.events:
        yield f"event:{type(event).__name__}", messages.post_words(entry.view, event, fmt) or ""


def _pms(entry: Entry, fmt: Plain) -> Texts:
    for secret in entry.secrets:
        yield f"pm:{type(secret).__name__}", messages.pm_with_subject(secret, fmt, entry.title)


def _situation(entry: Entry, fmt: Plain) -> Texts:
    """Whose move, the progress of a vote, the board, the deadline, a reminder, prods."""
    view = entry.view
    yield "prompt", game_texts.prompt_text(view, fmt) or ""
    yield "progress", game_texts.pending_vote_text(view, fmt) or ""
    yield "board", game_texts.board_text(view, fmt)
    yield "deadline", forum_texts.deadline_note(view, entry.now, fmt) or ""
    yield "reminder", forum_texts.reminder(view, fmt, entry.now) or ""
    for _name, text in forum_texts.prods(view, fmt, entry.now, entry.sent):
        yield "prod", messages.prod_with_subject(text, fmt, entry.title)


def _post(entry: Entry, fmt: Plain) -> Texts:
    """A whole post as ``shmod post`` prints it, its checkpoint line last."""
    if entry.post is None:
        return
    number, step, events = entry.post
    text = thread_posts.render(entry.state, events, fmt, now=entry.now)
    if step.checkpoint:
        text += "\n\n" + checkpoints.line(number, step.upto, step.checkpoint)
    yield "post", text


def _rules(entry: Entry, fmt: Plain) -> Texts:
    yield "rules", forum_texts.rules_card(entry.view, fmt)


Renderer = Callable[[Entry, Plain], Texts]
#: What an entry made, rendered in every profile and language.
RENDERERS: list[Renderer] = [_events, _pms, _post]
#: Where the game stands, rendered at every entry in one profile, each in turn (the same
#: kinds of text come back at every entry; all seven at each would triple the time).
SITUATION: list[Renderer] = [_situation]
#: What is rendered once a game is over, in every profile.
FINISHED: list[Renderer] = [_rules]


# -- the checks --------------------------------------------------------------------------

_PLAIN, _ACCENTED = catalog._PLAIN, catalog._ACCENTED
UNACCENT = str.maketrans(_ACCENTED, _PLAIN)
PAD = catalog._PAD
MARKUP = re.compile(r"\[/?(?:b|i|u|color|size|list|\*|quote|code|spoiler|table|tr|th|td)\b"
                    r"|\[/?details|</?(?:details|summary)>|#[0-9a-f]{6}\b", re.IGNORECASE)
HEX = re.compile(r"[0-9a-f]{16,}", re.IGNORECASE)
FIXED = re.compile(r"Log checkpoint: (?:post \d+ · )?(?:entry \d+ · )?|"
                   + re.escape(COMMITMENT_LABEL) + "|" + re.escape(KEY_LABEL))
#: Not shmod's words: time zones and their abbreviations, rule ids, the ballots (the same
#: in every language), the subject line's prefix (for the moderator).
FOREIGN = re.compile(r"\bUTC\b|\bCES?T\b|\bE[SD]T\b|\b[A-Z][a-z]+/[A-Za-z_]+\b|\bR(?:-[A-Z0-9]+)+"
                     r"|\b(?:Ja|Nein|ja|nein)\b|^Subject: ", re.MULTILINE)
ASCII_WORD = re.compile(r"[A-Za-z]+")
#: The ballots as the pseudo-language would write them: they are never translated.
BALLOTS_TRANSLATED = re.compile(r"\b(?:Ĵȧ|Ƞḗīƞ)\b")


def english_left(text: str, fmt: Plain, names: Iterable[str]) -> list[str]:
    """The ASCII words a pseudo-language ``text`` in ``fmt`` still holds once what is no
    word of shmod's is taken out: each is a string that bypassed the catalog."""
    text = HEX.sub(" ", FIXED.sub(" ", text))
    for shown in sorted({n for name in names for n in (name, fmt.escape(name))}, key=len,
                        reverse=True):
        text = text.replace(shown, " ")
    text = FOREIGN.sub(" ", MARKUP.sub(" ", text))
    return ASCII_WORD.findall(text)


def words_only(english: str, pseudo: str) -> bool:
    """Whether ``pseudo`` is ``english`` with nothing but its words changed: unaccented and
    without its padding it is the English text, line for line and column for column, but
    where the plain profile folded a quoted line within 80 columns (a longer line folds
    elsewhere: each folded line keeps its ``> ``, issue 44)."""
    return unfolded(pseudo.translate(UNACCENT).replace(PAD, "")) == \
        unfolded(english.translate(UNACCENT).replace(PAD, ""))


def unfolded(text: str) -> str:
    """``text`` with each quoted line the plain profile folded joined again."""
    return text.replace("\n>   ", " ")


# -- the games ---------------------------------------------------------------------------


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Played:
    """A game to render: its header, then each entry's time and step."""

    header: dict[str, object]
    plan: list[tuple[str, Step]]
    recorder: str | None = None  # the moderator who records every entry (R-MODERATORS)


#: Custom boards (docs/variants.md): a changed deck, tracks that start with policies, an
#: early veto, no veto; and five players get a board of investigations, one of which finds
#: nobody left to investigate (R-NO-TARGET).
CUSTOM: list[dict[str, object]] = [
    {"deck": {"liberal": 7, "fascist": 10}, "tracks": {"liberal": 1, "fascist": 1},
     "powers": ["peek", "investigate", "special_election", "execute", "execute"],
     "veto_zone": 2},
    {"deck": {"liberal": 6, "fascist": 12}, "veto_zone": "none"},
    {"tracks": {"liberal": 0, "fascist": 2}, "veto_zone": 1},
]
#: The phases a player makes a choice in, which a lapse draws at random (R-LAPSE).
CHOICES = ("discard", "enact", "veto_answer", "veto_vote", "power")


def random_forum_game(rng: random.Random) -> Played:
    """A random game under random house rules, with the forum's steps among the game's:
    deadlines (local days in another zone) that lapse, prods, backups, renames,
    replacements, removals, corrections forced or not, and posts."""
    count = rng.randint(5, 10)
    names = [f"P{n}" for n in range(1, count + 1)]
    if rng.random() < 0.4:
        names[:len(HOSTILE)] = HOSTILE[:count]
    variants = [f"late_vote={rng.choice(['nein', 'wait'])}",
                f"late_nomination={rng.choice(['fail', 'wait'])}",
                f"late_choice={rng.choice(['random', 'random', 'wait'])}",
                f"veto={rng.choice(['rulebook', 'secret-vote'])}",
                f"eva_braun={rng.choice(['off', 'on'])}", f"term5={rng.choice(['alive', 'seated'])}",
                f"tracker_reset={rng.choice(['enactment', 'election'])}",
                f"first_president={rng.choice(['random', 'seat1'])}"]
    custom = None
    if count == 5 and rng.random() < 0.5:  # soon nobody is left to investigate
        custom = {"powers": ["investigate"] * 5, "veto_zone": 1}
    elif rng.random() < 0.4:
        custom = dict(rng.choice(CUSTOM), hitler_knows_fascists=count > 6)
    elif count in (6, 7, 9) and rng.random() < 0.5:
        variants.append("rebalanced=on")
    header = new_header(names, seed=f"{rng.getrandbits(128):032x}",
                        salt=f"{rng.getrandbits(128):032x}", created=stamp(T0),
                        variants=variants, custom=custom,
                        deal_by=rng.choice(["moderator", "players"]),
                        zone=rng.choice(["UTC", "Europe/Berlin", "America/New_York"]))
    state = start(parse_setup(header))
    plan: list[tuple[str, Step]] = []
    clock, newcomer = T0, 0
    yes = rng.uniform(0.5, 0.85)
    talk = random.Random(repr(names))  # claims (R-CLAIM): a draw of their own
    while state.game.phase != OVER and len(plan) < 500:
        clock += timedelta(minutes=rng.choice([5, 30, 120, 600]))
        roll, found = rng.random(), deadlines.current(state)
        step: Step | None = None
        if state.game.phase in CHOICES and rng.random() < 0.4:  # R-LAPSE's cases
            step = (Lapse(found.entry, stamp(clock), deadlines.drawn(state, state.entries + 1))
                    if found else SetDeadline(stamp(clock + timedelta(minutes=30)), zone="UTC"))
        elif roll < 0.62:
            step = (Vote(rng.choice(voters(state.game)), rng.random() < yes)
                    if state.game.phase == VOTE else rng.choice(legal_steps(state)))
        elif roll < 0.72 and found is None:
            step = SetDeadline(stamp(clock + timedelta(minutes=rng.choice([30, 800]))),
                               zone=header.get("zone") or "UTC",
                               scope=rng.choice(["round", "phase"]))
        elif roll < 0.82 and found is not None:
            step = Lapse(found.entry, stamp(clock), deadlines.drawn(state, state.entries + 1))
        elif roll < 0.84 and found is not None:
            step = SetDeadline(deadlines.CLEAR)
        elif roll < 0.87:
            step = Prod(rng.choice(state.game.living))
        elif roll < 0.88:
            newcomer += 1
            step = Backup(f"Backup{newcomer}", drop=False)
        elif roll < 0.905:
            newcomer += 1
            step = rng.choice([Rename, Replace])(rng.choice(state.game.living), f"New{newcomer}")
        elif roll < 0.915:
            step = Remove(rng.choice(state.game.living), "left the forum")
        elif roll < 0.95:
            last = [n for n, s in state.history if not isinstance(s, Reshuffle)]
            if last:
                step = Correct((rng.choice(last[-3:]),), "a typo", force=rng.random() < 0.6)
        elif thread.news(state):
            step = Posted(state.entries)
        if step is None:
            continue
        state.clock = stamp(clock)
        try:
            engine.apply(state, step)  # a refused step leaves the table as it was
        except (IllegalStep, BadInput):
            continue
        plan.append((stamp(clock), step))
        said = random_claim(state, talk) if talk.random() < 0.12 else None
        if said is not None:
            engine.apply(state, said)
            plan.append((stamp(clock), said))
    return Played(header, plan)


def directed_game() -> Played:
    """What random play seldom reaches, played on purpose: five players, an investigation
    on every Fascist slot and the veto from the first, a deck of Fascist policies; the
    first nomination lapses (a failed election, R-LAPSE), a nomination and a discard are
    voided as mistyped (R-CORRECT), the fifth Chancellor proposes a veto that the
    President lets lapse (refused), and the fifth investigation finds nobody left to
    investigate (R-NO-TARGET)."""
    header = new_header(["Ann", "Bob", "Cat", "Dan", "Eve"], seed="d" * 32, salt="e" * 32,
                        created=stamp(T0), variants=["late_choice=random", "late_nomination=fail"],
                        custom={"deck": {"liberal": 2, "fascist": 14},
                                "powers": ["investigate"] * 5, "veto_zone": 1})
    state = start(parse_setup(header))
    plan: list[Step] = []

    def lapse(until: str) -> list[Step]:
        set_it = SetDeadline(until, zone="Europe/Berlin")
        engine.apply(state, set_it)
        return [set_it, Lapse(state.entries, "2026-11-27T12:00:00Z")]

    while state.game.phase != OVER and len(plan) < 200:
        game = state.game  # a correction rebuilds it
        hand, done = game.hand, {type(s) for s in plan}
        steps: list[Step]
        if game.phase == "nominate" and Lapse not in done:
            steps = lapse("2026-11-24T23:30:00Z")
        elif game.phase == "nominate":
            steps = [Nominate(game.president, next(
                s for s in legal.nominees(game) if game.roles[s] != "hitler"))]
            if Correct not in done:
                steps += [Correct((state.entries + 1,), "a typo")]
        elif game.phase == VOTE:
            steps = [Vote(voters(game)[0], True)]
        elif game.phase == "discard":
            steps = [Discard(game.president, "L" if "L" in hand else "F")]
            if game.fascist == 1 and sum(isinstance(s, Correct) for s in plan) == 1:
                # the Chancellor's two delivered (issue 40), so the correction retracts them
                steps += [Delivered("the discard", game.players[game.chancellor_seat()],
                                    "hand", entry=state.entries + 1),
                          Correct((state.entries + 1,), "a typo")]
        elif game.phase == "enact" and game.fascist == 4 and Veto not in done:
            steps = [Veto(game.chancellor_seat(), "propose")]
        elif game.phase == "veto_answer":
            steps = lapse("2026-11-26T12:00:00Z")  # the veto, unanswered: refused
        elif game.phase == "enact":
            steps = [Enact(game.chancellor_seat(), "F" if "F" in hand else "L")]
        elif game.phase == "power":  # never the President of the fifth power
            fifth = (game.president + 5 - game.fascist) % 5
            steps = [Investigate(game.president, next(
                t for t in legal.power_targets(game, "investigate") if t != fifth))]
        else:
            steps = [legal_steps(state)[0]]
        for step in steps[1 if isinstance(steps[0], SetDeadline) else 0:]:
            engine.apply(state, step)
        plan += steps
    return Played(header, [(stamp(T0), step) for step in plan])


def moderated_game() -> Played:
    """Two moderators (R-MODERATORS, R-HANDOVER): a third joins, moderation is handed over
    and taken back, the third leaves; the nominee is removed during the vote, which ends
    the round as a failed election (R-MODKILL). Each step is recorded by a moderator."""
    header = new_header(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], seed="7" * 31 + "1",
                        salt="8" * 31 + "2", created=stamp(T0), moderators=["Mo", "Nia"])
    state = start(parse_setup(header))
    game = state.game
    nominee = next(s for s in legal.nominees(game))
    plan: list[Step] = [Nominate(game.president, nominee), Vote(game.president, True),
                        Moderator("Pat"), Handover("Nia"), Handover("Mo"),
                        Moderator("Pat", drop=True), Remove(nominee, "left the forum")]
    return Played(header, [(stamp(T0), step) for step in plan], recorder="Mo")


def shipped() -> list[Path]:
    return sorted(ROOT.glob("games/*.yaml")) + sorted(ROOT.glob("tests/logs/*.yaml"))


@dataclass
class Corpus:
    """What rendering the games found: every problem, and how often each kind of text
    (and each case of one) was rendered."""

    problems: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    pairs: int = 0

    def check(self, entry: Entry, names: set[str], turn: int) -> None:
        """Every text of ``entry`` in every profile (where the game stands in the
        ``turn``-th profile only), both checks."""
        for number, name in enumerate(PROFILES):
            renderers = RENDERERS + (SITUATION if turn % len(PROFILES) == number else []) + (
                FINISHED if entry.state.game.phase == OVER else [])
            made = {lang: [(kind, text) for render in renderers
                           for kind, text in render(entry, profile(name, lang=lang)) if text]
                    for lang in LANGUAGES}
            english, pseudo = made[catalog.ENGLISH], made[catalog.PSEUDO]
            assert [k for k, _ in english] == [k for k, _ in pseudo]
            fmt = profile(name, lang=catalog.PSEUDO)
            for (kind, en), (_, qps) in zip(english, pseudo):
                self.kinds[kind] += 1
                self.pairs += 1
                left = english_left(qps, fmt, names)
                if left and len(self.problems) < 20:
                    self.problems.append(f"{kind} in {name}: English {left[:5]} left in "
                                         f"{qps!r}")
                if BALLOTS_TRANSLATED.search(qps) and len(self.problems) < 20:
                    self.problems.append(f"{kind} in {name}: a ballot translated in {qps!r}")
                if not words_only(en, qps) and len(self.problems) < 20:
                    self.problems.append(f"{kind} in {name}: the layout changed:\n{en}\n{qps}")


def _cases(corpus: Corpus, entry: Entry) -> None:
    """The cases of a kind the corpus must show: each lapse's phase, whom a correction
    left the game waiting for, each kind of voided step and of a seat's deed, removals."""
    for event in entry.events:
        if isinstance(event, Lapsed):
            corpus.kinds[f"lapse:{event.phase}"] += 1
        elif isinstance(event, Corrected):
            corpus.kinds[f"waiting:{event.waiting.phase}"] += 1
            corpus.kinds[f"correction:{'forced' if event.forced else 'mistyped'}"] += 1
            for _, step in event.voided:
                corpus.kinds[f"voided:{step.kind}"] += 1
        elif isinstance(event, Removed):
            how = "hitler" if event.hitler else "ends" if event.ends_round else "seat"
            corpus.kinds[f"removed:{how}"] += 1
    for secret in entry.secrets:
        if isinstance(secret, Briefing):
            corpus.kinds[f"briefing:{'awaited' if secret.awaited else 'idle'}"] += 1
            for deed in secret.did:
                corpus.kinds[f"deed:{deed.step.kind}"] += 1


def _names(state: Table, names: set[str]) -> set[str]:
    """Every name and word players chose so far: seated, replaced, renamed, backups,
    words for the deal, and the moderators' names."""
    names.update(state.game.players, state.backups, state.words.values(), state.moderators)
    for event in state.public:
        if isinstance(event, (Renamed, Replaced)):
            names.update((event.old, event.new))
        elif isinstance(event, ModeratorsChanged):
            names.add(event.name)
    return names


def _now(view: views.PublicView, turn: int) -> datetime:
    """When to render: before a deadline in force (hours and minutes left) or after it
    (days and hours ago), in turn; without one, any time."""
    if view.deadline is None:
        return T0
    until = deadlines.utc(view.deadline[0])
    return (until - timedelta(hours=2, minutes=5) if turn % 2 else
            until + timedelta(days=1, hours=3))


def render_game(corpus: Corpus, header: dict[str, object], plan: Iterable[tuple[str, Step]],
                title: str, recorder: str | None = None) -> None:
    """Play ``plan`` from ``header`` (each entry recorded by ``recorder``), rendering every
    text at every entry."""
    state = start(parse_setup(header))
    state.recorder = recorder
    names: set[str] = {title}
    public = secrets = posted = 0
    for turn, (at, step) in enumerate([("", None), *plan]):
        pending = thread.news(state) if isinstance(step, Posted) else []
        if step is not None:
            state.clock = at
            engine.apply(state, step)
        view = views.public_view(state)
        sent = ({n: views.player_view(state, n).secrets for n in view.waiting_on}
                if state.game.phase in ("discard", "enact") else {})  # a prod names the hand
        post = None
        if isinstance(step, Posted):
            posted += 1
            post = (posted, step, pending)
        entry = Entry(state, view, state.public[public:], state.secrets[secrets:],
                      _now(view, turn), title, post, sent)
        corpus.check(entry, _names(state, names), turn)
        _cases(corpus, entry)
        public, secrets = len(state.public), len(state.secrets)


def _plan_of(game: store.Loaded) -> list[tuple[str, Step]]:
    """A shipped log's entries as steps, each at its recorded time."""
    out: list[tuple[str, Step]] = []

    def watch(number: int, step: Step, state: Table) -> None:
        out.append((state.clock or "", step))
    store.replay(game.log, watch=watch)
    return out


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    made = Corpus()
    for path in shipped():
        game = store.load(str(path))
        render_game(made, game.log.header, _plan_of(game), pms.title(str(path), game.log.header))
    made_on_purpose = directed_game()
    render_game(made, made_on_purpose.header, made_on_purpose.plan, "Friday")
    moderated = moderated_game()
    render_game(made, moderated.header, moderated.plan, "Friday", moderated.recorder)
    rng = random.Random(SEED)
    for _ in range(GAMES):
        played = random_forum_game(random.Random(rng.getrandbits(64)))
        render_game(made, played.header, played.plan, "Friday")
    return made


def test_no_english_word_is_left_and_no_layout_changes(corpus: Corpus) -> None:
    """(a) and (b) over every text of every game, in every profile."""
    assert corpus.problems == []
    assert corpus.pairs > 10_000, corpus.pairs


def test_the_games_show_every_kind_of_text(corpus: Corpus) -> None:
    """Every public event and every PM of the game and the forum, whole posts, whose
    move, the board, deadlines, reminders, prods and the rules card, with every lapse,
    removals of each kind, corrections of each kind and the briefing's deeds."""
    def subclasses(cls: type) -> set[str]:
        return {n for sub in cls.__subclasses__() for n in (sub.__name__, *subclasses(sub))}

    wanted = {f"event:{n}" for n in subclasses(game_events.Public)}
    wanted |= {f"pm:{n}" for n in subclasses(game_events.Secret)}
    wanted |= {"prompt", "progress", "board", "deadline", "reminder", "prod", "post", "rules"}
    wanted |= {f"lapse:{phase}" for phase in ("vote", "nominate", "discard", "enact",
                                              "veto_answer", "veto_vote", "power")}
    wanted |= {"removed:hitler", "removed:seat", "removed:ends", "correction:forced",
               "correction:mistyped", "briefing:awaited", "briefing:idle",
               "voided:nominate", "voided:vote", "voided:discard", "voided:enact",
               "deed:vote", "deed:nominate", "deed:discard", "deed:enact"}
    missing = sorted(k for k in wanted if not corpus.kinds[k])
    assert missing == [], missing


def test_the_checks_catch_a_word_that_bypassed_the_catalog() -> None:
    """An English word left in a pseudo-language text is found, a player's name or a
    machine-read line is not; a layout padded to a longer word is found."""
    fmt = profile("bbcode", lang=catalog.PSEUDO)
    t = fmt.lang
    made = t._("President {president} and Chancellor {chancellor} enacted a "
               "{on}Liberal{off} policy.", president=fmt.bold("Ann"),
               chancellor=fmt.bold(fmt.escape("[b]Bo[/b]")), on="[b]", off="[/b]")
    assert english_left(made, fmt, {"Ann", "[b]Bo[/b]"}) == []
    assert english_left(made + " Election Tracker: 1/3", fmt, {"Ann", "[b]Bo[/b]"}) == [
        "Election", "Tracker"]
    assert english_left(checkpoints.line(3, 12, "ab" * 40), fmt, ()) == []
    assert english_left(f"{COMMITMENT_LABEL} ({t._('the end')}): {'c' * 64}", fmt, ()) == []
    assert english_left("Ann", fmt, ()) == ["Ann"]
    assert BALLOTS_TRANSLATED.search(t._("counted as voting Nein."))
    assert not BALLOTS_TRANSLATED.search(t._("counted as voting {nein}.", nein="Nein"))
    english = "Round  Ann\n1      Ja"
    assert words_only(english, t._("Round") + "  Ann\n1      Ja")
    assert not words_only(english, t._("Round") + "     Ann\n1         Ja")


def test_a_deadline_reads_in_the_games_language_whatever_the_computers_locale() -> None:
    """The local day of a deadline is spelt from the catalog, not by the C library's
    locale (strftime's %a and %b, English in the C locale: the pseudo-language would show
    it), and a time zone this computer lacks is said in the game's language too."""
    qps = catalog.get(catalog.PSEUDO)
    english = catalog.get(catalog.ENGLISH)
    until = "2026-11-23T23:30:00Z"
    assert forum_texts.when_text(until, "Europe/Berlin", english) == \
        "2026-11-23 23:30 UTC (Tue 24 Nov 00:30 CET, Europe/Berlin)"
    made = forum_texts.when_text(until, "Europe/Berlin", qps)
    assert "Ŧŭḗ" in made and "Ƞǿṽ" in made and not english_left(made, Plain(qps), ())
    unknown = forum_texts.when_text(until, "Mars/Olympus_Mons", qps)
    assert unknown.startswith("2026-11-23 23:30 UTC") and not english_left(
        unknown, Plain(qps), ())
    assert words_only(forum_texts.when_text(until, "Mars/Olympus_Mons", english), unknown)


def test_the_opening_post_in_any_language_audits_as_in_english(tmp_path: Path) -> None:
    """The commitment and the key keep their fixed labels beside the translated words: the
    thread audit finds them in the opening post of a pseudo-language game, as posted (it
    ends with its own checkpoint line), in every profile."""
    made = store.new_game(str(tmp_path / "g.yaml"), ["Ann", "Bob", "Cat", "Dan", "Eve"],
                          seed="5e0c3a97d1b24f68a0c9e7d3b51f2a84", created=stamp(T0),
                          language=catalog.PSEUDO)
    for name in PROFILES:
        text = thread_posts.earlier_post(made, 1, profile(name, lang=catalog.PSEUDO)).text
        found = checkpoints.opening(checkpoints.readable(text))
        assert (found.commitment, found.key) == (made.setup.commitment,
                                                 made.setup.moderator_key), name
