"""Issues 34 and 45: anyone can check the deal and every random choice without shmod.

``tests/verifier.py`` is written from docs/verify.md alone (Python's standard library,
nothing of shmod imported). Here it recomputes every vector of docs/vectors.json, and every
value of every shipped game (``games/*.yaml``), every test log (``tests/logs/*.yaml``),
their published copies, docs/log-format.md's example and games played here in each log
format, 1 to 5 (random forum games with words, renames, replacements, removals,
corrections and lapses; hard ones with every switch, secret veto votes, custom boards,
removals mid-session and lapses in every phase, ``SHMOD_VERIFIER_GAMES`` per format, 50 by
default; random games dealt by the moderator with reshuffles), and agrees with ``shmod
audit --json`` on each value: the commitment, the deal, each reshuffle, each lapse's label,
options and numbers (found by the verifier's own replay of the game, section 7.1), every
checkpoint and every Ed25519 signature. Every field the verifier reads is one verify.md
names (an AST scan). On the main issue 34 started from, the outsider's verifier got 12 of
13 logs wrong; on the main issue 45 started from, one written from the docs reproduced 37
of 38 (one guess), and this one replayed nothing itself.
"""
from __future__ import annotations

import ast
import json
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import verifier

from shmod.audit import log_audit
from shmod.audit.random_games import random_game
from shmod.log import store

ROOT = Path(__file__).resolve().parent.parent
#: Games per format of test_hard_random_games_are_recomputed_alike (more: SHMOD_VERIFIER_GAMES).
GAMES = int(os.environ.get("SHMOD_VERIFIER_GAMES", "50"))
VECTORS = json.loads((ROOT / "docs" / "vectors.json").read_text(encoding="utf-8"))
LOGS = sorted([*ROOT.glob("games/*.yaml"), *ROOT.glob("tests/logs/*.yaml")])


def test_the_verifier_imports_nothing_of_shmod():
    source = (ROOT / "tests" / "verifier.py").read_text()
    assert "import shmod" not in source and "from shmod" not in source
    assert "shmod" not in {name.split(".")[0] for name in sys.modules if
                           getattr(sys.modules[name], "__file__", "") == verifier.__file__}


