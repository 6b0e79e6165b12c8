"""Issue 42's two-moderator trial as a script (tests/trials/german-comod.tsv): a ten-player
German Discourse game dealt from the players' words, moderated by Jana and Tomasz, each on
a clone of one private bare repository (``./jana``, ``./tomasz``) with a terminal of their
own (their own ``SHMOD_CACHE``), through the installed ``shmod`` and real git: words and
votes recorded on both clones at once and joined by ``git pull``, a vote recorded alike on
both, a correction, a post race, a replacement, a hand-over, and the rest of the game to the
Fascists' win, the reveal and the published log.

Every text goes through the outbox: where the trial printed posts and PMs (``shmod post``,
``shmod pm --entry``), the script sends what is owed (``send all``: ``shmod send`` until
nothing is owed); the thread is the posts so sent, in order, each withdrawal line added to
the post it withdraws. Recorded exit codes are not asserted: a command the script expects
refused (a step after the hand-over) is part of the game as played.

What was changed from the trial, because shmod now does what the trial had to work around:

- ``git config pull.rebase false`` (twice) is gone: ``shmod git-setup`` sets it, and the
  plain ``git pull`` that exited 128 on diverged clones merges;
- the side test of ``git pull --rebase`` in a copied clone is gone (tests/test_git_pull.py
  runs both flavours);
- after the merge that counted Jürgen's vote once, Jana's terminal is not blocked: her
  ``shmod prods`` records at once, so ``shmod merge --help``, ``shmod merge --mine`` and
  the second ``shmod prods`` are gone;
- in the post race (both made post 5) Tomasz's ``git pull`` merges: his post, delivered
  first, stands, and Jana's is withdrawn, her nomination applied after his deadline. The
  inspection of the conflict and Tomasz's commit keeping his copy, Jana's re-recorded
  nomination, her ``merge --mine`` and ``merge --forget`` are gone; instead Jana pulls,
  ``shmod outbox`` lists her post 5's withdrawal, and ``send all`` gives the withdrawal line
  (added to her post 5 in the thread) and the nomination's post, post 6;
- ``malgorzata``, ``mal``, ``pawel`` and ``lukasz`` find their players, and ``discard
  faschistisch`` is understood, so the retries (seat numbers, ``discard F``) are gone;
- the execution's, the veto's and the replacement's PMs are never on a post's stream, so
  the rows that removed a pasted PM from the thread are gone;
- ``shmod correct 21`` names Björn's vote by its entry number here
  (``{entry:vote:Björn}``): deliveries are entries too, so numbers differ from the trial's; the hand-over
  line is the one the thread shows (``{last checkpoint}``);
- the game's seed is the trial's (its reveal shows it), and like the trial's game it is of
  log format 4, whose deal reads each word as recorded: ``shmod new`` runs as the installed
  ``shmod`` does but with the format it writes pinned to 4 (today's format keys the deal by
  each word's look-alike key, and refuses ``Kekse :)``, a smiley on Discourse), so the same
  words deal the trial's roles and deck; every other command runs through the installed
  ``shmod``, which plays a log by its own format;
- what only inspected files or the terminal (``--help``, ``ls``, ``grep``, ``tail``,
  ``git log``) and what tested other features (the replay page in Chromium, the stats) is
  left out.

It ends with both clones' logs equal, every step any command recorded present in the final
log (a vote both recorded counted once, Jana's post 5 as withdrawn), and the thread auditing
VALID with ``--thread``.
"""
from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from clones import Clone, Thread, bare
from installed import SHMOD

from shmod.log import chain, logfile

TRIAL = Path(__file__).parent / "trials" / "german-comod.tsv"
GAME = "games/spiel.yaml"
#: ``shmod`` with the log format ``new`` writes pinned to 4, the format the trial was played in.
IN_FORMAT_4 = (sys.executable, "-c", "import sys; from shmod.forum import log_formats as f; "
               "f.CURRENT = f.FORMATS[4]; from shmod.cli.main import run; "
               "sys.argv[0] = 'shmod'; run()")

