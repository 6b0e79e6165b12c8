"""Numbers as each language writes them: ``4.8`` in English, ``4,8`` in German and Polish.

The separators come from the Unicode CLDR's data for the language, through Babel
(imported only for a language other than English): written by hand, every new language
would need its own table, and CLDR has the data for each, checked by its speakers. English,
the pseudo-language of the tests (``qps``, a copy of English) and any language CLDR does
not know are written as Python writes them.
"""
from __future__ import annotations

from functools import lru_cache

from shmod.texts.catalog import ENGLISH, PSEUDO, Language


def decimal(value: float, lang: Language, places: int = 1) -> str:
    """``value`` rounded to ``places`` decimals as ``lang`` writes it, never ``-0.0``:
    ``4.8``, ``4,8``; no grouping of thousands."""
    rounded = round(value, places) + 0.0
    if lang.code in (ENGLISH, PSEUDO):
        return f"{rounded:.{places}f}"
    return _formatted(rounded, lang.code, places)


@lru_cache(maxsize=256)
def _formatted(value: float, code: str, places: int) -> str:
    from babel import Locale, UnknownLocaleError
    from babel.numbers import format_decimal

    try:
        locale = Locale.parse(code.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return f"{value:.{places}f}"
    return format_decimal(value, format="0." + "0" * places if places else "0", locale=locale)


__all__ = ["decimal"]
