"""Issue 33, step 2: Polish (shmod/texts/locale/pl), complete, in every output profile.

- **Plurals**: real messages of the catalog at 1, 2, 5, 12, 22, 25 and 112, word by word
  (Polish has three forms: 1; 2-4 but not 12-14; the rest).
- **Names are never declined**: in every Polish message a field that holds a player's name
  is followed by a space, punctuation or the end (never ``{name}a``), and no preposition or
  declined title stands right before it (Polish would decline the name there: ``od Ann``).
- **No gender**: no past-tense verb of a message is gendered about a person (``nominował``
  / ``nominowała``); the few past tenses have a thing for subject, listed here.
- **Whole games, seven profiles**: the shipped games, the bypass test's directed and
  moderated games and random forum games (tests/test_catalog_bypass.py) rendered in Polish
  in every profile: every post, PM, prod, reminder and rules card, the history, the reveal,
  ``replay --post``, the replay page's steps and the board picture's words. None holds an
  English word of shmod's (a word of the template's messages that no Polish message has),
  and the Markdown and Discourse texts, rendered by markdown-it-py, and the BBCode
  profiles', by the tag-set parsers of tests/test_forum_profiles.py, show every word with
  no markup left over.
- **Through the installed shmod**: a whole Polish game from an empty folder, as posted;
  ``audit --thread`` is VALID on its thread, and INVALID once a vote in the log is changed.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import test_catalog_bypass as bypass
from babel.messages.pofile import read_po
from test_forum_profiles import MD_PROFILES, PARSERS, _check_common, to_html

from shmod.audit import replay as audit_replay
from shmod.game.terms import OVER
from shmod.log import store
from shmod.log.checkpoints import COMMITMENT_LABEL, KEY_LABEL
from shmod.texts import board_image, catalog, formats, pms, replay_frames, replay_post
from shmod.texts.history import history_text
from shmod.texts.reveal import reveal_text

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "shmod" / "texts" / "locale"
PL = catalog.get("pl")
SHMOD = Path(sys.executable).parent / "shmod"
FIELD = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[^\W\d_]+")


def messages(path: Path) -> list[tuple[object, list[str]]]:
    """Each message's id and its text(s): the msgid(s) of the template, the msgstr(s) of a
    catalog."""
    with path.open("rb") as file:
        catalog_ = read_po(file)
    out = []
    for m in catalog_:
        if not m.id or m.context == "hyphenation":  # a list of syllables, not a sentence
            continue
        if path.suffix == ".pot":
            texts = list(m.id) if isinstance(m.id, tuple) else [m.id]
        else:
            texts = list(m.string) if isinstance(m.string, tuple) else [m.string]
        out.append((m.id, texts))
    return out


POLISH = messages(LOCALE / "pl" / "LC_MESSAGES" / "shmod.po")


# -- plurals ------------------------------------------------------------------------------

COUNTS = (1, 2, 5, 12, 22, 25, 112)


@pytest.mark.parametrize(("singular", "plural", "fields", "said"), [
    ("{n} game", "{n} games", {}, ["1 gra", "2 gry", "5 gier", "12 gier", "22 gry", "25 gier",
                                   "112 gier"]),
    ("{n} entry", "{n} entries", {}, ["1 wpis", "2 wpisy", "5 wpisów", "12 wpisów", "22 wpisy",
                                      "25 wpisów", "112 wpisów"]),
    # masculine-personal nouns take the genitive plural from two on: "dwóch graczy"
    ("{n} player", "{n} players", {}, ["1 gracz", "2 graczy", "5 graczy", "12 graczy",
                                       "22 graczy", "25 graczy", "112 graczy"]),
    ("{n} d", "{n} d", {}, ["1 dzień", "2 dni", "5 dni", "12 dni", "22 dni", "25 dni",
                            "112 dni"]),
    ("The draw pile is reshuffled: {n} policy.", "The draw pile is reshuffled: {n} policies.",
     {}, [f"Talia zostaje przetasowana: {n} {w}." for n, w in zip(COUNTS, [
         "ustawa", "ustawy", "ustaw", "ustaw", "ustawy", "ustaw", "ustaw"])]),
    ("{n} failed government in a row: the country is thrown into chaos.",
     "{n} failed governments in a row: the country is thrown into chaos.", {},
     [f"{n} {w} z rzędu: w kraju wybucha chaos." for n, w in zip(COUNTS, [
         "nieudane głosowanie", "nieudane głosowania", "nieudanych głosowań",
         "nieudanych głosowań", "nieudane głosowania", "nieudanych głosowań",
         "nieudanych głosowań"])]),
    ("{ja} {ayes}, {nein} {noes}: {n} {ja} of {alive} alive was needed.",
     "{ja} {ayes}, {nein} {noes}: {n} {ja} of {alive} alive were needed.",
     {"ja": "Ja", "nein": "Nein", "ayes": 1, "noes": 0, "alive": 200},
     [f"Ja 1, Nein 0: {w} Ja spośród 200 żyjących." for w in [
         "potrzebny był 1 głos", "potrzebne były 2 głosy", "potrzeba było 5 głosów",
         "potrzeba było 12 głosów", "potrzebne były 22 głosy", "potrzeba było 25 głosów",
         "potrzeba było 112 głosów"]]),
    ("{n} Liberal policy enacted", "{n} Liberal policies enacted", {},
     ["1 uchwalona ustawa liberalna", "2 uchwalone ustawy liberalne",
      "5 uchwalonych ustaw liberalnych", "12 uchwalonych ustaw liberalnych",
      "22 uchwalone ustawy liberalne", "25 uchwalonych ustaw liberalnych",
      "112 uchwalonych ustaw liberalnych"]),
])
def test_polish_plurals_are_right_at_1_2_5_12_22_25_and_112(singular, plural, fields, said):
    assert [PL._n(singular, plural, n, **fields) for n in COUNTS] == said


def test_the_catalog_states_polish_plural_rule():
    """Babel's rule for Polish, as the compiled catalog applies it."""
    forms = [PL._catalog.plural(n) for n in COUNTS]  # type: ignore[union-attr]
    assert forms == [0, 1, 2, 2, 1, 2, 2]


