"""Issue 10 §1: the rules shmod cites ship with it. Every rule id used anywhere in shmod
is explained in the rulebook (the game's rules in shmod/game/rulebook.py, the forum's and the
whole in shmod/forum/rulebook.py), the game floor cites only the game's, docs/rules.md is
generated from it, ``shmod rules ID`` prints one, every refusal says where to read more, and
nothing points outside the repository."""
import re
from pathlib import Path

import pytest
from scripted import AT

from shmod.forum import rulebook
from shmod.game import rulebook as game_rulebook

ROOT = Path(__file__).resolve().parent.parent
ID = re.compile(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*")


def ids_used_in_shmod(package: str = "") -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "shmod" / package).rglob("*.py"):
        found |= set(ID.findall(path.read_text()))
    return found


def test_every_rule_id_in_shmod_is_explained():
    used = ids_used_in_shmod()
    assert len(used) >= 40
    assert used <= set(rulebook.RULES), sorted(used - set(rulebook.RULES))


def test_the_game_floor_cites_only_the_games_rules():
    """The official rules and their variants; the forum's (R-DEADLINE, R-MODKILL, ...) are
    cited above it, in shmod/forum and the layers that use it."""
    used = ids_used_in_shmod("game")
    assert len(used) >= 30
    assert used <= set(game_rulebook.RULES), sorted(used - set(game_rulebook.RULES))
    assert set(game_rulebook.RULES) < set(rulebook.RULES)
    assert [rule for rule in rulebook.RULES if rule in game_rulebook.RULES] == list(game_rulebook.RULES)


def test_docs_rules_md_is_generated_from_the_rulebook():
    assert (ROOT / "docs" / "rules.md").read_text() == rulebook.markdown(), \
        "run: python -m shmod.forum.rulebook > docs/rules.md"
    for rule in rulebook.RULES:
        assert f"**{rule}**" in rulebook.markdown()


def test_the_readme_and_docs_link_the_rules_and_nothing_outside():
    readme = (ROOT / "README.md").read_text()
    assert "(docs/rules.md)" in readme
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        text = path.read_text()
        assert "../shared" not in text and "RULES.md" not in text, path.name


def test_shmod_rules_id_explains_one_rule(run):
    code, out, _ = run("rules", "R-TERM")
    assert code == 0 and out.startswith("R-TERM: Term limits\n") and "last elected" in out
    code, out, _ = run("rules", "term5")
    assert code == 0 and out.startswith("R-TERM5: ")
    code, _, err = run("rules", "R-NOPE")
    assert code == 2 and err.startswith("Error: unknown rule 'R-NOPE' (known: R-SEAT")


def test_a_refusal_ends_with_where_to_read_more(run, tmp_path):
    from shmod.log import store

    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cat", "Dan", "Eve"], seed="s", first="Ann", created=AT)
    code, _, err = run("nominate", "Ann", "-g", str(path))
    assert code == 1 and err.startswith("Error: R-NOMINATE: ")
    assert err.endswith(" (shmod rules R-NOMINATE)\n")
    code, _, err = run("deadline", "2020-01-01", "-g", str(path))
    assert err.endswith(" (shmod rules R-DEADLINE)\n")


@pytest.mark.parametrize("fmt", ["plain", "bbcode", "markdown"])
def test_the_rules_post_is_for_players(run, tmp_path, fmt):
    from shmod.log import store

    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], seed="s",
                   variants=["eva_braun=on"], created=AT)
    code, out, err = run("rules", "-g", str(path), "-f", fmt)
    assert code == 0 and "Post in the thread" in err
    assert out.lstrip("[=#* b]").startswith("Rules for this game") or "Rules for this game" in out.splitlines()[0]
    assert not ID.search(out), out  # players do not know rule ids
    assert "(s)" not in out and "=" not in out.replace("==", "")
    assert "Eva Braun" in out and "term5" not in out and "secret-vote" not in out


def test_player_facing_posts_and_pms_cite_no_rule_ids():
    """The snapshot thread (every post and the reveal, three formats) and every PM of a
    whole game: players do not know rule ids."""
    import random

    from shmod.audit.random_games import random_game
    from shmod.forum import engine
    from shmod.forum.setup import parse_setup, start
    from shmod.texts import messages
    from shmod.texts.formats import FORMATS

    for snapshot in (ROOT / "tests" / "snapshots").glob("example_thread.*.txt"):
        assert not ID.search(snapshot.read_text()), snapshot.name
    for seed in range(6):
        sim = random_game(5 + seed, random.Random(seed))
        state = start(parse_setup(sim.header))
        for step in sim.steps:
            engine.apply(state, step)
        for secret in state.secrets:
            for fmt in FORMATS.values():
                text = messages.pm_text(secret, fmt())
                assert not ID.search(text), (secret.kind, text)


def test_r_merge_says_what_merges_deliveries_and_post_races_included():
    """Issue 42: the rule says what the merge does with the outbox's deliveries (issue 40),
    with two posts of one number (withdrawn, with a signed line in the thread) and with a
    step of a round the other copy ended."""
    said = " ".join(rulebook.RULES["R-MERGE"][1:])
    for words in ("deliveries of the outbox's items always merge", "kept twice",
                  "the one delivered first stands", "withdrawal line, signed with the game's key",
                  "one never delivered is dropped", "lands in the round it was taken in"):
        assert words in said, words
