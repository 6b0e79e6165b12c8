"""The message catalogs: Babel's extract, update and compile cycle in one command.

    python tools/catalog.py              # extract the template, update every catalog, compile
    python tools/catalog.py --check      # say what is stale and exit 1 (tests/test_catalog.py)
    python tools/catalog.py --init xx    # start the catalog of language xx, then translate it

It also writes the glossary of docs/languages.md (every ``term:`` message in every
language) between its ``<!-- glossary -->`` markers.

The template ``shmod/texts/locale/shmod.pot`` holds every message the code marks
(:mod:`shmod.texts.catalog`: ``_``, ``_p``, ``_n``, ``_np``, ``N_``, ``Np_``); each
language's ``<code>/LC_MESSAGES/shmod.po`` is updated from it (a changed English message
becomes fuzzy: its translation is looked at again before it counts) and compiled to the
``shmod.mo`` beside it, which shmod reads and ``pip install`` ships. Babel is a tool of
the developers (the ``test`` extra), not of shmod at run time: gettext reads the ``.mo``.
"""
from __future__ import annotations

import argparse
import gettext
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "languages.md"
MARKERS = ("<!-- glossary -->\n", "<!-- /glossary -->\n")
LOCALE = ROOT / "shmod" / "texts" / "locale"
TEMPLATE = LOCALE / "shmod.pot"
#: The marking functions of shmod.texts.catalog, as Babel's keyword specs.
KEYWORDS = {"_": None, "_p": ((1, "c"), 2), "_n": (1, 2), "_np": ((1, "c"), 2, 3),
            "N_": None, "Np_": ((1, "c"), 2)}
#: A fixed date in the template's header, so that extracting twice writes the same bytes.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
WIDTH = 100
HEADER = ("# Every word shmod's players read (shmod/texts/catalog.py). Made by tools/catalog.py:\n"
          "# do not edit the template; translate a language's shmod.po.")


def extract() -> Catalog:
    """Every marked message of ``shmod/``, with the translators' comments (``# TRANSLATORS:``)."""
    template = Catalog(project="shmod", creation_date=EPOCH, revision_date=EPOCH,
                       charset="utf-8", fuzzy=False, header_comment=HEADER,
                       copyright_holder="the shmod developers")
    found = extract_from_dir(str(ROOT / "shmod"), method_map=[("**.py", "python")],
                             keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                             strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(f"shmod/{filename}", lineno)], auto_comments=comments,
                     context=context)
    return template


def languages() -> list[str]:
    """The languages with a catalog."""
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/shmod.po"))


def po_path(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "shmod.po"


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, include_lineno=False, ignore_obsolete=True)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def done(message: Message) -> bool:
    """Whether ``message`` is translated and not fuzzy (a plural: in every form)."""
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(forms) and all(forms) and not message.fuzzy


def keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    """Each message's id (a pair for a plural) and context."""
    return {(m.id, m.context) for m in catalog if m.id}


def compiled(data: bytes) -> dict[object, str]:
    """A compiled catalog's messages, its header left out (it names the Babel version)."""
    messages = dict(gettext.GNUTranslations(io.BytesIO(data))._catalog)  # type: ignore[attr-defined]
    messages.pop("", None)
    return messages


def glossary(template: Catalog) -> str:
    """The glossary table: each term (``term:`` context) in English and each language."""
    codes = languages()
    catalogs = {code: read(po_path(code), code) for code in codes}
    terms = sorted((m.context or "", m.id) for m in template
                   if m.id and (m.context or "").startswith("term:") and isinstance(m.id, str))
    head = ["what", "English", *codes]
    rows = [head, ["---"] * len(head)]
    for context, msgid in terms:
        row = [context.removeprefix("term:"), msgid]
        for code in codes:
            found = catalogs[code].get(msgid, context)
            done = found is not None and isinstance(found.string, str) and found.string
            row.append(str(found.string) if done and found and not found.fuzzy else "—")
        rows.append(row)
    return "".join("| " + " | ".join(map(str, row)) + " |\n" for row in rows)


def with_glossary(text: str, table: str) -> str:
    start, end = text.index(MARKERS[0]) + len(MARKERS[0]), text.index(MARKERS[1])
    return text[:start] + table + text[end:]


def update() -> None:
    """Extract the template, update every catalog from it and compile each."""
    template = extract()
    TEMPLATE.write_bytes(po_bytes(template))
    for code in languages():
        catalog = read(po_path(code), code)
        catalog.update(template)
        po_path(code).write_bytes(po_bytes(catalog))
        po_path(code).with_suffix(".mo").write_bytes(mo_bytes(catalog))
        print(f"{code}: {len(keys(catalog))} messages, "
              f"{sum(1 for m in catalog if m.id and not done(m))} to translate")
    DOCS.write_text(with_glossary(DOCS.read_text(), glossary(template)))


def init(code: str) -> None:
    """Start the catalog of ``code`` from the template (Babel's plural rule for it)."""
    path = po_path(code)
    if path.exists():
        sys.exit(f"{path} exists already")
    catalog = Catalog(locale=code, project="shmod", creation_date=EPOCH, revision_date=EPOCH,
                      charset="utf-8", fuzzy=False, header_comment=HEADER,
                      copyright_holder="the shmod developers")
    catalog.update(read(TEMPLATE))
    path.parent.mkdir(parents=True)
    path.write_bytes(po_bytes(catalog))
    path.with_suffix(".mo").write_bytes(mo_bytes(catalog))
    print(f"{path}: translate it, then run python tools/catalog.py")


def stale() -> list[str]:
    """What is out of date: the template against the code, each catalog against the
    template, each compiled catalog against its source."""
    problems = []
    template = extract()
    if keys(template) != keys(read(TEMPLATE)):
        missing = keys(template) - keys(read(TEMPLATE))
        gone = keys(read(TEMPLATE)) - keys(template)
        problems.append(f"{TEMPLATE.relative_to(ROOT)} is stale: {len(missing)} new, "
                        f"{len(gone)} gone (e.g. {sorted(map(str, missing | gone))[:3]})")
    for code in languages():
        catalog = read(po_path(code), code)
        if keys(catalog) != keys(template):
            problems.append(f"{po_path(code).relative_to(ROOT)} is not updated from the "
                            "template")
        shipped = po_path(code).with_suffix(".mo")
        if not shipped.exists() or compiled(shipped.read_bytes()) != compiled(mo_bytes(catalog)):
            problems.append(f"{shipped.relative_to(ROOT)} is not compiled from its .po")
    if with_glossary(DOCS.read_text(), glossary(template)) != DOCS.read_text():
        problems.append(f"{DOCS.relative_to(ROOT)}'s glossary is not the catalogs'")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="say what is stale, exit 1")
    parser.add_argument("--init", metavar="CODE", help="start the catalog of a language")
    args = parser.parse_args()
    if args.init:
        init(args.init)
    elif args.check:
        problems = stale()
        print("\n".join(problems) or "every catalog is up to date")
        sys.exit(1 if problems else 0)
    else:
        update()


if __name__ == "__main__":
    main()
