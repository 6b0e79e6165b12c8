"""``shmod replay --post``: the whole game in one post, in the forum's markup.

The result, every role (a finished game), one line per government ("R3 · Ann → Bob ·
FFL > FL > L" once revealed, "R3 · Ann → Bob · L" before), the voting record
(:func:`shmod.texts.history.history_text`), every power with its result once revealed,
and what the moderator did that was not play (deadlines passing, corrections, removals,
replacements), from the frames :mod:`shmod.texts.replay` cut.
"""
from __future__ import annotations

from shmod.forum.events import Corrected, Lapsed, Removed, Renamed, Replaced
from shmod.game.events import (
    Executed,
    Investigated,
    Peeked,
    PowerSkipped,
    RoundBegan,
    SpecialElectionCalled,
)
from shmod.texts import phrases
from shmod.texts.formats import Plain
from shmod.texts.history import history_text
from shmod.texts.replay import Replay, event_sentence

POWER_EVENTS = (Investigated, SpecialElectionCalled, Peeked, Executed, PowerSkipped)
MODERATION = (Lapsed, Corrected, Removed, Replaced, Renamed)


def post_text(game: Replay, fmt: Plain, *, title: str, commitment: str | None) -> str:
    """The post: heading, result, roles, governments, votes, powers, moderation."""
    e = fmt.escape
    final = game.frames[-1]
    view = final.view
    result = (f"The {view.winner} won: {phrases.win(fmt.lang, view.win)}." if view.win else
              f"The game so far: round {view.round}; the roles stay secret until the end.")
    parts = [fmt.heading(f"{e(title)}: the whole game"), e(result)]
    if game.revealed:
        parts += [fmt.bold("Roles"),
                  fmt.bullets([f"{e(name)}: {fmt.bold(role)}" for name, role in game.roles])]
    hidden = final.hidden
    governments = hidden.governments if hidden is not None else tuple(final.governments)
    lines = [g.hidden_line(e) if hidden is not None else g.line(e) for g in governments]
    parts.append(fmt.bold("Governments") + (" (drawn > passed > enacted; F Fascist, L "
                                            "Liberal)" if hidden is not None else ""))
    parts.append(fmt.numbered(lines) if lines else "No vote was held.")
    parts.append(history_text(view, fmt))
    powers, moderation = _powers(game, fmt), _moderation(game, fmt)
    parts.append(fmt.bold("Powers"))
    parts.append(fmt.bullets(powers) if powers else "No power was used.")
    if moderation:
        parts += [fmt.bold("Moderation"), fmt.bullets(moderation)]
    if commitment:
        parts.append(f"Setup commitment: {e(commitment)}. "
                     + ("Check the published log with shmod audit." if game.revealed else
                        "After the game, the published log is checked against it with "
                        "shmod audit."))
    return fmt.blocks(parts)


def _powers(game: Replay, fmt: Plain) -> list[str]:
    """Every power used, in its round, with what it showed (revealed)."""
    out = []
    round_ = 1
    voided = {f.entry for f in game.frames if f.voided_by is not None}
    for frame in game.frames:
        for event in frame.view.history:
            if event.entry != frame.entry or event.entry in voided:
                continue
            if isinstance(event, RoundBegan):
                round_ = event.round
            if not isinstance(event, POWER_EVENTS):
                continue
            text = f"Round {round_}: {event_sentence(frame.view, event)}"
            if frame.hidden is not None:
                text += "".join(f" {line}" for kind, line in frame.hidden.lines
                                if kind == "results")
            out.append(fmt.escape(text))
    return out


def _moderation(game: Replay, fmt: Plain) -> list[str]:
    """Lapses, corrections, removals and replacements, each as what it was."""
    out = []
    for frame in game.frames:
        for event in frame.view.history:
            if event.entry == frame.entry and frame.entry and isinstance(event, MODERATION):
                out.append(fmt.escape(f"Entry {frame.entry}: {event_sentence(frame.view, event)}"))
    return out
