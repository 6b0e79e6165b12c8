"""Issue 12: shmod's layers as packages, checked over the import graph; and issue 45 §3: no
function body over 60 lines.

The contract is the layer list in docs/architecture.md (read from there, so the document
and this test cannot drift): a module may import its own layer and the layers below it,
never one above; and no import cycle anywhere in ``shmod/``. Every import counts, at the
top of a module or inside a function (lazy), and importing a module also runs its
packages' ``__init__``. Layer 0 and the two floors of the rules, the game and the forum
above it (issue 29), touch no files, terminals or libraries beyond the standard ones they
list; the game floor imports nothing of the forum (and tests/test_game_alone.py runs it
with the forum unimportable).

No function in ``shmod/`` has a body over 60 lines (issue 45 §3): measured from its first
statement (its docstring, if it has one) to its last line, so a typer command's parameter
list does not count; a nested function counts within its own and on its own.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "docs" / "architecture.md"
#: What the pure layers may import from outside shmod (no files, terminals, YAML, CLI).
PURE_STDLIB = {"__future__", "collections", "dataclasses", "datetime", "hashlib", "json",
               "re", "typing", "zoneinfo", "random", "secrets", "hmac", "unicodedata",
               "_sha2", "_sha256", "_blake2", "_md5", "_sha1"}  # CPython's own digests (shmod.base.digest)


def layers() -> list[str]:
    """The layer packages, lowest first, from the contract's fenced ``layers`` block."""
    block = re.search(r"```layers\n(.*?)```", CONTRACT.read_text(), re.S)
    assert block, "docs/architecture.md has no ```layers block"
    return [line.split()[0] for line in block.group(1).splitlines() if line.strip()][::-1]


