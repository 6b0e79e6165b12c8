"""Issue 25: property tests of the forum layer, of the kind the rules have. Over random
games under random house rules, with random forum steps among the game's own (deadlines
set, cleared and lapsed, prods, backups, renames, replacements, corrections):

(a) inserting bookkeeping entries (prods, backups, deadlines set and cleared, posts)
    anywhere changes no outcome, no deal and no random draw (R-DEAL, R-LAPSE);
(b) a rename or a replacement at any moment changes no deal and no draw;
(c) ``correct N`` leaves exactly the state of a log in which step N (and what it voided
    with it) was never recorded, forum state included (R-CORRECT);
(d) no deadline lapses twice (R-LAPSE).

A random lapse records its choice; replaying a changed plan re-checks it against the
seed, so a draw that moved would be refused. Fixed seed and budget in CI;
``SHMOD_FORUM_GAMES`` (default 40) and ``SHMOD_FORUM_SEED`` run longer campaigns.
"""
from __future__ import annotations

import os
import random
from datetime import datetime, timedelta

from shmod.base.errors import IllegalStep
from shmod.base.records import replace
from shmod.forum import deadlines, engine, thread
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import Backup, Correct, Lapse, Posted, Prod, Rename, Replace, SetDeadline
from shmod.forum.table import Table as State
from shmod.forum.turns import legal_steps, waiting_for
from shmod.game.legal import voters
from shmod.game.steps import Reshuffle, Step, Vote
from shmod.game.terms import OVER, VOTE

GAMES = int(os.environ.get("SHMOD_FORUM_GAMES", "40"))
SEED = int(os.environ.get("SHMOD_FORUM_SEED", "25"))
T0 = datetime(2026, 11, 23, 10, 0)
Plan = list[tuple[str, Step]]


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Game:
    """A random game's header and its plan: each entry's time and step, all legal."""

    def __init__(self, rng: random.Random, *, corrections: bool = True) -> None:
        count = rng.randint(5, 10)
        self.names = [f"P{n}" for n in range(1, count + 1)]
        variants = [f"late_vote={rng.choice(['nein', 'wait'])}",
                    f"late_nomination={rng.choice(['fail', 'wait'])}",
                    f"late_choice={rng.choice(['random', 'random', 'wait'])}"]
        self.header = new_header(self.names, seed=f"{rng.getrandbits(128):032x}",
                                 salt=f"{rng.getrandbits(128):032x}", created=stamp(T0),
                                 variants=variants,
                                 deal_by=rng.choice(["moderator", "players"]))
        self.plan: Plan = []
        self.seated: list[tuple[str, ...]] = []  # the names seated before each entry
        state = self.start()
        clock, newcomer = T0, 0
        yes = rng.uniform(0.5, 0.85)
        while state.game.phase != OVER and len(self.plan) < 400:
            clock += timedelta(minutes=rng.choice([0, 5, 30, 120, 600]))
            at = stamp(clock)
            roll = rng.random()
            found = deadlines.current(state)
            if roll < 0.7:
                step: Step = (Vote(rng.choice(voters(state.game)), rng.random() < yes)
                              if state.game.phase == VOTE else rng.choice(legal_steps(state)))
            elif roll < 0.78 and found is None:
                step = SetDeadline(stamp(clock + timedelta(minutes=rng.choice([30, 300]))),
                                   zone="UTC", scope=rng.choice(["round", "phase"]))
            elif roll < 0.86 and found is not None:
                step = Lapse(found.entry, at, deadlines.drawn(state, state.entries + 1))
            elif roll < 0.89:
                step = Prod(rng.choice(waiting_for(state).seats or (0,)))
            elif roll < 0.92:
                newcomer += 1
                step = Backup(f"Backup{newcomer}")
            elif roll < 0.94:
                newcomer += 1
                step = rng.choice([Rename, Replace])(rng.choice(state.game.living),
                                                     f"New{newcomer}")
            else:
                last = [n for n, s in state.history if not isinstance(s, Reshuffle)]
                if not last or not corrections:
                    continue
                step = Correct((rng.choice(last[-3:]),), "a typo", force=True)
            seated = state.game.players
            if self.apply(state, at, step):
                self.plan.append((at, step))
                self.seated.append(seated)
        self.state = state

    def start(self) -> State:
        return start(parse_setup(self.header))

    @staticmethod
    def apply(state: State, at: str, step: Step) -> bool:
        state.clock = at
        try:
            engine.apply(state, step)
        except IllegalStep:
            return False
        return True

    def replay(self, plan: Plan) -> State:
        """``plan`` replayed; every step must still stand (a lapse's draw included)."""
        state = self.start()
        for number, (at, step) in enumerate(plan, 1):
            state.clock = at
            try:
                engine.apply(state, step)
            except IllegalStep as err:
                raise AssertionError(f"entry {number} ({step}) no longer stands: {err}") from None
        return state


