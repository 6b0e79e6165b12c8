"""Every simulated game audits as valid, and its summary agrees with a recount
made here from the log entries alone (R-VOTE, R-MAJORITY, R-VETO, R-EXECUTE, R-WIN-*)."""
import itertools
import random

import pytest

from shmod.audit import log_audit
from shmod.audit.random_games import random_game
from shmod.audit.simulate import game_variants
from shmod.forum.log_formats import CURRENT
from shmod.forum.setup import parse_setup
from shmod.game.terms import VARIANTS
from shmod.log import logfile
from shmod.log.store import log_text

AT = "2026-01-01T00:00:00Z"
#: Every combination of the variants RULES.md names; house rules are drawn per game.
NAMED = ("term5", "veto", "tracker_reset")
COMBOS = [
    [f"{k}={v}" for k, v in zip(NAMED, values)]
    for values in itertools.product(*(VARIANTS[k] for k in NAMED))
]
GAMES_PER_CASE = 40  # 6 player counts x 8 variant combinations x 40 = 1,920 games


def audited(sim):
    """A simulated game audited as published: without the moderator's signing key."""
    text = log_text(logfile.published(sim.header), sim.steps, at=AT)
    log = logfile.parse("sim.yaml", text.encode())
    return log, log_audit.audit_log(log)


def recount(log):
    """Count the summary's figures from the raw entries, without the engine."""
    header = log.header
    players = header["players"]
    hitler = next(name for name, role in header["secret"]["roles"].items() if role == "hitler")
    secret_veto = header["variants"]["veto"] == "secret-vote"
    dead: list[str] = []
    out = {"elections": 0, "elected": 0, "vetoes": 0, "vetoes_proposed": 0, "powers": 0,
           "reshuffles": 0}
    ja = votes = 0
    nominee = None
    elected = False
    veto_votes: list[str] = []
    tie = False
    for entry in log.entries:
        kind = entry["kind"]
        if kind == "nominate":
            out["elections"] += 1
            nominee, ja, votes, elected = entry["chancellor"], 0, 0, False
        elif kind == "vote":
            votes += 1
            ja += entry["vote"] == "ja"
            living = len(players) - len(dead)
            tie = votes == living and ja * 2 == living
            if votes == living and ja * 2 > living:
                out["elected"] += 1
                elected = True
        elif kind == "veto":
            if entry["answer"] == "propose":
                out["vetoes_proposed"] += 1
            elif entry["answer"] == "accept":
                out["vetoes"] += 1
            elif secret_veto:
                veto_votes.append(entry["answer"])
                if len(veto_votes) == 2:
                    out["vetoes"] += veto_votes == ["ja", "ja"]
                    veto_votes = []
        elif kind in ("investigate", "special_election", "peek", "execute"):
            out["powers"] += 1
            if kind == "execute":
                dead.append(entry["target"])
        elif kind == "reshuffle":
            out["reshuffles"] += 1
    out["failed"] = out["elections"] - out["elected"]
    out["deaths"] = dead
    if hitler in dead:
        out["how"] = "hitler_executed"
    elif elected and nominee == hitler and log.entries[-1]["kind"] == "vote":
        out["how"] = "hitler_elected"
    elif (header["variants"].get("eva_braun") == "on" and tie and nominee == hitler
          and log.entries[-1]["kind"] == "vote"):
        out["how"] = "hitler_elected_tie"  # R-EVA-BRAUN
    out["government_policies"] = out["elected"] - out["vetoes"] - (out.get("how") == "hitler_elected")
    return out


@pytest.mark.parametrize("players", range(5, 11))
@pytest.mark.slow
def test_every_simulated_game_is_valid_and_recounted(players):
    rng = random.Random(players)
    for combo in COMBOS:
        for _ in range(GAMES_PER_CASE):
            sim = random_game(players, rng,
                              variants=game_variants(rng, combo, True, players))
            log, report = audited(sim)
            assert report.valid, (combo, report.problems)
            assert report.exit_code == log_audit.VALID
            assert report.warnings == [] and report.stopped is None
            assert report.judged == report.entries == len(sim.steps)
            summary = report.summary
            want = recount(log)
            assert summary.players == players
            for key in ("elections", "elected", "failed", "vetoes", "vetoes_proposed",
                        "reshuffles", "deaths"):
                assert getattr(summary, key) == want[key], key
            assert len(summary.powers) == want["powers"]
            assert len(summary.governments) == want["elected"]
            government = [e for e in summary.enacted if e["by"] == "government"]
            assert len(government) == want["government_policies"]
            assert summary.chaos == len(summary.enacted) - len(government)
            rules = parse_setup(log.header).rules  # rebalanced 6p starts with a Fascist policy
            assert summary.liberal == rules.liberal_start + sum(
                e["policy"] == "Liberal" for e in summary.enacted)
            assert summary.fascist == rules.fascist_start + sum(
                e["policy"] == "Fascist" for e in summary.enacted)
            if "how" in want:
                assert summary.how == want["how"]
            elif summary.liberal == 5:
                assert (summary.winner, summary.how) == ("Liberals", "liberal_policies")
            else:
                assert summary.fascist == 6
                assert (summary.winner, summary.how) == ("Fascists", "fascist_policies")


