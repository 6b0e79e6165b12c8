"""The game's own words: thread posts from the public view, PMs from one player's secrets.

Posts are built from :class:`~shmod.texts.views.PublicView` and its public history only;
a PM text is built from one :class:`~shmod.core.state.Secret`, addressed to one player.
"""
from __future__ import annotations

from collections.abc import Iterable

from shmod.core.rules import FASCIST, LIBERAL, POLICY_NAMES, POWER_NAMES
from shmod.core.state import Public, Secret
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView

LIB_COLOUR, FAS_COLOUR = "#1f6fb2", "#c0392b"
ROLE_NAMES = {"liberal": "a Liberal", "fascist": "a Fascist", "hitler": "Hitler"}


def policy(fmt: Plain, card: str) -> str:
    """A policy's name, coloured by party where the format allows."""
    colour = LIB_COLOUR if card == LIBERAL else FAS_COLOUR
    return fmt.color(fmt.bold(POLICY_NAMES[card]), colour)


def cards(fmt: Plain, pile: Iterable[str], *, compact: bool = False) -> str:
    """A list of policies, each in bold and colour; ``compact``: each run of one party
    coloured once and not bold (forums cap a post's length, and the reveal names every
    card of the game)."""
    if not compact:
        return ", ".join(policy(fmt, c) for c in pile)
    runs: list[list[str]] = []
    for card in pile:
        if runs and runs[-1][0] == card:
            runs[-1].append(card)
        else:
            runs.append([card])
    return ", ".join(fmt.color(", ".join(POLICY_NAMES[c] for c in run),
                               LIB_COLOUR if run[0] == LIBERAL else FAS_COLOUR)
                     for run in runs)


# -- thread posts -------------------------------------------------------------------


def event_text(view: PublicView, event: Public, fmt: Plain) -> str | None:
    """One public event as post text; ``None`` for events that need no words."""
    d = event.data
    b, e = fmt.bold, fmt.escape
    kind = event.kind
    if kind == "start":
        return start_text(view, fmt, event)
    if kind == "round":
        heading = b(f"Round {d['round']}")
        how = " by Special Election" if d.get("special") else ""
        return f"{heading}: {b(e(d['president']))} is the Presidential Candidate{how}."
    if kind == "dealt":
        words = "; ".join(f"{b(e(name))}: {e(word)}" for name, word in d["words"])
        return fmt.lines([
            f"Every player has posted a word: {words}.",
            "The roles and the deck are dealt from these words and the moderator's seed, "
            "fixed by the commitment before any word was posted: nobody could choose the "
            "deal. Roles have been sent by PM.",
            f"The first Presidential Candidate is {b(e(d['president']))}."])
    if kind == "nominate":
        special = " (Special Election)" if d["special"] else ""
        return (f"Presidential Candidate {b(e(d['president']))}{special} nominates "
                f"{b(e(d['chancellor']))} for Chancellor. Send your vote by PM: Ja or Nein.")
    if kind == "tally":
        return tally_text(event, fmt, chaos_at=view.chaos_at)
    if kind == "enact":
        if d["chaos"]:
            return None  # said by the chaos event
        return (f"President {b(e(d['president']))} and Chancellor {b(e(d['chancellor']))} "
                f"enacted a {policy(fmt, d['policy'])} policy.")
    if kind == "chaos":
        return (f"The Election Tracker reaches {view.chaos_at}: the top policy is enacted: "
                f"{policy(fmt, d['policy'])}. Any power it would grant is ignored, the "
                "Election Tracker resets and term limits are forgotten.")
    if kind == "veto_proposed":
        return (f"Chancellor {b(e(d['chancellor']))} proposes a veto. President "
                f"{b(e(d['president']))}, do you agree?")
    if kind == "veto_answered":
        answer = ("agrees to the veto" if d["accepted"]
                  else "refuses the veto; the Chancellor must enact a policy")
        return f"President {b(e(d['president']))} {answer}."
    if kind == "veto_result":
        return ("The President and the Chancellor vetoed the agenda." if d["vetoed"]
                else "The veto failed; the Chancellor's choice stands.")
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
        return f"{POWER_NAMES[d['power']]} has no legal target and is skipped."
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
        reason = str(d["reason"])
        return fmt.blocks([fmt.heading(f"Game over: the {d['winner']} win"),
                           f"{e(reason[:1].upper() + reason[1:])}."])
    return None


