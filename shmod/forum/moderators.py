"""The game's moderators (R-MODERATORS) and a hand-over between them (R-HANDOVER).

A game lists its moderators in its header (``moderators``, absent for a game with one) and
in ``moderator`` entries; each entry a listed moderator records names them (its ``mod``,
which the forum engine reads as :attr:`Table.recorder`). A ``handover`` passes moderation
to another listed moderator, who then records alone, once a ``takeover`` says they checked
their copy against the hand-over post's checkpoint. None of it is a step of the game: a
correction never replays it, and the game's own rules never see it.
"""
from __future__ import annotations

from shmod.base import plaintext
from shmod.base.errors import BadInput, RuleBroken
from shmod.forum.events import HandedOver, ModeratorsChanged
from shmod.forum.names import look_alike, tidy, unseen
from shmod.forum.steps import Delivered, Handover, Moderator, Posted, Takeover
from shmod.forum.table import Table
from shmod.game.steps import Step

#: R-MODERATORS: the most moderators a game lists (a forum game has two or three).
MAX_MODERATORS = 10
MAX_NAME = 40


def check_name(name: object) -> str:
    """A moderator's name as it is listed: a forum user name, one short line that shows
    every character it holds (R-MODERATORS)."""
    if not isinstance(name, str) or not name.strip():
        raise BadInput("R-MODERATORS: a moderator's name must be a non-empty text")
    problem = plaintext.unsafe(name)
    if problem:
        raise BadInput(f"R-MODERATORS: a moderator's name holds a {problem}")
    hidden = unseen(name)
    if hidden:
        raise BadInput(f"R-MODERATORS: a moderator's name holds {hidden}")
    listed = tidy(name)
    if len(listed) > MAX_NAME:
        raise BadInput(f"R-MODERATORS: a moderator's name is at most {MAX_NAME} characters")
    return listed


def check_list(names: object, players: tuple[str, ...]) -> tuple[str, ...]:
    """The header's ``moderators``: names as listed, none alike, none a player's."""
    if not isinstance(names, list) or not names:
        raise BadInput("R-MODERATORS: moderators must be a list of names")
    listed: list[str] = []
    for name in names:
        _refuse_alike(check_name(name), listed, players)
        listed.append(tidy(name))
    if len(listed) > MAX_MODERATORS:
        raise BadInput(f"R-MODERATORS: a game lists at most {MAX_MODERATORS} moderators")
    if [tidy(n) for n in names] != names:
        raise BadInput("R-MODERATORS: write each moderator's name without extra spaces, in "
                       "Unicode's composed form (NFC)")
    return tuple(listed)


def _refuse_alike(name: str, listed: list[str], players: tuple[str, ...]) -> None:
    for other in listed:
        if look_alike(name, other):
            raise BadInput(f"R-MODERATORS: {name!r} and {other!r} look the same; moderators "
                           "must be told apart")
    for player in players:
        if look_alike(name, player):
            raise BadInput(f"R-MODERATORS: {name!r} is (or looks like) the player {player!r}: "
                           "a moderator sees every role, so does not play")


def listed(table: Table, name: str) -> str | None:
    """The listed moderator ``name`` names (any case), or None."""
    key = name.strip().casefold()
    return next((m for m in table.moderators if m.casefold() == key), None)


def recorder(table: Table, name: str | None) -> str | None:
    """Who a new entry names as its recorder (its ``mod``), from ``--as`` or the terminal's
    ``SHMOD_MODERATOR`` (``name``): nobody in a game that lists no moderator; the only
    listed one when one is and nobody is named; a listed one otherwise (R-MODERATORS)."""
    if not table.moderators:
        return None
    if name is None or not name.strip():
        if len(table.moderators) == 1:
            return table.moderators[0]
        raise RuleBroken("R-MODERATORS", f"this game has {len(table.moderators)} moderators "
                         f"({', '.join(table.moderators)}): say which one you are with --as "
                         "NAME, or once per terminal with SHMOD_MODERATOR=NAME; nothing was "
                         "recorded")
    found = listed(table, name)
    if found is None:
        raise RuleBroken("R-MODERATORS", f"{name.strip()!r} is not a moderator of this game "
                         f"(listed: {', '.join(table.moderators)}); nothing was recorded")
    return found


