"""``shmod stats`` on a corpus: games written by ``shmod simulate`` under every variant
value and with mixed variants, plus the hand-made games of ``tests/stats_games.py``. Its
win rates by player count and win conditions are the batch audit's; a tampered and an
unfinished log are left out and named; the totals add up; the numbers are the same
every run and whatever order the logs are read in; 2,000 logs (``slow``) in memory that
stays flat: one game at a time and a few hundred bytes kept per counted game.

``SHMOD_STATS_LOGS`` sets how many logs the memory test reads (default 2,000).
"""
from __future__ import annotations

import json
import os
import random
import shutil

import pytest
from stats_games import forum

from shmod.audit.batch import find_logs
from shmod.audit.forum_stats import collect
from shmod.audit.simulate import simulate
from shmod.forum.terms import VARIANTS
from shmod.game.house import REBALANCED


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Every variant value other than the default (six games each, every player count it
    exists for), 24 games with mixed variants, and the three hand-made games."""
    root = tmp_path_factory.mktemp("corpus")
    for key, values in VARIANTS.items():
        for value in values[1:]:
            counts = sorted(REBALANCED) if key == "rebalanced" else list(range(5, 11))
            list(simulate(str(root / f"{key}-{value}"), 6, counts, f"stats-{key}-{value}",
                          variants=[f"{key}={value}"]))
    list(simulate(str(root / "mixed"), 24, list(range(5, 11)), "stats-mixed", mixed=True))
    forum(root / "forum")
    return root


def _json(run, *args):
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_win_rates_by_player_count_and_how_games_were_won_are_the_audits(run, corpus):
    audit, stats = _json(run, "audit", str(corpus)), _json(run, "stats", str(corpus))
    assert stats["logs"] == audit["games"] == audit["valid"] == audit["finished"]
    assert stats["counted"] == audit["finished"] and stats["left_out"] == []
    assert stats["wins_by_players"] == audit["wins_by_players"]
    assert stats["wins_by_condition"] == audit["wins_by_condition"]
    assert len(audit["wins_by_players"]) == 6 and len(audit["wins_by_condition"]) >= 4


def test_the_totals_add_up(run, corpus):
    stats = _json(run, "stats", str(corpus))
    players = stats["players"]
    by_count = {int(n): row["games"] for n, row in stats["wins_by_players"].items()}
    # one result per seat of every counted game (a replaced seat's to whoever ended in it)
    assert sum(p["games"] for p in players) == sum(n * g for n, g in by_count.items())
    assert sum(p["hitler"]["games"] for p in players) == stats["counted"]
    for p in players:
        assert p["liberal"]["games"] + p["fascist"]["games"] == p["games"]
        assert p["liberal"]["wins"] + p["fascist"]["wins"] == p["wins"]
        assert p["hitler"]["games"] <= p["fascist"]["games"]
        assert sum(t["games"] for t in p["by_players"].values()) == p["games"]
        assert sum(t["wins"] for t in p["by_how"].values()) == p["wins"]
        assert 0 <= p["vote_accuracy"]["accurate"] <= p["vote_accuracy"]["votes"]
        assert 0 <= p["shot_accuracy"]["accurate"] <= p["shot_accuracy"]["shots"]
    assert sum(p["elected_president"] for p in players) == sum(
        p["elected_chancellor"] for p in players)
    # each player count's winners: the team's seats in each game it won
    wins = sum(p["wins"] for p in players)
    assert 0 < wins < sum(p["games"] for p in players)


def test_a_tampered_and_an_unfinished_log_are_left_out_and_named(run, corpus, tmp_path,
                                                                monkeypatch):
    """The unfinished log's last entry is 19 days old (abandoned after 30: issue 43)."""
    monkeypatch.setenv("SHMOD_NOW", "2026-01-20T00:00:00Z")
    folder = tmp_path / "games"
    shutil.copytree(corpus / "mixed", folder)
    before = _json(run, "stats", str(folder))
    log = (folder / "game-0007-5p.yaml").read_text()
    (folder / "tampered.yaml").write_text(log.replace("policy: fascist", "policy: liberal", 1))
    (folder / "unfinished.yaml").write_text("".join(log.splitlines(keepends=True)[:-3]))
    after = _json(run, "stats", str(folder))
    reasons = {o["path"]: o["reason"] for o in after["left_out"]}
    assert set(reasons) == {str(folder / "tampered.yaml"), str(folder / "unfinished.yaml")}
    assert reasons[str(folder / "tampered.yaml")].startswith(
        f"invalid: {folder / 'tampered.yaml'}:")
    assert reasons[str(folder / "unfinished.yaml")].startswith(
        "unfinished: the game is not over: waiting for ")
    assert (after["logs"], after["counted"]) == (before["logs"] + 2, before["counted"])
    assert after["players"] == before["players"]


def test_ratings_are_reproducible_and_independent_of_file_order(corpus):
    paths = find_logs([str(corpus)])
    shuffled = list(paths)
    random.Random(28).shuffle(shuffled)

    def figures(paths):
        got = collect(paths)
        return sorted((c.to_json() for c in got.careers.values()), key=lambda c: c["key"])

    first = figures(paths)
    assert first == figures(paths) == figures(shuffled) == figures(paths[::-1])
    assert len({p["rating"]["rating"] for p in first}) == len(first) > 10


