"""The pictures' typeface for words beyond ASCII: DejaVu Sans, regular and bold, cut to the
Latin letters of every language (``fonts/LICENSE`` says how each subset was made).

A picture whose words are all ASCII is drawn in Pillow's built-in font as it always was;
one with any other letter (ą, ł, ä, ß, a name like Zoë) is drawn in this typeface
throughout, its bold words in the real bold face (a thickened regular blurs: "Sieg" read
"Sleg"). Imported only for such a picture (tests/test_startup.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import ImageFont

FOLDER = Path(__file__).with_name("fonts")
REGULAR = str(FOLDER / "DejaVuSans-Latin.ttf")
BOLD = str(FOLDER / "DejaVuSans-Bold-Latin.ttf")

_LOADED: dict[tuple[int, bool], ImageFont.FreeTypeFont] = {}


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The typeface at ``size`` pixels, bold or regular (each loaded once)."""
    from PIL import ImageFont

    key = (size, bold)
    if key not in _LOADED:
        _LOADED[key] = ImageFont.truetype(BOLD if bold else REGULAR, size)
    return _LOADED[key]
