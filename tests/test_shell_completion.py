"""Shell completion through the installed command, as bash, zsh and fish call it: commands,
options, fixed words and the current game's player names (from ``-g`` or ``SHMOD_GAME``).
A completion never prints a traceback or an error, never changes a file, and its answers
cannot depend on hidden information (only the seated names are read out)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shmod.log import store

SHMOD = Path(sys.executable).parent / "shmod"
PLAYERS = ["Moliere", "El Guapo", "Chaosraven", "Stessier", "Grundbegriff", "Vorret",
           "Remus West"]


def _new(folder: Path, seed: str = "c1", name: str = "games/friday.yaml") -> Path:
    done = subprocess.run([str(SHMOD), "new", *PLAYERS, "--seed", seed, "--guessable", "-g", name],
                          cwd=folder, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return folder / name


def complete(folder: Path, line: str, shell: str = "bash", game_env: str | None = "games/friday.yaml",
             ) -> tuple[int, list[str], str]:
    """Ask for completions of ``line`` (the cursor at its end) as ``shell`` does."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SHMOD_", "_SHMOD")) or k == "SHMOD_CACHE"}
    env["_SHMOD_COMPLETE"] = f"complete_{shell}"
    if game_env:
        env["SHMOD_GAME"] = game_env
    if shell == "bash":
        words = line.split(" ")
        env.update(COMP_WORDS=line, COMP_CWORD=str(len(words) - 1))
    else:
        env["_TYPER_COMPLETE_ARGS"] = line
        if shell == "fish":
            env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    done = subprocess.run([str(SHMOD)], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=60)
    return done.returncode, [line for line in done.stdout.splitlines() if line], done.stderr


@pytest.fixture
def table(tmp_path) -> Path:
    _new(tmp_path)
    return tmp_path


def test_bash_completes_commands_options_and_words(table):
    code, out, err = complete(table, "shmod vo")
    assert (code, out, err) == (0, ["vote"], "")
    code, out, _ = complete(table, "shmod ")
    assert {"new", "vote", "nominate", "audit", "status"} <= set(out)
    assert complete(table, "shmod nominate --")[1] == ["--game", "--by", "--format", "--help"]
    assert complete(table, "shmod vote Moliere ")[1] == ["ja", "nein"]
    assert complete(table, "shmod discard f")[1] == ["fascist"]
    assert complete(table, "shmod post -f b")[1] == ["bbcode"]


def test_bash_completes_the_games_player_names(table):
    # names with a space come back escaped, so bash inserts them as one word
    names = ["Moliere", r"El\ Guapo", "Chaosraven", "Stessier", "Grundbegriff", "Vorret",
             r"Remus\ West"]
    assert complete(table, "shmod vote ")[1] == names
    assert complete(table, "shmod nominate V")[1] == ["Vorret"]
    assert complete(table, "shmod nominate vor")[1] == ["vorret"]  # any case, as shmod reads
    assert complete(table, "shmod execute --by ")[1] == names
    assert complete(table, "shmod pm R")[1] == [r"Remus\ West"]
    assert complete(table, "shmod replace G")[1] == ["Grundbegriff"]
    # -g on the command line beats SHMOD_GAME; a missing game offers nothing
    other = _new(table, "c2", "games/other.yaml")
    other.write_text(other.read_text())  # same players; the game -g names is the one read
    assert complete(table, "shmod vote -g games/other.yaml M", game_env=None)[1] == ["Moliere"]
    assert complete(table, "shmod vote M", game_env=None)[1] == []
    assert complete(table, "shmod vote M", game_env="games/nope.yaml")[1] == []


