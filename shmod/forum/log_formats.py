"""The log formats: one record per format, what its header's ``shmod:`` means.

A log is replayed and audited by the rules of the format it was written in, forever: a log
that audited VALID still does. Everything that differs between formats is a field of its
:class:`LogFormat` (a :class:`shmod.forum.table.Setup` holds its log's as ``format``), and
every module reads the field, never the number: what the commitment frames, whether
checkpoints are signed, how a lapse draws and whether a deadline lapses once, how a word
is recorded, checked on replay and keyed in the deal, and what that left the moderator to
choose. A new format is one row of :data:`FORMATS` and the functions it names; shmod writes
:data:`CURRENT`. docs/verify.md section 2's table is :func:`markdown_table` (a test keeps
it current; ``python -m shmod.forum.log_formats`` prints it), and no module outside this
one compares a format's number (``tests/test_log_formats.py`` scans for it).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from shmod.base.errors import BadInput
from shmod.base.records import Record
from shmod.forum import earlier_words, wordform, wordkey

#: How a lapse's random choice is labelled in the seed's stream: by the lapse's entry
#: number, or by the decision it makes (round, phase, power, seat awaited; R-LAPSE).
LapseLabel = Literal["entry", "decision"]
#: How it picks: an index among the options, or each option's own number, the lowest.
LapseDraw = Literal["index", "lowest"]
#: How a format's deal reads the words (the audit's deal sentence names it).
WordsKind = Literal["names", "canonical", "skeleton", "latin", "lookalike"]


class Words(Record):
    """R-DEAL: how a log format records the players' words and keys the deal by them."""

    kind: WordsKind
    recorded: str  # docs/verify.md section 2: a word as recorded
    keyed: str  # docs/verify.md section 2: what the words' seed reads
    record: Callable[[str], str]  # a typed word as the log records it (or RuleBroken)
    check: Callable[[str], None]  # a recorded word, on replay (RuleBroken if it is not one)
    message: Callable[[Sequence[str], Sequence[str]], str]  # (words, names): the HMAC's input
    choice: Callable[[Sequence[str]], str | None]  # what the rule left to choose (audit)
    forum: bool = False  # a word the game's forum shows otherwise is refused where typed


class LogFormat(Record):
    """One log format (docs/verify.md section 2)."""

    number: int  # the header's ``shmod:``, and the commitment's version
    frames: tuple[str, ...]  # what the commitment frames after the salt, line by line
    signed: bool  # checkpoints signed with the moderator's key (else tagged with the salt)
    lapse_label: LapseLabel
    lapse_draw: LapseDraw
    lapse_once: bool  # a deadline lapses once; a decision due after it waits (R-LAPSE)
    words: Words
    #: A replacement by the seat's own player, or a rename to the name it has, is refused
    #: (R-REPLACE, R-RENAME); earlier logs may hold one, which changed nothing.
    refuses_no_ops: bool = False

    def __repr__(self) -> str:
        return f"LogFormat({self.number})"


