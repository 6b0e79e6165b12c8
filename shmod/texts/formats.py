"""Text formats for posts and PMs: BBCode (phpBB-style), Markdown (CommonMark), plain."""
from __future__ import annotations

import re

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~-])")


class Plain:
    """Plain text: what any forum shows as typed."""

    name = "plain"

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

    def spoiler(self, title: str, text: str) -> str:
        return f"{title} (spoiler):\n{text}"

    def lines(self, items: list[str]) -> str:
        """Lines of one paragraph, each shown on its own line."""
        return "\n".join(items)

    def blocks(self, items: list[str]) -> str:
        """Paragraphs, lists and quotes one after another."""
        return "\n".join(item for item in items if item)


class Markdown(Plain):
    """CommonMark as Discourse and Reddit render it."""

    name = "markdown"

    def escape(self, text: str) -> str:
        return _MD_SPECIAL.sub(r"\\\1", text)

    def bold(self, text: str) -> str:
        return f"**{text}**"

    def italic(self, text: str) -> str:
        return f"*{text}*"

    def heading(self, text: str) -> str:
        return f"### {text}"

    def numbered(self, items: list[str]) -> str:
        return "\n".join(f"{n}. {item}" for n, item in enumerate(items, 1))

    def quote(self, text: str) -> str:
        return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))

    def spoiler(self, title: str, text: str) -> str:
        return f"<details>\n<summary>{title}</summary>\n\n{text}\n\n</details>"

    def lines(self, items: list[str]) -> str:
        return "  \n".join(items)  # two trailing spaces: a hard line break everywhere

    def blocks(self, items: list[str]) -> str:
        return "\n\n".join(item for item in items if item)


class BBCode(Plain):
    """The tags phpBB-style forums accept: b, i, u, color, list, quote, spoiler."""

    name = "bbcode"

    def escape(self, text: str) -> str:
        return text.replace("[", "[[i][/i]")  # an empty tag after "[" keeps it literal

    def bold(self, text: str) -> str:
        return f"[b]{text}[/b]"

    def italic(self, text: str) -> str:
        return f"[i]{text}[/i]"

    def color(self, text: str, colour: str) -> str:
        return f"[color={colour}]{text}[/color]"

    def heading(self, text: str) -> str:
        return f"[b][u]{text}[/u][/b]"

    def bullets(self, items: list[str]) -> str:
        return "[list]\n" + "\n".join(f"[*]{item}" for item in items) + "\n[/list]"

    def numbered(self, items: list[str]) -> str:
        return "[list=1]\n" + "\n".join(f"[*]{item}" for item in items) + "\n[/list]"

    def quote(self, text: str) -> str:
        return f"[quote]{text}[/quote]"

    def spoiler(self, title: str, text: str) -> str:
        return f"[spoiler={title}]{text}[/spoiler]"


FORMATS: dict[str, type[Plain]] = {"plain": Plain, "markdown": Markdown, "bbcode": BBCode}


def get(name: str) -> Plain:
    """The formatter called ``name``."""
    from shmod.base.errors import BadInput

    try:
        return FORMATS[name]()
    except KeyError:
        raise BadInput(f"unknown format {name!r} (choose {', '.join(FORMATS)})") from None
