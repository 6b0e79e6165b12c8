"""The game's own words: thread posts from the public view, PMs from one player's secrets.

Posts are built from :class:`~shmod.texts.views.PublicView` and its public history only;
a PM text is built from one :class:`~shmod.game.events.Secret`, addressed to one player.
Every sentence is a message of the game's language (``fmt.lang``,
:mod:`shmod.texts.catalog`); a word a sentence marks up itself (a coloured policy, a bold
phrase) sits between the fields ``{on}`` and ``{off}`` (:mod:`shmod.texts.markup`). The
game's PMs are :mod:`shmod.texts.pm_texts`.
"""
from __future__ import annotations

from shmod.forum.deadlines import lapses, late_votes
from shmod.forum.events import Dealt, Started
from shmod.forum.terms import SeedSource
from shmod.game.events import (
    Chaos,
    Enacted,
    Executed,
    GameOver,
    Investigated,
    Nominated,
    Peeked,
    PowerGranted,
    PowerSkipped,
    Public,
    Reshuffled,
    RoundBegan,
    SpecialElectionCalled,
    Tallied,
    VetoAnswered,
    Vetoed,
    VetoProposed,
    VetoVoted,
)
from shmod.game.terms import FASCIST, LIBERAL
from shmod.log.checkpoints import COMMITMENT_LABEL, KEY_LABEL
from shmod.texts import glossary, phrases
from shmod.texts.catalog import N_
from shmod.texts.formats import Plain
from shmod.texts.markup import ballots, cards, marks, paint, policy
from shmod.texts.views import PublicView, removed_names
from shmod.texts.wordings import PostWords


