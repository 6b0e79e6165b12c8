"""Issue 27, without a browser: `shmod replay` as a user runs it, what the page file
holds, and the promise that the page and the post of a game in progress hold no secret.

The twin games of tests/test_noninterference.py (the same public decisions over other
roles, deck orders, discards and secret veto votes) give byte-identical pages and posts
while the game is on; once it is over the pages differ (they hold the reveal), which
shows the comparison would notice a secret. The page is opened in Chromium by
tests/test_replay_page.py.
"""
from __future__ import annotations

import base64
import copy
import hashlib
import json
import random
import re
from pathlib import Path

import pytest
from test_noninterference import make_pair

from shmod.audit.random_games import random_game
from shmod.forum.table import Setup
from shmod.game.steps import Reshuffle, Step
from shmod.log import store
from shmod.texts import glossary
from shmod.texts.reveal import governments

SHIPPED = sorted(Path(__file__).parent.parent.glob("games/*.yaml"))
AT = "2026-01-01T00:00:00Z"


def write(path: Path, header: dict[str, object], steps: list[Step]) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(store.log_text(header, steps, at=AT))
    return str(path)


def twin_header(header: dict[str, object], twin: Setup) -> dict[str, object]:
    """The original's header (its public fields, commitment included) over the twin's
    secrets: what a player sees of the two is the same."""
    made = copy.deepcopy(header)
    secret = made["secret"]
    assert isinstance(secret, dict)
    secret.pop("seed", None)
    secret["roles"] = dict(zip(twin.players, twin.roles))
    secret["deck"] = list(twin.deck)
    return made


def cut(steps: list[Step], share: float) -> int:
    """A count of steps about ``share`` through, not right before a reshuffle (a seeded
    game appends its reshuffle with the step that causes it)."""
    count = max(1, int(len(steps) * share))
    while count < len(steps) and isinstance(steps[count], Reshuffle):
        count += 1
    return count


def test_a_page_is_one_file_that_asks_for_nothing(run, tmp_path):
    for log in SHIPPED:
        out = tmp_path / f"{log.stem}.html"
        code, _, err = run("replay", str(log), "-o", str(out))
        assert code == 0 and "steps" in err and "hidden information" in err, err
        html = out.read_text()
        assert len(html.encode()) < 300_000  # the 10-player game: ~150 KB
        bare = html.replace("http://www.w3.org/2000/svg", "")  # the SVG namespace: a name
        assert not re.search(r"(?i)\b(?:src|href|action|srcset)\s*=|url\(|@import|https?:|//\w",
                             bare)
        style = re.findall(r"<style>(.*?)</style>", html, re.S)
        scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
        assert len(style) == 1 and len(scripts) == 1
        policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
        assert policy is not None
        for text, kind in ((style[0], "style-src"), (scripts[0], "script-src")):
            digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
            assert f"{kind} 'sha256-{digest}'" in policy.group(1)
        assert "default-src 'none'" in policy.group(1)
        data = re.search(r'<script type="application/json" id="game">(.*?)</script>', html, re.S)
        assert data is not None and "<" not in data.group(1)
        parsed = json.loads(data.group(1))
        assert len(parsed["frames"]) > 20 and parsed["revealed"] is True


def test_a_game_in_progress_gives_the_same_page_and_post_whatever_was_hidden(run, tmp_path):
    checked = 0
    for seed, players, variants in [(1, 5, []), (2, 7, ["veto=secret-vote"]),
                                    (3, 10, ["tracker_reset=election"]),
                                    (4, 8, ["term5=seated"]), (5, 9, [])]:
        _setup, steps, twin, twin_steps = make_pair(seed, players, variants)
        sim = random_game(players, random.Random(seed), variants=variants)
        assert sim.steps == steps
        header = twin_header(sim.header, twin)
        for share in (0.3, 0.7):
            count = cut(steps, share)
            pages = []
            for name, head, moves in (("a", sim.header, steps), ("b", header, twin_steps)):
                log = write(tmp_path / name / f"{seed}-{share}" / "game.yaml", head, moves[:count])
                page = Path(log).with_suffix(".html")
                assert run("replay", log, "-o", str(page))[0] == 0
                post = run("replay", log, "--post", "-f", "bbcode")
                assert post[0] == 0
                pages.append((page.read_bytes(), post[1]))
            assert pages[0] == pages[1], (seed, share)
            assert b"show-roles" not in pages[0][0] and b'"h":' not in pages[0][0]
            checked += 1
        # the same twins, finished: the pages hold the reveal, so they differ
        finished = [write(tmp_path / n / f"{seed}" / "game.yaml", h, m)
                    for n, h, m in (("a", sim.header, steps), ("b", header, twin_steps))]
        made = []
        for log in finished:
            assert run("replay", log, "-o", log + ".html")[0] == 0
            made.append(Path(log + ".html").read_bytes())
            assert run("replay", log, "--public", "-o", log + ".public.html")[0] == 0
        assert made[0] != made[1]
        assert Path(finished[0] + ".public.html").read_bytes() == \
            Path(finished[1] + ".public.html").read_bytes()
    assert checked == 10


