"""Issue 42, a post race (R-MERGE): two moderators each made post N on their own clone.
Nothing signed vanishes from the record: the post delivered first stands; the other, if it
reached the thread, is kept as one ``withdrawn`` entry (its number, its checkpoint, the
identities of the entries it covered) and its steps are applied on top; the outbox owes
its signed withdrawal line, to add by editing that post in the thread; the thread audit
accepts that post only when the line follows it. A post never delivered is dropped with
no line. Real clones of a local bare repository (``tests/clones.py``), the posts read from
``shmod send`` as a moderator pastes them.
"""
from __future__ import annotations

import re
import secrets
import shutil
from pathlib import Path

import pytest
from clones import DAY1, DAY2, LOG, Clone, Thread, pair

from shmod.audit.log_audit import audit_log
from shmod.audit.thread_audit import audit_thread
from shmod.base.errors import LogError, ShmodError
from shmod.forum.commitment import commitment
from shmod.forum.setup import parse_setup
from shmod.forum.steps import SetDeadline
from shmod.game.steps import Nominate, Step, Vote
from shmod.log import chain, checkpoints, logfile, outbox, seen, store, withdrawals
from shmod.log.merge import merge
from shmod.texts import formats, outbox_texts, thread_posts
from shmod.texts.formats import Plain

GIT = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def audited(thread: Thread, clone: Clone, code: int = 0) -> str:
    path = thread.write(clone.folder.parent / f"thread-{clone.name}.txt")
    return clone.shmod("audit", LOG, "--thread", str(path), code=code).stdout


def _raced(tmp_path, *, first: str = "Mia", delivered: bool = True):  # type: ignore[no-untyped-def]
    """Mia and Ned both make post 3 (a deadline each, Ned's after a vote) and deliver it,
    ``first`` at DAY1, the other at DAY2; Mia pushes, Ned commits. The thread so far."""
    mia, ned = pair(tmp_path)
    thread = Thread()
    thread.send_all(mia)
    mia.share()
    ned.pull()
    mia.now, ned.now = (DAY1, DAY2) if first == "Mia" else (DAY2, DAY1)
    mia.shmod("deadline", "48h", "--post")
    ned.shmod("vote", "Ann", "ja")
    ned.shmod("deadline", "72h", "--post")
    for clone in sorted((mia, ned), key=lambda c: c.now):  # the thread in delivery order
        if delivered or clone is mia:
            thread.send_all(clone)
    mia.share()
    ned.git("commit", "-qam", "Ned's vote and deadline, post 3")
    return mia, ned, thread


def _kinds(clone: Clone) -> list[str]:
    return [raw["kind"] for raw in logfile.read(str(clone.log)).entries]


@GIT
def test_the_post_delivered_second_is_withdrawn_its_steps_applied_and_its_line_owed(tmp_path):
    mia, ned, thread = _raced(tmp_path)
    pulled = ned.pull().stderr
    assert ("both copies made post 3: the one in theirs was delivered first and stands, the "
            "one in yours (Ned's) is withdrawn (entry") in pulled
    loaded = store.load(str(ned.log))
    withdrawn = [raw for raw in loaded.log.entries if raw["kind"] == "withdrawn"]
    assert len(withdrawn) == 1 and withdrawn[0]["post"] == 3 and withdrawn[0]["mod"] == "Ned"
    assert len(loaded.table.posts) == 3  # Mia's post 3 stands; Ned's steps wait for post 4
    votes = [raw for raw in loaded.log.entries if raw["kind"] == "vote"]
    assert [(v["by"], v["mod"]) for v in votes] == [("Ann", "Ned")]
    # Ned's version of post 3 is in the thread, signed, with nothing after it yet
    assert "shown without its withdrawal line after it" in audited(thread, ned, 1)
    said = thread.send_all(ned)
    assert said[0].startswith("withdrawal of post 3 for the thread: edit the post 3 whose "
                              "checkpoint line shows ") and said[0].endswith(
        ", made by Ned, and add this at its end")
    assert re.match(r"post 4 for the thread", said[1]) and len(said) == 2
    ned.share()
    mia.pull()
    assert mia.log.read_bytes() == ned.log.read_bytes()
    mia.shmod("vote", "Bob", "ja")  # both terminals go on recording
    ned.pull()
    ned.shmod("vote", "Cat", "ja")
    audit = audited(thread, ned)
    assert ": VALID" in audit
    assert "post 3: the version withdrawn after a race (entry" in audit
    assert "shows its withdrawal line after it; what it covered is in the log" in audit


