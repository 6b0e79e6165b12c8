"""Whole games for a native reader: every text a player reads, in one file per game.

    python tools/language_games.py OUT                 # every game, in de and pl (and en)
    python tools/language_games.py OUT --language de   # one language
    python tools/language_games.py OUT --game sieben   # one game

Each game is played through the installed ``shmod`` from an empty folder, the clock set
by hand (``SHMOD_NOW``), its steps chosen from the game as it stands so that the features
a reader must see come up: every power, vetoes accepted, refused and let lapse (and the
secret vote's both ways), every kind of lapse, claims true, false and in conflict,
corrections plain and forced, a rename, backups, a replacement and removals, deadlines,
reminders and prods, two moderators and a hand-over, the outbox's misdeliveries, then
every PM again, the rules card, the history (list and grid), the reveal, the game in one
post, the replay page's words, the board's alt text and the stats of all the games. What
each command printed for the players (a PM with its subject line, as ``shmod send``
gives it) goes to ``OUT/<game>.<language>.txt``, under the command that made it;
moderator-only output (refusals, ``send``'s address line, headings) is left out or marked.

The same seeds give the same games in every language, so the files of two languages can
be read side by side. ``tests/test_language_games.py`` plays them and checks what they
must show.
"""
from __future__ import annotations

import argparse
import html
import json
import os
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from shmod.forum.table import Table as Tabled
from shmod.game import legal
from shmod.game.events import Investigated
from shmod.game.terms import (
    DISCARD,
    ENACT,
    NOMINATE,
    OVER,
    POWER,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
)
from shmod.log import store

SHMOD = Path(sys.executable).parent / "shmod"
LANGUAGES = ("en", "de", "pl")
START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


