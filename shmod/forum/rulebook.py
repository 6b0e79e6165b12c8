"""The forum's rules, in shmod's words, each under the id that errors cite, and the whole
rulebook: the game's rules (:mod:`shmod.game.rulebook`) with the forum's in their places.

This module is the one source of the whole: ``shmod rules ID`` prints an entry, and
``docs/rules.md`` is generated from it (``python -m shmod.forum.rulebook >
docs/rules.md``; a test checks the two agree and that every id used anywhere in shmod is
here).
"""
from __future__ import annotations

from shmod.game import rulebook as game_rulebook

#: The forum's part of the setup: the commitment and the deal from the players' words
#: (after R-FIRST in the game's first section).
SETUP: list[tuple[str, str, str]] = [
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
         "40 letters and digits). A word enters in a canonical form that leaves the "
         "moderator no choice in transcribing it: a word holding a character that cannot "
         "be seen or markup (an HTML entity such as `&shy;`) is refused; accents are "
         "dropped, a fixed transliteration writes the letters that do not decompose (`ß` "
         "as `ss`, `ł` as `l`, `ø` as `o`, ...), spaces and punctuation are dropped and "
         "capitals become small; a word holding a symbol (an emoji, `🅰`, `×`, `$`), a "
         "bracket or slash, markup the game's forum shows otherwise (a smiley code, "
         "strike-through), or a letter left outside a-z (Cyrillic, Greek) is refused, and "
         "the player asked for a word in plain letters or digits. So \"out, damned spot\" "
         "is `outdamnedspot`, and the words post shows each word as recorded. The deal "
         "reads each word's look-alike key, a fixed fold that writes everything a forum's "
         "font shows alike in one form (`rn` and `m`, `cl` and `d`, `vv` and `w`, `0` and "
         "`o`, `1`, `I` and `l`, `5` and `s`; the table is in docs/verify.md): `rnodern` "
         "deals as `modern`. Logs of earlier formats keep their own rule, and the audit "
         "warns where it left a choice. Names typed later (renames, replacements) never "
         "enter, and a "
         "replacement posts no word of its own. Once the roles are dealt nothing re-deals "
         "them: a correction that would is refused (the way out is a new game). The "
         "moderator cannot choose the deal and the players cannot compute it; after the "
         "game the reveal's seed and the words let anyone recompute it."),
]

