"""Issue 35, files shmod writes, through the installed ``shmod``: every file it writes whole
(a replay page, a picture, the stats chart, a published copy, a new log) is created anew
beside its name and put in place in one step, never written through a link planted at the
name, symbolic or hard, and never over a game log (``shmod/log/outfiles.py``). On the main
of 3655be9 ``ln -s log.yaml x.html; shmod replay log.yaml -o x.html`` wrote the page over
the game log, exit 0."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from installed import SHMOD, Moderator

GAMES = Path(__file__).resolve().parent.parent / "games"
pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX links")


def shmod(folder: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    env.update(SHMOD_NOW="2026-12-01T10:00:00Z", SHMOD_CACHE="off", COLUMNS="100")
    done = subprocess.run([str(SHMOD), *args], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == code, (args, done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    if code:
        assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
    return done


@pytest.fixture()
def log(tmp_path: Path) -> Path:
    path = tmp_path / "friday.yaml"
    path.write_bytes((GAMES / "five-players.yaml").read_bytes())
    return path


def symbolic(at: Path, to: Path) -> None:
    at.symlink_to(to)


def hard(at: Path, to: Path) -> None:
    os.link(to, at)


WRITERS = [
    ("page.html", ["replay", "friday.yaml", "-o"]),
    ("chart.png", ["stats", "friday.yaml", "--png"]),
    ("board.svg", ["board", "-g", "friday.yaml", "--svg"]),
    ("board.png", ["board", "-g", "friday.yaml", "--png"]),
]


@pytest.mark.parametrize("link", [symbolic, hard])
@pytest.mark.parametrize("name, args", WRITERS)
def test_no_output_is_written_through_a_link_to_the_game_log(tmp_path, log, name, args, link):
    before = log.read_bytes()
    link(tmp_path / name, log)
    err = shmod(tmp_path, *args, name, code=2).stderr
    assert "game log" in err and "never writes over a game log" in err
    assert log.read_bytes() == before
    assert (tmp_path / name).read_bytes() == before  # the name still leads to the log


@pytest.mark.parametrize("link", [symbolic, hard])
@pytest.mark.parametrize("name, args", WRITERS)
def test_a_link_to_another_file_is_replaced_never_written_through(tmp_path, log, name, args,
                                                                  link):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    link(tmp_path / name, notes)
    shmod(tmp_path, *args, name)
    assert notes.read_text() == "my notes\n"  # the file the link led to keeps its bytes
    written = tmp_path / name
    assert not written.is_symlink() and written.stat().st_nlink == 1
    assert written.read_bytes() != b"my notes\n" and written.stat().st_size > 100


def test_post_images_never_writes_through_links_planted_in_its_folder(tmp_path):
    """`post --images DIR`: links planted in DIR under the pictures' names."""
    mod = Moderator(tmp_path)
    mod.run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--first", "Ann")
    mod.run("nominate", "Bob")
    number, _, _, _, upto = mod.run("post", "--list").stdout.splitlines()[-1].split()[1:]
    number = number.rstrip(":")
    pics = tmp_path / "pics"
    pics.mkdir()
    before = mod.log.read_bytes()
    svg, png = (pics / f"post-{number}-entry-{upto}.{kind}" for kind in ("svg", "png"))
    svg.symlink_to(mod.log)
    err = mod.run("post", "--again", number, "--images", "pics", code=2).stderr
    assert "never writes over a game log" in err and mod.log.read_bytes() == before
    os.link(mod.log, png)
    svg.unlink()
    err = mod.run("post", "--again", number, "--images", "pics", code=2).stderr
    assert "never writes over a game log" in err and mod.log.read_bytes() == before
    png.unlink()
    svg.unlink()  # written: the refusal was the PNG's
    other = tmp_path / "other.txt"
    other.write_text("keep\n")
    svg.symlink_to(other)
    os.link(other, png)
    mod.run("post", "--again", number, "--images", "pics")
    assert other.read_text() == "keep\n" and mod.log.read_bytes() == before
    for picture in (svg, png):
        assert not picture.is_symlink() and picture.stat().st_nlink == 1
    mod.run("status")