pytestmark = [pytest.mark.skipif(shutil.which("git") is None or not SHMOD.exists(),
                                 reason="git or the installed shmod is missing"),
              pytest.mark.slow]  # a whole game through git: some 300 commands


class Row(NamedTuple):
    """One line of the script."""

    number: int
    who: str
    clock: str
    command: str


def script() -> list[Row]:
    rows = []
    for number, text in enumerate(TRIAL.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip() or text.startswith("#") or text.startswith("who\t"):
            continue
        who, _round, clock, command, _note = text.split("\t")
        rows.append(Row(number, who, clock, command))
    return rows


class Recorded(NamedTuple):
    """An entry a command recorded: the entry, its identity in the log it was written to,
    and for a delivered post, that post's checkpoint."""

    raw: dict[str, Any]
    identity: str
    post: str | None


class Played:
    """The script played: the clones, the thread, and every entry each command recorded."""

    def __init__(self, root: Path) -> None:
        self.root, self.origin = root, bare(root)
        self.clones: dict[str, Clone] = {}
        self.thread = Thread()
        self.commitment = ""
        self.recorded: list[Recorded] = []
        self.seen: dict[str, int] = {}  # how many entries each clone's log had at its last note
        self.rows = 0

    def run(self, row: Row) -> None:
        words = shlex.split(row.command)
        parts: list[list[str]] = [[]]
        for word in words:
            if word == "&&":
                parts.append([])
            else:
                parts[-1].append(word)
        for part in parts:
            if not self.one(row, part):
                break
        self.rows += 1

    def one(self, row: Row, words: list[str]) -> bool:
        """One command of a row; whether it succeeded."""
        if words[:2] == ["git", "clone"]:
            self.clones[row.who] = Clone(self.root, row.who, self.origin, GAME)
            return True
        clone = self.clones[row.who]
        if row.clock:
            clone.now = row.clock
        if words == ["send", "all"]:
            self.thread.send_all(clone)
            self.note(clone, before=None)
            return True
        if words[0] == "git":
            return clone.git(*words[1:], code=None).returncode == 0
        assert words[0] == "shmod", row
        args = [self.filled(clone, word) for word in words[1:]]
        if "thread.txt" in args:
            self.thread.write(clone.folder / "thread.txt")
        before = logfile.read(str(clone.log)).entries if clone.log.exists() else []
        done = clone.shmod(*args, code=None, program=IN_FORMAT_4 if args[0] == "new" else
                           (str(SHMOD),))
        if args[0] == "new":
            found = re.search(r"Commitment \(post it in the opening thread post\): ([0-9a-f]{64})",
                              done.stderr)
            assert found, done.stderr
            self.commitment = found.group(1)
        if done.returncode == 0:
            self.note(clone, before)
        return done.returncode == 0

    def note(self, clone: Clone, before: list[Any] | None) -> None:
        """The entries the last command appended to the clone's log (``send all``: the
        deliveries; ``before`` None: since the last note)."""
        after = logfile.read(str(clone.log)).entries
        start = len(before) if before is not None else self.seen.get(clone.name, len(after))
        if before is not None and after[:len(before)] != before:
            start = len(after)  # a rewrite (none in this script): nothing appended
        ids = chain.identities(after)
        posts = [raw.get("checkpoint") for raw in after if raw.get("kind") == "posted"]
        for index in range(start, len(after)):
            raw = after[index]
            post = None
            if raw.get("kind") == "delivered" and raw.get("what") == "post":
                post = posts[int(str(raw["of"]).split()[1]) - 1]
            self.recorded.append(Recorded(raw, ids[index], post))
        self.seen[clone.name] = len(after)

    def filled(self, clone: Clone, word: str) -> str:
        """A placeholder of the script filled in (its header says which)."""
        if word == "{commitment}":
            return self.commitment
        if word == "{last checkpoint}":
            return next(line for line in reversed(self.thread.posts[-1].splitlines())
                        if line.startswith("Log checkpoint: post "))
        found = re.fullmatch(r"\{entry:(\w+):(.+)\}", word)
        if found:
            kind, name = found.groups()
            entries = logfile.read(str(clone.log)).entries
            return str(max(n for n, raw in enumerate(entries, 1)
                           if raw.get("kind") == kind and raw.get("by") == name))
        return word


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Played:
    root = tmp_path_factory.mktemp("comod")
    game = Played(root)
    for row in script():
        game.run(row)
    return game


def test_the_script_is_the_trial_less_its_workarounds():
    rows = script()
    assert len(rows) > 200
    commands = " ".join(row.command for row in rows)
    for gone in ("pull.rebase", "merge --mine", "merge --forget", "--rebase", "pm --entry"):
        assert gone not in commands, gone
    assert {row.who for row in rows} == {"Jana", "Tomasz"}


def test_both_clones_end_equal_and_hold_every_recorded_step(played):
    jana, tomasz = played.clones["Jana"], played.clones["Tomasz"]
    assert jana.log.read_bytes() == tomasz.log.read_bytes()
    final = logfile.read(str(jana.log))
    ids = set(chain.identities(final.entries))
    votes = {(raw["by"], raw["vote"]) for raw in final.entries if raw["kind"] == "vote"}
    withdrawn = {raw["checkpoint"] for raw in final.entries if raw["kind"] == "withdrawn"}
    missing = []
    for entry in played.recorded:
        raw = entry.raw
        if entry.identity in ids:
            continue
        if raw["kind"] == "vote" and (raw["by"], raw["vote"]) in votes:
            continue  # recorded alike on both clones: counted once
        if raw["kind"] == "posted" and raw.get("checkpoint") in withdrawn:
            continue  # a post that lost the race: withdrawn
        if raw["kind"] == "delivered" and entry.post in withdrawn:
            continue  # its delivery: the withdrawn entry says it reached the thread
        missing.append(raw)
    assert missing == []
    assert len(played.recorded) > 150


def test_the_game_is_the_trial_s_to_its_end(played):
    """The trial's deal and steps: the sixth Fascist policy wins, after a special election,
    two executions and a refused veto, as the trial's thread shows."""
    from shmod.log import store

    final = store.load(str(played.clones["Jana"].log))
    state = final.table
    assert state.game.winner is not None and state.game.fascist == 6
    kinds = [raw["kind"] for raw in final.log.entries]
    assert kinds.count("execute") == 2 and kinds.count("special_election") == 1
    assert kinds.count("takeover") == 1 and kinds.count("replace") == 1


def test_the_race_for_post_5_withdrew_jana_s_and_kept_her_nomination(played):
    final = logfile.read(str(played.clones["Tomasz"].log))
    withdrawn = [raw for raw in final.entries if raw["kind"] == "withdrawn"]
    assert [(raw["post"], raw["mod"]) for raw in withdrawn] == [(5, "Jana")]
    nominations = [raw for raw in final.entries if raw["kind"] == "nominate"
                   and raw["chancellor"] == "Weiß" and raw["at"] == "2026-03-05T09:12:00Z"]
    assert len(nominations) == 1 and nominations[0]["mod"] == "Jana"
    fifth = [text for text in played.thread.posts if "Log checkpoint: post 5 · " in text]
    assert len(fifth) == 2 and "Log withdrawal: post 5 · " in fifth[1]
    assert "**Zurückgezogen.**" in fifth[1] and "Log withdrawal" not in fifth[0]


def test_the_thread_audits_valid(played):
    tomasz = played.clones["Tomasz"]
    thread = played.thread.write(played.root / "thread-final.txt")
    audit = tomasz.shmod("audit", GAME, "-c", played.commitment, "--thread", str(thread)).stdout
    assert ": VALID" in audit, audit
    assert "post 5: the version withdrawn after a race" in audit
    assert "Hand-over (entry" in audit and "taken over at entry" in audit
    published = tomasz.shmod("audit", "games/spiel.published.yaml", "-c", played.commitment,
                             "--thread", str(thread)).stdout
    assert ": VALID" in published