@dataclass
class Table:
    """The installed shmod in one folder, for one game; ``said``: what it printed for
    the players, each under the command that made it."""

    folder: Path
    name: str
    code: str
    moderator: str | None = None
    clock: datetime = START
    said: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)

    @property
    def log(self) -> Path:
        return self.folder / "games" / f"{self.name}.yaml"

    def run(self, *args: str, code: int = 0, keep: bool = True, minutes: int = 20) -> str:
        """Run ``shmod ARGS`` at the table's clock (moved on ``minutes`` after); keep what
        it printed on stdout for the players."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
        env.update(SHMOD_GAME=str(self.log), SHMOD_NOW=self.clock.strftime("%Y-%m-%dT%H:%M:%SZ"),
                   COLUMNS="100", SHMOD_CACHE="off")
        if self.moderator:
            env["SHMOD_MODERATOR"] = self.moderator
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=env, text=True,
                              capture_output=True, timeout=120)
        if done.returncode != code or "Traceback" in done.stderr:
            raise SystemExit(f"{self.name}/{self.code}: shmod {' '.join(args)} exited "
                             f"{done.returncode}:\n{done.stdout}\n{done.stderr}")
        self.clock += timedelta(minutes=minutes)
        self.commands.append(" ".join(args))
        if keep and done.stdout.strip():
            self.said.append(f"$ shmod {' '.join(args)}\n{done.stdout.rstrip()}\n")
        return done.stdout

    def note(self, text: str) -> None:
        self.said.append(f"# {text}\n")

    def deliver(self) -> None:
        """Every item the outbox owes, as ``shmod send`` gives each: a PM under its subject
        line (stderr's ``Subject:``), a post alone."""
        for _ in range(200):
            env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
            env.update(SHMOD_GAME=str(self.log),
                       SHMOD_NOW=self.clock.strftime("%Y-%m-%dT%H:%M:%SZ"), SHMOD_CACHE="off")
            if self.moderator:
                env["SHMOD_MODERATOR"] = self.moderator
            done = subprocess.run([str(SHMOD), "send"], cwd=self.folder, env=env, text=True,
                                  capture_output=True, timeout=120)
            if done.returncode or "Traceback" in done.stderr:
                raise SystemExit(f"{self.name}/{self.code}: send: {done.stderr}")
            if not done.stdout.strip():
                return
            head = [line for line in done.stderr.splitlines()
                    if line.startswith(("PM to", "post ", "withdrawal of post"))]
            self.said.append("$ shmod send  [" + " | ".join(head) + "]\n"
                             + done.stdout.rstrip() + "\n")
        raise SystemExit("the outbox never emptied")

    def state(self) -> Tabled:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return store.load(str(self.log), warn_edits=False, cache="off").table


# -- choosing steps ----------------------------------------------------------------------


@dataclass
class Plan:
    """What a game's steps prefer: ``fascist``: enact and pass Fascist policies when it
    can; ``nominate``/``target``: pick a seat from the legal ones (the game's state, the
    seats); ``votes``: each round's ballots (state -> {seat: bool}); ``veto``: the answer
    to each veto in turn (accept, refuse, or None to leave it to a lapse)."""

    fascist: bool = True
    nominate: Callable[..., int] | None = None
    target: Callable[..., int] | None = None
    votes: Callable[..., dict[int, bool]] | None = None
    vetoes: list[str | None] = field(default_factory=list)
    propose: Callable[..., bool] | None = None


def _name(st: Tabled, seat: int | None) -> str:
    assert seat is not None, "no player holds that office"
    return st.game.players[seat]


def step(t: Table, plan: Plan) -> None:
    """One step of the game, chosen by ``plan``, then the outbox delivered."""
    st = t.state()
    g = st.game
    if g.phase == NOMINATE:
        seats = legal.nominees(g)
        pick = plan.nominate(st, seats) if plan.nominate else next(
            (s for s in seats if g.roles[s] != "hitler"), seats[0])
        t.run("nominate", _name(st, pick))
    elif g.phase == VOTE:
        wanted = plan.votes(st) if plan.votes else {}
        args = [w for s in legal.voters(g)
                for w in (_name(st, s), "ja" if wanted.get(s, True) else "nein")]
        t.run("vote", *args)
    elif g.phase == DISCARD:
        hand = list(g.hand)
        drop = ("L" if "L" in hand else "F") if plan.fascist else ("F" if "F" in hand else "L")
        t.run("discard", drop)
    elif g.phase == ENACT:
        if legal.can_propose_veto(g) and plan.propose and plan.propose(st):
            t.run("veto", "propose")
        else:
            hand = list(g.hand)
            keep = ("F" if "F" in hand else "L") if plan.fascist else ("L" if "L" in hand else "F")
            t.run("enact", keep)
    elif g.phase == VETO_ANSWER:
        answer = plan.vetoes.pop(0) if plan.vetoes else "accept"
        if answer is None:
            lapse(t)
        else:
            t.run("veto", answer)
    elif g.phase == VETO_VOTE:
        answer = plan.vetoes.pop(0) if plan.vetoes else "nein"
        if answer is None:
            lapse(t)
        else:
            for seat in legal.veto_voters(g):
                t.run("veto", answer, "--by", _name(st, seat))
                st = t.state()
                if st.game.phase != VETO_VOTE:
                    break
                answer = (plan.vetoes.pop(0) if plan.vetoes else None) or "nein"
    elif g.phase == POWER:
        power = g.power
        if power == "peek":
            t.run("peek")
        elif power is not None:
            seats = legal.power_targets(g, power)
            pick = plan.target(st, seats) if plan.target else next(
                (s for s in seats if g.roles[s] != "hitler"), seats[0])
            t.run({"investigate": "investigate", "special_election": "special-election",
                   "execute": "execute"}[power], _name(st, pick))
    else:
        raise SystemExit(f"{t.name}: no step for phase {g.phase}")
    t.deliver()


def lapse(t: Table, hours: int = 2) -> None:
    """A deadline an hour away, then its lapse once it has passed."""
    t.run("deadline", "1h")
    t.deliver()
    t.clock += timedelta(hours=hours)
    t.run("lapse")
    t.deliver()


def until(t: Table, plan: Plan, done: Callable[..., bool], limit: int = 80) -> None:
    """Steps by ``plan`` until ``done(state)`` or the game is over."""
    for _ in range(limit):
        st = t.state()
        if st.game.phase == OVER or done(st):
            return
        step(t, plan)
    raise SystemExit(f"{t.name}: never got there")


def finish(t: Table, plan: Plan) -> None:
    until(t, plan, lambda st: False, limit=200)


def epilogue(t: Table, out: Path) -> None:
    """What is read after the game: every PM again, the rules card, the history, the
    reveal, the game in one post, the replay page's words, the board's alt text."""
    st = t.state()
    for name in st.game.players:
        t.run("pm", name)
    t.run("rules")
    t.run("history")
    t.run("history", "--grid")
    t.run("reveal")
    t.run("replay", "--post")
    page = out / f"{t.name}.{t.code}.html"
    t.run("replay", "-o", str(page), keep=False)
    t.said.append("$ shmod replay -o PAGE  [the page's words]\n" + page_words(page) + "\n")
    said = t.run("board", "--png", str(out / f"{t.name}.{t.code}.png"), keep=False)
    t.said.append("$ shmod board --png FILE  [its alt text]\n"
                  + "\n".join(x for x in said.splitlines() if not x.startswith("<")) + "\n")


def page_words(page: Path) -> str:
    """The replay page as a reader sees its words: its text outside the script, then each
    string the script shows (soft hyphens taken out)."""
    text = page.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>',
                                text, re.S).group(1))  # type: ignore[union-attr]
    body = re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.S)
    body = re.sub(r"<[^>]+>", "\n", body)
    lines = [html.unescape(line).strip() for line in body.splitlines()]
    shown = [line for line in lines if line]
    strings = [s for s in data["strings"]
               if isinstance(s, str) and not s.startswith(("<", "data:"))]
    words = [f"{k}: {v}" for k, v in data["words"].items()]
    return "\n".join([*shown, "-- the script's words:", *words, "-- the steps' strings:",
                      *strings]).replace("\u00ad", "")


