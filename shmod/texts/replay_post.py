"""``shmod replay --post``: the whole game in one post, in the forum's markup.

The result, one line per government ("R3 · Ann → Bob · L"), the voting record
(:func:`shmod.texts.history.history_text`), the claims (:mod:`shmod.texts.claim_texts`), every
power used and what the moderator did that was not play (deadlines passing, corrections,
removals, replacements), from the frames :mod:`shmod.texts.replay_frames` cut. A finished game's
hidden part (every role, each government's hands, "R3 · Ann → Bob · FFL > FL > L", what
each investigation and peek showed, and whether each claim was true) comes behind the
profile's spoiler, as ``shmod reveal``'s does (where the engine has none, after its
warning line).
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
from shmod.texts import claim_texts, glossary, phrases
from shmod.texts.catalog import Language
from shmod.texts.formats import Plain
from shmod.texts.history import record_text
from shmod.texts.replay_frames import Hidden, Replay, event_sentence

POWER_EVENTS = (Investigated, SpecialElectionCalled, Peeked, Executed, PowerSkipped)
MODERATION = (Lapsed, Corrected, Removed, Replaced, Renamed)


def post_text(game: Replay, fmt: Plain, *, title: str, commitment: str | None) -> str:
    """The post: heading, result, governments, votes, powers, moderation, and a finished
    game's hidden part in a spoiler (:meth:`~shmod.texts.formats.Plain.spoiler`)."""
    e, t = fmt.escape, fmt.lang
    final = game.frames[-1]
    view = final.view
    if view.winner and view.win:
        result = glossary.won(t, view.winner, "The {team} won: {reason}.",
                              reason=phrases.win(t, view.win))
    else:
        result = t._("The game so far: round {round}; the roles stay secret until the end.",
                     round=view.round)
    # TRANSLATORS: the heading of the game in one post; {title} is the game's name.
    parts = [fmt.heading(t._("{title}: the whole game", title=e(title))), e(result)]
    lines = [g.line(e, t) for g in final.governments]
    parts.append(fmt.bold(t._p("replay post", "Governments")))
    parts.append(fmt.numbered(lines) if lines else t._("No vote was held."))
    # The claims without whether each was true: the hidden part says it.
    parts.append(record_text(view, fmt, over=view.winner is not None))
    powers, moderation = _powers(game, fmt), _moderation(game, fmt)
    parts.append(fmt.bold(t._p("replay post", "Powers")))
    parts.append(fmt.bullets(powers) if powers else t._("No power was used."))
    if moderation:
        parts += [fmt.bold(t._p("replay post", "Moderation")), fmt.bullets(moderation)]
    if game.revealed and final.hidden is not None:
        parts.append(fmt.spoiler(t._("The reveal: every role and every policy"),
                                 _hidden(game, final.hidden, fmt)))
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


def _hidden(game: Replay, hidden: Hidden, fmt: Plain) -> str:
    """What was secret: every role, each government's hands, what the powers showed, and
    whether each claim was true."""
    e, t = fmt.escape, fmt.lang
    # Not nested in the call below: Babel's extractor would lose that message.
    governments = fmt.bold(t._p("replay post", "Governments"))
    # TRANSLATORS: how the hands read: "FFL > FL > L"; {F} and {L} are the policies'
    # letters, {fascist} and {liberal} their words.
    heading = t._("{governments} (drawn > passed > enacted; {F} {fascist}, {L} {liberal})",
                  governments=governments, F=glossary.letters(t, FASCIST),
                  fascist=glossary.policy(t, FASCIST), L=glossary.letters(t, LIBERAL),
                  liberal=glossary.policy(t, LIBERAL))
    lines = [g.hidden_line(e, t) for g in hidden.governments]
    parts = [fmt.bold(t._p("replay post", "Roles")),
             fmt.bullets([t._("{name}: {role}", name=e(name), role=fmt.bold(role))
                          for name, role in game.roles]),
             heading, fmt.numbered(lines) if lines else t._("No vote was held.")]
    results = _results(game, fmt)
    if results:
        parts += [t._("Investigations and peeks, with their true results:"),
                  fmt.bullets(results)]
    marked = claim_texts.reveal_lines(game.frames[-1].view.history, game.truth, fmt)
    if marked:
        parts += [t._("Claims, against what was dealt:"), fmt.bullets(marked)]
    return fmt.blocks(parts)


def _powers(game: Replay, fmt: Plain) -> list[str]:
    """Every power used, in its round, as the thread saw it."""
    # TRANSLATORS: a power used in round {round}; {said} says what it did.
    return [fmt.escape(fmt.lang._("Round {round}: {said}", round=round_, said=said))
            for round_, said, _ in _used(game, fmt.lang)]


def _results(game: Replay, fmt: Plain) -> list[str]:
    """What each power showed the President (revealed), in its round."""
    return [fmt.escape(fmt.lang._("Round {round}: {said}", round=round_, said=line))
            for round_, _, shown in _used(game, fmt.lang) for line in shown]


def _used(game: Replay, t: Language) -> list[tuple[int, str, list[str]]]:
    """Each power used: its round, the replay's sentence for it, and the lines of the
    hidden part that say what it showed (none unless revealed)."""
    out = []
    round_ = 1
    voided = {f.entry for f in game.frames if f.voided_by is not None}
    for frame in game.frames:
        for event in frame.view.history:
            if event.entry != frame.entry or event.entry in voided:
                continue
            if isinstance(event, RoundBegan):
                round_ = event.round
            if isinstance(event, POWER_EVENTS):
                shown = [line for kind, line in frame.hidden.lines
                         if kind == "results"] if frame.hidden is not None else []
                out.append((round_, event_sentence(frame.view, event, t) or "", shown))
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