def renumbered(plan: Plan, where: dict[int, int]) -> Plan:
    """``plan`` with every entry number a step names mapped by ``where``."""
    out: Plan = []
    for at, step in plan:
        if isinstance(step, Lapse):
            step = replace(step, deadline=where[step.deadline])
        elif isinstance(step, Correct):
            step = replace(step, entries=tuple(where[n] for n in step.entries))
        elif isinstance(step, Posted):
            step = replace(step, upto=where[step.upto])
        out.append((at, step))
    return out


def outcome(state: State) -> dict[str, object]:
    """What nobody may steer: the deal, the board, every seat's fate, the winner."""
    return {"roles": state.game.roles, "seed": state.game.seed, "first": state.game.first,
            "draw": list(state.game.draw), "discard": list(state.game.discard), "phase": state.game.phase,
            "round": state.game.round, "president": state.game.president, "chancellor": state.game.chancellor,
            "tracker": state.game.tracker, "policies": (state.game.liberal, state.game.fascist),
            "alive": list(state.game.alive), "investigated": set(state.game.investigated),
            "win": state.game.win and (state.game.win.team, state.game.win.rule, state.game.win.policies),
            "reshuffles": state.game.reshuffles, "hand": list(state.game.hand),
            "words": dict(state.words)}


def games(count: int = GAMES, **options: bool) -> list[Game]:
    rng = random.Random(SEED)
    return [Game(random.Random(rng.getrandbits(64)), **options) for _ in range(count)]


def test_bookkeeping_inserted_anywhere_moves_nothing():
    """(a) Prods, backups, posts and deadlines set then cleared, inserted at random
    places, change no outcome, no deal and no random draw."""
    rng = random.Random(SEED + 1)
    lapses = inserted = 0
    for played in games():
        plan: Plan = []
        where: dict[int, int] = {}
        state = played.start()
        for number, (at, step) in enumerate(played.plan, 1):
            for _ in range(rng.choice([0, 0, 1, 2])):
                for item in _bookkeeping(rng, state, at, len(plan)):
                    assert played.apply(state, *item)
                    plan.append(item)
                    inserted += 1
            where[number] = len(plan) + 1
            (_, moved), = renumbered([(at, step)], where)
            assert played.apply(state, at, moved), (number, step)
            plan.append((at, moved))
        lapses += sum(isinstance(s, Lapse) for _, s in plan)
        assert outcome(state) == outcome(played.state)
    assert inserted > 100 and lapses > 5, (inserted, lapses)


