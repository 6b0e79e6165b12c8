"""Issue 45 §6 and issue 44: the replay page words the audit's problems in the game's
language. A finished game's log is tampered with in every way a page can still be made
of (an entry edited, the first entry edited, two entries swapped, a posted checkpoint no
longer given, the header's commitment changed, a wrong commitment given to
``--commitment``); its German and Polish pages hold no English sentence of any problem
(no four English words of a problem's message in a row), and its English page lists each
problem exactly as ``shmod audit`` prints it, byte for byte as before."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from shmod.audit import replay
from shmod.audit.findings import Problem
from shmod.audit.log_audit import MAX_LISTED, Report, audit_file
from shmod.texts import catalog

GAME = Path(__file__).parent.parent / "games" / "five-players.yaml"
WRONG = "0" * 64


def tampered(tmp_path: Path) -> Path:
    """five-players.yaml with the first entry, the sixth and the seventh edited and the
    eighth and ninth swapped (the checkpoint posted after entry 10 no longer matches),
    and the header's commitment changed."""
    lines = GAME.read_text().splitlines(keepends=True)
    first = lines.index("log:\n") + 1

    def retimed(n: int) -> None:
        lines[first + n - 1] = re.sub(r'at: "(\S+?)00Z"', r'at: "\g<1>01Z"',
                                      lines[first + n - 1])

    retimed(1)
    retimed(6)
    lines[first + 7], lines[first + 8] = lines[first + 8], lines[first + 7]
    text = "".join(lines)
    stated = re.search(r'^commitment: "(\w+)"', text, re.M)
    assert stated
    text = text.replace(stated.group(1), "1" * 64, 1)
    path = tmp_path / "five.yaml"
    path.write_text(text)
    return path


def page_text(path: Path, language: str) -> str:
    """The page's text, its markup and soft hyphens taken out."""
    made = replay.page(str(path), commitment=WRONG, language=language).html
    made = re.sub(r"<(script|style)\b.*?</\1>", " ", made, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", made)).replace("\u00ad", "")


def shingles(text: str) -> set[str]:
    """Every run of four words (lower case; a token with a digit, such as a hash, is no
    word) in ``text``."""
    words = [w for w in re.findall(r"\w+", text.lower()) if not re.search(r"[\d_]", w)]
    return {" ".join(words[i:i + 4]) for i in range(len(words) - 3)}


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    path = tampered(tmp_path_factory.mktemp("tampered"))
    report = audit_file(str(path), WRONG)
    causes = {(p.kind, p.cause) for p in report.problems}
    assert {("chain", "first"), ("chain", "changed"), ("chain", "moved"),
            ("checkpoint", "posted"), ("commitment", "header"),
            ("commitment", "given")} <= causes, causes
    return path, report


def test_the_english_page_lists_each_problem_as_the_audit_prints_it(log):
    path, report = log
    text = replay.page(str(path), commitment=WRONG, language="en").html
    for problem in report.problems[:replay.SHOWN]:
        line = f"{problem.where(path.name)}: {problem.kind}: {problem.message}"
        assert replay.problem_text(problem, path.name, catalog.get("en")) == line
        assert html.escape(line, quote=False) in text or line in html.unescape(text)


@pytest.mark.parametrize("language", ["de", "pl"])
def test_a_german_or_polish_page_holds_no_english_sentence_of_a_problem(log, language):
    path, report = log
    shown = shingles(page_text(path, language))
    english = set().union(*(shingles(p.message) for p in report.problems))
    assert english and not shown & english, sorted(shown & english)
    t = catalog.get(language)
    flat = " ".join(page_text(path, language).split())
    for problem in report.problems[:replay.SHOWN]:
        worded = replay.problem_text(problem, path.name, t)
        assert worded.startswith(path.name) and " ".join(worded.split()) in flat, worded


@pytest.mark.parametrize("language", ["de", "pl"])
def test_every_kind_and_cause_is_worded_in_the_language(language):
    """Each cause the audit gives (:class:`~shmod.audit.findings.Problem`), and a kind
    worded by its kind alone, in German and Polish, with no English sentence."""
    t = catalog.get(language)
    problems = [
        Problem("chain", "broken hash chain: this entry is unchanged but out of place: it was "
                "written right after entry 3 (line 30); entries were moved, inserted or "
                "removed here", line=31, entry=5, cause="moved",
                facts=(("after", 3), ("line", 30))),
        Problem("chain", "broken hash chain: this entry is unchanged but out of place: it was "
                "written right after the header; entries were moved, inserted or removed "
                "here", line=31, entry=5, cause="moved", facts=(("after", 0), ("line", 0))),
        Problem("chain", f"{40 - MAX_LISTED} more chain problems not listed: only the first "
                f"{MAX_LISTED} of each kind are", cause="more",
                facts=(("count", 40 - MAX_LISTED), ("limit", MAX_LISTED))),
        Problem("rule", "the President may not nominate themselves", line=40, entry=9,
                rule="R-NOMINATE"),
        Problem("format", "entry 9 has no field 'kind'", line=40, entry=9),
        Problem("header", "R-SETUP: the header names no players", rule="R-SETUP"),
        Problem("unreadable", "not a YAML file", line=3),
    ]
    for problem in problems:
        worded = replay.problem_text(problem, "g.yaml", t)
        english = replay.problem_text(problem, "g.yaml", catalog.get("en"))
        assert worded.startswith("g.yaml") and worded != english
        assert not shingles(worded) & shingles(english), (worded, english)
        assert all(str(value) in worded for _, value in problem.facts if value), worded
