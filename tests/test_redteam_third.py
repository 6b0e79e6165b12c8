"""A third red-team pass over the format-3 fixes (R-DEAL words by look, R-LAPSE draws,
R-PM names, R-CHECKPOINT's opening post, the audit's ``steerable`` warnings): each test is
a break found on ``redc``, played through the installed ``shmod`` as a moderator types it."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from installed import SHMOD, Moderator

from shmod.log import store

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SEED = "3f9a0c71e2d84b56a1c09e7f42d3b8a5"
WORDS = ["lemon", "big cat", "zebra", "42", "unicode"]


def _shmod(m: Moderator, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    env.update(SHMOD_GAME=str(m.log), SHMOD_NOW=m.now, SHMOD_CACHE="off", COLUMNS="100")
    done = subprocess.run([str(SHMOD), *args], cwd=m.folder, env=env, text=True,
                          capture_output=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _deal(folder: Path, first: str) -> tuple[object, ...] | None:
    """The deal when Ann's word is typed as ``first``; None if shmod refuses it."""
    folder.mkdir(parents=True)
    m = Moderator(folder)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES, [first, *WORDS[1:]]):
        if _shmod(m, "word", name, word).returncode != 0:
            return None
    state = store.load(str(m.log)).table
    return (tuple(state.game.roles), tuple(state.game.draw), state.game.president)


# A word a player posts, and a transcription a reader of the thread cannot tell from it.
UPPER_AND_MARKS = {
    # capitals: the word is case-folded BEFORE its skeleton is taken, so a capital
    # look-alike (Cyrillic/Greek) becomes a lower-case letter that looks like nothing Latin
    "Cyrillic capitals": ("HELLO", "\u041d\u0415LL\u041e"),
    "Cyrillic capital M": ("MAMA", "\u041c\u0410\u041c\u0410"),
    "Greek capitals": ("TAXI", "\u03a4\u0391\u03a7\u0399"),
    # capital I and small l look alike in the sans-serif fonts forums use (the
    # confusables table says so: I -> l), but "I" folds to "i" first
    "capital I for small l": ("lamp", "Iamp"),
    # U+0307 on a soft-dotted i replaces its dot: li\u0307mon renders as limon
    "dot above on i": ("limon", "li\u0307mon"),
    # a right-to-left override: the post shows "lemon", the canonical form is "nomel"
    "right-to-left override": ("lemon", "\u202enomel"),
}


MARKS = ("dot above on i", "right-to-left override")


@pytest.mark.parametrize("what", MARKS)
def test_a_word_typed_with_marks_that_show_nothing_moves_no_deal(tmp_path, what):
    """R-DEAL (format 3), promise 1: Ann posts a word that renders identically in either
    transcription: `li\u0307mon` (U+0307 on a soft-dotted i replaces its dot) and
    `limon`; or `\u202enomel` (a right-to-left override shows it as `lemon`) and `lemon`.
    Each gave another deal. Now the look-alike skeleton drops a dot above on i or j, and
    a word holding a bidirectional control is refused (the moderator types what the post
    shows)."""
    plain, odd = UPPER_AND_MARKS[what]
    one = _deal(tmp_path / "a", plain)
    other = _deal(tmp_path / "b", odd)
    assert one is not None
    assert other is None or other == one, f"{plain!r} and {odd!r} look alike but deal apart"


@pytest.mark.parametrize("what", sorted(set(UPPER_AND_MARKS) - set(MARKS)))
def test_a_capital_lookalike_is_refused_or_shows_in_the_words_post(tmp_path, what):
    """R-DEAL: Ann posts `HELLO`; the moderator could type the Cyrillic capitals `НЕLLО`
    (or `МАМА`, Greek `ΤΑΧΙ`, `Iamp` for `lamp`), which look the same in capitals. Format 3
    showed them in the words post as the lower-case letters they fold to; format 4 refuses
    a letter of another alphabet outright (saying to ask for Latin letters), and a Latin
    capital is recorded small, so `Iamp` shows as `iamp`: everybody sees which word was
    dealt."""  # noqa: RUF002
    from shmod.forum.wordform import latin_word

    plain, odd = UPPER_AND_MARKS[what]
    folder = tmp_path / "odd"
    folder.mkdir()
    m = Moderator(folder, show=True)  # each step's post on stdout
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    typed = _shmod(m, "word", "Ann", odd)
    if typed.returncode:
        assert "R-DEAL" in typed.stderr and "Latin letters" in typed.stderr, typed.stderr
        return
    out = [m.run("word", name, word).stdout for name, word in zip(NAMES[1:], WORDS[1:])]
    shown = latin_word(odd)
    assert f"Ann: {shown};" in out[-1] and shown != latin_word(plain)