@GIT
def test_the_thread_audit_refuses_a_withdrawn_post_without_its_line_and_a_forged_one(tmp_path):
    _mia, ned, thread = _raced(tmp_path)
    ned.pull()
    thread.send_all(ned)
    whole = list(thread.posts)
    line = next(row for text in whole for row in text.splitlines()
                if row.startswith("Log withdrawal: post 3"))
    thread.posts = [text.replace(line, "") for text in whole]  # the line left out
    audit = audited(thread, ned, 1)
    assert "INVALID" in audit and "shown without its withdrawal line after it" in audit
    forged = line[:-4] + ("0000" if not line.endswith("0000") else "1111")
    thread.posts = [text.replace(line, forged) for text in whole]
    audit = audited(thread, ned, 1)
    assert "INVALID" in audit and "whose mark was not made with this game's key" in audit
    before = [text.replace(line, "") for text in whole]  # the line before the post, not after
    before[0] = line + "\n\n" + before[0]
    thread.posts = before
    assert "shown without its withdrawal line after it" in audited(thread, ned, 1)
    thread.posts = whole
    assert ": VALID" in audited(thread, ned)


@GIT
def test_the_losing_moderator_pulls_sends_the_line_and_records_on(tmp_path):
    """Ned delivered first: his pull keeps his post 3 and withdraws Mia's; Mia's pull is a
    fast-forward, and her terminal takes the merged log as holding what she wrote."""
    mia, ned, thread = _raced(tmp_path, first="Ned")
    pulled = ned.pull().stderr
    assert "the one in yours was delivered first and stands, the one in theirs (Mia's)" in pulled
    ned.git("push", "-q")
    mia.pull()
    owed = mia.shmod("outbox").stdout
    assert "withdrawal of post 3 — its withdrawal line" in owed
    named = mia.shmod("send", "--preview", "withdrawal")
    assert named.stderr.startswith("withdrawal of post 3 for the thread")
    assert "Log withdrawal: post 3 · " in named.stdout
    said = thread.send_all(mia)
    assert said[0].startswith("withdrawal of post 3") and "made by Mia" in said[0]
    mia.shmod("vote", "Bob", "ja")  # not refused: her post is in the record, withdrawn
    mia.share()
    ned.pull()
    assert ": VALID" in audited(thread, ned)


@GIT
def test_a_post_never_delivered_is_dropped_with_no_line(tmp_path):
    _mia, ned, thread = _raced(tmp_path, delivered=False)
    pulled = ned.pull().stderr
    assert "post 3 of yours never reached the thread: dropped (its steps stand)" in pulled
    assert "withdrawn" not in _kinds(ned)
    said = thread.send_all(ned)
    assert len(said) == 1 and re.match(r"post 4 for the thread", said[0])
    ned.shmod("vote", "Cat", "ja")  # his terminal records on: the post was his, undelivered
    assert ": VALID" in audited(thread, ned)


@GIT
def test_a_post_race_pulled_with_rebase_withdraws_alike(tmp_path):
    mia, ned, thread = _raced(tmp_path)
    pulled = ned.pull("--rebase").stderr
    assert "the one in theirs was delivered first and stands, the one in yours (Ned's)" in pulled
    assert _kinds(ned).count("withdrawn") == 1
    thread.send_all(ned)
    ned.share()
    mia.pull()
    assert mia.log.read_bytes() == ned.log.read_bytes()
    assert ": VALID" in audited(thread, mia)


@GIT
def test_merging_a_post_race_either_way_gives_the_same_log(tmp_path):
    mia, ned, _ = _raced(tmp_path)
    ned_copy = ned.log.read_bytes()
    mia_copy = mia.log.read_bytes()
    one = merge(logfile.parse("m", mia_copy), logfile.parse("n", ned_copy), where="g")
    other = merge(logfile.parse("n", ned_copy), logfile.parse("m", mia_copy), where="g")
    assert one.data == other.data and one.withdrawn == other.withdrawn
    again = merge(logfile.parse("x", one.data), logfile.parse("n", ned_copy), where="g")
    assert again.how == "nothing"  # what the merged log holds counts once: the race too


# -- in-process: the merge, the entry, the audit, every log format -------------------------

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
AT, T1, T2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"


