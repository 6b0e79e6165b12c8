"""Mutation tests: change one thing in a valid log and the audit points at its line,
as a rule violation or as a broken hash chain (tamper evidence)."""
import random

import pytest

from shmod.audit import log_audit
from shmod.audit.random_games import random_game
from shmod.log import logfile, store
from shmod.log.store import log_text

AT = "2026-01-01T00:00:00Z"
FLIP = {"vote: ja": "vote: nein", "vote: nein": "vote: ja",
        "policy: liberal": "policy: fascist", "policy: fascist": "policy: liberal"}


def valid_logs(count=12):
    rng = random.Random(99)
    for n in range(count):
        sim = random_game(5 + n % 6, rng)
        yield log_text(sim.header, sim.steps, at=AT).splitlines(keepends=True)


def audit_lines(lines):
    return log_audit.audit_log(logfile.parse("t.yaml", "".join(lines).encode()))


def first_entry(lines):
    return lines.index("log:\n") + 1


def first_problem_line(report):
    assert not report.valid
    return report.problems[0].line


def flip(line):
    for old, new in FLIP.items():
        if old in line:
            return line.replace(old, new)
    return None


@pytest.mark.parametrize("what", ["vote", "policy"])
def test_a_changed_vote_or_policy_is_caught_at_its_line(what):
    rng = random.Random(what)
    for lines in valid_logs():
        start = first_entry(lines)
        candidates = [i for i in range(start, len(lines)) if f"{what}: " in lines[i]]
        for index in rng.sample(candidates, 3):
            changed = list(lines)
            changed[index] = flip(lines[index])
            report = audit_lines(changed)
            assert first_problem_line(report) == index + 1
            kinds = {p.kind for p in report.problems if p.line == index + 1}
            assert kinds <= {"chain", "rule"} and "chain" in kinds


def test_an_illegal_discard_is_a_rule_violation_at_its_line():
    for lines in valid_logs():
        start = first_entry(lines)
        for index in range(start, len(lines)):
            if "kind: discard" not in lines[index]:
                continue
            changed = list(lines)
            changed[index] = flip(lines[index])
            report = audit_lines(changed)
            rules = [p for p in report.problems if p.kind == "rule"]
            if rules:  # the hand did not hold the other policy
                assert (rules[0].line, rules[0].rule) == (index + 1, "R-DRAW")
                assert "judging stopped at entry" in report.stopped
                return
    pytest.fail("no discard could be made illegal")


def test_a_deleted_entry_is_caught_where_it_was():
    rng = random.Random(1)
    for lines in valid_logs():
        start = first_entry(lines)
        index = rng.randrange(start, len(lines) - 1)  # removing the very last is a truncation
        changed = lines[:index] + lines[index + 1:]
        report = audit_lines(changed)
        assert first_problem_line(report) == index + 1
        assert report.problems[0].kind == "chain"


def test_moved_entries_are_caught_and_said_to_be_out_of_place():
    rng = random.Random(2)
    for lines in valid_logs():
        start = first_entry(lines)
        index = rng.randrange(start, len(lines) - 1)
        changed = list(lines)
        changed[index], changed[index + 1] = changed[index + 1], changed[index]
        report = audit_lines(changed)
        chain = [p for p in report.problems if p.kind == "chain"]
        assert [p.line for p in chain[:2]] == [index + 1, index + 2]
        assert "out of place" in chain[0].message and "out of place" in chain[1].message
        assert first_problem_line(report) == index + 1


def test_an_inserted_entry_is_caught_at_its_line():
    rng = random.Random(3)
    for lines in valid_logs():
        start = first_entry(lines)
        index = rng.randrange(start, len(lines))
        changed = [*lines[:index + 1], lines[index], *lines[index + 1:]]
        report = audit_lines(changed)
        assert first_problem_line(report) == index + 2


def test_a_forged_hash_moves_the_evidence_to_the_next_line():
    lines = next(valid_logs())
    log = logfile.parse("t.yaml", "".join(lines).encode())
    index = first_entry(lines) + 5
    entry = dict(log.entries[5])
    previous = log.entries[4]["hash"]
    entry["at"] = "2026-01-02T00:00:00Z"  # any edit, its own hash recomputed by a forger
    entry["hash"] = logfile.link(previous, entry)
    changed = list(lines)
    changed[index] = logfile.entry_line(entry)
    report = audit_lines(changed)
    assert first_problem_line(report) == index + 2


def test_a_changed_role_fails_the_header_and_the_first_link():
    lines = next(valid_logs())
    index = next(i for i, line in enumerate(lines) if line.strip().endswith(": liberal"))
    changed = list(lines)
    changed[index] = lines[index].replace(": liberal", ": hitler")
    report = audit_lines(changed)
    assert report.problems[0].kind == "header" and report.problems[0].rule == "R-ROLES"
    chain = [p for p in report.problems if p.kind == "chain"]
    assert [p.line for p in chain] == [first_entry(lines) + 1]


def test_swapped_seats_break_the_chain_at_the_first_entry():
    lines = next(valid_logs())
    players = [i for i, line in enumerate(lines) if line.startswith("- Player")][:2]
    changed = list(lines)
    changed[players[0]], changed[players[1]] = lines[players[1]], lines[players[0]]
    report = audit_lines(changed)
    chain = [p for p in report.problems if p.kind == "chain"]
    assert chain[0].line == first_entry(lines) + 1
    assert "header was changed" in chain[0].message


def test_an_unseeded_header_edit_is_caught_by_the_chain():
    lines = next(valid_logs())
    changed = [line for line in lines if not line.startswith("  seed:")]
    report = audit_lines(changed)
    # The header's own commitment no longer matches, and the chain breaks at entry 1.
    assert [p.kind for p in report.problems] == ["commitment", "chain"]
    assert report.problems[1].line == first_entry(changed) + 1


def test_game_load_flags_one_edit_once(tmp_path):
    """Game.chain (used by every command) also checks against the stored previous hash."""
    lines = next(valid_logs())
    index = next(i for i in range(first_entry(lines), len(lines)) if "vote: ja" in lines[i])
    lines[index] = lines[index].replace("vote: ja", "vote: nein")
    path = tmp_path / "g.yaml"
    path.write_text("".join(lines))
    notes = store.load(str(path)).chain
    assert [(n.line, n.problem) for n in notes] == [(index + 1, "mismatch")]


def test_shmod_chains_over_an_entry_appended_by_hand(tmp_path):
    from shmod.game.steps import Nominate, Vote

    path = str(tmp_path / "g.yaml")
    made = store.new_game(path, ["Ann", "Bob", "Cy", "Dee", "Eve"], seed="s1", created=AT)
    state = made.table
    nominee = state.game.next_living(state.game.president)
    store.record(path, lambda g: Nominate(by=g.table.game.president, chancellor=nominee), at=AT)
    with open(path, "a") as handle:
        handle.write("- {kind: vote, by: Ann, vote: ja}\n")
    store.record(path, lambda g: Vote(by=1, vote=True), at=AT)
    report = log_audit.audit_file(path)
    assert report.valid, report.problems
    assert [(w.kind, w.entry) for w in report.warnings] == [("unverified", 4), ("exposed", None),
                                                              ("signing_key", None),
                                                              ("unfinished", None)]