# -- promise 4: the opening post holds one commitment and one key -----------------------

SHADOWS = {
    "label and value on two lines": "Setup commitment (the real one):\n" + "cd" * 32,
    "zero-width space in the value": "Setup commitment: " + "cd" * 16 + "\u200b" + "cd" * 16,
    "Cyrillic letter in the label": "Setup \u0441ommitment: " + "cd" * 32,
    "plural label": "Setup commitments: " + "cd" * 32,
    "value far along the line": "Setup commitment" + " " * 81 + "cd" * 32,
    "key on its own line": "Moderator's public key:\n" + "ef" * 32,
}


@pytest.mark.parametrize("what", sorted(SHADOWS))
def test_a_second_commitment_or_key_in_the_opening_post_is_found_however_written(tmp_path,
                                                                                 what):
    """R-COMMIT, promise 4: "the opening post region must hold one commitment and one key;
    a second is a problem". The moderator's opening post carries a second commitment (or
    key) written so a forum shows it plainly but the audit's regex misses it (value on
    the next line, more than 80 characters on, a zero-width space inside the hex, a
    look-alike letter or a plural in the label): the audit says VALID, "the opening post
    carries this log's commitment and moderator's key". Any further 64-hex value in the
    opening region (invisible characters removed, any label) should be a rival."""
    m = Moderator(tmp_path)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES, WORDS):
        m.run("word", name, word)
    thread = "\n\n".join(m.run("post", "--again", str(n)).stdout for n in (1, 2))
    at = thread.index("Log checkpoint: post 1")
    shadowed = thread[:at] + SHADOWS[what] + "\n" + thread[at:]
    (tmp_path / "t.txt").write_text(shadowed)
    out = _shmod(m, "audit", str(m.log), "--thread", str(tmp_path / "t.txt"))
    assert out.returncode == 1, out.stdout


# -- promise 5: a format-2 log that used a steerable rule is flagged ---------------------


def _format2_words(path: Path, words: list[str]) -> tuple[bool, list[str], tuple[str, ...]]:
    """A format-2 log (``shmod: 2``, what the previous shmod wrote, or a hand-written
    header) dealt from ``words``: whether it audits valid, its steerable warnings, its
    roles."""
    from scripted import KEYS

    from shmod.audit import log_audit
    from shmod.forum.setup import new_header
    from shmod.forum.steps import Word

    header = new_header(NAMES, seed=SEED, created="2026-11-23T10:00:00Z", salt="ab" * 16,
                        deal_by="players", keys=KEYS)
    header["shmod"] = 2
    header.pop("seed_source", None)  # a field of format 5 only
    header.pop("commitment", None)
    path.write_text(store.log_text(header, [Word(s, w) for s, w in enumerate(words)],
                                   at="2026-11-23T10:00:00Z"))
    report = log_audit.audit_file(str(path))
    assert report.table is not None
    return (report.valid, [w.message for w in report.warnings if w.kind == "steerable"],
            tuple(report.table.game.roles))


def test_a_format2_deal_from_ascii_lookalike_words_is_flagged_steerable(tmp_path):
    """R-DEAL, promise 5: format 2 dealt each canonical word as typed, and the audit
    flags a format-2 words deal only when a word is beyond ASCII. But ASCII has look-alikes
    of its own, which format 3's skeleton merges (m and rn, 0 and o, 1 and l): the
    moderator transcribes Ann's `lemon` as `lernon` (the deal post shows the two alike)
    and gets another deal, and the audit gives no `steerable` warning. A format-2 deal
    with a word whose format-3 key differs from itself (m, 0, 1, |, ...) should be
    flagged too."""
    valid, warned, roles = _format2_words(tmp_path / "a.yaml", ["lemon", *WORDS[1:]])
    valid2, warned2, roles2 = _format2_words(tmp_path / "b.yaml", ["lernon", *WORDS[1:]])
    assert valid and valid2 and roles != roles2  # the older rule's weakness
    assert warned and warned2, "a format-2 deal that `rn` for `m` could steer is not flagged"


# -- promise 3: a PM never holds another seat's secrets ----------------------------------


