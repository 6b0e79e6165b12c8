"""Issue 25 §3: the thread audit can be neither fooled nor framed (R-CHECKPOINT, R-COMMIT).

The cheater's searches as tests: a moderator who rewrites the whole log under a new salt
and key (a vote flipped, every hash, commitment and checkpoint recomputed) is caught by
``audit --thread``; a player who, after the reveal, makes a line from everything the
published log holds cannot fail the honest log; a thread whose opening post carries
another commitment is not this log's game; no post tells players how many entries a post
covers. Then one whole format-2 game through the installed ``shmod`` from an empty folder:
new, posts, reveal, publish, and the audit of the published copy against the pasted
thread.
"""
from __future__ import annotations

import copy
import os
import random
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scripted import AT

from shmod.audit import log_audit
from shmod.audit.random_games import command_for, random_game
from shmod.forum import commitment
from shmod.forum.setup import parse_setup
from shmod.forum.steps import Correct, Prod, SetDeadline
from shmod.forum.turns import legal_steps
from shmod.game.steps import Nominate, Step, Vote
from shmod.game.terms import VOTE
from shmod.log import checkpoints, logfile, signing, store
from shmod.texts import thread_posts
from shmod.texts.formats import Markdown, Plain

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SHMOD = Path(sys.executable).parent / "shmod"
SIGNED_LINE = re.compile(r"^Log checkpoint: post (\d+) · [0-9a-f]{32} · [0-9a-f]{128}$", re.M)


def _thread(path: str, fmt: Plain | None = None) -> str:
    loaded = store.load(path)
    return "\n\n".join(thread_posts.earlier_post(loaded, n, fmt or Plain()).text
                       for n in range(1, len(loaded.table.posts) + 1))


@pytest.fixture
def played(tmp_path):
    """A game three posts long (opening, nomination, tally: Eve voted Nein) and its thread."""
    path = tmp_path / "g.yaml"
    store.new_game(str(path), NAMES, first="Ann", seed="ab" * 16, created=AT)
    store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    for seat in range(5):
        store.record(str(path), lambda g, s=seat: Vote(by=s, vote=s != 4), at=AT)
    return path, _thread(str(path))


def rewrite(path: Path, change, *, keep_salt: bool = False) -> None:
    """The cheating moderator: change entries, draw a new salt and a new key pair,
    recompute the commitment, every posted checkpoint (signed with the new key) and every
    hash, and write the log back as shmod would have."""
    log = logfile.read(str(path))
    header = copy.deepcopy(log.header)
    if not keep_salt:
        header["secret"]["salt"] = secrets.token_hex(16)
    private, public = signing.new_key()
    header["secret"]["signing_key"], header["moderator_key"] = private, public
    header.pop("commitment")
    header["commitment"] = commitment.commitment(parse_setup(header))
    setup = parse_setup(header)
    entries = [{k: v for k, v in raw.items() if k != "hash"} for raw in log.entries]
    change(entries)
    heads, number = [logfile.header_link(header)], 0
    for entry in entries:
        if entry["kind"] == "posted":
            number += 1
            entry["checkpoint"] = checkpoints.mark(setup, number, entry["upto"],
                                                   heads[entry["upto"]])
        heads.append(logfile.link(heads[-1], entry))
        entry["hash"] = heads[-1]
    path.write_text(logfile.header_text(header) + "".join(map(logfile.entry_line, entries)))


def _flip_eve(entries: list[dict[str, Any]]) -> None:
    [eve] = [e for e in entries if e["kind"] == "vote" and e["by"] == "Eve"]
    eve["vote"] = "ja"


