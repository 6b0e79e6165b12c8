"""Issue 44: ``tools/language_games.py``, the whole games a native reader reads, played
through the installed ``shmod``. Its five-player game on Discourse (dealt from the players'
words; a lapse of the nomination, the votes, the discard, the enactment and an execution's
target; a Policy Peek and its false claim; Hitler elected) is played in German and Polish
(slow: about a minute each): the file shows each of those in the game's words and holds no
English sentence but the fixed machine lines (``Log checkpoint``, ``Setup commitment``,
``Moderator's public key``). The replay page's words it reads (:func:`page_words`) are the
page's text and its script's strings, soft hyphens taken out."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from shmod.audit import replay
from shmod.texts import catalog, glossary

TOOL = Path(__file__).parent.parent / "tools" / "language_games.py"
GAME = Path(__file__).parent.parent / "games" / "five-players.yaml"
#: Lines that are English in every language by design: the machine-read lines.
FIXED = ("Log checkpoint", "Setup commitment", "Moderator's public key")
#: Words that make an English sentence (three of them in a line); none is German or Polish.
ENGLISH = {"the", "and", "is", "was", "to", "of", "for", "by", "with", "has", "this",
           "are", "from", "it", "be", "not", "who"}


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("language_games", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def english_lines(text: str) -> list[str]:
    """Lines of ``text`` that read as English sentences (the fixed lines left out)."""
    return [line for line in text.splitlines()
            if not line.startswith(("$ shmod", *FIXED))
            and len(ENGLISH & set(re.findall(r"[a-z']+", line.lower()))) >= 3]


def test_an_english_sentence_is_found_and_a_german_or_polish_one_is_not():
    assert english_lines("The moderator has removed Ann from the game.")
    assert not english_lines("Die Spielleitung hat Ann aus dem Spiel entfernt; sie ist tot.")
    assert not english_lines("Moderator usuwa z gry: Ann. To nie egzekucja.")
    assert not english_lines("Log checkpoint: post 3 · is the hash of the and to")


def test_the_page_words_are_its_text_and_its_script_strings(tmp_path):
    page = tmp_path / "five.html"
    page.write_text(replay.page(str(GAME), language="de").html)
    words = tool().page_words(page)
    assert "Prüfung: GÜLTIG: 133 Einträge" in words
    assert "-- the script's words:" in words and "-- the steps' strings:" in words
    assert "\u00ad" not in words and "<" not in words.split("-- the script's words:")[0]
    assert glossary.power(catalog.get("de"), "execute") in words


@pytest.mark.slow
@pytest.mark.parametrize("code", ["de", "pl"])
def test_the_five_player_game_reads_in_the_language_alone(tmp_path, code):
    made = tool().play("fuenf", code, tmp_path, tmp_path / "folders")
    text = made.read_text()
    t = catalog.get(code)
    for command in ("replay -o PAGE", "board --png FILE", "reveal", "history --grid"):
        assert f"$ shmod {command}" in text, command
    assert text.count("for the thread") >= 20 and text.count("· subject") >= 15
    assert "FLF" in text  # the peek's claim
    for power in ("peek", "execute"):
        assert glossary.power(t, power) in text
    assert glossary.team(t, "Fascists").lower() in text.lower()
    assert not english_lines(text), english_lines(text)[:5]
    assert (tmp_path / f"fuenf.{code}.png").stat().st_size > 1000
