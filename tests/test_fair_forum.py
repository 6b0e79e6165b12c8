"""Issue 25: nothing the moderator types can steer the deal or a lapse, and a correction
voids only what it names (R-DEAL, R-LAPSE, R-CORRECT, R-COMMIT, R-NO-NOMINEE).

Each test is one of the issue's repros, played through the installed ``shmod`` as a
moderator types it (the clock injected), or the cheater's search: everything the moderator
may type is varied, and what shmod promises nobody can choose must not move."""
from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
import yaml
from installed import DAY1, DAY2, SHMOD, Moderator

from shmod.forum import commitment, engine
from shmod.forum.earlier_words import canonical_word
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.turns import legal_steps
from shmod.game.legal import voters
from shmod.game.steps import Step, Vote
from shmod.game.terms import OVER, POWER, VOTE
from shmod.log import signing, store

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SEED = "3f9a0c71e2d84b56a1c09e7f42d3b8a5"
WORDS = ["lemon", "big cat", "zebra", "42", "ünïcode"]
LATER = "2026-11-23T11:00:00Z"  # an hour after DAY1
LATE = "2026-11-23T13:00:00Z"


def dealt(folder: Path, *before_last: list[str], words: list[str] = WORDS) -> dict:
    """A five-player game dealt from the players' words through the installed shmod, with
    ``before_last`` commands typed before the last word; the secrets it dealt."""
    folder.mkdir()
    m = Moderator(folder, show=True)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES[:-1], words[:-1]):
        m.run("word", name, word)
    for args in before_last:
        m.run(*args)
    last = store.load(str(m.log)).table.game.players[-1]
    m.run("word", last, words[-1])
    state = store.load(str(m.log)).table
    return {"roles": state.game.roles, "deck": tuple(state.game.draw), "first": state.game.president}


# -- R-DEAL ---------------------------------------------------------------------------


def test_renames_and_replacements_before_the_last_word_move_no_deal(tmp_path):
    """Issue 25 §1: `rename Ann ann`, `rename Bob Bobby` or a replacement gave other deals
    from the same seed and words; a word belongs to its seat, never to a name."""
    plain = dealt(tmp_path / "plain")
    for n, typed in enumerate([[["rename", "Ann", "ann"]], [["rename", "Bob", "Bobby"]],
                               [["replace", "Cy", "Cyril"]],
                               [["rename", "Eve", "Evelyn"], ["replace", "Dee", "Dora"]]]):
        assert dealt(tmp_path / f"renamed{n}", *typed) == plain, typed


def test_transcription_leaves_the_moderator_no_choice(tmp_path):
    """Issue 25 §1: `lemon`, `Lemon` and `LEMON` gave three deals, and flipping the case
    of the words' first letters reached a wished-for deal. Every case pattern of every
    word, with the punctuation and spaces a post may carry, is one canonical word."""
    rng = random.Random(25)
    for word in WORDS:
        forms = {canonical_word(word)}
        for _ in range(64):
            flipped = "".join(c.upper() if rng.random() < 0.5 else c for c in word)
            dressed = f"{rng.choice(['', ' ', '  «'])}{flipped}{rng.choice(['', '!', '.', ' ?!'])}"
            forms.add(canonical_word(dressed.replace(" ", "  ")))
        assert forms == {word}, forms
    assert canonical_word("\uff2c\uff25\uff2d\uff2f\uff2e") == "lemon"  # NFKC: full-width letters too
    assert canonical_word("Straße") == canonical_word("STRASSE") == "strasse"
    plain = dealt(tmp_path / "plain")
    assert dealt(tmp_path / "shouted", words=["LEMON!", "Big  Cat", "«Zebra»", "42.",
                                              "ÜNÏCODE"]) == plain