def _fields_read(source: str) -> dict[str, int]:
    """Every field ``source`` reads by name, with its first line: a string subscript
    (``entry["kind"]``), a ``.get``/``.pop``/``.setdefault`` key, a ``"key" in mapping``."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        key = None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key = node.slice.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "pop", "setdefault") and node.args
              and isinstance(node.args[0], ast.Constant)):
            key = node.args[0].value
        elif (isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant)
              and isinstance(node.ops[0], (ast.In, ast.NotIn))):
            key = node.left.value
        if isinstance(key, str):
            found.setdefault(key, node.lineno)
    return found


def test_every_field_the_verifier_reads_is_one_verify_md_names():
    """Issue 45: the verifier reads no field the specification does not name (in code
    quotes: `players`, `secret.roles`, a vector's `deck_order`), so nothing it needs was
    learnt from shmod's code or its logs."""
    doc = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([^`\s]+)`", doc))
    named |= {part for name in list(named) for part in re.split(r"[.:=]", name)}
    read = _fields_read((ROOT / "tests" / "verifier.py").read_text(encoding="utf-8"))
    assert {"players", "first_chosen", "roles", "deck_order", "checkpoint", "by"} <= read.keys()
    assert {key: line for key, line in read.items() if key not in named} == {}
    # the scan sees what it looks for
    assert _fields_read('x["a"]; y.get("b"); "c" in z; w[0]') == {"a": 1, "b": 1, "c": 1}


# -- the vectors -------------------------------------------------------------------------


def test_the_verifier_gives_every_vector():
    assert verifier.check_vectors(VECTORS) == []
    assert sum(len(cases) for cases in VECTORS.values()) > 150


# -- logs --------------------------------------------------------------------------------


def _agrees(text: str, report: dict[str, Any]) -> verifier.Verified:
    """The verifier's values of a log against the audit's, draw by draw: every value, and
    each lapse's label, options and numbers, which the verifier found by replaying the
    game itself (docs/verify.md section 7.1)."""
    assert report["valid"], report["problems"]
    found = verifier.verify(text)
    assert found.problems == [], found.problems
    assert found.commitment == report["commitment"]
    mine = {(d.what, d.entry): d for d in found.draws}
    theirs = {(d["what"], d["entry"]): d for d in report["draws"]}
    assert mine.keys() == theirs.keys()
    for key, draw in theirs.items():
        assert (mine[key].seed, mine[key].label, mine[key].value) == (
            draw["seed"], draw.get("label"), draw["value"]), key
        if draw["what"] == "words":
            assert mine[key].message == draw["message"]
        if draw["what"] == "lapse":
            assert mine[key].keys == [o["key"] for o in draw["options"]], key
            assert mine[key].numbers == ([draw["index"]] if "index" in draw else
                                         [o["number"] for o in draw["options"]]), key
    return found


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_shipped_and_test_log_is_recomputed_alike(path):
    found = _agrees(path.read_text(encoding="utf-8"), log_audit.audit_file(str(path)).to_json())
    header, _ = verifier.read_log(path.read_text(encoding="utf-8"))
    assert found.checkpoints == sum(1 for line in path.read_text().splitlines()
                                    if "kind: posted" in line and "checkpoint:" in line)
    assert header["players"]


def _forum_games(form: int, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Random forum games of log format ``form`` (test_forum_properties' generator: words,
    renames, replacements, removals, corrections, lapses of every switch), each with its
    audit."""
    import test_forum_properties as props

    from shmod.forum import commitment as commit
    from shmod.forum.setup import parse_setup

    made = props.new_header

    def header(*args: Any, **kwargs: Any) -> dict[str, Any]:
        out = made(*args, **kwargs)
        out["shmod"] = form
        if form < 5:
            out.pop("seed_source", None)
            out.pop("first_chosen", None)
        if form == 1:
            out.pop("moderator_key", None)
            out["secret"].pop("signing_key", None)
        out.pop("commitment", None)
        out["commitment"] = commit.commitment(parse_setup(out))
        return out

    rng = random.Random(seed)
    while True:
        props.new_header = header
        try:
            plan = props.Game(rng)
        finally:
            props.new_header = made
        text = _log_text(plan.header, plan.plan, plan.seated)
        yield text, log_audit.audit_log(_parsed(text)).to_json()


def _log_text(header: dict[str, Any], plan: list[tuple[str, Any]],
              seated: list[tuple[str, ...]]) -> str:
    """A log of ``plan``'s steps, each stamped with its own time, naming players as seated
    before it, and chained."""
    from shmod.log import logfile
    from shmod.log.entries import to_entry

    head, lines = logfile.header_link(header), []
    for (at, step), players in zip(plan, seated):
        entry = to_entry(step, players)
        entry["at"] = at
        entry["hash"] = head = logfile.link(head, entry)
        lines.append(logfile.entry_line(entry))
    return logfile.header_text(header) + "".join(lines)


def _parsed(text: str) -> Any:
    from shmod.log import logfile

    return logfile.parse("g.yaml", text.encode())


@pytest.mark.parametrize(("form", "seed"), [(1, 35), (2, 36), (3, 37), (4, 44), (5, 45)])
def test_random_forum_games_of_every_format_are_recomputed_alike(form, seed):
    kinds: list[str] = []
    for played, (text, report) in enumerate(_forum_games(form, seed), 1):
        _agrees(text, report)
        kinds += [d["what"] for d in report["draws"]]
        if (played >= 4 and kinds.count("lapse") >= 3) or played == 40:
            break
    assert {"roles", "deck", "words", "reshuffle"} <= set(kinds) and kinds.count("lapse") >= 3


#: RFC 8032's first Ed25519 test key pair (private, public).
KEYS = ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
POWERS = ["none", "investigate", "special_election", "peek", "execute"]


def _hard_game(form: int, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random forum game of log format ``form`` of what a lapse's label and options
    depend on (docs/verify.md section 7.1): every switch (the secret veto vote, the tracker
    reset, Eva Braun, rebalanced or custom boards, a chosen first President), and lapses,
    removals, replacements, renames and corrections at any time; with its audit."""
    from datetime import datetime, timedelta

    from test_forum_properties import stamp

    from shmod.base.errors import BadInput, IllegalStep
    from shmod.forum import commitment as commit, deadlines, engine
    from shmod.forum.setup import new_header, parse_setup, start
    from shmod.forum.steps import Correct, Lapse, Remove, Rename, Replace, SetDeadline
    from shmod.forum.turns import legal_steps
    from shmod.game.legal import voters
    from shmod.game.steps import Reshuffle, Vote
    from shmod.game.terms import OVER, VOTE

    count = rng.randint(5, 10)
    names = [f"P{n}" for n in range(1, count + 1)]
    variants = ["late_choice=random", f"late_vote={rng.choice(['nein', 'wait'])}",
                f"late_nomination={rng.choice(['fail', 'wait'])}",
                f"veto={rng.choice(['rulebook', 'secret-vote', 'secret-vote'])}",
                f"tracker_reset={rng.choice(['enactment', 'election'])}",
                f"eva_braun={rng.choice(['on', 'off'])}"]
    custom = None
    if count in (6, 7, 9) and rng.random() < 0.3:
        variants.append("rebalanced=on")
    elif rng.random() < 0.5:
        custom = {"powers": [rng.choice(POWERS) for _ in range(5)],
                  "veto_zone": rng.choice([1, 2, 3, "none"]), "hitler_zone": rng.choice([2, 3, 4])}
    t0 = datetime(2026, 11, 23, 10, 0)
    while True:
        try:
            header = new_header(names, seed=f"{rng.getrandbits(128):032x}",
                                salt=f"{rng.getrandbits(128):032x}", created=stamp(t0),
                                variants=variants, custom=custom,
                                first=rng.choice([None, rng.choice(names)]),
                                deal_by=rng.choice(["moderator", "players"]),
                                keys=KEYS if form >= 2 else None)
            break
        except BadInput:  # a custom board refused: the standard one
            custom = None
    header["shmod"] = form
    if form < 5:
        header.pop("seed_source", None)
        header.pop("first_chosen", None)
    header.pop("commitment", None)
    header["commitment"] = commit.commitment(parse_setup(header))
    state = start(parse_setup(header))
    plan, seated, clock, newcomer = [], [], t0, 0
    while state.game.phase != OVER and len(plan) < 600:
        clock += timedelta(minutes=rng.choice([5, 30, 120]))
        roll, found = rng.random(), deadlines.current(state)
        if found is not None and found.until < stamp(clock) and roll < 0.5:
            step: Any = Lapse(found.entry, stamp(clock), deadlines.drawn(state, state.entries + 1))
        elif roll < 0.75:
            legal = [Vote(seat, rng.random() < 0.7) for seat in voters(state.game)] \
                if state.game.phase == VOTE else legal_steps(state)
            if not legal:
                continue
            step = rng.choice(legal)
        elif roll < 0.85 and found is None:
            step = SetDeadline(stamp(clock + timedelta(minutes=20)), zone="UTC",
                               scope=rng.choice(["round", "phase"]))
        elif roll < 0.86 and len(state.game.living) > 4:
            game = state.game
            step = Remove(rng.choice([s for s in game.living if game.roles[s] != "hitler"]
                                     if game.roles else game.living), "gone")
        elif roll < 0.88:
            newcomer += 1
            step = rng.choice([Rename, Replace])(rng.choice(state.game.living),
                                                 f"New{newcomer}")
        elif roll < 0.89:
            last = [n for n, done in state.history if not isinstance(done, Reshuffle)]
            if not last:
                continue
            step = Correct((rng.choice(last[-3:]),), "a typo", force=True)
        else:
            continue
        players = state.game.players
        state.clock = stamp(clock)
        try:
            engine.apply(state, step)
        except (IllegalStep, BadInput):
            continue
        plan.append((stamp(clock), step))
        seated.append(players)
    text = _log_text(header, plan, seated)
    return text, log_audit.audit_log(_parsed(text)).to_json()


@pytest.mark.parametrize("form", [1, 2, 3, 4, 5])
def test_hard_random_games_are_recomputed_alike(form):
    """Every switch, lapses in every phase, removals mid-session, corrections: the
    verifier's own replay finds each lapse's label and options (section 7.1). Issue 45:
    under veto=secret-vote the Chancellor's pick is an ``enact`` entry that enacts nothing
    until both veto votes are in; a lapse in that vote counts the missing votes Nein."""
    rng = random.Random(4500 + form)
    seen: dict[str, int] = {}
    for _ in range(GAMES):
        text, report = _hard_game(form, rng)
        found = _agrees(text, report)
        for draw in found.draws:
            if draw.what == "lapse":
                kind = "a policy" if set(draw.keys) <= {"Liberal", "Fascist"} else "a target"
                seen[kind] = seen.get(kind, 0) + 1
        seen["remove"] = seen.get("remove", 0) + text.count("kind: remove")
        if "secret-vote" in text:
            seen["secret veto"] = seen.get("secret veto", 0) + text.count("kind: veto")
    assert len(seen) == 4 and min(seen.values()) >= 2, seen


def test_random_games_dealt_by_the_moderator_are_recomputed_alike():
    reshuffles = 0
    for players in (5, 7, 10):
        sim = random_game(players, random.Random(players), variants=["rebalanced=on"]
                          if players == 7 else None)
        text = store.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z")
        report = log_audit.audit_log(_parsed(text)).to_json()
        reshuffles += sum(d.what == "reshuffle" for d in _agrees(text, report).draws)
    assert reshuffles


def test_a_game_delivered_through_the_outbox_is_recomputed_alike(run, tmp_path, monkeypatch):
    """Issue 40: ``delivered`` entries change no value (docs/verify.md section 8): a game
    played with every item delivered after each step, a correction among them, reads to
    the audit's values and checkpoints."""
    from shmod.audit.random_games import command_for
    from shmod.forum.turns import legal_steps
    from shmod.game.steps import Reshuffle

    path = tmp_path / "g.yaml"
    monkeypatch.setenv("SHMOD_NOW", "2026-11-23T10:00:00Z")
    assert run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "-g", str(path),
               "-V", "late_choice=random")[0] == 0
    rng = random.Random(40)
    for turn in range(200):
        state = store.load(str(path)).table
        if state.game.phase == "over":
            break
        step = rng.choice([s for s in legal_steps(state) if not isinstance(s, Reshuffle)])
        assert run(*command_for(step, state.game.players), "-g", str(path))[0] == 0
        if turn == 6:
            assert run("correct", "--force", "--reason", "typo", "-g", str(path))[0] == 0
        while run("send", "-g", str(path))[1]:
            pass
    text = path.read_text(encoding="utf-8")
    assert text.count("kind: delivered") > 30 and "kind: correct" in text
    found = _agrees(text, log_audit.audit_file(str(path)).to_json())
    assert found.checkpoints == text.count("kind: posted") > 10


def test_a_published_words_game_gives_the_roles_its_words_dealt(run, tmp_path):
    """Issue 45: a log dealt from the players' words held nothing to check the recomputed
    roles against, even published: ``shmod publish`` adds them (``secret.roles``, left out
    of the hash chain like the signing key), the deal checks them on replay, and the
    verifier compares them with its own deal. Swapping two roles fails both."""
    log, published = tmp_path / "w.yaml", tmp_path / "w.published.yaml"
    log.write_bytes((ROOT / "games" / "words-dealt-8-players.yaml").read_bytes())
    log.chmod(0o600)
    assert "roles:" not in log.read_text()
    code, _, err = run("publish", "-g", str(log), "-o", str(published))
    assert code == 0 and "the roles the players' words dealt" in err
    text = published.read_text(encoding="utf-8")
    header, _ = verifier.read_log(text)
    found = _agrees(text, log_audit.audit_file(str(published)).to_json())
    dealt = next(d.value for d in found.draws if d.what == "roles")
    assert [header["secret"]["roles"][name] for name in header["players"]] == dealt
    assert found.checkpoints == found.signatures == text.count("kind: posted") > 20
    hitler = header["players"][dealt.index("hitler")]
    liberal = header["players"][dealt.index("liberal")]
    forged = text.replace(f"    {hitler}: hitler", f"    {hitler}: liberal").replace(
        f"    {liberal}: liberal", f"    {liberal}: hitler")
    assert verifier.verify(forged).problems == [
        "the published roles are not the ones the words deal"]
    published.write_text(forged, encoding="utf-8")
    report = log_audit.audit_file(str(published)).to_json()
    assert not report["valid"] and "secret.roles" in str(report["problems"])
    # a game dealt by the moderator publishes its header as it is, less the key
    five = tmp_path / "five.yaml"
    five.write_bytes((ROOT / "games" / "five-players.yaml").read_bytes())
    five.chmod(0o600)
    assert run("publish", "-g", str(five), "-o", str(tmp_path / "5.yaml"))[0] == 0
    assert (tmp_path / "5.yaml").read_bytes() == five.read_bytes()


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_published_copy_is_recomputed_alike(run, tmp_path, path):
    """The copy ``shmod publish`` writes of each shipped game and test log: the same
    values, and the roles of a game dealt from the words (issue 45)."""
    log, published = tmp_path / path.name, tmp_path / "published.yaml"
    log.write_bytes(path.read_bytes())
    log.chmod(0o600)
    assert run("publish", "-g", str(log), "-o", str(published), "--force")[0] == 0
    text = published.read_text(encoding="utf-8")
    found = _agrees(text, log_audit.audit_file(str(published)).to_json())
    header, _ = verifier.read_log(text)
    dealt = [d.value for d in found.draws if d.what == "roles"]
    assert "roles" in header["secret"]
    if header.get("deal") == "players" or dealt:
        assert [header["secret"]["roles"][n] for n in header["players"]] == dealt[0]


def test_the_log_format_example_is_a_log_of_the_current_format(tmp_path):
    """Issue 45: docs/log-format.md's example had a format-1 header under the format-4
    heading. It is a log shmod wrote in the format ``shmod new`` writes now: read up to its
    ``…``, it audits valid, its signed checkpoints verify, and the verifier agrees."""
    from shmod.forum.log_formats import CURRENT

    doc = (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8")
    assert f"# The game log format (format {CURRENT.number})" in doc
    text = doc.split("```yaml\n", 1)[1].split("- …\n```", 1)[0]
    header, entries = verifier.read_log(text)
    assert header["shmod"] == CURRENT.number and len(entries) >= 4
    assert set(CURRENT.frames) - {"first_chosen"} <= header.keys()  # drawn: not chosen
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    found = _agrees(text, log_audit.audit_file(str(path)).to_json())
    assert found.signatures == found.checkpoints == text.count("kind: posted") == 3
    assert [d.what for d in found.draws] == ["roles", "deck", "first President"]
# -- a post withdrawn after a race (issue 42) ---------------------------------------------

RFC8032_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
RFC8032_SIGNATURE = ("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590"
                     "a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")


def test_the_verifier_s_ed25519_is_rfc_8032_s():
    assert verifier.ed25519_verify(RFC8032_KEY, b"", RFC8032_SIGNATURE)
    assert not verifier.ed25519_verify(RFC8032_KEY, b"x", RFC8032_SIGNATURE)
    assert not verifier.ed25519_verify(RFC8032_KEY, b"", RFC8032_SIGNATURE[:-2] + "0c")
    from shmod.log import signing

    private, public = signing.new_key()
    assert verifier.ed25519_verify(public, b"shmod", signing.sign(private, b"shmod"))


def test_a_post_withdrawn_after_a_race_is_checked_from_the_specification(tmp_path):
    """The merged log of two moderators' race for post 3 (tests/test_post_race.py): the
    withdrawn entry's steps are in the log and its withdrawal is signed with the game's
    key, as docs/verify.md section 9 says; a changed mark or a step taken out is found."""
    from test_post_race import merged_race

    from shmod.log import chain

    log = merged_race(tmp_path)
    text = log.data.decode()
    found = _agrees(text, log_audit.audit_log(log).to_json())
    assert found.withdrawals == 1 and found.problems == []
    raw = next(r for r in log.entries if r["kind"] == "withdrawn")
    assert verifier.identities(log.entries) == chain.identities(log.entries)
    forged = verifier.verify(text.replace(raw["withdrawal"], raw["withdrawal"][::-1]))
    assert any("is not signed with the game's key" in p for p in forged.problems)
    missing = verifier.verify(text.replace(raw["covered"][0], "0" * 32))
    assert any("covered an entry the log lacks" in p for p in missing.problems)
