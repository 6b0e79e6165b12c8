"""The rules shmod enforces, in its own words, each under the id that errors cite.

This module is the one source: ``shmod rules ID`` prints an entry, and ``docs/rules.md``
is generated from it (``python -m shmod.core.rulebook > docs/rules.md``; a test checks the two
agree and that every id used anywhere in shmod is here).
"""
from __future__ import annotations

import re

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
        ("R-COMMIT", "The setup is committed, and stays hidden",
         "The opening post carries a commitment: a SHA-256 hash of the secret setup (roles, "
         "deck, seed) and of a salt of at least 128 random bits that shmod draws for every "
         "game. After the game the published log must give that hash (`shmod audit -c`), so "
         "the setup cannot have been changed; before it, nobody can compute anything from "
         "it, because nobody can guess the salt. The salt also keys every checkpoint "
         "(R-CHECKPOINT), and the commitment binds the moderator's public key, which the "
         "opening post shows too; `shmod audit LOG --thread THREAD` compares both with the "
         "log's, so a log rewritten under another salt or key is not the thread's game. A "
         "log without such a salt can be read and audited but not played on, and the "
         "audit says its commitment hid nothing. A seed the moderator types "
         "must be as strong (32 hexadecimal digits), or every role could be guessed; "
         "`--guessable` allows a weak one for a demonstration or a test."),
        ("R-DEAL", "A deal nobody can steer",
         "With `shmod new --deal players` the roles, the deck and the first President are "
         "dealt only after every seat has a word posted in the thread: they follow from "
         "the moderator's seed, fixed by the commitment before any word was posted, and "
         "from each seat's word, by seat number (one per seat, the first counts, at most "
         "40 characters). A word enters in its canonical form: Unicode NFKC, case-folded, "
         "leading and trailing punctuation and spaces dropped, inner spaces collapsed "
         "(`Lemon!`, `LEMON` and `lemon` are one word), so transcribing it leaves the "
         "moderator no choice; names typed later (renames, replacements) never enter, and a "
         "replacement posts no word of its own. Once the roles are dealt nothing re-deals "
         "them: a correction that would is refused (the way out is a new game). The "
         "moderator cannot choose the deal and the players cannot compute it; after the "
         "game the reveal's seed and the words let anyone recompute it."),
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
    ("Running the game on a forum", [
        ("R-PM", "Private messages",
         "Every vote and secret choice reaches the moderator by PM; each secret (role, "
         "policies, investigation, peek) goes by PM to that one player only."),
        ("R-ROLE-PM", "The role PM",
         "At the start each player is told their role and, by R-KNOW, whom they know."),
        ("R-THREAD", "What the thread sees",
         "Only public facts: seating, President and Chancellor, nominations, the full vote "
         "list once complete, enacted policies, the tracker, the sizes of the piles, which "
         "power was used on whom (never its secret result), vetoes, executions, the winner. "
         "At the end the moderator may reveal everything (`shmod reveal`). Every post shmod "
         "prints for the thread is recorded in the log as posted, so the log knows what "
         "the thread may have been shown."),
        ("R-STALL", "Prods",
         "The moderator may remind a player who has not sent a vote or a choice "
         "(`shmod prods`); each prod is recorded with its time, so each player's count is "
         "known. The rules give the moderator no power to vote or choose for them (a game "
         "may choose house rules that do: R-LAPSE)."),
        ("R-DEADLINE", "Deadlines",
         "The moderator may set a deadline for the current round (`shmod deadline 48h`; it "
         "holds until the next Presidential Candidate is up) or for the current phase only "
         "(`--phase`); it holds until it is met, changed or cleared (`--clear`), and must lie "
         "in the future and within a year. shmod shows it, with the time left, in UTC and in "
         "the game's zone, and marks who is overdue; a deadline by itself never decides "
         "anything."),
        ("R-LAPSE", "A deadline that has passed",
         "After a deadline has passed, the moderator may record that it lapsed "
         "(`shmod lapse`). What happens to what is still missing is a house rule chosen at "
         "`shmod new`, off unless chosen: `late_vote=nein` counts each missing vote as Nein "
         "(the tally says so); `late_nomination=fail` makes a nomination not made a failed "
         "election; `late_choice=random` draws a missing discard, enactment or power target "
         "at random and refuses an unanswered veto. The draw follows from the game's secret "
         "seed and from which decision it makes (the round, the phase, the power, the seat "
         "awaited), never from anything the moderator can add or reorder, so players cannot "
         "compute it before the reveal and anyone recomputes it after. A lapse decides only "
         "what was owed when its deadline passed, and a deadline lapses once: what fell due "
         "after it (the President's discard after the votes lapsed) waits for a new "
         "deadline, and the post says so. Without the switch (`wait`, the official game) a "
         "lapse is refused: the moderator prods or replaces. The post says what happened, "
         "in public terms only."),
        ("R-MODKILL", "Removing a player nobody can replace",
         "When a living player must leave and nobody can take the seat, the moderator may "
         "remove it (`shmod remove NAME --reason …`). The seat dies, not by the table: it is "
         "no power, grants nothing, and reveals no role; term limits and rotation treat it "
         "as dead. If it is Hitler, the Liberals win at once (Hitler has left the game). "
         "Otherwise the round goes on without the seat: its vote no longer counts; if it is "
         "the Presidential Candidate, the nominee, or the President or Chancellor before the "
         "policy is enacted, the round ends as a failed election and any policies in a hand "
         "go back on top of the draw pile in their order; a President with a power pending "
         "loses it. The last two living players cannot be removed."),
        ("R-BACKUP", "Backup players",
         "The moderator may keep an ordered list of backup players (`shmod backup NAME`); "
         "`shmod replace OLD` seats the first one unless another is named. A backup's name "
         "follows the same rules as a player's. The list holds at most 50 names, more than "
         "a forum game ever needs, so that it never eats the room in the log a game needs."),
        ("R-REPLACE", "Replacements",
         "A newcomer may take over a living seat with its role and everything it was sent "
         "and did; the seat's history stands, and the newcomer gets one briefing PM. A dead "
         "seat is not replaced, and a newcomer may not carry the name of a player who left "
         "another seat, nor one that looks like it."),
        ("R-RENAME", "A name written wrong",
         "A player's name written wrong at the start is corrected with `shmod rename OLD "
         "NEW`: the same player keeps the seat and everything it was sent, and the log's "
         "header, which the opening post's commitment covers, is left as it was (editing "
         "the name in the header by hand would make the audit against the commitment "
         "fail)."),
        ("R-CORRECT", "Corrections",
         "A mistyped step may be voided by an appended correction, together with every "
         "later step that acted on it; nothing already written is changed. Forum "
         "bookkeeping the correction does not name stays as it was: deadlines, prods, "
         "backups, words, renames, replacements, removals and posts. A step that a post "
         "shmod printed for the thread covered, a word (its player posted it in the "
         "thread), or any step of a finished game is voided only with `--force`, and the "
         "correction's own post announces it. Whoever was sent a PM by a voided step is "
         "told to disregard it."),
        ("R-EDIT", "Hand edits",
         "Editing an entry already written breaks the log's hash chain. Every command "
         "reports it; recording stops until the edit is undone or acknowledged with "
         "`shmod acknowledge ENTRY --reason …`, which audit lists."),
        ("R-CHECKPOINT", "Checkpoints",
         "Every thread post is numbered and ends with a checkpoint: a 128-bit hash of the "
         "log up to the entries it covers, keyed with the game's secret salt (R-COMMIT), "
         "and the moderator's signature of it, made with a private key that is never "
         "published (`shmod publish` writes the log without it); the line names no entry. "
         "Before the reveal nobody can learn anything from a checkpoint, whatever they "
         "guess; after it, `shmod audit LOG --thread THREAD` checks every checkpoint in the "
         "thread: a line whose signature does not verify under the key the opening post "
         "shows was not made by the moderator (a forgery, a typo, another game's) and is "
         "ignored, while a signed line the log no longer gives shows the log was changed "
         "after that post. Every post shmod prints is recorded in the log as posted."),
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

RULES: dict[str, tuple[str, str]] = {rule: (title, text) for _, rules in SECTIONS
                                     for rule, title, text in rules}
_ID = re.compile(r"R-[A-Z0-9]+(?:-[A-Z0-9]+)*")


def explain(rule: str) -> str:
    """One rule as a few lines for the terminal; an unknown id lists the known ones."""
    from shmod.base.errors import BadInput

    key = rule.strip().upper()
    if not key.startswith("R-"):
        key = "R-" + key
    if key not in RULES:
        raise BadInput(f"unknown rule {rule!r} (known: {', '.join(RULES)})")
    title, text = RULES[key]
    return f"{key}: {title}\n{text}"


def markdown() -> str:
    """docs/rules.md."""
    out = ["# The rules shmod enforces", "",
           "Every refusal names the rule it applies, e.g. `Error: R-TERM: …`; "
           "`shmod rules R-TERM` prints that rule in the terminal. This page has them all. "
           "It is generated from `shmod/core/rulebook.py` "
           "(`python -m shmod.core.rulebook > docs/rules.md`).", ""]
    for section, rules in SECTIONS:
        out += [f"## {section}", ""]
        out += [f"- **{rule}** ({title}): {text}" for rule, title, text in rules]
        out.append("")
    out += ["## Where rulebooks disagree, and what shmod does", ""]
    out += [f"- {reading}" for reading in READINGS]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