# -- names and gender ---------------------------------------------------------------------

#: The fields that hold a player's name, or a list of names.
NAME_FIELDS = ("president", "chancellor", "name", "names", "target", "by", "old", "new",
               "first", "second", "hitler", "late", "who", "missing", "before", "after",
               "listed", "next")
#: Words after which Polish would decline a name: every preposition, and the offices and
#: "player" in a case other than the nominative.
DECLINING = ("od", "do", "dla", "przez", "z", "ze", "na", "po", "o", "u", "w", "we", "za",
             "zamiast", "bez", "przed", "nad", "pod", "przy", "wobec", "przeciw", "oprócz",
             "prezydenta", "kanclerza", "gracza", "prezydentowi", "kanclerzowi", "graczowi",
             "prezydentem", "kanclerzem", "graczem", "graczu", "Hitlera")
NAME = "|".join(NAME_FIELDS)
#: Where those fields hold no name: dates ("{first} to {last}") and a count of policies.
NOT_NAMES = re.compile(r"\{first\} to \{last\}|after \{hitler\}")


def test_no_name_is_declined():
    attached = re.compile(rf"[^\W\d_]\{{(?:{NAME})\}}|\{{(?:{NAME})\}}[^\W\d_]")
    after = re.compile(rf"\b(?:{'|'.join(DECLINING)}) \{{(?:{NAME})\}}", re.IGNORECASE)
    english = {id_: " ".join(texts) for id_, texts in messages(LOCALE / "shmod.pot")}
    bad = [text for id_, texts in POLISH for text in texts
           if not NOT_NAMES.search(english[id_]) and (attached.search(text) or after.search(text))]
    assert bad == []