def test_a_log_rewritten_under_a_new_salt_and_key_fails_against_the_thread(played):
    path, thread = played
    rewrite(path, _flip_eve)
    alone = log_audit.audit_file(str(path))
    assert alone.valid, alone.problems  # every hash, commitment and checkpoint is consistent
    report = log_audit.audit_file(str(path), thread=thread)
    assert not report.valid and report.exit_code == 1
    # Not one of the thread's lines, its opening post's included, is signed under the new
    # key: the log changed, not the thread (issue 41: the opening post signed under the old
    # key is named, never taken for this log's, so a pasted one frames no honest log).
    [problem] = report.problems
    assert problem.kind == "checkpoint"
    assert "none of the thread's 3 signed checkpoint line(s) verifies" in problem.message
    assert "rewritten or is another game's" in problem.message
    assert any("opening post signed under another key" in w.message for w in report.warnings)
    assert [c.genuine for c in report.checkpoints or []] == [False, False, False]
    # Without the opening post the lines are checked with the log's own (new) key: not one
    # verifies, and that is said to be the log's doing, not the thread's.
    later = thread[thread.index("Log checkpoint: post 1"):]
    report = log_audit.audit_file(str(path), thread=later)
    assert not report.valid
    assert any("none of the thread's 3 signed checkpoint line(s) verifies" in p.message
               for p in report.problems)


def test_the_same_rewrite_keeping_the_salt_and_only_the_key_new_also_fails(played):
    path, thread = played
    rewrite(path, _flip_eve, keep_salt=True)
    report = log_audit.audit_file(str(path), thread=thread)
    assert not report.valid
    assert any(p.kind == "checkpoint" and "none of the thread's 3 signed" in p.message
               for p in report.problems)


def test_after_the_reveal_a_players_line_from_the_published_log_frames_nothing(played,
                                                                                tmp_path):
    """The salt, the public key, the commitment and every entry are public after the
    reveal: a player computes a correct value for any post, and signs it with every key
    they can get; none of it is the moderator's signature."""
    path, thread = played
    code = subprocess.run([str(SHMOD), "publish", "--force", "-g", str(path), "-o",
                           str(tmp_path / "pub.yaml")], capture_output=True, text=True)
    assert code.returncode == 0, code.stderr
    published = store.load(str(tmp_path / "pub.yaml"))
    assert published.setup.signing_key is None and published.setup.moderator_key
    salt, heads = published.setup.salt, published.heads
    assert salt is not None
    shown = checkpoints.value(salt, 2, heads[2])  # post 2's true value, or another entry's
    other = checkpoints.value(salt, 5, heads[5])
    mine, _ = signing.new_key()
    forged = []
    for value in (shown, other):
        for number in (2, 3, 4):
            made = checkpoints.message(published.setup.commitment or "", number, value)
            forged.append(checkpoints.line(number, 0, value + signing.sign(mine, made)))
    forged.append(checkpoints.line(3, 0, other + "0" * 128))
    forged.append(checkpoints.line(3, 8, checkpoints.token(salt, 3, 8, "0" * 32)))  # format 1
    for line in forged:
        for log in (path, tmp_path / "pub.yaml"):
            report = log_audit.audit_file(str(log), thread=thread + "\n\n" + line)
            assert report.valid, (line, report.problems)
            assert any(w.kind == "thread" and "ignored" in w.message for w in report.warnings)


def test_an_opening_post_with_another_commitment_is_not_this_games_thread(played):
    path, thread = played
    ours = store.load(str(path)).setup.commitment
    assert ours is not None and ours in thread
    other = "f" * 64
    report = log_audit.audit_file(str(path), thread=thread.replace(ours, other, 1))
    assert not report.valid
    [problem] = [p for p in report.problems if p.kind == "commitment"]
    assert problem.message == (f"the thread's opening post carries commitment {other}; this log "
                               f"gives {ours}: it is not the log of the game the thread played")
    # A player quoting another commitment later in the thread changes nothing.
    quoted = thread + f"\n\n[quote]Setup commitment: {other}[/quote]"
    report = log_audit.audit_file(str(path), thread=quoted)
    assert report.valid and any(other in w.message for w in report.warnings)
    assert report.to_json()["opening"] == {"commitment": ours,
                                           "key": store.load(str(path)).setup.moderator_key}
    # No opening post: a warning that says to paste the thread from post 1.
    later = thread[thread.index("Log checkpoint: post 1"):]
    report = log_audit.audit_file(str(path), thread=later)
    assert report.valid
    assert any("paste the thread from its opening post" in w.message for w in report.warnings)


