"""Output profiles for posts and PMs, one per forum engine (docs/posts.md, "Formats").

Each profile writes only markup its engine renders as installed, and falls back where the
engine has nothing: ``phpbb`` (phpBB's default BBCodes), ``phpbb-spoiler`` (the same and
the common custom ``[spoiler]``), ``xenforo`` (XenForo's built-in BB codes), ``discourse``
(Discourse's Markdown, tables and ``[details]``); and the generic ``plain``, ``markdown``
(CommonMark) and ``bbcode`` (the tags every BBCode engine has: no spoiler, so what is hidden
comes after a warning line, as on ``phpbb``).
A profile is chosen once per terminal (``SHMOD_FORMAT``) or per game (``shmod new
--forum``, a public header field); ``-f`` wins over both (:func:`chosen`).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from shmod.base import patterns
from shmod.texts import smilies
from shmod.texts.catalog import Language, get as language

#: What CommonMark (and Discourse's tables and strikethrough) reads as markup anywhere in a
#: line: a backslash, a code span, emphasis (``_`` only at a word's edge: ``snake_case``
#: is no emphasis), a link's brackets, raw HTML or an autolink, a table's cell border,
#: strikethrough, an entity (``&amp;``).
_MD_INLINE = patterns.later(r"[\\`*\[\]<|~]|(?<![^\W_])_|_(?![^\W_])|&(?=#?[0-9A-Za-z]+;)")
#: What it reads as markup only at the start of a line: a heading, a quote, a list item,
#: a setext underline.
_MD_BLOCK = patterns.later(
    r"(?m)^(\s*)(#|>|[-+](?=\s|$)|=+\s*$|-+\s*$)|^(\s*\d{1,9})([.)])(?=\s|$)")

#: How wide a line of plain text may be: a terminal's 80 columns.
COLUMNS = 80
#: What holds a name's words together while a line is folded (no name holds it: a log's
#: names have no control characters).
_GLUE = "\x00"

#: U+2060 WORD JOINER, invisible: after an "@" in a name, so that the name is no @mention
#: (an engine that notifies @name links whoever is called that, and refuses many in a
#: post); inside a smiley code, so that it is no emoji.
_JOINER = "\u2060"
_NO_MENTION = "@" + _JOINER
#: A BBCode tag that shows nothing: inside a smiley code or after a "[", text as typed.
_EMPTY = "[i][/i]"


def markdown_escaped(text: str, block: bool = True) -> str:
    """``text`` shown as written by a CommonMark engine, escaping only what would be read
    as markup (``2026-01-10``, ``(67%)`` and ``mu - 3 sigma`` stay as they are); not
    ``block``: where no block starts (a table's cell)."""
    text = _MD_INLINE.sub(lambda found: "\\" + found.group(), text)
    if not block:
        return text
    return _MD_BLOCK.sub(lambda found: (f"{found.group(1)}\\{found.group(2)}" if found.group(2)
                                        else f"{found.group(3)}\\{found.group(4)}"), text)


class Plain:
    """Plain text: what any forum shows as typed."""

    name = "plain"
    #: Whether the engine has a spoiler that hides text (else :meth:`spoiler` warns).
    hides_spoilers = False

    def __init__(self, lang: Language | None = None) -> None:
        #: The game's language: every word a player reads comes from it (catalog.py).
        self.lang = lang or language(None)

    def escape(self, text: str) -> str:
        return text

    def bold(self, text: str) -> str:
        return text

    def italic(self, text: str) -> str:
        return text

    def color(self, text: str, colour: str) -> str:
        return text

    def heading(self, text: str) -> str:
        return f"== {text} =="

    def bullets(self, items: list[str]) -> str:
        return "\n".join(f"- {item}" for item in items)

    def numbered(self, items: list[str]) -> str:
        return "\n".join(f"{n}. {item}" for n, item in enumerate(items, 1))

    def quote(self, text: str) -> str:
        return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))

    def status(self, text: str, whole: Iterable[str] = ()) -> str:
        """A post's status block (the board): quoted, each line within :data:`COLUMNS`
        with its ``> `` marker kept on every line it folds into, never broken inside one
        of ``whole`` (names)."""
        width = COLUMNS - 2  # the marker's two columns
        folded = [self._folded(line, whole, width) if len(line) > width else line
                  for line in text.split("\n")]
        return self.quote("\n".join(folded))

    def _folded(self, line: str, whole: Iterable[str], width: int) -> str:
        import textwrap

        for name in sorted({n for n in whole if " " in n}, key=len, reverse=True):
            line = line.replace(name, name.replace(" ", _GLUE))
        return "\n".join(textwrap.wrap(line, width, subsequent_indent="  ",
                                        break_long_words=False, break_on_hyphens=False)
                         ).replace(_GLUE, " ")

    def spoiler(self, title: str, text: str) -> str:
        """``text`` hidden behind ``title``; an engine without a spoiler hides nothing, so
        a warning line comes first and readers scroll past it at their own risk."""
        warning = self.bold(self.lang._("SPOILER: {title}. Do not read on if you do not want "
                                        "to see it.", title=title))
        return self.blocks([warning, text])

    def table(self, header: list[str], rows: list[list[str]]) -> str:
        """A grid: a header row and rows of cells, as the engine shows tables."""
        return _aligned([header, *rows])

    def lines(self, items: list[str]) -> str:
        """Lines of one paragraph, each shown on its own line."""
        return "\n".join(items)

    def fold(self, line: str, whole: Iterable[str] = ()) -> str:
        """``line`` within :data:`COLUMNS` (a terminal's width), its further lines indented,
        never broken inside one of ``whole`` (names); an engine that wraps text (every
        profile but plain) gets it as it is."""
        return line if len(line) <= COLUMNS else self._folded(line, whole, COLUMNS)

    def blocks(self, items: list[str]) -> str:
        """Paragraphs, lists and quotes one after another."""
        return "\n".join(item for item in items if item)