# -- the games ---------------------------------------------------------------------------

SEVEN = ["Zoë", "Łukasz", "Małgorzata", "Jurgen", "Ömer", "Żaneta", "Björn"]


def sieben(t: Table, out: Path) -> None:
    """Seven players on phpBB: every power of the 7-8 board, a failed vote, a vote that
    lapses, claims, a mistyped nomination and a forced correction, a rename, backups, a
    replacement, a removal although a backup waits, vetoes accepted and refused, the
    outbox's misdeliveries; the Fascists win."""
    t.run("new", *SEVEN, "--language", t.code, "--forum", "phpbb", "--seed",
          "5e7e4b1d9c2a48f0b3d6e1a7c9f2b4d8", "--zone", "Europe/Berlin", "--title", "Freitag",
          "--first", "Zoë", "-V", "late_vote=nein")
    t.deliver()
    t.run("rename", "Jurgen", "Jürgen")
    t.run("backup", "Dörte", "Kekse:)")
    t.deliver()
    plan = Plan(fascist=True)
    st = t.state()
    # a government the table votes down, a mistyped vote voided on the way
    plan.votes = lambda st: {s: False for s in legal.voters(st.game)}
    step(t, plan)  # nominate
    st = t.state()
    t.run("vote", _name(st, legal.voters(st.game)[0]), "ja")
    t.run("correct", "--reason", "typed the wrong name")
    t.deliver()
    t.run("deadline", "2026-11-22 12:00")
    t.run("remind")
    t.run("prods")
    t.deliver()
    step(t, plan)  # the vote: not elected
    plan.votes = None
    step(t, plan)  # nominate
    st = t.state()
    voters = legal.voters(st.game)
    t.run("vote", *(w for s in voters[:4] for w in (_name(st, s), "ja")))
    t.run("deadline", "1h", "--phase")
    t.run("remind")
    t.deliver()
    t.clock += timedelta(hours=2)
    t.run("remind")
    t.run("lapse")  # the others count as Nein
    t.deliver()
    # a session, then claims about it
    until(t, plan, lambda st: st.game.phase == ENACT)
    st = t.state()
    president, chancellor = _name(st, st.game.president), _name(st, st.game.chancellor)
    step(t, plan)
    t.run("claim", president, "FFL", "--passed", "FL")
    t.run("claim", chancellor, "LL")
    t.run("claim", chancellor, "--role", "liberal")
    t.run("post")
    t.deliver()
    # an investigation and its claim
    until(t, plan, lambda st: st.game.phase == POWER)
    st = t.state()
    president = _name(st, st.game.president)
    step(t, plan)
    target = next(ev for ev in reversed(t.state().game.public)
                  if isinstance(ev, Investigated))
    t.run("claim", president, target.target, "fascist")
    # a replacement by the first backup, a rename of a newcomer's typo
    st = t.state()
    leaving = next(s for s in range(7) if st.game.alive[s] and s not in
                   (st.game.president, st.game.chancellor))
    t.run("replace", _name(st, leaving))
    t.deliver()
    # the Special Election, an execution voided after it was posted, done again
    until(t, plan, lambda st: st.game.phase == POWER and st.game.power == "execute")
    step(t, plan)
    t.run("correct", "--force", "--reason", "the President named another player by PM")
    t.deliver()
    step(t, plan)
    # a removal although a backup waits, while the game waits for a vote
    until(t, plan, lambda st: st.game.phase == VOTE)
    st = t.state()
    leaving = next(s for s in legal.voters(st.game)
                   if s not in (st.game.president, st.game.chancellor))
    t.run("remove", "--force", _name(st, leaving), "--reason", "left the forum")
    t.deliver()
    # the outbox's misdeliveries: a PM to the wrong player, a post by PM, a PM in the thread
    until(t, plan, lambda st: st.game.phase == DISCARD, limit=20)
    st = t.state()
    owed = t.run("outbox", keep=False)
    del owed
    step_items(t)
    # vetoes: one accepted, one refused
    plan.propose = lambda st: True
    plan.vetoes = ["accept", "refuse"]
    until(t, plan, lambda st: not plan.vetoes and st.game.phase != VETO_ANSWER)
    plan.propose = None
    finish(t, plan)
    epilogue(t, out)