def test_unfinished_game_is_valid_with_a_warning():
    sim = random_game(6, random.Random(1))
    sim.steps = sim.steps[:10]
    _log, report = audited(sim)
    assert report.valid
    assert [w.kind for w in report.warnings] == ["unfinished"]
    assert report.summary.winner is None


def test_unchained_entries_are_unverified_warnings_not_problems():
    sim = random_game(5, random.Random(2))
    text = log_text(logfile.published(sim.header), sim.steps, at=AT)
    lines = text.splitlines(keepends=True)
    first = lines.index("log:\n") + 1
    lines[first + 3] = lines[first + 3].split(", hash:")[0] + "}\n"
    log = logfile.parse("hand.yaml", "".join(lines).encode())
    report = log_audit.audit_log(log)
    assert report.valid
    assert [(w.kind, w.line, w.entry) for w in report.warnings] == [("unverified", first + 4, 4)]


def test_format_problems_are_all_listed_and_judging_stops_at_the_first():
    sim = random_game(7, random.Random(4))
    text = log_text(sim.header, sim.steps, at=AT)
    lines = text.splitlines(keepends=True)
    first = lines.index("log:\n") + 1
    for offset in (5, 20):
        lines[first + offset] = lines[first + offset].replace("kind: ", "kind: x", 1)
    report = log_audit.audit_log(logfile.parse("bad.yaml", "".join(lines).encode()))
    formats = [p for p in report.problems if p.kind == "format"]
    assert [(p.line, p.entry) for p in formats] == [(first + 6, 6), (first + 21, 21)]
    assert report.judged == 5
    assert "entry 6 could not be read" in report.stopped


def test_keys_that_are_not_text_are_reported_not_a_crash():
    sim = random_game(5, random.Random(6))
    text = log_text(sim.header, sim.steps, at=AT) + "- {kind: vote, 1: x}\n"
    report = log_audit.audit_log(logfile.parse("k.yaml", text.encode()))
    assert [p.kind for p in report.problems] == ["format"]
    line = f"shmod: {CURRENT.number}\n"
    header = text.replace(line, line + "1: x\n")
    report = log_audit.audit_log(logfile.parse("h.yaml", header.encode()))
    assert {p.kind for p in report.problems} == {"header", "chain"}


def test_summary_leaves_out_what_a_correction_voided():
    """R-CORRECT: a voided tally and enactment are not counted twice."""
    from scripted import forum_table

    from shmod.audit.summary import summarize
    from shmod.forum.steps import Correct

    t = forum_table(5, deck="LFF")
    t.elect("Bob")
    t.apply(Correct(entries=(t.state.entries,), reason="Eve's PM said Nein"))
    t.vote("Eve", False)
    t.discard("F")
    t.enact("F")
    t.apply(Correct(entries=(t.state.entries,), reason="it was the Liberal"))
    t.enact("L")
    s = summarize(t.state)
    assert (s.elections, s.elected, s.failed, len(s.governments)) == (1, 1, 0, 1)
    assert s.enacted == [{"policy": "Liberal", "by": "government", "president": "Ann",
                          "chancellor": "Bob"}]


def test_a_replacement_audits_as_valid():
    """R-REPLACE: entries after a replacement name the newcomer; they read as valid."""
    from shmod.forum.steps import Replace
    from shmod.game.steps import Vote

    sim = random_game(7, random.Random(2))
    seat = 2
    cut = next(i for i, step in enumerate(sim.steps) if isinstance(step, Vote))
    steps = [*sim.steps[:cut], Replace(target=seat, name="Newcomer"), *sim.steps[cut:]]
    _log, report = audited(type(sim)(sim.header, steps, sim.state))
    assert report.problems == [] and report.judged == len(steps)


def test_a_voided_replacement_audits_as_valid(tmp_path):
    """R-CORRECT: after a replacement is voided, entries name the player who stayed."""
    from shmod.forum.steps import Correct, Replace
    from shmod.game.steps import Nominate, Vote
    from shmod.log import store

    path = str(tmp_path / "g.yaml")
    store.new_game(path, ["Ann", "Bob", "Cat", "Dan", "Eve"], seed="s5", created=AT)
    done = store.record(path, lambda g: Replace(target=2, name="Zed"), at=AT)
    number = done.loaded.table.entries - 1  # then the replacement's post
    store.record(path, lambda g: Correct(entries=(number,), reason="wrong seat",
                                     force=True), at=AT)  # its post was printed for the thread
    store.record(path, lambda g: Vote(by=2, vote=True) if g.table.game.phase == "vote"
                 else Nominate(by=g.table.game.president,
                          chancellor=2 if g.table.game.president != 2 else 3), at=AT)
    lines = open(path).read().splitlines()
    assert "Cat" in lines[-2] and "kind: posted" in lines[-1]
    report = log_audit.audit_file(path)
    assert report.problems == [] and report.judged == report.entries == 7