def test_the_check_finds_a_declined_name():
    attached = re.compile(rf"[^\W\d_]\{{(?:{NAME})\}}|\{{(?:{NAME})\}}[^\W\d_]")
    after = re.compile(rf"\b(?:{'|'.join(DECLINING)}) \{{(?:{NAME})\}}", re.IGNORECASE)
    assert attached.search("Głos {name}a") and attached.search("{target}owi")
    assert after.search("brak głosu od {missing}") and after.search("weto kanclerza {chancellor}")
    assert not after.search("brak głosu od: {missing}") and not attached.search("{name}: Ja")


#: Every gendered past tense the catalog has (masculine or feminine singular, masculine-
#: personal or other plural), with its subject: none is a person, so none says a player's
#: (or the moderator's) gender. (The neuter "-ło" never stands for a person.)
PAST_TENSES = {"mógł": "nikt", "wyliczył": "audyt", "był": "głos", "były": "głosy",
               "cofnęła": "korekta", "dała": "ustawa", "dawała": "reguła",
               "zaczęła": "gra", "skończyła": "gra", "wyglądał": "krok",
               "doprowadził": "krok", "zapadł": "wybór", "pozostał": "wybór",
               "powstał": "rząd", "powstała": "strona", "minął": "termin",
               "mogła": "zmiana nazwy", "zostały": "role", "został": "rząd",
               "pokazał": "post", "sprawdził": "shmod", "została": "ustawa",
               "miał": "nikt", "była": "lista", "miała": "gra", "pozwalała": "reguła"}
#: Words that end like a past tense and are none.
NOT_VERBS = {"czyli", "chwili", "roli", "reguł", "reguła", "reguły", "cała", "działa", "dół",
             "stół", "ogółem", "liberał", "szczegóły"}
PAST = re.compile(r"\b[^\W\d_]*[aeiouyąęó](?:ł|ła|li|ły|łem|łam|łeś|łaś)\b")


def test_no_verb_says_a_players_gender():
    said = {w.lower() for _, texts in POLISH for text in texts
            for w in PAST.findall(FIELD.sub(" ", text))}
    assert said - set(PAST_TENSES) - NOT_VERBS == set()
    assert "nominował" in PAST.findall("{name} nominował {target}")
    both = re.compile(r"[^\W\d_]\((?:a|y|aś|am)\)|[^\W\d_]/(?:a|aś|am)\b")  # "sam(a)"
    assert not any(both.search(text) for _, texts in POLISH for text in texts)


# -- whole games in every profile ---------------------------------------------------------

def _words(texts: list[list[str]]) -> set[str]:
    return {w.lower() for forms in texts for text in forms for w in WORD.findall(FIELD.sub(" ", text))}


TEMPLATE_WORDS = _words([texts for _, texts in messages(LOCALE / "shmod.pot")])
#: The template's words that a Polish message may hold too: Polish words spelt alike ("to",
#: "do", "go", "by", "role", "moderator", "chaos", "online", "limit", "was": "you" to the
#: thread, as "Głosujcie" speaks to it), names of things (Hitler, Eva
#: Braun, shmod, openskill, Weng-Lin, mu, sigma, the keys Home and End), the words of rule
#: ids (R-DEAL, R-NO-NOMINEE, R-RESHUFFLE), of docs/audit.md and --public, the labels read
#: back by the audit ("Setup commitment", "Log checkpoint", shown beside their Polish word),
#: abbreviations (h, min, mar, lib., fas.), "post" (a forum post, in Polish as in English),
#: the command `shmod new` quoted in the audit's words, the policy letters and the look-alike letters
#: the audit's deal sentence gives as examples (rn, m, o).
BOTH = {"a", "audit", "braun", "by", "chaos", "checkpoint", "commitment", "deal", "do", "docs",
        "end", "eva", "f", "fas", "format", "go", "h", "hitler", "home", "i", "l", "lib", "limit",
        "lin", "log", "m", "mar", "md", "min", "moderator", "mu", "new", "no", "nominee", "o",
        "on", "online", "openskill", "post", "public", "r", "reshuffle", "rn", "role", "secret",
        "setup",
        "shmod", "sigma", "spoiler", "to", "was", "weng", "z"}
