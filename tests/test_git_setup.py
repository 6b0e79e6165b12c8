"""Issue 42: ``shmod git-setup`` in a hostile clone, and git's merge driver in force.

git-setup never reads or writes through a link: a link or anything but a regular file at
``.gitattributes``, the clone's config, the hooks folder or a hook is refused, naming it,
before the first write (on main a link's target landed in the file git-setup asks to
commit, ``/dev/zero`` ran out of memory, a FIFO or ``/dev/full`` hung it, ``.git/hooks``
as a file failed after the attributes and the config were written, and a dangling
``.git/config`` link made git create its target); what it reads is bounded.

A commit that points the logs at another merge driver (``merge=union``) is said by every
recording command, ``merge`` and ``git-setup``: git's own ``check-attr`` is asked, and its
answer kept beside the parse cache until ``.gitattributes``, ``info/attributes``,
``HEAD`` or the config changes; read-only commands run no git at all.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from clones import DAY2, LOG, Clone, git_env, pair as shared_pair
from installed import SHMOD

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- not the repository's\n"


@pytest.fixture
def repo(tmp_path):  # type: ignore[no-untyped-def]
    """A clone holding a game log, git-setup never run; a private key outside it."""
    folder = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(folder)], check=True, env=git_env(tmp_path))
    (folder / "games").mkdir()
    made = _shmod(folder, "new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", LOG, "--first", "Ann")
    assert made.returncode == 0, made.stderr
    (tmp_path / "id_ed25519").write_text(SECRET)
    return folder


def _shmod(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**git_env(folder.parent), "SHMOD_NOW": "2026-12-01T10:00:00Z", "SHMOD_CACHE": "off",
           "COLUMNS": "100"}
    return subprocess.run([str(SHMOD), *args], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=30)  # a FIFO read would hang here


def _refused(folder: Path, *names: str) -> str:
    """git-setup refused, naming what it names, with nothing written."""
    config = (folder / ".git" / "config").read_bytes() \
        if (folder / ".git" / "config").is_file() else None
    hooks = folder / ".git" / "hooks"
    before = sorted(p.name for p in hooks.iterdir()) if hooks.is_dir() else None
    attributes = os.path.lexists(folder / ".gitattributes")
    done = _shmod(folder, "git-setup", "-g", LOG)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
    assert "nothing was written" in done.stderr and "Traceback" not in done.stderr
    for name in names:
        assert name in done.stderr
    assert "OPENSSH" not in done.stderr
    if config is not None:
        assert (folder / ".git" / "config").read_bytes() == config
    assert (sorted(p.name for p in hooks.iterdir()) if hooks.is_dir() else None) == before
    assert os.path.lexists(folder / ".gitattributes") == attributes
    if not attributes:
        assert not os.path.lexists(folder / ".gitattributes")
    return done.stderr


def test_a_gitattributes_link_to_a_key_is_refused_and_never_read(repo, tmp_path):
    (repo / ".gitattributes").symlink_to(tmp_path / "id_ed25519")
    _refused(repo, ".gitattributes (the repository's .gitattributes) is a link")
    assert (tmp_path / "id_ed25519").read_text() == SECRET
    assert (repo / ".gitattributes").is_symlink()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full"])
def test_a_link_to_a_device_is_refused(repo, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    (repo / ".gitattributes").symlink_to(device)
    _refused(repo, ".gitattributes", "is a link")
    (repo / ".gitattributes").unlink()
    (repo / ".git" / "hooks" / "post-checkout").symlink_to(device)
    _refused(repo, "post-checkout (git's post-checkout hook) is a link")


@pytest.mark.parametrize("where", [".gitattributes", ".git/hooks/post-merge"])
def test_a_fifo_is_refused_not_waited_on(repo, where):
    os.mkfifo(repo / where)
    said = _refused(repo, where.rsplit("/", 1)[-1], "is not a regular file but a FIFO")
    assert stat.S_ISFIFO(os.lstat(repo / where).st_mode), said


def test_hooks_as_a_file_is_refused_before_anything_is_written(repo):
    shutil.rmtree(repo / ".git" / "hooks")
    (repo / ".git" / "hooks").write_text("not a folder\n")
    _refused(repo, "hooks (this clone's hooks folder) is a file, not a folder")


def test_a_dangling_config_link_is_refused_and_its_target_never_made(repo, tmp_path):
    config = repo / ".git" / "config"
    config.rename(tmp_path / "real-config")
    config.symlink_to(tmp_path / "made-by-git")
    _refused(repo, "config (this clone's git config) is a link")
    assert not (tmp_path / "made-by-git").exists()


def test_what_git_setup_reads_is_bounded(repo):
    (repo / ".gitattributes").write_bytes(b"# " + b"x" * (300 * 1024) + b"\n")
    _refused(repo, ".gitattributes", "is larger than 256 KiB")


def test_every_check_passes_then_everything_is_written(repo):
    done = _shmod(repo, "git-setup", "-g", LOG)
    assert done.returncode == 0, done.stderr
    assert (repo / ".gitattributes").read_text() == "/games/*.yaml merge=shmod\n"
    assert "bypass" not in done.stderr and "would not merge" not in done.stderr


# -- the driver in force ------------------------------------------------------------


def _union(mia: Clone) -> None:
    """Mia commits a line that points the logs at git's union driver."""
    attributes = mia.folder / ".gitattributes"
    attributes.write_text(attributes.read_text() + "games/*.yaml merge=union\n")
    mia.git("commit", "-qam", "tidier merges")
    mia.git("push", "-q")


