"""Issue 33: one message catalog per language (shmod/texts/catalog.py).

The template and every catalog are current with the code (tools/catalog.py --check); a
game's language is a public header field chosen at ``shmod new --language`` and every
command renders the game in it; the pseudo-language accents every letter of a message
outside its fields and lengthens it by a third; plural forms follow the catalog's rule.
"""
from __future__ import annotations

import importlib.util
import re
import string
from pathlib import Path

import pytest
import yaml

from shmod.texts import catalog, formats

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "catalog.py"


def tool():
    spec = importlib.util.spec_from_file_location("catalog_tool", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_template_and_catalogs_are_current():
    """A message marked in the code and missing from the template (or a catalog not
    updated, or a .mo not compiled from its .po) fails here: run tools/catalog.py."""
    assert tool().stale() == []


def test_template_is_what_extraction_writes(tmp_path):
    made = tool().po_bytes(tool().extract())
    assert made == (ROOT / "shmod/texts/locale/shmod.pot").read_bytes()


def test_pseudo_accents_every_letter_outside_fields_and_lengthens_by_a_third():
    text = "Round {round}: {president} is the Presidential Candidate."
    made = catalog.pseudo(text)
    assert "{round}" in made and "{president}" in made
    outside = re.sub(r"\{[^}]*\}", "", made)
    assert not set(outside) & set(string.ascii_letters)
    assert len(made) >= len(text) * 4 // 3
    assert catalog.pseudo("a\nb").split("\n")[0].startswith("ȧ")  # lines stay lines


def test_english_needs_no_catalog_and_plurals_follow_english():
    en = catalog.get(None)
    assert en is catalog.get("en")
    assert en._("{a} and {b}", a="x", b="y") == "x and y"
    assert en._n("{n} vote", "{n} votes", 1) == "1 vote"
    assert en._n("{n} vote", "{n} votes", 2) == "2 votes"
    assert en.term(catalog.Np_("policy", "Liberal")) == "Liberal"


def test_an_unknown_language_is_refused_in_one_line(tmp_path, run):
    log = tmp_path / "g.yaml"
    code, _, err = run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", str(log),
                       "--language", "xx")
    assert code == 2 and err.startswith("Error: ") and "xx" in err and "en" in err
    assert not log.exists()


def test_the_language_is_a_public_header_field_every_command_renders_in(tmp_path, run):
    log = tmp_path / "g.yaml"
    code, out, _ = run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", str(log),
                       "--language", catalog.PSEUDO, "--seed", "s1", "--guessable", "--show")
    assert code == 0
    assert yaml.safe_load(log.read_text())["language"] == catalog.PSEUDO
    subjects = [line for line in out.splitlines() if line.startswith("Subject: ")]
    assert subjects and all("ẏǿŭř şḗƈřḗŧ řǿŀḗ" in s for s in subjects)
    code, again, _ = run("pm", "Ann", "-g", str(log))
    assert code == 0 and "ẏǿŭř şḗƈřḗŧ řǿŀḗ" in again


def test_a_profile_chosen_by_name_speaks_the_games_language():
    made = formats.chosen("bbcode", None, catalog.PSEUDO)
    assert isinstance(made, formats.BBCode) and made.lang.code == catalog.PSEUDO
    assert formats.chosen(None, "phpbb", None).lang.code == catalog.ENGLISH


@pytest.mark.parametrize("value", ["German", "de_DE", "", "x" * 20, 3])
def test_a_header_language_that_is_no_code_is_refused(value):
    from shmod.base.errors import BadInput
    from shmod.forum.setup import _language

    with pytest.raises(BadInput, match="language"):
        _language(value)
