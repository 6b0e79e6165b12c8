"""docs/tests.md's index of the test files, made from their docstrings.

Every file of ``tests/`` says what it checks in its module docstring; the docstring's first
paragraph is the file's row in the index, so a new test file is written once, in its own
docstring. The rest of docs/tests.md (how to run the suite, how to write a rule test) is
written by hand around the index's two marker lines.

    python tools/test_index.py            # rewrite the index in docs/tests.md
    python tools/test_index.py --check    # say whether it is stale and exit 1 (tests/test_docs.py)
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "tests.md"
BEGIN = ("<!-- The index below is made from each file's docstring by tools/test_index.py: "
         "edit the docstring, then run it. -->")
END = "<!-- The end of the index. -->"


def summary(path: Path) -> str:
    """The first paragraph of ``path``'s module docstring, as one line of Markdown."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    if not doc or not doc.strip():
        raise SystemExit(f"{path.relative_to(ROOT)} has no docstring: say what it checks")
    first = " ".join(doc.strip().split("\n\n")[0].split())
    return first.replace("``", "`").replace("|", "\\|")


def index(tests: Path = ROOT / "tests") -> str:
    """The index: the shared helpers, then the test files, each with its summary."""
    files = sorted(tests.glob("*.py"))
    helpers = [p for p in files if not p.name.startswith("test_")]
    cases = [p for p in files if p.name.startswith("test_")]
    out = ["## Shared helpers (not test files)", "", "| file | what it holds |", "|---|---|"]
    out += [_row(p) for p in helpers]
    out += ["", f"## The test files ({len(cases)})", "", "| file | what it checks |", "|---|---|"]
    out += [_row(p) for p in cases]
    return "\n".join(out) + "\n"


def _row(path: Path) -> str:
    return f"| [`{path.name}`](../tests/{path.name}) | {summary(path)} |"


def render(text: str) -> str:
    """``text`` (docs/tests.md) with its index made anew between the markers."""
    found = re.search(re.escape(BEGIN) + r"\n.*?" + re.escape(END) + r"\n", text, flags=re.S)
    if not found:
        raise SystemExit(f"docs/tests.md has lost its index markers: {BEGIN!r} … {END!r}")
    return text[:found.start()] + f"{BEGIN}\n\n{index()}\n{END}\n" + text[found.end():]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="say whether it is stale, exit 1")
    args = parser.parse_args(argv)
    text = GUIDE.read_text(encoding="utf-8")
    made = render(text)
    if args.check:
        if made != text:
            print("docs/tests.md's index is stale: run python tools/test_index.py")
            return 1
        return 0
    if made != text:
        GUIDE.write_text(made, encoding="utf-8")
        print("docs/tests.md: index rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