def test_a_newcomer_whose_replacement_was_voided_is_not_seated_elsewhere(tmp_path):
    """R-PM, R-REPLACE, R-CORRECT, promise 3: Zed replaces Ann (seat 1) and is sent seat
    1's briefing (a Fascist who knows Hitler). The replacement is voided (`correct
    --force`: its post was printed); Zed is told to disregard the PM, but has read it.
    Then `replace Bob Zed` is accepted: the voided replacement is no longer in the
    table's record of names, so held_elsewhere does not see that the name Zed was sent
    seat 1's secrets, and Zed now holds the secrets of seats 1 and 2. A name that was
    ever sent a seat's PM (voided or not) should be refused for any other seat."""
    m = Moderator(tmp_path)
    m.run("new", *NAMES, "--first", "Ann", "--seed", SEED)
    m.run("replace", "Ann", "Zed")
    first = m.run("pm", "Zed").stdout
    assert "seat 1" in first
    m.run("correct", "2", "--reason", "wrong seat", "--force")
    before = m.log.read_bytes()
    done = _shmod(m, "replace", "Bob", "Zed")
    pms = _shmod(m, "pm", "Zed").stdout
    assert done.returncode == 1 and m.log.read_bytes() == before, (
        "Zed, once sent seat 1's briefing, was seated in seat 2: " + pms)


# -- promise 4: a format-1 log's "after the reveal" is the reveal ------------------------

FORMAT1 = Path(__file__).resolve().parent.parent / "games" / "five-players.yaml"