def test_a_commit_pointing_the_logs_at_another_driver_is_said(tmp_path):
    mia, ned = shared_pair(tmp_path)
    _union(mia)
    ned.pull()
    ned.now = DAY2
    said = ned.shmod("vote", "Ann", "ja").stderr
    assert "Warning: git would not merge games/friday.yaml with shmod's driver: an attribute " \
        "says merge=union for it" in said
    assert "would not merge" in ned.shmod("merge", "--forget").stderr
    assert "would not merge" in ned.shmod("git-setup").stderr
    assert stat.S_IMODE(ned.log.stat().st_mode) == 0o600  # the hooks still make it private
    mia.git("revert", "--no-edit", "HEAD")
    mia.git("push", "-q")
    ned.git("commit", "-qam", "Ann's vote")
    ned.pull()
    assert "would not merge" not in ned.shmod("vote", "Bob", "ja").stderr


def test_a_clone_without_the_driver_is_told_to_run_git_setup(tmp_path):
    mia, _ = shared_pair(tmp_path)
    kai = Clone(tmp_path, "Kai", tmp_path / "origin.git")  # never ran git-setup
    said = kai.shmod("vote", "Ann", "ja", "--as", "Mia").stderr
    assert "this clone does not define it" in said and "run shmod git-setup" in said
    assert "would not merge" not in mia.shmod("vote", "Bob", "ja").stderr


def test_one_moderators_game_in_git_without_setup_is_left_alone(repo):
    assert _shmod(repo, "nominate", "Bob", "-g", LOG).returncode == 0
    done = _shmod(repo, "vote", "Ann", "ja", "-g", LOG)
    assert done.returncode == 0 and "Warning" not in done.stderr


def test_git_is_asked_once_until_what_it_reads_changes_and_never_by_a_read_only_command(
        tmp_path):
    _, ned = shared_pair(tmp_path)
    calls = tmp_path / "git-calls"
    fake = tmp_path / "bin"
    fake.mkdir()
    real = shutil.which("git")
    (fake / "git").write_text(f'#!/bin/sh\necho "$*" >> {calls}\nexec {real} "$@"\n')
    (fake / "git").chmod(0o755)
    ned.env["PATH"] = f"{fake}{os.pathsep}{ned.env['PATH']}"
    ned.now = DAY2

    def asked(*args: str) -> list[str]:
        calls.write_text("")
        ned.shmod(*args)
        return [line for line in calls.read_text().splitlines() if line]

    assert asked("vote", "Ann", "ja") == []  # git-setup's answer, kept
    ned.git("checkout", "-q", "-b", "elsewhere")  # HEAD changed: asked again
    assert any(line.startswith("check-attr") for line in asked("vote", "Bob", "ja"))
    assert asked("prods") == []  # the answer kept
    for command in (["status"], ["history"], ["moderators"], ["post", "--preview"],
                    ["prods", "--preview"], ["audit", LOG], ["pm", "Ann"], ["rules"]):
        assert asked(*command) == [], command
    attributes = ned.folder / ".gitattributes"
    attributes.write_text(attributes.read_text())  # touched: asked again
    assert any(line.startswith("check-attr") for line in asked("vote", "Cat", "ja"))
