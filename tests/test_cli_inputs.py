"""Any argument, one clear line: random command lines against a game in progress never
end in a traceback or an internal error, and a refused command leaves the log unchanged."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st
from safety_helpers import run_main
from scripted import AT

from shmod.game.steps import Nominate
from shmod.log import store

COMMANDS = ["new", "nominate", "vote", "discard", "enact", "veto", "investigate",
            "special-election", "execute", "peek", "reshuffle", "status", "repair", "claim"]
WORDS = ["Ann", "bob", "C", "3", "0", "11", "-1", "ja", "nein", "yes", "liberal", "F",
         "FLF", "propose", "accept", "--by", "--seed", "--first", "-V", "veto=secret-vote",
         "term5=seated", "x=y", "--format", "bbcode", "", " ", "é", "a: b", "{x}", "\n",
         "!!python/object", "- [", "'", '"', "Ann" * 20, "--role", "--round", "--passed",
         "--peek", "hitler"]
words = st.sampled_from(WORDS) | st.text(max_size=12)
SEEN: dict[str, int] = {"runs": 0, "refused": 0}


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(COMMANDS), st.lists(words, max_size=5))
def test_random_command_lines_end_in_one_clear_line(tmp_path, capsys, monkeypatch, command,
                                                    args):
    path = tmp_path / "g.yaml"
    if not path.exists():
        store.new_game(str(path), ["Ann", "Bob", "Cy", "Dee", "Eve"], seed="s", first="Ann", created=AT)
        store.record(str(path), lambda g: Nominate(by=0, chancellor=1), at=AT)
    before = path.read_bytes()
    target = tmp_path / "new.yaml" if command == "new" else path
    code = run_main(monkeypatch, command, *args, "-g", str(target))
    out = capsys.readouterr()
    SEEN["runs"] += 1
    assert "Traceback" not in out.err and code != 70, out.err
    if code:
        SEEN["refused"] += 1
        assert path.read_bytes() == before
        if "Usage:" not in out.err:  # typer's own usage errors come with a usage line
            assert out.err.startswith("Error: ") and out.err.count("\n") == 1, out.err
    if target.name == "new.yaml" and target.exists():
        target.unlink()


def test_cli_input_counts(report_counts):
    assert SEEN["runs"] >= 300
    report_counts("cli inputs", f"{SEEN['runs']} random command lines: {SEEN['refused']} "
                  "refused in one line, the log unchanged each time; 0 tracebacks")
