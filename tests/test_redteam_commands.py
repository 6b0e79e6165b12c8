"""Red-team findings (branch redb): commands driven through the installed ``shmod`` with
hostile arguments, each ending in one ``Error:`` line, a non-zero exit other than an
internal error's 70, and nothing written."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from installed import SHMOD


def shmod(folder: Path, *args: str, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
    base.update(SHMOD_NOW="2026-12-01T10:00:00Z", SHMOD_CACHE="off", COLUMNS="100")
    base.update(env or {})
    return subprocess.run([str(SHMOD), *args], cwd=folder, env=base, text=True,
                          capture_output=True, timeout=60, errors="surrogateescape")


def one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


@pytest.mark.parametrize("args, said", [
    # exit 70: UnicodeEncodeError from random.Random(seed)
    (["sim", "-n", "1", "--seed", "\udcff"], "byte 0xFF that is not UTF-8 text"),
    # exit 70: FileExistsError from os.makedirs
    (["a-file", "-n", "1"], "a-file: not a folder"),
    # exit 70: FileNotFoundError from os.makedirs
    (["/proc/no/such/folder", "-n", "1"], "cannot create the folder"),
    # ran until killed, writing games until the disk filled
    (["sim", "-n", "99999999999999999999"], "at most 10,000"),
])
def test_simulate_refuses_a_bad_seed_folder_or_count_in_one_line(tmp_path, args, said):
    (tmp_path / "a-file").write_text("")
    assert said in one_line(shmod(tmp_path, "simulate", *args))
    assert not (tmp_path / "sim").exists()


GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.fixture()
def finished(tmp_path: Path) -> Path:
    log = tmp_path / "friday.yaml"
    log.write_bytes((GAMES / "five-players.yaml").read_bytes())
    return log


@pytest.mark.parametrize("args", [
    # wrote the replay page's HTML over the game log (the only record of the game)
    ["replay", "friday.yaml", "-o", "friday.yaml"],
    ["replay", "friday.yaml", "-o", "other.yaml"],
    # wrote the chart's PNG over it
    ["stats", ".", "--png", "other.yaml"],
])
def test_a_page_or_a_chart_is_never_written_over_a_game_log(tmp_path, finished, args):
    other = tmp_path / "other.yaml"
    other.write_bytes(finished.read_bytes())
    before = finished.read_bytes()
    assert "so its name must end in" in one_line(shmod(tmp_path, *args))
    assert finished.read_bytes() == before and other.read_bytes() == before


def test_replay_into_a_fifo_is_refused_not_waited_on(tmp_path, finished):
    os.mkfifo(tmp_path / "page.html")  # `replay -o page.html` blocked forever opening it
    assert "not a regular file" in one_line(shmod(tmp_path, "replay", "friday.yaml",
                                                  "-o", "page.html"))


def test_replay_post_with_an_unknown_format_writes_no_page_first(tmp_path, finished):
    """`replay --post -o page.html` with SHMOD_FORMAT=bogus wrote the page, said so, then
    refused the format: two lines on stderr and a file left behind."""
    done = shmod(tmp_path, "replay", "friday.yaml", "--post", "-o", "page.html",
                 env={"SHMOD_FORMAT": "bogus"})
    assert "unknown format 'bogus'" in one_line(done)
    assert not (tmp_path / "page.html").exists()


def test_prods_racing_a_rename_is_one_line_not_an_internal_error(tmp_path, monkeypatch, capsys):
    """`shmod prods` wrote its PMs from the log read without the lock, then recorded them
    under it by name: a `shmod rename` in between made it exit 70 (ValueError:
    tuple.index(x): x not in tuple) in 14 runs of 15."""
    from safety_helpers import run_main

    from shmod.log import store

    log = tmp_path / "g.yaml"
    for args in (["new", "A1", "B1", "C1", "D1", "E1", "--seed", "5eed", "--guessable",
                  "--first", "A1"], ["nominate", "B1"], ["vote", "A1", "ja"]):
        done = shmod(tmp_path, *args, "-g", str(log))
        assert done.returncode == 0, done.stderr
    real = store.record
    renamed: list[bytes] = []

    def raced(path, make, **options):  # type: ignore[no-untyped-def]
        done = shmod(tmp_path, "rename", "C1", "Cecil", "-g", str(log))
        assert done.returncode == 0, done.stderr
        renamed.append(log.read_bytes())
        return real(path, make, **options)

    monkeypatch.setattr(store, "record", raced)
    monkeypatch.setenv("SHMOD_NOW", "2026-12-01T10:00:00Z")
    monkeypatch.setenv("SHMOD_CACHE", "off")
    code = run_main(monkeypatch, "prods", "-g", str(log))
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert err.startswith("Error: the game changed while the prods were written"), err
    assert log.read_bytes() == renamed[0]  # the rename alone


def test_a_deadline_in_a_zone_this_computer_lacks_leaves_the_game_playable(tmp_path):
    """The game layer checks a deadline's zone only as a name (a log must replay alike on
    every computer), so a log written where `--zone localtime` or `right/UTC` (system
    time zone data) or a newer tzdata zone exists, read where it does not, held a zone
    the texts could not show: `status`, `post`, `vote`, every command then refused the
    whole game with `Error: unknown time zone 'Mars/Phobos'`, naming no file or line."""
    log = tmp_path / "g.yaml"
    done = shmod(tmp_path, "new", "A1", "B1", "C1", "D1", "E1", "--seed", "5eed",
                 "--guessable", "--first", "A1", "-g", str(log))
    assert done.returncode == 0, done.stderr
    with log.open("a") as handle:  # a zone only another computer knows
        handle.write('- {kind: deadline, until: "2026-12-05T00:00:00Z", zone: "Mars/Phobos", '
                     "scope: round}\n")
    for args in (["status"], ["remind"], ["prods", "--preview"], ["nominate", "B1", "--show"]):
        done = shmod(tmp_path, *args, "-g", str(log))
        assert done.returncode == 0, (args, done.stderr)
        shown = done.stderr if args[0] == "prods" else done.stdout  # a preview is on stderr
        assert "2026-12-05 00:00 UTC (Mars/Phobos: a time zone unknown" in shown, args
    before = log.read_bytes()
    said = one_line(shmod(tmp_path, "deadline", "2h", "-g", str(log)))
    assert "--zone" in said and log.read_bytes() == before
    assert shmod(tmp_path, "deadline", "2h", "--zone", "UTC", "-g", str(log)).returncode == 0


@pytest.mark.parametrize("make, said", [
    (lambda p: p.mkdir(), "is a folder, not a file"),
    (lambda p: p.symlink_to(p.parent / "nowhere.yaml"), "a link to a file that does not exist"),
    (lambda p: os.mkfifo(p), "not a regular file"),
])
def test_new_over_something_that_is_no_log_says_what_it_is(tmp_path, make, said):
    """`shmod new -g PATH` said 'a game log already exists here' of a folder, a dangling
    link (which `status` calls 'no such game log') and a FIFO."""
    make(tmp_path / "g.yaml")
    err = one_line(shmod(tmp_path, "new", "A1", "B1", "C1", "D1", "E1", "-g", "g.yaml"))
    assert said in err and "already exists" not in err


DEEP = "/".join(["d"] * 1200)  # os.makedirs recurses once per folder it creates


@pytest.mark.parametrize("args", [
    ["new", "A1", "B1", "C1", "D1", "E1", "-g", f"{DEEP}/g.yaml"],
    ["simulate", DEEP, "-n", "1"],
    ["replay", "friday.yaml", "-o", f"{DEEP}/r.html"],
    ["board", "-g", "friday.yaml", "--svg", f"{DEEP}/b.svg"],
    ["post", "-g", "friday.yaml", "--again", "1", "--images", DEEP],
])
def test_a_folder_too_deep_to_create_is_one_line_not_a_recursion_error(tmp_path, finished,
                                                                       args):
    """Each of these exited 70 (RecursionError from os.makedirs)."""
    done = shmod(tmp_path, *args)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1].startswith("Error: ")
    assert "too many nested folders" in done.stderr


def test_a_cache_folder_too_deep_to_create_is_simply_not_used(tmp_path, finished):
    """SHMOD_CACHE=<1200 nested folders> made even `shmod status` exit 70."""
    done = shmod(tmp_path, "status", "-g", "friday.yaml", env={"SHMOD_CACHE": DEEP})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_post_again_with_images_it_cannot_write_prints_no_post_first(tmp_path, finished):
    """`post --again 1 --images FILE` printed the post and its heading, then refused:
    two lines on stderr, a post on stdout and exit 2."""
    done = shmod(tmp_path, "post", "-g", "friday.yaml", "--again", "1", "--images", "friday.yaml")
    assert "cannot write" in one_line(done) and done.stdout == ""


def test_publish_force_of_a_game_in_progress_writes_a_private_copy(tmp_path):
    """`publish --force` of a game not over writes a copy that still holds every role and
    card: it is made readable by its owner only (mode 0600), as `shmod new` makes a log
    (it was 0644); the copy of a finished game is made to be published (0644)."""
    log = tmp_path / "friday.yaml"
    text = (GAMES / "five-players.yaml").read_text()
    head, entries = text.split("log:\n", 1)
    log.write_text(head + "log:\n" + "".join(entries.splitlines(keepends=True)[:6]))
    log.chmod(0o600)
    done = shmod(tmp_path, "publish", "--force", "-g", str(log), "-o", "early.yaml")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "early.yaml").stat().st_mode & 0o777 == 0o600
    (tmp_path / "over.yaml").write_text(text)
    done = shmod(tmp_path, "publish", "-g", "over.yaml", "-o", "done.yaml")
    assert done.returncode == 0, done.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "done.yaml").stat().st_mode & 0o777 == 0o644 & ~umask


def test_post_images_racing_a_step_draws_the_board_the_post_shows(tmp_path, monkeypatch,
                                                                   capsys):
    """`post --images DIR` drew the picture from the log as read before the post was
    recorded: when a step was added in between (here the last vote, appended by hand in
    another editor, which brings the tally), the post covered it but the picture showed
    the board before it. Now the picture is the board at the post's last entry."""
    from safety_helpers import run_main

    from shmod.log import store
    from shmod.texts import board_image, thread_posts, views

    log = tmp_path / "g.yaml"
    names = ["A1", "B1", "C1", "D1", "E1"]
    for args in (["new", *names, "--seed", "5eed", "--guessable", "--first", "A1"],
                 ["nominate", "B1"]):
        done = shmod(tmp_path, *args, "-g", str(log))
        assert done.returncode == 0, done.stderr
    with log.open("a") as out:  # appended by hand: the tally, which no post covers yet
        out.write("".join(f"- {{kind: vote, by: {n}, vote: ja}}\n" for n in names))
    card = {"L": "liberal", "F": "fascist"}[store.load(str(log)).table.game.hand[0]]
    real = thread_posts.mark_next

    def raced(path, fmt, **options):  # type: ignore[no-untyped-def]
        with log.open("a") as out:  # the President's discard, by hand in another editor
            out.write(f"- {{kind: discard, by: A1, policy: {card}}}\n")
        return real(path, fmt, **options)

    monkeypatch.setattr(thread_posts, "mark_next", raced)
    monkeypatch.setenv("SHMOD_NOW", "2026-12-01T10:00:00Z")
    monkeypatch.setenv("SHMOD_CACHE", "off")
    code = run_main(monkeypatch, "post", "-g", str(log), "--images", str(tmp_path / "pics"))
    assert code == 0 and "Traceback" not in capsys.readouterr().err
    [svg] = (tmp_path / "pics").glob("post-*.svg")
    upto = int(svg.stem.rsplit("-", 1)[1])
    loaded = store.load(str(log))
    assert upto == loaded.table.posts[-1]  # the post covers the raced discard
    assert loaded.log.entries[upto - 1]["kind"] == "discard"
    board = views.public_view(thread_posts.state_at(loaded, upto))
    assert svg.read_text() == board_image.svg(board)
