"""The words shmod writes: thread posts from the public view, PMs from one player's secrets.

Posts are built from :class:`~shmod.views.PublicView` and its public history only;
a PM text is built from one :class:`~shmod.state.Secret`, addressed to one player.
"""
from __future__ import annotations

from collections.abc import Iterable

from shmod.formats import Plain
from shmod.rules import FASCIST, LIBERAL, POLICY_NAMES, POWER_NAMES
from shmod.state import Public, Secret
from shmod.views import PublicView

LIB_COLOUR, FAS_COLOUR = "#1f6fb2", "#c0392b"
ROLE_NAMES = {"liberal": "a Liberal", "fascist": "a Fascist", "hitler": "Hitler"}


def policy(fmt: Plain, card: str) -> str:
    """A policy's name, coloured by party where the format allows."""
    colour = LIB_COLOUR if card == LIBERAL else FAS_COLOUR
    return fmt.color(fmt.bold(POLICY_NAMES[card]), colour)


def cards(fmt: Plain, pile: Iterable[str]) -> str:
    return ", ".join(policy(fmt, c) for c in pile)


# -- thread posts -------------------------------------------------------------------


def event_text(view: PublicView, event: Public, fmt: Plain) -> str | None:
    """One public event as post text; ``None`` for events that need no words."""
    d = event.data
    b, e = fmt.bold, fmt.escape
    kind = event.kind
    if kind == "start":
        return start_text(view, fmt)
    if kind == "round":
        return f"Round {d['round']}: {b(e(d['president']))} is the Presidential Candidate."
    if kind == "nominate":
        special = " (Special Election)" if d["special"] else ""
        return (f"{b(e(d['president']))}{special} nominates {b(e(d['chancellor']))} "
                "for Chancellor. Send your vote by PM: Ja or Nein.")
    if kind == "tally":
        return tally_text(event, fmt)
    if kind == "enact":
        if d["chaos"]:
            return None  # said by the chaos event
        return (f"President {b(e(d['president']))} and Chancellor {b(e(d['chancellor']))} "
                f"enacted a {policy(fmt, d['policy'])} policy.")
    if kind == "chaos":
        return (f"Three governments in a row have failed: the country is thrown into chaos. "
                f"The top policy is enacted: {policy(fmt, d['policy'])}. Any power it would "
                "grant is ignored, the Election Tracker resets and term limits are forgotten.")
    if kind == "veto_proposed":
        return (f"Chancellor {b(e(d['chancellor']))} proposes a veto. President "
                f"{b(e(d['president']))}, do you agree?")
    if kind == "veto_answered":
        answer = "agrees to the veto" if d["accepted"] else "refuses the veto; the Chancellor must enact"
        return f"President {b(e(d['president']))} {answer}."
    if kind == "veto_result":
        return "The government vetoed its agenda." if d["vetoed"] else None
    if kind == "vetoed":
        return (f"Both policies are discarded and nothing is enacted. Election Tracker: "
                f"{d['tracker']}/{view.chaos_at}.")
    if kind == "reshuffle":
        return (f"Fewer than three policies were left: the draw and discard piles are "
                f"shuffled together. The draw pile now holds {d['draw']}.")
    if kind == "power":
        return (f"President {b(e(d['president']))} gains {b(POWER_NAMES[d['power']])} and "
                "must use it before the next round.")
    if kind == "power_skipped":
        return f"{POWER_NAMES[d['power']]} has no legal target and is skipped (R-NO-TARGET)."
    if kind == "investigate":
        return (f"President {b(e(d['president']))} investigates {b(e(d['target']))}'s party "
                "membership. The result has been sent to the President only.")
    if kind == "special_election":
        return (f"President {b(e(d['president']))} calls a Special Election: "
                f"{b(e(d['target']))} is the next Presidential Candidate.")
    if kind == "peek":
        return (f"President {b(e(d['president']))} looks at the top three policies; their "
                "order is unchanged.")
    if kind == "execute":
        tail = (f"{b(e(d['target']))} was {b('Hitler')}." if d["hitler"] else
                f"{e(d['target'])} was not Hitler; nothing more about their role is revealed.")
        return f"President {b(e(d['president']))} executes {b(e(d['target']))}. {tail}"
    if kind == "game_over":
        return fmt.heading(f"Game over: the {d['winner']} win") + f"\n{e(d['reason'])}."
    if kind in ("deadline", "replace", "correction"):
        from shmod import forum_texts

        return forum_texts.event_text(view, event, fmt)
    return None


