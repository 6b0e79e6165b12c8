"""Issue 34: shmod gives every value of docs/vectors.json, and docs/verify.md covers every
value the audit recomputes.

The vectors were computed by ``tools/make_vectors.py``; a change to shmod that moves any of
them (a commitment's bytes, a draw, a words' seed, a checkpoint) fails here, as it would
fail every log already written. tests/test_verifier.py checks the same vectors against a
verifier written from docs/verify.md alone.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shmod.audit import log_audit
from shmod.base.errors import RuleBroken
from shmod.forum import commitment, deadlines, dealing
from shmod.forum.earlier_words import canonical_word, word_key
from shmod.forum.house import parse_variants
from shmod.forum.log_formats import FORMATS
from shmod.forum.setup import parse_setup
from shmod.forum.wordform import latin_word
from shmod.forum.wordkey import lookalike_key
from shmod.game import setup as game_setup, shuffle
from shmod.game.house import rules_for
from shmod.log import checkpoints, logfile, signing

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "docs" / "vectors.json").read_text(encoding="utf-8"))
SPEC = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")


def test_the_stream_below_and_shuffle():
    for case in VECTORS["stream"]:
        blocks = [shuffle.pick(1 << 64, case["seed"], case["label"])]
        assert blocks[0].to_bytes(8, "big").hex() == case["first"][:16]
    for case in VECTORS["below"]:
        assert shuffle.pick(case["n"], case["seed"], case["label"]) == case["value"]
    for case in VECTORS["shuffle"]:
        assert shuffle.shuffled(case["items"], case["seed"], case["label"]) == case["value"]


def test_every_commitment():
    for case in VECTORS["commitment"]:
        setup = parse_setup(case["header"])
        assert setup.format.number == case["format"]
        assert commitment.canonical_bytes(setup).decode() == case["text"]
        assert commitment.commitment(setup) == case["sha256"]


def test_every_deal():
    for case in VECTORS["deal"]:
        names = tuple(f"P{n}" for n in range(1, case["players"] + 1))
        rules = rules_for(len(names), parse_variants(case["variants"]), case["custom"])
        roles, deck, first = game_setup.from_seed(names, rules, case["seed"], None)
        assert [rules.deck_liberal, rules.deck_fascist] == case["deck"]
        assert (list(roles), "".join(deck), first + 1) == (case["roles"], case["deck_order"],
                                                           case["first"])


@pytest.mark.parametrize("case", VECTORS["latin_word"], ids=lambda c: repr(c["typed"])[:30])
def test_every_word_is_recorded_or_refused_as_the_vector_says(case):
    if "word" in case:
        assert latin_word(case["typed"]) == case["word"]
    else:
        with pytest.raises(RuleBroken, match="R-DEAL"):
            latin_word(case["typed"])


def test_every_words_seed_and_format_3_key():
    for case in VECTORS["words_seed"]:
        form, names = FORMATS[case["format"]], case.get("names", ())
        assert form.words.message(case["words"], names) == case["message"]
        assert dealing.words_seed(case["seed"], case["words"], form, names) == case["value"]
    for case in VECTORS["format3_key"]:
        assert word_key(canonical_word(case["word"])) == case["key"]


@pytest.mark.parametrize("case", VECTORS["format5_word"], ids=lambda c: repr(c["typed"])[:30])
def test_format_5_records_or_refuses_every_word_as_the_vector_says(case):
    record = FORMATS[5].words.record
    if "word" in case:
        assert record(case["typed"]) == case["word"]
    else:
        with pytest.raises(RuleBroken, match="symbol|bracket|looks like a letter"
                           if case["refused"] == "symbol" else "R-DEAL"):
            record(case["typed"])


def test_every_lookalike_key():
    for case in VECTORS["lookalike_key"]:
        assert lookalike_key(case["word"]) == case["key"], case


def test_every_reshuffle_and_lapse_draw():
    for case in VECTORS["reshuffle"]:
        deck = case["deck"]
        assert "".join(shuffle.policy_pile(deck.count("L"), deck.count("F"), case["seed"],
                                           shuffle.reshuffle_label(case["k"]))) == deck
    for case in VECTORS["lapse"]:
        options = [(key, key) for key in case["options"]]
        assert deadlines.draw(case["seed"], case["label"], options, FORMATS[case["format"]]) == \
            case["choice"]
        if case["format"] >= 3:
            assert [deadlines.option_number(case["seed"], case["label"], key)
                    for key in case["options"]] == case["numbers"]
        else:
            assert shuffle.pick(len(options), case["seed"], case["label"]) == case["index"]


def test_every_link_and_checkpoint():
    header, *links = VECTORS["chain"]
    assert logfile.header_link(header["header"]) == header["link"]
    for case in links:
        assert logfile.link(case["previous"], case["entry"]) == case["link"]
    for case in VECTORS["checkpoint"]:
        assert checkpoints.value(case["salt"], case["entry"], case["head"]) == case["value"]
        assert checkpoints.tag(case["salt"], case["post"], case["entry"], case["value"]) == \
            case["tag"]
        message = checkpoints.message(case["commitment"], case["post"], case["value"])
        assert message.decode() == case["message"]
        assert signing.verify(case["key"], message, case["signature"])


def test_the_spec_names_every_label_and_framing_shmod_uses():
    """Every text shmod hashes, signs or draws under is spelt in docs/verify.md as shmod
    spells it (finding 6: `special_election`, `seat-S` from 1, the framing lines)."""
    for literal in ("shmod/v1/", "roles", "deck", "first-president", "reshuffle-k",
                    "lapse/round-R/PHASE/POWER/seat-S", "special_election", "investigate",
                    "execute", "lapse-N", "shmod-words 5", "shmod-words 4", "shmod-words 3",
                    "shmod-words 2", "seed_source",
                    "shmod-words 1", "shmod-commitment V", "deal players", "moderator_key",
                    "shmod-checkpoint 2", "shmod/checkpoint-key/v1", "shmod/tag-key/v1",
                    "shmod-header\\n", "Liberal", "Fascist"):
        assert literal in SPEC, literal
    assert shuffle.reshuffle_label(3) == "reshuffle-3"
    assert checkpoints.message("c", 2, "v") == b"shmod-checkpoint 2\nc\n2\nv\n"


def test_the_spec_covers_every_value_the_audit_recomputes():
    """Each kind of value the audit lists (``draws``) over every shipped and test log has
    its section in docs/verify.md, and every lapse label is of the form it states."""
    sections = {"words": "The words' seed", "roles": "**roles:**", "deck": "**deck:**",
                "first President": "**first President:**", "reshuffle": "## 6. Reshuffles",
                "lapse": "## 7. Random lapse choices"}
    seen = set()
    for path in [*ROOT.glob("games/*.yaml"), *ROOT.glob("tests/logs/*.yaml")]:
        for draw in log_audit.audit_file(str(path)).draws:
            seen.add(draw["what"])
            assert sections[draw["what"]] in SPEC
            if draw["what"] == "lapse":
                assert re.fullmatch(r"lapse/round-\d+/(discard|enact|power)/"
                                    r"(none|investigate|special_election|execute)/seat-\d+",
                                    draw["label"]), draw["label"]
    assert seen == set(sections)


def test_the_worked_examples_are_the_shipped_games_values():
    """docs/verify.md section 11's three values, by hand, are the audit's."""
    report = log_audit.audit_file(str(ROOT / "games" / "words-dealt-8-players.yaml"))
    draws = {(d["what"], d.get("entry")): d for d in report.draws}
    words = draws[("words", 15)]
    assert words["value"] in SPEC and words["message"].replace("\n", "\\n") in SPEC
    assert draws[("first President", 15)]["value"] == 8
    execution = draws[("lapse", 96)]
    assert execution["label"] == "lapse/round-5/power/execute/seat-4"
    lowest = min(execution["options"], key=lambda o: o["number"])
    assert (lowest["key"], lowest["records"], execution["value"]) == ("seat-7", "Greta", "Greta")
    assert str(lowest["number"]) in SPEC
    example = re.search(r"printf '%s\\n' (.*?) \| sha256sum", SPEC, re.S)
    claimed = re.search(r"For this example the commitment is\s+`([0-9a-f]{64})`", SPEC)
    assert example and claimed
    import shlex

    lines = shlex.split(example.group(1).replace("\\\n", " "))
    text = "".join(line + "\n" for line in lines)
    [case] = [c for c in VECTORS["commitment"] if c["text"] == text]
    assert case["sha256"] == claimed.group(1)


def test_a_words_games_reshuffle_is_keyed_by_the_words_seed():
    """Finding 2: the reshuffles and lapse draws of a words-dealt game follow the words'
    seed, not secret.seed, in every format (docs/verify.md 5.1)."""
    for path in ("games/words-dealt-8-players.yaml", "games/words-dealt-7-players.yaml",
                 "tests/logs/words-dealt-format2.yaml"):
        report = log_audit.audit_file(str(ROOT / path))
        seed = next(d["value"] for d in report.draws if d["what"] == "words")
        later = [d for d in report.draws if d["what"] in ("reshuffle", "lapse")]
        assert later and all(d["seed"] == seed and d["seed_from"] == "words" for d in later)
        setup = report.table.setup if report.table else None
        assert setup is not None and all(d["seed"] != setup.seed for d in later)
