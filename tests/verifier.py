"""A verifier of shmod's logs written from docs/verify.md alone: Python's standard library
only, nothing of shmod imported. It recomputes every value of a log that docs/verify.md
specifies (the section each follows is named): the commitment, the deal, every reshuffle,
every random lapse choice with its label and options (the game replayed to each lapse,
section 7.1), the hash chain, every checkpoint value and every signature (Ed25519 in
pure Python, RFC 8032), every post withdrawn after a race (its steps held, its withdrawal
signed: section 9), and the test vectors (section 12). tests/test_verifier.py runs it
on every shipped game and test log and on games it plays, and compares it with
``shmod audit --json``; it also checks that every field this file reads is one
docs/verify.md names.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# -- section 1: reading the log (YAML 1.1, as shmod writes it) ---------------------------

_INT = re.compile(r"[-+]?[0-9]+\Z")
_BOOLS = {"true": True, "false": False, "yes": True, "no": False, "on": True, "off": False}


def _plain(text: str) -> Any:
    if _INT.match(text):
        return int(text)
    if text.lower() in _BOOLS and text in (text.lower(), text.upper(), text.capitalize()):
        return _BOOLS[text.lower()]
    if text in ("null", "~", ""):
        return None
    return text


def _flow(text: str, at: int, inside: bool) -> tuple[Any, int]:
    """One YAML value at ``text[at:]``: a flow mapping or list, a quoted or plain scalar."""
    while at < len(text) and text[at] == " ":
        at += 1
    char = text[at] if at < len(text) else ""
    if char in "{[":
        close, out = ("}", {}) if char == "{" else ("]", [])
        at += 1
        while True:
            while text[at] in " ,":
                at += 1
            if text[at] == close:
                return out, at + 1
            if close == "}":
                key, at = _flow(text, at, True)
                assert text[at] == ":", text[at:]
                value, at = _flow(text, at + 1, True)
                out[key] = value
            else:
                value, at = _flow(text, at, True)
                out.append(value)
    if char == '"':
        value, end = json.JSONDecoder().raw_decode(text, at)
        return value, end
    if char == "'":
        end = at + 1
        while True:
            end = text.index("'", end)
            if text[end + 1:end + 2] == "'":
                end += 2
                continue
            return text[at + 1:end].replace("''", "'"), end + 1
    end = at
    stops = ",}]" if inside else ""
    while end < len(text) and text[end] not in stops and not (
            text[end] == ":" and (end + 1 == len(text) or text[end + 1] == " ")) and not (
            text[end] == "#" and text[end - 1] == " "):
        end += 1
    return _plain(text[at:end].strip()), end


def _block(lines: list[tuple[int, str]], at: int, indent: int) -> tuple[Any, int]:
    if lines[at][1].startswith("- "):
        items = []
        while at < len(lines) and lines[at][0] == indent and lines[at][1].startswith("- "):
            items.append(_flow(lines[at][1], 2, False)[0])
            at += 1
        return items, at
    out: dict[str, Any] = {}
    while at < len(lines) and lines[at][0] == indent and not lines[at][1].startswith("- "):
        line = lines[at][1]
        key, end = _flow(line, 0, True)
        rest = line[end + 1:].strip()
        at += 1
        if rest and not rest.startswith("#"):
            out[key] = _flow(line, end + 1, False)[0]
        elif at < len(lines) and (lines[at][0] > indent or lines[at][1].startswith("- ")):
            out[key], at = _block(lines, at, lines[at][0])
        else:
            out[key] = None
    return out, at


def read_log(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header (every field but ``log``) and the entries of a log shmod wrote (a block
    header, one flow mapping per entry; the hash chain checks the reading)."""
    lines = [(len(line) - len(line.lstrip(" ")), line.strip()) for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    document, _ = _block(lines, 0, 0)
    entries = document.pop("log") or []
    return document, entries


# -- section 1: conventions --------------------------------------------------------------


def json_string(text: str) -> str:
    out = ['"']
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char in "\b\f\n\r\t":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[char])
        elif ord(char) < 0x20:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out) + '"'