def deliver_all(path: Path, at: str, moderator: str | None) -> None:
    """Every item owed that exists recorded as delivered (what ``shmod send`` records)."""
    from shmod.forum.steps import Delivered
    from shmod.log import outbox

    def steps(g: store.Loaded) -> list[Step]:
        return [Delivered(i.of, i.to, i.what, i.n if i.n > 1 else None, entry=i.entry)
                for i in outbox.owed(g) if i.made]

    try:
        store.record(str(path), steps, at=at, post=False, moderator=moderator)
    except ShmodError:
        pass  # nothing owed


def race(tmp: Path, start: bytes, mods: tuple[str | None, str | None] = ("Mia", "Ned"), *,
         deliver: tuple[bool, bool] = (True, True)) -> tuple[Path, Path]:
    """Two copies of ``start`` that each set a deadline with a post (the second after
    Cat's vote), made and delivered at T1 (ours) and T2 (theirs)."""
    ours, theirs = tmp / "ours.yaml", tmp / "theirs.yaml"
    for path, mod, at, sent, steps in (
            (ours, mods[0], T1, deliver[0], [SetDeadline(until=T2, zone="UTC")]),
            (theirs, mods[1], T2, deliver[1], [Vote(2, True), SetDeadline(until=T1, zone="UTC")])):
        path.write_bytes(start)
        seen.forget(str(path))
        deliver_all(path, AT, mod)
        for step in steps:
            store.record(str(path), lambda g, step=step: step, at=at, moderator=mod,
                         asked=isinstance(step, SetDeadline))
        if sent:
            deliver_all(path, at, mod)
    return ours, theirs


def voting(tmp: Path, language: str | None = None) -> bytes:
    """A five-player game of Mia and Ned's, its first ballot open."""
    path = tmp / "start.yaml"
    store.new_game(str(path), NAMES, seed="5" * 32, first="Ann", created=AT,
                   moderators_listed=["Mia", "Ned"], moderator="Mia", language=language)
    store.record(str(path), lambda g: Nominate(0, 1), at=AT, moderator="Mia")
    return path.read_bytes()


def merged_race(tmp: Path, language: str | None = None) -> logfile.LogFile:
    """The merged log of a race: theirs withdrawn (what tests/test_verifier.py checks)."""
    ours, theirs = race(tmp, voting(tmp, language))
    done = merge(logfile.read(str(ours)), logfile.read(str(theirs)), where="g.yaml")
    assert [post for post, _, _ in done.withdrawn] == [3]
    return logfile.parse(str(tmp / "merged.yaml"), done.data)


def test_the_withdrawn_entry_holds_the_post_its_checkpoint_its_steps_and_a_signed_mark(tmp_path):
    log = merged_race(tmp_path)
    lost = logfile.read(str(tmp_path / "theirs.yaml"))
    entry = next(raw for raw in log.entries if raw["kind"] == "withdrawn")
    posted = [raw for raw in lost.entries if raw["kind"] == "posted"][-1]
    assert entry["checkpoint"] == posted["checkpoint"] and entry["at"] == posted["at"]
    ids = chain.identities(log.entries)
    steps = [log.entries[ids.index(one)]["kind"] for one in entry["covered"]]
    assert steps == ["vote", "deadline"]
    setup = store.replay(log).setup
    assert withdrawals.genuine(
        withdrawals.find(withdrawals.line(3, entry["checkpoint"], entry["withdrawal"]))[0],
        salt=None, key=setup.moderator_key, commitment=checkpoints.game_commitment(setup))
    assert audit_log(log).valid


def test_a_withdrawn_entry_of_the_wrong_form_or_missing_a_step_is_refused(tmp_path):
    log = merged_race(tmp_path)
    text = log.data.decode()
    raw = next(r for r in log.entries if r["kind"] == "withdrawn")
    cases = {
        "checkpoint must be": (raw["checkpoint"], raw["checkpoint"][:40]),
        "covered must list": (raw["covered"][0], "nope"),
        "withdrawal must be": (raw["withdrawal"], raw["withdrawal"][:16]),
        "a step post 3 announced is not in the log": (raw["covered"][0], "0" * 32),
        "R-THREAD": ("kind: withdrawn, post: 3", "kind: withdrawn, post: 1"),
    }
    for said, (old, new) in cases.items():
        assert old in text, said
        broken = logfile.parse("g.yaml", text.replace(old, new, 1).encode())
        with pytest.raises(LogError, match=re.escape(said)):
            store.replay(broken)


