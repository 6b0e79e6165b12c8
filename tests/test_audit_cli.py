"""``shmod audit`` and ``shmod simulate`` as a user runs them: exit codes, output, JSON."""
import json
import os
import subprocess
import sys

import pytest

SHMOD = [sys.executable, "-m", "shmod"]


def run(*args, cwd):
    return subprocess.run([*SHMOD, *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200"})


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sims")
    done = run("simulate", "games", "-n", "12", "--seed", "t", "--mixed-variants", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


def test_simulate_writes_reproducible_valid_games(games, tmp_path):
    files = sorted(os.listdir(games / "games"))
    assert len(files) == 12 and files[0] == "game-0001-5p.yaml"
    again = run("simulate", "again", "-n", "2", "--seed", "t", "--mixed-variants", cwd=tmp_path)
    assert again.returncode == 0
    assert (tmp_path / "again" / files[0]).read_bytes() == (games / "games" / files[0]).read_bytes()
    refused = run("simulate", "again", "-n", "1", "--seed", "t", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith("Error: ")
    assert "never overwrites" in refused.stderr
    bad = run("simulate", "x", "--players", "4-6", cwd=tmp_path)
    assert bad.returncode == 1 and "R-COUNT" in bad.stderr


def test_single_valid_game(games):
    done = run("audit", "games/game-0003-7p.yaml", cwd=games)
    assert done.returncode == 0, done.stdout
    assert "VALID" in done.stdout and "Winner: the" in done.stdout
    data = json.loads(run("audit", "--json", "games/game-0003-7p.yaml", cwd=games).stdout)
    assert data["valid"] and data["exit"] == 0 and data["problems"] == []
    assert set(data["summary"]) >= {"winner", "how", "rounds", "elections", "enacted",
                                    "powers", "chaos", "vetoes", "deaths", "reshuffles"}
    ok = run("audit", "games/game-0003-7p.yaml", "--commitment", data["commitment"], cwd=games)
    assert ok.returncode == 0 and "matches the given commitment" in ok.stdout
    wrong = run("audit", "games/game-0003-7p.yaml", "-c", "0" * 64, cwd=games)
    assert wrong.returncode == 1 and "NOT match" in wrong.stdout
    typo = run("audit", "games/game-0003-7p.yaml", "-c", "xyz", cwd=games)
    assert typo.returncode == 2 and typo.stderr.startswith("Error: ")


def test_hand_tampered_game_points_at_the_line(games, tmp_path):
    path = tmp_path / "t.yaml"
    lines = (games / "games" / "game-0002-6p.yaml").read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if "vote: ja" in line)
    lines[index] = lines[index].replace("vote: ja", "vote: nein")
    path.write_text("".join(lines))
    done = run("audit", str(path), cwd=tmp_path)
    assert done.returncode == 1
    assert f"{path}:{index + 1}: entry" in done.stdout and "broken hash chain" in done.stdout


def test_folder_audit_table_and_exit_codes(games, tmp_path):
    done = run("audit", "games", cwd=games)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Win rates by player count" in done.stdout and "Win conditions" in done.stdout
    totals = json.loads(run("audit", "games", "--json", cwd=games).stdout)
    assert (totals["games"], totals["valid"], totals["invalid"]) == (12, 12, 0)
    assert sum(row["games"] for row in totals["wins_by_players"].values()) == 12
    broken = games / "games" / "sub"
    broken.mkdir()
    (broken / "bad.yaml").write_text("players: [\n")
    done = run("audit", "games", "--json", cwd=games)
    totals = json.loads(done.stdout)
    assert done.returncode == 2 and totals["unreadable"] == 1 and totals["games"] == 13
    assert totals["first_problems"][0]["path"].endswith("bad.yaml")
    (broken / "bad.yaml").unlink()
    missing = run("audit", "a.yaml", "nowhere/", cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr.startswith("Error: ")


def test_unreadable_single_log_exits_2(tmp_path):
    (tmp_path / "x.yaml").write_text("log: [\n")
    done = run("audit", "x.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "UNREADABLE" in done.stdout


def test_new_prints_the_commitment_that_audit_checks(tmp_path):
    made = run("new", "Ann", "Bob", "Cy", "Dee", "Eve", "-g", "g.yaml", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    line = next(x for x in made.stderr.splitlines() if x.startswith("Commitment"))
    posted = line.rsplit(" ", 1)[1]
    done = run("audit", "g.yaml", "--commitment", posted, cwd=tmp_path)
    assert done.returncode == 0 and "matches the given commitment" in done.stdout
    assert "the game is not over" in done.stdout


def test_audit_without_a_path_checks_the_game_in_shmod_game(games):
    path = str(games / "games" / "game-0001-5p.yaml")
    done = subprocess.run([*SHMOD, "audit"], cwd=games, capture_output=True, text=True,
                          env={**os.environ, "SHMOD_GAME": path})
    assert done.returncode == 0 and f"{path}: VALID" in done.stdout
    env = {k: v for k, v in os.environ.items() if k != "SHMOD_GAME"}
    done = subprocess.run([*SHMOD, "audit"], cwd=games, capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert done.stderr == "Error: name a game log or a folder to audit (or set SHMOD_GAME)\n"


def test_folder_audit_names_what_is_named_like_a_log_and_is_none(games, tmp_path):
    """Issue 35: as `shmod stats` does (shmod.audit.batch.not_a_log, shared), a link to
    nothing is an unreadable game with its reason (not "no such game log"), a folder named
    like a log is searched and said to be one, a link to a folder is not followed."""
    folder = tmp_path / "forum"
    (folder / "old.yaml").mkdir(parents=True)  # a folder named like a log: searched
    log = (games / "games" / "game-0001-5p.yaml").read_bytes()
    (folder / "old.yaml" / "one.yaml").write_bytes(log)
    (folder / "two.yaml").write_bytes(log)
    (folder / "gone.yaml").symlink_to("moved-away.yaml")
    (folder / "elsewhere.yml").symlink_to(games / "games", target_is_directory=True)
    done = run("audit", "forum", "--json", cwd=tmp_path)
    totals = json.loads(done.stdout)
    assert done.returncode == 2 and (totals["games"], totals["valid"]) == (3, 2)
    assert totals["unreadable"] == 1
    assert totals["first_problems"] == [{"path": "forum/gone.yaml", "problem": (
        "forum/gone.yaml: a link to nothing: 'moved-away.yaml' does not exist")}]
    assert {(item["path"], item["why"]) for item in totals["left_out"]} == {
        ("forum/elsewhere.yml", "a link to a folder, not a log: not followed"),
        ("forum/gone.yaml", "a link to nothing: 'moved-away.yaml' does not exist"),
        ("forum/old.yaml", "a folder, not a log: searched as a folder")}
    shown = run("audit", "forum", cwd=tmp_path).stdout
    assert "Named like a log, not one to read" in shown and "no such game log" not in shown
    assert "searched as a folder" in shown
