"""Issue 45 §1: one record per log format (``shmod/forum/log_formats.py``).

Every difference between log formats is a field of its ``LogFormat``; no module outside
``log_formats.py`` compares a format's number (an AST scan, which itself finds such a
comparison in made-up code); docs/verify.md section 2's table is the one the records make.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shmod.base.errors import BadInput
from shmod.forum import log_formats
from shmod.forum.log_formats import CURRENT, FORMATS, read

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "shmod" / "forum" / "log_formats.py"
#: Names a format or its number went by in shmod's code, wherever they appear.
NUMBER_NAMES = frozenset({"format_", "VERSIONS"})
#: Parameter names a format or its number went by.
PARAMETERS = frozenset({"form", "format_", "version"})


def _is_format(node: ast.AST, names: frozenset[str] | set[str]) -> bool:
    """Whether ``node`` reads a log format or its number: ``x.format`` (not a call of
    ``str.format``), ``x.format.number``, one of ``names``, or the header's ``shmod``
    field (``raw["shmod"]``, ``raw.get("shmod")``)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "format" or (node.attr == "number" and _is_format(node.value,
                                                                              names))
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "shmod"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return (node.func.attr == "get" and bool(node.args)
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == "shmod")
    return False


def format_branches(source: str) -> list[tuple[int, str]]:
    """Every comparison, ``in``, ``match`` or lookup on a log format or its number in
    ``source``, as (line, what). A name counts when it is one the formats' numbers went by,
    a parameter named as a format is, or a name assigned a format (``form = setup.format``)."""
    tree = ast.parse(source)
    nodes = list(ast.walk(tree))
    calls = {id(node.func) for node in nodes if isinstance(node, ast.Call)}
    names = set(NUMBER_NAMES)
    for node in nodes:
        if isinstance(node, ast.arg) and node.arg in PARAMETERS:
            names.add(node.arg)
    for _ in range(2):  # twice: a name assigned from a name assigned a format
        for part in nodes:
            if isinstance(part, ast.Assign) and _is_format(part.value, names):
                names.update(t.id for t in part.targets if isinstance(t, ast.Name))

    def reads(part: ast.AST) -> bool:
        return id(part) not in calls and _is_format(part, names)

    found = []
    for node in nodes:
        if isinstance(node, ast.Compare) and any(reads(p) for p in (node.left, *node.comparators)):
            found.append((node.lineno, "comparison"))
        elif isinstance(node, ast.Match) and reads(node.subject):
            found.append((node.lineno, "match"))
        elif isinstance(node, ast.Subscript) and reads(node.slice):
            found.append((node.lineno, "lookup"))
    return found


def test_no_module_but_the_records_compares_a_format_number():
    found = []
    for path in sorted((ROOT / "shmod").rglob("*.py")):
        if path != HOME:
            found += [f"{path.relative_to(ROOT)}:{line}: {what}"
                      for line, what in format_branches(path.read_text(encoding="utf-8"))]
    assert found == []


@pytest.mark.parametrize("code", [
    "if setup.format >= 2: pass",
    "x = table.setup.format < 3 or y",
    "version = raw.get('shmod')\nok = version == 1",
    "form = state.setup.format\nif form >= 4: pass",
    "def f(form: int) -> bool:\n    return form < 3",
    "v = VERSIONS[setup.format]",
    "def f(form):\n    return form in (1, 2)",
    "ok = raw.get('shmod') not in FORMATS",
    "ok = header['shmod'] == 4",
    "ok = setup.format.number > 3",
    "match setup.format:\n    case 1: pass",
    "ok = setup.format is FORMATS[4]",
])
def test_the_scan_finds_a_comparison_in_made_up_code(code):
    assert format_branches(code)


def test_the_scan_leaves_field_reads_and_string_formatting_alone():
    assert format_branches("ok = setup.format.signed and setup.format.lapse_draw == 'index'\n"
                           "text = '{}'.format(x)\nmessage = setup.format.words.message(w, n)\n"
                           "s = f'shmod-commitment {setup.format.number}'\n") == []


def test_the_verify_table_is_made_from_the_records():
    """docs/verify.md section 2's table is what ``python -m shmod.forum.log_formats`` prints."""
    assert log_formats.markdown_table() in (ROOT / "docs" / "verify.md").read_text()


def test_every_format_is_one_row_keyed_by_its_number():
    assert list(FORMATS) == sorted(FORMATS) == [f.number for f in FORMATS.values()]
    assert CURRENT is FORMATS[max(FORMATS)]
    for number, format_ in FORMATS.items():
        assert read(number) is format_
        assert repr(format_) == f"LogFormat({number})"


@pytest.mark.parametrize("value", [True, False, 0, None, "4", [4], {"a": 1}, max(FORMATS) + 1])
def test_a_header_naming_no_format_is_refused_with_the_formats_read(value):
    with pytest.raises(BadInput, match=f"expected shmod: {CURRENT.number}, or 1, "):
        read(value)