def test_a_format1_salt_shown_early_does_not_excuse_a_truncated_log(tmp_path):
    """R-CHECKPOINT, promise 4: a format-1 log's disagreeing salt-tagged lines are only
    warnings when "posted after the salt appears in the thread (the reveal)". The
    moderator (who knows the salt; a format-1 header can be written by hand for a new
    game) shows it in the opening post as a harmless-looking "game id". Every later
    genuine line then counts as "after the reveal": the log cut after post 22 of
    games/five-players.yaml (posts 23-42 removed) audits VALID against the whole thread,
    where without the early salt it is INVALID ("posts were removed from the log"). The
    salt should count as revealed only where the reveal can be: after the thread's line
    for the last post the log records (or a genuine line after a salt shown earlier still
    fails the log)."""
    import yaml

    m = Moderator(tmp_path)
    log = tmp_path / "five-players.yaml"
    log.write_bytes(FORMAT1.read_bytes())
    listing = m.run("post", "--list", "-g", str(log))
    count = len([line for line in (listing.stdout + listing.stderr).splitlines()
                 if line.startswith("post ")])
    thread = "\n\n".join(m.run("post", "--again", str(n), "-g", str(log)).stdout
                         for n in range(1, count + 1))
    lines = log.read_text().split("\n")
    posted = [n for n, line in enumerate(lines) if line.startswith("- {kind: posted")]
    cut = tmp_path / "cut.yaml"
    cut.write_text("\n".join(lines[:posted[len(posted) // 2] + 1]) + "\n")
    (tmp_path / "t.txt").write_text(thread)
    assert _shmod(m, "audit", str(cut), "--thread", str(tmp_path / "t.txt")).returncode == 1
    salt = yaml.safe_load(log.read_text())["secret"]["salt"]
    (tmp_path / "early.txt").write_text(f"Game id (for the archive): {salt}\n\n{thread}")
    out = _shmod(m, "audit", str(cut), "--thread", str(tmp_path / "early.txt"))
    assert out.returncode == 1, out.stdout[:600]


def test_a_name_with_a_dot_above_its_i_is_not_given_to_another_seat(tmp_path):
    """R-PM, R-RENAME, promise 3: Liz (seat 1) is sent her role and renamed Lizzy. Bob is
    then renamed `Li\\u0307z`: U+0307 COMBINING DOT ABOVE on a soft-dotted i replaces its
    dot, so the name renders as Liz, but its skeleton keeps the mark (the confusables
    table has no row for it), so it is not a look-alike of Liz and is accepted: PMs to
    "Liz" now go to seat 2. (The same gap lets a word `li\\u0307mon` deal apart from
    `limon`.) A dot above on i or j, or any combining mark that renders as nothing new,
    should be dropped from the skeleton or refused."""
    m = Moderator(tmp_path)
    m.run("new", "Liz", *NAMES[1:], "--first", "Liz", "--seed", SEED)
    m.run("rename", "Liz", "Lizzy")
    m.refused("rename", "Bob", "Li\u0307z", rule="R-RENAME")


def test_a_fake_checkpoint_line_atop_the_opening_post_does_not_hide_a_second_commitment(
        tmp_path):
    """R-COMMIT, promise 4: the opening post region is "the text before the first
    checkpoint line", any checkpoint line. The moderator starts the opening post with a
    line of an old format (`Log checkpoint: entry 1 <32 hex>`: "another game's, ignored",
    a warning), so the region is empty; the post then carries a second commitment and a
    second key in plain lines, which the audit reports only as "a quote, a typo or another
    game's" (a warning): VALID. The region should end at the opening post's own genuine
    checkpoint line (post 1, signed under its key), not at any line of that shape."""
    m = Moderator(tmp_path)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES, WORDS):
        m.run("word", name, word)
    thread = "\n\n".join(m.run("post", "--again", str(n)).stdout for n in (1, 2))
    at = thread.index("Log checkpoint: post 1")
    shadowed = (f"Log checkpoint: entry 1 {'ab' * 16}\n" + thread[:at]
                + f"Setup commitment: {'cd' * 32}\nModerator's public key: {'ef' * 32}\n"
                + thread[at:])
    (tmp_path / "t.txt").write_text(shadowed)
    out = _shmod(m, "audit", str(m.log), "--thread", str(tmp_path / "t.txt"))
    assert out.returncode == 1, out.stdout


def test_a_fake_checkpoint_line_brings_back_the_shadow_commitment_above_the_opening(
        tmp_path):
    """R-COMMIT, R-CHECKPOINT, promise 4 (test_redteam_steering's shadow commitment,
    again): the moderator plays the honest game H and keeps the shadow S (one seed, two
    `shmod new`), and shows S's commitment and key above H's opening post, as before; but
    first puts an old-format checkpoint line (`Log checkpoint: entry 1 <32 hex>`) at the
    very top. The opening region (text before the first checkpoint line) is then empty,
    so neither H's nor S's commitment is a rival, S's (the first in the text) is taken as
    the opening post's, H's genuine lines are "forged", and S, with Eve's vote flipped,
    audits VALID."""
    honest, shadow = Moderator(tmp_path), Moderator(tmp_path)
    honest.log, shadow.log = tmp_path / "games" / "h.yaml", tmp_path / "games" / "s.yaml"
    for m, eve in ((honest, "nein"), (shadow, "ja")):
        m.run("new", *NAMES, "--first", "Ann", "--seed", SEED)
        m.run("nominate", "Bob")
        m.run("vote", "Ann", "ja", "Bob", "ja", "Cy", "ja", "Dee", "ja", "Eve", eve)
    import yaml

    thread = "\n\n".join(honest.run("post", "--again", str(n)).stdout for n in (1, 2, 3))
    header = yaml.safe_load(shadow.log.read_text())
    above = (f"Log checkpoint: entry 1 {'ab' * 16}\n"
             f"Friday's game. Setup commitment: {header['commitment']} · "
             f"Moderator's public key: {header['moderator_key']}\n\n")
    shadow.run("publish", "--force", "-o", str(tmp_path / "s.published.yaml"))
    (tmp_path / "t.txt").write_text(above + thread)
    audited = _shmod(shadow, "audit", str(tmp_path / "s.published.yaml"), "--thread",
                     str(tmp_path / "t.txt"))
    assert audited.returncode != 0, audited.stdout


def test_a_whole_second_signed_opening_above_the_real_one_is_named(tmp_path):
    """R-COMMIT, R-CHECKPOINT, what is left: the moderator puts the shadow game's whole
    opening post, with its own genuinely signed post-1 line, above the honest game's
    opening post. Text alone cannot tell that from a player posting a signed game of
    their own later, so the audit does not fail it; but every line of the honest game is
    named as signed under another moderator's key shown in the thread (a warning each),
    never passed over as a forgery, so whoever audits sees two signed games."""
    honest, shadow = Moderator(tmp_path), Moderator(tmp_path)
    honest.log, shadow.log = tmp_path / "games" / "h.yaml", tmp_path / "games" / "s.yaml"
    for m, eve in ((honest, "nein"), (shadow, "ja")):
        m.run("new", *NAMES, "--first", "Ann", "--seed", SEED)
        m.run("nominate", "Bob")
        m.run("vote", "Ann", "ja", "Bob", "ja", "Cy", "ja", "Dee", "ja", "Eve", eve)
    thread = "\n\n".join(honest.run("post", "--again", str(n)).stdout for n in (1, 2, 3))
    planted = shadow.run("post", "--again", "1").stdout
    shadow.run("publish", "--force", "-o", str(tmp_path / "s.published.yaml"))
    (tmp_path / "t.txt").write_text(planted + "\n\n" + thread)
    audited = _shmod(shadow, "audit", str(tmp_path / "s.published.yaml"), "--thread",
                     str(tmp_path / "t.txt"))
    named = [line for line in audited.stdout.splitlines()
             if "signed under another moderator's key shown in the thread" in line]
    assert len(named) == 3, audited.stdout
