"""The docs hold together (issue 45 §4): every link of the README and of docs/ resolves, to a
file of the repository and, with a ``#part``, to a heading there; nothing points outside the
repository; docs/commands.md's table names every command; docs/architecture.md's layer
table names every module of its layer; every file of tests/ has a docstring that says what
it checks, and docs/tests.md's index of them is current (``tools/test_index.py --check``).
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import typer

from shmod.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "DEVELOPERS.md", ROOT / "BENCHMARKS.md",
         *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _unfenced(text: str) -> str:
    """``text`` without its fenced code blocks (a ``#`` there is no heading)."""
    return re.sub(r"^(```|~~~).*?^\1[ \t]*$", "", text, flags=re.M | re.S)


def anchors(page: Path) -> set[str]:
    """The ``#part``s GitHub gives ``page``'s headings: lower case, punctuation dropped,
    spaces as hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", _unfenced(page.read_text()), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(page: Path) -> list[str]:
    """``page``'s link targets, outside code (fenced, or inline)."""
    return LINK.findall(re.sub(r"`[^`\n]*`", "code", _unfenced(page.read_text())))


def test_the_link_checker_finds_what_github_would():
    assert "the-outbox-one-item-at-a-time-r-pm-r-missent" in anchors(ROOT / "docs" / "posts.md")
    assert "shmod-audit-log" in anchors(ROOT / "docs" / "audit.md")  # `shmod audit LOG…`
    assert links(ROOT / "README.md")[:2] == ["docs/rules.md", "docs/guide.md"]


def test_every_link_in_the_readme_and_the_docs_resolves():
    broken = []
    for page in PAGES:
        for target in links(page):
            if re.match(r"[a-z]+:", target):  # https:, mailto:: outside, not checked here
                continue
            path, _, part = target.partition("#")
            goal = (page.parent / path).resolve() if path else page
            if ROOT not in goal.parents or not goal.exists():
                broken.append(f"{page.name}: {target} (no such file here)")
            elif part and goal.suffix == ".md" and part not in anchors(goal):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken


def test_nothing_in_the_readme_or_the_docs_points_outside_the_repository():
    for page in PAGES:
        text = page.read_text()
        for outside in ("../shared", "/work/", "RULES.md"):
            assert outside not in text, (page.name, outside)


def test_the_command_table_lists_every_command():
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    text = (ROOT / "docs" / "commands.md").read_text()
    table = set(re.findall(r"^\| `shmod ([a-z-]+)", text, flags=re.M))
    assert table == commands, (sorted(commands - table), sorted(table - commands))


def test_the_layer_table_names_every_module_of_its_layer():
    text = (ROOT / "docs" / "architecture.md").read_text()
    part = text[text.index("## The layers"):]
    part = part[:part.index("\n## ", 1)]
    rows = dict(re.findall(r"^\| `(\w+)` \| (.*?) \| [^|]* \|$", part, flags=re.M))
    packages = {p.name for p in (ROOT / "shmod").iterdir() if (p / "__init__.py").exists()}
    assert set(rows) == packages
    for layer, cell in rows.items():
        named = set(re.findall(r"`(\w+)\.py`", cell))
        modules = {p.stem for p in (ROOT / "shmod" / layer).glob("*.py")} - {"__init__"}
        assert named == modules, (layer, sorted(modules - named), sorted(named - modules))


def test_every_file_of_the_tests_says_what_it_checks():
    for path in sorted((ROOT / "tests").glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and len(doc.split("\n\n")[0].split()) >= 6, f"{path.name}: no docstring"


def test_the_test_index_is_current():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "test_index.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = re.findall(r"^\| \[`(test_\w+\.py)`\]", (ROOT / "docs" / "tests.md").read_text(),
                        flags=re.M)
    assert listed == sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))
