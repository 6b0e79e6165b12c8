"""``shmod stats --png``: the win rates by player count for each team, and one player's
ratings over time, as a picture (Pillow, the optional ``shmod[images]`` extra).

Laid out as shapes (:class:`shmod.texts.board_image.Shape`) and drawn by the board
picture's painter. As on the board, Liberal and Fascist differ in label and shape (a
Fascist bar is striped), never in colour alone; each rating line is named at its end.
"""
from __future__ import annotations

from itertools import pairwise

from shmod.audit.ratings import Point
from shmod.audit.stats import Career, Stats
from shmod.game.terms import FASCISTS, LIBERALS
from shmod.texts.board_image import BLUE, GREY, INK, RED, Shape, encoded, paint

WIDTH = 800
_LEFT, _RIGHT = 70, 700  # the plots' x range (room for the line names on the right)
_BARS_H = 200  # 100 % is this tall
_LINE_H = 220


def layout(stats: Stats, career: Career | None, history: list[Point]) -> tuple[list[Shape], int]:
    """The shapes of the picture and its height."""
    out: list[Shape] = []
    y = _win_rates(out, 16, stats)
    if career is not None and history:
        y = _ratings(out, y + 30, career, history)
    return out, y + 16


def _text(out: list[Shape], x: int, y: int, text: str, size: int = 15, colour: str = INK,
          centre: bool = False, bold: bool = False) -> None:
    out.append(Shape("text", (x, y, size, int(centre)), colour, text=text, bold=bold))


def _win_rates(out: list[Shape], y: int, stats: Stats) -> int:
    _text(out, WIDTH // 2, y + 24, f"Win rates by player count ({stats.counted} games)", 22,
          centre=True, bold=True)
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
        for k, (team, colour, mark) in enumerate(((LIBERALS, BLUE, "L"),
                                                  (FASCISTS, RED, "F"))):
            left = x + k * (bar + 8)
            rate = row[team] / row["games"]
            height = round(_BARS_H * rate)
            if height:
                out.append(Shape("rect", (left, base - height, bar, height), colour, colour))
                if team == FASCISTS:  # stripes: told apart by shape, not colour alone
                    for s in range(base - height + 12, base - 4, 14):
                        out.append(Shape("line", (left + 4, s, left + bar - 4, s - 8), INK))
            _text(out, left + bar // 2, base - height - 8, f"{mark} {100 * rate:.0f}%", 13,
                  centre=True)
        _text(out, x + bar + 4, base + 22, f"{players} players", 15, centre=True, bold=True)
        _text(out, x + bar + 4, base + 42, f"{row['games']} games", 13, GREY, centre=True)
    return base + 56


def _ratings(out: list[Shape], y: int, career: Career, history: list[Point]) -> int:
    _text(out, WIDTH // 2, y + 24, f"Rating of {career.name} after each game "
          f"({len(history)})", 22, centre=True, bold=True)
    base = y + 50 + _LINE_H
    series = [("Overall", INK, [p.overall.ordinal for p in history])]
    if career.liberal_rating is not None:
        series.append(("Liberal", BLUE, [p.liberal.ordinal for p in history]))
    if career.fascist_rating is not None:
        series.append(("Fascist", RED, [p.fascist.ordinal for p in history]))
    values = [v for _name, _colour, points in series for v in points]
    low, high = min([*values, 0.0]), max([*values, 0.0])
    if high - low < 1:
        high = low + 1

    def level(value: float) -> int:
        return round(base - (value - low) / (high - low) * _LINE_H)

    for value in sorted({low, 0.0, high}):
        out.append(Shape("line", (_LEFT, level(value), _RIGHT, level(value)), GREY))
        _text(out, 8, level(value) + 5, f"{value:.1f}", 13, GREY)
    step = (_RIGHT - _LEFT) / max(len(history) - 1, 1)
    for name, colour, points in series:
        xy = [(round(_LEFT + i * step), level(v)) for i, v in enumerate(points)]
        for (x1, y1), (x2, y2) in pairwise(xy):
            out.append(Shape("line", (x1, y1, x2, y2), colour))
        for x, yy in xy if len(xy) <= 60 else xy[-1:]:
            out.append(Shape("circle", (x, yy, 3, 3), colour, colour))
        _text(out, xy[-1][0] + 10, xy[-1][1] + 5, name, 14, colour, bold=True)
    first, last = history[0].order[0][:10] or "undated", history[-1].order[0][:10] or "undated"
    _text(out, _LEFT, base + 24, f"game 1 ({first})", 13, GREY)
    _text(out, _RIGHT - 150, base + 24, f"game {len(history)} ({last})", 13, GREY)
    return base + 30


def describe(stats: Stats, career: Career | None, history: list[Point]) -> str:
    """The picture in words, for its alt text."""
    rates = "; ".join(f"{n} players: Liberals {100 * r[LIBERALS] / r['games']:.0f}%, "
                      f"Fascists {100 * r[FASCISTS] / r['games']:.0f}% of {r['games']}"
                      for n, r in sorted(stats.by_players.items()))
    text = f"Win rates by player count: {rates or 'no games'}."
    if career is not None and history:
        text += (f" Rating of {career.name} over {len(history)} games: from "
                 f"{history[0].overall.ordinal:.1f} to {history[-1].overall.ordinal:.1f}.")
    return text


def png(stats: Stats, career: Career | None, history: list[Point]) -> bytes:
    """The picture as PNG bytes."""
    shapes, height = layout(stats, career, history)
    return encoded(paint(shapes, WIDTH, height, instead=""))


__all__ = ["describe", "layout", "png"]
