"""The game's own words: thread posts from the public view, PMs from one player's secrets.

Posts are built from :class:`~shmod.texts.views.PublicView` and its public history only;
a PM text is built from one :class:`~shmod.game.events.Secret`, addressed to one player.
"""
from __future__ import annotations

from collections.abc import Iterable

from shmod.forum.deadlines import late_votes
from shmod.forum.events import Dealt, Started
from shmod.game.events import (
    Chaos,
    Drawn,
    Enacted,
    Executed,
    ExecutedNotice,
    GameOver,
    Handed,
    Investigated,
    InvestigationResult,
    Nominated,
    Peeked,
    PeekResult,
    PowerGranted,
    PowerSkipped,
    Public,
    Reshuffled,
    RoleSent,
    RoundBegan,
    Secret,
    SpecialElectionCalled,
    Tallied,
    VetoAnswered,
    Vetoed,
    VetoProposed,
    VetoRequested,
    VetoVoteAsked,
    VetoVoted,
)
from shmod.game.terms import FASCIST, LIBERAL, POLICY_NAMES, POWER_NAMES, Policy
from shmod.log.checkpoints import COMMITMENT_LABEL, KEY_LABEL
from shmod.texts import phrases
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView

LIB_COLOUR, FAS_COLOUR = "#1f6fb2", "#c0392b"
ROLE_NAMES = {"liberal": "a Liberal", "fascist": "a Fascist", "hitler": "Hitler"}


def policy(fmt: Plain, card: Policy) -> str:
    """A policy's name, coloured by party where the format allows."""
    colour = LIB_COLOUR if card == LIBERAL else FAS_COLOUR
    return fmt.color(fmt.bold(POLICY_NAMES[card]), colour)