FORMATS: dict[int, LogFormat] = {format_.number: format_ for format_ in (
    # An earlier shmod: deals from the players' words by name, draws a lapse's random
    # choice by entry number, tags checkpoints with the salt.
    LogFormat(1, (), signed=False, lapse_label="entry", lapse_draw="index", lapse_once=False,
              words=Words("names", "NFC, spaces single", "each seated name and word",
                          earlier_words.record_1, earlier_words.check_1,
                          earlier_words.message_1, earlier_words.choice_1)),
    # Signed checkpoints; deals from each seat's word with invisible characters and
    # look-alike letters kept apart; draws a power's target by its index among the seats
    # it may target (a removal moves it).
    LogFormat(2, ("moderator_key",), signed=True, lapse_label="decision", lapse_draw="index",
              lapse_once=True,
              words=Words("canonical", "NFKC case-folded (5.4)", "each seat's word",
                          earlier_words.record_2, earlier_words.check_2,
                          earlier_words.message_2, earlier_words.choice_2)),
    # Keys the deal by what a word looks like, and draws each option's own number, so
    # removing another seat moves nothing (R-LAPSE).
    LogFormat(3, ("moderator_key",), signed=True, lapse_label="decision", lapse_draw="lowest",
              lapse_once=True,
              words=Words("skeleton", "as format 2, invisible characters dropped",
                          "each seat's word's skeleton (5.4)",
                          earlier_words.record_3, earlier_words.check_3,
                          earlier_words.message_3, earlier_words.choice_3)),
    # Records each word in plain a-z and 0-9 and deals from that (R-DEAL, wordform).
    LogFormat(4, ("moderator_key",), signed=True, lapse_label="decision", lapse_draw="lowest",
              lapse_once=True,
              words=Words("latin", "`a`-`z`, `0`-`9` only (5.3)", "each seat's word",
                          wordform.latin_word, wordform.check_4, wordform.message_4,
                          wordkey.choice_4)),
    # Refuses symbols, and keys the deal by each word's look-alike key, so a transcription
    # (rn for m, 0 for o) moves nothing; commits whether the moderator supplied the seed
    # and whether they chose the first President (else the seed's draw is checked).
    LogFormat(5, ("moderator_key", "seed_source", "first_chosen"), signed=True,
              lapse_label="decision",
              lapse_draw="lowest", lapse_once=True,
              words=Words("lookalike", "as format 4, symbols refused (5.3)",
                          "each seat's word's look-alike key (5.3)",
                          wordkey.record_5, wordform.check_4, wordkey.message_5,
                          wordkey.choice_5, forum=True), refuses_no_ops=True),
)}
#: The format ``shmod new`` writes.
CURRENT = FORMATS[5]


def read(value: Any) -> LogFormat:
    """The format a header's ``shmod:`` names, or :class:`BadInput` naming those read."""
    found = next((format_ for format_ in FORMATS.values()
                  if not isinstance(value, bool) and format_.number == value), None)
    if found is None:
        earlier = ", ".join(str(number) for number in FORMATS if number != CURRENT.number)
        raise BadInput(f"shmod: {value!r} is not a log format this shmod reads "
                       f"(expected shmod: {CURRENT.number}, or {earlier} "
                       "for a log of an earlier shmod)")
    return found


#: docs/verify.md section 2: how each frame after the salt is described.
_FRAMES = {"moderator_key": "the key line", "seed_source": "the `seed_source` line",
           "first_chosen": "the `first_chosen` line"}
_LABELS = {"entry": "label `lapse-ENTRY`", "decision": "decision label"}
_DRAWS = {"index": "an index", "lowest": "a number for each option"}


def _rows() -> list[tuple[str, list[str], bool]]:
    """The table's rows: (what, a cell per format, whether a cell repeating an earlier
    format's reads "as format N")."""
    rows = list(FORMATS.values())
    return [
        ("written by", ["`shmod new` now" if f is CURRENT else "an earlier shmod"
                        for f in rows], False),
        ("commitment", [f"version {f.number}"
                        + ("" if "moderator_key" in f.frames else ", no key line")
                        + "".join(f", {_FRAMES[frame]}" for frame in f.frames
                                  if frame != "moderator_key") for f in rows], False),
        ("a word as recorded", [f.words.recorded for f in rows], False),
        ("the words' seed reads", [f.words.keyed for f in rows], False),
        ("a lapse's draw", [f"{_LABELS[f.lapse_label]}, {_DRAWS[f.lapse_draw]}"
                            for f in rows], True),
        ("a deadline", ["lapses once (R-LAPSE)" if f.lapse_once else "may lapse again"
                        for f in rows], True),
        ("checkpoint line", ["value and a signature" if f.signed else "value and a tag (salt)"
                             for f in rows], True),
        ("a replacement or rename that changes nothing", [
            "refused (R-REPLACE, R-RENAME)" if f.refuses_no_ops else "recorded"
            for f in rows], True),
    ]


def markdown_table() -> str:
    """docs/verify.md section 2's table of the formats, from the records."""
    numbers = list(FORMATS)
    lines = ["| | " + " | ".join(f"format {n}" for n in numbers) + " |",
             "|---" * (len(numbers) + 1) + "|"]
    for what, cells, repeat in _rows():
        shown = []
        for at, cell in enumerate(cells):
            first = cells.index(cell)
            shown.append(f"as format {numbers[first]}" if repeat and first < at else cell)
        lines.append(f"| {what} | " + " | ".join(shown) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