def start_text(view: PublicView, fmt: Plain) -> str:
    """The opening post: seating, board and powers, variants, first President."""
    e = fmt.escape
    powers = [
        f"Fascist policy {n}: {POWER_NAMES[p] if p else 'no power'}"
        for n, p in enumerate(view.powers, 1)
    ] + [f"Fascist policy {view.fascist_win}: the Fascists win"]
    variants = ", ".join(f"{k}={v}" for k, v in view.variants)
    return "\n".join([
        fmt.heading(f"Secret Hitler: {len(view.players)} players"),
        "Seating order:",
        fmt.numbered([e(p) for p in view.players]),
        f"Board for {view.board} players:",
        fmt.bullets(powers),
        f"Veto unlocked after {view.veto_zone} Fascist policies; Hitler elected Chancellor "
        f"after {view.hitler_zone} wins it for the Fascists.",
        f"Rules: {variants}.",
        "Roles have been sent by PM.",
        f"The first Presidential Candidate is {fmt.bold(e(view.players and _first(view)))}.",
    ])


def _first(view: PublicView) -> str:
    start = view.history[0] if view.history else None
    return str(start.data["president"]) if start else view.president


def tally_text(event: Public, fmt: Plain) -> str:
    """R-VOTE: the seating-order list of every vote, totals, the majority and the result."""
    d = event.data
    b, e = fmt.bold, fmt.escape
    rows = []
    for name, vote in d["votes"]:
        if vote is None:
            rows.append(fmt.italic(f"{e(name)}: dead"))
        else:
            rows.append(f"{e(name)}: {b('Ja') if vote else b('Nein')}")
    lines = [
        f"Votes on President {b(e(d['president']))} and Chancellor {b(e(d['chancellor']))}, "
        "in seating order:",
        fmt.numbered(rows),
        f"Ja {d['ja']}, Nein {d['nein']}. {d['needed']} of {d['alive']} alive were needed.",
    ]
    if d.get("eva_braun"):
        lines.append(b("A tie with the Hitler zone reached: under the Eva Braun rule the "
                       "tie elects Hitler as Chancellor."))
    elif d["elected"]:
        lines.append(b("The government is elected."))
        if d.get("not_hitler"):
            lines.append(f"{e(d['chancellor'])} is {b('not Hitler')}.")
    else:
        lines.append(b("The government is not elected.") +
                     f" Election Tracker: {d['tracker']}/3.")
    return "\n".join(lines)


def board_text(view: PublicView, fmt: Plain) -> str:
    """A compact board state to end a post with."""
    next_power = view.powers[view.fascist] if view.fascist < len(view.powers) else None
    powers = f" (next: {POWER_NAMES[next_power]})" if next_power else ""
    limited = ", ".join(fmt.escape(n) for n, _ in view.term_limited) or "nobody"
    dead = [fmt.escape(n) for n, up in zip(view.players, view.alive) if not up]
    lines = [
        f"Liberal policies: {view.liberal}/{view.liberal_win} | Fascist policies: "
        f"{view.fascist}/{view.fascist_win}{powers} | Election Tracker: "
        f"{view.tracker}/{view.chaos_at}",
        f"Draw pile: {view.draw_size} | Discard pile: {view.discard_size} | "
        f"Alive: {view.living} of {len(view.players)}",
    ]
    if view.winner is None:
        lines.append(f"President: {fmt.escape(view.president)} | Term-limited: {limited}")
        if view.not_hitler:
            lines.append("Confirmed not Hitler: " + ", ".join(map(fmt.escape, view.not_hitler)))
    if dead:
        lines.append("Dead: " + ", ".join(dead))
    if view.replacing:
        lines.append("Replacements: " + ", ".join(f"{fmt.escape(new)} (replacing "
                                                  f"{fmt.escape(old)})" for new, old in view.replacing))
    return fmt.quote("\n".join(lines))