def cards(fmt: Plain, pile: Iterable[Policy], *, compact: bool = False) -> str:
    """A list of policies, each in bold and colour; ``compact``: each run of one party
    coloured once and not bold (forums cap a post's length, and the reveal names every
    card of the game)."""
    if not compact:
        return ", ".join(policy(fmt, c) for c in pile)
    runs: list[list[Policy]] = []
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
    b, e = fmt.bold, fmt.escape
    if isinstance(event, Started):
        return start_text(view, fmt, event)
    if isinstance(event, RoundBegan):
        heading = b(f"Round {event.round}")
        how = " by Special Election" if event.special else ""
        return f"{heading}: {b(e(event.president))} is the Presidential Candidate{how}."
    if isinstance(event, Dealt):
        words = "; ".join(f"{b(e(name))}: {e(word)}" for name, word in event.words)
        return fmt.lines([
            f"Every player has posted a word: {words}.",
            "The roles and the deck are dealt from these words and the moderator's seed, "
            "fixed by the commitment before any word was posted: nobody could choose the "
            "deal. Roles have been sent by PM.",
            f"The first Presidential Candidate is {b(e(event.president))}."])
    if isinstance(event, Nominated):
        special = " (Special Election)" if event.special else ""
        return (f"Presidential Candidate {b(e(event.president))}{special} nominates "
                f"{b(e(event.chancellor))} for Chancellor. Send your vote by PM: Ja or Nein.")
    if isinstance(event, Tallied):
        return tally_text(event, fmt, chaos_at=view.chaos_at,
                          late=late_votes(view.history).get(event.entry, ()))
    if isinstance(event, Enacted):
        if event.chaos:
            return None  # said by the chaos event
        return (f"President {b(e(event.president))} and Chancellor {b(e(event.chancellor))} "
                f"enacted a {policy(fmt, event.policy)} policy.")
    if isinstance(event, Chaos):
        return (f"The Election Tracker reaches {view.chaos_at}: the top policy is enacted: "
                f"{policy(fmt, event.policy)}. Any power it would grant is ignored, the "
                "Election Tracker resets and term limits are forgotten.")
    if isinstance(event, VetoProposed):
        return (f"Chancellor {b(e(event.chancellor))} proposes a veto. President "
                f"{b(e(event.president))}, do you agree?")
    if isinstance(event, VetoAnswered):
        answer = ("agrees to the veto" if event.accepted
                  else "refuses the veto; the Chancellor must enact a policy")
        return f"President {b(e(event.president))} {answer}."
    if isinstance(event, VetoVoted):
        return ("The President and the Chancellor vetoed the agenda." if event.vetoed
                else "The veto failed; the Chancellor's choice stands.")
    if isinstance(event, Vetoed):
        return (f"Both policies are discarded and nothing is enacted. Election Tracker: "
                f"{event.tracker}/{view.chaos_at}.")
    if isinstance(event, Reshuffled):
        return (f"Fewer than three policies were left: the draw and discard piles are "
                f"shuffled together. The draw pile now holds {event.draw}.")
    if isinstance(event, PowerGranted):
        return (f"President {b(e(event.president))} gains {b(POWER_NAMES[event.power])} and "
                "must use it before the next round.")
    if isinstance(event, PowerSkipped):
        return f"{POWER_NAMES[event.power]} has no legal target and is skipped."
    if isinstance(event, Investigated):
        return (f"President {b(e(event.president))} investigates {b(e(event.target))}'s party "
                "membership. The result has been sent to the President only.")
    if isinstance(event, SpecialElectionCalled):
        return (f"President {b(e(event.president))} calls a Special Election: "
                f"{b(e(event.target))} is the next Presidential Candidate.")
    if isinstance(event, Peeked):
        return (f"President {b(e(event.president))} looks at the top three policies; their "
                "order is unchanged.")
    if isinstance(event, Executed):
        tail = (f"{b(e(event.target))} was {b('Hitler')}." if event.hitler else
                f"{e(event.target)} was not Hitler; nothing more about their role is revealed.")
        return f"President {b(e(event.president))} executes {b(e(event.target))}. {tail}"
    if isinstance(event, GameOver):
        reason = phrases.win(fmt.lang, event.win, capital=True)
        return fmt.blocks([fmt.heading(f"Game over: the {event.win.team} win"),
                           f"{e(reason)}."])
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
            f"; the deck holds {view.deck[0]} Liberal + {view.deck[1]} Fascist"
            if "deck" in extra else "") + (
            f"; {view.start[0]} Liberal, {view.start[1]} Fascist policies enacted at the start"
            if "start" in extra else "") + ".")
        if "hitler_knows_fascists" in extra:
            out.append("Hitler knows the Fascists." if extra["hitler_knows_fascists"] == "yes"
                       else "Hitler does not know the Fascists.")
    return out


def start_text(view: PublicView, fmt: Plain, event: Started | None = None) -> str:
    """The opening post: seating, board and powers, variants, first President, commitment."""
    e = fmt.escape
    first_event = view.history[0] if view.history else None
    if event is None and isinstance(first_event, Started):
        event = first_event
    players = event.players if event else view.players
    powers = [
        f"Fascist policy {n}: {POWER_NAMES[p] if p else 'no power'}"
        for n, p in enumerate(view.powers, 1)
    ] + [f"Fascist policy {view.fascist_win}: the Fascists win"]
    house = house_rules(view)
    variants = ("Rules: the official rulebook, with these house rules (the moderator can post "
                "the full rules card):" if house else "Rules: the official rulebook, no house "
                "rules.")
    first = event.president if event else view.president
    by_players = event is not None and event.deal == "players"
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
    commitment = event.commitment if event else None
    if commitment:
        parts.append(f"{COMMITMENT_LABEL} (check it against the reveal at the end): "
                     f"{e(str(commitment))}")
    if event and event.key:
        parts.append(f"{KEY_LABEL} (it signs the checkpoint at the end of every post): "
                     f"{e(event.key)}")
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


