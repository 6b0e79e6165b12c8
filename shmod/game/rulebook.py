"""The game's rules as shmod enforces them, in its own words, each under the id that
errors cite: the official rules and their named variants.

The whole rulebook, the forum's rules among these (:mod:`shmod.forum.rulebook`), is what
``shmod rules ID`` prints from and ``docs/rules.md`` is generated from; every id the game
floor cites is here (a test checks it).
"""
from __future__ import annotations

#: (section, [(id, title, text)]) in the order of a game.
SECTIONS: list[tuple[str, list[tuple[str, str, str]]]] = [
    ("The table and the setup", [
        ("R-SEAT", "Seating order",
         "Players sit in the order the moderator lists them at `shmod new`. \"Next\", "
         "\"to the left\" and \"clockwise\" always mean the next living player in that list, "
         "going round from the last to the first."),
        ("R-COUNT", "Five to ten players", "A game has 5 to 10 players."),
        ("R-ROLES", "Roles by player count",
         "Liberals / Fascists / Hitler: 5 players 3/1/1, 6: 4/1/1, 7: 4/2/1, 8: 5/2/1, "
         "9: 5/3/1, 10: 6/3/1."),
        ("R-KNOW", "Who knows whom",
         "Fascists know each other and Hitler. In a 5- or 6-player game Hitler also knows "
         "the Fascist; with 7 or more Hitler knows nobody. Liberals know nobody."),
        ("R-PARTY", "Party membership",
         "A Liberal's party is Liberal; a Fascist's and Hitler's party is Fascist. An "
         "investigation shows the party, never the role."),
        ("R-DECK", "The deck", "17 policies, 6 Liberal and 11 Fascist, shuffled into one "
         "draw pile (a custom game may set another deck)."),
        ("R-FIRST", "The first President",
         "The first Presidential Candidate is drawn at random (from the game's seed), "
         "unless the moderator names one or the `first_president=seat1` house rule is on."),
        ("R-TRACK", "The board",
         "The Fascist track, and the powers on it, follow the number of players seated at "
         "the start: 5-6 players: Policy Peek on the 3rd Fascist policy, Execution on the "
         "4th and 5th; 7-8: Investigate on the 2nd, Special Election on the 3rd, Execution "
         "on the 4th and 5th; 9-10: Investigate on the 1st and 2nd, Special Election on the "
         "3rd, Execution on the 4th and 5th. The 6th Fascist policy wins. Deaths never "
         "change the board."),
    ]),
    ("Elections", [
        ("R-ROTATE", "The presidency passes on",
         "After each round the next living player becomes Presidential Candidate, unless "
         "a Special Election is pending."),
        ("R-NOMINATE", "Nomination",
         "The Presidential Candidate nominates one other living player who is not term "
         "limited."),
        ("R-TERM", "Term limits",
         "The last elected President and the last elected Chancellor cannot be nominated "
         "Chancellor. A failed election sets no term limits; a government that was elected "
         "and then vetoed still counts as the last elected one."),
        ("R-TERM5", "Five players left",
         "When five or fewer players are alive, only the last elected Chancellor is term "
         "limited: the last President may be nominated. Variant `term5=seated`: this applies "
         "only to games that started with five players (one rulebook's wording)."),
        ("R-TERM-ANYONE", "Anyone may be President",
         "Term limits bind the Chancellorship only."),
        ("R-NO-NOMINEE", "Nobody left to nominate",
         "If term limits leave the Presidential Candidate nobody to nominate (possible only "
         "on custom boards, e.g. three Executions at five players leave two alive), they are "
         "set aside for that nomination: any other living player may be nominated."),
        ("R-VOTE", "Voting",
         "Every living player, the candidates included, votes Ja or Nein by PM, exactly "
         "once; a vote is final once received. Dead players never vote. Nothing is said "
         "about the votes until all are in; then the whole list is posted in seating order."),
        ("R-MAJORITY", "Majority",
         "The government is elected when Ja votes are more than half of the living "
         "players. A tie fails (unless `eva_braun=on`, R-EVA-BRAUN)."),
        ("R-HITLER-ELECTED", "Hitler elected Chancellor",
         "If Hitler is elected Chancellor while three or more Fascist policies are on the "
         "board, the Fascists win at once. Otherwise, from three Fascist policies on, an "
         "elected Chancellor is known not to be Hitler."),
        ("R-FAIL", "A failed election",
         "A failed vote moves the Election Tracker one step and the presidency passes on."),
        ("R-CHAOS", "Three failed elections",
         "When the Election Tracker reaches three, the top policy of the draw pile is "
         "enacted as it is, any power it would give is ignored, the tracker goes back to "
         "zero and every term limit is forgotten. A chaos policy can win the game or unlock "
         "the veto."),
        ("R-TRACKER-RESET", "When the Election Tracker resets",
         "The tracker goes back to zero whenever a policy is enacted, by a government or "
         "by chaos. An election alone does not reset it, so a veto after two failed "
         "elections causes chaos. Variant `tracker_reset=election` (the older rulebook and "
         "many forum rules): a successful election also resets it."),
        ("R-EVA-BRAUN", "House rule: the Eva Braun tie",
         "With `eva_braun=on` (a forum house rule, off unless chosen), a tied vote elects "
         "the government when three or more Fascist policies are down and the Chancellor "
         "nominee is Hitler, and the Fascists win. Any other tie fails as usual and says "
         "nothing about the nominee."),
    ]),
    ("The Legislative Session", [
        ("R-DRAW", "The President's three policies",
         "The President is sent the top three policies by PM and discards one."),
        ("R-PASS", "The Chancellor's two policies",
         "The Chancellor is sent the other two by PM, discards one and enacts the other. A "
         "choice must name a policy that is in that hand."),
        ("R-SECRET", "Discards stay secret",
         "Discarded policies are never shown to the table; players may lie about them."),
        ("R-RESHUFFLE", "Reshuffling",
         "At the end of every Legislative Session (an enactment or a veto), if fewer than "
         "three policies are left in the draw pile, the draw and discard piles are shuffled "
         "together into a new draw pile. In a game with a seed shmod derives and records "
         "the new order itself."),
        ("R-VETO", "The veto",
         "While five Fascist policies are on the board, the Chancellor may propose a veto "
         "instead of enacting, whatever the two policies are. If the President accepts, "
         "both are discarded, nothing is enacted, the tracker moves one step (possibly "
         "causing chaos) and the presidency passes on; if the President refuses, the "
         "Chancellor must enact one and cannot propose again this session. Proposal and "
         "answer are public. Variant `veto=secret-vote` (the online game's flow): the "
         "Chancellor first picks a policy, then President and Chancellor vote on the veto "
         "in secret, and it needs both Ja."),
    ]),
    ("Powers", [
        ("R-POWER", "Powers",
         "A Fascist policy enacted by a government on a power slot gives that power to the "
         "President, who must use it before the next round. Powers do not stack or carry "
         "over; a chaos policy gives none."),
        ("R-INVESTIGATE", "Investigate Loyalty",
         "The President picks another living player not investigated before and learns, "
         "by PM, that player's party (Hitler shows as Fascist). The President may lie "
         "about it."),
        ("R-SPECIAL", "Call Special Election",
         "The President picks any other living player, term limited or not, as the next "
         "Presidential Candidate. After that one round the presidency goes on from the "
         "player after the President who called it, so nobody is skipped."),
        ("R-PEEK", "Policy Peek",
         "The President sees the top three policies by PM; their order does not change."),
        ("R-EXECUTE", "Execution",
         "The President picks another living player, who dies. If that was Hitler the "
         "Liberals win at once; otherwise nothing about the dead player's role is "
         "revealed. The dead do not post, vote, or hold office, and cannot be targeted."),
        ("R-NO-TARGET", "A power with no one to use it on",
         "If a power has no legal target (only possible on custom boards), it is skipped "
         "and the log says so."),
    ]),
    ("Winning", [
        ("R-WIN", "The game ends at once",
         "Every step is checked for a win; when the game is over nothing more is "
         "accepted, except bookkeeping (a marked post, an acknowledged edit)."),
        ("R-WIN-LIB", "The Liberals win",
         "with five Liberal policies on the board, or when Hitler is executed."),
        ("R-WIN-FAS", "The Fascists win",
         "with six Fascist policies on the board, or when Hitler is elected Chancellor "
         "after three Fascist policies (R-HITLER-ELECTED)."),
    ]),
]