def test_a_replacement_posts_no_word_and_the_deal_stands_once_made(tmp_path):
    """Issue 25 §1: a seat's word belongs to the seat; once the roles are dealt nothing
    re-deals them, --force included, and no second role PM goes out."""
    m = Moderator(tmp_path, show=True)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    m.run("word", "Cy", "zebra")
    m.run("replace", "Cy", "Cyril")
    m.refused("word", "Cyril", "other", rule="R-DEAL: Cyril has already posted a word ('zebra')")
    for name, word in zip(["Ann", "Bob", "Dee"], WORDS):
        m.run("word", name, word)
    last = m.run("word", "Eve", "Ünïcode")
    assert last.stdout.count("── PM to ") == 5
    for args in (["correct", "--reason", "typo"], ["correct", "--force", "--reason", "typo"],
                 ["correct", "2", "--force", "--reason", "typo"]):
        m.refused(*args, rule="R-DEAL: entry")
    err = m.refused("correct", "--force", "--reason", "x", rule="once the roles are dealt")
    assert "start a new game (shmod new) with a new commitment" in err


def test_the_reveal_shows_the_dealt_deck_and_the_audit_recomputes_the_deal(tmp_path):
    """Issue 25 §1: in a words-dealt game `shmod reveal` printed an empty starting deck."""
    from shmod.texts.formats import Plain
    from shmod.texts.reveal import reveal_text

    m = Moderator(tmp_path, show=True)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES, WORDS):
        m.run("word", name, word)
    loaded = store.load(str(m.log))
    state = loaded.table
    loaded.table = _finished(state)
    text = reveal_text(loaded, Plain())
    deck = re.search(r"Starting deck, top first: (.+)", text)
    assert deck is not None
    shown = [card.strip()[0] for card in deck.group(1).split(",")]
    assert shown == list(state.game.draw) and len(shown) == 17
    out = m.run("audit", "-c", loaded.setup.commitment or "").stdout
    assert "recomputed the roles, the deck and the first President" in out


def _finished(state):
    """``state`` as a game over, for the reveal (which refuses a game in progress)."""
    from shmod.game.events import Win

    state.game.win, state.game.phase = Win("Liberals", "R-WIN-LIB"), OVER
    return state


# -- R-LAPSE --------------------------------------------------------------------------

SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def at_power(folder: Path, power: str) -> Path:
    """A seven-player log (late_choice=random) stopped where the President holds
    ``power``, written as shmod writes it; the first random game that gets there."""
    for attempt in range(400):
        rng = random.Random(attempt)
        header = new_header(SEVEN, seed=f"{rng.getrandbits(128):032x}", created=DAY1,
                            salt=f"{rng.getrandbits(128):032x}",
                            variants=["late_choice=random", "late_vote=nein"],
                            keys=signing.new_key())
        state = start(parse_setup(header))
        steps: list[Step] = []
        while state.game.phase != OVER and len(steps) < 400:
            if state.game.phase == POWER and state.game.power == power:
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / "games" / "friday.yaml"
                path.parent.mkdir(exist_ok=True)
                path.write_text(store.log_text(header, steps, at=DAY1))
                path.chmod(0o600)
                return path
            step = (Vote(rng.choice(voters(state.game)), rng.random() < 0.8)
                    if state.game.phase == VOTE else rng.choice(legal_steps(state)))
            engine.apply(state, step)
            steps.append(step)
    raise AssertionError(f"no random game reached {power}")


BOOKKEEPING = [["prods"], ["backup", "Xena"], ["backup", "Yuri", "Zoe"], ["remind"],
               ["deadline", "48h"], ["deadline", "30m", "--phase"], ["prods"],
               ["send"], ["outbox", "--settle"], ["send", "thread"]]  # deliveries (issue 40)