@pytest.mark.parametrize("fmt", [Plain(), Markdown()])
def test_the_opening_post_is_found_in_every_form_of_pasted_text(played, fmt, run, tmp_path):
    path, _ = played
    loaded = store.load(str(path))
    for name in ("bbcode", "markdown", "plain"):
        text = run("post", "--again", "1", "-f", name, "-g", str(path))[1]
        found = checkpoints.opening(text)
        assert (found.commitment, found.key) == (loaded.setup.commitment,
                                                 loaded.setup.moderator_key), name
    curly = "Moderator\u2019s"  # a browser's typographic apostrophe
    browser = _thread(str(path), fmt).replace("Moderator's", curly)
    assert checkpoints.opening(browser).key == loaded.setup.moderator_key


def _tally(tmp_path: Path, name: str, busy: bool) -> str:
    """The tally post of an election; ``busy``: prods, a deadline and a correction were
    recorded while the votes came in."""
    path = str(tmp_path / name)
    store.new_game(path, NAMES, first="Ann", seed="cd" * 16, created=AT)
    store.record(path, lambda g: Nominate(by=0, chancellor=1), at=AT)
    steps: list[Step] = [Vote(by=0, vote=True), Vote(by=1, vote=True)]
    if busy:
        steps += [Prod(target=2), Prod(target=3), Vote(by=2, vote=False)]
        steps += [Correct(entries=(8,), reason="Cy's PM said Ja"), Vote(by=2, vote=True)]
    else:
        steps += [Vote(by=2, vote=True)]
    steps += [Vote(by=3, vote=True), Vote(by=4, vote=False)]
    for step in steps:
        done = store.record(path, lambda g, s=step: s, at=AT)
    post = thread_posts.recorded_post(done, Plain())
    assert post is not None
    return post.text


def test_a_tally_post_reads_the_same_whatever_was_recorded_during_the_vote(tmp_path):
    quiet, busy = _tally(tmp_path, "quiet.yaml", False), _tally(tmp_path, "busy.yaml", True)
    assert [m.group(1) for m in SIGNED_LINE.finditer(quiet)] == ["3"]
    assert [m.group(1) for m in SIGNED_LINE.finditer(busy)] == ["3"]  # the same post number
    hidden = re.compile(r"[0-9a-f]{32} · [0-9a-f]{128}")
    assert hidden.sub("…", quiet) == hidden.sub("…", busy)
    # Format 1 named the entry: 8 against 13 would have told the thread what happened.
    assert store.load(str(tmp_path / "busy.yaml")).table.posts[-1] != \
        store.load(str(tmp_path / "quiet.yaml")).table.posts[-1]


def test_no_post_of_a_random_game_names_an_entry(tmp_path):
    """Every post of random games with forum bookkeeping (deadlines, prods) in between:
    neither the word "entry" nor an entry number in a checkpoint line."""
    for number in range(3):
        path = str(tmp_path / f"g{number}.yaml")
        store.new_game(path, NAMES, seed=f"{number:032x}", created=AT)
        rng = random.Random(number)
        printed = [thread_posts.earlier_post(store.load(path), 1, Plain()).text]
        while not store.load(path).table.game.winner and len(printed) < 60:
            state = store.load(path).table
            step: Step = rng.choice(legal_steps(state))
            if state.game.phase == VOTE and rng.random() < 0.3:
                step = Prod(target=rng.choice([s for s in range(5)
                                               if state.game.alive[s] and s not in state.game.votes]))
            elif rng.random() < 0.05:
                step = SetDeadline(until="2099-01-01T00:00:00Z", zone="UTC")
            done = store.record(path, lambda g, s=step: s, at=AT)
            post = thread_posts.recorded_post(done, Plain())
            if post is not None:
                printed.append(post.text)
        for text in printed:
            assert "entry" not in text.lower(), text
            lines = [line for line in text.splitlines() if line.startswith("Log checkpoint")]
            assert len(lines) == 1 and SIGNED_LINE.fullmatch(lines[0]), lines