class Markdown(Plain):
    """CommonMark as Discourse and Reddit render it; the reveal in HTML ``<details>``."""

    name = "markdown"
    hides_spoilers = True

    def escape(self, text: str) -> str:
        return markdown_escaped(self.literal(text))

    def cell(self, text: str) -> str:
        """``text`` escaped for a table's cell, where no heading or list starts."""
        return markdown_escaped(self.literal(text), block=False)

    def literal(self, text: str) -> str:
        """``text`` with nothing the engine reads besides Markdown: no @mention (Discourse's
        engine would notify), no emoji."""
        return text

    def bold(self, text: str) -> str:
        return _flanked("**", text)

    def italic(self, text: str) -> str:
        return _flanked("*", text)

    def heading(self, text: str) -> str:
        return f"### {text}"

    def spoiler(self, title: str, text: str) -> str:
        return f"<details>\n<summary>{title}</summary>\n\n{text}\n\n</details>"

    def table(self, header: list[str], rows: list[list[str]]) -> str:
        def cells(row: list[str]) -> str:
            return "| " + " | ".join(self.cell(c) or " " for c in row) + " |"
        return "\n".join([cells(header), "|" + "---|" * len(header), *map(cells, rows)])

    def lines(self, items: list[str]) -> str:
        return "  \n".join(items)  # two trailing spaces: a hard line break everywhere

    def fold(self, line: str, whole: Iterable[str] = ()) -> str:
        return line  # the engine wraps

    def status(self, text: str, whole: Iterable[str] = ()) -> str:
        return self.quote(text)  # the engine wraps

    def blocks(self, items: list[str]) -> str:
        return "\n\n".join(item for item in items if item)


class Discourse(Markdown):
    """Discourse: CommonMark with tables; the reveal in its ``[details=…]`` block; no
    @mention ever (a post notifies at most ``max_mentions_per_post``, 10 by default)."""

    name = "discourse"

    def literal(self, text: str) -> str:
        """No @mention, no emoji shortcut or ``:name:`` (a word joiner cuts each code)."""
        return _JOINER.join(smilies.split(text, "discourse")).replace("@", _NO_MENTION)

    def spoiler(self, title: str, text: str) -> str:
        # A block: the opening and closing tags each alone on a line (bbcode-block rule).
        return f'[details="{title}"]\n\n{text}\n\n[/details]'


class BBCode(Plain):
    """Generic BBCode: the stock tags every engine has (b, i, u, color, list, quote, code).
    No spoiler: a board's ``[spoiler]`` is an addition, and where it is missing
    ``[spoiler=…]`` shows as text and hides nothing; so what is hidden follows the warning
    line (:meth:`Plain.spoiler`). Boards with one: ``phpbb-spoiler``, ``xenforo``."""

    name = "bbcode"
    #: The engine whose smiley codes are cut (:mod:`shmod.texts.smilies`): phpBB's.
    smiley_codes = "phpbb"

    def escape(self, text: str) -> str:
        """``text`` as typed: an empty tag after each "[" keeps it literal, and another cuts
        each smiley code (the engine matches codes in the text between tags)."""
        return _EMPTY.join(part.replace("[", f"[{_EMPTY}")
                           for part in smilies.split(text, self.smiley_codes))

    def bold(self, text: str) -> str:
        return f"[b]{text}[/b]"

    def italic(self, text: str) -> str:
        return f"[i]{text}[/i]"

    def color(self, text: str, colour: str) -> str:
        return f"[color={colour}]{text}[/color]"

    def heading(self, text: str) -> str:
        return f"[b][u]{text}[/u][/b]"

    def fold(self, line: str, whole: Iterable[str] = ()) -> str:
        return line  # the engine wraps

    def status(self, text: str, whole: Iterable[str] = ()) -> str:
        return self.quote(text)  # the engine wraps

    def bullets(self, items: list[str]) -> str:
        return "[list]\n" + "\n".join(f"[*]{item}" for item in items) + "\n[/list]"

    def numbered(self, items: list[str]) -> str:
        return "[list=1]\n" + "\n".join(f"[*]{item}" for item in items) + "\n[/list]"

    def quote(self, text: str) -> str:
        return f"[quote]{text}[/quote]"

    def table(self, header: list[str], rows: list[list[str]]) -> str:
        """An aligned grid in ``[code]`` (monospace, tags not read inside): most boards
        have no table tag. Only ``[/code]`` itself must not occur in it."""
        grid = re.sub(r"\[/code\]", "[/co de]", _aligned([header, *rows]), flags=re.IGNORECASE)
        return f"[code]{grid}[/code]"

    def tag_table(self, header: list[str], rows: list[list[str]]) -> str:
        """A ``[table]`` of ``[tr]`` rows, ``[th]`` header cells and ``[td]`` cells."""
        def tr(row: list[str], tag: str) -> str:
            return "[tr]" + "".join(f"[{tag}]{self.escape(c)}[/{tag}]" for c in row) + "[/tr]"
        return "[table]" + tr(header, "th") + "".join(tr(r, "td") for r in rows) + "[/table]"