def test_the_post_of_a_finished_game_has_roles_governments_votes_and_powers(run):
    log = str(SHIPPED[2])  # games/forum-10-players.yaml: a seat changed hands
    code, out, _ = run("replay", log, "--post", "-f", "plain")
    assert code == 0
    game = store.load(log)
    seats = [[name] for name in game.setup.players]
    for seat, _old, new, _entry in game.table.replaced:
        seats[seat].append(new)
    roles = re.findall(r"^- (.*): (Liberal|Fascist|Hitler)$", out, re.M)
    assert roles == [(" → ".join(names), glossary.ROLE[role].msgid)
                     for names, role in zip(seats, game.setup.roles)]
    assert any(len(names) == 2 for names in seats)
    lines = re.findall(r"^\d+\. (R\d+ · .*)$", out, re.M)
    sessions = [line for line in lines if line.count(" > ") == 2]
    revealed = governments(game)
    assert len(sessions) == len(revealed)
    for line, gov in zip(sessions, revealed):
        head, hands = line.rsplit(" · ", 1)
        drawn, passed, enacted = hands.split(" > ")
        assert head.endswith(f"{gov.president} → {gov.chancellor}")
        assert drawn == "".join(sorted(gov.drawn))
        kept = list(gov.drawn)
        for card in gov.president_discard:
            kept.remove(card)
        assert passed == "".join(sorted(kept))
        assert enacted == (gov.enacted or "vetoed")
    assert "Voting record" in out and "Powers" in out
    assert re.search(r"^- Round \d+: President \w+ investigated \w+\.$", out, re.M)
    hidden = out.split("SPOILER: The reveal: every role and every policy.")[1]  # issue 33 §3
    assert re.search(r"^- Round \d+: \w+ learnt that \w+'s party is (Liberal|Fascist)\.$",
                     hidden, re.M)
    assert "learnt" not in out.split("SPOILER")[0] and "Roles" in hidden


def test_the_post_of_a_game_in_progress_has_no_roles_and_no_hands(run, tmp_path):
    sim = random_game(7, random.Random(8))
    log = write(tmp_path / "on.yaml", sim.header, sim.steps[:cut(sim.steps, 0.6)])
    code, out, _ = run("replay", log, "--post")
    assert code == 0
    assert "Roles" not in out and " > " not in out and "learnt" not in out
    assert "The game so far" in out and re.search(r"^1\. R1 · ", out, re.M)


def test_a_finished_page_says_the_audit_and_the_commitment(run, tmp_path):
    log = str(SHIPPED[1])  # games/five-players.yaml
    stated = store.load(log).setup.commitment
    assert stated
    page = tmp_path / "p.html"
    assert run("replay", log, "-o", str(page), "-c", stated)[0] == 0
    html = page.read_text()
    assert "Audit: VALID" in html and f"which matches the one recorded at the start ({stated})" in html
    assert "It matches the commitment given to shmod replay --commitment." in html
    assert f"shmod audit five-players.yaml --commitment {stated}" in html
    assert run("replay", log, "-o", str(page), "-c", "0" * 64)[0] == 0
    assert "Audit: INVALID" in page.read_text() and "does NOT match" in page.read_text()
    # an entry edited after it was written: the page says where
    bad = tmp_path / "bad.yaml"
    text = Path(log).read_text()
    bad.write_text(text.replace('at: "2026-10-01T21:23:00Z"', 'at: "2026-10-01T21:24:00Z"', 1))
    assert run("replay", str(bad), "-o", str(page))[0] == 0
    assert "Audit: INVALID" in page.read_text()
    assert "bad.yaml:32: entry 6: chain: broken hash chain" in page.read_text()
    # a vote changed so that the game no longer replays: one line, as every command says it
    bad.write_text(text.replace("vote: nein", "vote: ja", 1))
    code, _, err = run("replay", str(bad), "-o", str(tmp_path / "no.html"))
    assert code == 2 and err.startswith("Error: ") and "R-NOMINATE" in err
    assert not (tmp_path / "no.html").exists()


def test_a_page_in_progress_says_the_audit_waits_for_the_published_log(run, tmp_path):
    sim = random_game(6, random.Random(4))
    log = write(tmp_path / "on.yaml", sim.header, sim.steps[:cut(sim.steps, 0.5)])
    page = tmp_path / "on.html"
    code, _, err = run("replay", log, "-o", str(page))
    assert code == 0 and "the public record only" in err
    html = page.read_text()
    assert "Not audited here: the game is not over" in html
    assert f"shmod audit LOG --commitment {sim.header['commitment']}" in html


@pytest.mark.parametrize("args, message", [
    (["replay", "{log}"], "say what to make: -o FILE writes the replay page"),
    (["replay", "{log}", "-o", "{tmp}/x.html", "-c", "abc"], "commitment"),
    (["replay", "{tmp}/missing.yaml", "-o", "{tmp}/x.html"], "missing.yaml"),
    (["replay", "{log}", "-o", "{log}/x.html"], "cannot write"),
    (["replay", "{log}", "--post", "-f", "phpBB"], "unknown format 'phpBB'"),
    (["replay"], "name a game log"),
])
def test_mistakes_are_one_line(run, tmp_path, args, message):
    log = str(SHIPPED[0])
    argv = [a.format(log=log, tmp=tmp_path) for a in args]
    code, out, err = run(*argv)
    assert code == 2 and err.startswith("Error: ") and err.count("\n") == 1, err
    assert message in err and out == ""
    assert not (tmp_path / "x.html").exists()


def test_hostile_names_stay_text(run, tmp_path):
    names = ["</script><b>x", 'A&amp;"q', "O'Neil", "<!--Dee", "]]>Eve"]
    log = tmp_path / "h.yaml"
    assert run("new", *names, "-g", str(log), "--seed", "ab" * 16, "--guessable")[0] == 0
    page = tmp_path / "h.html"
    assert run("replay", str(log), "-o", str(page))[0] == 0
    html = page.read_text()
    assert "</script><b>" not in html and "<!--Dee" not in html
    data = re.search(r'id="game">(.*?)</script>', html, re.S)
    assert data is not None
    strings = json.loads(data.group(1))["strings"]
    assert "</script><b>x" in strings  # the name itself, as text
