"""A second red-team pass over the promises around the rules (R-DEAL, R-LAPSE, R-PM,
R-CHECKPOINT, R-COMMIT): each test is a break a cheating moderator or a scripting player
found on main, played through the installed ``shmod`` as a moderator types it, and each
now asserts the fix (format 3's words and lapse draws; names never passed to another
seat; the opening post's one commitment and key; format-1 lines anyone could make after
the reveal; the audit's ``steerable`` warnings for the older formats)."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from installed import SHMOD, Moderator
from scripted import KEYS

from shmod.log import store

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SEED = "3f9a0c71e2d84b56a1c09e7f42d3b8a5"
WORDS = ["lemon", "big cat", "zebra", "42", "unicode"]


def _shmod(m: Moderator, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed shmod as ``m`` runs it, whatever its exit status (never a traceback)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    env.update(SHMOD_GAME=str(m.log), SHMOD_NOW=m.now, SHMOD_CACHE="off", COLUMNS="100")
    done = subprocess.run([str(SHMOD), *args], cwd=m.folder, env=env, text=True,
                          capture_output=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _deal(folder: Path, words: list[str]) -> tuple[object, ...] | None:
    """The roles, deck and first President the installed shmod deals from ``words``; None
    if it refuses one of them."""
    folder.mkdir(parents=True)
    m = Moderator(folder)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES, words):
        before = m.log.read_bytes()
        run = _shmod(m, "word", name, word)
        if run.returncode != 0:  # refused: exit 1, the log as it was
            assert m.log.read_bytes() == before and "Traceback" not in run.stderr
            return None
    state = store.load(str(m.log)).table
    return (tuple(state.game.roles), tuple(state.game.draw), state.game.president)


# Ways to write Ann's "lemon" that a reader of the thread cannot tell from it.
INVISIBLE = {
    "zero-width space": "lemon\u200b",
    "soft hyphen": "lem\u00adon",
    "word joiner": "le\u2060mon",
    "zero-width joiner": "lemo\u200dn",
    "combining grapheme joiner": "le\u034fmon",
    "variation selector": "lemon\ufe0f",
    "Cyrillic e": "l\u0435mon",
    "Cyrillic o": "lem\u043en",
    "Greek omicron": "lem\u03bfn",
}


def test_invisible_or_lookalike_transcriptions_of_a_word_move_no_deal(tmp_path):
    """R-DEAL, promise 1: "transcribing it leaves the moderator no choice". The moderator
    types Ann's posted word `lemon` with an invisible character (U+200B, U+00AD, U+2060,
    U+200D, U+034F, U+FE0F) or a look-alike letter (Cyrillic U+0435/U+043E, Greek
    U+03BF): shmod records each as a different canonical word, the deal post shows the
    words looking the same, and each gives another deal. Invisible characters can be
    repeated and combined, so every word offers unboundedly many transcriptions and the
    moderator reaches any deal wished for (the same holds for ' against U+2019, which
    forums often render in place of each other). Each such word must be refused (or enter as the
    word it looks like)."""
    plain = _deal(tmp_path / "plain", WORDS)
    assert plain is not None
    moved = {}
    for n, (what, word) in enumerate(INVISIBLE.items()):
        got = _deal(tmp_path / f"v{n}", [word, *WORDS[1:]])
        if got is not None and got != plain:
            moved[what] = got[0]
    assert not moved, f"transcriptions that look like 'lemon' and deal otherwise: {moved}"


# -- promise 4: the thread audit cannot be framed -------------------------------------

FORMAT1 = Path(__file__).resolve().parent.parent / "games" / "five-players.yaml"


def _thread_of(m: Moderator, log: Path) -> str:
    """The thread as the moderator pasted it: every post shmod recorded, again."""
    listing = m.run("post", "--list", "-g", str(log))
    count = len([line for line in (listing.stdout + listing.stderr).splitlines()
                 if line.startswith("post ")])
    return "\n\n".join(m.run("post", "--again", str(n), "-g", str(log)).stdout
                       for n in range(1, count + 1))


@pytest.mark.parametrize("post,entry,revealed", [(5, 7, False), (5, 7, True), (43, 50, True)])
def test_a_player_cannot_frame_an_honest_format1_log_after_the_reveal(tmp_path, post, entry,
                                                                     revealed):
    """R-CHECKPOINT, promise 4: a format-1 log (games/five-players.yaml) audits VALID
    against its own thread. After the reveal the salt is public, so a player posts one
    line tagged with it: a second claim for post 5 naming another entry, or a claim for a
    post 43 the game never had. As docs/audit.md says, a second claim for a post whose
    other line matches, or a line the thread shows after the salt (the reveal's post), is
    a warning: the honest log stays VALID (it was INVALID: "the log's posts were
    changed", "posts were removed from the log"). A lone line for a post the log lacks,
    with no reveal before it, still fails the log: only the moderator could make it."""
    from shmod.log import checkpoints

    log = tmp_path / "five-players.yaml"
    log.write_bytes(FORMAT1.read_bytes())
    m = Moderator(tmp_path)
    thread = _thread_of(m, log)
    assert m.run("audit", str(log), "--thread", _write(tmp_path / "t.txt", thread)).returncode == 0
    salt = yaml.safe_load(log.read_text())["secret"]["salt"]  # published by the reveal
    value = "ab" * 16
    forged = (f"Log checkpoint: post {post} · entry {entry} · "
              f"{value}{checkpoints.tag(salt, post, entry, value)}")
    reveal = m.run("reveal", "-g", str(log)).stdout if revealed else ""
    assert salt in reveal or not revealed
    framed = thread + reveal + f"\n\nZed wrote: after the reveal, look at this: {forged}\n"
    out = _shmod(m, "audit", str(log), "--thread", _write(tmp_path / "framed.txt", framed))
    assert out.returncode == 0, out.stdout
    assert f"post {post} (entry {entry})" in out.stdout and "warning" in out.stdout.lower()
    if post == 43:  # the same line with no reveal before it: only the moderator made it
        lone = thread + f"\n\n{forged}\n"
        out = _shmod(m, "audit", str(log), "--thread", _write(tmp_path / "lone.txt", lone))
        assert out.returncode == 1 and "posts were removed from the log" in out.stdout


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


# -- promise 5: a PM holds only its player's secrets -----------------------------------

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def test_a_newcomer_named_as_a_renamed_player_is_never_sent_that_players_secrets(tmp_path):
    """R-PM, R-REPLACE, R-RENAME, promise 5: President Ann (seat 1) is sent her three
    policies; her name is corrected to Annie (`rename`). PMs are addressed by name, so the
    name Ann, once sent seat 1's secrets, goes to no other seat: a newcomer called Ann (or
    a look-alike) is refused for seat 3, and so is renaming Bob to Ann. (Before, the
    newcomer was seated, and replacing them briefed the next one with seat 1's three
    policies.) Seat 1 itself may take its old name back."""
    m = Moderator(tmp_path)
    m.run("new", *SEVEN, "--first", "Ann", "--seed", SEED)
    m.run("nominate", "Bob")
    m.run("vote", *[x for name in SEVEN for x in (name, "ja")])
    sent = m.run("pm", "Ann").stdout
    hand = sent.split("Your three policies, top first: ")[1].split(".")[0]
    m.run("rename", "Ann", "Annie")
    m.refused("replace", "Cy", "Ann", rule="R-REPLACE: cannot seat 'Ann': Ann held seat 1")
    m.refused("replace", "Cy", "ANN", rule="R-REPLACE: cannot seat 'ANN': Ann held seat 1")
    m.refused("replace", "Cy", "\u0410nn", rule="R-REPLACE")  # a Cyrillic A
    m.refused("rename", "Bob", "Ann", rule="R-RENAME: cannot rename Bob to 'Ann'")
    m.run("replace", "Cy", "Cyd")
    m.run("replace", "Cyd", "Zed")
    briefing = m.run("pm", "Zed").stdout
    assert "seat 3" in briefing
    assert "Your three policies, top first" not in briefing, briefing
    m.run("rename", "Annie", "Ann")  # seat 1's own name back
    assert f"Your three policies, top first: {hand}" in m.run("pm", "Ann").stdout


# -- promise 2: nothing the moderator types steers a random lapse -----------------------


def _lapsed_target(folder: Path, base: Path, *before: list[str]) -> str | None:
    """The target a random lapse of the President's power draws, after ``before``; None if
    one of ``before`` ended the game (a removal of Hitler)."""
    import shutil

    from installed import DAY1, DAY2

    m = Moderator(folder, now=DAY1)
    m.log.parent.mkdir(parents=True)
    shutil.copy(base, m.log)
    for args in before:
        m.run(*args)
    if store.load(str(m.log)).table.game.win is not None:
        return None
    m.run("deadline", "1h")
    m.now = DAY2
    m.run("lapse")
    return next(e["choice"] for e in yaml.safe_load(m.log.read_text())["log"]
                if e["kind"] == "lapse")


def test_removing_a_bystander_moves_no_random_execution(tmp_path):
    """R-LAPSE, promise 2: the President holds Execution and sends no target
    (late_choice=random). Removing any other living player first (`shmod remove X
    --reason absent`) must not move the target. Format 2 drew an index below the number of
    legal targets, so shrinking the list moved it: in the game of
    tests/test_fair_forum.at_power Eve was drawn, and after removing Bob, Cy, Dee or Fay,
    Ann (Hitler). Format 3 draws a number per seat and takes the lowest."""
    from test_fair_forum import SEVEN, at_power

    base = at_power(tmp_path / "base", "execute")
    plain = _lapsed_target(tmp_path / "plain", base)
    state = store.load(str(base)).table.game
    moved = {}
    for seat, name in enumerate(SEVEN):
        if name == plain or seat == state.president:
            continue
        got = _lapsed_target(tmp_path / name, base, ["remove", name, "--reason", "absent"])
        if got is not None and got != plain:
            moved[name] = got
    assert not moved, f"without a removal {plain} is executed; after removing X: {moved}"


def _format1_at_execution(folder: Path, form: int = 1) -> Path:
    """A seven-player game started today with a header of format 1 (``shmod: 1``, no key
    pair: what an earlier shmod wrote, which the moderator can write by hand) and
    late_choice=random, played by shmod's rules up to where the President holds
    Execution."""
    import random

    from installed import DAY1

    from shmod.forum import engine
    from shmod.forum.setup import new_header, parse_setup, start
    from shmod.forum.turns import legal_steps
    from shmod.game.legal import voters
    from shmod.game.steps import Vote
    from shmod.game.terms import OVER, POWER, VOTE

    for attempt in range(400):
        rng = random.Random(attempt)
        header = new_header(SEVEN, seed=f"{rng.getrandbits(128):032x}", created=DAY1,
                            salt=f"{rng.getrandbits(128):032x}",
                            variants=["late_choice=random", "late_vote=nein"],
                            keys=KEYS if form >= 2 else None)
        header["shmod"] = form
        header.pop("seed_source", None)  # a field of format 5 only
        header.pop("commitment", None)
        state = start(parse_setup(header))
        steps = []
        while state.game.phase != OVER and len(steps) < 400:
            if state.game.phase == POWER and state.game.power == "execute":
                folder.mkdir(parents=True)
                path = folder / "base.yaml"
                path.write_text(store.log_text(header, steps, at=DAY1))
                path.chmod(0o600)
                return path
            step = (Vote(rng.choice(voters(state.game)), rng.random() < 0.8)
                    if state.game.phase == VOTE else rng.choice(legal_steps(state)))
            engine.apply(state, step)
            steps.append(step)
    raise AssertionError("no random game reached Execution")


def test_a_game_started_in_format1_lets_prods_steer_a_random_execution(tmp_path):
    """R-LAPSE, promise 2, a downgrade: shmod plays on any log of format 1 (a game in
    progress when shmod was upgraded), and a format-1 lapse draws with the label
    `lapse-ENTRY`. A moderator who starts a new game with a header of format 1 (written by
    hand) can record 0-5 prods before the lapse and pick among several targets of the
    "random" execution. shmod cannot tell such a header from an earlier shmod's, so the
    audit every player can run says it: each such draw is a `steerable` warning at its
    entry, naming the rule; a game of this shmod's format has none."""
    from installed import DAY1, DAY2

    base = _format1_at_execution(tmp_path / "base")
    drawn, warned = {}, {}
    for prods in range(6):
        m = Moderator(tmp_path / f"prods{prods}", now=DAY1)
        m.log.parent.mkdir(parents=True)
        m.log.write_bytes(base.read_bytes())
        m.log.chmod(0o600)
        m.run("deadline", "1h")
        for _ in range(prods):
            m.run("prods")
        m.now = DAY2
        done = _shmod(m, "lapse")
        if done.returncode == 0:
            log = yaml.safe_load(m.log.read_text())["log"]
            entry = next(n for n, e in enumerate(log, 1) if e["kind"] == "lapse")
            drawn[prods] = log[entry - 1]["choice"]
            report = json.loads(_shmod(m, "audit", "--json", str(m.log)).stdout)
            warned[prods] = [(w["entry"], w["rule"]) for w in report["warnings"]
                             if w["kind"] == "steerable"]
            assert warned[prods] == [(entry, "R-LAPSE")], report["warnings"]
    assert len(drawn) == 6 and len(set(drawn.values())) > 1  # the older format's weakness


# -- promise 4: the thread audit cannot be fooled ----------------------------------------


def test_a_shadow_commitment_above_the_opening_post_does_not_pass_a_rewritten_log(tmp_path):
    """R-COMMIT, R-CHECKPOINT, promise 4: the moderator starts the game twice from one
    seed (`shmod new` draws another salt and key pair each time), plays the honest game H
    in the thread and keeps the shadow S. One line above shmod's opening post (in the
    thread's title, or in post 1 in a spoiler or a tiny font) shows S's commitment and
    public key. At the end the moderator publishes S with Eve's vote flipped. The audit
    takes "the first setup commitment in the text" and the first key as the opening
    post's, so all three of the moderator's genuinely signed lines of H are "forged or
    mistyped: ignored" (warnings), H's commitment in post 1 is "a quote" (a warning), and
    the rewritten log audits VALID, exit 0, though the thread pins nothing of it."""
    honest, shadow = Moderator(tmp_path), Moderator(tmp_path)
    honest.log, shadow.log = tmp_path / "games" / "h.yaml", tmp_path / "games" / "s.yaml"
    for m, eve in ((honest, "nein"), (shadow, "ja")):
        m.run("new", *NAMES, "--first", "Ann", "--seed", SEED)
        m.run("nominate", "Bob")
        m.run("vote", "Ann", "ja", "Bob", "ja", "Cy", "ja", "Dee", "ja", "Eve", eve)
    thread = "\n\n".join(honest.run("post", "--again", str(n)).stdout for n in (1, 2, 3))
    header = yaml.safe_load(shadow.log.read_text())
    above = (f"Friday's game. Setup commitment: {header['commitment']} · "
             f"Moderator's public key: {header['moderator_key']}\n\n")
    shadow.run("publish", "--force", "-o", str(tmp_path / "s.published.yaml"))
    audited = _shmod(shadow, "audit", str(tmp_path / "s.published.yaml"), "--thread",
                     _write(tmp_path / "thread.txt", above + thread))
    assert "0 of 3 match the log" in audited.stdout
    assert audited.returncode != 0, audited.stdout


def test_a_format2_random_target_after_a_removal_is_flagged_steerable(tmp_path):
    """R-LAPSE: a log of format 2 drew a random power target by its index among the
    targets, so a removal before it could move it; the audit warns at that lapse, and only
    where a removal came first."""
    from installed import DAY1, DAY2

    base = _format1_at_execution(tmp_path / "base", form=2)
    state = store.load(str(base)).table.game
    found = {}
    for removed in (False, True):
        m = Moderator(tmp_path / f"removed-{removed}", now=DAY1)
        m.log.parent.mkdir(parents=True)
        m.log.write_bytes(base.read_bytes())
        m.log.chmod(0o600)
        if removed:
            bystander = next(n for s, n in enumerate(SEVEN) if s != state.president
                             and state.alive[s] and state.roles[s] != "hitler")
            m.run("remove", bystander, "--reason", "left")
        m.run("deadline", "1h")
        m.now = DAY2
        m.run("lapse")
        report = json.loads(_shmod(m, "audit", "--json", str(m.log)).stdout)
        found[removed] = [w["rule"] for w in report["warnings"] if w["kind"] == "steerable"]
    assert found == {False: [], True: ["R-LAPSE"]}


def test_a_format2_game_replays_as_written_and_its_nonascii_word_is_flagged():
    """Format 2 stays readable as written: the shipped example of the previous format
    (tests/logs/words-dealt-format2.yaml, a whole published game dealt from the players'
    words with a random lapse) audits VALID, its deal recomputed by format 2's rule; its
    word `ümlaut` is beyond ASCII, which format 2 dealt as typed, so the audit warns
    (`steerable`, R-DEAL) at the deal."""
    from shmod.audit import log_audit

    path = Path(__file__).parent / "logs" / "words-dealt-format2.yaml"
    report = log_audit.audit_file(str(path))
    assert report.valid and report.table is not None and report.table.setup.format.number == 2
    assert "each seat's word in its canonical form" in (report.deal or "")
    steer = [w for w in report.warnings if w.kind == "steerable"]
    assert [(w.rule, w.entry) for w in steer] == [("R-DEAL", report.table.dealt)]
    assert "'ümlaut'" in steer[0].message
