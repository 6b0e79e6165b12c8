"""Issue 33 §2: German, as German forum players write the game (docs/languages.md, "German").

What the checks of every catalog (tests/test_catalogs_complete.py) cannot know about
German: its two plural forms and the cases a count governs (``nach 1 faschistischen
Gesetz``, ``nach 2 faschistischen Gesetzen``), the terms chosen, dates and spans of time
in German, names never declined and no player given a gender, the board picture's
umlauts and its last line within the picture. Then one whole German game through the
installed ``shmod``, from an empty folder: every post and PM it prints, the rules card,
history, reveal, the game in one post and the stats post hold no English word of shmod's,
and ``audit --thread`` finds the thread as printed VALID, and INVALID once a vote in the
log is changed.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest
from installed import SHMOD
from test_catalogs_in_games import english_words, po

from shmod.forum.turns import legal_steps
from shmod.game.events import Enacted, Win
from shmod.game.steps import (
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    Peek,
    Reshuffle,
    SpecialElection,
    Veto,
    Vote,
)
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import board_image, catalog, forum_texts, glossary, phrases, typeface
from shmod.texts.formats import get as profile

DE = catalog.get("de")


@pytest.mark.parametrize("n, said", [(0, "0 Spiele"), (1, "1 Spiel"), (2, "2 Spiele"),
                                     (5, "5 Spiele"), (22, "22 Spiele"), (25, "25 Spiele")])
def test_two_plural_forms(n, said):
    assert DE._n("{n} game", "{n} games", n) == said


def test_a_count_governs_its_case_and_the_roles_are_the_cards_titles():
    veto = ("After {n} Fascist policy the Chancellor may propose to veto both policies; if "
            "the President agrees, nothing is enacted.")
    vetoes = veto.replace("policy the", "policies the")
    assert DE._n(veto, vetoes, 1).startswith("Sobald 1 faschistisches Gesetz liegt, darf")
    assert DE._n(veto, vetoes, 5).startswith("Sobald 5 faschistische Gesetze liegen, darf")
    assert DE._n("{n} Liberal policy enacted", "{n} Liberal policies enacted", 1) == \
        "1 liberales Gesetz erlassen"
    assert DE._n("{n} Liberal policy enacted", "{n} Liberal policies enacted", 5) == \
        "5 liberale Gesetze erlassen"
    roles = (
        "Roles: {liberals} Liberals, one Fascist and Hitler. The Fascist knows Hitler; "
        "Hitler knows the Fascist.",
        "Roles: {liberals} Liberals, {n} Fascists and Hitler. The Fascists know each other "
        "and Hitler; Hitler knows the Fascists.")
    assert DE._n(*roles, 1, liberals=3) == (
        "Rollen: 3 Liberale, ein Faschist und Hitler. Der Faschist kennt Hitler; Hitler kennt "
        "den Faschisten.")
    assert DE._n(*roles, 2, liberals=4).startswith("Rollen: 4 Liberale, 2 Faschisten und")
    assert po("de").num_plurals == 2


def test_the_terms_are_the_ones_german_players_use():
    terms = {key: glossary.office(DE, key) for key in ("president", "chancellor", "candidate")}
    assert terms == {"president": "Präsident", "chancellor": "Kanzler",
                     "candidate": "Präsidentschaftskandidat"}
    assert [glossary.team(DE, t) for t in ("Liberals", "Fascists")] == ["Liberale", "Faschisten"]
    assert [glossary.power(DE, p) for p in glossary.POWER] == [
        "Loyalitätsprüfung", "Sonderwahl", "Gesetzesvorschau", "Hinrichtung"]
    assert DE._("Election Tracker") == "Wahltracker"
    assert [glossary.role(DE, r) for r in ("liberal", "fascist", "hitler")] == [
        "Liberaler", "Faschist", "Hitler"]
    assert DE._("President {president} and Chancellor {chancellor} enacted a {on}Liberal{off} "
                "policy.", president="Ann", chancellor="Bob", on="", off="") == \
        "Präsident Ann und Kanzler Bob haben ein liberales Gesetz erlassen."
    assert glossary.ballot(True) == "Ja" and glossary.ballot(False) == "Nein"


def test_dates_and_spans_of_time_read_german():
    when = forum_texts.when_text("2026-11-23T23:30:00Z", "Europe/Berlin", DE)
    assert when == "Di., 24. Nov., 00:30 MEZ (Mo., 23:30 UTC)"
    until = "2026-11-23T23:30:00Z"
    assert forum_texts.left_text(until, datetime(2026, 11, 23, 21, 25, tzinfo=UTC), DE) == \
        "noch 2 Stunden und 5 Minuten"
    assert forum_texts.left_text(until, datetime(2026, 11, 25, 0, 31, tzinfo=UTC), DE) == \
        "seit 1 Tag und 1 Stunde abgelaufen"


#: Words that give a player a gender: German's nouns for a player, a moderator, a user,
#: and the feminine forms of the roles. The roles themselves are the cards' titles, as
#: the offices are ("Faschist", "Liberaler", like "Präsident": issue 44).
GENDERED = re.compile(r"\b(?:Spieler(?:in|innen)?|Mitspieler(?:in)?|Moderator(?:in)?|"
                      r"Liberale?in|Faschistin|Nutzer(?:in)?)\b")


def test_no_name_is_declined_and_no_player_has_a_gender():
    """No genitive "s" after a field that holds a name; none of German's gendered words
    for a player (an office, "Präsident", is the game's title and stays)."""
    problems = []
    for m in po("de"):
        if not m.id:
            continue
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            if re.search(r"\}(?:'|\u2019)?s\b", text) or GENDERED.search(text):
                problems.append(text)
    assert problems == []


def _result_lines(win: Win) -> list[str]:
    said = glossary.won(DE, win.team, "Game over: the {team} win. {reason}.",
                        reason=phrases.win(DE, win, capital=True))
    return textwrap.wrap(said, board_image.LATIN_RESULT_WIDTH)  # German has umlauts


@pytest.mark.parametrize("win", [
    Win("Fascists", "R-EVA-BRAUN", hitler="Maximiliane Musterfrau"),
    Win("Fascists", "R-HITLER-ELECTED", hitler="Maximiliane Musterfrau"),
    Win("Liberals", "R-WIN-LIB", hitler="Maximiliane Musterfrau"),
    Win("Liberals", "R-MODKILL", hitler="Maximiliane Musterfrau"),
    Win("Fascists", "R-WIN-FAS", policies=6)])
def test_the_board_picture_draws_each_umlaut_and_its_last_line_fits(win):
    """Every letter of the German ending has a glyph in the picture's Latin typeface,
    regular and bold (Pillow's built-in one has no ä: a box), and each of its lines, drawn
    bold, fits in the picture."""
    lines = _result_lines(win)
    text = "".join(lines) + "Präsidentschaftskandidat ÄÖÜäöüß"
    for bold in (False, True):
        font = typeface.font(18, bold)
        missing = bytes(font.getmask("\U0010fffd"))
        assert [c for c in set(text) if not c.isspace()
                and bytes(font.getmask(c)) == missing] == []
    assert max(typeface.font(18, True).getlength(line) for line in lines) + 24 + 2 <= \
        board_image.WIDTH


# -- one whole German game through the installed shmod ------------------------------------

NAMES = ["Ann", "Bob", "Cat", "Jürgen", "Eve"]
NOW = "2026-11-23T10:00:00Z"


class Table:
    """The installed shmod in an empty folder, one game in German; every text it prints
    for the thread or a player is kept: each step's PMs and posts as the outbox gives
    them, one ``shmod send`` each."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.log = folder, folder / "games" / "freitag.yaml"
        self.printed: list[tuple[str, str]] = []

    def run(self, *args: str, code: int = 0) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
        env.update(SHMOD_GAME=str(self.log), SHMOD_NOW=NOW, COLUMNS="100",
                   SHMOD_CACHE=os.environ.get("SHMOD_CACHE", "off"))
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=env, text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        self.printed.append((" ".join(args), done.stdout))
        return done.stdout

    def deliver(self) -> None:
        """Every item the outbox owes, given one at a time until none is (issue 40)."""
        for _ in range(100):
            before = len(self.printed)
            self.run("send")
            if not self.printed[-1][1]:  # "Nothing is owed" (on stderr)
                del self.printed[before:]
                return
        raise AssertionError("the outbox never emptied")

    def play(self, rng: random.Random) -> None:
        """Random legal steps to the end, each as its command (which prints the thread's
        post and the PMs it makes; a round's votes in one command), a deadline and the
        prods on the way."""
        claimed = False
        for turn in range(200):
            state = store.load(str(self.log)).table
            if state.game.phase == OVER:
                break
            names = state.game.players
            step = rng.choice([s for s in legal_steps(state) if not isinstance(s, Reshuffle)])
            match step:
                case Nominate():
                    self.run("nominate", names[step.chancellor])
                case Vote():
                    votes = [(names[s.by], "ja" if rng.random() < 0.7 else "nein")
                             for s in legal_steps(state) if isinstance(s, Vote) and s.vote]
                    self.run("vote", *(word for vote in votes for word in vote))
                case Discard() | Enact():
                    self.run(step.kind, step.policy)
                case Veto():
                    self.run("veto", step.answer)
                case Investigate() | SpecialElection() | Execute():
                    self.run(step.kind.replace("_", "-"), names[step.target])
                case Peek():
                    self.run("peek")
            if turn == 3:
                self.run("deadline", "2026-11-24 00:30", "--zone", "Europe/Berlin")
                self.run("prods")
                self.run("remind")
            if isinstance(step, Enact) and not claimed:  # claims that conflict, and a role
                enacted = next(ev for ev in reversed(store.load(str(self.log)).table.public)
                               if isinstance(ev, Enacted))
                self.run("claim", enacted.president, "FFF")
                self.run("claim", enacted.chancellor, "LL")
                self.run("claim", enacted.president, "--role", "liberal")
                claimed = True
            self.deliver()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Table:  # type: ignore[no-untyped-def]
    table = Table(tmp_path_factory.mktemp("de"))
    table.run("new", *NAMES, "--language", "de", "--forum", "phpbb", "--seed", "de-1",
              "--guessable")
    table.deliver()
    table.play(random.Random(21))  # 20 steps: a Policy Peek, an execution
    assert store.load(str(table.log)).table.game.phase == OVER
    for name in NAMES:
        table.run("pm", name)
    for command in (("rules",), ("history",), ("reveal",), ("replay", "--post"),
                    ("stats", "games", "--post", "--language", "de", "-f", "discourse")):
        table.run(*command)
    return table


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed next to this Python")
def test_a_whole_german_game_prints_no_english_word_of_shmods(played):
    fmt = profile("phpbb", lang="de")
    problems = [(args, left) for args, out in played.printed
                if not args.startswith("claim ")  # says for the moderator what it recorded
                and (left := english_words(out, fmt, {*NAMES, "Freitag"}, "de"))]
    assert problems == [] and len(played.printed) > 25
    said = "\n".join(out for _, out in played.printed)
    for german in ("Deine geheime Rolle: ", "Präsidentschaftskandidat [b]", "Wahltracker",
                   "[b]Abstimmungsverlauf[/b]", "Die Auflösung", "Rangliste: 1 Spiel",
                   "Freitag: das ganze Spiel", "Di., 24. Nov., 00:30 MEZ (Mo., 23:30 UTC)",
                   "Aussagen, abgeglichen mit dem, was tatsächlich verteilt wurde:",
                   "FFF gezogen", "LL bekommen", "Widerspruch", "zur eigenen Rolle: Liberaler"):
        assert german in said, german


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed next to this Python")
def test_a_german_thread_audits_valid_and_a_changed_vote_invalid(played, tmp_path):
    count = len(played.run("post", "--list").splitlines())
    thread = tmp_path / "thread.txt"
    thread.write_text("\n\n".join(played.run("post", "--again", str(n)) for n in
                                  range(1, count + 1)))
    assert "Setup commitment (vergleicht es am Ende mit der Auflösung): " in thread.read_text()
    valid = played.run("audit", str(played.log), "--thread", str(thread))
    assert "VALID" in valid and "INVALID" not in valid
    changed = tmp_path / "changed.yaml"
    text = played.log.read_text()
    assert "vote: ja" in text
    changed.write_text(text.replace("vote: ja", "vote: nein", 1))
    assert "INVALID" in played.run("audit", str(changed), "--thread", str(thread), code=1)


def test_the_moderators_correction_note_is_english_in_a_german_game(run, monkeypatch, tmp_path):
    """Issue 44: what the terminal shows the moderator (a correction players never saw, so
    nothing is posted) stays English in a German game; the game's posts are German."""
    monkeypatch.setenv("SHMOD_NOW", NOW)
    log = str(tmp_path / "g.yaml")
    assert run("new", *NAMES, "--seed", "a" * 32, "--guessable", "-g", log,
               "--language", "de")[0] == 0
    first = store.load(log).table.game
    nominee = next(n for n in NAMES if n != first.players[first.president])
    assert run("nominate", nominee, "-g", log)[0] == 0
    assert run("vote", "Ann", "ja", "-g", log)[0] == 0
    entry = store.load(log).table.entries
    code, out, err = run("correct", str(entry), "-r", "typo", "-g", log)
    out += err
    assert code == 0
    assert "Correction: the moderator mistyped and voids the vote by Ann." in out
    assert "Korrektur" not in out and "Stimme" not in out


def test_the_thread_is_ihr_and_a_reminder_stacks_no_brackets():
    """Issue 44: the spoiler warning speaks to the thread as the thread does (``ihr``),
    and the reminder of a deadline holds no two brackets back to back."""
    fmt = profile("plain", lang="de")
    assert "Lest nicht weiter, wenn ihr es nicht sehen wollt." in fmt.spoiler("X", "y")
    said = DE._("{on}Reminder{off}: {left} until the deadline, {when}: still waiting for {who} "
                "({owe}).", on="", off="", who=forum_texts.joined(["Ann", "Bob", "Cy"], DE),
                owe=DE._("a vote"),
                left=forum_texts.left_text("2026-11-22T10:00:00Z",
                                           datetime(2026, 11, 20, 10, 0, tzinfo=UTC), DE),
                when=forum_texts.when_text("2026-11-22T10:00:00Z", "Europe/Berlin", DE))
    assert said == ("Erinnerung: Frist So., 22. Nov., 11:00 MEZ (10:00 UTC) \u2013 noch 2 Tage. Wir "
                    "warten noch auf Ann, Bob und Cy (je eine Stimme).")
    assert ") (" not in said


# -- the third native reading (issue 44) ---------------------------------------------------

def test_the_audits_deal_line_is_dative_after_aus_and_starts_its_sentences_capitalised():
    """DE-W2: the deal of a ``--deal players`` game is dealt ``aus dem Seed … und dem Wort
    jedes Platzes`` (dative after ``aus``), the recomputation is a sentence of its own,
    and the calques are gone."""
    how = DE._("each seat's word in its canonical form, by seat number")
    line = DE._("dealt from the moderator's committed seed and {how} (R-DEAL; entries "
                "{entries}): the audit recomputed the roles, the deck and the first "
                "President from them, and they are the ones played; nobody could "
                "choose them", how=how, entries="3, 4")
    assert line == ("aus dem festgelegten Seed der Spielleitung und dem Wort jedes Platzes in "
                    "seiner kanonischen Form, nach Platznummer (R-DEAL; Einträge 3, 4). Die "
                    "Prüfung hat die Rollen, den Stapel und den ersten Präsidenten daraus neu "
                    "berechnet, und genau diese wurden gespielt; niemand konnte sie wählen")
    assert DE._("The deal: {deal}.", deal="x") == "Verteilung: x."


def test_the_replay_joins_late_voters_with_und_and_its_results_after_a_dash(tmp_path):
    """DE-I1: the replay's vote line names the voters who sent nothing as the thread does
    (``Ann, Bob und Cy``, R-LAPSE); DE-W1: a result after the tally or the winner is joined
    by a dash, not a colon followed by a small letter."""
    from shmod.forum.steps import Lapse, SetDeadline
    from shmod.texts import replay_frames

    path = str(tmp_path / "g.yaml")
    names = ["Ann", "Bob", "Cy", "Dan", "Eve"]
    store.new_game(path, names, seed="s7", created="2026-11-20T10:00:00Z", language="de",
                   first="Dan", variants=["late_vote=nein"])
    at = "2026-11-20T11:00:00Z"
    store.record(path, lambda g: Nominate(by=3, chancellor=4), at=at)
    store.record(path, lambda g: Vote(by=3, vote=True), at=at)
    store.record(path, lambda g: Vote(by=4, vote=True), at=at)
    store.record(path, lambda g: SetDeadline(until="2026-11-21T10:00:00Z", zone="UTC"), at=at)
    store.record(path, lambda g: Lapse(deadline=g.table.entries, at="2026-11-22T10:00:00Z"),
                 at="2026-11-22T10:00:00Z")
    said = [s for f in replay_frames.frames(store.load(path), reveal=False, lang=DE).frames
            for s in f.said]
    assert ("Abstimmung: Ja 2, Nein 3 (Ann, Bob und Cy haben bis zur Frist nicht abgestimmt: "
            "Nein) \u2013 die Regierung wurde nicht gewählt; Wahltracker 1/3.") in said
    assert DE._("The Fascists won: {reason}.", reason="x") == (
        "Die Faschisten haben gewonnen \u2013 x.")


def test_prods_and_the_games_column_read_as_german():
    """DE-U1: the second prod says ``Das ist die 2. Erinnerung.``; DE-U2: the replay's prod
    step names the player once; DE-I2: the games table's column is ``Mitspielende``, as
    every other heading says."""
    assert DE._("This is reminder number {number}.", number=2) == "Das ist die 2. Erinnerung."
    assert DE._("The moderator prodded {name} by PM for what the game awaits (prod {count} "
                "for {name}).", name="Zoë", count=1) == (
        "Die Spielleitung hat Zoë per PN erinnert (1. Erinnerung).")
    assert DE._p("stats:game", "Players") == "Mitspielende"
