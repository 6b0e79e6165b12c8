"""The floors' data in the players' words: whom the game waits for (a
:class:`~shmod.game.events.Waiting`), how it was won (a :class:`~shmod.game.events.Win`),
what an entry was (a correction's voided steps) and what a seat did (a replacement's
briefing), in the game's language.

Each is a clause that the posts and PMs set in their own sentences, as plain text (the
caller escapes it for its profile). The moderator's terminal and the refusals say the same
things in English in :mod:`shmod.game.explain` and :mod:`shmod.forum.explain`, on their
own, so that a post's words can change without a refusal's.
"""
from __future__ import annotations

from collections.abc import Callable

from shmod.forum.events import Corrected, Deed
from shmod.forum.steps import (
    Backup,
    Claim,
    Lapse,
    Remove,
    Rename,
    Replace,
    SetDeadline,
    Word,
)
from shmod.game.events import Waiting, Win
from shmod.game.steps import (
    Act,
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    Peek,
    Reshuffle,
    SpecialElection,
    Step,
    Veto,
    Vote,
)
from shmod.game.terms import (
    DEAL,
    DISCARD,
    ENACT,
    LIBERAL,
    NOMINATE,
    OVER,
    POWER,
    VETO_ANSWER,
    VETO_VOTE,
    VOTE,
)
from shmod.texts import glossary
from shmod.texts.catalog import N_, Language


def _say(lang: Language, msgid: str, capital: bool = False, **fields: object) -> str:
    """``msgid`` (marked with :func:`~shmod.texts.catalog.N_`) in ``lang``, its fields
    filled; ``capital``: its first letter a capital, unless it starts with a field (a
    name is never changed)."""
    text = lang._(msgid)
    return (_capital(text) if capital and not text.startswith("{") else text).format(**fields)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def win(lang: Language, won: Win, *, capital: bool = False) -> str:
    """How the game was won, e.g. "a tied vote elected Hitler (Eli) Chancellor";
    ``capital``: to start a sentence."""
    if won.rule == "R-EVA-BRAUN":
        # TRANSLATORS: how a game was won, set in a sentence; {hitler} is a player's name.
        msgid = N_("a tied vote elected Hitler ({hitler}) Chancellor")
    elif won.rule == "R-HITLER-ELECTED":
        # TRANSLATORS: how a game was won; {hitler} is a player's name.
        msgid = N_("Hitler ({hitler}) was elected Chancellor")
    elif won.hitler and won.rule == "R-WIN-LIB":
        # TRANSLATORS: how a game was won; {hitler} is a player's name.
        msgid = N_("Hitler ({hitler}) was executed")
    elif won.hitler:
        # TRANSLATORS: how a game was won: the moderator removed Hitler's player.
        msgid = N_("Hitler ({hitler}) has left the game")
    else:
        # TRANSLATORS: how a game was won: the track of that party filled.
        text = (lang._n("{n} Liberal policy enacted", "{n} Liberal policies enacted",
                        won.policies) if won.rule == "R-WIN-LIB" else
                lang._n("{n} Fascist policy enacted", "{n} Fascist policies enacted",
                        won.policies))
        return _capital(text) if capital else text
    return _say(lang, msgid, capital, hitler=won.hitler)


def waiting(lang: Language, w: Waiting, *, capital: bool = False) -> str:
    """Whom and what the table waits for, as a clause after "waiting for": before the
    deal the players' words (R-DEAL), then the game's step; ``capital``: to start a
    sentence."""
    names = ", ".join(w.names)
    if w.phase == OVER:
        assert w.win is not None
        how = win(lang, w.win)
        if w.win.team == "Liberals":
            # TRANSLATORS: after "waiting for"; {how} says how the game was won.
            msgid = N_("nobody: the game is over (Liberals won: {how})")
        else:
            # TRANSLATORS: after "waiting for"; {how} says how the game was won.
            msgid = N_("nobody: the game is over (Fascists won: {how})")
        return _say(lang, msgid, capital, how=how)
    if w.phase == DEAL:
        # TRANSLATORS: after "waiting for": {count} of {n} players have still to post a word
        # for the deal; {names} lists them.
        text = lang._n("a word for the deal from {count} of {n} player: {names}",
                       "a word for the deal from {count} of {n} players: {names}", w.of,
                       count=len(w.seats), names=names)
        return _capital(text) if capital else text
    if w.phase == VOTE:
        # TRANSLATORS: after "waiting for": {count} of the {n} living players have still to
        # vote; {names} lists them.
        text = lang._n("votes from {count} of {n} living player: {names}",
                       "votes from {count} of {n} living players: {names}", w.of,
                       count=len(w.seats), names=names)
        return _capital(text) if capital else text
    msgid, fields = _awaited_step(lang, w)
    return _say(lang, msgid, capital, **fields)


