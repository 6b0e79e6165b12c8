"""Issue 34: anyone can check the deal and every random choice without shmod.

``tests/verifier.py`` is written from docs/verify.md alone (Python's standard library,
nothing of shmod imported). Here it recomputes every vector of docs/vectors.json, and every
commitment, deal, reshuffle, random lapse choice and checkpoint value of every shipped game
(``games/*.yaml``), every test log (``tests/logs/*.yaml``) and games played here in each
log format, 1 to 5 (random forum games with words, renames, replacements, removals, corrections
and lapses; random games dealt by the moderator with reshuffles), and agrees with
``shmod audit --json`` on each value. On the main this issue started from, the document
did not exist: the outsider's verifier got 12 of 13 logs wrong.
"""
from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import verifier

from shmod.audit import audit
from shmod.audit.moves import random_game
from shmod.log import game as games

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "docs" / "vectors.json").read_text(encoding="utf-8"))
LOGS = sorted([*ROOT.glob("games/*.yaml"), *ROOT.glob("tests/logs/*.yaml")])


def test_the_verifier_imports_nothing_of_shmod():
    source = (ROOT / "tests" / "verifier.py").read_text()
    assert "import shmod" not in source and "from shmod" not in source
    assert "shmod" not in {name.split(".")[0] for name in sys.modules if
                           getattr(sys.modules[name], "__file__", "") == verifier.__file__}


# -- the vectors -------------------------------------------------------------------------


def test_the_verifier_gives_every_vector():
    v = VECTORS
    for case in v["stream"]:
        stream = verifier.Stream(case["seed"], case["label"])
        assert b"".join(stream.next().to_bytes(8, "big") for _ in range(4)).hex() == case["first"]
    for case in v["below"]:
        assert verifier.below(case["seed"], case["label"], case["n"]) == case["value"]
    for case in v["shuffle"]:
        assert verifier.shuffle(case["items"], case["seed"], case["label"]) == case["value"]
    for case in v["commitment"]:
        assert verifier.commitment_text(case["header"]) == case["text"]
        assert verifier.commitment(case["header"]) == case["sha256"]
    for case in v["deal"]:
        header = {"players": [f"P{n}" for n in range(1, case["players"] + 1)],
                  "variants": dict(item.split("=") for item in case["variants"]),
                  "custom": case["custom"]}
        assert list(verifier.deck_counts(header)) == case["deck"]
        assert verifier.deal(header, case["seed"]) == (case["roles"], case["deck_order"],
                                                       case["first"])
    for case in v["latin_word"]:
        try:
            assert verifier.latin_word(case["typed"]) == case["word"], case
        except ValueError as refused:
            assert str(refused) == case.get("refused"), case
    for case in v["words_seed"]:
        message = verifier.words_message(case["format"], case["words"], case.get("names"))
        assert message == case["message"]
        assert verifier.hmac256(case["seed"], message) == case["value"]
    for case in v["format5_word"]:
        if case.get("refused") == "symbol":
            assert verifier.format5_refused(case["typed"]), case
            continue
        assert not verifier.format5_refused(case["typed"]), case
        try:
            assert verifier.latin_word(case["typed"]) == case["word"], case
        except ValueError as refused:
            assert str(refused) == case.get("refused"), case
    for case in v["lookalike_key"]:
        assert verifier.lookalike_key(case["word"]) == case["key"], case
    for case in v["format3_key"]:
        assert verifier.format3_key(case["word"].casefold()) == case["key"], case
    for case in v["reshuffle"]:
        deck = case["deck"]
        assert verifier.pile(deck.count("L"), deck.count("F"), case["seed"],
                             f"reshuffle-{case['k']}") == deck
    for case in v["lapse"]:
        choice, numbers = verifier.lapse_choice(case["format"], case["seed"], case["label"],
                                                case["options"])
        assert choice == case["choice"]
        assert numbers == case.get("numbers", [case.get("index")])
    header, *links = v["chain"]
    assert verifier.header_link(header["header"]) == header["link"]
    for case in links:
        assert verifier.link(case["previous"], case["entry"]) == case["link"]
    for case in v["checkpoint"]:
        assert verifier.checkpoint_value(case["salt"], case["entry"], case["head"]) == case["value"]
        assert verifier.checkpoint_tag(case["salt"], case["post"], case["entry"],
                                       case["value"]) == case["tag"]
        assert case["message"] == (f"shmod-checkpoint 2\n{case['commitment']}\n{case['post']}\n"
                                   f"{case['value']}\n")


# -- logs --------------------------------------------------------------------------------


def _agrees(text: str, report: dict[str, Any]) -> verifier.Verified:
    """The verifier's values of a log against the audit's, draw by draw."""
    assert report["valid"], report["problems"]
    found = verifier.verify(text, report["draws"])
    assert found.problems == [], found.problems
    assert found.commitment == report["commitment"]
    mine = {(d["what"], d["entry"]): d for d in found.draws}
    theirs = {(d["what"], d["entry"]): d for d in report["draws"]}
    assert mine.keys() == theirs.keys()
    for key, draw in theirs.items():
        assert (mine[key]["seed"], mine[key].get("label"), mine[key]["value"]) == (
            draw["seed"], draw.get("label"), draw["value"]), key
        if draw["what"] == "words":
            assert mine[key]["message"] == draw["message"]
        if draw["what"] == "lapse" and "numbers" in mine[key] and "index" not in draw:
            assert mine[key]["numbers"] == [o["number"] for o in draw["options"]]
    return found


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_shipped_and_test_log_is_recomputed_alike(path):
    found = _agrees(path.read_text(encoding="utf-8"), audit.audit_file(str(path)).to_json())
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
        yield text, audit.audit_log(_parsed(text)).to_json()


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


def test_random_games_dealt_by_the_moderator_are_recomputed_alike():
    reshuffles = 0
    for players in (5, 7, 10):
        sim = random_game(players, random.Random(players), variants=["rebalanced=on"]
                          if players == 7 else None)
        text = games.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z")
        report = audit.audit_log(_parsed(text)).to_json()
        reshuffles += sum(d["what"] == "reshuffle" for d in _agrees(text, report).draws)
    assert reshuffles


def test_a_game_delivered_through_the_outbox_is_recomputed_alike(run, tmp_path, monkeypatch):
    """Issue 40: ``delivered`` entries change no value (docs/verify.md section 8): a game
    played with every item delivered after each step, a correction among them, reads to
    the audit's values and checkpoints."""
    from shmod.audit.moves import command_for
    from shmod.forum.turns import legal_steps
    from shmod.game.steps import Reshuffle

    path = tmp_path / "g.yaml"
    monkeypatch.setenv("SHMOD_NOW", "2026-11-23T10:00:00Z")
    assert run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "-g", str(path),
               "-V", "late_choice=random")[0] == 0
    rng = random.Random(40)
    for turn in range(200):
        state = games.load(str(path)).state
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
    found = _agrees(text, audit.audit_file(str(path)).to_json())
    assert found.checkpoints == text.count("kind: posted") > 10


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
    found = _agrees(text, audit.audit_log(log).to_json())
    assert found.withdrawals == 1 and found.problems == []
    raw = next(r for r in log.entries if r["kind"] == "withdrawn")
    assert verifier.identities(log.entries) == chain.identities(log.entries)
    forged = verifier.verify(text.replace(raw["withdrawal"], raw["withdrawal"][::-1]))
    assert any("is not signed with the game's key" in p for p in forged.problems)
    missing = verifier.verify(text.replace(raw["covered"][0], "0" * 32))
    assert any("covered an entry the log lacks" in p for p in missing.problems)