#: shmod's English words: every other word of the template's messages.
ENGLISH = {w for w in TEMPLATE_WORDS - BOTH if len(w) > 1}


def test_a_polish_message_holds_no_other_english_word():
    """A message left in English (or copied into its msgstr) shares its words with the
    template: any beyond the reviewed list fails here."""
    assert TEMPLATE_WORDS & _words([texts for _, texts in POLISH]) <= BOTH
#: What is no word of shmod's to translate: machine-read lines and labels, quoted commands,
#: file names, rule ids, hex values, colours, time zones, the subject line's prefix, markup.
FIXED = re.compile("|".join([
    r"Log checkpoint: (?:post \d+ · )?(?:entry \d+ · )?", re.escape(COMMITMENT_LABEL),
    re.escape(KEY_LABEL), r"R-[A-Z0-9-]+", r"`?shmod [a-z]+(?: --?[a-z]+)*(?: [a-z]+)?`?",
    r"docs/\w+\.md", r"(?<![0-9A-Za-z])[0-9a-fA-F]{16,}(?![0-9A-Za-z])", r"#[0-9a-fA-F]{6}\b",
    r"\b(?:UTC|CES?T|E[SD]T)\b", r"\b[A-Z][a-z]+/[A-Za-z_]+\b", r"^Subject: ",
    r"\[/?[a-z*]+(?:=[^\]]*)?\]", r"</?[a-z]+[^>]*>", r"--[a-z]+"]), re.MULTILINE)


LOG = re.compile(r"[\w.-]+\.yaml\b")  # a log's file name, in a command to run
HEX = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{16,}(?![0-9A-Za-z])")


def english_left(text: str, data: set[str]) -> list[str]:
    """The English words of shmod's left in a Polish ``text``, each with what surrounds it;
    ``data``: the game's names, title and words, taken out first."""
    text = FIXED.sub(" ", HEX.sub(" ", LOG.sub(" ", text)))  # before the names ("3")
    for value in sorted(filter(None, data), key=len, reverse=True):
        text = text.replace(value, " ")
    return [text[max(0, m.start() - 30):m.end() + 30] for m in WORD.finditer(text)
            if m.group().lower() in ENGLISH]


def test_the_search_finds_an_english_word():
    assert english_left(PL._("Round {round}", round=3), set()) == []
    assert english_left("Runda 3: the President", set())
    assert english_left("Ann votes", {"Ann votes"}) == []
    assert {"the", "president", "vote", "policy", "pm"} <= ENGLISH
    assert not {"ja", "nein", "hitler", "role"} & ENGLISH


class PolishCorpus(bypass.Corpus):
    """The bypass test's games, every text rendered in Polish in every profile; what holds
    English is a problem, and a sample of each kind of text per profile is kept for the
    forum engines' parsers."""

    def __init__(self) -> None:
        super().__init__()
        self.sample: dict[tuple[str, str], tuple[str, set[str]]] = {}

    def check(self, entry: bypass.Entry, names: set[str], turn: int) -> None:
        for number, name in enumerate(bypass.PROFILES):
            renderers = bypass.RENDERERS + (
                bypass.SITUATION if turn % len(bypass.PROFILES) == number else []) + (
                bypass.FINISHED if entry.state.game.phase == OVER else [])
            fmt = bypass.profile(name, lang="pl")
            for render in renderers:
                for kind, text in render(entry, fmt):
                    if not text:
                        continue
                    self.kinds[kind] += 1
                    self.pairs += 1
                    data = names | {fmt.escape(n) for n in names}
                    left = english_left(text, data)
                    if left and len(self.problems) < 20:
                        self.problems.append(f"{kind} in {name}: English {left[:3]}")
                    if (name, kind) not in self.sample or len(text) > len(
                            self.sample[(name, kind)][0]):
                        self.sample[(name, kind)] = (text, set(names))


