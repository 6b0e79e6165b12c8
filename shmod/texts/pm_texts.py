"""The game's PMs: each from one :class:`~shmod.game.events.Secret`, addressed to one player
(R-PM), in the game's language (``fmt.lang``).
"""
from __future__ import annotations

from shmod.game.events import (
    Drawn,
    ExecutedNotice,
    Handed,
    InvestigationResult,
    PeekResult,
    RoleSent,
    Secret,
    VetoRequested,
    VetoVoteAsked,
)
from shmod.texts.formats import Plain
from shmod.texts.markup import ballots, cards, marks, policy


def pm_text(secret: Secret, fmt: Plain) -> str:
    """The full text of one PM to ``secret.to``."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    if isinstance(secret, RoleSent):
        return role_text(secret.role, dict(secret.knows), fmt)
    if isinstance(secret, Drawn):
        return fmt.lines([t._("You are President. Your three policies, top first: {cards}.",
                              cards=cards(fmt, secret.cards)),
                          t._("Reply with the one policy you discard; the other two go to the "
                              "Chancellor.")])
    if isinstance(secret, Handed):
        veto = [_veto_open(secret.fascist, fmt)] if secret.veto else []
        return fmt.lines([t._("You are Chancellor. The President passed you: {cards}.",
                              cards=cards(fmt, secret.cards)),
                          t._("Reply with the one policy you enact; the other is discarded."),
                          *veto])
    if isinstance(secret, VetoRequested):
        return t._("Chancellor {chancellor} proposes to veto this agenda. Reply accept (both "
                   "policies are discarded and the Election Tracker advances) or refuse (the "
                   "Chancellor must enact one).", chancellor=b(e(secret.chancellor)))
    if isinstance(secret, VetoVoteAsked) and secret.chosen is None:  # the President's (R-PM)
        # TRANSLATORS: {ja} and {nein} are the ballots, the same in every language.
        return t._("You passed the Chancellor {cards}. The Chancellor has chosen one to enact. "
                   "Vote in secret: {ja} to veto both policies, {nein} to let the Chancellor's "
                   "choice stand. The veto needs both {ja}.", cards=cards(fmt, secret.cards),
                   **ballots())
    if isinstance(secret, VetoVoteAsked):
        assert secret.chosen is not None
        # TRANSLATORS: {policy} is the policy chosen, {cards} the two; {ja} and {nein} are
        # the ballots, the same in every language.
        return t._("The Chancellor has chosen to enact {policy} from {cards}. Vote in secret: "
                   "{ja} to veto both policies, {nein} to let it stand. The veto needs both "
                   "{ja}.", policy=policy(fmt, secret.chosen), cards=cards(fmt, secret.cards),
                   **ballots())
    if isinstance(secret, InvestigationResult):
        # TRANSLATORS: {on} and {off} put the party in bold; {target} is a player's name.
        return (t._("{target}'s party membership is {on}Liberal{off}.",
                    target=b(e(secret.target)), **marks(b)) if secret.party == "Liberal" else
                t._("{target}'s party membership is {on}Fascist{off}.",
                    target=b(e(secret.target)), **marks(b)))
    if isinstance(secret, PeekResult):
        return t._("The top three policies, top first: {cards}. Their order is unchanged.",
                   cards=cards(fmt, secret.cards))
    if isinstance(secret, ExecutedNotice):
        return t._("President {president} has executed you. From now on you may not post in "
                   "the thread, vote, or hold office, and you must not reveal your role; you "
                   "may keep reading.", president=b(e(secret.president)))
    raise ValueError(f"no PM text for {type(secret).__name__}")


def _veto_open(fascist: int, fmt: Plain) -> str:
    """R-VETO: the Chancellor may propose a veto; how many Fascist policies the board holds
    (a custom board unlocks the veto earlier than the fifth)."""
    t = fmt.lang
    if fascist == 5:
        return t._("Five Fascist policies are on the board: instead of enacting you may "
                   "propose a veto, which the President must accept or refuse.")
    # TRANSLATORS: {n} Fascist policies are on the board (a custom board unlocks the veto
    # after fewer than five).
    return t._n("{n} Fascist policy is on the board: instead of enacting you may propose a "
                "veto, which the President must accept or refuse.", "{n} Fascist policies "
                "are on the board: instead of enacting you may propose a veto, which the "
                "President must accept or refuse.", fascist)


def role_text(role: str, known: dict[str, str], fmt: Plain) -> str:
    """R-ROLE-PM: the role and, by R-KNOW, whom the player knows."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    # TRANSLATORS: in the role PM's first line, {on} and {off} put the role and the party
    # in bold.
    lines = [t._("Your secret role: you are {on}a Liberal{off}. Your party is "
                 "{on}Liberal{off}.", **marks(b)) if role == "liberal" else
             t._("Your secret role: you are {on}a Fascist{off}. Your party is "
                 "{on}Fascist{off}.", **marks(b)) if role == "fascist" else
             t._("Your secret role: you are {on}Hitler{off}. Your party is "
                 "{on}Fascist{off}.", **marks(b))]
    hitler = [n for n, r in known.items() if r == "hitler"]
    fascists = [n for n, r in known.items() if r == "fascist"]
    names = ", ".join(b(e(n)) for n in fascists)
    if role == "liberal":
        lines.append(t._("You do not know anyone's role."))
    elif role == "fascist":
        if hitler:
            lines.append(t._("Hitler is {name}.", name=b(e(hitler[0]))))
        if fascists:
            # TRANSLATORS: {names} lists the other Fascists ({n} of them).
            lines.append(t._n("Your fellow Fascist: {names}.", "Your fellow Fascists: {names}.",
                              len(fascists), names=names))
        else:
            lines.append(t._("There are no other Fascists."))
    elif fascists:
        # TRANSLATORS: Hitler's PM: {names} lists the Fascists ({n} of them).
        lines.append(t._n("The Fascist: {names}. They know you.",
                          "The Fascists: {names}. They know you.", len(fascists),
                          names=names))
    else:
        lines.append(t._("You do not know who the Fascists are; they know you are Hitler."))
    return fmt.lines(lines)
