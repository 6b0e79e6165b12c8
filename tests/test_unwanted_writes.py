"""Issue 41, "writes that should not happen", each a test that fails on main f58529d: no
append through a link at the log's path, ``post --images`` outputs checked before the post
is recorded, a vote batch all or nothing across a kill, no-op replacements and renames
refused, ``new`` on a hard link to what is not a log.

- An append follows no link at the log's own path (``ln -s other.yaml g.yaml; shmod
  nominate … -g g.yaml`` wrote into the other, finished log): refused, naming the target.
- ``post --images DIR`` checks its outputs before it records the post: a FIFO, a folder or
  a link to a log at a picture's name, or a DIR that cannot be written, refuse the post with
  nothing recorded and nothing created (main recorded the post, then exited 74).
- A batch of votes is all or nothing across a kill: a shmod killed inside the write of a
  seven-vote batch (after some of its lines reached the file) leaves a note; the next
  command refuses to build on it, and ``shmod repair`` moves every line of that batch aside,
  leaving the log byte for byte as it was before the batch (main kept the votes written).
- ``replace Ann Ann`` and ``rename Cy Cy`` are refused as no-ops (R-REPLACE, R-RENAME).
- ``new -g`` on a hard link to a file that is not a game log names what is there.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from installed import SHMOD, Moderator

from shmod.log import logfile

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus"]


@pytest.fixture
def mod(tmp_path: Path) -> Moderator:
    """A seven-player game with Ann first, its post of the nomination not made yet."""
    moderator = Moderator(tmp_path)
    moderator.run("new", *NAMES, "--first", "Ann", "--seed", "5e" * 16, "--guessable")
    return moderator


def test_an_append_never_follows_a_link_at_the_logs_own_path(mod: Moderator, tmp_path: Path):
    other = mod.log.read_bytes()
    link = tmp_path / "games" / "linked.yaml"
    link.symlink_to(mod.log.name)
    err = mod.run("nominate", "Bob", "-g", str(link), code=2).stderr
    assert f"is a link (to {mod.log})" in err and "nothing was recorded" in err
    assert mod.log.read_bytes() == other
    # A link to a file that is not there is refused too, and nothing is created.
    dangling = tmp_path / "games" / "gone.yaml"
    dangling.symlink_to("missing.yaml")
    err = mod.run("nominate", "Bob", "-g", str(dangling), code=2).stderr
    assert "a link to a file that does not exist" in err
    assert not (tmp_path / "games" / "missing.yaml").exists()


def _unposted(mod: Moderator) -> int:
    """Record the nomination without its post (as a hand-appended step would be)."""
    from scripted import AT

    from shmod.game.steps import Nominate
    from shmod.log import store

    store.record(str(mod.log), lambda g: Nominate(0, 1), at=AT, post=False)
    return len(store.load(str(mod.log)).table.posts) + 1


@pytest.mark.parametrize("planted", ["fifo", "folder", "link to a log", "unwritable dir",
                                     "a file as dir"])
def test_post_images_checks_every_output_before_it_records(mod: Moderator, tmp_path: Path,
                                                           planted: str):
    if planted == "unwritable dir" and os.geteuid() == 0:
        pytest.skip("root writes into any folder ('a file as dir' covers a DIR it cannot)")
    number = _unposted(mod)
    upto = len(logfile.read(str(mod.log)).entries)
    pics = tmp_path / "pics"
    name = pics / f"post-{number}-entry-{upto}.svg"
    if planted == "fifo":
        pics.mkdir()
        os.mkfifo(name)
    elif planted == "folder":
        name.mkdir(parents=True)
    elif planted == "link to a log":
        pics.mkdir()
        name.symlink_to(mod.log)
    elif planted == "unwritable dir":
        pics.mkdir()
        pics.chmod(0o500)
    else:
        pics.write_text("a file, not a folder")
    target = pics / "inner" if planted == "a file as dir" else pics
    before = mod.log.read_bytes()
    err = mod.run("post", "--images", str(target), code=2).stderr
    assert "nothing was recorded" in err, err
    assert mod.log.read_bytes() == before
    assert not (tmp_path / "pics" / "inner").exists()
    if planted == "unwritable dir":
        pics.chmod(0o700)


def test_a_refused_post_creates_no_images_folder(tmp_path: Path):
    """The post refused (a game of two moderators, recorded without naming who records):
    main had already created the folder."""
    from scripted import AT

    from shmod.game.steps import Nominate
    from shmod.log import store

    mod = Moderator(tmp_path)
    mod.run("new", *NAMES, "--first", "Ann", "--moderator", "Mo", "--moderator", "Jo",
            "--as", "Mo")
    store.record(str(mod.log), lambda g: Nominate(0, 1), at=AT, post=False, moderator="Mo")
    before = mod.log.read_bytes()
    err = mod.run("post", "--images", str(tmp_path / "new-pics"), code=1).stderr
    assert "R-MODERATORS" in err and mod.log.read_bytes() == before
    assert not (tmp_path / "new-pics").exists()
    mod.run("post", "--images", str(tmp_path / "new-pics"), "--as", "Mo")
    assert {p.suffix for p in (tmp_path / "new-pics").iterdir()} >= {".svg"}


KILLER = """
import os, signal, sys
from shmod.log import logfile
real = logfile._write_all
def cut(fd, data):
    lines = data.split(b"\\n")
    os.write(fd, b"\\n".join(lines[:3]) + b"\\n")  # three whole lines reach the file
    os.kill(os.getpid(), signal.SIGKILL)
