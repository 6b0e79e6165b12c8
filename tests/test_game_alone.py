"""Issue 29: the game floor (shmod/game) plays a whole game alone, and the forum floor
(shmod/forum) changes it only through the game's moves and hooks.

- In a subprocess whose import system refuses ``shmod.forum`` (and with it every layer
  above, which all import it), random legal games of every player count and every
  combination of the game's variants are played to the end with the game floor's engine,
  checking each step against the rules' invariants; then the game's rule tests
  (test_rules_election/legislative/powers/veto/winning.py, over tests/scripted.py's game
  floor tables) run there, without the suite's conftest (it imports the command line).
- The cheater's search: no module of the forum floor writes a field of the game's state
  (assigns it, deletes it, or calls a mutating method on it); they go through
  ``shmod.game.engine.apply`` and ``shmod.game.hooks``. The search finds such a write in
  made-up code.

``SHMOD_ALONE_GAMES`` plays more random games (default 96: 6 counts x 16 variant sets).
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from shmod.base.records import fields
from shmod.forum.table import Table
from shmod.game.state import State

ROOT = Path(__file__).resolve().parent.parent
GAME_TESTS = ["test_rules_election.py", "test_rules_legislative.py", "test_rules_powers.py",
              "test_rules_veto.py", "test_rules_winning.py"]
GAMES = int(os.environ.get("SHMOD_ALONE_GAMES", "96"))

#: Installed first in the subprocess: an import of the forum floor fails as if it were not
#: there.
BLOCK = textwrap.dedent('''
    import importlib.abc, sys

    class NoForum(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "shmod.forum" or name.startswith("shmod.forum."):
                raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
            return None

    sys.meta_path.insert(0, NoForum())
    try:
        import shmod.forum  # noqa: F401
    except ModuleNotFoundError:
        pass
    else:
        raise SystemExit("the forum floor is still importable")
''')

PLAY = textwrap.dedent('''
    import itertools, random, sys
    sys.path.insert(0, "tests")
    from scripted import random_play, seeded
    from shmod.base.errors import IllegalStep
    from shmod.game import engine, legal
    from shmod.game.terms import NOMINATE, OVER, VARIANTS

    games, ends, steps, refused = int(sys.argv[1]), {}, 0, 0
    switches = [k for k in VARIANTS if k not in ("rebalanced", "first_president")]
    combos = list(itertools.product(*(VARIANTS[k] for k in switches)))
    rng = random.Random(29)
    for number in range(games):
        players = 5 + number % 6
        variants = dict(zip(switches, combos[number // 6 % len(combos)]))
        state = seeded(players, f"{rng.getrandbits(128):032x}", variants)
        while state.phase != OVER:
            cards = len(state.draw) + len(state.discard) + len(state.hand) + state.liberal \\
                + state.fascist + (state.chosen is not None and state.phase != "veto_vote")
            assert cards == state.rules.deck_liberal + state.rules.deck_fascist, cards
            if state.phase == NOMINATE:
                assert len(state.draw) >= 3 and state.tracker < state.rules.chaos_at
                assert state.alive[state.president]
            options = legal.legal_steps(state)
            assert options, state.phase
            before = state.entries
            step = rng.choice(options)
            engine.apply(state, step)
            assert state.entries == before + 1
            steps += 1
        assert state.win is not None and state.winner in ("Liberals", "Fascists")
        try:  # the end: the last step again is refused (R-WIN), and nothing changes
            engine.apply(state, step)
        except IllegalStep as err:
            refused += err.rule == state.win.rule and state.entries == before + 1
        ends[state.win.rule] = ends.get(state.win.rule, 0) + 1
    loaded = sorted(m for m in sys.modules if m.startswith("shmod."))
    assert all(m.split(".")[1] in ("base", "game") for m in loaded), loaded
    print(games, steps, refused, sorted(ends.items()))
''')


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_random_games_play_to_the_end_on_the_game_floor_alone(report_counts):
    done = _python(PLAY, str(GAMES))
    assert done.returncode == 0, done.stderr[-3000:]
    games, steps, refused, ends = done.stdout.split(maxsplit=3)
    assert int(games) == GAMES and int(steps) > 20 * GAMES and int(refused) == int(games)
    for rule in ("R-WIN-LIB", "R-WIN-FAS", "R-HITLER-ELECTED"):
        assert rule in ends
    report_counts("game alone", f"{games} random games ({steps} steps) on the game floor "
                                f"with shmod.forum unimportable; endings {ends}")


def test_the_games_rule_tests_pass_on_the_game_floor_alone():
    code = ("import pytest\n"
            f"raise SystemExit(pytest.main(['-q', '--noconftest', '-p', 'no:cacheprovider', "
            f"'-p', 'no:xdist', *{[f'tests/{name}' for name in GAME_TESTS]!r}]))\n")
    done = _python(code)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = int(done.stdout.rsplit(" passed", 1)[0].split()[-1])
    assert passed >= 80 and " failed" not in done.stdout and " error" not in done.stdout


def test_the_game_floor_is_blocked_in_earnest():
    """The import hook does refuse: the layers above the forum cannot be imported either."""
    done = _python("import shmod.log.store\n")
    assert done.returncode != 0 and "No module named 'shmod.forum" in done.stderr


# -- the forum writes no field of the game's state ---------------------------------------

GAME_FIELDS = set(fields(State))
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "add",
            "discard", "setdefault", "sort", "reverse", "popitem"}


def _game_field(node: ast.expr) -> str | None:
    """The game field an expression writes into: ``x.alive`` or ``x.alive[...]`` (not an
    attribute of the forum's own objects, ``self.players``)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if (isinstance(node, ast.Attribute) and node.attr in GAME_FIELDS
            and getattr(node.value, "id", "") != "self"):
        return node.attr
    return None


def writes_to_the_game(source: str) -> list[str]:
    """Every place ``source`` writes a field of a game's state, as ``line: field``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in MUTATORS):
            targets = [node.func.value]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr")
              and not (node.args and getattr(node.args[0], "id", "") == "table")):
            found.append(f"{node.lineno}: {node.func.id}")  # only the table's own fields
        for target in targets:
            for part in ast.walk(target) if isinstance(target, ast.Tuple) else [target]:
                name = _game_field(part) if isinstance(part, ast.expr) else None
                if name:
                    found.append(f"{node.lineno}: {name}")
    return sorted(found, key=lambda hit: int(hit.split(":")[0]))


def test_no_forum_module_writes_a_field_of_the_games_state():
    assert not GAME_FIELDS & set(fields(Table)), "the table's own fields are named apart"
    found = {path.name: writes_to_the_game(path.read_text())
             for path in sorted((ROOT / "shmod" / "forum").glob("*.py"))}
    assert {name: hits for name, hits in found.items() if hits} == {}
    assert len(found) >= 20


def test_the_search_finds_writes_to_the_game():
    made_up = textwrap.dedent('''
        def remove(self, table, seat):
            self.players = table.game.players  # the forum's own object: not the game's
            table.backups.append("Zed")
            game = table.game
            game.alive[seat] = False
            table.game.draw[:0] = game.hand
            game.tracker += 1
            game.votes.pop(seat)
            game.president, table.dealt = 1, 2
            del game.hand[0]
            setattr(game, "phase", "over")
    ''')
    assert [hit.split(": ")[1] for hit in writes_to_the_game(made_up)] == [
        "alive", "draw", "tracker", "votes", "president", "hand", "setattr"]