def step_items(t: Table) -> None:
    """The outbox's three misdeliveries (R-MISSENT), then the items as they should go."""
    st = t.state()
    g = st.game
    t.run("discard", "L" if "L" in g.hand else "F")  # the Chancellor's PM waits
    chancellor = _name(st, g.chancellor)
    other = next(n for s, n in enumerate(g.players) if g.alive[s] and n != chancellor)
    t.run("send", chancellor, "--wrong", "--to", other)
    t.run("send", chancellor, "--wrong", "--to", "thread")
    t.deliver()
    g = t.state().game
    t.run("enact", "F" if "F" in g.hand else "L")
    t.run("send", "thread", "--wrong", "--to", other)
    t.deliver()


FIVE = ["Ann", "Zoë", "Małgorzata", "Jürgen", "Ścibor"]
WORDS = {"Ann": "Käsekuchen", "Zoë": "Grüß Gott!", "Małgorzata": "Żółć",
         "Jürgen": "Straße", "Ścibor": "łódź42"}


def fuenf(t: Table, out: Path) -> None:
    """Five players on Discourse, dealt from their words: a nomination, a vote, a
    discard, an enactment and an execution's target lapse; a Policy Peek and its claim;
    Hitler elected Chancellor wins."""
    t.run("new", *FIVE, "--language", t.code, "--forum", "discourse", "--deal", "players",
          "-V", "late_nomination=fail", "-V", "late_vote=nein", "-V", "late_choice=random",
          "-V", "term5=seated", "--zone", "Europe/Warsaw", "--title", "Piątek",
          "--seed", "c4e1a97f3b2d48e6a05f9c1b7d3e8a26")
    t.deliver()
    t.run("word", "Ann", WORDS["Ann"], "Zoë", WORDS["Zoë"])
    t.run("post")
    t.deliver()
    t.run("word", *(w for n in FIVE[2:] for w in (n, WORDS[n])))
    t.deliver()
    plan = Plan(fascist=True)
    lapse(t)  # the nomination
    step(t, plan)  # nominate
    lapse(t)  # the votes: Nein
    step(t, plan)
    step(t, plan)
    lapse(t)  # the discard
    lapse(t)  # the enactment
    until(t, plan, lambda st: st.game.phase == POWER and st.game.power == "peek")
    st = t.state()
    president = _name(st, st.game.president)
    step(t, plan)
    t.run("claim", president, "FLF", "--peek")
    until(t, plan, lambda st: st.game.phase == POWER and st.game.power == "execute")
    lapse(t)  # the execution's target
    st = t.state()
    hitler = st.game.roles.index("hitler")
    if st.game.alive[hitler]:
        plan.nominate = lambda st, seats: hitler if hitler in seats else seats[0]
    finish(t, plan)
    epilogue(t, out)


SIX = ["Bartłomiej Ząbek", "Mia Straßer", "Łukasz", "Dörte", "Zoë", "Kekse:)"]
CUSTOM = """powers: [investigate, peek, special_election, execute, execute]
veto_zone: 1
deck: {liberal: 6, fascist: 12}
"""


