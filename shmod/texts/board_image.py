"""``shmod board --png/--svg``: the public board as a picture for the thread.

The picture is laid out once, from the public view only, as a list of shapes; two small
writers turn that list into SVG (written directly) or PNG (Pillow, the optional
``shmod[images]`` extra). 800 px wide, legible at forum width, and colour-blind safe:
Liberal and Fascist differ in label and in shape (a Fascist slot has a cut corner and
stripes), never in colour alone. :func:`describe` says the same in words, for the post's
alt text.
"""
from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from shmod.base.records import Record
from shmod.game.terms import EXECUTE, FASCIST, INVESTIGATE, LIBERAL, PEEK, SPECIAL, Power
from shmod.texts import glossary, phrases
from shmod.texts.catalog import Language, Np_, Term, get as language
from shmod.texts.views import PublicView

if TYPE_CHECKING:
    from PIL import Image

WIDTH = 800
BLUE, RED, INK, PAPER, GREY = "#1f5fa8", "#b03a2e", "#1b1b1b", "#fbf8f0", "#8a8a8a"
# TRANSLATORS: a power as its slot of the board picture labels it, in at most two short
# lines (the line break where it is split).
SHORT: dict[Power, Term] = {INVESTIGATE: Np_("board slot", "Investigate"),
                            SPECIAL: Np_("board slot", "Special\nElection"),
                            PEEK: Np_("board slot", "Policy\nPeek"),
                            EXECUTE: Np_("board slot", "Execution")}


class Shape(Record):
    """One thing to draw: ``rect`` (x, y, w, h), ``circle`` (cx, cy, r, r), ``line``
    (x1, y1, x2, y2) or ``text`` (x, y, size, anchor 0 left / 1 centre)."""

    kind: str
    box: tuple[int, int, int, int]
    fill: str = "none"
    stroke: str = "none"
    text: str = ""
    bold: bool = False


#: The most characters of the line that says how the game ended (a longer one wraps): what
#: fits in the picture's width at 18 px bold, in Pillow's own font (an all-ASCII picture)
#: and in the Latin typeface's real bold face (any other, :mod:`shmod.texts.typeface`).
RESULT_WIDTH, LATIN_RESULT_WIDTH = 80, 66