#: What a switch that is on means, for players (a default switch is not mentioned).
HOUSE_RULES = {
    ("late_vote", "nein"): "A player who has not voted when the deadline passes is counted "
    "as voting Nein.",
    ("late_nomination", "fail"): "A Presidential Candidate who has not nominated when the "
    "deadline passes loses the turn: it counts as a failed election.",
    ("late_choice", "random"): "A discard, an enactment or a power's target not sent when "
    "the deadline passes is drawn at random (from the game's seed, so anyone can check it "
    "after the game), and an unanswered veto is refused.",
    ("term5", "seated"): "Only because this game started with five players may the last "
    "President be nominated Chancellor; with five left in a bigger game, both term limits "
    "stay.",
    ("veto", "secret-vote"): "The veto works as online: the Chancellor picks the policy to "
    "enact, then the President and the Chancellor vote on the veto in secret, and it needs "
    "both Ja.",
    ("tracker_reset", "election"): "A successful election also sets the Election Tracker "
    "back to zero.",
    ("rebalanced", "on"): "Rebalanced setup: six-player games start with a Fascist policy "
    "on the board; seven- and nine-player games have one Fascist policy fewer in the deck.",
    ("first_president", "seat1"): "The first Presidential Candidate is the first player "
    "in the seating order.",
    ("eva_braun", "on"): "Eva Braun house rule: once three Fascist policies are down, a tied "
    "vote on a Hitler Chancellor elects him, and the Fascists win.",
}


def house_rules(view: PublicView) -> list[str]:
    """Every house rule in force and everything a custom game changed, in sentences for
    players (never a switch's name)."""
    out = [HOUSE_RULES[(k, v)] for k, v in view.variants if (k, v) in HOUSE_RULES]
    if view.custom:
        extra = dict(view.variants)
        out.append("A custom board: the powers are as listed above" + (
            f"; the deck holds {extra['deck']}" if "deck" in extra else "") + (
            f"; {extra['start']} at the start" if "start" in extra else "") + ".")
        if "hitler_knows_fascists" in extra:
            out.append("Hitler knows the Fascists." if extra["hitler_knows_fascists"] == "yes"
                       else "Hitler does not know the Fascists.")
    return out


def start_text(view: PublicView, fmt: Plain, event: Public | None = None) -> str:
    """The opening post: seating, board and powers, variants, first President, commitment."""
    e = fmt.escape
    data = event.data if event else (view.history[0].data if view.history else {})
    players = data.get("players", view.players)
    powers = [
        f"Fascist policy {n}: {POWER_NAMES[p] if p else 'no power'}"
        for n, p in enumerate(view.powers, 1)
    ] + [f"Fascist policy {view.fascist_win}: the Fascists win"]
    house = house_rules(view)
    variants = ("Rules: the official rulebook, with these house rules (the moderator can post "
                "the full rules card):" if house else "Rules: the official rulebook, no house "
                "rules.")
    first = data.get("president", view.president)
    by_players = data.get("deal") == "players"
    dealt = ("The roles are not dealt yet." if by_players else "Roles have been sent by PM.")
    parts = [
        fmt.heading(f"Secret Hitler: {len(players)} players"),
        "Seating order (play passes down this list):",
        fmt.numbered([fmt.bold(e(p)) for p in players]),
        "The custom board:" if view.custom else f"Board for {view.board} players:",
        fmt.bullets(powers),
        fmt.lines([
            f"Liberals win with {view.liberal_win} Liberal policies or by executing Hitler.",
            (f"Veto unlocked after {view.veto_zone} Fascist policies; " if
             view.veto_zone < view.fascist_win else "There is no veto in this game; ")
            + f"Hitler elected Chancellor after {view.hitler_zone} wins it for the Fascists.",
            variants,
        ]),
        fmt.bullets(house) if house else "",
        dealt,
    ]
    commitment = data.get("commitment")
    if commitment:
        parts.append(f"Setup commitment (check it against the reveal at the end): "
                     f"{e(str(commitment))}")
    if by_players:
        parts.append(fmt.lines([
            fmt.bold("Every player: post one word in this thread") + " (anything up to "
            "40 characters; your first word counts).",
            "Once every word is in, the roles and the deck are dealt from the words and "
            "from the moderator's secret seed, which the commitment above fixed before any "
            "word was posted: nobody, the moderator included, can choose the deal."]))
    if first:
        parts.append(f"The first Presidential Candidate is {fmt.bold(e(first))}.")
    elif by_players:
        parts.append("The first Presidential Candidate is drawn with the deal.")
    return fmt.blocks(parts)