#: Reads the first N of the logs named on stdin into stats in a process of its own and
#: prints its peak memory (kB) and the size of everything the stats keep (bytes).
MEASURE = """
import gc, resource, sys, types
from shmod.audit.forum_stats import Collector
paths = sys.stdin.read().split(chr(10))[:int(sys.argv[1])]
collector = Collector()
for path in paths:
    collector.add(path)
result = collector.finish()
assert result.counted == len(paths), result.left_out[:3]
seen, stack, kept = set(), [collector.stats], 0
while stack:
    item = stack.pop()
    if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType)):
        continue
    seen.add(id(item))
    kept += sys.getsizeof(item)
    stack.extend(gc.get_referents(item))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, kept)
"""


@pytest.mark.slow
def test_thousands_of_logs_with_memory_flat(tmp_path):
    """One game's audit in memory at a time, and under a kilobyte kept per counted game
    (its date, its hash, each seat's player for the ratings): reading four times as many
    logs takes no more memory than noise, where keeping each game's audit would take
    hundreds of megabytes."""
    import subprocess
    import sys

    total = int(os.environ.get("SHMOD_STATS_LOGS", "2000"))
    paths = list(simulate(str(tmp_path / "logs"), total, list(range(5, 11)), "stats-memory",
                          mixed=True))

    def measure(count: int) -> tuple[int, int]:
        done = subprocess.run([sys.executable, "-c", MEASURE, str(count)], check=True,
                              input="\n".join(paths), capture_output=True, text=True,
                              timeout=900)
        peak, kept = map(int, done.stdout.split())
        return peak, kept

    (quarter, kept_quarter), (whole, kept_whole) = measure(total // 4), measure(total)
    per_log = (kept_whole - kept_quarter) / (total - total // 4)
    assert per_log < 1024, f"{per_log:.0f} bytes kept per log"
    assert whole - quarter < 8 * 1024, f"{quarter} kB for {total // 4} logs, {whole} kB for {total}"


@pytest.fixture(scope="module")
def forum_features(tmp_path_factory):
    """The whole games of the forum-profile tests: hostile names, a replacement by
    "@Newbie", corrections (one forced after a post); a deal from the players' words;
    a name corrected, deadlines that lapse, a prod, a removal."""
    from test_forum_profiles import _absences, _dealt_by_words, _forum_game

    from shmod.log.store import log_text

    folder = tmp_path_factory.mktemp("features")
    for name, make in (("forum", _forum_game), ("words", _dealt_by_words),
                       ("absences", _absences)):
        header, steps = make()
        (folder / f"{name}.yaml").write_text(log_text(header, steps, at="2026-01-01T00:00:00Z"))
    return folder


def test_forum_features_are_counted_as_the_audit_recounts_them(run, forum_features):
    """Each game's elections and enactments as the audit's summary has them, and its
    prods, lapses, replacements, removals and renames as the replayed state has them."""
    from shmod.audit.log_audit import audit_file
    from shmod.forum.events import Lapsed
    from shmod.forum.seats import voided

    for path in sorted(forum_features.glob("*.yaml")):
        report = audit_file(str(path))
        assert report.valid and report.summary and report.summary.winner, path.name
        state, summary = report.table, report.summary
        got = collect([str(path)])
        assert got.counted == 1 and not got.left_out
        players = [c.to_json() for c in got.careers.values()]
        total = {key: sum(p[key] for p in players) for key in (
            "elected_president", "elected_chancellor", "prods", "lapses", "replaced_in",
            "replaced_out", "removed", "games")}
        assert total["elected_president"] == total["elected_chancellor"] == summary.elected
        assert sum(sum(p["enacted_as_chancellor"].values()) for p in players) == sum(
            1 for e in summary.enacted if e["by"] == "government")
        assert total["prods"] == len(state.prods)
        void = voided(state)
        assert total["lapses"] == sum(len(ev.late) for ev in state.public
                                      if isinstance(ev, Lapsed) and ev.entry not in void)
        assert total["replaced_in"] == total["replaced_out"] == len(state.replaced)
        assert total["removed"] == len(state.removed)
        assert total["games"] == summary.players  # one result a seat
        assert {p["name"] for p in players} >= set(state.game.players)
    features = {p["name"]: p for p in json.loads(run("stats", str(forum_features), "--json")[1])["players"]}
    # Cat of the absences game was renamed Cato (R-RENAME): one player, credited as Cato
    assert (features["Ann"]["games"], features["Cat"]["games"], features["Cato"]["games"]) == (
        2, 1, 1)
    assert features["@Newbie"]["replaced_in"] == 1


def test_a_log_that_trips_a_bug_is_left_out_saying_so(corpus, monkeypatch):
    from shmod.audit import forum_stats

    paths = find_logs([str(corpus / "forum")])
    real = forum_stats.parts

    def parts(state, accuracy=True):
        if "Fay" in state.game.players:
            raise KeyError("Fay")
        return real(state, accuracy)

    monkeypatch.setattr(forum_stats, "parts", parts)
    got = collect(paths)
    assert got.counted == 2 and [o.path.rsplit("/", 1)[1] for o in got.left_out] == ["a.yaml"]
    assert got.left_out[0].reason.startswith(
        f"not counted: unexpected internal error reading {corpus / 'forum' / 'a.yaml'} "
        "(KeyError: 'Fay')")