@pytest.mark.parametrize("power", ["investigate", "execute"])
def test_no_bookkeeping_moves_a_random_lapse(tmp_path, power):
    """Issue 25 §2: the draw used the lapse's entry number, so 0-5 prods, backups or
    reminders first gave four different targets (Hitler among the victims). Now the draw
    is of the decision: every mix of bookkeeping gives the one target."""
    base = at_power(tmp_path / "base", power)
    rng = random.Random(7)
    drawn = set()
    for n in range(8):
        m = Moderator(tmp_path / f"try{n}", now=DAY1, show=True)
        m.log.parent.mkdir(parents=True)
        shutil.copy(base, m.log)
        m.run("deadline", "1h")
        for args in rng.sample(BOOKKEEPING, rng.randint(0, 5)):
            m.run(*args)
        if n % 2:
            m.run("rename", "Ann", "Annie")  # a name typed later moves nothing either
        m.run("deadline", "2h")
        m.now = DAY2
        m.run("lapse")
        entry = yaml.safe_load(m.log.read_text())["log"]
        choice = [e["choice"] for e in entry if e["kind"] == "lapse"]
        seat = [SEVEN.index(c) if c in SEVEN else SEVEN.index("Ann") for c in choice]
        drawn.add(tuple(seat))
    assert len(drawn) == 1, drawn


def _voting(tmp_path: Path) -> Moderator:
    m = Moderator(tmp_path, show=True)
    m.run("new", *NAMES, "--first", "Ann", "--seed", SEED, "-V", "late_vote=nein",
          "-V", "late_choice=random")
    m.run("nominate", "Bob")
    m.run("deadline", "1h")
    return m


def test_a_deadline_lapses_once(tmp_path):
    """Issue 25 §2: after the votes lapsed, a second `shmod lapse` at the same minute
    discarded at random, a third enacted, a fourth fired the power."""
    m = _voting(tmp_path)
    m.run("vote", "Ann", "ja", "Bob", "ja", "Cy", "ja")
    m.now = LATE
    out = m.run("lapse").stdout
    assert "counted as Nein" in out
    assert "That deadline is spent and decides nothing more: what falls due now waits for a " \
           "new deadline." in out
    err = m.refused("lapse", rule="R-LAPSE: the deadline 2026-11-23T11:00:00Z lapsed already")
    assert "needs a new deadline" in err
    assert "overdue" not in m.run("status").stdout


def test_what_falls_due_after_the_deadline_waits_for_a_new_one(tmp_path):
    """R-LAPSE: votes that came in after the deadline passed made the President's discard
    due after it: that discard cannot lapse at the old deadline."""
    m = _voting(tmp_path)
    m.now = "2026-11-23T12:00:00Z"  # the deadline (11:00) has passed; votes come in late
    m.run("vote", "Ann", "ja", "Bob", "ja", "Cy", "ja", "Dee", "ja", "Eve", "ja")
    m.now = LATE
    m.refused("lapse", rule="R-LAPSE: a choice not sent fell due at 2026-11-23T12:00:00Z, "
              "after the deadline 2026-11-23T11:00:00Z had passed")
    m.run("deadline", "1h")
    m.run("outbox", "--settle")  # sent: a discard is drawn only from a hand she had (issue 40)
    m.now = "2026-11-23T15:00:00Z"
    assert "discarded at random" in m.run("lapse").stdout


# -- R-CORRECT ------------------------------------------------------------------------


def test_a_correction_keeps_the_backups_and_prods_it_does_not_name(tmp_path):
    """Issue 25 §4, the repro: the backup list and the prod were wiped by a correction of
    a vote, and `replace` then failed "the backup list is empty"."""
    m = Moderator(tmp_path, show=True)
    m.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "--first", "Ann",
          "--seed", SEED)
    m.run("backup", "Xena", "Yuri")
    m.run("nominate", "Bob")
    m.run("prods")
    m.run("outbox", "--settle")  # sent by hand: the prods count (issue 40)
    m.run("vote", "Ann", "ja")
    m.run("correct", "--reason", "typo")
    assert "Xena" in m.run("backup").stdout and "Yuri" in m.run("backup").stdout
    assert re.search(r"prodded 1×", m.run("status").stdout)
    assert "Xena takes" in m.run("replace", "Cat").stdout or "Xena" in m.run("status").stdout


