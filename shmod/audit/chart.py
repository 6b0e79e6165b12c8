"""``shmod stats --png``: the win rates by player count for each team, and ratings over
time, as a picture (Pillow, the optional ``shmod[images]`` extra).

Laid out as shapes (:class:`shmod.texts.board_image.Shape`) and drawn by the board
picture's painter. As on the board, Liberal and Fascist differ in label and shape (a
Fascist bar is striped), never in colour alone; each rating line is named at its end.
The ratings are drawn against the rated games in date order, one axis for every line,
with each distinct date written once under the first game of that date. No two labels
overlap: the names at the lines' ends are moved apart, and a date that would touch the
one before it is left out (text widths are estimated on the generous side). Every word
is in the language asked for (:mod:`shmod.texts.catalog`), the alt text's too.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise

from shmod.audit.forum_stats import Career, Stats
from shmod.audit.ratings import START, Point
from shmod.base.records import Record
from shmod.game.terms import FASCISTS, LIBERALS
from shmod.texts import glossary
from shmod.texts.board_image import BLUE, GREY, INK, RED, Shape, encoded, paint
from shmod.texts.catalog import Language
from shmod.texts.numbers import day, decimal

WIDTH = 800
_LEFT, _RIGHT = 70, 660  # the plots' x range (room for the line names on the right)
_BARS_H = 200  # 100 % is this tall
_LINE_H = 220
#: Colours for the leading players' lines (Okabe and Ito's, told apart by colour-blind
#: readers too; each line is also named at its end).
PALETTE = ("#1b1b1b", "#0072b2", "#d55e00", "#009e73", "#cc79a7")
#: How many leading players the chart shows without ``--player``.
LEADERS = len(PALETTE)


class Line(Record):
    """A rating over time: its name, colour, and (rated game index, rating) points."""

    name: str
    colour: str
    points: list[tuple[int, float]]


def player_title(name: str, history: list[Point], lang: Language) -> str:
    return lang._("Rating of {name} after each game ({n})", name=name, n=len(history))


def player_lines(history: list[Point], lang: Language) -> list[Line]:
    """One player's overall rating, and each side rating they have, after each game."""
    lines = [Line(lang._p("stats:chart", "Overall"), INK,
                  [(p.index, p.overall.ordinal) for p in history])]
    for colour, side in ((BLUE, "liberal"), (RED, "fascist")):
        points = [(p.index, getattr(p, side).ordinal) for p in history
                  if getattr(p, side) is not START]  # from their first game on that side
        if points:
            lines.append(Line(glossary.role(lang, side), colour, points))
    return lines


def leaders_title(careers: list[Career], lang: Language) -> str:
    return lang._n("Rating of the leading player after each game",
                   "Ratings of the leading {n} players after each game", len(careers))


def leader_lines(careers: list[Career], histories: dict[int, list[Point]]) -> list[Line]:
    """Each of ``careers``' overall rating after each of their games."""
    return [Line(c.name, colour, [(p.index, p.overall.ordinal) for p in histories[c.number]])
            for c, colour in zip(careers, PALETTE) if histories.get(c.number)]


def width(text: str, size: int) -> int:
    """A generous estimate of ``text``'s width in pixels at font ``size`` (Pillow's
    default font runs about half its size a character; capitals like W near all of it)."""
    return math.ceil(sum(0.95 if c in "MWmw@%" else 0.62 for c in text) * size) + 2


def layout(stats: Stats, title: str, lines: list[Line],
           lang: Language) -> tuple[list[Shape], int]:
    """The shapes of the picture and its height."""
    out: list[Shape] = []
    y = _win_rates(out, 16, stats, lang)
    if any(line.points for line in lines):
        y = _ratings(out, y + 30, stats, title, lines, lang)
    return out, y + 16


def _text(out: list[Shape], x: int, y: int, text: str, size: int = 15, colour: str = INK,
          centre: bool = False, bold: bool = False) -> None:
    out.append(Shape("text", (x, y, size, int(centre)), colour, text=text, bold=bold))