@pytest.fixture(scope="module")
def corpus() -> PolishCorpus:
    made = PolishCorpus()
    for path in bypass.shipped():
        game = store.load(str(path))
        bypass.render_game(made, game.log.header, bypass._plan_of(game),
                           pms.title(str(path), game.log.header))
    for played in (bypass.directed_game(), bypass.moderated_game()):
        bypass.render_game(made, played.header, played.plan, "Piątek", played.recorder)
    rng = random.Random(bypass.SEED)
    for _ in range(3):
        played = bypass.random_forum_game(random.Random(rng.getrandbits(64)))
        bypass.render_game(made, played.header, played.plan, "Piątek")
    return made


def test_no_english_word_in_any_post_or_pm_of_whole_polish_games(corpus):
    assert corpus.problems == []
    assert corpus.pairs > 5_000
    every = {"post", "rules", "prod", "reminder", "board", "deadline", "pm:Briefing",
             "event:Corrected", "event:Lapsed", "event:Removed", "pm:RoleSent"}
    assert every <= set(corpus.kinds)


@pytest.mark.parametrize("profile", sorted(PARSERS))
def test_the_forum_engines_show_the_polish_words(corpus, profile):
    """Each kind of text, rendered by the profile's engine: every word of the text shows,
    no markup is left over, and a name shows as written."""
    checked = 0
    for (name, kind), (text, names) in corpus.sample.items():
        if name != profile:
            continue
        root = to_html(profile, text)
        _check_common(profile, root, names)
        source = FIXED.sub(" ", text)
        if profile in MD_PROFILES:
            source = re.sub(r"[*_#>`\\]|^\s*\d+\.|^\s*-", " ", source, flags=re.M)
        shown = set(WORD.findall(" ".join(root.itertext())))
        missing = {w for w in WORD.findall(source) if w not in shown and len(w) > 1}
        assert not missing, (profile, kind, sorted(missing)[:5], text[:300])
        checked += 1
    assert checked >= 20


def _data(game: store.Loaded, path: str) -> set[str]:
    state = game.table
    return {*state.setup.players, *state.game.players, *state.backups, *state.words.values(),
            *(new for _s, _o, new, _e in state.replaced),
            *(new for _s, _o, new, _e in state.renamed), pms.title(path, game.log.header),
            Path(path).stem, game.setup.seed or "", game.setup.salt or ""}


def test_history_reveal_replay_and_board_say_nothing_in_english():
    """The shipped games (finished) and one stopped half-way, in every profile."""
    checked = 0
    for path in map(str, bypass.shipped()):
        game = store.load(path)
        data = _data(game, path)
        over = game.table.game.phase == OVER
        for made in (replay_frames.frames(game, reveal=over, lang=PL),
                     replay_frames.frames(game, reveal=False, lang=PL)):
            for n, frame in enumerate(made.frames):
                view = frame.view
                said = [*frame.said, board_image.describe(view, PL),
                        *(s.text for s in board_image.layout(view, PL)[0] if s.kind == "text"),
                        *(t for _, t in (frame.hidden.lines if frame.hidden else ()))]
                for text in said:
                    assert english_left(text, data) == [], (path, n, text)
            for name in formats.FORMATS:
                fmt = formats.get(name, lang="pl")
                texts = [history_text(made.frames[-1].view, fmt),
                         replay_post.post_text(made, fmt, title=Path(path).stem,
                                               commitment=game.setup.commitment)]
                if over:
                    texts += [reveal_text(game, fmt), reveal_text(game, fmt, spoiler=False)]
                for text in texts:
                    assert english_left(text, data) == [], (path, name, text[:200])
                    checked += 1
        page = audit_replay.page(path, language="pl").html
        visible = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
        visible = visible.replace("\u00ad", "")  # a word's break points (soft hyphens)
        assert '<html lang="pl">' in page
        assert english_left(re.sub(r"<[^>]*>", " ", visible), data) == []
    assert checked > 50