def test_names_follow_a_replacement(table):
    done = subprocess.run([str(SHMOD), "replace", "Grundbegriff", "Newbie"], cwd=table,
                          env={**os.environ, "SHMOD_GAME": "games/friday.yaml"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert complete(table, "shmod vote N")[1] == ["Newbie"]
    assert complete(table, "shmod vote G")[1] == []


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_get_the_same_answers_in_their_format(table, shell):
    code, out, err = complete(table, "shmod vote El", shell=shell)
    assert code == 0 and err == ""
    if shell == "zsh":
        assert out == ["_arguments '*: :((\"El Guapo\"))'"]
    else:
        assert out == ["El Guapo"]
    code, out, _ = complete(table, "shmod vo", shell=shell)
    assert "vote" in "\n".join(out)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_its_install_script(tmp_path, shell):
    done = subprocess.run([str(SHMOD)], env={**os.environ, "_SHMOD_COMPLETE": f"source_{shell}"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert f"_SHMOD_COMPLETE=complete_{shell}" in done.stdout
    guide = (Path(__file__).resolve().parent.parent / "docs" / "guide.md").read_text()
    assert f"_SHMOD_COMPLETE=source_{shell} shmod" in guide


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_itself_completes_a_name_with_a_space_as_one_word(table):
    script = subprocess.run([str(SHMOD)], env={**os.environ, "_SHMOD_COMPLETE": "source_bash"},
                            capture_output=True, text=True, timeout=60).stdout
    driver = script + '\nCOMP_WORDS=(shmod vote "El"); COMP_CWORD=2\n' \
        '_shmod_completion shmod\nprintf "%s\\n" "${COMPREPLY[@]}"\n'
    env = {**os.environ, "PATH": f"{SHMOD.parent}:{os.environ['PATH']}",
           "SHMOD_GAME": "games/friday.yaml"}
    done = subprocess.run(["bash", "--norc", "-c", driver], cwd=table, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == [r"El\ Guapo"], done.stderr
    line = subprocess.run(["bash", "--norc", "-c", f"printf '%s|' shmod vote {done.stdout}"],
                          capture_output=True, text=True).stdout
    assert line == "shmod|vote|El Guapo|"  # the shell reads the answer as one argument


@pytest.mark.parametrize("line, env", [
    ("shmod vote ", {"SHMOD_GAME": "games/torn.yaml"}),
    ("shmod vote ", {"SHMOD_GAME": "games"}),  # a folder
    ("shmod vote ", {"SHMOD_GAME": "/dev/null"}),
    ('shmod vote "El', {}),  # an unclosed quote
    ("shmod nope --x ", {}),
    ("shmod vote ", {"COMP_CWORD": "x"}),
    ("shmod vote ", {"COMP_CWORD": "99"}),
    ("shmod vote ", {"_SHMOD_COMPLETE": "complete_tcsh"}),
    ("shmod vote ", {"_SHMOD_COMPLETE": "garbage"}),
])
def test_never_a_traceback_and_nothing_changed(table, line, env):
    torn = table / "games" / "torn.yaml"
    torn.write_bytes((table / "games" / "friday.yaml").read_bytes() + b"- {kind: vote, by: Mo")
    before = {p: p.read_bytes() for p in (table / "games").iterdir()}
    words = line.split(" ")
    full = {**os.environ, "SHMOD_GAME": "games/friday.yaml", "_SHMOD_COMPLETE": "complete_bash",
            "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1), **env}
    done = subprocess.run([str(SHMOD)], cwd=table, env=full, capture_output=True, text=True,
                          timeout=60)
    assert "Traceback" not in done.stdout + done.stderr
    assert "Error" not in done.stdout
    after = {p: p.read_bytes() for p in (table / "games").iterdir()}
    assert after == before  # no repair, no backup, no lock file, nothing written


def test_answers_do_not_depend_on_hidden_information(tmp_path):
    """Two games with the same seats but different seeds (roles, deck, first President
    fixed): every completion is the same, and no role or policy word appears."""
    answers = []
    for seed in ("hidden-1", "hidden-2"):
        folder = tmp_path / seed
        folder.mkdir()
        done = subprocess.run([str(SHMOD), "new", *PLAYERS, "--seed", seed, "--guessable", "--first", "Vorret",
                               "-g", "g.yaml"], cwd=folder, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        answers.append([complete(folder, line, game_env="g.yaml")[1]
                        for line in ("shmod vote ", "shmod nominate ", "shmod pm ",
                                     "shmod investigate --by ", "shmod ")])
    roles = [store.load(str(tmp_path / s / "g.yaml")).table.game.roles for s in ("hidden-1", "hidden-2")]
    assert roles[0] != roles[1]
    assert answers[0] == answers[1]
    shown = " ".join(word for group in answers[0] for word in group).lower()
    assert not any(word in shown for word in ("hitler", "fascist", "liberal", "seed"))


def test_completing_names_loads_no_rich(table):
    """The shell waits for this at every Tab: one game load and no rich (speed itself is
    bench/'s, DEVELOPERS.md; the subprocess's timeout guards against a hang)."""
    for _ in range(3):
        assert len(complete(table, "shmod vote ")[1]) == 7
    code = ("import os, sys; from shmod.cli import main as cli\n"
            "sys.argv = ['shmod']\n"
            "import atexit; atexit.register(lambda: sys.stderr.write("
            "'rich' if 'rich' in sys.modules else 'no-rich'))\n"
            "cli.main()")
    env = {**os.environ, "_SHMOD_COMPLETE": "complete_bash", "COMP_WORDS": "shmod vote ",
           "COMP_CWORD": "2", "SHMOD_GAME": "games/friday.yaml"}
    done = subprocess.run([sys.executable, "-c", code], cwd=table, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.stderr.endswith("no-rich"), done.stderr