def sechs(t: Table, out: Path) -> None:
    """Six players on XenForo with two moderators and a custom board (the veto from the
    first Fascist policy, under the secret vote; Eva Braun): a third moderator joins and
    leaves, moderation is handed over and taken back, a veto vote lapses, a player is
    removed with nobody to replace them; claims in conflict."""
    (t.folder / "custom.yaml").write_text(CUSTOM)
    t.moderator = "Mo"
    t.run("new", *SIX, "--language", t.code, "--forum", "xenforo", "--custom", "custom.yaml",
          "-V", "veto=secret-vote", "-V", "eva_braun=on", "-V", "late_choice=random",
          "--moderator", "Mo", "--moderator", "Nia", "--seed",
          "8f3a6c1e95d240b7a1c4e8f2d6b3907e", "--first", "Mia Straßer")
    t.deliver()
    t.run("moderators", "Pat")
    t.deliver()
    t.run("handover", "Nia")
    said = t.run("send", "--preview", keep=False)  # the outgoing moderator may not record
    line = next(x for x in said.splitlines() if x.startswith("Log checkpoint"))
    t.moderator = "Nia"
    t.run("handover", "--accept", line)
    t.deliver()
    plan = Plan(fascist=True)
    until(t, plan, lambda st: st.game.phase == ENACT and st.game.fascist >= 1)
    st = t.state()
    president, chancellor = _name(st, st.game.president), _name(st, st.game.chancellor)
    step(t, plan)  # the Chancellor's choice, then the secret veto vote
    plan.vetoes = ["ja", "ja"]
    step(t, plan)  # both Ja: vetoed
    t.run("claim", president, "FFF")
    t.run("claim", chancellor, "FL")
    t.run("post")
    t.deliver()
    until(t, plan, lambda st: st.game.phase == VETO_VOTE)
    plan.vetoes = ["ja", "nein"]
    step(t, plan)  # the veto fails
    until(t, plan, lambda st: st.game.phase == VETO_VOTE)
    plan.vetoes = [None]
    step(t, plan)  # the veto vote lapses
    t.run("handover", "Mo")
    said = t.run("send", "--preview", keep=False)  # the outgoing moderator may not record
    line = next(x for x in said.splitlines() if x.startswith("Log checkpoint"))
    t.moderator = "Mo"
    t.run("handover", "--accept", line)
    t.deliver()
    t.run("moderators", "--drop", "Pat")
    t.deliver()
    until(t, plan, lambda st: st.game.phase == VOTE)
    st = t.state()
    leaving = next(s for s in legal.voters(st.game) if st.game.roles[s] != "hitler"
                   and s not in (st.game.president, st.game.chancellor))
    t.run("remove", _name(st, leaving), "--reason", "no longer answers")
    t.deliver()
    st = t.state()
    hitler = st.game.roles.index("hitler")

    def nominate(st: Tabled, seats: list[int]) -> int:
        even = sum(st.game.alive) % 2 == 0
        plan.fascist = st.game.fascist < 4  # then Liberal policies, until Hitler can run
        if hitler in seats and st.game.fascist >= 3 and even:
            return hitler
        return next((s for s in seats if s != hitler), seats[0])

    def votes(st: Tabled) -> dict[int, bool]:
        seats = legal.voters(st.game)
        if st.game.chancellor != hitler:
            return {s: True for s in seats}
        return {s: n < len(seats) // 2 for n, s in enumerate(seats)}  # a tie: Eva Braun

    plan.nominate, plan.votes = nominate, votes
    finish(t, plan)
    epilogue(t, out)


GAMES: dict[str, Callable[[Table, Path], None]] = {"sieben": sieben, "fuenf": fuenf,
                                                   "sechs": sechs}


def stats(code: str, folder: Path, out: Path) -> str:
    """The stats of the played games, with simulated ones beside them (a closed group)
    and one left unfinished long ago (abandoned), in every profile's post and a page."""
    old = Table(folder, "verlassen", code, clock=datetime(2026, 9, 1, 18, 0, tzinfo=UTC))
    old.log.unlink(missing_ok=True)
    old.run("new", *SEVEN, "--language", code, "--seed", "9b2e7d4a1c6f38e05a9d2b7c4e1f6a83")
    old.run("nominate", SEVEN[3])  # then nobody came back: abandoned
    t = Table(folder, "stats", code)
    sim = folder / "games" / "sim"
    if not sim.exists():
        t.run("simulate", str(sim), "-n", "10", "-p", "5", "--seed", "7", keep=False)
    say = []
    for args in (("--post", "-f", "phpbb"), ("--post", "-f", "discourse"),
                 ("--post", "-f", "plain"), ("--player", "Zoë"), ()):
        said = t.run("stats", str(folder / "games"), "--language", code, *args,
                     "--png", str(out / f"stats.{code}.png"))
        say.append(f"$ shmod stats {' '.join(args)}\n{said}")
    return "\n".join(say)


def play(name: str, code: str, out: Path, root: Path) -> Path:
    folder = root / code
    (folder / "games").mkdir(parents=True, exist_ok=True)
    t = Table(folder, name, code)
    t.log.unlink(missing_ok=True)
    GAMES[name](t, out)
    path = out / f"{name}.{code}.txt"
    path.write_text("\n".join(t.said))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--language", action="append", choices=LANGUAGES)
    parser.add_argument("--game", action="append", choices=list(GAMES))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    root = args.out / "folders"
    for code in args.language or LANGUAGES:
        for name in args.game or list(GAMES):
            print(play(name, code, args.out, root))
        if not args.game:
            (args.out / f"stats.{code}.txt").write_text(stats(code, root / code, args.out))


if __name__ == "__main__":
    main()