def layout(view: PublicView, lang: Language | None = None) -> tuple[list[Shape], int]:
    """The shapes of the board and the picture's height, labelled in ``lang`` (English by
    default)."""
    t = lang or language(None)
    out: list[Shape] = []
    y = 16
    out.append(Shape("text", (WIDTH // 2, y + 26, 26, 1), INK,
                     text=t._("Secret Hitler: the board"), bold=True))
    y += 50
    y = _track(out, y, t._("Liberal policies"), view.liberal, view.liberal_win, BLUE, LIBERAL,
               [None] * view.liberal_win, view, t)
    y = _track(out, y + 10, t._("Fascist policies"), view.fascist, view.fascist_win, RED,
               FASCIST, list(view.powers) + [None] * (view.fascist_win - len(view.powers)),
               view, t)
    y = _tracker(out, y + 8, view, t)
    y = _seating(out, y + 14, view, t)
    if view.winner is not None:  # a finished game's board says how it ended
        import textwrap

        result = _result(view, t)
        latin = not result.isascii() or not all(s.text.isascii() for s in out)
        for line in textwrap.wrap(result, LATIN_RESULT_WIDTH if latin else RESULT_WIDTH):
            out.append(Shape("text", (24, y + 24, 18, 0), INK, text=line, bold=True))
            y += 24
        y += 10
    return out, y + 16


def _result(view: PublicView, t: Language) -> str:
    assert view.winner is not None and view.win is not None
    # TRANSLATORS: the end of the board picture and its alt text; {reason} is how the
    # game was won, a sentence of its own (e.g. "Hitler (Eve) was executed").
    return glossary.won(t, view.winner, "Game over: the {team} win. {reason}.",
                        reason=phrases.win(t, view.win, capital=True))


def _track(out: list[Shape], y: int, title: str, done: int, win: int, colour: str,
           policy: str, powers: list[Power | None], view: PublicView, t: Language) -> int:
    out.append(Shape("text", (24, y + 20, 20, 0), colour, text=title, bold=True))
    y += 30
    gap, slot_w = 10, (WIDTH - 48 - 10 * 5) // 6
    slot_h = 96
    fascist = policy == FASCIST
    for n in range(1, win + 1):
        x = 24 + (n - 1) * (slot_w + gap)
        filled = n <= done
        out.append(Shape("rect", (x, y, slot_w, slot_h), colour if filled else PAPER, colour))
        if fascist:  # the cut corner: Fascist slots differ in shape, not only in colour
            out.append(Shape("line", (x + slot_w - 22, y, x + slot_w, y + 22), INK))
        if filled:
            if fascist:
                for k in range(0, slot_w + slot_h, 18):
                    out.append(Shape("line", (x + max(0, k - slot_h), y + min(slot_h, k),
                                              x + min(slot_w, k), y + max(0, k - slot_w)),
                                     "#d9867c"))
            out.append(Shape("text", (x + slot_w // 2, y + 58, 40, 1), PAPER,
                             text=glossary.letters(t, policy), bold=True))
            out.append(Shape("text", (x + slot_w // 2, y + 86, 14, 1), PAPER,
                             text=glossary.policy(t, policy)))
        else:
            power = powers[n - 1]
            label = (t._p("board slot", "win") if n == win else
                     t.term(SHORT[power]) if power else "")
            for k, part in enumerate(label.split("\n")):
                out.append(Shape("text", (x + slot_w // 2, y + 44 + 20 * k, 16, 1), colour,
                                 text=part, bold=n == win))
        zones = []
        if fascist and view.hitler_zone < n < win:
            zones.append(t._p("board slot", "Hitler zone"))
        if fascist and n == view.veto_zone < win:
            zones.append(t._p("board slot", "veto unlocked"))
        if zones:
            out.append(Shape("text", (x + slot_w // 2, y + slot_h + 16, 13, 1), INK,
                             text=", ".join(zones)))
    return y + slot_h + (24 if fascist else 8)


def _tracker(out: list[Shape], y: int, view: PublicView, t: Language) -> int:
    out.append(Shape("text", (24, y + 20, 18, 0), INK, text=t._("Election Tracker"),
                     bold=True))
    for n in range(1, view.chaos_at + 1):
        cx = 230 + (n - 1) * 44
        out.append(Shape("circle", (cx, y + 14, 14, 14),
                         INK if n <= view.tracker else PAPER, INK))
    # TRANSLATORS: beside the Election Tracker's circles: its count of the limit, then
    # the sizes of the two piles.
    out.append(Shape("text", (230 + view.chaos_at * 44, y + 20, 16, 0), INK,
                     text=t._("{tracker}/{limit}   Draw pile: {draw}   Discard pile: {discard}",
                              tracker=view.tracker, limit=view.chaos_at,
                              draw=view.draw_size, discard=view.discard_size)))
    return y + 34


def _seating(out: list[Shape], y: int, view: PublicView, t: Language) -> int:
    out.append(Shape("text", (24, y + 20, 18, 0), INK, text=t._("Seating"), bold=True))
    y += 30
    for seat, (name, why) in enumerate(zip(view.players, _markers(view, t)), 1):
        alive = view.alive[seat - 1]
        colour = INK if alive else GREY
        out.append(Shape("text", (24, y + 18, 17, 0), colour, text=f"{seat}. {name}",
                         bold=name == view.president and view.winner is None))
        out.append(Shape("text", (300, y + 18, 15, 0), colour, text=why))
        if not alive:
            out.append(Shape("line", (22, y + 12, 280, y + 12), GREY))
        y += 26
    return y


def _markers(view: PublicView, t: Language) -> list[str]:
    limited = dict(view.term_limited)
    electing = view.phase in ("nominate", "vote")
    out = []
    for name, alive in zip(view.players, view.alive):
        marks = []
        if view.winner is None and name == view.president:
            marks.append(glossary.office_in(t, "candidate" if electing else "president"))
        if view.winner is None and name == view.chancellor:
            marks.append(t._p("seat marker", "Chancellor nominee") if electing else
                         glossary.office_in(t, "chancellor"))
        if name in limited:
            marks.append(t._p("seat marker", "term-limited"))
        if name in view.not_hitler:
            marks.append(t._p("seat marker", "not Hitler"))
        if not alive:
            marks.append(t._p("seat marker", "removed") if name in view.removed else
                         t._p("seat marker", "dead"))
        out.append(", ".join(marks))
    return out


def describe(view: PublicView, lang: Language | None = None) -> str:
    """The picture in words (alt text), in ``lang`` (English by default)."""
    t = lang or language(None)
    # TRANSLATORS: a Fascist slot's number and the power on it, in the board's alt text.
    powers = ", ".join(t._("{slot}: {power}", slot=n, power=glossary.power(t, p))
                       for n, p in enumerate(view.powers, 1) if p)
    # TRANSLATORS: a seat in the board's alt text, with its markers (e.g. "President, dead").
    people = "; ".join(t._("{name} ({markers})", name=name, markers=why) if why else name
                       for name, why in zip(view.players, _markers(view, t)))
    # TRANSLATORS: the board picture's alt text (what a screen reader says). {liberal} and
    # {fascist} are the tracks, e.g. "2 of 5 Liberal policies"; {powers} lists the powers
    # by slot, or says none; {hitler_zone} and {veto_zone} are slot numbers.
    text = t._("Board: {liberal}, {fascist} (powers on Fascist slots {powers}; Hitler elected "
               "Chancellor wins after {hitler_zone}, veto after {veto_zone}). Election "
               "Tracker {tracker} of {limit}. Draw pile {draw}, discard pile {discard}. "
               "Seating: {seating}.",
               liberal=t._n("{done} of {n} Liberal policy", "{done} of {n} Liberal policies",
                            view.liberal_win, done=view.liberal),
               fascist=t._n("{done} of {n} Fascist policy", "{done} of {n} Fascist policies",
                            view.fascist_win, done=view.fascist),
               powers=powers or t._p("powers on slots", "none"),
               hitler_zone=view.hitler_zone, veto_zone=view.veto_zone, tracker=view.tracker,
               limit=view.chaos_at, draw=view.draw_size, discard=view.discard_size,
               seating=people)
    return text + (f" {_result(view, t)}" if view.winner is not None else "")


def svg(view: PublicView, lang: Language | None = None) -> str:
    """The board as an SVG document, in ``lang`` (English by default)."""
    shapes, height = layout(view, lang)
    label = quoteattr(describe(view, lang))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label={label}>',
           f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>']
    for s in shapes:
        a, b, c, d = s.box
        if s.kind == "rect":
            out.append(f'<rect x="{a}" y="{b}" width="{c}" height="{d}" rx="6" '
                       f'fill="{s.fill}" stroke="{s.stroke}" stroke-width="3"/>')
        elif s.kind == "circle":
            out.append(f'<circle cx="{a}" cy="{b}" r="{c}" fill="{s.fill}" '
                       f'stroke="{s.stroke}" stroke-width="3"/>')
        elif s.kind == "line":
            out.append(f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="{s.fill}" '
                       'stroke-width="3"/>')
        else:
            anchor = "middle" if d else "start"
            weight = ' font-weight="bold"' if s.bold else ""
            out.append(f'<text x="{a}" y="{b}" font-size="{c}" text-anchor="{anchor}" '
                       f'font-family="DejaVu Sans, Arial, sans-serif" fill="{s.fill}"{weight}>'
                       f'{escape(s.text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(view: PublicView, lang: Language | None = None) -> bytes:
    """The board as PNG bytes (Pillow; the same bytes for the same board)."""
    return encoded(raster(view, lang))


def encoded(image: Image.Image) -> bytes:
    """``image`` as PNG bytes."""
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def raster(view: PublicView, lang: Language | None = None) -> Image.Image:
    """The board drawn with Pillow, before it is encoded."""
    shapes, height = layout(view, lang)
    return paint(shapes, WIDTH, height)


def paint(shapes: list[Shape], width: int, height: int, *,
          instead: str = " (or use --svg)") -> Image.Image:
    """``shapes`` drawn with Pillow on paper ``width`` by ``height`` pixels; without
    Pillow, an error that says how to install it, then ``instead``."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        from shmod.base.errors import BadInput

        raise BadInput(f"PNG needs Pillow: pip install 'shmod[images]'{instead}") from None
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    fonts: dict[int, ImageFont.ImageFont | ImageFont.FreeTypeFont] = {}
    # Pillow's built-in font has no accented letter (no ą, ł, ä, ß, ë): a picture with any
    # letter beyond ASCII is drawn in the shipped Latin typeface throughout, its bold in the
    # real bold face; one without stays as it was drawn before.
    latin = not all(s.text.isascii() for s in shapes if s.kind == "text")
    if latin:
        from shmod.texts import typeface
    for s in shapes:
        a, b, c, d = s.box
        if s.kind == "rect":
            draw.rounded_rectangle((a, b, a + c, b + d), 6, fill=s.fill if s.fill != "none"
                                   else None, outline=s.stroke, width=3)
        elif s.kind == "circle":
            draw.ellipse((a - c, b - c, a + c, b + c), fill=s.fill, outline=s.stroke, width=3)
        elif s.kind == "line":
            draw.line((a, b, c, d), fill=s.fill, width=3)
        else:
            if latin:
                draw.text((a, b), s.text, font=typeface.font(c, s.bold), fill=s.fill,
                          anchor="ms" if d else "ls")
                continue
            font = fonts.setdefault(c, ImageFont.load_default(size=c))
            draw.text((a, b), s.text, font=font, fill=s.fill, anchor="ms" if d else "ls",
                      stroke_width=1 if s.bold else 0, stroke_fill=s.fill)
    return image