def post(view: PublicView, events: Iterable[Public], fmt: Plain, *, board: bool = True) -> str:
    """A thread post covering ``events``, ending with the board state."""
    parts = [t for t in (event_text(view, ev, fmt) for ev in events) if t]
    if board:
        parts.append(board_text(view, fmt))
    return "\n\n".join(parts)


# -- PMs ----------------------------------------------------------------------------


def pm_text(secret: Secret, fmt: Plain) -> str:
    """The full text of one PM to ``secret.to``."""
    d = secret.data
    b, e = fmt.bold, fmt.escape
    kind = secret.kind
    if kind == "role":
        return role_text(d["role"], d["knows"], fmt)
    if kind == "draw":
        return (f"You are President. Your three policies, top first: {cards(fmt, d['cards'])}.\n"
                "Reply with the one policy you discard; the other two go to the Chancellor.")
    if kind == "hand":
        veto = ("\nFive Fascist policies are on the board: instead of enacting you may "
                "propose a veto, which the President must accept or refuse.") if d["veto"] else ""
        return (f"You are Chancellor. The President passed you: {cards(fmt, d['cards'])}.\n"
                f"Reply with the one policy you enact; the other is discarded.{veto}")
    if kind == "veto_request":
        return (f"Chancellor {b(e(d['chancellor']))} proposes to veto this agenda. Reply "
                "accept (both policies are discarded and the Election Tracker advances) "
                "or refuse (the Chancellor must enact one).")
    if kind == "veto_vote":
        return (f"The Chancellor has chosen to enact {policy(fmt, d['chosen'])} from "
                f"{cards(fmt, d['cards'])}. Vote in secret: Ja to veto both policies, Nein "
                "to let it stand. The veto needs both Ja.")
    if kind == "investigation":
        return f"{b(e(d['target']))}'s party membership is {b(d['party'])}."
    if kind == "peek":
        return f"The top three policies, top first: {cards(fmt, d['cards'])}. Their order is unchanged."
    if kind == "briefing":
        from shmod import forum_texts

        return forum_texts.pm_text(secret, fmt)
    raise ValueError(f"no PM text for {kind!r}")


def role_text(role: str, known: dict[str, str], fmt: Plain) -> str:
    """R-ROLE-PM: the role and, by R-KNOW, whom the player knows."""
    b, e = fmt.bold, fmt.escape
    party = "Liberal" if role == "liberal" else "Fascist"
    lines = [f"Your secret role: you are {b(ROLE_NAMES[role])}. Your party is {b(party)}."]
    hitler = [n for n, r in known.items() if r == "hitler"]
    fascists = [n for n, r in known.items() if r == "fascist"]
    if role == "liberal":
        lines.append("You do not know anyone's role.")
    elif role == "fascist":
        lines.append(f"Hitler is {b(e(hitler[0]))}." if hitler else "")
        if fascists:
            lines.append("Your fellow Fascist(s): " + ", ".join(b(e(n)) for n in fascists) + ".")
        else:
            lines.append("There are no other Fascists.")
    elif fascists:
        lines.append("The Fascist(s): " + ", ".join(b(e(n)) for n in fascists) + ". They know you.")
    else:
        lines.append("You do not know who the Fascists are; they know you are Hitler.")
    return "\n".join(line for line in lines if line)


__all__ = ["FASCIST", "board_text", "event_text", "pm_text", "post", "tally_text"]
