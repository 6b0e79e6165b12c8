"""Write docs/vectors.json: inputs and outputs of every computation docs/verify.md specifies,
computed by shmod. Run it only when docs/verify.md changes on purpose (a new log format);
tests/test_vectors.py checks that shmod still gives every value, and tests/verifier.py (written
from docs/verify.md alone) gives them too.

    python tools/make_vectors.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shmod.base import digest  # noqa: E402
from shmod.base.errors import RuleBroken  # noqa: E402
from shmod.forum import commitment, deadlines, dealing  # noqa: E402
from shmod.forum.earlier_words import canonical_word, word_key  # noqa: E402
from shmod.forum.house import parse_variants  # noqa: E402
from shmod.forum.log_formats import FORMATS  # noqa: E402
from shmod.forum.setup import new_header, parse_setup  # noqa: E402
from shmod.forum.wordform import latin_word  # noqa: E402
from shmod.forum.wordkey import lookalike_key, refuse_symbols  # noqa: E402
from shmod.game import setup as game_setup, shuffle  # noqa: E402
from shmod.game.house import rules_for  # noqa: E402
from shmod.log import checkpoints, logfile, signing  # noqa: E402

SEED = "9f86d081884c7d659a2feaa0c55ad015"  # docs' example secrets (commitment.PUBLISHED)
SALT = "3a7bd3e2360a3d29eea436fcfb7e44c7"
#: RFC 8032's first Ed25519 test key: (private, public).
KEYS = ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Zoë"]
EXAMPLE_SEED = "580b4f279b2de3d3238d4a28601693f1"  # games/words-dealt-8-players.yaml
EXAMPLE_WORDS = ["cremebrulee", "strasse", "outdamnedspot", "lodz", "thorn", "42",
                 "rocknroll", "cava"]
AT = "2026-11-23T10:00:00Z"


def _stream_first(seed: str, label: str) -> str:
    return digest.sha256(f"shmod/v1/{seed}/{label}/0".encode()).digest().hex()


def _header(form: int, **options: Any) -> dict[str, Any]:
    keys = options.pop("keys", KEYS)
    header = new_header(options.pop("players", PLAYERS), seed=options.pop("seed", SEED),
                        salt=SALT, created=AT, keys=keys if form >= 2 else None, **options)
    header["shmod"] = form
    if form < 5:
        header.pop("seed_source", None)
        header.pop("first_chosen", None)
    header.pop("commitment", None)
    if form == 1:
        header.pop("moderator_key", None)
        header["secret"].pop("signing_key", None)
    header["secret"].pop("signing_key", None)
    return header


def commitments() -> list[dict[str, Any]]:
    cases = []
    three = _header(4, first="Ann", variants=["late_choice=random"])
    three["variants"] = {"term5": "alive", "veto": "rulebook", "late_choice": "random",
                         "rebalanced": "off"}  # a hand-written header listing four
    for form, header in [(4, _header(4, first="Ann")), (3, _header(3, first="Ann")),
                         (2, _header(2, first="Ann")), (1, _header(1, first="Ann")),
                         (4, _header(4, deal_by="players")),
                         (4, _header(4, first="Bob", deal_by="players",
                                     variants=["late_vote=nein", "eva_braun=on"])),
                         (4, three),
                         (4, _header(4, first="Ann", custom={"deck": {"liberal": 7,
                                                                      "fascist": 11}})),
                         (4, _header(4, first="Ann", keys=None)),
                         (5, _header(5, first="Ann")), (5, _header(5)),
                         (5, _header(5, deal_by="players", seed_source="guessable")),
                         (5, _header(5, first="Bob", deal_by="players", seed_source="drawn"))]:
        setup = parse_setup(header)
        text = commitment.canonical_bytes(setup).decode()
        cases.append({"format": form, "header": header, "text": text,
                      "sha256": commitment.commitment(setup)})
    return cases


def deals() -> list[dict[str, Any]]:
    cases = []
    for players, seed, variants, custom in [
            (5, SEED, [], None), (7, "words", [], None), (10, EXAMPLE_SEED, [], None),
            (6, SEED, ["rebalanced=on"], None), (8, SEED, [], {"deck": {"liberal": 8,
                                                                        "fascist": 10}})]:
        names = [f"P{n}" for n in range(1, players + 1)]
        rules = rules_for(players, parse_variants(variants), custom)
        roles, deck, first = game_setup.from_seed(tuple(names), rules, seed, None)
        cases.append({"seed": seed, "players": players, "variants": variants, "custom": custom,
                      "deck": [rules.deck_liberal, rules.deck_fascist],
                      "roles": list(roles), "deck_order": "".join(deck), "first": first + 1})
    return cases


LATIN = ["Crème brûlée!", "Straße", "STRASSE", "out, damned spot", "Łódź", "þorn", "ÆSIR",
         "42", "½", "Ⅻ", "ﬁne", "rock'n'roll", "don\u02bct", "\u0131\u0307gloo", "igloo",
         "b\u0131\u0307cycle", "Ça va?", "\ua731mall", "Ħal Far", "\uff2c\uff25\uff2d\uff2f\uff2e",
         "c&shy;herry", "c&#173;herry", "c&#xad;herry", "c&shyherry", "<b>c</b>herry",
         "[b]c[/b]herry", "I :heart: it", "c\u00adherry", "che\u200brry", "lemon\ufe0f",
         "\u202enomel", "x\U000e0001", "\u0448\u0430\u0440", "\u03c4\u03b1\u03be\u03b9",
         "\u86c7", "\u0259l", "!!!", "   ", "\ue000", "\U0003ffff", "a" * 41,
         "a b\u00a0c\u3000d", "Ǆemal"]


def latin(typed_words: list[str] = LATIN) -> list[dict[str, Any]]:
    cases = []
    for typed in typed_words:
        try:
            cases.append({"typed": typed, "word": latin_word(typed)})
        except RuleBroken as err:
            reason = str(err)
            kind = ("markup" if "holds markup" in reason else
                    "invisible" if "shows nothing" in reason else
                    "unknown" if "does not know" in reason else
                    "private" if "private-use" in reason else
                    "empty" if "no letter or digit" in reason else
                    "long" if "at most" in reason else "not latin")
            cases.append({"typed": typed, "refused": kind})
    return cases


#: Typed words format 5 refuses where format 4 dropped a symbol (or records as format 4).
SYMBOLS = ["\U0001f170pple", "\U0001f150pple", "\U0001f1e6pple", "\u237apple", "\u25cbrange",
           "\u00d7mas", "he\u2223\u2223o", "he||o", "c\uff5cean", "\u212evil", "\u22ffgg",
           "\u00a9",
           "\U0001d41apple", "\u24d0pple", "\u2113ove", "$nake", "\\/\\/ord", "c()de",
           "apple (red)", "h\u00a1", "\u05c0ove", "apple <3", "\u00bd",
           "Cr\u00e8me br\u00fbl\u00e9e!",
           "rock'n'roll", "l0ve", "\uff2c\uff25\uff2d\uff2f\uff2e"]


def symbols() -> list[dict[str, Any]]:
    """Format 5's step 2a: each typed word refused as a symbol, or recorded (or refused) as
    format 4 records it (:func:`latin`'s cases)."""
    cases = []
    for typed in SYMBOLS:
        try:
            refuse_symbols(typed)
        except RuleBroken:
            cases.append({"typed": typed, "refused": "symbol"})
            continue
        cases += [case for case in latin([typed])]
    return cases


#: Recorded words whose look-alike keys the vectors give (format 5).
LOOKALIKE = ["modern", "rnodern", "iviodern", "1v1odern", "clear", "dear", "ciear", "c1ear",
             "word", "vvord", "vvorcl", "l0ve", "love", "iove", "1ove", "5ea5on", "season",
             "vvv", "wv", "vw", "b00k", "8ook", "6ook", "quiz", "9ui2", "gulz", "rnrn", "mm",
             "cava", "42", "cremebrulee", "0123456789", "abcdefghijklmnopqrstuvwxyz"]


def words_seeds() -> list[dict[str, Any]]:
    mixed = ["lemon", "big cat", "\u00fcmlaut", "42", "\u0131\u0307gloo"]
    cases: list[dict[str, Any]] = [
        {"format": form, "seed": seed, "words": words,
         "message": FORMATS[form].words.message(words, ()),
         "value": dealing.words_seed(seed, words, FORMATS[form])}
        for form, seed, words in [(4, EXAMPLE_SEED, EXAMPLE_WORDS), (3, SEED, mixed),
                                  (2, SEED, mixed)]]
    named = dict(zip(PLAYERS, ["Lemon", "big  cat", "Zebra", "42", "ünïcode"]))
    cases.append({"format": 1, "seed": SEED, "names": list(named), "words": list(named.values()),
                  "message": FORMATS[1].words.message(list(named.values()), list(named)),
                  "value": dealing.words_seed(SEED, list(named.values()), FORMATS[1],
                                              list(named))})
    cases += [{"format": 5, "seed": seed, "words": words,
               "message": FORMATS[5].words.message(words, ()),
               "value": dealing.words_seed(seed, words, FORMATS[5])}
              for seed, words in [(EXAMPLE_SEED, EXAMPLE_WORDS),
                                  (SEED, ["rnodern", "c1ear", "vvord", "l0ve", "b00k"])]]
    return cases


KEYED = ["lemon", "lernon", "big cat", "l0ve", "I\u0131", "\u00fcmlaut", "i\u0307gloo",
         "\u0131\u0307gloo", "j\u0307am", "\u0448\u0430\u0440", "\u00feorn", "\u03edx",
         "\u04cfamp", "c&shy;herry", "\u0435\u0430sy", "\u00e9t\u00e9"]


def lapses() -> list[dict[str, Any]]:
    words_seed = dealing.words_seed(EXAMPLE_SEED, EXAMPLE_WORDS, FORMATS[4])
    cases = []
    for form, seed, label, keys in [
            (4, words_seed, "lapse/round-5/power/execute/seat-4",
             ["seat-1", "seat-2", "seat-3", "seat-5", "seat-6", "seat-7", "seat-8"]),
            (4, words_seed, "lapse/round-2/discard/none/seat-1", ["Liberal", "Fascist"]),
            (4, words_seed, "lapse/round-4/power/special_election/seat-3",
             ["seat-1", "seat-2", "seat-4", "seat-5", "seat-6", "seat-7", "seat-8"]),
            (3, SEED, "lapse/round-7/power/investigate/seat-10", ["seat-2", "seat-9"]),
            (2, SEED, "lapse/round-3/enact/none/seat-2", ["Liberal", "Fascist"]),
            (2, SEED, "lapse/round-6/power/execute/seat-1", ["Bob", "Cy", "Dee", "Zo\u00eb"]),
            (1, SEED, "lapse-17", ["Liberal", "Fascist"])]:
        options = [(key, key) for key in keys]
        case: dict[str, Any] = {"format": form, "seed": seed, "label": label, "options": keys,
                                "choice": deadlines.draw(seed, label, options, FORMATS[form])}
        if form >= 3:
            case["numbers"] = [deadlines.option_number(seed, label, key) for key in keys]
        else:
            case["index"] = shuffle.pick(len(keys), seed, label)
        cases.append(case)
    return cases


def chains_and_checkpoints() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    header = _header(4, first="Ann")
    head = logfile.header_link(header)
    entry = {"kind": "nominate", "by": "Ann", "chancellor": "Bob", "at": AT}
    link = logfile.link(head, entry)
    word = {"kind": "word", "by": "Zoë", "word": "cava", "at": AT, "hash": "ignored"}
    chains = [{"header": header, "link": head}, {"previous": head, "entry": entry, "link": link},
              {"previous": link, "entry": word, "link": logfile.link(link, word)}]
    value = checkpoints.value(SALT, 1, link)
    setup = parse_setup({**header, "commitment": commitment.commitment(parse_setup(header))})
    message = checkpoints.message(setup.commitment or "", 2, value)
    checks = [{"salt": SALT, "entry": 1, "head": link, "value": value,
               "post": 2, "tag": checkpoints.tag(SALT, 2, 1, value),
               "commitment": setup.commitment, "message": message.decode(),
               "key": KEYS[1], "signature": signing.sign(KEYS[0], message)}]
    return chains, checks


def main() -> None:
    words_seed = dealing.words_seed(EXAMPLE_SEED, EXAMPLE_WORDS, FORMATS[4])
    chains, checks = chains_and_checkpoints()
    vectors = {
        "stream": [{"seed": s, "label": label, "first": _stream_first(s, label)}
                   for s, label in [(SEED, "roles"), (words_seed, "reshuffle-1")]],
        "below": [{"seed": s, "label": label, "n": n, "value": shuffle.pick(n, s, label)}
                  for s, label, n in [(SEED, "first-president", 5), (SEED, "x", 3),
                                      (words_seed, "first-president", 8),
                                      (SEED, "lapse/round-1/discard/none/seat-1/Liberal",
                                       1 << 64)]],
        "shuffle": [{"seed": s, "label": label, "items": items,
                     "value": shuffle.shuffled(items, s, label)}
                    for s, label, items in [(SEED, "roles", ["liberal"] * 3 + ["fascist",
                                                                              "hitler"]),
                                            (SEED, "deck", list("L" * 6 + "F" * 11)),
                                            (words_seed, "reshuffle-1",
                                             list("L" * 6 + "F" * 6))]],
        "commitment": commitments(),
        "deal": deals(),
        "latin_word": latin(),
        "format5_word": symbols(),
        "lookalike_key": [{"word": w, "key": lookalike_key(w)} for w in LOOKALIKE],
        "words_seed": words_seeds(),
        "format3_key": [{"word": w, "key": word_key(canonical_word(w))}
                        for w in KEYED],
        "reshuffle": [{"seed": words_seed, "k": 1, "deck": "".join(shuffle.policy_pile(
            6, 6, words_seed, shuffle.reshuffle_label(1)))}],
        "lapse": lapses(),
        "chain": chains,
        "checkpoint": checks,
    }
    text = json.dumps(vectors, indent=1, ensure_ascii=False) + "\n"
    (ROOT / "docs" / "vectors.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