#: Where the rulebooks shmod was built from disagree, and what shmod does.
READINGS = [
    "Term limits with five players: one rulebook ties the exception to a game that "
    "started with five players, the others to five players left alive. shmod counts the "
    "living (R-TERM5); `term5=seated` is the other reading.",
    "Resetting the Election Tracker: the current rulebook resets it on an enactment only; an "
    "older one and many forum rules also on a successful election. shmod follows the "
    "current rulebook (R-TRACKER-RESET); `tracker_reset=election` is the other reading.",
    "The veto: the rulebook has the Chancellor propose and the President answer, aloud; the "
    "online game has both vote in secret. shmod follows the rulebook (R-VETO); "
    "`veto=secret-vote` is the other flow. One summary's \"veto only Fascist policies\" is "
    "wrong: any two policies may be vetoed.",
    "The powers table: one summary lists the powers in the wrong slots; shmod uses the "
    "rulebook's table (R-TRACK).",
    "Forum house rules are named switches recorded in the game's header, never silent "
    "changes: `rebalanced=on`, `first_president=seat1`, `eva_braun=on`, and custom games "
    "(docs/variants.md).",
]

#: id -> (title, text), the game's rules.
RULES: dict[str, tuple[str, str]] = {rule: (title, text) for _, rules in SECTIONS
                                     for rule, title, text in rules}
