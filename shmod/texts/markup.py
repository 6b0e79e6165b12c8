"""How the texts mark up words in a sentence of the game's language: a policy's colour,
the ballots, and words a message marks up itself between its fields ``{on}`` and
``{off}`` (:func:`marks`), so that a translation inflects them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from shmod.game.terms import LIBERAL, Policy
from shmod.texts import glossary
from shmod.texts.formats import Plain

LIB_COLOUR, FAS_COLOUR = "#1f6fb2", "#c0392b"


def marks(wrap: Callable[[str], str]) -> dict[str, str]:
    """The markup ``wrap`` puts around a text, as the fields ``on`` and ``off`` of a
    message that marks up words of its own ("enacted a {on}Liberal{off} policy")."""
    on, off = wrap("\0").split("\0")
    return {"on": on, "off": off}


def paint(fmt: Plain, card: Policy) -> Callable[[str], str]:
    """A policy's markup: bold, and coloured by party where the format allows."""
    colour = LIB_COLOUR if card == LIBERAL else FAS_COLOUR
    return lambda text: fmt.color(fmt.bold(text), colour)


def policy(fmt: Plain, card: Policy) -> str:
    """A policy's name, coloured by party where the format allows."""
    return paint(fmt, card)(glossary.policy(fmt.lang, card))


def cards(fmt: Plain, pile: Iterable[Policy], *, compact: bool = False) -> str:
    """A list of policies, each in bold and colour; ``compact``: each run of one party
    coloured once and not bold (forums cap a post's length, and the reveal names every
    card of the game)."""
    if not compact:
        return ", ".join(policy(fmt, c) for c in pile)
    runs: list[list[Policy]] = []
    for card in pile:
        if runs and runs[-1][0] == card:
            runs[-1].append(card)
        else:
            runs.append([card])
    return ", ".join(fmt.color(", ".join(glossary.policy(fmt.lang, c) for c in run),
                               LIB_COLOUR if run[0] == LIBERAL else FAS_COLOUR)
                     for run in runs)


def ballots() -> dict[str, str]:
    """The ballots as the fields ``ja`` and ``nein``: the same in every language."""
    return {"ja": glossary.ballot(True), "nein": glossary.ballot(False)}