def _awaited_step(lang: Language, w: Waiting) -> tuple[str, dict[str, object]]:
    """The message and its fields saying whom and what a game in a round waits for."""
    fields: dict[str, object] = {"president": w.president, "chancellor": w.chancellor}
    if w.phase == NOMINATE:
        # TRANSLATORS: after "waiting for"; {president} is a player's name.
        msgid = N_("{president} (Presidential Candidate) to nominate a Chancellor")
    elif w.phase == DISCARD:
        msgid = N_("{president} (President) to discard one of three policies")
    elif w.phase == ENACT and w.veto:
        msgid = N_("{chancellor} (Chancellor) to enact one of two policies or propose a veto")
    elif w.phase == ENACT:
        msgid = N_("{chancellor} (Chancellor) to enact one of two policies")
    elif w.phase == VETO_ANSWER:
        msgid = N_("{president} (President) to accept or refuse the Chancellor's veto")
    elif w.phase == VETO_VOTE and len(w.names) == 1:
        # TRANSLATORS: after "waiting for": the one of President and Chancellor still to vote.
        msgid, fields = N_("{name} to vote on the veto in secret"), {"name": w.names[0]}
    elif w.phase == VETO_VOTE:
        first, second = w.names
        # TRANSLATORS: after "waiting for": the President and the Chancellor, in seating order.
        msgid = N_("{first} and {second} to vote on the veto in secret")
        fields = {"first": first, "second": second}
    elif w.phase == POWER:
        assert w.power is not None
        # TRANSLATORS: after "waiting for"; {power} is the name of a presidential power.
        msgid = N_("{president} (President) to use {power}")
        fields["power"] = glossary.power(lang, w.power)
    elif w.seeded:  # a write was cut between a step and its reshuffle
        # TRANSLATORS: after "waiting for"; "shmod" is the program's name.
        msgid = N_("the reshuffle the seed determines (R-RESHUFFLE): shmod appends it with "
                   "the next step it records")
    else:
        # TRANSLATORS: after "waiting for".
        msgid = N_("the moderator to record the reshuffled draw pile (R-RESHUFFLE)")
    return msgid, fields


def describe(lang: Language, step: Step, players: tuple[str, ...]) -> str:
    """An entry in public words (what a correction voided), with ``players`` as seated
    then: what and who, never a secret (a vote's value, a discard, a veto vote); an
    enacted policy is public and is named."""

    def name(seat: int | None) -> str:
        return players[seat] if seat is not None and seat < len(players) else "?"

    by = name(step.by) if isinstance(step, Act) else "?"
    said = _game_entry(lang, step, name, by)
    if said is None:
        said = _forum_entry(lang, step, name, by)
    if said is None:
        raise ValueError(f"no words for an entry of kind {step.kind!r}: a correction never "
                         "voids one")
    return said


