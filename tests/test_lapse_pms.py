"""Issue 35, R-LAPSE with ``late_choice=random``, through the installed ``shmod``: a lapse
PMs whoever's choice it played, with what it did: the President whose discard lapsed the
three drawn, the one discarded and the two passed on; the Chancellor whose enactment
lapsed the two, the one enacted and the other; the President whose power's target was
drawn the target (and an investigation's result, as usual); the Chancellor whose veto
the President left unanswered that it is refused and they must enact. Each PM goes to
that player only (R-PM: ``shmod pm NAME`` of every other player lacks it) and ``shmod pm
--entry N`` prints it for the lapse's entry. On the main of 23f640b a lapse PM'd nobody.

The game is a custom one (six players, a deck of 2 Liberal and 15 Fascist policies,
Investigate Loyalty on the first Fascist slot, the veto unlocked from the first), so that
a few commands reach every kind of lapse; its seed is fixed, and the policies are read
from the PMs, not assumed.
"""
from __future__ import annotations

import re

import pytest
from installed import SHMOD, Moderator

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
SEED = "5b0c1f7e9a2d4c6e8f1a3b5c7d9e0f21"
CUSTOM = ("deck: {liberal: 2, fascist: 15}\npowers: [investigate, none, none, none, none]\n"
          "veto_zone: 1\nhitler_zone: 5\n")
SUBJECT = "what the deadline decided for you"

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")


def _entry(done) -> int:  # type: ignore[no-untyped-def]
    return int(re.search(r"Recorded as entry (\d+)", done.stderr).group(1))


def _lapse(mod: Moderator, at: str, phase: bool = True) -> tuple[int, str]:
    """A deadline of an hour, then its lapse an hour and a minute later: the lapse's entry
    and what it printed (its PMs and its post). What the game owed was sent first (a choice
    is drawn only for a player who had what it is made from: issue 40)."""
    mod.run("outbox", "--settle")
    mod.run("deadline", "1h", *(["--phase"] if phase else []))
    mod.now = at
    done = mod.run("lapse")
    return _entry(done), done.stdout


def _cards(text: str) -> list[str]:
    return sorted(re.findall(r"Liberal|Fascist", text))


def _pms(mod: Moderator, name: str) -> list[str]:
    """Every PM ``name`` was sent, each from its subject line on (``pm NAME`` frames each
    with a heading line)."""
    framed = mod.run("pm", name).stdout
    return [pm.strip() for pm in re.split(r"^── PM to .*$", framed, flags=re.M) if pm.strip()]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Every kind of random lapse, in two rounds: the lapses' entries and the moderator."""
    folder = tmp_path_factory.mktemp("lapses")
    (folder / "custom.yaml").write_text(CUSTOM)
    mod = Moderator(folder, "2026-11-23T10:00:00Z", show=True)  # each step's texts on stdout
    mod.run("new", *PLAYERS, "--first", "Ann", "--custom", "custom.yaml", "--seed", SEED,
            "-V", "late_choice=random", "-V", "late_vote=nein")
    mod.run("nominate", "Bob")
    mod.run("vote", *[w for name in PLAYERS for w in (name, "ja")])
    lapses = {"discard": _lapse(mod, "2026-11-23T11:01:00Z", phase=False)}
    lapses["enact"] = _lapse(mod, "2026-11-23T12:02:00Z")
    lapses["power"] = _lapse(mod, "2026-11-23T13:03:00Z")  # a Fascist policy: Investigate
    mod.now = "2026-11-23T14:00:00Z"
    mod.run("nominate", "Cat")
    mod.run("vote", *[w for name in PLAYERS for w in (name, "ja")])
    mod.run("discard", "fascist")
    mod.run("veto", "propose")
    lapses["veto"] = _lapse(mod, "2026-11-23T15:04:00Z")
    return mod, lapses


def test_the_president_whose_discard_lapsed_learns_what_was_discarded_and_passed(game):
    mod, lapses = game
    ann = _pms(mod, "Ann")
    drawn = next(pm for pm in ann if "your three policies" in pm)
    note = next(pm for pm in ann if SUBJECT in pm and "discard" in pm)
    said = note.split("You drew ", 1)[1]
    assert _cards(said.split(". Discarded:")[0]) == _cards(drawn.split("top first:")[1])
    discarded = said.split("Discarded: ")[1].split(".")[0]
    passed = said.split("Passed to the Chancellor: ")[1].split(".")[0]
    handed = next(pm for pm in _pms(mod, "Bob") if "you are Chancellor" in pm)
    assert _cards(passed) == _cards(handed.split("passed you:")[1].split(".")[0])
    assert sorted(_cards(discarded) + _cards(passed)) == _cards(drawn.split("top first:")[1])
    number, printed = lapses["discard"]
    entry = mod.run("pm", "--entry", str(number))
    assert f"PM to Ann (entry {number}, lapse)" in entry.stdout
    assert note.strip() in printed  # the lapse printed it with its post
    assert "Subject: Friday: what the deadline decided for you" in entry.stdout


def test_the_chancellor_whose_enactment_lapsed_learns_what_was_enacted(game):
    mod, lapses = game
    bob = _pms(mod, "Bob")
    handed = next(pm for pm in bob if "you are Chancellor" in pm)
    note = next(pm for pm in bob if SUBJECT in pm)
    assert "the policy to enact was drawn at random" in note
    assert _cards(note.split("You were passed ")[1].split(".")[0]) == \
        _cards(handed.split("passed you:")[1].split(".")[0])
    enacted = note.split("Enacted: ")[1].split(".")[0]
    number, printed = lapses["enact"]
    assert f"enacted a {enacted} policy" in printed  # its post
    entry = mod.run("pm", "--entry", str(number)).stdout
    assert f"PM to Bob (entry {number}, lapse)" in entry


def test_the_president_learns_the_target_drawn_and_the_investigation_result(game):
    mod, lapses = game
    number, printed = lapses["power"]
    entry = mod.run("pm", "--entry", str(number))
    notes = entry.stdout.split("Subject:")[1:]
    assert [h.split("(")[0].strip() for h in re.findall(r"PM to \w+ \(entry \d+, \w+\)",
                                                        entry.stdout)] == ["PM to Ann"] * 2
    target = re.search(r"the target of Investigate Loyalty was drawn at random, as the house "
                       r"rules say: (\w+)\.", notes[0]).group(1)
    assert "The result of the investigation follows in its own message." in notes[0]
    assert f"{target}'s party membership is" in notes[1]
    assert f"President Ann investigates {target}'s party membership" in printed


def test_the_chancellor_learns_that_the_unanswered_veto_is_refused(game):
    mod, lapses = game
    number, _ = lapses["veto"]
    entry = mod.run("pm", "--entry", str(number))
    assert f"PM to Cat (entry {number}, lapse)" in entry.stdout
    assert "President Bob did not answer your veto proposal by the deadline, so the veto " \
           "is refused" in entry.stdout
    assert "You must enact one of Fascist, Fascist" in entry.stdout
    assert "Cat (Chancellor) to enact" in mod.run("status").stdout


def test_each_lapse_pm_goes_to_its_player_only(game):
    mod, _ = game
    told = {"Ann": 2, "Bob": 1, "Cat": 1}  # the discard and the target; the enactment; the veto
    for name in PLAYERS:
        assert sum(SUBJECT in pm for pm in _pms(mod, name)) == told.get(name, 0), name
    assert ": VALID" in mod.run("audit", str(mod.log)).stdout