def tally_text(event: Public, fmt: Plain, *, chaos_at: int = 3) -> str:
    """R-VOTE: the seating-order list of every vote, totals, the majority and the result."""
    d = event.data
    b, e = fmt.bold, fmt.escape
    rows = []
    late = set(d.get("late") or ())
    for name, vote in d["votes"]:
        if vote is None:
            rows.append(fmt.italic(f"{e(name)}: dead"))
        else:
            marked = " (no vote by the deadline)" if name in late else ""
            rows.append(f"{b(e(name))}: {'Ja' if vote else 'Nein'}{marked}")
    totals = (f"Ja {d['ja']}, Nein {d['nein']}: {d['needed']} Ja of {d['alive']} alive "
              "were needed.")
    if d.get("eva_braun"):
        result = [b("A tie with the Hitler zone reached: under the Eva Braun rule the tie "
                    "elects Hitler as Chancellor.")]
    elif d["elected"]:
        result = [b(f"Elected: President {e(d['president'])}, Chancellor {e(d['chancellor'])}.")]
        if d.get("not_hitler"):
            result.append(f"With three or more Fascist policies down, the table learns that "
                          f"{b(e(d['chancellor']))} is {b('not Hitler')}.")
    else:
        result = [b("The government is not elected.") +
                  f" Election Tracker: {d['tracker']}/{chaos_at}."]
        if d["tracker"] >= chaos_at:
            result.append(f"{chaos_at} failed governments in a row: the country is thrown "
                          "into chaos.")
    return fmt.blocks([
        f"Votes on President {b(e(d['president']))} and Chancellor {b(e(d['chancellor']))}, "
        "in seating order:",
        fmt.numbered(rows),
        fmt.lines([totals, *result]),
    ])


def pending_vote_text(view: PublicView, fmt: Plain) -> str | None:
    """While votes come in: how many have voted and who has not; never the votes (R-VOTE).
    Before a deal from the players' words: who has posted one (R-DEAL)."""
    if view.phase == "deal":
        missing = ", ".join(fmt.bold(fmt.escape(n)) for n in view.waiting_on)
        return (f"Words for the deal: {len(view.voted)} of {len(view.players)} players have "
                f"posted one. Still to post a word: {missing}.")
    if view.phase != "vote" or view.chancellor is None:
        return None
    missing = ", ".join(fmt.bold(fmt.escape(n)) for n in view.waiting_on)
    return (f"Votes on President {fmt.bold(fmt.escape(view.president))} and Chancellor "
            f"{fmt.bold(fmt.escape(view.chancellor))}: {len(view.voted)} of {view.living} "
            f"living players have voted. Still to vote: {missing}.")


def prompt_text(view: PublicView, fmt: Plain) -> str | None:
    """Whose move it is now, as the thread may know it (R-THREAD)."""
    b, e = fmt.bold, fmt.escape
    pres = b(e(view.president))
    if view.winner is not None or view.phase == "reshuffle":
        return None
    if view.phase == "nominate":
        return f"{fmt.italic('Now:')} Presidential Candidate {pres}, nominate a Chancellor."
    if view.phase in ("vote", "deal"):
        return pending_vote_text(view, fmt)
    chan = b(e(view.chancellor or ""))
    if view.phase == "veto_answer":
        return f"{fmt.italic('Now:')} President {pres}, accept or refuse the veto."
    if view.phase == "power" and view.power:
        target = "" if view.power == "peek" else ", naming your target"
        return f"{fmt.italic('Now:')} President {pres}, use {b(POWER_NAMES[view.power])}{target}."
    return (f"{fmt.italic('Now:')} the Legislative Session of President {pres} and "
            f"Chancellor {chan}. Policies are passed by PM.")