def tally_text(event: Tallied, fmt: Plain, *, chaos_at: int = 3,
               late: tuple[str, ...] = ()) -> str:
    """R-VOTE: the seating-order list of every vote, totals, the majority and the result;
    ``late``: the votes a lapse cast as Nein (R-LAPSE), marked."""
    b, e = fmt.bold, fmt.escape
    rows = []
    for name, vote in event.votes:
        if vote is None:
            rows.append(fmt.italic(f"{e(name)}: dead"))
        else:
            marked = " (no vote by the deadline)" if name in late else ""
            rows.append(f"{b(e(name))}: {'Ja' if vote else 'Nein'}{marked}")
    totals = (f"Ja {event.ja}, Nein {event.nein}: {event.needed} Ja of {event.alive} alive "
              "were needed.")
    if event.eva_braun:
        result = [b("A tie with the Hitler zone reached: under the Eva Braun rule the tie "
                    "elects Hitler as Chancellor.")]
    elif event.elected:
        result = [b(f"Elected: President {e(event.president)}, Chancellor {e(event.chancellor)}.")]
        if event.not_hitler:
            result.append(f"With three or more Fascist policies down, the table learns that "
                          f"{b(e(event.chancellor))} is {b('not Hitler')}.")
    else:
        result = [b("The government is not elected.") +
                  f" Election Tracker: {event.tracker}/{chaos_at}."]
        if event.tracker >= chaos_at:
            result.append(f"{chaos_at} failed governments in a row: the country is thrown "
                          "into chaos.")
    return fmt.blocks([
        f"Votes on President {b(e(event.president))} and Chancellor {b(e(event.chancellor))}, "
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
    why = {"president": "last elected President", "chancellor": "last elected Chancellor"}
    limited = ", ".join(f"{e(n)} ({why[office]})" for n, office in view.term_limited) or (
        "nobody: the term limits are set aside for this nomination, as they leave no eligible "
        "nominee (R-NO-NOMINEE)" if view.limits_set_aside else "nobody")
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
    b, e = fmt.bold, fmt.escape
    if isinstance(secret, RoleSent):
        return role_text(secret.role, dict(secret.knows), fmt)
    if isinstance(secret, Drawn):
        return fmt.lines([f"You are President. Your three policies, top first: "
                          f"{cards(fmt, secret.cards)}.",
                          "Reply with the one policy you discard; the other two go to the "
                          "Chancellor."])
    if isinstance(secret, Handed):
        veto = ["Five Fascist policies are on the board: instead of enacting you may "
                "propose a veto, which the President must accept or refuse."] if secret.veto else []
        return fmt.lines([f"You are Chancellor. The President passed you: "
                          f"{cards(fmt, secret.cards)}.",
                          "Reply with the one policy you enact; the other is discarded.", *veto])
    if isinstance(secret, VetoRequested):
        return (f"Chancellor {b(e(secret.chancellor))} proposes to veto this agenda. Reply "
                "accept (both policies are discarded and the Election Tracker advances) "
                "or refuse (the Chancellor must enact one).")
    if isinstance(secret, VetoVoteAsked) and secret.chosen is None:  # the President's (R-PM)
        return (f"You passed the Chancellor {cards(fmt, secret.cards)}. The Chancellor has "
                "chosen one to enact. Vote in secret: Ja to veto both policies, Nein to let "
                "the Chancellor's choice stand. The veto needs both Ja.")
    if isinstance(secret, VetoVoteAsked):
        assert secret.chosen is not None
        return (f"The Chancellor has chosen to enact {policy(fmt, secret.chosen)} from "
                f"{cards(fmt, secret.cards)}. Vote in secret: Ja to veto both policies, Nein "
                "to let it stand. The veto needs both Ja.")
    if isinstance(secret, InvestigationResult):
        return f"{b(e(secret.target))}'s party membership is {b(secret.party)}."
    if isinstance(secret, PeekResult):
        return (f"The top three policies, top first: {cards(fmt, secret.cards)}. Their order "
                "is unchanged.")
    if isinstance(secret, ExecutedNotice):
        return (f"President {b(e(secret.president))} has executed you. From now on you may not "
                "post in the thread, vote, or hold office, and you must not reveal your role; "
                "you may keep reading.")
    raise ValueError(f"no PM text for {type(secret).__name__}")


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
