"""Issue 35, guessable seeds (R-COMMIT): a seed made with ``md5sum``, ``sha1sum`` or
``sha256sum`` from a text a player tries first (nothing, the players' names, a common
word) looks like 128 random bits and is none. ``new`` refuses every seed of the player's
search below, the audit names what it is the hash of, and a recording command refuses such
a salt (``shmod/forum/guesses.py``, the word list ``shmod/forum/common_words.py``).

On the main of 3655be9 ``shmod new --seed d41d8cd98f00b204e9800998ecf8427e`` (the MD5 of
nothing) was accepted without ``--guessable`` and audited without a warning: the player's
search found it in its first guess and dealt every role."""
from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from installed import SHMOD, Moderator

from shmod.forum import common_words, guesses
from shmod.forum.commitment import guessable
from shmod.game import setup as game_setup
from shmod.game.house import rules_for

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
MD5_OF_NOTHING = "d41d8cd98f00b204e9800998ecf8427e"
ROOT = Path(__file__).resolve().parent.parent


def hashed(text: str) -> list[str]:
    """What a player tries for ``text``: its MD5, SHA-1 and SHA-256, typed and echoed, each
    whole and cut to 32 digits (shmod's shortest strong seed)."""
    out = []
    for typed in (text, text + "\n"):
        for name in ("md5", "sha1", "sha256"):
            full = hashlib.new(name, typed.encode()).hexdigest()
            out += dict.fromkeys([full[:32], full])
    return out


def attacker_texts(names: list[str]) -> list[str]:
    """The player's texts, most likely first: nothing, the names, the seating, the words."""
    texts = ["", *names, *(n.lower() for n in names)]
    for order in (names, sorted(names)):
        for words in (order, [n.lower() for n in order]):
            texts += [join.join(words) for join in ("", " ", ",", ", ", "\n")]
    return texts + guesses.words(common_words.WORDS)


def test_the_players_search_finds_a_hashed_seed_and_shmod_refuses_it(tmp_path):
    """A player knows her role (her PM) and the first President (the opening post);
    she deals each candidate seed as shmod does and keeps those that agree. The MD5 of
    nothing is her first guess: every role follows."""
    mod = Moderator(tmp_path)
    err = mod.run("new", *NAMES, "--seed", MD5_OF_NOTHING, code=1).stderr
    assert "R-COMMIT" in err and "it is the MD5 of the empty text" in err
    assert "--guessable" in err and not mod.log.exists()
    mod.run("new", *NAMES, "--seed", MD5_OF_NOTHING, "--guessable")  # a demonstration
    me = "Ann"
    pm = mod.run("pm", me).stdout
    mine = next(role for role, said in (("liberal", "you are a Liberal"),
                                        ("fascist", "you are a Fascist"),
                                        ("hitler", "you are Hitler")) if said in pm)
    opening = mod.run("post", "--again", "1").stdout
    first = next(n for n in NAMES if f"The first Presidential Candidate is {n}." in opening)
    rules = rules_for(5, {}, None)
    tried, found = 0, None
    for text in attacker_texts(NAMES):
        for seed in hashed(text):
            tried += 1
            roles, _, president = game_setup.from_seed(tuple(NAMES), rules, seed, None)
            if roles[NAMES.index(me)] == mine and NAMES[president] == first:
                found = seed
                break
        if found:
            break
    assert found == MD5_OF_NOTHING and tried == 1
    audit = mod.run("audit", str(mod.log)).stdout
    assert f"the seed '{MD5_OF_NOTHING}' can be guessed (it is the MD5 of the empty text)" \
        in audit


@pytest.mark.parametrize("text, algorithm, said", [
    ("", "sha1", "the SHA-1 of the empty text"),
    ("\n", "md5", "the MD5 of the empty text and a newline"),
    ("Cat", "sha256", "the SHA-256 of the player name 'Cat'"),
    ("ann\n", "md5", "the MD5 of the player name 'ann' and a newline"),
    ("Ann Bob Cat Dan Eve", "sha256", "the SHA-256 of the seating joined by ' '"),
    ("ann,bob,cat,dan,eve\n", "sha1", "the SHA-1 of the seating in lower case joined by ',' and a newline"),
    ("password\n", "md5", "the MD5 of the common word 'password' and a newline"),
    ("secret hitler", "sha256", "the SHA-256 of the common word 'secret hitler'"),
    ("dragon", "sha1", "the SHA-1 of the common word 'dragon'"),
])
def test_new_refuses_a_hash_of_what_a_player_tries(tmp_path, text, algorithm, said):
    seed = hashlib.new(algorithm, text.encode()).hexdigest()[:32 if algorithm == "md5" else 40]
    mod = Moderator(tmp_path)
    err = mod.run("new", *NAMES, "--seed", seed, code=1).stderr
    assert f"can be guessed (it is {said})" in err and not mod.log.exists()


def test_a_hashed_salt_is_refused_by_every_recording_command(tmp_path):
    """A salt written by hand as the SHA-256 of a common word hides nothing: a player
    inverts the commitment with it. The next step is refused, the audit warns."""
    mod = Moderator(tmp_path)
    mod.run("new", *NAMES, "--first", "Ann")
    text = mod.log.read_text()
    salt = next(line for line in text.splitlines() if line.startswith("  salt: "))
    weak = hashlib.sha256(b"monkey").hexdigest()[:32]
    mod.log.write_text(text.replace(salt, f"  salt: {weak}"))  # (warned as an edit too)
    before = mod.log.read_bytes()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(SHMOD), *args, str(mod.log)], capture_output=True,
                              text=True, timeout=60,
                              env={**os.environ, "SHMOD_CACHE": "off", "SHMOD_NOW": mod.now})

    refused = run("nominate", "Bob", "-g")
    assert refused.returncode == 2 and mod.log.read_bytes() == before
    assert refused.stderr.splitlines()[-1].startswith("Error: ")
    assert "salt anyone can guess (it is the SHA-256 of the common word 'monkey')" in \
        refused.stderr and "R-COMMIT" in refused.stderr
    assert "can be guessed (it is the SHA-256 of the common word 'monkey')" in \
        run("audit").stdout


def test_every_seed_of_the_players_search_is_refused():
    """The whole search above: every candidate's first 8 digits are in the index (so the
    check hashes the words), and a fixed sample of candidates is refused outright."""
    texts = attacker_texts(NAMES)
    seeds = [seed for text in texts for seed in hashed(text)]
    assert len(seeds) > 40_000
    missing = [s for s in seeds if not guesses._indexed(s[:guesses.PREFIX])
               and guessable(s, NAMES) is None]
    assert missing == []
    for seed in random.Random(35).sample(seeds, 60):
        assert guessable(seed, NAMES) is not None, seed


def test_random_seeds_are_not_called_guessable():
    rng = random.Random(3535)
    for _ in range(2000):
        seed = f"{rng.getrandbits(128):032x}"
        assert guessable(seed, NAMES) is None, seed


def test_the_shipped_word_list_and_its_index_agree():
    """common_words.py is generated (tools/make_common_words.py): its index is exactly the
    one its words give, and it holds a few thousand words, the most common first."""
    listed = guesses.words(common_words.WORDS)
    assert len(listed) == common_words.COUNT and 3000 <= len(listed) <= 6000
    assert len(set(listed)) == len(listed) and listed[:2] == ["123456", "password"]
    assert guesses.index(listed) == common_words.INDEX
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_common_words as tool
    finally:
        sys.path.pop(0)
    assert tool.module(listed) == (ROOT / "shmod/forum/common_words.py").read_text()