# -- through the installed shmod ----------------------------------------------------------

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


class Moderator:
    """The installed shmod in a folder of its own; seed s1 deals Ann Hitler, Dan the
    Fascist, and the deck F F L | L F F | F F F | L L F (tests/test_cli_game.py)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.log = folder, folder / "gra.yaml"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SHMOD_")}
        self.env.update(SHMOD_GAME=str(self.log), SHMOD_NOW="2026-11-23T10:00:00Z",
                        COLUMNS="100")

    def run(self, *args: str, code: int = 0) -> str:
        done = subprocess.run([str(SHMOD), *args], cwd=self.folder, env=self.env, text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        return done.stdout

    def sent(self) -> str:
        """What the step made, as the outbox gives it: ``shmod send`` until nothing is owed
        (issue 40)."""
        texts = []
        for _ in range(100):
            text = self.run("send")
            if not text:
                return "\n".join(texts)
            texts.append(text)
        raise AssertionError("the outbox never emptied")


@pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed next to this Python")
def test_a_whole_polish_game_through_the_installed_shmod(tmp_path):
    m = Moderator(tmp_path)
    assert m.run("new", *PLAYERS, "--seed", "s1", "--guessable", "--first", "Ann",
                 "--language", "pl", "--forum", "phpbb", "--title", "Piątek") == ""
    out = m.sent()
    assert "Twoja tajna rola: [b]Hitler[/b]. Twoja partia: [b]faszystowska[/b]." in out
    assert "Faszysta: [b]Dan[/b]. Wie, kim jesteś." in out  # R-KNOW: 5 players
    assert "[size=150][b]Secret Hitler: 5 graczy[/b][/size]" in out
    said = [out]
    yes = ("vote", *(w for p in PLAYERS for w in (p, "ja")))
    plays = [("nominate", "Bob"), yes, ("discard", "L"), ("enact", "F"), ("nominate", "Cat"),
             ("vote", *(w for p in PLAYERS for w in (p, "nein"))), ("nominate", "Dan"), yes,
             ("discard", "L"), ("enact", "F"), ("nominate", "Eve"), yes, ("discard", "F"),
             ("enact", "F"), ("peek",), ("nominate", "Cat"), yes, ("discard", "L"),
             ("enact", "F"), ("execute", "Ann")]
    for step in plays:
        assert m.run(*step) == ""  # what it made waits in the outbox
        said.append(m.sent())
    game = "\n".join(said)
    for line in [
            "[b]Ann[/b] kandyduje na prezydenta i nominuje na kanclerza: [b]Bob[/b]. "
            "Głosujcie w PW: Ja lub Nein.",
            "Ja 5, Nein 0: potrzebne były 3 głosy Ja spośród 5 żyjących.",
            "Ja 0, Nein 5: potrzebne były 3 głosy Ja spośród 5 żyjących.",
            "[b]Rząd nie został wybrany.[/b] Licznik wyborów: 1/3.",
            "Prezydent [b]Ann[/b] i kanclerz [b]Bob[/b] uchwalają "
            "[color=#c0392b][b]ustawę faszystowską[/b][/color].",
            "Prezydent [b]Dan[/b] otrzymuje uprawnienie: [b]Podgląd ustaw[/b]",
            "Ponieważ na planszy leżą co najmniej trzy ustawy faszystowskie, wiadomo już, że "
            "[b]Cat[/b] to [b]nie Hitler[/b].",
            "Prezydent [b]Eve[/b] wykonuje egzekucję: ginie [b]Ann[/b]. [b]Ann[/b] to "
            "[b]Hitler[/b].",
            "[size=150][b]Koniec gry: wygrywają liberałowie[/b][/size]",
            "Egzekucja Hitlera (Ann)."]:
        assert line in game, line
    again = m.run("post", "--again", "3")
    assert again in game and "Ja 5, Nein 0" in again
    listed = m.run("post", "--list").splitlines()
    thread = [m.run("post", "--again", str(n)) for n in range(1, len(listed) + 1)]
    finished = [m.run("pm", "Ann"), m.run("history"), m.run("reveal"),
                m.run("replay", "--post"), m.run("rules")]
    assert "[b]Historia głosowań[/b] (5 głosowań)" in finished[1]  # a block a round
    assert "[b]Runda 1[/b] · prezydent: Ann · kanclerz: Bob · wybrano" in finished[1]
    assert "[*][b]Ann[/b]: Hitler" in finished[2]
    data = {*PLAYERS, "Piątek"}
    for text in said + thread + finished:
        assert english_left(text, data) == [], text

    (tmp_path / "thread.txt").write_text("\n\n".join(thread))
    checked = m.run("audit", str(m.log), "--thread", str(tmp_path / "thread.txt"))
    assert checked.startswith(f"{m.log}: VALID")
    log = m.log.read_text()
    vote = re.search(r"- \{kind: vote, by: Cat, vote: nein,", log)
    assert vote
    m.log.write_text(log[:vote.start()] + vote.group().replace("nein", "ja") +
                     log[vote.end():])
    changed = m.run("audit", str(m.log), "--thread", str(tmp_path / "thread.txt"), code=1)
    assert changed.startswith(f"{m.log}: INVALID")


# -- the third native reading (issue 44) ---------------------------------------------------

def test_the_thread_lines_of_the_third_reading_read_as_polish():
    """PL-W1: a lapse line agrees at every count (``co liczy się``); PL-W2: an investigation
    claim names the party (``partia faszystowska``); PL-U1: the veto question addresses
    nobody and says the President's choice once."""
    late = "{late} sent no vote by the deadline: counted as {nein}."
    assert [PL._n(late, late, n, late="Ömer", nein="Nein") for n in (1, 3)] == [
        "Ömer: brak głosu w terminie, co liczy się jako Nein.",
        "Ömer: brak głosów w terminie, co liczy się jako Nein."]
    veto = "{late} did not vote on the veto by the deadline: counted as {nein}."
    assert PL._n(veto, veto, 2, late="Zoë i Mia", nein="Nein") == (
        "Zoë i Mia: brak głosów w sprawie weta do upływu terminu, co liczy się jako Nein.")
    vote = ("The vote: {Ja} {ja}, {Nein} {nein} ({names} sent no vote by the deadline: "
            "{Nein}): {result}.")
    assert "(Ömer i Björn: brak głosów w terminie, co liczy się jako Nein)" in PL._n(
        vote, vote, 2, Ja="Ja", ja=4, Nein="Nein", nein=3, names="Ömer i Björn", result="x")
    assert PL._p("claim", "investigated {target}: {party}", target="Zoë",
                 party="faszystowska") == "Zoë — partia faszystowska (sprawdzenie lojalności)"
    assert PL._("Chancellor {chancellor} proposes a veto. President {president}, do you "
                "agree?", chancellor="Jürgen", president="Björn") == (
        "Kanclerz Jürgen proponuje weto; prezydent Björn musi je przyjąć lub odrzucić.")


def test_the_replays_powers_list_puts_no_capital_office_after_a_colon():
    """PL-I1: ``replay --post`` lists a power as a sentence of its own after the round
    (``Runda 3. Prezydent …``), never ``Runda 3: Prezydent`` with a capital after a colon."""
    said = PL._("President {president} investigated {target}.", president="Małgorzata",
                target="Zoë")
    assert PL._("Round {round}: {said}", round=3, said=said) == (
        "Runda 3. Prezydent Małgorzata sprawdza lojalność: Zoë.")
