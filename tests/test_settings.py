"""Issue 43: a forum's house rules in one file. ``shmod.toml`` in the folder of ``-g`` (never
searched for upward) gives ``shmod new`` its defaults and named presets, and ``shmod stats``
its ``[stats]`` table; flags win over it; ``new --show-settings`` says where each value
comes from and writes nothing; the log records every value used, so the game never reads
the file again. A syntax error is said at tomllib's line and column, an unknown key or a
bad value by its dotted path, and nothing is written: through the installed ``shmod``,
the folder and another game's log stay byte for byte as they were. The two commented
examples of docs/settings.md (a phpBB forum's, a Discourse forum's) start games as they
say.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from installed import Moderator

from shmod.cli.settings import DEFAULTS, GAME_KEYS, STATS_KEYS
from shmod.forum.terms import VARIANTS

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


@pytest.fixture
def mod(tmp_path):
    """A moderator whose folder games/ holds a finished game of someone else's (its log
    must never change) and a shmod.toml."""
    moderator = Moderator(tmp_path)
    moderator.log.parent.mkdir(parents=True)
    shutil.copy(Path(__file__).resolve().parent.parent / "games" / "five-players.yaml",
                moderator.log.parent / "other.yaml")
    return moderator


def header(mod: Moderator, name: str = "friday.yaml") -> dict:
    return yaml.safe_load((mod.log.parent / name).read_text().split("\nlog:", 1)[0])


def settings(mod: Moderator, text: str) -> None:
    (mod.log.parent / "shmod.toml").write_text(text)


def test_the_file_sets_a_new_games_defaults_and_a_preset_changes_some(mod):
    settings(mod, 'forum = "phpbb"\nlanguage = "de"\nzone = "Europe/Berlin"\n'
                  '[variants]\nlate_vote = "nein"\nterm5 = "seated"\n'
                  '[preset.rebalanced]\nvariants = { rebalanced = true, term5 = "alive" }\n'
                  'language = "pl"\n')
    mod.run("new", *NAMES, "--preset", "rebalanced")
    made = header(mod)
    assert (made["forum"], made["language"], made["zone"]) == ("phpbb", "pl", "Europe/Berlin")
    assert made["variants"] == {**{k: v[0] for k, v in VARIANTS.items()}, "late_vote": "nein",
                                "rebalanced": "on", "term5": "alive"}


def test_flags_win_over_the_preset_and_the_file(mod):
    settings(mod, 'forum = "phpbb"\nzone = "Europe/Berlin"\n[variants]\nveto = "secret-vote"\n'
                  '[preset.p]\nforum = "xenforo"\nvariants = { late_vote = "nein" }\n')
    out = mod.run("new", "--show-settings", "--preset", "p", "-f", "markdown", "--forum",
                  "discourse", "-V", "late_vote=wait", "-z", "UTC").stdout
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:]}
    assert out.splitlines()[0] == (f"Settings of a new game at {mod.log} (from "
                                   f"{mod.log.parent / 'shmod.toml'}, preset p):")
    assert rows["forum"] == ["discourse", "flag"] and rows["zone"] == ["UTC", "flag"]
    assert rows["variants.late_vote"] == ["wait", "flag"]
    assert rows["variants.veto"] == ["secret-vote", "file"]
    assert rows["language"] == ["en", "default"] and rows["custom"] == ["-", "default"]
    assert set(rows) == set(DEFAULTS) | {f"variants.{k}" for k in VARIANTS}
    assert not mod.log.exists()  # --show-settings writes nothing
    mod.run("new", *NAMES, "--preset", "p", "--forum", "discourse", "-V", "late_vote=wait")
    made = header(mod)
    assert (made["forum"], made["zone"], made["variants"]["late_vote"],
            made["variants"]["veto"]) == ("discourse", "Europe/Berlin", "wait", "secret-vote")


def test_without_a_file_a_game_is_made_as_before(mod, tmp_path):
    """The defaults are left out of the header as before, and a file one folder up is not
    read."""
    (tmp_path / "shmod.toml").write_text('forum = "phpbb"\n')
    out = mod.run("new", "--show-settings").stdout
    assert f"(no {mod.log.parent / 'shmod.toml'})" in out and "phpbb" not in out
    mod.run("new", *NAMES)
    made = header(mod)
    assert not {"forum", "language", "zone", "deal", "custom", "moderators"} & set(made)


def test_the_log_needs_no_file_after_new(mod):
    settings(mod, 'forum = "bbcode"\nlanguage = "de"\n')
    mod.run("new", *NAMES)
    opening = mod.run("post", "--again", "1").stdout
    settings(mod, 'forum = "discourse"\nlanguage = "pl"\n')
    assert mod.run("post", "--again", "1").stdout == opening
    (mod.log.parent / "shmod.toml").unlink()
    assert mod.run("post", "--again", "1").stdout == opening
    assert "[b]" in opening and "Sitzordnung" in opening  # bbcode, in German


def test_a_custom_board_is_found_from_the_files_folder(mod):
    (mod.log.parent / "boards").mkdir()
    (mod.log.parent / "boards" / "big.yaml").write_text("deck: {liberal: 7, fascist: 11}\n")
    settings(mod, 'custom = "boards/big.yaml"\n')
    mod.run("new", *NAMES)
    assert header(mod)["custom"] == {"deck": {"liberal": 7, "fascist": 11}}


BAD = [
    ('forum = "phpbb"\nlanguage = de\n', ":2:12: Invalid value"),
    ('[variants\nterm5 = "seated"\n', ":1:10: Expected ']' at the end of a table declaration"),
    ('forum = "phpbb"\nlangauge = "de"\n', ": langauge: unknown key (known here: forum, "
     "language, zone, deal, custom, moderators, variants, preset, stats)"),
    ('[preset.rebalanced.variants]\nterm5 = "sometimes"\n',
     ": preset.rebalanced.variants.term5: 'sometimes' is not alive or seated"),
    ('[preset.x]\nforum = "vbulletin"\n', ": preset.x.forum: 'vbulletin' is not plain, "
     "markdown, bbcode, phpbb, phpbb-spoiler, xenforo or discourse"),
    ('[variants]\nlate_voting = "nein"\n', ": variants.late_voting: unknown variant (known: "
     + ", ".join(VARIANTS) + ")"),
    ('zone = "Mars/Olympus"\n', ": zone: unknown time zone 'Mars/Olympus' (use a name like "
     "Europe/Berlin, or UTC)"),
    ('moderators = "Mia"\n', ": moderators: a list of names, like [\"Ann\", \"Bob\"], not "
     "'Mia'"),
    ('[stats]\nabandoned_cost = "yes"\n', ": stats.abandoned_cost: true or false, not 'yes'"),
    ('[preset.x.stats]\nabandoned_after = 3\n', ": preset.x.stats: unknown key (known here: "
     "forum, language, zone, deal, custom, moderators, variants)"),
    ('preset = 3\n', ": preset: a table ([preset] or { key = value }), not 3"),
    (b'forum = "phpbb"\n# caf\xe9\n', ":2: not UTF-8 text"),
]


@pytest.mark.parametrize(("text", "error"), BAD, ids=[e.split(": ")[1][:30] for _, e in BAD])
def test_a_bad_file_is_one_line_and_nothing_is_written(mod, text, error):
    path = mod.log.parent / "shmod.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    before = {p.name: p.read_bytes() for p in mod.log.parent.iterdir()}
    for args, where in ((["new", *NAMES], path), (["new", "--show-settings"], path),
                        (["stats", "games"], "games/shmod.toml")):
        err = mod.run(*args, code=2).stderr
        assert err == f"Error: {where}{error}\n", (args, err)
        assert {p.name: p.read_bytes() for p in mod.log.parent.iterdir()} == before


def test_a_preset_the_file_lacks_is_one_line(mod):
    err = mod.run("new", *NAMES, "--preset", "rebalanced", code=2).stderr
    assert err == (f"Error: --preset rebalanced: there is no {mod.log.parent / 'shmod.toml'} "
                   "(presets are [preset.NAME] tables in it; docs/settings.md)\n")
    settings(mod, '[preset.classic]\n')
    err = mod.run("new", *NAMES, "--preset", "rebalanced", code=2).stderr
    assert err == (f"Error: --preset rebalanced: no [preset.rebalanced] in "
                   f"{mod.log.parent / 'shmod.toml'} (its presets: classic)\n")
    assert not mod.log.exists()


def test_the_keys_are_the_documented_ones():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "settings.md").read_text()
    for key in [*GAME_KEYS, *STATS_KEYS]:
        assert f"| `{key}` |" in doc, key


@pytest.mark.parametrize("forum", ["phpbb", "discourse"])
def test_the_examples_start_games_as_they_say(mod, forum):
    """Each example of docs/settings.md, as it is, in a forum's folder: a game with its
    defaults and one with each of its presets."""
    import tomllib

    text = (EXAMPLES / forum / "shmod.toml").read_text()
    assert f"examples/{forum}/shmod.toml" in (EXAMPLES.parent / "settings.md").read_text()
    data = tomllib.loads(text)
    settings(mod, text)
    players = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    for n, preset in enumerate([None, *data.get("preset", {})]):
        chosen = {**data, **data.get("preset", {}).get(preset or "", {})}
        variants = {**data.get("variants", {}), **chosen.get("variants", {})}
        log = f"games/game{n}.yaml"
        args = ["new", *players, "-g", log, *(["--preset", preset] if preset else []),
                *(["--as", chosen["moderators"][0]] if "moderators" in chosen else [])]
        mod.run(*args)
        made = header(mod, f"game{n}.yaml")
        assert made["forum"] == chosen["forum"]
        assert made.get("language", "en") == chosen.get("language", "en")
        assert made.get("zone", "UTC") == chosen.get("zone", "UTC")
        assert made.get("deal", "moderator") == chosen.get("deal", "moderator")
        assert made.get("moderators") == chosen.get("moderators")
        assert all(made["variants"][k] == {True: "on", False: "off"}.get(v, v)
                   for k, v in variants.items())
        shown = mod.run("new", "--show-settings", "-g", log + ".x",
                        *(["--preset", preset] if preset else [])).stdout
        assert "  forum " in shown and f" {chosen['forum']} " in shown
    assert mod.run("stats", "games").returncode == 0