# -- R-COMMIT, R-NO-NOMINEE, hints ----------------------------------------------------


def test_a_header_reusing_a_published_salt_is_not_played_on(tmp_path):
    """Issue 25 §5: a hand-written header with the docs' example salt played on."""
    m = Moderator(tmp_path, show=True)
    m.log.parent.mkdir()
    header = new_header(NAMES, seed=SEED, salt="3a7bd3e2360a3d29eea436fcfb7e44c7",
                        created=DAY1, first="Ann", keys=signing.new_key())
    m.log.write_text(store.log_text(header, [], at=DAY1))
    m.log.chmod(0o600)
    err = m.refused("nominate", "Bob", rule="R-COMMIT", code=2)
    assert "salt anyone can guess (it is printed in shmod's own documentation" in err
    assert "can be guessed" in m.run("audit").stdout  # a warning: the log itself is valid


def test_every_secret_printed_in_the_docs_and_example_games_is_known_as_published():
    root = Path(__file__).parent.parent
    printed = set()
    for path in [*root.glob("docs/*.md"), root / "README.md"]:
        printed |= set(re.findall(r'(?:seed|salt)[ ":=]+"?([0-9a-f]{32})\b', path.read_text()))
    for path in root.glob("games/*.yaml"):
        secret = yaml.safe_load(path.read_text())["secret"]
        printed |= {str(secret[k]) for k in ("seed", "salt") if k in secret}
    assert printed and printed <= commitment.PUBLISHED, printed - commitment.PUBLISHED


def test_status_lists_nobody_term_limited_while_the_limits_are_set_aside():
    """Issue 25 §5: with the term limits set aside (R-NO-NOMINEE), status still listed the
    last Chancellor as term-limited."""
    from shmod.game.house import adjust
    from shmod.texts.formats import Plain
    from shmod.texts.game_texts import board_text
    from shmod.texts.views import public_view

    setup = parse_setup(new_header(NAMES, seed=SEED, salt=SEED[::-1], created=DAY1,
                                   first="Ann"))
    from shmod.base.records import replace

    state = start(replace(setup, rules=adjust(setup.rules, setup.variants)))
    state.game.alive = [True, True, False, False, False]
    state.game.term_chancellor = 1
    view = public_view(state)
    assert view.term_limited == () and view.limits_set_aside
    assert "Term-limited: nobody: the term limits are set aside" in board_text(view, Plain())
    state.game.alive = [True, True, True, False, False]
    assert public_view(state).term_limited == (("Bob", "chancellor"),)
    assert "Term-limited: Bob (last elected Chancellor)" in board_text(public_view(state), Plain())


def test_a_hand_edited_name_says_the_header_changed(tmp_path):
    """Issue 25 §5: an edit of the header gave only a rule error at a later entry."""
    m = Moderator(tmp_path, show=True)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES, WORDS):
        m.run("word", name, word)
    text = m.log.read_text()
    m.log.write_text(text.replace("- Bob\n", "- Bobby\n", 1))
    err = m.run("status", code=2).stderr
    assert "unknown player 'Bob'" in err and "the header was changed after `shmod new`" in err


def test_a_hand_edited_word_names_the_edited_entry(tmp_path):
    """A word edited by hand deals otherwise, so a later step fails: the error names the
    edited entry (the hash chain knows it), not only the step that no longer stands."""
    m = Moderator(tmp_path, show=True)
    m.run("new", *NAMES, "--deal", "players", "--seed", SEED)
    for name, word in zip(NAMES, WORDS):
        m.run("word", name, word)
    first = store.load(str(m.log)).table.game.players[store.load(str(m.log)).table.game.president]
    other = next(n for n in NAMES if n != first)
    m.run("nominate", other)
    m.log.write_text(m.log.read_text().replace("word: zebra", "word: zorro"))
    err = m.run("status", code=2).stderr
    assert re.search(r"note: entry \d+ \(line \d+\) was changed after shmod wrote it", err), err