def modules(package: Path) -> dict[str, str]:
    """Every module under ``package``: dotted name -> source."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path.read_text()
    return out


def imports(name: str, source: str, known: set[str], *, is_package: bool = False
            ) -> tuple[set[str], set[str]]:
    """The shmod modules ``name`` imports (each import statement wherever it is, plus the
    packages each of those runs), and the top-level names of the others."""
    package = name if is_package else name.rpartition(".")[0]
    ours: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(filter(None, [*up, base]))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            if target.split(".")[0] != "shmod":
                others.add(target.split(".")[0])
                continue
            parts = target.split(".")
            ours.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    ours.update(".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1))
    ours.discard(name)
    return ours & known, others


def graph(sources: dict[str, str]) -> dict[str, set[str]]:
    known = set(sources)
    return {name: imports(name, src, known,
                          is_package=any(k.startswith(name + ".") for k in known))[0]
            for name, src in sources.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def layer_of(module: str, order: list[str]) -> int:
    """The module's layer index; the top-level ``shmod`` package is below everything,
    ``shmod.__main__`` above everything."""
    parts = module.split(".")
    if len(parts) == 1:
        return -1
    if parts[1] == "__main__":
        return len(order)
    assert parts[1] in order, f"{module} is in no layer of docs/architecture.md"
    return order.index(parts[1])


def upward(edges: dict[str, set[str]], order: list[str]) -> list[str]:
    return sorted(f"{a} imports {b} ({order[layer_of(b, order)]} is above "
                  f"{order[layer_of(a, order)] if layer_of(a, order) < len(order) else 'main'})"
                  for a, targets in edges.items() for b in targets
                  if layer_of(b, order) > layer_of(a, order))


SOURCES = modules(ROOT / "shmod")
EDGES = graph(SOURCES)


def test_the_contract_names_every_package_and_nothing_else():
    packages = {name.split(".")[1] for name in SOURCES if name.count(".") >= 1} - {"__main__"}
    assert set(layers()) == packages
    assert layers()[0] == "base" and layers()[-1] == "cli"


def test_no_import_cycle_in_shmod():
    assert cycle(EDGES) is None, " -> ".join(cycle(EDGES) or [])


def test_no_module_imports_a_layer_above_its_own():
    assert upward(EDGES, layers()) == []


def test_every_module_sits_in_a_layer_package():
    loose = [name for name in SOURCES if name.count(".") == 1 and name.split(".")[1]
             not in layers() and name != "shmod.__main__"]
    assert loose == []


@pytest.mark.parametrize("layer", ["base", "game", "forum"])
def test_the_pure_layers_use_no_files_terminals_or_libraries(layer):
    found = set()
    for name, source in SOURCES.items():
        if name.startswith(f"shmod.{layer}"):
            found |= imports(name, source, set(SOURCES))[1]
    assert found <= PURE_STDLIB, sorted(found - PURE_STDLIB)


#: The longest a function's body may be, in lines (issue 45 §3).
MAX_BODY = 60


def long_bodies(source: str, limit: int = MAX_BODY) -> list[tuple[int, str, int]]:
    """Each function in ``source`` (methods and nested ones too) whose body, from its first
    statement to its last line, is over ``limit`` lines: its line, its name, its length."""
    return [(node.lineno, node.name, length)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (length := (node.end_lineno or node.lineno) - node.body[0].lineno + 1) > limit]


def test_no_function_body_is_over_60_lines():
    found = [f"{name}:{line} {function} ({length} lines)" for name, source in SOURCES.items()
             for line, function, length in long_bodies(source)]
    assert not found, "function bodies over 60 lines:\n" + "\n".join(found)


# -- the checker itself fails when it should -----------------------------------------


FAKE = {
    "shmod": "",
    "shmod.base": "", "shmod.base.errors": "",
    "shmod.game": "", "shmod.game.engine": "from shmod.base.errors import X\n",
    "shmod.game.moves": "def f():\n    from shmod.game import engine\n",
    "shmod.forum": "", "shmod.forum.engine": "from shmod.game import engine\n",
    "shmod.log": "", "shmod.log.store": "from shmod.forum import engine\n",
}


def test_the_checker_finds_a_lazy_cycle():
    sources = {**FAKE, "shmod.game.engine": "from shmod.game import moves\n"}
    found = cycle(graph(sources))
    assert found is not None and set(found) == {"shmod.game.engine", "shmod.game.moves"}


def test_the_checker_finds_a_cycle_through_a_package_init():
    sources = {**FAKE, "shmod.game": "from shmod.game import moves\n"}
    found = cycle(graph(sources))
    assert found is not None and "shmod.game" in found


def test_the_checker_finds_an_upward_import():
    order = ["base", "game", "forum", "log"]
    assert cycle(graph(FAKE)) is None and upward(graph(FAKE), order) == []
    sources = {**FAKE, "shmod.game.moves": "def f():\n    from shmod.forum.engine import apply\n"}
    assert upward(graph(sources), order) == [
        "shmod.game.moves imports shmod.forum (forum is above game)",
        "shmod.game.moves imports shmod.forum.engine (forum is above game)"]


def test_the_body_measure_starts_at_the_first_statement():
    params = "".join(f"    a{i}: int = typer.Option(0),\n" for i in range(30))
    body = "".join(f"    x = {i}\n" for i in range(59))
    command = f"@app.command()\ndef run(\n{params}) -> None:\n    \"\"\"Doc.\"\"\"\n{body}"
    assert long_bodies(command) == []  # 60 lines, the docstring one of them
    longer = command + "    x = 60\n"
    assert long_bodies(longer) == [(2, "run", 61)]
    nested = "class C:\n    def m(self):\n" + "".join(f"        y = {i}\n" for i in range(61))
    assert long_bodies(nested) == [(2, "m", 61)]


def test_the_documented_forum_moves_are_the_forum_moves_table():
    """docs/architecture.md's table of the forum's moves lists each row of
    ``shmod.forum.moves.moves`` once, in order: its step class and kind, its handler, whether
    it is bookkeeping, and the rule an out-of-turn one breaks (issue 29)."""
    from shmod.forum.engine import apply
    from shmod.forum.moves import moves

    section = CONTRACT.read_text().split("## The forum's moves", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in section.splitlines() if line.startswith("| `")]
    table = moves(apply)
    assert [row[0] for row in rows] == [f"`{m.step.__name__}` (`{m.step.kind}`)"
                                        for m in table]
    for row, move in zip(rows, table):
        name = move.handler.__name__
        module = move.handler.__module__.rsplit(".", 1)[1]
        assert row[1].startswith(f"`{module}.{name}`" if module != "moves"
                                 else f"`corrections.{name}`"), (row, module, name)
        assert row[2].startswith("bookkeeping") == move.bookkeeping, row
        assert ("kept" in row[2]) == move.kept, row
        assert (move.rule or "R-") in row[3] and (move.noun in row[3]), row



def repeats(where: dict[str, list[str]], commands: set[str], mirrored: set[str]
            ) -> dict[str, list[str]]:
    """The module names held by several packages (``where``: name -> packages) beyond what
    is allowed: a cli module named after a command, a forum module mirroring the game's."""
    wrong = {}
    for name, packages in where.items():
        rest = [p for p in packages if not (p == "cli" and name in commands)]
        if len(rest) > 1 and not (name in mirrored and sorted(rest) == ["forum", "game"]):
            wrong[name] = packages
    return wrong


def mirrors() -> set[str]:
    """The forum's modules that mirror the game's, from the contract's ``mirrors`` block."""
    block = re.search(r"```mirrors\n(.*?)```", CONTRACT.read_text(), re.S)
    assert block, "docs/architecture.md has no ```mirrors block"
    return set(block.group(1).split())


def test_every_module_name_says_one_thing():
    """Issue 45 section 2: a module name is used once in shmod, but for the allowed repeats
    (and each mirror listed is one)."""
    import typer

    from shmod.cli.main import app

    where: dict[str, list[str]] = {}
    for path in sorted((ROOT / "shmod").glob("*/*.py")):
        if path.stem != "__init__":
            where.setdefault(path.stem, []).append(path.parent.name)
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert repeats(where, commands, mirrors()) == {}
    assert {n for n in mirrors() if sorted(where.get(n, [])) != ["forum", "game"]} == set()
    # the check finds a repeat: two packages, a cli module named after no command
    made_up = {"thread": ["audit", "forum"], "posts": ["cli", "texts"],
               "stats": ["audit", "cli"], "engine": ["forum", "game"]}
    assert repeats(made_up, {"stats"}, {"engine"}) == {"thread": ["audit", "forum"],
                                                      "posts": ["cli", "texts"]}