def _round_began(view: PublicView, event: RoundBegan, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    # TRANSLATORS: the heading of a round in a post, in bold.
    heading = b(t._("Round {round}", round=event.round))
    if event.special:
        # TRANSLATORS: {round} is "Round 3" in bold; {president} a player's name.
        return t._("{round}: {president} is the Presidential Candidate by Special "
                   "Election.", round=heading, president=b(e(event.president)))
    # TRANSLATORS: {round} is "Round 3" in bold; {president} a player's name.
    return t._("{round}: {president} is the Presidential Candidate.", round=heading,
               president=b(e(event.president)))


def _dealt(view: PublicView, event: Dealt, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    # TRANSLATORS: one player's word for the deal, in a list of them.
    words = "; ".join(t._("{name}: {word}", name=b(e(name)), word=e(word))
                      for name, word in event.words)
    return fmt.lines([
        t._("Every player has posted a word: {words}.", words=words),
        t._("The roles and the deck are dealt from these words and the moderator's seed, "
            "fixed by the commitment before any word was posted: nobody could choose the "
            "deal. Roles have been sent by PM."),
        t._("The first Presidential Candidate is {name}.", name=b(e(event.president)))])


def _nominated(view: PublicView, event: Nominated, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    names = {"president": b(e(event.president)), "chancellor": b(e(event.chancellor)),
             **ballots()}
    if event.special:
        # TRANSLATORS: {ja} and {nein} are the ballots, the same in every language.
        return t._("Presidential Candidate {president} (Special Election) nominates "
                   "{chancellor} for Chancellor. Send your vote by PM: {ja} or {nein}.",
                   **names)
    # TRANSLATORS: {ja} and {nein} are the ballots, the same in every language.
    return t._("Presidential Candidate {president} nominates {chancellor} for "
               "Chancellor. Send your vote by PM: {ja} or {nein}.", **names)


def _tallied(view: PublicView, event: Tallied, fmt: Plain) -> str:
    return tally_text(event, fmt, chaos_at=view.chaos_at,
                      late=late_votes(view.history).get(event.entry, ()),
                      removed=removed_names(view.history))


def _enacted(view: PublicView, event: Enacted, fmt: Plain) -> str | None:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    if event.chaos:
        return None  # said by the chaos event
    names = {"president": b(e(event.president)), "chancellor": b(e(event.chancellor)),
             **marks(paint(fmt, event.policy))}
    if event.policy == LIBERAL:
        # TRANSLATORS: {on} and {off} mark up the policy's name (bold, coloured).
        return t._("President {president} and Chancellor {chancellor} enacted a "
                   "{on}Liberal{off} policy.", **names)
    # TRANSLATORS: {on} and {off} mark up the policy's name (bold, coloured).
    return t._("President {president} and Chancellor {chancellor} enacted a "
               "{on}Fascist{off} policy.", **names)


def _chaos(view: PublicView, event: Chaos, fmt: Plain) -> str:
    # TRANSLATORS: {chaos} is how many failed elections in a row make chaos (3);
    # {policy} is the policy enacted, Liberal or Fascist, in bold and colour.
    return fmt.lang._("The Election Tracker reaches {chaos}: the top policy is enacted: "
                      "{policy}. Any power it would grant is ignored, the Election Tracker "
                      "resets and term limits are forgotten.", chaos=view.chaos_at,
                      policy=policy(fmt, event.policy))


def _veto_proposed(view: PublicView, event: VetoProposed, fmt: Plain) -> str:
    b, e = fmt.bold, fmt.escape
    return fmt.lang._("Chancellor {chancellor} proposes a veto. President {president}, do you "
                      "agree?", chancellor=b(e(event.chancellor)),
                      president=b(e(event.president)))


def _veto_answered(view: PublicView, event: VetoAnswered, fmt: Plain) -> str | None:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    if refused_by_lapse(view, event):
        return None  # the lapse's own sentence says the veto is refused
    if event.accepted:
        return t._("President {president} agrees to the veto.",
                   president=b(e(event.president)))
    return t._("President {president} refuses the veto; the Chancellor must enact a "
               "policy.", president=b(e(event.president)))


def _veto_voted(view: PublicView, event: VetoVoted, fmt: Plain) -> str:
    t = fmt.lang
    return (t._("The President and the Chancellor vetoed the agenda.") if event.vetoed
            else t._("The veto failed; the Chancellor's choice stands."))


def _vetoed(view: PublicView, event: Vetoed, fmt: Plain) -> str:
    # TRANSLATORS: {tracker}/{chaos}: the Election Tracker, e.g. 1/3.
    return fmt.lang._("Both policies are discarded and nothing is enacted. Election Tracker: "
                      "{tracker}/{chaos}.", tracker=event.tracker, chaos=view.chaos_at)


def _reshuffled(view: PublicView, event: Reshuffled, fmt: Plain) -> str:
    # TRANSLATORS: {n} is how many policies the draw pile holds.
    return fmt.lang._n("Fewer than three policies were left: the draw and discard piles are "
                       "shuffled together. The draw pile now holds {n}.",
                       "Fewer than three policies were left: the draw and discard piles are "
                       "shuffled together. The draw pile now holds {n}.", event.draw)


def _power_granted(view: PublicView, event: PowerGranted, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    # TRANSLATORS: {power} is the name of a presidential power, in bold.
    return t._("President {president} gains {power} and must use it before the next "
               "round.", president=b(e(event.president)),
               power=b(glossary.power(t, event.power)))


def _power_skipped(view: PublicView, event: PowerSkipped, fmt: Plain) -> str:
    t = fmt.lang
    # TRANSLATORS: {power} is the name of a presidential power.
    return t._("{power} has no legal target and is skipped.",
               power=glossary.power(t, event.power))


def _investigated(view: PublicView, event: Investigated, fmt: Plain) -> str:
    b, e = fmt.bold, fmt.escape
    return fmt.lang._("President {president} investigates {target}'s party membership. The "
                      "result has been sent to the President only.",
                      president=b(e(event.president)), target=b(e(event.target)))


def _special_election(view: PublicView, event: SpecialElectionCalled, fmt: Plain) -> str:
    b, e = fmt.bold, fmt.escape
    return fmt.lang._("President {president} calls a Special Election: {target} is the next "
                      "Presidential Candidate.", president=b(e(event.president)),
                      target=b(e(event.target)))


def _peeked(view: PublicView, event: Peeked, fmt: Plain) -> str:
    return fmt.lang._("President {president} looks at the top three policies; their order is "
                      "unchanged.", president=fmt.bold(fmt.escape(event.president)))


def _executed(view: PublicView, event: Executed, fmt: Plain) -> str:
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    if event.hitler:
        # TRANSLATORS: {on} and {off} put the role in bold.
        return t._("President {president} executes {target}. {target} was "
                   "{on}Hitler{off}.", president=b(e(event.president)),
                   target=b(e(event.target)), **marks(b))
    # TRANSLATORS: {target} is the player's name in bold, {name} the same name plain.
    return t._("President {president} executes {target}. {name} was not Hitler; "
               "nothing more about their role is revealed.",
               president=b(e(event.president)), target=b(e(event.target)),
               name=e(event.target))


def _game_over(view: PublicView, event: GameOver, fmt: Plain) -> str:
    t = fmt.lang
    heading = (t._("Game over: the Liberals win") if event.win.team == "Liberals"
               else t._("Game over: the Fascists win"))
    # TRANSLATORS: how the game was won, as a sentence of its own.
    return fmt.blocks([fmt.heading(heading), t._("{how}.", how=fmt.escape(
        phrases.win(t, event.win, capital=True)))])


def _started(view: PublicView, event: Started, fmt: Plain) -> str:
    return start_text(view, fmt, event)


#: The post words of the game's events and of the setup's (the opening post, the deal),
#: one row each (:data:`shmod.texts.messages.POST_WORDS` holds every public event's).
POST_WORDS: dict[type[Public], PostWords] = {
    Started: _started, RoundBegan: _round_began, Dealt: _dealt, Nominated: _nominated,
    Tallied: _tallied, Enacted: _enacted, Chaos: _chaos, VetoProposed: _veto_proposed,
    VetoAnswered: _veto_answered, VetoVoted: _veto_voted, Vetoed: _vetoed,
    Reshuffled: _reshuffled, PowerGranted: _power_granted, PowerSkipped: _power_skipped,
    Investigated: _investigated, SpecialElectionCalled: _special_election, Peeked: _peeked,
    Executed: _executed, GameOver: _game_over,
}


def refused_by_lapse(view: PublicView, event: VetoAnswered) -> bool:
    """R-LAPSE: a veto refused because its deadline passed unanswered."""
    lapse = lapses(view.history).get(event.entry)
    return not event.accepted and lapse is not None and lapse.phase == "veto_answer"


#: What a switch that is on means, for players (a default switch is not mentioned); the
#: ballots are the fields {ja} and {nein} (:func:`house_rule`).
HOUSE_RULES = {
    # TRANSLATORS: {nein} is the ballot, the same in every language.
    ("late_vote", "nein"): N_("A player who has not voted when the deadline passes is "
                              "counted as voting {nein}."),
    ("late_nomination", "fail"): N_("A Presidential Candidate who has not nominated when "
                                    "the deadline passes loses the turn: it counts as a "
                                    "failed election."),
    ("late_choice", "random"): N_("A discard, an enactment or a power's target not sent "
                                  "when the deadline passes is drawn at random (from the "
                                  "game's seed, so anyone can check it after the game), and "
                                  "an unanswered veto is refused."),
    ("term5", "seated"): N_("Only because this game started with five players may the last "
                            "President be nominated Chancellor; with five left in a bigger "
                            "game, both term limits stay."),
    # TRANSLATORS: {ja} is the ballot, the same in every language.
    ("veto", "secret-vote"): N_("The veto works as online: the Chancellor picks the policy "
                                "to enact, then the President and the Chancellor vote on "
                                "the veto in secret, and it needs both {ja}."),
    ("tracker_reset", "election"): N_("A successful election also sets the Election "
                                      "Tracker back to zero."),
    ("rebalanced", "on"): N_("Rebalanced setup: six-player games start with a Fascist "
                             "policy on the board; seven- and nine-player games have one "
                             "Fascist policy fewer in the deck."),
    ("first_president", "seat1"): N_("The first Presidential Candidate is the first player "
                                     "in the seating order."),
    ("eva_braun", "on"): N_("Eva Braun house rule: once three Fascist policies are down, a "
                            "tied vote on a Hitler Chancellor elects him, and the Fascists "
                            "win."),
}


#: ``term5=seated`` in a game that started with more than five players (R-TERM5): the
#: lone-Chancellor limit never comes.
TERM5_SEATED_BIG = N_("Both term limits stay for the whole game, even with five or fewer "
                      "players left alive: only a game that starts with five players has "
                      "the lighter limit.")


def variant_rules(view: PublicView, fmt: Plain) -> list[str]:
    """Each switch in force that differs from the rulebook, in a sentence for players."""
    return [fmt.lang._(TERM5_SEATED_BIG if (k, v) == ("term5", "seated") and
                       len(view.players) > 5 else HOUSE_RULES[(k, v)], **ballots())
            for k, v in view.variants if (k, v) in HOUSE_RULES]


def house_rules(view: PublicView, fmt: Plain) -> list[str]:
    """Every house rule in force and everything a custom game changed, in sentences for
    players (never a switch's name)."""
    t = fmt.lang
    out = variant_rules(view, fmt)
    if view.custom:
        extra = dict(view.variants)
        counts = {"lib_deck": view.deck[0], "fas_deck": view.deck[1],
                  "lib_start": view.start[0], "fas_start": view.start[1]}
        if "deck" in extra and "start" in extra:
            # TRANSLATORS: the deck's Liberal and Fascist policies, and the Liberal and
            # Fascist policies enacted when the game starts.
            out.append(t._("A custom board: the powers are as listed above; the deck holds "
                           "{lib_deck} Liberal + {fas_deck} Fascist; {lib_start} Liberal, "
                           "{fas_start} Fascist policies enacted at the start.", **counts))
        elif "deck" in extra:
            out.append(t._("A custom board: the powers are as listed above; the deck holds "
                           "{lib_deck} Liberal + {fas_deck} Fascist.", **counts))
        elif "start" in extra:
            out.append(t._("A custom board: the powers are as listed above; {lib_start} "
                           "Liberal, {fas_start} Fascist policies enacted at the start.",
                           **counts))
        else:
            out.append(t._("A custom board: the powers are as listed above."))
        if "hitler_knows_fascists" in extra:
            out.append(t._("Hitler knows the Fascists.")
                       if extra["hitler_knows_fascists"] == "yes"
                       else t._("Hitler does not know the Fascists."))
    return out


def fascist_track(view: PublicView, fmt: Plain) -> list[str]:
    """The Fascist track's slots: each one's power, the last one the Fascists' win."""
    t = fmt.lang
    # TRANSLATORS: a slot of the Fascist track: {n} Fascist policies enacted grant {power}.
    out = [t._("Fascist policy {n}: {power}", n=n, power=glossary.power(t, p)) if p else
           t._("Fascist policy {n}: no power", n=n) for n, p in enumerate(view.powers, 1)]
    return [*out, t._("Fascist policy {n}: the Fascists win", n=view.fascist_win)]


def start_text(view: PublicView, fmt: Plain, event: Started | None = None) -> str:
    """The opening post: seating, board and powers, variants, first President, commitment."""
    first_event = view.history[0] if view.history else None
    if event is None and isinstance(first_event, Started):
        event = first_event
    return fmt.blocks([*_opening_board(view, fmt, event), *_opening_seals(view, fmt, event),
                       *_opening_call(view, fmt, event)])


def _opening_board(view: PublicView, fmt: Plain, event: Started | None) -> list[str]:
    """The opening post's seating, board, powers and rules, and whether roles were sent."""
    e, t = fmt.escape, fmt.lang
    players = event.players if event else view.players
    house = house_rules(view, fmt)
    variants = (t._("Rules: the official rulebook, with these house rules (the moderator can "
                    "post the full rules card):") if house else
                t._("Rules: the official rulebook, no house rules."))
    by_players = event is not None and event.deal == "players"
    dealt = (t._("The roles are not dealt yet.") if by_players else
             t._("Roles have been sent by PM."))
    zones = {"veto": view.veto_zone, "hitler": view.hitler_zone}
    return [
        # TRANSLATORS: the opening post's heading; "Secret Hitler" is the game's name.
        fmt.heading(t._n("Secret Hitler: {n} player", "Secret Hitler: {n} players",
                         len(players))),
        t._("Seating order (play passes down this list):"),
        fmt.numbered([fmt.bold(e(p)) for p in players]),
        t._("The custom board:") if view.custom else
        # TRANSLATORS: {board} is the board's player counts, e.g. 7-8.
        t._("Board for {board} players:", board=view.board),
        fmt.bullets(fascist_track(view, fmt)),
        fmt.lines([
            t._n("Liberals win with {n} Liberal policy or by executing Hitler.",
                 "Liberals win with {n} Liberal policies or by executing Hitler.",
                 view.liberal_win),
            # TRANSLATORS: {veto} and {hitler} count Fascist policies enacted (a custom board
            # may unlock the veto after one); the plural follows {veto}.
            t._n("Veto unlocked after {veto} Fascist policy; Hitler elected Chancellor "
                 "after {hitler} wins it for the Fascists.",
                 "Veto unlocked after {veto} Fascist policies; Hitler elected Chancellor "
                 "after {hitler} wins it for the Fascists.", view.veto_zone, **zones)
            if view.veto_zone < view.fascist_win else
            # TRANSLATORS: {hitler} counts Fascist policies enacted.
            t._("There is no veto in this game; Hitler elected Chancellor after {hitler} "
                "wins it for the Fascists.", **zones),
            variants,
        ]),
        fmt.bullets(house) if house else "",
        dealt,
    ]


def _opening_seals(view: PublicView, fmt: Plain, event: Started | None) -> list[str]:
    """The opening post's moderators, setup commitment, public key and seed's source."""
    e, t = fmt.escape, fmt.lang
    parts = []
    if view.opening_moderators:
        names = ", ".join(fmt.bold(e(name)) for name in view.opening_moderators)
        # TRANSLATORS: {names} are the game's moderators' forum names, separated by commas.
        parts.append(t._n("Moderator of this game: {names}.", "Moderators of this game: "
                          "{names}.", len(view.opening_moderators), names=names))
    commitment = event.commitment if event else None
    if commitment:
        # TRANSLATORS: {label} is "Setup commitment" and stays in English, as does the value:
        # `shmod audit --thread` finds them there. Keep {label} first and {commitment} on the
        # same line at most 80 characters after it, e.g. "{label}: {commitment} (…)".
        parts.append(t._("{label} (check it against the reveal at the end): {commitment}",
                         label=COMMITMENT_LABEL, commitment=e(str(commitment))))
    if event and event.key:
        # TRANSLATORS: {label} is "Moderator's public key" and stays in English, as does the
        # value: `shmod audit --thread` finds them there. Keep {label} first and {key} on the
        # same line at most 80 characters after it, e.g. "{label}: {key} (…)".
        parts.append(t._("{label} (it signs the checkpoint at the end of every post): {key}",
                         label=KEY_LABEL, key=e(event.key)))
    if commitment and event and event.seed_source:
        parts.append(seed_source_text(event.seed_source, fmt))
    return parts


def _opening_call(view: PublicView, fmt: Plain, event: Started | None) -> list[str]:
    """The opening post's last words: the call for the players' words, the first
    Presidential Candidate."""
    t = fmt.lang
    first = event.president if event else view.president
    by_players = event is not None and event.deal == "players"
    parts = []
    if by_players:
        parts.append(fmt.lines([
            # TRANSLATORS: {on} and {off} put the call to the players in bold.
            t._("{on}Every player: post one word in this thread{off} (in Latin letters "
                "or digits, up to 40; accents and punctuation are dropped; your first word "
                "counts).", **marks(fmt.bold)),
            t._("Once every word is in, the roles and the deck are dealt from the words and "
                "from the moderator's secret seed, which the commitment above fixed before "
                "any word was posted: nobody, the moderator included, can choose the "
                "deal.")]))
    if first:
        parts.append(t._("The first Presidential Candidate is {name}.",
                         name=fmt.bold(fmt.escape(first))))
    elif by_players:
        parts.append(t._("The first Presidential Candidate is drawn with the deal."))
    return parts


def seed_source_text(source: SeedSource, fmt: Plain) -> str:
    """R-COMMIT: who chose the secret seed, as the opening post says (log format 5)."""
    t = fmt.lang
    if source == "drawn":
        return t._("shmod drew the secret seed (128 random bits); the commitment covers "
                   "that too.")
    if source == "supplied":
        return t._("The moderator supplied the secret seed instead of letting shmod draw it; "
                   "shmod checked that it is none of the hashes and patterns a player would "
                   "try first. The commitment covers that too.")
    return t._("The moderator supplied the secret seed and accepted it unchecked: a player "
               "who guesses it can deal the game. The commitment covers that too.")


def tally_text(event: Tallied, fmt: Plain, *, chaos_at: int = 3,
               late: tuple[str, ...] = (), removed: frozenset[str] = frozenset()) -> str:
    """R-VOTE: the seating-order list of every vote, totals, the majority and the result;
    ``late``: the votes a lapse cast as Nein (R-LAPSE), marked; ``removed``: the names of
    seats the moderator removed (R-MODKILL), which are no dead players."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    rows = []
    for name, vote in event.votes:
        if vote is None and name in removed:
            # TRANSLATORS: a removed player's line in the list of votes.
            rows.append(fmt.italic(t._("{name}: removed", name=e(name))))
        elif vote is None:
            # TRANSLATORS: a dead player's line in the list of votes.
            rows.append(fmt.italic(t._("{name}: dead", name=e(name))))
        elif name in late:
            # TRANSLATORS: {ballot} is Ja or Nein, the same in every language.
            rows.append(t._("{name}: {ballot} (no vote by the deadline)", name=b(e(name)),
                            ballot=glossary.ballot(vote)))
        else:
            # TRANSLATORS: one vote in the list of votes; {ballot} is Ja or Nein, the same in
            # every language.
            rows.append(t._("{name}: {ballot}", name=b(e(name)), ballot=glossary.ballot(vote)))
    # TRANSLATORS: the count: {ayes} Ja and {noes} Nein; {n} Ja of {alive} living
    # players were needed to elect ({ja} and {nein} are the ballots, the same in every
    # language).
    totals = t._n("{ja} {ayes}, {nein} {noes}: {n} {ja} of {alive} alive was needed.",
                  "{ja} {ayes}, {nein} {noes}: {n} {ja} of {alive} alive were needed.",
                  event.needed, ayes=event.ja, noes=event.nein, alive=event.alive, **ballots())
    if event.eva_braun:
        result = [b(t._("A tie with the Hitler zone reached: under the Eva Braun rule the tie "
                        "elects Hitler as Chancellor."))]
    elif event.elected:
        result = [b(t._("Elected: President {president}, Chancellor {chancellor}.",
                        president=e(event.president), chancellor=e(event.chancellor)))]
        if event.not_hitler:
            # TRANSLATORS: {on} and {off} put "not Hitler" in bold.
            result.append(t._("With three or more Fascist policies down, the table learns "
                              "that {chancellor} is {on}not Hitler{off}.",
                              chancellor=b(e(event.chancellor)), **marks(b)))
    else:
        # TRANSLATORS: {on} and {off} put the first sentence in bold; {tracker}/{chaos}: the
        # Election Tracker, e.g. 1/3.
        result = [t._("{on}The government is not elected.{off} Election Tracker: "
                      "{tracker}/{chaos}.", tracker=event.tracker, chaos=chaos_at, **marks(b))]
        if event.tracker >= chaos_at:
            result.append(t._n("{n} failed government in a row: the country is thrown into "
                               "chaos.", "{n} failed governments in a row: the country is "
                               "thrown into chaos.", chaos_at))
    return fmt.blocks([
        t._("Votes on President {president} and Chancellor {chancellor}, in seating order:",
            president=b(e(event.president)), chancellor=b(e(event.chancellor))),
        fmt.numbered(rows),
        fmt.lines([totals, *result]),
    ])


def pending_vote_text(view: PublicView, fmt: Plain) -> str | None:
    """While votes come in: how many have voted and who has not; never the votes (R-VOTE).
    Before a deal from the players' words: who has posted one (R-DEAL)."""
    t = fmt.lang
    missing = ", ".join(fmt.bold(fmt.escape(n)) for n in view.waiting_on)
    if view.phase == "deal":
        # TRANSLATORS: {count} of {n} players have posted a word; {missing} lists the others.
        return t._n("Words for the deal: {count} of {n} player has posted one. Still to post "
                    "a word: {missing}.", "Words for the deal: {count} of {n} players have "
                    "posted one. Still to post a word: {missing}.", len(view.players),
                    count=len(view.voted), missing=missing)
    if view.phase != "vote" or view.chancellor is None:
        return None
    # TRANSLATORS: {count} of {n} living players have voted; {missing} lists the others.
    return t._n("Votes on President {president} and Chancellor {chancellor}: {count} of {n} "
                "living player has voted. Still to vote: {missing}.",
                "Votes on President {president} and Chancellor {chancellor}: {count} of {n} "
                "living players have voted. Still to vote: {missing}.", view.living,
                president=fmt.bold(fmt.escape(view.president)),
                chancellor=fmt.bold(fmt.escape(view.chancellor)), count=len(view.voted),
                missing=missing)


def prompt_text(view: PublicView, fmt: Plain) -> str | None:
    """Whose move it is now, as the thread may know it (R-THREAD)."""
    b, e, t = fmt.bold, fmt.escape, fmt.lang
    # TRANSLATORS: in the prompts that follow, {on} and {off} put "Now:" in italics.
    now = {"president": b(e(view.president)), **marks(fmt.italic)}
    if view.winner is not None or view.phase == "reshuffle":
        return None
    if view.phase == "nominate":
        return t._("{on}Now:{off} Presidential Candidate {president}, nominate a Chancellor.",
                   **now)
    if view.phase in ("vote", "deal"):
        return pending_vote_text(view, fmt)
    if view.phase == "veto_answer":
        return t._("{on}Now:{off} President {president}, accept or refuse the veto.", **now)
    if view.phase == "power" and view.power:
        power = b(glossary.power(t, view.power))
        if view.power == "peek":
            # TRANSLATORS: {power} is the name of a presidential power, in bold.
            return t._("{on}Now:{off} President {president}, use {power}.", power=power, **now)
        # TRANSLATORS: {power} is the name of a presidential power, in bold.
        return t._("{on}Now:{off} President {president}, use {power}, naming your target.",
                   power=power, **now)
    return t._("{on}Now:{off} the Legislative Session of President {president} and "
               "Chancellor {chancellor}. Policies are passed by PM.",
               chancellor=b(e(view.chancellor or "")), **now)


def board_text(view: PublicView, fmt: Plain) -> str:
    """A compact board state to end a post with."""
    limited = _term_limited(view, fmt)
    lines = _board_tracks(view, fmt)
    if view.winner is None:
        lines += _board_offices(view, fmt, limited)
    lines += _board_seats(view, fmt)
    return fmt.status(fmt.lines(lines), [*view.players, *(old for _, old in view.replacing)])


def _term_limited(view: PublicView, fmt: Plain) -> str:
    """The term-limited players and why, or why nobody is."""
    e, t = fmt.escape, fmt.lang
    why = {"president": t._("last elected President"),
           "chancellor": t._("last elected Chancellor")}
    # TRANSLATORS: a term-limited player and why, in a list of them.
    return ", ".join(t._("{name} ({why})", name=e(n), why=why[office])
                     for n, office in view.term_limited) or (
        t._("nobody: the term limits are set aside for this nomination, as they leave no "
            "eligible nominee (R-NO-NOMINEE)") if view.limits_set_aside else t._("nobody"))


def _board_tracks(view: PublicView, fmt: Plain) -> list[str]:
    """The board's first lines: the tracks, the Election Tracker and the piles."""
    t = fmt.lang
    next_power = view.powers[view.fascist] if view.fascist < len(view.powers) else None
    tracks = {"liberal": view.liberal, "liberal_win": view.liberal_win,
              "fascist": view.fascist, "fascist_win": view.fascist_win,
              "tracker": view.tracker, "chaos": view.chaos_at}
    return [
        # TRANSLATORS: the board's first line; {power} is the power of the next Fascist
        # policy.
        t._("Liberal policies: {liberal}/{liberal_win} | Fascist policies: "
            "{fascist}/{fascist_win} (next: {power}) | Election Tracker: {tracker}/{chaos}",
            power=glossary.power(t, next_power), **tracks) if next_power else
        t._("Liberal policies: {liberal}/{liberal_win} | Fascist policies: "
            "{fascist}/{fascist_win} | Election Tracker: {tracker}/{chaos}", **tracks),
        t._("Draw pile: {draw} | Discard pile: {discard} | Alive: {alive} of {n}",
            draw=view.draw_size, discard=view.discard_size, alive=view.living,
            n=len(view.players)),
    ]


def _board_offices(view: PublicView, fmt: Plain, limited: str) -> list[str]:
    """A game going on: who holds or runs for which office, the term limits, who is
    confirmed not Hitler."""
    e, t = fmt.escape, fmt.lang
    lines = []
    if view.phase == "deal":
        lines.append(t._("Roles: not dealt yet (waiting for every player's word)"))
    elif view.phase == "nominate":
        lines.append(t._("Presidential Candidate: {name}", name=e(view.president)))
    else:
        offices = {"president": e(view.president), "chancellor": e(view.chancellor or ""),
                   "next": e(view.next_president) if view.next_president else
                   t._("chosen by Special Election")}
        if view.phase == "vote":  # nobody is elected yet
            # TRANSLATORS: {next} is a player's name or "chosen by Special Election".
            lines.append(t._("Presidential Candidate: {president}, Chancellor nominee: "
                             "{chancellor} | Next Presidential Candidate: {next}",
                             **offices))
        elif view.chancellor:
            lines.append(t._("President: {president}, Chancellor: {chancellor} | Next "
                             "Presidential Candidate: {next}", **offices))
        else:
            lines.append(t._("President: {president} | Next Presidential Candidate: "
                             "{next}", **offices))
    lines.append(t._("Term-limited: {names}", names=limited))
    if view.not_hitler:
        lines.append(t._("Confirmed not Hitler: {names}",
                         names=", ".join(map(e, view.not_hitler))))
    return lines


def _board_seats(view: PublicView, fmt: Plain) -> list[str]:
    """The board's last lines: what the Fascist track unlocked, the dead, the removed and
    the replacements."""
    e, t = fmt.escape, fmt.lang
    dead = [e(n) for n, up in zip(view.players, view.alive) if not up and n not in view.removed]
    removed = [e(n) for n, up in zip(view.players, view.alive) if not up and n in view.removed]
    lines = []
    hitler_zone, veto_zone = view.fascist >= view.hitler_zone, view.fascist >= view.veto_zone
    if view.winner is None and hitler_zone and veto_zone:
        lines.append(t._("Now: Hitler elected Chancellor wins for the Fascists; the veto is "
                         "unlocked."))
    elif view.winner is None and hitler_zone:
        lines.append(t._("Now: Hitler elected Chancellor wins for the Fascists."))
    elif view.winner is None and veto_zone:
        lines.append(t._("Now: the veto is unlocked."))
    if dead:
        # TRANSLATORS: the dead players, {n} of them.
        lines.append(t._n("Dead: {names}", "Dead: {names}", len(dead), names=", ".join(dead)))
    if removed:
        # TRANSLATORS: the seats the moderator removed from the game (not executed), {n}
        # of them.
        lines.append(t._n("Removed: {names}", "Removed: {names}", len(removed),
                          names=", ".join(removed)))
    if view.replacing:
        # TRANSLATORS: a replacement, in a list of them: {new} took the seat of {old}.
        lines.append(t._("Replacements: {names}", names=", ".join(
            t._("{new} (replacing {old})", new=e(new), old=e(old))
            for new, old in view.replacing)))
    return lines


__all__ = ["FASCIST", "board_text", "cards", "pending_vote_text", "policy",
           "prompt_text", "tally_text"]