def board_text(view: PublicView, fmt: Plain) -> str:
    """A compact board state to end a post with."""
    e = fmt.escape
    next_power = view.powers[view.fascist] if view.fascist < len(view.powers) else None
    powers = f" (next: {POWER_NAMES[next_power]})" if next_power else ""
    limited = ", ".join(f"{e(n)} ({why})" for n, why in view.term_limited) or "nobody"
    dead = [e(n) for n, up in zip(view.players, view.alive) if not up]
    lines = [
        f"Liberal policies: {view.liberal}/{view.liberal_win} | Fascist policies: "
        f"{view.fascist}/{view.fascist_win}{powers} | Election Tracker: "
        f"{view.tracker}/{view.chaos_at}",
        f"Draw pile: {view.draw_size} | Discard pile: {view.discard_size} | "
        f"Alive: {view.living} of {len(view.players)}",
    ]
    if view.winner is None:
        if view.phase == "deal":
            lines.append("Roles: not dealt yet (waiting for every player's word)")
        elif view.phase == "nominate":
            lines.append(f"Presidential Candidate: {e(view.president)}")
        else:
            chancellor = f", Chancellor: {e(view.chancellor)}" if view.chancellor else ""
            office = "President"
            if view.phase == "vote":  # nobody is elected yet
                office = "Presidential Candidate"
                chancellor = f", Chancellor nominee: {e(view.chancellor or '')}"
            upcoming = e(view.next_president or "chosen by Special Election")
            lines.append(f"{office}: {e(view.president)}{chancellor} | Next Presidential "
                         f"Candidate: {upcoming}")
        lines.append(f"Term-limited: {limited}")
        if view.not_hitler:
            lines.append("Confirmed not Hitler: " + ", ".join(map(e, view.not_hitler)))
    zones = [text for reached, text in (
        (view.fascist >= view.hitler_zone, "Hitler elected Chancellor wins for the Fascists"),
        (view.fascist >= view.veto_zone, "the veto is unlocked"),
    ) if reached]
    if zones and view.winner is None:
        lines.append("Now: " + "; ".join(zones) + ".")
    if dead:
        lines.append("Dead: " + ", ".join(dead))
    if view.replacing:
        lines.append("Replacements: " + ", ".join(f"{e(new)} (replacing {e(old)})"
                                                  for new, old in view.replacing))
    return fmt.quote(fmt.lines(lines))


# -- PMs ----------------------------------------------------------------------------


def pm_text(secret: Secret, fmt: Plain) -> str:
    """The full text of one PM to ``secret.to``."""
    d = secret.data
    b, e = fmt.bold, fmt.escape
    kind = secret.kind
    if kind == "role":
        return role_text(d["role"], d["knows"], fmt)
    if kind == "draw":
        return fmt.lines([f"You are President. Your three policies, top first: "
                          f"{cards(fmt, d['cards'])}.",
                          "Reply with the one policy you discard; the other two go to the "
                          "Chancellor."])
    if kind == "hand":
        veto = ["Five Fascist policies are on the board: instead of enacting you may "
                "propose a veto, which the President must accept or refuse."] if d["veto"] else []
        return fmt.lines([f"You are Chancellor. The President passed you: {cards(fmt, d['cards'])}.",
                          "Reply with the one policy you enact; the other is discarded.", *veto])
    if kind == "veto_request":
        return (f"Chancellor {b(e(d['chancellor']))} proposes to veto this agenda. Reply "
                "accept (both policies are discarded and the Election Tracker advances) "
                "or refuse (the Chancellor must enact one).")
    if kind == "veto_vote" and "chosen" not in d:  # the President's (R-PM)
        return (f"You passed the Chancellor {cards(fmt, d['cards'])}. The Chancellor has "
                "chosen one to enact. Vote in secret: Ja to veto both policies, Nein to let "
                "the Chancellor's choice stand. The veto needs both Ja.")
    if kind == "veto_vote":
        return (f"The Chancellor has chosen to enact {policy(fmt, d['chosen'])} from "
                f"{cards(fmt, d['cards'])}. Vote in secret: Ja to veto both policies, Nein "
                "to let it stand. The veto needs both Ja.")
    if kind == "investigation":
        return f"{b(e(d['target']))}'s party membership is {b(d['party'])}."
    if kind == "peek":
        return f"The top three policies, top first: {cards(fmt, d['cards'])}. Their order is unchanged."
    if kind == "executed":
        return (f"President {b(e(d['president']))} has executed you. From now on you may not "
                "post in the thread, vote, or hold office, and you must not reveal your role; "
                "you may keep reading.")
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
    return fmt.lines([line for line in lines if line])


__all__ = ["FASCIST", "board_text", "event_text", "pending_vote_text", "pm_text",
           "prompt_text", "tally_text"]