def check_recorder(table: Table, step: Step) -> None:
    """R-MODERATORS, R-HANDOVER: the entry being applied was recorded by a listed moderator
    (an entry naming nobody is read as one appended by hand); after a hand-over only the
    incoming moderator records, once they have taken over. Any listed moderator may record
    a hand-over (to take moderation back from one who has gone silent), and the post that
    announces a hand-over or a dropped moderator is its recorder's, who delivers it too."""
    by = table.recorder
    if by is None:
        return
    if isinstance(step, Posted) and table.announced is not None \
            and by == table.announced[1] and table.posts[-1:] < [table.announced[0]]:
        return  # the post that says so, by whoever dropped a moderator or handed over
    if by not in table.moderators:
        known = ", ".join(table.moderators) or "none"
        raise RuleBroken("R-MODERATORS", f"recorded by {by}, who is not a moderator of this "
                         f"game (listed: {known})")
    if table.handover is None or isinstance(step, Handover):
        return
    entry, holder, giver = table.handover
    if by == giver and isinstance(step, Delivered) and step.what == "post" and \
            _announcing(table, step.entry):
        return  # the hand-over post, delivered by whoever handed over: the incoming needs it
    if by != holder:
        raise RuleBroken("R-HANDOVER", f"moderation passed to {holder} at entry {entry}: only "
                         f"{holder} records now ({by} may take it back: shmod handover {by})")
    if not table.taken and not isinstance(step, Takeover):
        raise RuleBroken("R-HANDOVER", f"{holder} has not yet checked their copy of the log "
                         "against the hand-over post: paste its checkpoint line from the "
                         "thread with shmod handover --accept 'LINE'")


def moderator(table: Table, step: Moderator) -> None:
    """R-MODERATORS: a moderator added to the list, or dropped from it: never the last one,
    nor the one moderation was handed over to."""
    name = check_name(step.name)
    found = listed(table, name)
    if step.drop:
        if found is None:
            raise RuleBroken("R-MODERATORS", f"{name!r} is not a moderator of this game "
                             f"(listed: {', '.join(table.moderators) or 'none'})")
        if len(table.moderators) == 1:
            raise RuleBroken("R-MODERATORS", "a game keeps at least one moderator")
        if table.handover is not None and table.handover[1] == found:
            raise RuleBroken("R-MODERATORS", f"moderation was handed over to {found}: hand it "
                             "over to another moderator before dropping them")
        table.moderators.remove(found)
        table.game.say(ModeratorsChanged, name=found, dropped=True,
                       moderators=tuple(table.moderators))
        if table.recorder is not None:
            table.announced = (table.entries, table.recorder)
        return
    if found is not None:
        raise RuleBroken("R-MODERATORS", f"{found} is a moderator of this game already")
    if len(table.moderators) >= MAX_MODERATORS:
        raise RuleBroken("R-MODERATORS", f"a game lists at most {MAX_MODERATORS} moderators")
    try:
        _refuse_alike(name, table.moderators, table.game.players)
    except BadInput as err:
        raise RuleBroken("R-MODERATORS", str(err).removeprefix("R-MODERATORS: ")) from None
    table.moderators.append(name)
    table.game.say(ModeratorsChanged, name=name, dropped=False,
                   moderators=tuple(table.moderators))


def handover(table: Table, step: Handover) -> None:
    """R-HANDOVER: moderation passes to another listed moderator, who records alone once
    they have checked their copy against the hand-over's post (:func:`takeover`); or a
    listed moderator takes it back from the one it was handed to (no check: their copy
    made the post)."""
    found = listed(table, step.name)
    if found is None:
        raise RuleBroken("R-HANDOVER", f"{step.name!r} is not a moderator of this game "
                         f"(listed: {', '.join(table.moderators) or 'none'}; shmod moderators "
                         "NAME adds one)")
    by = table.recorder
    if by is None:
        raise RuleBroken("R-HANDOVER", "a hand-over names the moderator who records it (--as "
                         "NAME, or SHMOD_MODERATOR)")
    holder = table.handover[1] if table.handover is not None else None
    if found == holder:
        raise RuleBroken("R-HANDOVER", f"moderation is with {found} already")
    if found == by and holder is None:
        raise RuleBroken("R-HANDOVER", f"{by} cannot hand moderation over to themselves")
    table.handover = (table.entries, found, by)
    table.taken = found == by  # taken back: the copy that records it made the post
    table.announced = (table.entries, by)
    table.game.say(HandedOver, old=holder or by, new=found, back=found == by)


def _announcing(table: Table, posted: int) -> bool:
    """Whether entry ``posted`` marks the post that announced the last hand-over."""
    post = handover_post(table)
    return post is not None and table.posts[post - 1] + 1 == posted


def handover_post(table: Table) -> int | None:
    """The number of the post that announced the last hand-over, once there is one."""
    if table.handover is None:
        return None
    entry = table.handover[0]
    return next((number for number, upto in enumerate(table.posts, 1) if upto >= entry), None)


def takeover(table: Table, step: Takeover) -> None:
    """R-HANDOVER: the incoming moderator has checked their copy against the hand-over
    post's checkpoint (the command checks the line; the entry says which post)."""
    if table.handover is None or table.taken:
        raise RuleBroken("R-HANDOVER", "no hand-over waits to be taken over")
    _, holder, _ = table.handover
    if table.recorder != holder:
        raise RuleBroken("R-HANDOVER", f"moderation was handed over to {holder}: only "
                         f"{holder} takes it over")
    post = handover_post(table)
    if post is None:
        raise RuleBroken("R-HANDOVER", "the hand-over has not been posted yet (shmod post)")
    if step.post != post:
        raise RuleBroken("R-HANDOVER", f"the hand-over was announced in post {post}, not post "
                         f"{step.post}")
    table.taken = True