logfile._write_all = cut
from shmod.cli.main import run
sys.argv = ["shmod", *sys.argv[1:]]
run()
"""


def test_a_vote_batch_killed_inside_its_write_is_moved_aside_whole(mod: Moderator):
    mod.run("nominate", "Bob")
    before = mod.log.read_bytes()
    votes = [x for name in NAMES for x in (name, "ja")]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    env.update(SHMOD_GAME=str(mod.log), SHMOD_NOW=mod.now, SHMOD_CACHE="off")
    killed = subprocess.run([sys.executable, "-c", KILLER, "vote", *votes], cwd=mod.folder,
                            env=env, capture_output=True, text=True, timeout=60)
    assert killed.returncode == -9
    assert mod.log.read_bytes() != before  # three of the seven votes reached the file
    assert logfile.batch_note(str(mod.log)) in {str(p) for p in mod.log.parent.iterdir()}
    err = mod.run("vote", "Ann", "ja", code=2).stderr
    assert "its last step was cut off while it was written" in err
    out = mod.run("repair").stdout
    assert "the step cut off, whole" in out
    assert mod.log.read_bytes() == before
    assert not os.path.exists(logfile.batch_note(str(mod.log)))
    backups = list(mod.log.parent.glob("friday.yaml.torn-*"))
    assert len(backups) == 1 and backups[0].read_text().count("kind: vote") == 3
    mod.run("vote", *votes)  # recorded again, whole
    assert mod.log.read_text().count("kind: vote") == 7


def test_a_batch_whose_write_finished_before_the_kill_is_kept(mod: Moderator):
    mod.run("nominate", "Bob")
    mod.run("vote", "Ann", "ja", "Bob", "ja")
    after = mod.log.read_bytes()
    # The note of a write that finished (killed before the note was removed).
    start = after.rindex(b"- {kind: vote, by: Ann")
    from shmod.base import digest

    Path(logfile.batch_note(str(mod.log))).write_text(
        f"shmod-batch {start} {len(after) - start} {digest.sha256_hex(after[start:])}\n")
    assert "Nothing to repair" in mod.run("repair").stdout
    assert mod.log.read_bytes() == after


def test_replacing_a_player_by_themselves_or_renaming_to_the_same_name_is_refused(
        mod: Moderator):
    assert "would change nothing" in mod.refused("replace", "Ann", "Ann", rule="R-REPLACE")
    assert "looks like" in mod.refused("replace", "Ann", "ann", rule="R-REPLACE")
    assert "would change nothing" in mod.refused("rename", "Cy", "Cy", rule="R-RENAME")
    mod.run("rename", "Cy", "Cyd")  # a real correction still works


def test_new_on_a_hard_link_to_a_file_that_is_no_log_names_what_is_there(tmp_path: Path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    os.link(notes, tmp_path / "g.yaml")
    done = subprocess.run([str(SHMOD), "new", *NAMES[:5], "-g", "g.yaml"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SHMOD_NOW": "2026-11-23T10:00:00Z"})
    assert done.returncode == 2
    assert "is a file of 9 bytes that is not a game log" in done.stderr
    assert "a hard link" in done.stderr and "already exists" not in done.stderr
    assert notes.read_text() == "my notes\n"