#: Running the game on a forum: PMs, the thread, the clock, absent players, corrections.
FORUM: tuple[str, list[tuple[str, str, str]]] = (
    "Running the game on a forum", [
        ("R-PM", "Private messages",
         "Every vote and secret choice reaches the moderator by PM; each secret (role, "
         "policies, investigation, peek) goes by PM to that one player only."),
        ("R-MISSENT", "An item given to the wrong reader",
         "What a step owes a reader waits in the moderator's outbox until it is delivered "
         "(`shmod send`), one item at a time: each PM to its one player, each post to the "
         "thread. A PM or a post given to the wrong reader is recorded as such (`shmod send "
         "--wrong ITEM --to NAME`, or `--to thread`): the game goes on, the moderator is "
         "told what the wrong reader learned, the item stays owed to its own reader, the "
         "audit lists the mistake, and the replay shows it once the game is over."),
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
         "known (a replacement's starts at 0). The rules give the moderator no power to "
         "vote or choose for them (a game "
         "may choose house rules that do: R-LAPSE)."),
        ("R-DEADLINE", "Deadlines",
         "The moderator may set a deadline for the current round (`shmod deadline 48h`; it "
         "holds until the next Presidential Candidate is up) or for the current phase only "
         "(`--phase`); it holds until it is met, changed or cleared (`--clear`), and must lie "
         "in the future and within a year. shmod shows it, with the time left, in UTC and in "
         "the game's zone, and marks who is overdue; a deadline by itself never decides "
         "anything. The next post shows it (`--post`: a short post of its own, now)."),
        ("R-LAPSE", "A deadline that has passed",
         "After a deadline has passed, the moderator may record that it lapsed "
         "(`shmod lapse`). What happens to what is still missing is a house rule chosen at "
         "`shmod new`, off unless chosen: `late_vote=nein` counts each missing vote as Nein "
         "(the tally says so); `late_nomination=fail` makes a nomination not made a failed "
         "election; `late_choice=random` draws a missing discard, enactment or power target "
         "at random and refuses an unanswered veto. The draw follows from the game's secret "
         "seed (in a game dealt from the players' words, the seed the deal was made from) "
         "and from which decision it makes (the round, the phase, the power, the seat "
         "awaited), never from anything the moderator can add or reorder; each possible "
         "target draws its own number, by seat, and the lowest is taken, so removing another "
         "seat (R-MODKILL) does not move it; players cannot "
         "compute it before the reveal and anyone recomputes it after. A lapse decides only "
         "what was owed when its deadline passed, and a deadline lapses once: what fell due "
         "after it (the President's discard after the votes lapsed) waits for a new "
         "deadline, and the post says so. Without the switch (`wait`, the official game) a "
         "lapse is refused: the moderator prods or replaces. The post says what happened, "
         "in public terms only; whoever's choice a random draw made is told by PM what it "
         "did (the President the policy discarded and the two passed on, the Chancellor the "
         "policy enacted, the President a power's target, the Chancellor a veto refused)."),
        ("R-MODKILL", "Removing a player nobody can replace",
         "When a living player must leave and nobody can take the seat, the moderator may "
         "remove it (`shmod remove NAME --reason …`). The seat dies, not by the table: it is "
         "no power, grants nothing, and reveals no role; term limits and rotation treat it "
         "as dead. If it is Hitler, the Liberals win at once (Hitler has left the game). "
         "Otherwise the round goes on without the seat: its vote no longer counts; if it is "
         "the Presidential Candidate, the nominee, or the President or Chancellor before the "
         "policy is enacted, the round ends as a failed election and any policies in a hand "
         "go back on top of the draw pile in their order; a President with a power pending "
         "loses it. The last two living players cannot be removed. While a backup player "
         "waits (R-BACKUP), `shmod remove` is refused: `shmod replace NAME` seats them; "
         "`--force` removes the seat anyway, and the removed player's PM says a backup was "
         "waiting."),
        ("R-BACKUP", "Backup players",
         "The moderator may keep an ordered list of backup players (`shmod backup NAME`); "
         "`shmod replace OLD` seats the first one unless another is named. A backup's name "
         "follows the same rules as a player's. The list holds at most 50 names, more than "
         "a forum game ever needs, so that it never eats the room in the log a game needs."),
        ("R-REPLACE", "Replacements",
         "A newcomer may take over a living seat with its role and everything it was sent "
         "and did; the seat's history stands, and the newcomer gets one briefing PM. A dead "
         "seat is not replaced, and a newcomer may not carry the name of a player who left "
         "another seat, nor one that looks like it, nor the seat's own player's name (that "
         "would change nothing)."),
        ("R-RENAME", "A name written wrong",
         "A player's name written wrong at the start is corrected with `shmod rename OLD "
         "NEW`: the same player keeps the seat and everything it was sent, and the log's "
         "header, which the opening post's commitment covers, is left as it was (editing "
         "the name in the header by hand would make the audit against the commitment "
         "fail). A rename to the name the player has already is refused: it changes "
         "nothing."),
        ("R-CORRECT", "Corrections",
         "A mistyped step may be voided by an appended correction, together with every "
         "later step that acted on it; nothing already written is changed. Forum "
         "bookkeeping the correction does not name stays as it was: deadlines, prods, "
         "backups, words, renames, replacements, removals, posts and claims, except a claim "
         "about a legislative session or a power that the correction voids, which is "
         "voided with it. A step that a post "
         "shmod printed for the thread covered, a word (its player posted it in the "
         "thread), or any step of a finished game is voided only with `--force`, and the "
         "correction's own post announces it. Whoever was sent a PM by a voided step is "
         "told to disregard it."),
        ("R-CLAIM", "Claims",
         "What a player says in the thread about the game may be recorded as a claim "
         "(`shmod claim`): a President's three policies drawn (and the two passed, if said), "
         "a Chancellor's two received, an investigation's result, a peek's three policies, "
         "or a player's own role. A claim is bookkeeping: it moves no rule and no random "
         "draw, and makes no post of its own (the next post shows it; one recorded once the "
         "game is over shows in history, the reveal and the replay only). It is refused where "
         "it makes no sense: from a dead player, about a session, an investigation or a "
         "peek that did not happen or was not theirs (a Chancellor claims two policies, a "
         "President three), or a role before the deal. During the game the thread sees only "
         "what was said, and where the President's and the Chancellor's claims of one "
         "session cannot both be true (the post that shows the later one says so); once "
         "the game is over each claim is marked true or false against what was dealt (a "
         "session's policies in any order, a peek's top three in their order, the "
         "investigated party, the role)."),
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
        ("R-MODERATORS", "Co-moderators",
         "A game may have several moderators, listed in its log's header (`shmod new "
         "--moderator NAME`, repeated) or added and dropped later (`shmod moderators NAME "
         "[--drop]`), each change said in the thread. Once a game lists its moderators, "
         "every entry names the moderator who recorded it, given with `--as NAME` or once "
         "per terminal with `SHMOD_MODERATOR`; with two or more listed, a step that names "
         "nobody, or somebody not listed, is refused. A game with one moderator needs none "
         "of this. A moderator is not a player, and the last one is never dropped. The audit "
         "lists who recorded what."),
        ("R-HANDOVER", "Handing moderation over",
         "A listed moderator may hand moderation over to another (`shmod handover NAME`): a "
         "post says so in the thread and ends with its checkpoint. From then on only the "
         "incoming moderator records, and only after checking their copy of the log against "
         "that post's checkpoint line as the thread shows it (`shmod handover --accept "
         "'LINE'`, recorded as their first entry). Any listed moderator may take moderation "
         "back the same way, so a moderator who goes silent never blocks the game. The "
         "signing key travels with the log, so every checkpoint verifies under the key the "
         "opening post shows."),
        ("R-MERGE", "Two copies of one log",
         "Moderators who share a log (a git repository, a synced folder) may record on their "
         "own copies at once. Two copies are joined only where no step is lost, duplicated or "
         "reordered: where they part (the hash chain says where), a copy with nothing new "
         "takes the other's entries as they are; if both have new entries, the entries of the "
         "copy that made no post are applied one by one after the other's, as the rules judge "
         "them, chained anew with the entry numbers they name rewritten (a vote or a word "
         "recorded on both copies alike, from the same PM, counts once, and each terminal "
         "knows it for its own; a voided entry never stands for another; a step of the game "
         "lands in the round it was taken in). When neither copy posted, the one whose new "
         "entries were recorded first stays: merging either way round gives the same game. "
         "Votes of different players, prods, backups and deliveries of the outbox's items "
         "always merge this way (a delivery names its item by what caused it, never by "
         "entry number; an item delivered on both copies is kept twice, with a warning). "
         "When both copies made a post of one number, the one delivered first stands; the "
         "other, if it reached the thread, stays in the record as withdrawn (its number, "
         "its checkpoint, the steps it covered), and the thread must show its withdrawal "
         "line, signed with the game's key, after it (the outbox owes it; the moderator adds "
         "it by editing that post); one never delivered is dropped. Either way its steps "
         "are applied after the other copy's. Otherwise (a step that no longer applies, the "
         "same vote recorded with different values) both copies are left as they were and "
         "the refusal names, for each, the first entry they differ at, who recorded it and "
         "when. shmod also refuses to write on a copy that lacks an entry it wrote to it on "
         "this terminal (a post of its withdrawn or dropped in a race aside)."),
    ])


def _whole() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The game's sections with the forum's rules in their places, in the order of a game."""
    (title, rules), *rest = game_rulebook.SECTIONS
    at = [rule for rule, _, _ in rules].index("R-FIRST") + 1
    return [(title, [*rules[:at], *SETUP, *rules[at:]]), *rest, FORUM]


#: (section, [(id, title, text)]) in the order of a game: the whole rulebook.
SECTIONS = _whole()
#: id -> (title, text), every rule of the rulebook.
RULES: dict[str, tuple[str, str]] = {rule: (title, text) for _, rules in SECTIONS
                                     for rule, title, text in rules}


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
           "It is generated from `shmod/game/rulebook.py` (the game's rules) and "
           "`shmod/forum/rulebook.py` (the forum's, and the whole): "
           "`python -m shmod.forum.rulebook > docs/rules.md`.", ""]
    for section, rules in SECTIONS:
        out += [f"## {section}", ""]
        out += [f"- **{rule}** ({title}): {text}" for rule, title, text in rules]
        out.append("")
    out += ["## Where rulebooks disagree, and what shmod does", ""]
    out += [f"- {reading}" for reading in game_rulebook.READINGS]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
