"""Issue 41, "seeds from one-line recipes" (R-COMMIT): a seed a moderator makes with
``echo $RANDOM | md5sum``, ``date +%s | sha256sum`` or a hexadecimal pattern looks like 128
random bits and is none. On main f58529d ``shmod new --seed`` accepted them and the audit
said nothing. Now ``new`` refuses them without ``--guessable`` (``shmod/forum/recipes.py``:
hashes of numbers below 100,000 and of Unix times of the last six hours, repeated, counting
and hexspeak patterns), and a game of log format 5 records under its commitment who chose
the seed (``seed_source``): the opening post and the audit say so.

The seed-recipe search is a property test with a fixed seed and a budget:
``SHMOD_RECIPE_CASES`` (default 60) recipes drawn with ``SHMOD_RECIPE_SEED`` (default 41);
every one must be refused, and no random seed may be.
"""
from __future__ import annotations

import hashlib
import os
import random
import secrets
from datetime import datetime

import pytest
from installed import DAY1, Moderator

from shmod.audit import log_audit
from shmod.base.errors import BadInput
from shmod.forum import commitment, recipes
from shmod.forum.setup import parse_setup
from shmod.log import logfile

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
NOW = int(datetime.fromisoformat(DAY1.replace("Z", "+00:00")).timestamp())
CASES = int(os.environ.get("SHMOD_RECIPE_CASES", "60"))
SEED = int(os.environ.get("SHMOD_RECIPE_SEED", "41"))
ALGORITHMS = ("md5", "sha1", "sha256")


def recipe(rng: random.Random) -> tuple[str, str]:
    """A seed as a moderator's one-line recipe makes it, and the recipe."""
    kind = rng.choice(["random", "number", "time", "pattern"])
    if kind == "pattern":
        unit = secrets.token_hex(rng.randint(1, 8))
        return rng.choice([(unit * 64)[:32], "0123456789abcdef" * 2,
                           "0123456789abcdeffedcba9876543210",
                           "deadbeefcafebabe8badf00dfeedface", "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
                           "c0ffeec0ffeec0ffeedeadbeefdeadbe"]), "a pattern"
    value = {"random": rng.randrange(32768), "number": rng.randrange(recipes.NUMBERS),
             "time": rng.randrange(NOW - recipes.BEFORE, NOW + recipes.AFTER)}[kind]
    text = str(value) + rng.choice(["", "\n"])
    algorithm = rng.choice(ALGORITHMS)
    made = hashlib.new(algorithm, text.encode()).hexdigest()
    return rng.choice([made, made[:32]]), f"{algorithm} of {text!r}"


def test_every_recipe_of_the_search_is_refused_and_no_random_seed_is():
    rng = random.Random(SEED)
    accepted = []
    for _ in range(CASES):
        seed, how = recipe(rng)
        if not (commitment.guessable(seed, NAMES) or recipes.hashed(seed, NOW)):
            accepted.append(how)
    assert accepted == []
    randoms = [secrets.token_hex(16) for _ in range(200)]
    assert [s for s in randoms if commitment.guessable(s, NAMES)] == []
    assert [s for s in randoms[:3] if recipes.hashed(s, NOW)] == []


@pytest.mark.parametrize("seed, said", [
    (hashlib.md5(b"31337\n").hexdigest(), "MD5 of the number '31337' followed by a newline"),
    (hashlib.sha256(b"99999").hexdigest(), "SHA-256 of the number '99999'"),
    (hashlib.sha1(str(NOW - 3600).encode() + b"\n").hexdigest()[:32],
     f"SHA-1 of the Unix time '{NOW - 3600}' followed by a newline"),
    ("0123456789abcdeffedcba9876543210", "count up or down"),
    ("deadbeefcafebabe8badf00dfeedface", "spells words in hexadecimal"),
])
def test_new_refuses_a_recipe_seed_without_guessable(tmp_path, seed, said):
    mod = Moderator(tmp_path)
    err = mod.run("new", *NAMES, "--seed", seed, code=1).stderr
    assert "R-COMMIT" in err and said in err and "--guessable" in err
    assert not mod.log.exists()
    mod.run("new", *NAMES, "--seed", seed, "--guessable")
    assert logfile.read(str(mod.log)).header["seed_source"] == "guessable"
    report = log_audit.audit_file(str(mod.log))
    assert "accepted unchecked" in (report.seed or "")
    assert any(w.kind == "exposed" for w in report.warnings)


@pytest.mark.parametrize("given, source", [(None, "drawn"), ("supplied", "supplied")])
def test_the_header_commits_who_chose_the_seed_and_the_post_and_audit_say_so(
        tmp_path, given, source):
    mod = Moderator(tmp_path)
    args = ["--seed", secrets.token_hex(16)] if given else []
    mod.run("new", *NAMES, "--deal", "players", *args)
    header = logfile.read(str(mod.log)).header
    assert header["shmod"] == 5 and header["seed_source"] == source
    setup = parse_setup(header)
    assert f"seed_source {source}\n".encode() in commitment.canonical_bytes(setup)
    changed = dict(header, seed_source="drawn" if source != "drawn" else "supplied")
    assert commitment.commitment(parse_setup(changed)) != header["commitment"]
    opening = mod.run("post", "--again", "1").stdout
    assert ("shmod drew the secret seed" in opening) == (source == "drawn")
    assert ("The moderator supplied the secret seed" in opening) == (source == "supplied")
    report = log_audit.audit_file(str(mod.log))
    assert report.seed is not None and report.seed.startswith(
        "drawn by shmod" if source == "drawn" else "supplied by the moderator")
    assert f"Seed: {report.seed}" in mod.run("audit", str(mod.log)).stdout


def test_a_header_with_a_seed_source_it_cannot_have_is_refused():
    from shmod.forum.setup import new_header

    made = new_header(NAMES, seed="ab" * 16, salt="cd" * 16, created=DAY1)
    assert made["seed_source"] == "supplied"
    with pytest.raises(BadInput, match="seed_source must be one of drawn, supplied"):
        parse_setup(dict(made, seed_source="mine"))
    with pytest.raises(BadInput, match="a field of log format 5, not of this header's shmod: 4"):
        parse_setup(dict(made, shmod=4))
    with pytest.raises(BadInput, match="seed_source must be one of"):
        parse_setup({k: v for k, v in made.items() if k != "seed_source"})
