"""R-DEAL, log formats 1 to 3 (logs already written): how each recorded a player's word and
keyed the deal by it, and what that left the moderator to choose.

Each format replays as it was written (docs/verify.md section 5.4 states each to the byte):
format 1 (an earlier shmod) recorded a word as typed, in NFC with white space single, and
keyed the deal by each seated name and word; format 2 recorded it in NFKC, case-folded
(:func:`canonical_word`), and keyed the deal by the recorded word; format 3 dropped
invisible characters too and keyed the deal by each word's look-alike skeleton
(:func:`word_key`). :mod:`shmod.forum.log_formats` names these functions in its rows.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence

from shmod.base.errors import RuleBroken
from shmod.forum.names import shown, skeleton, unseen
from shmod.forum.wordform import MAX_WORD

#: Bidirectional controls: they reorder what a post shows (U+202E shows ``nomel`` as
#: ``lemon``), so a word holding one could be transcribed as shown or as stored.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: A format-3 word with nothing to transcribe otherwise: small Latin letters and digits,
#: single spaces between them (every character shows, and only one way).
PLAIN_WORD = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")


def normal_word(text: str) -> str:
    """A word as a format-1 log recorded it: Unicode NFC, inner white space single."""
    import unicodedata  # only where a word is recorded: not worth every command's start-up

    return " ".join(unicodedata.normalize("NFC", text).split())


def canonical_word(text: str, keep_unseen: bool = False) -> str:
    """R-DEAL, formats 2 and 3: a word as it was recorded: NFKC, case-folded, NFKC again
    (``NFKC(casefold(NFKC(text)))``), then (format 3; format 2 passes ``keep_unseen``)
    every character that cannot be seen dropped (:func:`shmod.forum.names.unseen`), runs
    of white space made single spaces, and leading and trailing characters of Unicode
    categories P* and Z* dropped. ``Lemon!``, ``LEMON``, ``lemon`` and ``le\u200bmon`` are one
    word (docs/verify.md)."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    if not keep_unseen:
        folded = "".join(char for char in folded if not unseen(char))
    words = folded.split()
    if not words:
        return ""
    edge = 0
    joined = " ".join(words)
    while edge < len(joined) and unicodedata.category(joined[edge])[0] in "PZ":
        edge += 1
    end = len(joined)
    while end > edge and unicodedata.category(joined[end - 1])[0] in "PZ":
        end -= 1
    return " ".join(joined[edge:end].split())


def word_key(word: str) -> str:
    """R-DEAL (format 3): what a canonical word looks like, as the deal reads it: its
    UTS #39 skeleton (every character replaced by the one Unicode's confusables data says
    it looks like), case-folded. ``lemon`` typed with a Cyrillic ``\\u0435`` or a Greek ``\\u03bf``
    deals as ``lemon``."""
    return skeleton(word).casefold()


def record_1(text: str) -> str:
    """Format 1: the word as typed, in NFC, white space single."""
    return normal_word(text)


def record_2(text: str) -> str:
    """Format 2: the word canonical, invisible characters kept."""
    return canonical_word(text, keep_unseen=True)


def record_3(text: str) -> str:
    """Format 3: the word canonical; a word holding a bidirectional control is refused
    (R-DEAL): the moderator types the word as the post shows it."""
    if BIDI_CONTROLS & set(text):
        raise RuleBroken("R-DEAL", f"the word {shown(text)} holds a right-to-left or "
                         "left-to-right control, which changes the order its letters show in: "
                         "type the word as the post shows it, letter by letter")
    return canonical_word(text)


def _check(word: str, canonical: str | None, unseen_too: bool) -> None:
    """A recorded word of formats 1 to 3 (R-DEAL): canonical as its format made it
    (``canonical``: None in format 1, which kept a word as typed)."""
    if canonical is not None and word != canonical:
        raise RuleBroken("R-DEAL", f"the word {shown(word)} is recorded in its canonical form "
                         f"{shown(canonical)} (Unicode NFKC, case-folded, "
                         "without leading or trailing punctuation and spaces"
                         f"{', without invisible characters' if unseen_too else ''}), so that "
                         "nobody chooses how a post is transcribed")
    if word != normal_word(word):
        raise RuleBroken("R-DEAL", f"the word {word!r} must be written as posted, without "
                         "leading, trailing or doubled spaces")
    if len(word) > MAX_WORD:
        raise RuleBroken("R-DEAL", f"a word is at most {MAX_WORD} characters; {word[:20]!r}… "
                         f"has {len(word)}")


def check_1(word: str) -> None:
    """A recorded word of format 1: as typed, white space single, at most 40 characters."""
    _check(word, None, False)


def check_2(word: str) -> None:
    """A recorded word of format 2: canonical, invisible characters kept."""
    _check(word, record_2(word), False)


def check_3(word: str) -> None:
    """A recorded word of format 3: canonical, invisible characters dropped."""
    _check(word, canonical_word(word), True)


def _quoted(word: str) -> str:
    return json.dumps(word, ensure_ascii=False)


def message_1(words: Sequence[str], names: Sequence[str]) -> str:
    """What a format-1 log's words' seed is the HMAC of: each seated name and its word."""
    return "shmod-words 1\n" + "".join(f"{_quoted(name)} {_quoted(word)}\n"
                                       for name, word in zip(names, words))


def message_2(words: Sequence[str], names: Sequence[str]) -> str:
    """Format 2: ``shmod-words 2``, then each seat's number and recorded word as JSON."""
    return "shmod-words 2\n" + "".join(f"{seat} {_quoted(word)}\n"
                                       for seat, word in enumerate(words, 1))


def message_3(words: Sequence[str], names: Sequence[str]) -> str:
    """Format 3: ``shmod-words 3``, then each seat's number and its word's look-alike key
    (:func:`word_key`) as JSON."""
    return "shmod-words 3\n" + "".join(f"{seat} {_quoted(word_key(word))}\n"
                                       for seat, word in enumerate(words, 1))


def choice_1(words: Sequence[str]) -> str | None:
    """What format 1's words deal left the moderator to choose (the audit warns)."""
    return ("the deal was keyed by the names seated when the last word came in and the words "
            "as typed (format 1): a rename or the way a word was typed could have moved it")


def choice_2(words: Sequence[str]) -> str | None:
    """What format 2's words deal left the moderator to choose (the audit warns)."""
    odd = [w for w in words if not w.isascii()]
    beyond = f" (here {', '.join(map(repr, odd))}, beyond ASCII)" if odd else ""
    return ("format 2 dealt each word as typed: a look-alike spelling of a posted word (rn for "
            f"m, a Cyrillic \u0435 for e, an invisible character{beyond}) could have moved the "
            "deal; format 4 deals plain letters a-z and digits")


def choice_3(words: Sequence[str]) -> str | None:
    """What format 3's words deal left the moderator to choose, where a word is more than
    plain letters, digits and spaces (the audit warns)."""
    unplain = [w for w in words if not PLAIN_WORD.fullmatch(w)]
    if not unplain:
        return None
    return ("format 3 dealt each word by its look-alike skeleton (Unicode's confusables data), "
            "which left a choice wherever a word is more than letters a-z, digits and spaces "
            f"(here {', '.join(map(repr, unplain))}): a dotless \u0131 with a dot above looks "
            "like i and dealt otherwise, and markup a forum shows otherwise (c&shy;herry shows "
            "as cherry) dealt as written; format 4 refuses both")
