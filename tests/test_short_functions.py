"""Issue 45 §3: no function body in shmod/texts, shmod/cli or shmod/audit is over 60 lines,
measured from its first statement (its docstring, if any) to its last line: a typer
command's parameter list does not count. A longer one is split into named pieces.

The packages are listed in ``PACKAGES``; each function's length is read from the AST
(nested functions are measured too, and count within the function that holds them).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("texts", "cli", "audit")
LIMIT = 60


def bodies(package: str) -> list[tuple[str, int]]:
    """Each function of ``package`` as ``path:line name`` and its body's length in lines."""
    out = []
    for path in sorted((ROOT / "shmod" / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.body[0].lineno + 1
                out.append((f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", length))
    return out


def test_the_measure_counts_the_body_not_the_signature() -> None:
    source = "def f(\n    a: int,\n    b: int,\n) -> int:\n    x = a\n    return x + b\n"
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    assert (node.end_lineno or 0) - node.body[0].lineno + 1 == 2


@pytest.mark.parametrize("package", PACKAGES)
def test_no_function_body_is_over_sixty_lines(package: str) -> None:
    found = bodies(package)
    assert len(found) > 20  # the package was read
    long = [f"{where} ({length} lines)" for where, length in found if length > LIMIT]
    assert not long, f"split these into named pieces: {long}"