def _shmod(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SHMOD_GAME", "SHMOD_FORMAT")}
    env["SHMOD_CACHE"] = "off"
    return subprocess.run([str(SHMOD), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_a_whole_format_2_game_through_the_installed_shmod(tmp_path):
    """From an empty folder: new, every step (each printing its post), reveal, publish,
    and the published copy audited against the thread as pasted (BBCode)."""
    seed = "5e3a90c1d7f24b68e0a1c39f7b2d5e48"
    sim = random_game(5, random.Random(25), seed=seed)
    names = tuple(f"Player{n}" for n in range(1, 6))
    log = "games/g.yaml"
    made = _shmod(tmp_path, "new", *names, "--seed", seed, "-g", log, "-f", "bbcode")
    assert made.returncode == 0 and made.stdout == "", made.stderr
    opening = _shmod(tmp_path, "send", "thread", "-g", log, "-f", "bbcode")  # the outbox's
    assert "Moderator's public key" in opening.stdout and "Log checkpoint: post 1 · " in opening.stdout
    for step in sim.steps:
        if step.kind == "reshuffle":
            continue  # a seeded game's reshuffles are shmod's own
        done = _shmod(tmp_path, *command_for(step, names), "-g", log)
        assert done.returncode == 0, (step, done.stderr)
    listed = _shmod(tmp_path, "post", "--list", "-g", log).stdout.splitlines()
    thread = "\n\n".join(_shmod(tmp_path, "post", "--again", str(n), "-f", "bbcode", "-g",
                                log).stdout for n in range(1, len(listed) + 1))
    assert len(SIGNED_LINE.findall(thread)) == len(listed) > 3
    (tmp_path / "thread.txt").write_text(thread)
    reveal = _shmod(tmp_path, "reveal", "-g", log)
    assert reveal.returncode == 0 and "shmod publish" in reveal.stderr
    own = _shmod(tmp_path, "audit", log, "--thread", "thread.txt")
    assert own.returncode == 0 and "do not publish this file" in own.stdout
    done = _shmod(tmp_path, "publish", "-g", log)
    assert done.returncode == 0 and done.stdout.strip() == "games/g.published.yaml"
    text = (tmp_path / "games/g.published.yaml").read_text()
    private = store.load(str(tmp_path / log)).setup.signing_key
    assert private and private not in text and "signing_key" not in text
    assert _shmod(tmp_path, "publish", "-g", log).returncode == 2  # never overwritten
    report = _shmod(tmp_path, "audit", "games/g.published.yaml", "--thread", "thread.txt")
    assert report.returncode == 0, report.stdout
    assert re.search(r"Thread checkpoints: (\d+) of \1 match the log", report.stdout)
    assert "do not publish" not in report.stdout and "warning" not in report.stdout
    commit_line = next(line for line in made.stderr.splitlines() if "Commitment" in line)
    verdict = _shmod(tmp_path, "audit", "games/g.published.yaml", "-c",
                     commit_line.rsplit(" ", 1)[1])
    assert verdict.returncode == 0


def test_publish_is_refused_while_the_game_goes_on(played, run, tmp_path):
    path, _ = played
    before = sorted(os.listdir(tmp_path))
    code, _, err = run("publish", "-g", str(path))
    assert code == 1 and "R-THREAD: the game is not over" in err and err.count("\n") == 1
    assert sorted(os.listdir(tmp_path)) == before
    assert run("publish", "--force", "-g", str(path))[0] == 0
    copy_ = tmp_path / "g.published.yaml"
    assert log_audit.audit_file(str(copy_)).valid
    assert store.load(str(copy_)).heads == store.load(str(path)).heads  # chains identically


def test_a_published_copy_cannot_post_and_a_wrong_key_is_refused(played, run, tmp_path):
    path, _ = played
    copy_ = tmp_path / "p.yaml"
    assert run("publish", "--force", "-g", str(path), "-o", str(copy_))[0] == 0
    before = copy_.read_bytes()
    code, _, err = run("deadline", "48h", "--post", "-g", str(copy_))  # a deadline is posted
    assert code == 1 and "R-CHECKPOINT: nothing was recorded: the header has no " \
        "secret.signing_key" in err, err
    assert copy_.read_bytes() == before
    private = store.load(str(path)).setup.signing_key
    assert private is not None
    path.write_text(path.read_text().replace(private, "ab" * 32))  # text, as YAML reads it
    before = path.read_bytes()
    code, _, err = run("deadline", "48h", "--post", "-g", str(path))
    assert code == 1 and "is not the private half of its moderator_key" in err, err
    assert path.read_bytes() == before