def canonical(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{json_string(str(k))}:{canonical(v)}"
                              for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    return json_string(str(value))


def sha256(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def hmac256(key: str | bytes, text: str) -> str:
    raw = key.encode() if isinstance(key, str) else key
    return hmac.new(raw, text.encode(), hashlib.sha256).hexdigest()


def seat_of(names: list[str], value: Any) -> int:
    """Section 1: the seat an entry names: a player's name as seated then, case ignored,
    or a seat number."""
    text = " ".join(str(value).split()).casefold()
    for seat, name in enumerate(names):
        if name.casefold() == text:
            return seat
    return int(text) - 1


# -- section 3: the seeded stream --------------------------------------------------------


class Stream:
    def __init__(self, seed: str, label: str) -> None:
        self.seed, self.label, self.block, self.buffer = seed, label, 0, b""

    def next(self) -> int:
        if not self.buffer:
            self.buffer = hashlib.sha256(
                f"shmod/v1/{self.seed}/{self.label}/{self.block}".encode()).digest()
            self.block += 1
        x, self.buffer = int.from_bytes(self.buffer[:8], "big"), self.buffer[8:]
        return x

    def below(self, n: int) -> int:
        while True:
            x = self.next()
            if x < 2**64 - 2**64 % n:
                return x % n


def below(seed: str, label: str, n: int) -> int:
    return Stream(seed, label).below(n)


def shuffle(items: list[Any], seed: str, label: str) -> list[Any]:
    out, stream = list(items), Stream(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def pile(liberal: int, fascist: int, seed: str, label: str) -> str:
    return "".join(shuffle(["L"] * liberal + ["F"] * fascist, seed, label))


# -- section 4: the commitment -----------------------------------------------------------

GAME_SWITCHES = {"eva_braun": "off", "first_president": "random", "rebalanced": "off",
                 "term5": "alive", "tracker_reset": "enactment", "veto": "rulebook"}
LAPSE_SWITCHES = ("late_choice", "late_nomination", "late_vote")


def _switch(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def switches(header: dict[str, Any]) -> dict[str, str]:
    """Every switch in force: the header's ``variants``, each missing one at its default."""
    listed = {k: _switch(v) for k, v in (header.get("variants") or {}).items()}
    return {**GAME_SWITCHES, **{k: "wait" for k in LAPSE_SWITCHES}, **listed}


def commitment_text(header: dict[str, Any]) -> str:
    form, secret = header["shmod"], header.get("secret") or {}
    listed = switches(header)
    shown = {k: listed[k] for k in GAME_SWITCHES}
    shown.update({k: listed[k] for k in LAPSE_SWITCHES if listed[k] != "wait"})
    lines = [f"shmod-commitment {form}",
             "players " + " ".join(json_string(str(p)) for p in header["players"]),
             "first_president " + (json_string(str(header["first_president"]))
                                   if "first_president" in header else "drawn"),
             "variants " + " ".join(f"{k}={v}" for k, v in sorted(shown.items()))]
    if header.get("custom"):
        lines.append("custom " + canonical(header["custom"]))
    if header.get("deal") == "players":
        lines.append("deal players")
    else:
        roles = secret["roles"]
        lines.append("roles " + " ".join(str(roles[p]) for p in header["players"]))
        lines.append("deck " + "".join(secret["deck"]))
    for key in ("seed", "salt"):
        lines.append(f"{key} " + ("none" if secret.get(key) is None
                                  else json_string(str(secret[key]))))
    if form >= 2:
        key = header.get("moderator_key")
        lines.append("moderator_key " + ("none" if key is None else json_string(key)))
    if form >= 5:
        lines.append("seed_source " + str(header.get("seed_source", "none")))
        lines.append("first_chosen " + ("true" if header.get("first_chosen") else "false"))
    return "".join(line + "\n" for line in lines)


def commitment(header: dict[str, Any]) -> str:
    return sha256(commitment_text(header))


# -- section 5: the deal -----------------------------------------------------------------

ROLES = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}


def deck_counts(header: dict[str, Any]) -> tuple[int, int]:
    players = len(header["players"])
    custom = (header.get("custom") or {}).get("deck")
    if custom:
        return custom["liberal"], custom["fascist"]
    rebalanced = switches(header)["rebalanced"] == "on"
    return 6, 10 if rebalanced and players in (6, 7, 9) else 11


def deal(header: dict[str, Any], seed: str) -> tuple[list[str], str, int]:
    """Section 5.2: the roles by seat, the deck and the drawn first President's seat."""
    players = len(header["players"])
    liberals, fascists = ROLES[players]
    roles = shuffle(["liberal"] * liberals + ["fascist"] * fascists + ["hitler"], seed, "roles")
    return roles, pile(*deck_counts(header), seed, "deck"), below(seed, "first-president",
                                                                  players) + 1


IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
             (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
             (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
             (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
TABLE = {"ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o",
         "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th",
         "Þ": "th", "\u0131": "i", "\u0237": "j", "ħ": "h", "Ħ": "h", "ɛ": "e", "Ɛ": "e",
         "ŧ": "t", "Ŧ": "t", "ŋ": "n", "Ŋ": "n", "ĸ": "k", "ƒ": "f", "Ƒ": "f", "ɓ": "b",
         "Ɓ": "b", "ɗ": "d", "Ɗ": "d", "ɖ": "d", "Ɖ": "d", "ƙ": "k", "Ƙ": "k", "ƴ": "y",
         "Ƴ": "y", **{chr(c): "" for c in (*range(0x02B9, 0x02C0), 0x02C8, 0x02CC, 0x02D0,
                                            0x02D1, 0x02EE)}}
MARKUP = re.compile(r"&[#A-Za-z]|<[A-Za-z/!?]|\[[A-Za-z/*]|:[A-Za-z0-9_+-]+:")
RECORDED = re.compile(r"[a-z0-9]{1,40}\Z")


def _invisible(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or any(
        low <= ord(char) <= high for low, high in IGNORABLE)


def latin_word(typed: str) -> str:
    """Section 5.3: the recorded form of a typed word, or ValueError(the refusal's name)."""
    for char in typed:
        kind = unicodedata.category(char)
        if kind in ("Cn", "Co"):
            raise ValueError("unknown" if kind == "Cn" else "private")
        if kind in ("Cc", "Cs", "Zl", "Zp") or _invisible(char):
            raise ValueError("invisible")
    if MARKUP.search(typed):
        raise ValueError("markup")
    out = ""
    for char in unicodedata.normalize("NFKD", typed):
        if unicodedata.category(char).startswith("M"):
            continue
        for c in TABLE.get(char, char):
            if c.isascii() and c.isalnum():
                out += c.lower()
            elif not c.isascii() and unicodedata.category(c)[0] in "LN":
                raise ValueError("not latin")
    if not out:
        raise ValueError("empty")
    if len(out) > 40:
        raise ValueError("long")
    return out


#: Section 5.4: the confusables rows, ``SOURCE:PROTOTYPE`` one per line, hash to this.
CONFUSABLES_ROWS_SHA256 = "1c4833fc45170fee04f6a47276b046cb3167000b555f2abc25714e63dac5b52b"


def _confusables() -> dict[int, str]:
    """Section 5.4: confusables.txt 13.0.0's rows, as the data file
    shmod/forum/lookalike_table.py carries them (checked against the rows' hash)."""
    text = (ROOT / "shmod" / "forum" / "lookalike_table.py").read_text(encoding="utf-8")
    rows = text.split('DATA = """', 1)[1].split('"""', 1)[0].split()
    assert sha256("".join(row + "\n" for row in rows)) == CONFUSABLES_ROWS_SHA256
    pairs = (row.split(":") for row in rows)
    return {int(src, 16): "".join(chr(int(c, 16)) for c in dst.split("+")) for src, dst in pairs}


ASCII_ROWS = {'"': "''", "%": "\u00ba/\u2080", "0": "O", "1": "l", "I": "l", "`": "'",
              "m": "rn", "|": "l"}
SOFT_DOTTED = "ij\u0456\u0458\u0249\u0268\u029d\u03f3"
_TABLE: dict[int, str] = {}


def _prototypes() -> dict[int, str]:
    if not _TABLE:
        _TABLE.update(_confusables())
    return _TABLE


def format3_word(typed: str) -> str:
    """Section 5.4: a typed word as format 3 recorded it."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", typed).casefold())
    joined = " ".join("".join(c for c in folded if not _invisible(c)).split())
    start, end = 0, len(joined)
    while start < end and unicodedata.category(joined[start])[0] in "PZ":
        start += 1
    while end > start and unicodedata.category(joined[end - 1])[0] in "PZ":
        end -= 1
    return " ".join(joined[start:end].split())


def format3_key(word: str) -> str:
    """Section 5.4: a recorded word's key, casefold(skeleton(word))."""
    if word.isascii():
        return "".join(ASCII_ROWS.get(c, c) for c in word).casefold()
    split = unicodedata.normalize("NFD", word)
    kept = "".join(c for i, c in enumerate(split)
                   if not (c == "\u0307" and i and split[i - 1] in SOFT_DOTTED))
    mapped = "".join(_prototypes().get(ord(c), c) for c in kept)
    return unicodedata.normalize("NFD", mapped).casefold()


#: Section 5.3, the look-alike key (format 5): step 1's table, step 2's pair, step 3's reading.
FOLD = {"0": "o", "1": "l", "i": "l", "2": "z", "5": "s", "6": "b", "8": "b", "9": "g",
        "q": "g", "d": "cl", "m": "lvl", "w": "vv"}


def lookalike_key(word: str) -> str:
    """Section 5.3: a recorded word's look-alike key."""
    text = "".join(FOLD.get(c, c) for c in word).replace("rn", "lvl")
    out, i = "", 0
    while i < len(text):
        for seq, letter in (("lvl", "m"), ("cl", "d"), ("vv", "w")):
            if text.startswith(seq, i):
                out, i = out + letter, i + len(seq)
                break
        else:
            out, i = out + text[i], i + 1
    return out


def format5_refused(typed: str) -> bool:
    """Section 5.3 step 2a: whether format 5 refuses ``typed`` for a symbol, a styled letter,
    a bracket or slash, or punctuation the confusables data maps to a letter or digit."""
    for c in typed:
        kind = unicodedata.category(c)
        if kind[0] == "S" or kind in ("Ps", "Pe") or c in "/\\\u00a1":
            return True
        if unicodedata.decomposition(c).split(" ")[0] in ("<font>", "<circle>", "<square>"):
            return True
        if kind[0] == "P" and not c.isascii():
            proto = unicodedata.normalize("NFD", "".join(
                _prototypes().get(ord(x), x) for x in unicodedata.normalize("NFD", c)))
            if any(x.isascii() and x.isalnum() for x in proto):
                return True
    return False


def words_message(form: int, words: list[str], names: list[str] | None = None) -> str:
    if form >= 5:
        return "shmod-words 5\n" + "".join(f"{n} {lookalike_key(w)}\n"
                                           for n, w in enumerate(words, 1))
    if form >= 4:
        return "shmod-words 4\n" + "".join(f"{n} {w}\n" for n, w in enumerate(words, 1))
    if form == 1:
        assert names is not None
        return "shmod-words 1\n" + "".join(f"{json_string(n)} {json_string(w)}\n"
                                           for n, w in zip(names, words))
    keyed = [format3_key(w) for w in words] if form == 3 else words
    return f"shmod-words {form}\n" + "".join(f"{n} {json_string(w)}\n"
                                             for n, w in enumerate(keyed, 1))


# -- section 7: random lapse choices -----------------------------------------------------


def lapse_choice(form: int, seed: str, label: str, keys: list[str]) -> tuple[str, list[int]]:
    """The key chosen among ``keys`` (in the order of section 7), and the numbers drawn."""
    if form >= 3:
        numbers = [below(seed, f"{label}/{key}", 2**64) for key in keys]
        return min(zip(numbers, keys))[1], numbers
    index = below(seed, label, len(keys))
    return keys[index], [index]


# -- section 9: the chain, the checkpoints and their signatures --------------------------


def header_link(header: dict[str, Any]) -> str:
    published = dict(header)
    secret = published.get("secret")
    if isinstance(secret, dict):
        left_out = {"signing_key", *(("roles",) if header.get("deal") == "players" else ())}
        published["secret"] = {k: v for k, v in secret.items() if k not in left_out}
    return sha256("shmod-header\n" + canonical(published))[:32]


def link(previous: str, entry: dict[str, Any]) -> str:
    return sha256(previous + "\n" + canonical({k: v for k, v in entry.items()
                                                if k != "hash"}))[:32]


def checkpoint_value(salt: str, entry: int, head: str) -> str:
    key = hashlib.sha256(f"shmod/checkpoint-key/v1\n{salt}".encode()).digest()
    return hmac256(key, f"{entry}\n{head}")[:32]


def checkpoint_tag(salt: str, post: int, entry: int, value: str) -> str:
    key = hashlib.sha256(f"shmod/tag-key/v1\n{salt}".encode()).digest()
    return hmac256(key, f"{post}\n{entry}\n{value}")[:16]


def checkpoint_message(commitment_hex: str, post: int, value: str) -> str:
    return f"shmod-checkpoint 2\n{commitment_hex}\n{post}\n{value}\n"


# Ed25519 verification (RFC 8032 section 5.1.7), points in extended coordinates (X, Y, Z, T).
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
Point = tuple[int, int, int, int]


def _add(a: Point, b: Point) -> Point:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e, h = (y1 - x1) * (y2 - x2) % _P, (y1 + x1) * (y2 + x2) % _P
    c, d = 2 * t1 * t2 * _D % _P, 2 * z1 * z2 % _P
    e, f, g, h = h - e, d - c, d + c, h + e
    return e * f % _P, g * h % _P, f * g % _P, e * h % _P


def _times(scalar: int, point: Point) -> Point:
    out: Point = (0, 1, 1, 0)
    while scalar:
        if scalar & 1:
            out = _add(out, point)
        point, scalar = _add(point, point), scalar >> 1
    return out


def _point(raw: bytes) -> Point | None:
    """RFC 8032 section 5.1.3: a point's 32 bytes decoded, or None."""
    y = int.from_bytes(raw, "little")
    sign, y = y >> 255, y & (1 << 255) - 1
    if y >= _P:
        return None
    xx = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - xx) % _P or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = _P - x
    return x, y, 1, x * y % _P


_BASE = _point(bytes.fromhex("58" + "66" * 31))


def ed25519_verify(public: str, message: bytes, signature: str) -> bool:
    """RFC 8032 section 5.1.7: whether ``signature`` (hex) signs ``message`` under the
    public key ``public`` (hex): [S]B = R + [k]A, k = SHA-512(R || A || message) mod L."""
    key, sig = bytes.fromhex(public), bytes.fromhex(signature)
    a, r, s = _point(key), _point(sig[:32]), int.from_bytes(sig[32:], "little")
    if a is None or r is None or _BASE is None or s >= _L:
        return False
    k = int.from_bytes(hashlib.sha512(sig[:32] + key + message).digest(), "little") % _L
    left, right = _times(s, _BASE), _add(r, _times(k, a))
    return (left[0] * right[2] - right[0] * left[2]) % _P == 0 and \
        (left[1] * right[2] - right[1] * left[2]) % _P == 0


# -- section 9: a post withdrawn after a race ----------------------------------------------


def identities(entries: list[dict[str, Any]]) -> list[str]:
    """Each entry's identity, the entries its ``entries`` and ``deadline`` name by theirs."""
    found: list[str] = []
    for entry in entries:
        body = {k: v for k, v in entry.items() if k not in ("hash", "entries", "deadline")}
        for key in ("entries", "deadline"):
            if key in entry:
                numbers = entry[key] if isinstance(entry[key], list) else [entry[key]]
                body["\0" + key] = sorted(
                    found[n - 1] if isinstance(n, int) and not isinstance(n, bool)
                    and 1 <= n <= len(found) else f"#{n!r}" for n in numbers)
        found.append(sha256(canonical(body))[:32])
    return found


def withdrawal_message(commitment: str, post: int, value: str) -> bytes:
    return f"shmod-withdrawal 1\n{commitment}\n{post}\n{value}\n".encode()


def withdrawal_tag(salt: str, post: int, value: str) -> str:
    key = hashlib.sha256(f"shmod/withdrawal-key/v1\n{salt}".encode()).digest()
    return hmac256(key, f"{post}\n{value}")[:16]


def _withdrawn(header: dict[str, Any], entries: list[dict[str, Any]], commitment_: str,
               out: Verified) -> None:
    ids: list[str] | None = None
    for number, entry in enumerate(entries, 1):
        if entry.get("kind") != "withdrawn":
            continue
        ids = ids or identities(entries)
        post, mark = entry["post"], str(entry["withdrawal"])
        value, signature = str(entry["checkpoint"])[:32], str(entry["checkpoint"])[32:]
        out.withdrawals += 1
        if not set(entry["covered"]) <= set(ids[:number - 1]):
            out.problems.append(f"entry {number}: post {post} covered an entry the log lacks")
        if len(mark) == 16:
            good = mark == withdrawal_tag(str(header["secret"]["salt"]), post, value)
        else:
            key = str(header.get("moderator_key"))
            good = ed25519_verify(key, withdrawal_message(commitment_, post, value), mark) and \
                ed25519_verify(key, checkpoint_message(commitment_, post, value).encode(),
                               signature)
        if not good:
            out.problems.append(f"entry {number}: the withdrawal of post {post} is not signed "
                                "with the game's key")


# -- a whole log ---------------------------------------------------------------------------


@dataclass
class Draw:
    """One value drawn from a seed, as the audit's ``draws`` list it."""

    what: str  # roles, deck, first President, words, reshuffle, lapse
    entry: int | None
    seed: str
    value: Any
    label: str | None = None
    message: str | None = None  # words: the HMAC's message
    keys: list[str] = field(default_factory=list)  # lapse: the options' keys, in order
    numbers: list[int] = field(default_factory=list)  # lapse: each option's number, or the index


@dataclass
class Verified:
    """What the verifier recomputed of one log: ``problems`` (empty when every value is
    the log's), every ``draws``, the commitment, and the checkpoints and signatures checked."""

    problems: list[str] = field(default_factory=list)
    draws: list[Draw] = field(default_factory=list)
    commitment: str = ""
    checkpoints: int = 0
    signatures: int = 0
    withdrawals: int = 0


def verify(text: str) -> Verified:
    """Recompute everything docs/verify.md specifies of the log ``text``."""
    header, entries = read_log(text)
    out = Verified(commitment=commitment(header))
    secret = header.get("secret") or {}
    if header.get("commitment") not in (None, out.commitment):
        out.problems.append(f"commitment {header['commitment']} is not {out.commitment}")
    heads = [header_link(header)]
    stored = heads[0]
    for number, entry in enumerate(entries, 1):
        heads.append(link(heads[-1], entry))
        stored = link(stored, entry)
        if entry.get("hash") not in (None, stored):
            out.problems.append(f"entry {number}: hash {entry.get('hash')} is not {stored}")
        stored = entry.get("hash") or stored
    _checkpoints(header, entries, heads, out)
    _withdrawn(header, entries, str(header.get("commitment") or out.commitment), out)
    seed = secret.get("seed")
    if header.get("deal") != "players" and seed is not None:
        roles, deck, first = deal(header, str(seed))
        if [secret["roles"][p] for p in header["players"]] != roles:
            out.problems.append("the roles are not the seed's")
        if "".join(secret["deck"]) != deck:
            out.problems.append("the deck is not the seed's")
        out.draws += [Draw("roles", None, str(seed), roles, "roles"),
                      Draw("deck", None, str(seed), deck, "deck")]
        if first_drawn(header):
            out.draws.append(Draw("first President", None, str(seed), first,
                                  "first-president"))
            if seat_of(header["players"], header["first_president"]) != first - 1:
                out.problems.append("the first President is not the seed's")
    Replay(header, out).run(entries, voided(entries))
    return out


def first_drawn(header: dict[str, Any]) -> bool:
    """Section 5.2: whether the seed draws the first President of a game dealt by the
    moderator: format 5 says so (no ``first_chosen``); earlier formats do not say."""
    return (header["shmod"] >= 5 and not header.get("first_chosen")
            and switches(header)["first_president"] == "random")


def _checkpoints(header: dict[str, Any], entries: list[dict[str, Any]], heads: list[str],
                 out: Verified) -> None:
    """Section 9: each post's checkpoint value, its tag (format 1) or its signature."""
    salt = (header.get("secret") or {}).get("salt")
    post = 0
    for entry in entries:
        if entry.get("kind") != "posted":
            continue
        post += 1
        mark, upto = entry.get("checkpoint"), entry.get("upto")
        if mark is None or salt is None:
            continue
        mark = str(mark)
        if len(mark) == 32:  # the oldest logs: the head itself
            ok = mark == heads[upto]
        else:
            value = checkpoint_value(str(salt), upto, heads[upto])
            ok = mark[:32] == value and (len(mark) == 160 or mark[32:] == checkpoint_tag(
                str(salt), post, upto, value))
            if ok and len(mark) == 160:
                message = checkpoint_message(str(header["commitment"]), post, value)
                ok = ed25519_verify(str(header["moderator_key"]), message.encode(), mark[32:])
                out.signatures += 1
        out.checkpoints += 1
        if not ok:
            out.problems.append(f"post {post}: checkpoint {mark[:32]} is not the log's")


#: Section 8: what a correction's reshuffle search looks past.
SKIPPED = {"prod", "posted", "delivered", "withdrawn", "correct", "acknowledge", "moderator",
           "handover", "takeover", "deadline", "backup", "replace", "rename", "remove", "claim"}


def voided(entries: list[dict[str, Any]]) -> set[int]:
    """Section 8: the entries every correction voids, with the reshuffles they caused."""
    out: set[int] = set()
    kinds = [str(e.get("kind")) for e in entries]
    for number, entry in enumerate(entries, 1):
        if kinds[number - 1] != "correct":
            continue
        now = {int(n) for n in entry["entries"]}
        for later in range(min(now) + 1, number):
            if kinds[later - 1] != "reshuffle" or later in out or later in now:
                continue
            before = next((n for n in range(later - 1, 0, -1) if n not in out and (
                n in now or kinds[n - 1] not in SKIPPED)), None)
            if before in now:
                now.add(later)
        out |= now
    return out


def seated(header: dict[str, Any], entries: list[dict[str, Any]]) -> list[list[str]]:
    """Section 1: the names seated when each entry was recorded: the header's, changed by
    every ``replace`` and ``rename`` before it that no correction before it voided."""
    names = [str(p) for p in header["players"]]
    out, changes, void = [], [], set()  # changes: (entry, seat, name)
    for number, entry in enumerate(entries, 1):
        out.append(list(names))
        kind = entry.get("kind")
        if kind == "correct":
            void |= {int(n) for n in entry["entries"]}
            names = [str(p) for p in header["players"]]
            for at, seat, name in changes:
                if at not in void:
                    names[seat] = name
        elif kind in ("replace", "rename"):
            changes.append((number, seat_of(names, entry["target"]), str(entry["name"])))
            names[changes[-1][1]] = changes[-1][2]
    return out


# -- section 7.1: the game replayed to each lapse ----------------------------------------

BOARDS = {5: (None, None, "peek", "execute", "execute"),
          7: (None, "investigate", "special_election", "execute", "execute"),
          9: ("investigate", "investigate", "special_election", "execute", "execute")}
POWER_WORDS = {"none": None, "-": None, "investigate": "investigate", "peek": "peek",
               "special_election": "special_election", "special": "special_election",
               "execute": "execute", "execution": "execute"}
TARGETED = ("investigate", "special_election", "execute")
YES = ("ja", "yes", "y", "j", "true", "accept", "agree")


class Replay:
    """Section 7.1: the game state each lapse's label and options read, entry by entry
    (every entry in effect, section 8), and every draw of sections 5 to 7 on the way."""

    def __init__(self, header: dict[str, Any], out: Verified) -> None:
        self.header, self.out, self.form = header, out, header["shmod"]
        secret = header.get("secret") or {}
        self.names = [str(p) for p in header["players"]]
        self.named = self.names  # as seated when the entry replayed was recorded
        n = len(self.names)
        custom = header.get("custom") or {}
        board = BOARDS[5 if n <= 6 else 7 if n <= 8 else 9]
        self.powers = [POWER_WORDS[str(p).strip().lower().replace(" ", "_")] if p is not None
                       else None for p in custom.get("powers", board)]
        zone = custom.get("veto_zone", 5)
        self.veto_zone = 6 if zone in (None, "none") else int(zone)
        self.hitler_zone = int(custom.get("hitler_zone", 3))
        tracks = custom.get("tracks") or {}
        rebalanced = switches(header)["rebalanced"] == "on" and n == 6
        self.liberal = int(tracks.get("liberal", 0))
        self.fascist = int(tracks.get("fascist", 1 if rebalanced else 0))
        self.rules = switches(header)
        self.alive = [True] * n
        self.tracker, self.round, self.over = 0, 1, False
        self.president = self.anchor = 0
        self.chancellor: int | None = None
        self.power: str | None = None
        self.resume: str | None = None
        self.chosen: str | None = None
        self.hand: list[str] = []
        self.discard: list[str] = []
        self.votes: dict[int, bool] = {}
        self.veto_votes: dict[int, bool] = {}
        self.investigated: set[int] = set()
        self.words: dict[int, str] = {}
        self.reshuffles = 0
        self.seed: str | None = None
        if header.get("deal") == "players":
            self.phase, self.roles, self.draw = "deal", [], []
        else:
            self.phase = "nominate"
            self.roles = [str(secret["roles"][p]) for p in header["players"]]
            self.draw = list("".join(secret["deck"]))
            self.seed = None if secret.get("seed") is None else str(secret["seed"])
            self.president = self.anchor = seat_of(self.names, header["first_president"])

    def run(self, entries: list[dict[str, Any]], void: set[int]) -> None:
        named = seated(self.header, entries)
        for number, entry in enumerate(entries, 1):
            if number in void:
                continue
            self.named = named[number - 1]
            kind = str(entry.get("kind"))
            handler = getattr(self, f"_{kind}", None)
            if handler is not None and not (self.over and kind not in ("replace", "rename")):
                handler(number, entry)

    # -- the table ------------------------------------------------------------------------

    def seat(self, value: Any) -> int:
        """The seat an entry names, as seated when it was recorded (section 1)."""
        return seat_of(self.named, value)

    def _replace(self, number: int, entry: dict[str, Any]) -> None:
        self.names[self.seat(entry["target"])] = str(entry["name"])

    _rename = _replace

    def _word(self, number: int, entry: dict[str, Any]) -> None:
        if self.phase != "deal":
            return
        self.words.setdefault(self.seat(entry["by"]), str(entry["word"]))
        if len(self.words) < len(self.names):
            return
        secret, header = self.header["secret"], self.header
        words = [self.words[s] for s in range(len(self.names))]
        if self.form >= 4 and not all(RECORDED.match(w) for w in words):
            self.out.problems.append(f"a recorded word is not a-z and 0-9: {words}")
        message = words_message(self.form, words, self.names if self.form == 1 else None)
        seed = self.seed = hmac256(str(secret["seed"]), message)
        self.roles, deck, first = deal(header, seed)
        self.draw = list(deck)
        self.out.draws += [Draw("words", number, str(secret["seed"]), seed, message=message),
                           Draw("roles", number, seed, self.roles, "roles"),
                           Draw("deck", number, seed, deck, "deck")]
        if "first_president" in header:
            first = seat_of([str(p) for p in header["players"]], header["first_president"]) + 1
        else:
            self.out.draws.append(Draw("first President", number, seed, first,
                                       "first-president"))
        published = secret.get("roles")
        if published is not None and [published[p] for p in header["players"]] != self.roles:
            self.out.problems.append("the published roles are not the ones the words deal")
        self.president = self.anchor = first - 1
        self.phase = "nominate"

    def _remove(self, number: int, entry: dict[str, Any]) -> None:
        seat = self.seat(entry["target"])
        self.alive[seat] = False
        phase = self.phase
        if phase in ("power", "reshuffle"):
            ends = seat == self.president and (
                phase == "power" or self.resume not in (None, "round", "chaos"))
        else:
            ends = phase != "deal" and seat in (self.president, self.chancellor)
        if self.roles[seat] == "hitler":
            self.over = True
        elif ends and phase == "power":
            self.next_round()
        elif ends and phase == "reshuffle":
            self.resume = "round"
        elif ends:
            self.draw[:0] = self.hand
            self.hand, self.chosen, self.votes, self.veto_votes = [], None, {}, {}
            self.failed()
        elif phase == "vote":
            self.votes.pop(seat, None)
            if len(self.votes) == self.alive.count(True):
                self.count()

    # -- elections ------------------------------------------------------------------------

    def _nominate(self, number: int, entry: dict[str, Any]) -> None:
        self.chancellor, self.votes, self.phase = self.seat(entry["chancellor"]), {}, "vote"

    def _vote(self, number: int, entry: dict[str, Any]) -> None:
        self.votes[self.seat(entry["by"])] = str(entry["vote"]).lower() in YES
        if len(self.votes) == self.alive.count(True):
            self.count()

    def count(self) -> None:
        living = self.alive.count(True)
        ja = sum(self.votes.values())
        self.votes = {}
        hitler = self.chancellor == self.roles.index("hitler")
        zone = self.fascist >= self.hitler_zone
        if ja * 2 <= living:
            if self.rules["eva_braun"] == "on" and ja * 2 == living and zone and hitler:
                self.over = True
            else:
                self.failed()
            return
        if self.rules["tracker_reset"] == "election":
            self.tracker = 0
        if zone and hitler:
            self.over = True
            return
        self.hand, self.draw = self.draw[:3], self.draw[3:]
        self.phase = "discard"

    def failed(self) -> None:
        self.tracker += 1
        if self.tracker >= 3:
            self.chaos()
        else:
            self.next_round()

    def chaos(self) -> None:
        if not self.draw:
            self.phase, self.resume = "reshuffle", "chaos"
            return
        self.enact_policy(self.draw.pop(0))
        if not self.over:
            self.end_session("round")

    def next_round(self) -> None:
        n = len(self.names)
        nxt = next(s % n for s in range(self.anchor + 1, self.anchor + n + 1) if self.alive[s % n])
        self.anchor = self.president = nxt
        self.chancellor, self.power, self.hand, self.phase = None, None, [], "nominate"
        self.round += 1

    # -- the Legislative Session ------------------------------------------------------------

    def _discard(self, number: int, entry: dict[str, Any]) -> None:
        self.play_discard(str(entry["policy"])[:1].upper())

    def play_discard(self, policy: str) -> None:
        self.hand.remove(policy)
        self.discard.append(policy)
        self.phase = "enact"

    def _enact(self, number: int, entry: dict[str, Any]) -> None:
        self.play_enact(str(entry["policy"])[:1].upper())

    def play_enact(self, policy: str) -> None:
        if self.rules["veto"] == "secret-vote" and self.fascist >= self.veto_zone:
            self.chosen, self.veto_votes, self.phase = policy, {}, "veto_vote"
        else:
            self.passed(policy)

    def passed(self, policy: str) -> None:
        self.hand.remove(policy)
        self.discard += self.hand
        self.hand = []
        self.enact_policy(policy)
        if self.over:
            return
        power = None
        if policy == "F" and 1 <= self.fascist <= len(self.powers):
            power = self.powers[self.fascist - 1]
        self.end_session(power or "round")

    def enact_policy(self, policy: str) -> None:
        self.tracker = 0
        if policy == "L":
            self.liberal += 1
        else:
            self.fascist += 1
        self.over = self.liberal >= 5 or self.fascist >= 6

    def _veto(self, number: int, entry: dict[str, Any]) -> None:
        answer = str(entry["answer"]).lower()
        if self.phase == "veto_vote":
            self.veto_votes[self.seat(entry["by"])] = answer in YES
            if len(self.veto_votes) == 2:
                self.vote_on_veto()
        elif self.phase == "enact":
            self.phase = "veto_answer"
        elif answer in YES:
            self.vetoed()
        else:
            self.phase = "enact"

    def vote_on_veto(self) -> None:
        agreed, chosen = all(self.veto_votes.values()), self.chosen
        self.chosen, self.veto_votes = None, {}
        if agreed:
            self.vetoed()
        else:
            assert chosen is not None
            self.passed(chosen)

    def vetoed(self) -> None:
        self.discard += self.hand
        self.hand = []
        self.tracker += 1
        if self.tracker >= 3:
            self.chaos()
        else:
            self.end_session("round")

    def end_session(self, then: str) -> None:
        if len(self.draw) < 3:
            self.phase, self.resume = "reshuffle", then
        else:
            self.go_on(then)

    def go_on(self, then: str) -> None:
        if then == "chaos":
            self.chaos()
        elif then == "round":
            self.next_round()
        elif then in TARGETED and not self.targets(then):
            self.next_round()  # R-NO-TARGET
        else:
            self.power, self.phase = then, "power"

    def _reshuffle(self, number: int, entry: dict[str, Any]) -> None:
        deck = "".join(entry["deck"])
        if self.seed is not None:
            self.reshuffles += 1
            label = f"reshuffle-{self.reshuffles}"
            value = pile(deck.count("L"), deck.count("F"), self.seed, label)
            self.out.draws.append(Draw("reshuffle", number, self.seed, value, label))
            if value != deck:
                self.out.problems.append(f"entry {number}: reshuffle {deck} is not {value}")
        self.draw, self.discard = list(deck), []
        then, self.resume = self.resume or "round", None
        self.go_on(then)

    # -- powers -----------------------------------------------------------------------------

    def targets(self, power: str) -> list[int]:
        found = [s for s, alive in enumerate(self.alive) if alive and s != self.president]
        return [s for s in found if s not in self.investigated] if power == "investigate" \
            else found

    def _investigate(self, number: int, entry: dict[str, Any]) -> None:
        self.use_power(self.seat(entry["target"]))

    _special_election = _execute = _investigate

    def _peek(self, number: int, entry: dict[str, Any]) -> None:
        self.next_round()

    def use_power(self, target: int) -> None:
        power = self.power
        if power == "investigate":
            self.investigated.add(target)
        elif power == "execute":
            self.alive[target] = False
            if self.roles[target] == "hitler":
                self.over = True
                return
        elif power == "special_election":
            self.anchor, self.president = self.president, target
            self.chancellor, self.power, self.phase = None, None, "nominate"
            self.round += 1
            return
        self.next_round()

    # -- section 7: a lapse -----------------------------------------------------------------

    def _lapse(self, number: int, entry: dict[str, Any]) -> None:
        phase, choice = self.phase, entry.get("choice")
        if phase == "vote":
            for seat, alive in enumerate(self.alive):
                if alive and seat not in self.votes:
                    self.votes[seat] = False
            self.count()
        elif phase == "nominate":
            self.failed()
        elif phase == "veto_answer":
            self.phase = "enact"
        elif phase == "veto_vote":
            for seat in (self.president, self.chancellor):
                self.veto_votes.setdefault(seat, False)  # type: ignore[arg-type]
            self.vote_on_veto()
        elif phase == "power" and self.power == "peek":
            self.next_round()
        elif phase in ("discard", "enact", "power"):
            drawn = self.draw_lapse(number, choice)
            if phase == "discard":
                self.play_discard(drawn[:1])
            elif phase == "enact":
                self.play_enact(drawn[:1])
            else:
                self.use_power(self.seat(drawn))

    def draw_lapse(self, number: int, choice: Any) -> str:
        """Section 7: the label, the options and the choice a lapse draws now."""
        if self.phase == "power":
            power = str(self.power)
            seats = self.targets(power)
            records = [self.names[s] for s in seats]
            keys = [f"seat-{s + 1}" for s in seats] if self.form >= 3 else records
        else:
            power = "none"
            records = [p for p in ("Liberal", "Fascist") if p[0] in self.hand]
            keys = records
        seat = self.chancellor if self.phase == "enact" else self.president
        assert seat is not None and self.seed is not None
        label = (f"lapse-{number}" if self.form == 1 else
                 f"lapse/round-{self.round}/{self.phase}/{power}/seat-{seat + 1}")
        key, numbers = lapse_choice(self.form, self.seed, label, keys)
        drawn = records[keys.index(key)]
        self.out.draws.append(Draw("lapse", number, self.seed, drawn, label, keys=keys,
                                   numbers=numbers))
        if drawn != choice:
            self.out.problems.append(f"entry {number}: the draw gives {drawn}, the log "
                                     f"records {choice}")
        return drawn


# -- section 12: the test vectors --------------------------------------------------------


def check_vectors(v: dict[str, Any]) -> list[str]:
    """Every case of docs/vectors.json recomputed: the cases that disagree."""
    bad: list[str] = []

    def check(ok: bool, key: str, case: dict[str, Any]) -> None:
        if not ok:
            bad.append(f"{key}: {json.dumps(case, ensure_ascii=False)[:200]}")

    for case in v["stream"]:
        stream = Stream(case["seed"], case["label"])
        first = b"".join(stream.next().to_bytes(8, "big") for _ in range(4)).hex()
        check(first == case["first"], "stream", case)
    for case in v["below"]:
        check(below(case["seed"], case["label"], case["n"]) == case["value"], "below", case)
    for case in v["shuffle"]:
        check(shuffle(case["items"], case["seed"], case["label"]) == case["value"], "shuffle",
              case)
    for case in v["commitment"]:
        check(case["header"]["shmod"] == case["format"]
              and commitment_text(case["header"]) == case["text"]
              and commitment(case["header"]) == case["sha256"], "commitment", case)
    for case in v["deal"]:
        header = {"players": [f"P{n}" for n in range(1, case["players"] + 1)],
                  "variants": dict(item.split("=") for item in case["variants"]),
                  "custom": case["custom"]}
        check(list(deck_counts(header)) == case["deck"] and deal(header, case["seed"]) == (
            case["roles"], case["deck_order"], case["first"]), "deal", case)
    for case in v["latin_word"]:
        check(_recorded(latin_word, case["typed"]) == (case.get("word"), case.get("refused")),
              "latin_word", case)
    for case in v["format5_word"]:
        refused = ("symbol" if format5_refused(case["typed"])
                   else _recorded(latin_word, case["typed"])[1])
        check(refused == case.get("refused") and (
            refused is not None or latin_word(case["typed"]) == case["word"]),
            "format5_word", case)
    for case in v["words_seed"]:
        message = words_message(case["format"], case["words"], case.get("names"))
        check(message == case["message"] and hmac256(case["seed"], message) == case["value"],
              "words_seed", case)
    for case in v["lookalike_key"]:
        check(lookalike_key(case["word"]) == case["key"], "lookalike_key", case)
    for case in v["format3_key"]:
        check(format3_key(format3_word(case["word"])) == case["key"], "format3_key", case)
    for case in v["reshuffle"]:
        deck = case["deck"]
        check(pile(deck.count("L"), deck.count("F"), case["seed"],
                   f"reshuffle-{case['k']}") == deck, "reshuffle", case)
    for case in v["lapse"]:
        choice, numbers = lapse_choice(case["format"], case["seed"], case["label"],
                                       case["options"])
        check(choice == case["choice"] and numbers == case.get("numbers", [case.get("index")]),
              "lapse", case)
    for case in v["chain"]:
        check(("header" in case and header_link(case["header"]) == case["link"]) or (
            "entry" in case and link(case["previous"], case["entry"]) == case["link"]),
            "chain", case)
    for case in v["checkpoint"]:
        value = checkpoint_value(case["salt"], case["entry"], case["head"])
        message = checkpoint_message(case["commitment"], case["post"], value)
        check(value == case["value"] and checkpoint_tag(
            case["salt"], case["post"], case["entry"], value) == case["tag"]
            and message == case["message"]
            and ed25519_verify(case["key"], message.encode(), case["signature"]),
            "checkpoint", case)
    return bad


def _recorded(record: Any, typed: str) -> tuple[str | None, str | None]:
    try:
        return record(typed), None
    except ValueError as refused:
        return None, str(refused)
