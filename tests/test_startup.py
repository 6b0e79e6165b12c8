"""Start-up cost (BENCHMARKS.md goal 2): what ``shmod`` imports, and the one-command fast
path of ``cli.main`` answering exactly like the whole typer app."""
from __future__ import annotations

import ast
import gc
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shmod.cli import main as cli

NAMES = [info.name or info.callback.__name__.replace("_", "-")
         for info in cli.app.registered_commands if info.callback is not None]


@pytest.mark.parametrize("extra", [["--help"], [], ["--no-such-option"]])
@pytest.mark.parametrize("name", NAMES)
def test_each_command_answers_as_in_the_whole_app(run, monkeypatch, name, extra):
    fast = run(name, *extra)
    monkeypatch.setattr(cli, "_runnable", lambda args: cli.app)  # main() with the whole app
    whole = run(name, *extra)
    assert fast == whole
    assert fast[0] == (0 if extra == ["--help"] else 2)


def test_every_command_is_known_to_the_fast_path():
    assert len(NAMES) == len(set(NAMES)) == len(cli.app.registered_commands) >= 20
    assert all(cli._runnable([name]) is not cli.app for name in NAMES)
    assert cli._runnable(["statu"]) is cli.app and cli._runnable([]) is cli.app


def _modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(sorted(sys.modules))"],
                          capture_output=True, text=True, check=True)
    return set(ast.literal_eval(done.stdout.splitlines()[-1]))


def test_the_command_modules_import_nothing_heavy():
    loaded = _modules_after("import shmod.cli.main")
    heavy = {"rich", "yaml", "json", "hashlib", "shmod.log.store", "shmod.game.engine", "shmod.forum.engine",
             "shmod.audit.log_audit",
             "openskill", "shmod.audit.forum_stats"}
    assert not heavy & loaded


@pytest.fixture(scope="module")
def ten(tmp_path_factory):
    """A finished 10-player game's log."""
    from shmod.audit.random_games import random_game
    from shmod.audit.simulate import SIMULATED_AT
    from shmod.log.store import log_text

    sim = random_game(10, random.Random(10))
    path = tmp_path_factory.mktemp("ten") / "ten.yaml"
    path.write_text(log_text(sim.header, sim.steps, at=SIMULATED_AT))
    return str(path)


def _modules_of(argv: list[str]) -> set[str]:
    return _modules_after(
        "import sys\nfrom shmod.cli import main as cli\n"
        f"sys.argv = ['shmod', *{argv!r}]\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass")


def test_status_of_a_finished_game_loads_only_what_it_shows(ten):
    loaded = _modules_of(["status", "-g", ten])
    assert {"shmod.texts.board", "shmod.log.store"} <= loaded
    unused = {"shmod.audit.log_audit", "shmod.texts.thread_posts", "shmod.texts.pms", "shmod.texts.reveal", "shmod.texts.report",
              "shmod.texts.game_texts", "shmod.audit.summary", "shmod.audit.batch", "shmod.audit.simulate",
              "shmod.log.repair", "rich", "pydantic", "shmod.game.rulebook", "shmod.forum.rulebook",
              "shmod.forum.lookalike_table",
              "shmod.cli.gitsetup"}  # issue 42: a read-only command asks git nothing
    assert not unused & loaded


#: All that the two floors of the rules import from outside shmod, whatever the Python
#: (issue 29: the split into the game and the forum added no import to a command).
FLOORS_IMPORT = {"_datetime", "_json", "_sha2", "_sha256", "_typing", "collections.abc", "datetime",
                 "json", "json.decoder", "json.encoder", "json.scanner", "math", "typing",
                 "typing.io", "typing.re"}


def test_the_floors_import_little_beside_shmod():
    code = ("import sys\nbefore = set(sys.modules)\nimport shmod.forum.engine\n"
            "sys.modules = {m: 1 for m in set(sys.modules) - before}")
    loaded = _modules_after(code)
    assert {"shmod.game.engine", "shmod.forum.engine"} <= loaded
    assert {m for m in loaded if not m.startswith("shmod")} <= FLOORS_IMPORT


