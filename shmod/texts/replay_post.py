"""``shmod replay --post``: the whole game in one post, in the forum's markup.

The result, every role (a finished game), one line per government ("R3 · Ann → Bob ·
FFL > FL > L" once revealed, "R3 · Ann → Bob · L" before), the voting record
(:func:`shmod.texts.history.history_text`) and the claims (marked true or false once
revealed, :mod:`shmod.texts.claims`), every power with its result once revealed,
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
from shmod.game.terms import FASCIST, LIBERAL
from shmod.log.checkpoints import COMMITMENT_LABEL
from shmod.texts import claims, glossary, phrases
from shmod.texts.formats import Plain
from shmod.texts.history import history_text
from shmod.texts.replay import Replay, event_sentence

POWER_EVENTS = (Investigated, SpecialElectionCalled, Peeked, Executed, PowerSkipped)
MODERATION = (Lapsed, Corrected, Removed, Replaced, Renamed)


def post_text(game: Replay, fmt: Plain, *, title: str, commitment: str | None) -> str:
    """The post: heading, result, roles, governments, votes, powers, moderation."""
    e, t = fmt.escape, fmt.lang
    final = game.frames[-1]
    view = final.view
    if view.winner and view.win:
        result = t._("The {team} won: {reason}.", team=glossary.team(t, view.winner),
                     reason=phrases.win(t, view.win))
    else:
        result = t._("The game so far: round {round}; the roles stay secret until the end.",
                     round=view.round)
    # TRANSLATORS: the heading of the game in one post; {title} is the game's name.
    parts = [fmt.heading(t._("{title}: the whole game", title=e(title))), e(result)]
    if game.revealed:
        parts += [fmt.bold(t._p("replay post", "Roles")),
                  fmt.bullets([t._("{name}: {role}", name=e(name), role=fmt.bold(role))
                               for name, role in game.roles])]
    hidden = final.hidden
    governments = hidden.governments if hidden is not None else tuple(final.governments)
    lines = [g.hidden_line(e, t) if hidden is not None else g.line(e, t) for g in governments]
    heading = fmt.bold(t._p("replay post", "Governments"))
    if hidden is not None:
        # TRANSLATORS: how the hands read: "FFL > FL > L"; {F} and {L} are the policies'
        # letters, {fascist} and {liberal} their words.
        heading = t._("{governments} (drawn > passed > enacted; {F} {fascist}, {L} {liberal})",
                      governments=heading, F=glossary.letters(t, FASCIST),
                      fascist=glossary.policy(t, FASCIST), L=glossary.letters(t, LIBERAL),
                      liberal=glossary.policy(t, LIBERAL))
    parts.append(heading)
    parts.append(fmt.numbered(lines) if lines else t._("No vote was held."))
    parts.append(history_text(view, fmt))
    parts.append(claims.table_text(view.history, fmt, game.truth if game.revealed else None))
    powers, moderation = _powers(game, fmt), _moderation(game, fmt)
    parts.append(fmt.bold(t._p("replay post", "Powers")))
    parts.append(fmt.bullets(powers) if powers else t._("No power was used."))
    if moderation:
        parts += [fmt.bold(t._p("replay post", "Moderation")), fmt.bullets(moderation)]
    if commitment:
        # TRANSLATORS: {label}: {commitment} is a line the audit reads back, the same in
        # every language; {command} is shmod's command.
        parts.append(t._("{label}: {commitment}. Check the published log with {command}.",
                         label=COMMITMENT_LABEL, commitment=e(commitment),
                         command="shmod audit") if game.revealed else
                     t._("{label}: {commitment}. After the game, the published log is checked "
                         "against it with {command}.", label=COMMITMENT_LABEL,
                         commitment=e(commitment), command="shmod audit"))
    return fmt.blocks(parts)


def _powers(game: Replay, fmt: Plain) -> list[str]:
    """Every power used, in its round, with what it showed (revealed)."""
    t = fmt.lang
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
            # TRANSLATORS: a power used in round {round}; {said} says what it did.
            text = t._("Round {round}: {said}", round=round_,
                       said=event_sentence(frame.view, event, t))
            if frame.hidden is not None:
                text += "".join(f" {line}" for kind, line in frame.hidden.lines
                                if kind == "results")
            out.append(fmt.escape(text))
    return out


def _moderation(game: Replay, fmt: Plain) -> list[str]:
    """Lapses, corrections, removals and replacements, each as what it was."""
    t = fmt.lang
    out = []
    for frame in game.frames:
        for event in frame.view.history:
            if event.entry == frame.entry and frame.entry and isinstance(event, MODERATION):
                # TRANSLATORS: {entry} is the log entry's number; {said} what it did.
                out.append(fmt.escape(t._("Entry {entry}: {said}", entry=frame.entry,
                                          said=event_sentence(frame.view, event, t))))
    return out