class PhpBB(BBCode):
    """phpBB as installed: its default BBCodes only (b, i, u, color, size in per cent,
    list, quote, code, url, email, img). No spoiler: the reveal follows a warning line."""

    name = "phpbb"

    def heading(self, text: str) -> str:
        return f"[size=150][b]{text}[/b][/size]"  # phpBB's size is a percentage (max 200)


class PhpBBSpoiler(PhpBB):
    """phpBB with the custom ``[spoiler]`` BBCode most boards add; its title is not taken
    by every definition of the tag, so the title is a bold line above it."""

    name = "phpbb-spoiler"
    hides_spoilers = True

    def spoiler(self, title: str, text: str) -> str:
        return f"{self.bold(title)}\n[spoiler]{text}[/spoiler]"


class XenForo(BBCode):
    """XenForo's built-in BB codes: size 1 to 7, ``[spoiler="…"]``, ``[table]``; no
    @mention ever (XenForo links and notifies @names)."""

    name = "xenforo"
    hides_spoilers = True
    smiley_codes = "xenforo"

    def escape(self, text: str) -> str:
        return super().escape(text).replace("@", _NO_MENTION)

    def heading(self, text: str) -> str:
        return f"[size=5][b]{text}[/b][/size]"  # of 1 to 7; 4 is the text's own

    def spoiler(self, title: str, text: str) -> str:
        return f'[spoiler="{title}"]{text}[/spoiler]'

    def status(self, text: str, whole: Iterable[str] = ()) -> str:
        """The board as lines of their own: XenForo folds a ``[quote]`` taller than about
        200 pixels behind "Click to expand", and at a phone's width the board is."""
        return text

    table = BBCode.tag_table


#: Every profile by name: the generic three first, then the forum engines.
FORMATS: dict[str, type[Plain]] = {
    "plain": Plain, "markdown": Markdown, "bbcode": BBCode, "phpbb": PhpBB,
    "phpbb-spoiler": PhpBBSpoiler, "xenforo": XenForo, "discourse": Discourse,
}


def get(name: str, what: str = "format", lang: str | None = None) -> Plain:
    """The profile called ``name`` writing in language ``lang`` (English for ``None``);
    ``what`` names the option in the error."""
    from shmod.base.errors import BadInput

    try:
        profile = FORMATS[name]
    except KeyError:
        raise BadInput(f"unknown {what} {name!r} (choose {', '.join(FORMATS)})") from None
    return profile(language(lang))


def chosen(explicit: str | None, forum: str | None, lang: str | None = None) -> Plain:
    """The profile a command writes in: ``explicit`` (``-f``, else ``SHMOD_FORMAT``), else
    the game's ``forum`` (its log's header), else plain text; in the game's language
    ``lang`` (its header's, English for ``None``)."""
    if explicit:
        return get(explicit, lang=lang)
    if forum is None:
        return Plain(language(lang))
    if forum not in FORMATS:
        from shmod.base.errors import BadInput

        raise BadInput(f"the game's log names forum {forum!r}, which this shmod does not "
                       f"know (known: {', '.join(FORMATS)}); give -f FORMAT")
    return FORMATS[forum](language(lang))


def _flanked(mark: str, text: str) -> str:
    """``text`` between emphasis marks, its edge whitespace outside them: CommonMark reads
    ``**`` after a space as no closing mark (nor before one as an opening), so
    ``**waiting: **`` would show its asterisks."""
    core = text.strip()
    if not core:
        return text
    start = text.index(core)
    return f"{text[:start]}{mark}{core}{mark}{text[start + len(core):]}"


def _aligned(rows: list[list[str]]) -> str:
    """Rows of cells in columns, a rule of dashes under the first."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