def _win_rates(out: list[Shape], y: int, stats: Stats, lang: Language) -> int:
    _text(out, WIDTH // 2, y + 24, lang._n("Win rates by player count ({n} game)",
                                           "Win rates by player count ({n} games)",
                                           stats.counted), 22, centre=True, bold=True)
    top = y + 60
    base = top + _BARS_H
    for percent in (0, 50, 100):
        level = base - _BARS_H * percent // 100
        out.append(Shape("line", (_LEFT, level, _RIGHT, level), GREY))
        _text(out, 16, level + 5, f"{percent}%", 13, GREY)
    counts = sorted(stats.by_players)
    slot = (_RIGHT - _LEFT) // max(len(counts), 1)
    bar = min(48, (slot - 24) // 2)
    for n, players in enumerate(counts):
        row = stats.by_players[players]
        x = _LEFT + n * slot + (slot - 2 * bar - 8) // 2
        # TRANSLATORS: a bar of the chart: L for the Liberals' wins, F for the Fascists'.
        marks = (lang._p("stats:chart", "L {percent}%"), lang._p("stats:chart", "F {percent}%"))
        for k, (team, colour, mark) in enumerate(((LIBERALS, BLUE, marks[0]),
                                                  (FASCISTS, RED, marks[1]))):
            left = x + k * (bar + 8)
            rate = row[team] / row["games"]
            height = round(_BARS_H * rate)
            if height:
                out.append(Shape("rect", (left, base - height, bar, height), colour, colour))
                if team == FASCISTS:  # stripes: told apart by shape, not colour alone
                    for s in range(base - height + 12, base - 4, 14):
                        out.append(Shape("line", (left + 4, s, left + bar - 4, s - 8), INK))
            _text(out, left + bar // 2, base - height - 8,
                  mark.format(percent=round(100 * rate)), 13, centre=True)
        _text(out, x + bar + 4, base + 22, lang._n("{n} player", "{n} players", players), 15,
              centre=True, bold=True)
        _text(out, x + bar + 4, base + 42, lang._n("{n} game", "{n} games", row["games"]), 13,
              GREY, centre=True)
    return base + 56


def ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round values from ``low`` to ``high`` (both included in the range they span), at
    most ``most``, a step of 1, 2 or 5 times a power of ten apart."""
    span = max(high - low, 1.0)
    step = 10.0 ** math.floor(math.log10(span / most))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= most - 1:
            step *= factor
            break
    first = math.floor(low / step) * step
    return [first + k * step for k in range(math.ceil((high - first) / step) + 1)]


def _ratings(out: list[Shape], y: int, stats: Stats, title: str, lines: list[Line],
             lang: Language) -> int:
    _text(out, WIDTH // 2, y + 24, title, 22, centre=True, bold=True)
    top = y + 50
    base = top + _LINE_H
    values = [v for line in lines for _i, v in line.points]
    marks = ticks(min([*values, 0.0]), max([*values, 0.0]))
    low, high = marks[0], marks[-1]

    def level(value: float) -> int:
        return round(base - (value - low) / (high - low) * _LINE_H)

    games = len(stats.matches)

    def across(index: int) -> int:
        return round(_LEFT + index * (_RIGHT - _LEFT) / max(games - 1, 1))

    for value in marks:
        out.append(Shape("line", (_LEFT, level(value), _RIGHT, level(value)), GREY))
        _text(out, 8, level(value) + 5,
              decimal(value, lang, 0 if abs(value - round(value)) < 1e-9 else 1), 13, GREY)
    ends: list[tuple[int, Line]] = []
    for line in lines:
        xy = [(across(i), level(v)) for i, v in line.points]
        for (x1, y1), (x2, y2) in pairwise(xy):
            out.append(Shape("line", (x1, y1, x2, y2), line.colour))
        for x, yy in xy if len(xy) <= 60 else xy[-1:]:
            out.append(Shape("circle", (x, yy, 3, 3), line.colour, line.colour))
        ends.append((xy[-1][1], line))
    moved = _apart([yy for yy, _line in ends], 18, top, base)
    for yy, (_end, line) in zip(moved, ends):
        _text(out, _RIGHT + 12, yy + 5, _fitted(line.name, WIDTH - _RIGHT - 20, 14), 14,
              line.colour, bold=True)
    undated = lang._p("stats:chart", "undated")
    _dates(out, base + 24, [day(m.order[0][:10], lang) or undated for m in
                            sorted(stats.matches, key=lambda m: m.order)], across)
    _text(out, (_LEFT + _RIGHT) // 2, base + 46,
          lang._("rated games in date order ({n})", n=games),
          13, GREY, centre=True)
    return base + 52


def _apart(levels: list[int], gap: int, top: int, bottom: int) -> list[int]:
    """``levels`` moved as little as they need to be ``gap`` apart within top..bottom,
    each keeping its place in the order (labels that would overlap, moved apart)."""
    order = sorted(range(len(levels)), key=lambda k: (levels[k], k))
    placed = [levels[k] for k in order]
    for k in range(len(placed)):
        placed[k] = max(placed[k], top if k == 0 else placed[k - 1] + gap)
    if placed and placed[-1] > bottom:
        placed[-1] = bottom
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    out = [0] * len(levels)
    for k, value in zip(order, placed):
        out[k] = value
    return out


def _fitted(text: str, room: int, size: int) -> str:
    """``text``, cut with an ellipsis to fit ``room`` pixels."""
    while len(text) > 1 and width(text, size) > room:
        text = text[:-2].rstrip() + "…"
    return text


def _dates(out: list[Shape], y: int, dates: list[str], across: Callable[[int], int]) -> None:
    """Each distinct date once, under its first game, left to right; a date that would
    come within 10 pixels of the one before it is left out, but the last date is kept
    (the ones before it give way)."""
    firsts: list[tuple[int, str]] = []
    for index, date in enumerate(dates):
        if not firsts or firsts[-1][1] != date:
            firsts.append((index, date))
    boxes: list[tuple[int, int, str]] = []
    for n, (index, date) in enumerate(firsts):
        left = min(across(index), WIDTH - 8 - width(date, 13))
        if n == len(firsts) - 1:
            while len(boxes) > 1 and boxes[-1][1] + 10 > left:
                boxes.pop()
        if not boxes or boxes[-1][1] + 10 <= left:
            boxes.append((left, left + width(date, 13), date))
    for left, _right, date in boxes:
        _text(out, left, y, date, 13, GREY)


def describe(stats: Stats, title: str, lines: list[Line], lang: Language) -> str:
    """The picture in words, for its alt text."""
    rates = "; ".join(lang._n(
        "{n} player: Liberals {liberals}%, Fascists {fascists}% of {games}",
        "{n} players: Liberals {liberals}%, Fascists {fascists}% of {games}", n,
        liberals=round(100 * r[LIBERALS] / r["games"]),
        fascists=round(100 * r[FASCISTS] / r["games"]), games=r["games"])
        for n, r in sorted(stats.by_players.items()))
    text = lang._("Win rates by player count: {rates}.",
                  rates=rates or lang._p("stats:chart", "no games"))
    drawn = [line for line in lines if line.points]
    if drawn:  # each line's words first: the extractor reads no message nested in a call
        said = [lang._n("{name} over {n} game from {first} to {last}",
                        "{name} over {n} games from {first} to {last}", len(line.points),
                        name=line.name, first=decimal(line.points[0][1], lang),
                        last=decimal(line.points[-1][1], lang)) for line in drawn]
        text += " " + lang._("{title}: {lines}.", title=title, lines="; ".join(said))
    return text


def png(stats: Stats, title: str, lines: list[Line], lang: Language) -> bytes:
    """The picture as PNG bytes."""
    shapes, height = layout(stats, title, lines, lang)
    return encoded(paint(shapes, WIDTH, height, instead=""))


__all__ = ["LEADERS", "PALETTE", "Line", "describe", "layout", "leader_lines", "leaders_title",
           "player_lines", "player_title", "png", "ticks", "width"]