def test_a_game_log_at_the_name_is_refused_whatever_the_name_ends_in(tmp_path, log):
    """The ending check (.html, .png) is a first guard; a log named like a page is the
    writer's to refuse."""
    page = tmp_path / "old.html"
    page.write_bytes(log.read_bytes())
    shmod(tmp_path, "replay", "friday.yaml", "-o", "old.html", code=2)
    assert page.read_bytes() == log.read_bytes()


def test_a_page_over_an_old_page_replaces_it(tmp_path, log):
    page = tmp_path / "page.html"
    page.write_text("<p>an old page</p>\n")
    shmod(tmp_path, "replay", "friday.yaml", "-o", "page.html")
    assert "an old page" not in page.read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".shmod-new-")]


@pytest.mark.parametrize("link", [symbolic, hard])
def test_publish_never_writes_through_a_link(tmp_path, log, link):
    other = tmp_path / "other.txt"
    other.write_text("keep\n")
    link(tmp_path / "copy.yaml", other)
    err = shmod(tmp_path, "publish", "-g", "friday.yaml", "-o", "copy.yaml", code=2).stderr
    assert "already exists" in err and other.read_text() == "keep\n"


@pytest.mark.parametrize("to", ["friday.yaml", "notes.txt"])
def test_new_never_writes_a_log_through_a_link(tmp_path, log, to):
    (tmp_path / "notes.txt").write_text("keep\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    (tmp_path / "g.yaml").symlink_to(tmp_path / to)
    err = shmod(tmp_path, "new", "A1", "B1", "C1", "D1", "E1", "-g", "g.yaml", code=2).stderr
    assert "is a link (to " in err and "never writes through one" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name != "g.yaml"} == before


def test_git_setup_never_reads_or_writes_through_a_link(tmp_path, log):
    """``shmod git-setup`` (issues 37, 42) writes .gitattributes, the clone's config and
    three hooks: a link planted at .gitattributes or at a hook is refused, naming it,
    before anything is written (its target keeps its bytes and stays unread); a tracked
    link among the logs is not made private through (its target's mode stays)."""
    repo = tmp_path / "repo"
    (repo / "games").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "games" / "friday.yaml").write_bytes(log.read_bytes())
    outside = tmp_path / "outside.txt"
    outside.write_text("not the repository's\n")
    outside.chmod(0o644)
    (repo / ".gitattributes").symlink_to(outside)
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "post-merge").symlink_to(outside)
    elsewhere = tmp_path / "another-game.yaml"  # a log outside the repository, public
    elsewhere.write_bytes(log.read_bytes())
    elsewhere.chmod(0o644)
    (repo / "games" / "linked.yaml").symlink_to(elsewhere)
    subprocess.run(["git", "-C", str(repo), "add", "games"], check=True)
    config = (repo / ".git" / "config").read_bytes()
    err = shmod(repo, "git-setup", "-g", "games/friday.yaml", code=2).stderr
    assert ".gitattributes (the repository's .gitattributes) is a link" in err
    assert "nothing was written" in err and "not the repository" not in err
    assert (repo / ".git" / "config").read_bytes() == config
    assert not (hooks / "post-checkout").exists()
    (repo / ".gitattributes").unlink()
    err = shmod(repo, "git-setup", "-g", "games/friday.yaml", code=2).stderr
    assert "post-merge (git's post-merge hook) is a link" in err
    assert not (repo / ".gitattributes").exists()  # checked before the first write
    (hooks / "post-merge").unlink()
    shmod(repo, "git-setup", "-g", "games/friday.yaml")
    assert outside.read_text() == "not the repository's\n"
    assert elsewhere.stat().st_mode & 0o777 == 0o644
    attributes = repo / ".gitattributes"
    assert not attributes.is_symlink() and "merge=shmod" in attributes.read_text()
    assert "git-setup --hook" in (hooks / "post-checkout").read_text()