def _bookkeeping(rng: random.Random, state: State, at: str, before: int) -> Plan:
    """One random piece of bookkeeping that is legal now (a prod, a backup, a post, or a
    deadline set and cleared at once)."""
    roll = rng.random()
    if roll < 0.3 and waiting_for(state).seats:
        return [(at, Prod(rng.choice(waiting_for(state).seats)))]
    if roll < 0.5 and len(state.backups) < 40:  # R-BACKUP: a list holds at most 50
        return [(at, Backup(f"Extra{before}"))]
    if roll < 0.75 and thread.news(state):
        return [(at, Posted(state.entries))]
    if state.deadline is None and state.game.phase != OVER:  # none set, or cleared: neutral
        until = stamp(datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ") + timedelta(hours=1))
        return [(at, SetDeadline(until, zone="UTC")), (at, SetDeadline(deadlines.CLEAR))]
    return []


def test_renames_and_replacements_move_no_deal_and_no_draw():
    """(b) A rename or a replacement at any moment: the same deal, the same draws (a
    lapse's recorded choice names a seat as seated then)."""
    rng = random.Random(SEED + 2)
    renamed = 0
    for played in games():
        plan: Plan = []
        where: dict[int, int] = {}
        state = played.start()
        for number, (at, step) in enumerate(played.plan, 1):
            if rng.random() < 0.15 and state.game.phase != OVER:
                renamed += 1
                change = rng.choice([Rename, Replace])(rng.choice(state.game.living),
                                                        f"Renamed{len(plan)}")
                if played.apply(state, at, change):
                    plan.append((at, change))
            where[number] = len(plan) + 1
            (_, moved), = renumbered([(at, step)], where)
            then = played.seated[number - 1]
            if isinstance(moved, Lapse) and moved.choice in then:
                moved = replace(moved, choice=state.game.players[then.index(moved.choice)])
            assert played.apply(state, at, moved), (number, moved)
            plan.append((at, moved))
        assert outcome(state) == outcome(played.state)
    assert renamed > 50


#: What a state holds, with entry numbers taken out (they differ by the correction's own
#: entry and the voided ones): compared between a corrected log and one never written.
def projection(state: State) -> dict[str, object]:
    found = deadlines.current(state)
    return {**outcome(state), "players": state.game.players, "votes": dict(state.game.votes),
            "term": (state.game.term_president, state.game.term_chancellor), "power": state.game.power,
            "special": state.game.special, "anchor": state.game.anchor, "resume": state.game.resume,
            "not_hitler": set(state.game.not_hitler),
            "veto": (state.game.veto_refused, dict(state.game.veto_votes), state.game.chosen),
            "backups": list(state.backups), "prods": [seat for _, seat in state.prods],
            "deadline": None if found is None else (found.until, found.zone, found.scope),
            "lapsed": len(state.lapsed), "removed": sorted(state.removed),
            "replaced": [(s, old, new) for s, old, new, _ in state.replaced],
            "renamed": [(s, old, new) for s, old, new, _ in state.renamed],
            "zone": state.zone, "due": state.due, "dealt": state.dealt is not None}


def test_a_correction_leaves_the_state_of_a_log_without_the_voided_steps():
    """(c) ``correct N`` == a log in which N (and what was voided with it) was never
    recorded, forum state included; N drawn among the last steps in effect."""
    rng = random.Random(SEED + 3)
    compared = 0
    for played in games(corrections=False):
        plan = played.plan[:rng.randint(1, len(played.plan))]
        state = played.replay(plan)
        in_effect = [n for n, s in state.history if not isinstance(s, Reshuffle)]
        if not in_effect:
            continue
        at = plan[-1][0]
        target = rng.choice(in_effect[-4:])
        if not played.apply(state, at, Correct((target,), "a typo", force=True)):
            continue
        voided = set(state.corrections[-1][1])
        kept = [(a, s) for n, (a, s) in enumerate(plan, 1) if n not in voided]
        where = {}
        for n in range(1, len(plan) + 1):
            where[n] = n - sum(v < n for v in voided)
        try:
            never = played.replay(renumbered(kept, where))
        except AssertionError:
            continue  # a prod that stood only for the voided step: kept as sent (R-STALL)
        got, want = projection(state), projection(never)
        assert got == want, (target, voided, {k: (got[k], want[k]) for k in got
                                              if got[k] != want[k]})
        compared += 1
    assert compared > GAMES // 3, compared


def test_no_deadline_lapses_twice():
    """(d) Right after every lapse, a second lapse of the same deadline, at the same
    minute or later, is refused; across every game each deadline lapsed at most once."""
    tried = 0
    for played in games():
        state = played.start()
        for at, step in played.plan:
            assert played.apply(state, at, step)
            if isinstance(step, Lapse) and state.game.phase != OVER:
                tried += 1
                for later in (at, "2030-01-01T00:00:00Z"):
                    again = Lapse(step.deadline, later, deadlines.drawn(state, state.entries + 1))
                    assert not played.apply(state, later, again)
        lapses = [s.deadline for _, s in state.history if isinstance(s, Lapse)]  # in effect
        assert len(lapses) == len(set(lapses)) == len(state.lapsed)
    assert tried > 5, tried
