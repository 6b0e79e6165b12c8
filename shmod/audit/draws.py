"""Every value a game drew from a seed, with the inputs the audit recomputed it from, so
that anyone can redo one by hand (docs/verify.md): the words' seed, the roles, the deck,
the first President, each reshuffle and each random lapse choice (R-DEAL, R-RESHUFFLE,
R-LAPSE). ``shmod audit --explain`` prints them, ``--json`` lists them as ``draws``."""
from __future__ import annotations

from typing import Any

from shmod.forum import deadlines
from shmod.forum.events import Dealt
from shmod.forum.log_formats import LogFormat
from shmod.forum.table import Draw, Table
from shmod.game import setup as game_setup, shuffle
from shmod.game.steps import Reshuffle
from shmod.game.terms import FASCIST, LIBERAL


def draws(state: Table) -> list[dict[str, Any]]:
    """Each value drawn from a seed in the game ``state`` replayed, in the order drawn."""
    setup, game = state.setup, state.game
    out: list[dict[str, Any]] = []
    seed, source = setup.seed, "secret.seed"
    if setup.deal == "players":
        if state.dealt is None or setup.seed is None or game.seed is None:
            return out
        out.append(_words(state))
        seed, source = game.seed, "words"
    if seed is None:
        return out  # dealt without a seed: nothing was drawn
    rules = setup.rules
    pack = {"liberal": rules.liberals, "fascist": rules.fascists, "hitler": 1}
    deal_entry = state.dealt if setup.deal == "players" else None
    base = {"seed": seed, "seed_from": source}
    out.append({"what": "roles", "entry": deal_entry, **base, "label": "roles",
                "items": pack, "value": list(game_setup.deal(list(setup.players), seed, rules))})
    out.append({"what": "deck", "entry": deal_entry, **base, "label": "deck",
                "items": {"L": rules.deck_liberal, "F": rules.deck_fascist},
                "value": "".join(shuffle.policy_pile(rules.deck_liberal, rules.deck_fascist,
                                                     seed, "deck"))})
    if _drawn_first(state):
        seat = shuffle.pick(len(setup.players), seed, "first-president")
        out.append({"what": "first President", "entry": deal_entry, **base,
                    "label": "first-president", "below": len(setup.players),
                    "value": seat + 1})
    number = 0
    lapses = {draw.entry: draw for draw in state.draws}
    for entry, step in state.history:
        if isinstance(step, Reshuffle):
            number += 1
            out.append({"what": "reshuffle", "entry": entry, **base,
                        "label": shuffle.reshuffle_label(number),
                        "items": {"L": step.deck.count(LIBERAL), "F": step.deck.count(FASCIST)},
                        "value": "".join(step.deck)})
        elif entry in lapses:
            out.append(_lapse(lapses[entry], base, setup.format))
    return out


def _drawn_first(state: Table) -> bool:
    """R-FIRST: whether the seed drew the first President: at the deal from the players'
    words when none was chosen; in a game dealt by the moderator, when the log's format
    commits that nobody chose one (``first_chosen``, format 5; earlier formats do not say)."""
    setup = state.setup
    if setup.deal == "players":
        return setup.first is None
    return ("first_chosen" in setup.format.frames and not setup.first_chosen
            and setup.rules.first_president == "random")


def _words(state: Table) -> dict[str, Any]:
    """R-DEAL: the words' seed, from the committed seed and the words."""
    setup = state.setup
    assert setup.seed is not None
    words = [state.words[seat] for seat in range(len(setup.players))]
    dealt = next((ev for ev in state.public if isinstance(ev, Dealt)), None)
    names = [name for name, _ in dealt.words] if dealt is not None else state.game.players
    message = setup.format.words.message(words, names)  # format 1: the names at the deal
    return {"what": "words", "entry": state.dealt, "seed": setup.seed,
            "seed_from": "secret.seed", "message": message,
            "value": state.game.seed}


def _lapse(draw: Draw, base: dict[str, Any], form: LogFormat) -> dict[str, Any]:
    """R-LAPSE: one random choice: each option's number (from format 3 on), or the index
    drawn among them (formats 1 and 2: ``lapse_draw="index"``)."""
    seed = base["seed"]
    options: list[dict[str, Any]] = [{"key": key, "records": records}
                                     for key, records in draw.options]
    found: dict[str, Any] = {}
    if form.lapse_draw == "lowest":
        for option in options:
            option["number"] = deadlines.option_number(seed, draw.label, option["key"])
    else:
        found["index"] = shuffle.pick(len(options), seed, draw.label)
    return {"what": "lapse", "entry": draw.entry, **base, "label": draw.label,
            "options": options, **found, "value": draw.choice}


def explained(found: dict[str, Any]) -> list[str]:
    """One draw in words, as ``shmod audit --explain`` prints it (docs/verify.md)."""
    what, label, value = found["what"], found.get("label"), found["value"]
    where = f"entry {found['entry']}: " if found.get("entry") else ""
    if what == "words":
        lines = [f"{where}the words' seed = HMAC-SHA256(key = the UTF-8 of secret.seed "
                 f"{found['seed']!r}, message = these lines, each ending in a line feed):"]
        lines += [f"    {line}" for line in found["message"].splitlines()]
        return [*lines, f"  = {value}"]
    seed = ("the words' seed " if found["seed_from"] == "words" else "secret.seed ") + found["seed"]
    if what in ("roles", "deck", "reshuffle"):
        items = " + ".join(f"{count} {name}" for name, count in found["items"].items())
        shown = " ".join(value) if isinstance(value, list) else value
        return [f"{where}{what}: shuffle({items}) with seed {seed}, label {label!r} = {shown}"]
    if what == "first President":
        return [f"{where}first President: below({found['below']}) with seed {seed}, label "
                f"{label!r} = seat {value}"]
    if "index" in found:
        names = ", ".join(option["records"] for option in found["options"])
        return [f"{where}lapse: below({len(found['options'])}) with seed {seed}, label "
                f"{label!r} = {found['index']} among ({names}) = {value}"]
    numbers = "; ".join(f"{option['key']} {option['number']}" for option in found["options"])
    return [f"{where}lapse: with seed {seed}, each option's below(2^64) under label "
            f"{label!r} + '/' + the option: {numbers}; the lowest wins: {value}"]