def test_a_withdrawal_is_delivered_to_the_thread_only(tmp_path):
    from shmod.forum.steps import Delivered

    log = merged_race(tmp_path)
    path = tmp_path / "merged.yaml"
    path.write_bytes(log.data)
    item = next(i for i in outbox.owed(store.load(str(path))) if i.what == "withdrawal")
    with pytest.raises(ShmodError, match="R-PM: a withdrawal is delivered to the thread"):
        store.record(str(path), lambda g: Delivered(item.of, "Ann", item.what), at=T2,
                     post=False, moderator="Ned")


def test_the_audit_refuses_a_withdrawal_of_the_version_the_log_keeps(tmp_path):
    log = merged_race(tmp_path)
    path = tmp_path / "merged.yaml"
    path.write_bytes(log.data)
    loaded = store.load(str(path))
    setup = loaded.setup
    thread = "\n\n".join(thread_posts.earlier_post(loaded, n, Plain()).text
                         for n in range(1, len(loaded.table.posts) + 1))
    kept = [raw for raw in log.entries if raw["kind"] == "posted"][2]["checkpoint"]
    wrong = withdrawals.line(3, kept, withdrawals.mark(setup, 3, kept))
    found = audit_thread(log, setup, loaded.heads, loaded.table.posts, thread + "\n\n" + wrong)
    assert any("a signed withdrawal of the version of post 3 this log keeps" in p.message
               for p in found.problems)


def test_a_race_in_a_log_of_format_1_withdraws_with_a_tag_of_the_salt(tmp_path):
    """A game begun with an earlier shmod (format 1: no signing key, tags of the salt)."""
    shipped = logfile.read(str(Path(__file__).parent.parent / "games" / "five-players.yaml"))
    header = {**shipped.header, "secret": {**shipped.header["secret"],  # a salt of its own
                                           "salt": secrets.token_hex(16)}}
    header["commitment"] = commitment(parse_setup(header))
    path = tmp_path / "start.yaml"
    path.write_text(logfile.header_text(header))
    store.record(str(path), lambda g: None, at=AT)  # the opening post
    store.record(str(path), lambda g: Nominate(2, 4), at=AT)
    ours, theirs = race(tmp_path, path.read_bytes(), (None, None))
    done = merge(logfile.read(str(ours)), logfile.read(str(theirs)), where="g.yaml")
    log = logfile.parse("m.yaml", done.data)
    raw = next(r for r in log.entries if r["kind"] == "withdrawn")
    setup = store.replay(log).setup
    assert setup.format.number == 1 and len(raw["withdrawal"]) == 16
    assert raw["withdrawal"] == withdrawals.tag(setup.salt, raw["post"], raw["checkpoint"][:32])
    assert audit_log(log).valid


def test_a_race_where_neither_post_was_delivered_merges_either_way_alike(tmp_path):
    ours, theirs = race(tmp_path, voting(tmp_path), deliver=(False, False))
    one = merge(logfile.read(str(ours)), logfile.read(str(theirs)), where="g")
    other = merge(logfile.read(str(theirs)), logfile.read(str(ours)), where="g")
    assert one.data == other.data and one.dropped == (3,) and not one.withdrawn


WORDS = {None: "Withdrawn.", "de": "Zurückgezogen.", "pl": "Wycofany.", "qps": None}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_withdrawal_says_so_in_the_game_s_language_and_its_line_keeps_one_form(
        tmp_path, language):
    log = merged_race(tmp_path, language)
    path = tmp_path / "merged.yaml"
    path.write_bytes(log.data)
    loaded = store.load(str(path))
    item = next(i for i in outbox.owed(loaded) if i.what == "withdrawal")
    fmt = formats.chosen("markdown", None, loaded.setup.language)
    body = outbox_texts.text(loaded, item, fmt, "Friday").body
    said, line = body.rsplit("\n\n", 1)
    assert re.fullmatch(r"Log withdrawal: post 3 · [0-9a-f]{32} · [0-9a-f]{128}", line)
    if WORDS[language]:
        assert said.startswith(f"**{WORDS[language]}**") and " 3" in said
    else:  # the pseudo-language: every word came through the catalog
        assert "Withdrawn" not in said and "moderators" not in said