#: Every command with arguments that make it do its real work on the finished game.
#: Only ``audit`` (a coloured report, a progress bar for folders), ``simulate`` (its
#: progress) and ``stats`` (its tables and progress) draw with rich; no command imports
#: pydantic (typer < 0.29, pyproject.toml), only ``stats`` imports openskill, and none
#: Babel or the pictures' Latin typeface (the game is English, its names ASCII).
COMMAND_ARGS = {
    "status": [], "prods": [], "post": [], "pm": ["Player1"], "reveal": [],
    "outbox": ["--all"], "send": ["0:Player1", "--preview"],
    "corrections": [], "rules": [], "repair": [], "audit": None, "nominate": ["Player2"],
    "vote": ["Player1", "ja"], "discard": ["liberal"], "enact": ["liberal"],
    "veto": ["propose"], "investigate": ["Player2"], "special-election": ["Player2"],
    "execute": ["Player2"], "peek": [], "reshuffle": ["LLLFFF"], "deadline": ["48h"],
    "replace": ["Player1", "Newcomer"], "correct": ["-r", "x"], "claim": ["Player1", "FFL"],
    "acknowledge": ["1", "-r", "x"], "new": None, "simulate": None, "history": [],
    "board": None, "word": ["Player1", "apple"], "remind": [], "lapse": [],
    "remove": ["Player2", "-r", "x"], "backup": [], "rename": ["Player2", "Player9"],
    "publish": None,
    "replay": None,
    "stats": None,
    "moderators": [], "handover": ["Player2"], "merge": ["--forget"],
    "git-setup": [], "merge-driver": None,
}
DRAWS_WITH_RICH = {"audit", "simulate", "stats"}
#: Only what signs a checkpoint (a post made) or makes a key loads ``cryptography``
#: (shmod.log.signing); on this finished game the recording commands refuse before that.
SIGNS = {"new", "post", "simulate"}


def test_every_command_is_in_the_import_check():
    assert set(COMMAND_ARGS) == set(NAMES)


@pytest.mark.parametrize("name", sorted(COMMAND_ARGS))
def test_each_command_imports_rich_only_if_it_draws_and_never_pydantic(ten, tmp_path, name):
    """And ``cryptography`` only where a checkpoint is signed or a key made."""
    args = COMMAND_ARGS[name]
    if name == "audit":
        argv = ["audit", ten]
    elif name == "new":
        argv = ["new", "A", "B", "C", "D", "E", "-g", str(tmp_path / "n.yaml")]
    elif name == "simulate":
        argv = ["simulate", str(tmp_path / "sim"), "-n", "1"]
    elif name == "publish":
        argv = ["publish", "-g", ten, "-o", str(tmp_path / "published.yaml")]
    elif name == "stats":
        argv = ["stats", ten]
    elif name == "board":
        argv = ["board", "--svg", str(tmp_path / "b.svg"), "--png", str(tmp_path / "b.png"), "-g", ten]
    elif name == "replay":
        argv = ["replay", ten, "-o", str(tmp_path / "r.html"), "--post"]
    elif name == "merge-driver":
        ours = tmp_path / "ours.yaml"
        ours.write_bytes(open(ten, "rb").read())
        argv = ["merge-driver", ten, str(ours), ten, "ten.yaml"]
    else:
        argv = [name, *args, "-g", ten]
    loaded = _modules_of(argv)
    assert "pydantic" not in loaded
    assert ("rich" in loaded) == (name in DRAWS_WITH_RICH), name
    assert ("cryptography" in loaded) == (name in SIGNS), name
    assert ("openskill" in loaded) == (name == "stats"), name
    # An English game's texts use no CLDR data and its pictures (all ASCII) no Latin
    # typeface: Babel and the bold face load only for a language or a letter that needs them.
    assert not {"babel", "shmod.texts.typeface"} & loaded, name


def test_one_registry_names_every_command_and_its_function():
    """``cli.main`` imports only the named command's module (issue 35), from one table of
    commands (issue 45 §3: no list kept beside decorators): each row names the function
    the app registers, in ``--help``'s order, and no command module registers one itself."""
    import importlib

    import typer.main

    infos = cli.whole_app().registered_commands
    names = [info.name or typer.main.get_command_name(info.callback.__name__) for info in infos]
    assert names == list(cli.COMMANDS)
    for info, name in zip(infos, names):
        row = cli.COMMANDS[name]
        module = importlib.import_module(f"shmod.cli.{row.module}")
        assert info.callback is getattr(module, row.function)
        assert info.callback.__module__ == module.__name__
        assert bool(info.epilog) == row.clock
    for module in cli.MODULES:
        source = (Path(cli.__file__).parent / f"{module}.py").read_text(encoding="utf-8")
        assert "app.command" not in source, module


GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.mark.parametrize("name", ["status", "prods"])
def test_the_installed_status_served_by_the_cache_imports_no_pyyaml_nor_other_commands(
        tmp_path, name):
    """Issue 35: `shmod status` (and `prods`, with nothing to record) on the shipped
    10-player game, the parse cache warm, imports neither PyYAML nor the modules of the
    other commands (python -X importtime lists what it imports)."""
    log = tmp_path / "ten.yaml"
    log.write_bytes((GAMES / "forum-10-players.yaml").read_bytes())
    log.chmod(0o600)
    script = str(Path(sys.executable).parent / "shmod")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")},
           "SHMOD_CACHE": str(tmp_path / "cache")}
    argv = [sys.executable, "-X", "importtime", script, name, "-g", str(log)]
    runs = [subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
            for _ in range(2)]
    imported = [{line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines()
                 if line.startswith("import time:") and "|" in line} for run in runs]
    assert "yaml" in imported[0]  # the first read parses the log
    assert "yaml" not in imported[1] and "shmod.log.logyaml" not in imported[1]
    others = {f"shmod.cli.{m}" for m in cli.MODULES if m != cli.COMMANDS[name].module}
    assert not others & imported[1], others & imported[1]
    assert runs[0].stdout == runs[1].stdout and runs[1].returncode == 0


def test_the_command_line_sets_aside_what_its_start_up_made(run):
    """Issue 35: the console script (``cli.run``) keeps Python's cyclic garbage collector
    idle while typer and the command's module are imported, and freezes what they made
    before the command runs, which runs with the collector on (scanning the start-up's
    objects cost a short command a fifth of its time: BENCHMARKS.md). ``main()`` called
    in-process, as the tests' ``run`` does, leaves the collector as it found it."""
    from importlib.metadata import entry_points

    assert [e.value for e in entry_points(group="console_scripts", name="shmod")] == \
        ["shmod.cli.main:run"]
    code = ("import atexit, gc, sys\nfrom shmod.cli import main as cli\n"
            "atexit.register(lambda: print(gc.isenabled(), gc.get_freeze_count()))\n"
            "sys.argv = ['shmod', 'rules', 'R-TERM']\ncli.run()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    enabled, frozen = done.stdout.splitlines()[-1].split()
    assert done.returncode == 0 and "R-TERM" in done.stdout
    assert enabled == "True" and int(frozen) > 10_000  # typer's and shmod's objects
    before = gc.get_freeze_count()
    assert run("rules", "R-TERM")[0] == 0
    assert gc.isenabled() and gc.get_freeze_count() == before


def test_the_outbox_summary_imports_no_text_and_no_catalog(ten):
    """Issue 40: the outbox's one line (``status``, every recording command) and ``shmod
    outbox`` itself load no text module and no catalog beyond what the command line loads
    for its shared options (the output profiles' names)."""
    baseline = {m for m in _modules_after("import shmod.cli.app") if m.startswith("shmod.texts")}
    code = ("import sys\nfrom shmod.log import store, outbox\n"
            f"loaded = store.load({ten!r})\nbefore = set(sys.modules)\n"
            "print(outbox.summary(loaded), file=sys.stderr)\n"
            "sys.modules = {m: 1 for m in set(sys.modules) - before}")
    assert not {m for m in _modules_after(code) if m.startswith(("shmod.texts", "gettext"))}
    listed = _modules_of(["outbox", "-g", ten])
    assert {m for m in listed if m.startswith("shmod.texts")} <= baseline, listed - baseline
    status = _modules_of(["status", "-g", ten])
    assert {m for m in status if m.startswith("shmod.texts")} <= baseline | {
        "shmod.texts.board", "shmod.texts.views"}


@pytest.mark.parametrize("argv", [["vote", "Ann", "ja"], ["status"], ["prods"]])
def test_a_step_mid_round_loads_no_common_words(run, tmp_path, monkeypatch, argv):
    """Issue 45 §6: the salt's guessability (the 2,375-line table of common words'
    hashes, shmod.forum.common_words) is checked when the log is made and audited, not on
    every step: a vote mid-round, ``status`` and ``prods`` load neither it nor the guesses."""
    path = tmp_path / "g.yaml"
    monkeypatch.setenv("SHMOD_NOW", "2026-11-23T10:00:00Z")
    assert run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", str(path), "--first", "Ann")[0] == 0
    assert run("nominate", "Bob", "-g", str(path))[0] == 0
    before = path.read_bytes()
    code = ("import os\nos.environ['SHMOD_NOW'] = '2026-11-23T11:00:00Z'\n"
            "os.environ['SHMOD_CACHE'] = 'off'\n")
    loaded = _modules_after(code + "import sys\nfrom shmod.cli import main as cli\n"
                            f"sys.argv = ['shmod', *{[*argv, '-g', str(path)]!r}]\n"
                            "try:\n    cli.main()\nexcept SystemExit as done:\n"
                            "    assert not done.code, done.code")
    assert (path.read_bytes() != before) == (argv[0] != "status")  # prods records prods
    assert not {"shmod.forum.common_words", "shmod.forum.guesses"} & loaded