def _game_entry(lang: Language, step: Step, name: Callable[[int | None], str],
                by: str) -> str | None:
    """A step of the game's table in public words (:func:`describe`)."""
    match step:
        case Nominate():
            # TRANSLATORS: what a correction voided, set in a sentence ("the moderator voids
            # …"); here and in the entries that follow, {by}, {chancellor}, {target}, {name}
            # and {old} are players' names.
            return lang._("the nomination of {chancellor} by {by}",
                          chancellor=name(step.chancellor), by=by)
        case Vote():
            return lang._("the vote by {by}", by=by)
        case Discard():
            return lang._("the discard by President {by}", by=by)
        case Enact() if step.policy == LIBERAL:
            return lang._("the enactment of a Liberal policy by Chancellor {by}", by=by)
        case Enact():
            return lang._("the enactment of a Fascist policy by Chancellor {by}", by=by)
        case Veto() if step.answer == "propose":
            return lang._("the veto proposed by {by}", by=by)
        case Veto() if step.answer == "accept":
            return lang._("{by}'s agreeing to the veto", by=by)
        case Veto() if step.answer == "refuse":
            return lang._("{by}'s refusing the veto", by=by)
        case Veto():
            return lang._("the secret veto vote by {by}", by=by)
        case Investigate():
            return lang._("the investigation of {target} by {by}", target=name(step.target),
                          by=by)
        case SpecialElection():
            return lang._("the Special Election of {target} called by {by}",
                          target=name(step.target), by=by)
        case Peek():
            return lang._("the Policy Peek by {by}", by=by)
        case Execute():
            return lang._("the execution of {target} by {by}", target=name(step.target), by=by)
        case Reshuffle():
            return lang._("the reshuffle")
    return None


def _forum_entry(lang: Language, step: Step, name: Callable[[int | None], str],
                 by: str) -> str | None:
    """A forum entry in public words (:func:`describe`)."""
    match step:
        case Word():
            return lang._("the word by {by}", by=by)
        case SetDeadline():
            return lang._("the deadline")
        case Lapse():
            return lang._("the lapse of the deadline")
        case Replace():
            return lang._("{name} taking {old}'s seat", name=step.name, old=name(step.target))
        case Rename():
            return lang._("the correction of {old}'s name to {name}", old=name(step.target),
                          name=step.name)
        case Remove():
            return lang._("the removal of {name}", name=name(step.target))
        case Backup():
            # TRANSLATORS: a change to the list of backup players, as a correction voided it.
            return lang._p("voided entry", "backup")
        case Claim():
            return lang._("the claim by {by}", by=name(step.by))
    return None


def voided(lang: Language, event: Corrected) -> list[tuple[int, str]]:
    """R-CORRECT: each entry a correction voided, and what it was in public words."""
    return [(entry, describe(lang, step, event.players)) for entry, step in event.voided]


def deed(lang: Language, done: Deed) -> str:
    """One of a seat's own steps, for its replacement (R-REPLACE): its PM or public
    choice, e.g. "voted Ja"."""
    step, target = done.step, done.target
    match step:
        case Nominate():
            # TRANSLATORS: what a seat did, listed for the player who takes it over ("(Round
            # 2) voted Ja"); here and in the entries that follow, {target} is a player's name.
            return lang._("nominated {target} for Chancellor", target=target)
        case Vote():
            # TRANSLATORS: {ballot} is Ja or Nein, the same in every language.
            return lang._("voted {ballot}", ballot=glossary.ballot(step.vote))
        case Discard() if step.policy == LIBERAL:
            return lang._("discarded a Liberal policy as President")
        case Discard():
            return lang._("discarded a Fascist policy as President")
        case Enact() if step.policy == LIBERAL:
            return lang._("enacted a Liberal policy as Chancellor")
        case Enact():
            return lang._("enacted a Fascist policy as Chancellor")
        case Veto() if step.answer == "propose":
            return lang._("veto: propose")
        case Veto() if step.answer == "accept":
            return lang._("veto: accept")
        case Veto() if step.answer == "refuse":
            return lang._("veto: refuse")
        case Veto():
            # TRANSLATORS: a secret veto vote; {ballot} is ja or nein, the same in every
            # language.
            return lang._("veto: {ballot}", ballot=step.answer)
        case Investigate():
            return lang._("investigated {target}", target=target)
        case SpecialElection():
            return lang._("called a Special Election for {target}", target=target)
        case Peek():
            return lang._("used Policy Peek")
        case Execute():
            return lang._("executed {target}", target=target)
    raise ValueError(f"no words for a seat's {step.kind}")
