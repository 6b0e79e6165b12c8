"""A verifier of shmod's logs written from docs/verify.md alone: Python's standard library
only, nothing of shmod imported. It recomputes every commitment, the deal, every reshuffle,
every random lapse choice and every checkpoint value of a log, and checks every post
withdrawn after a race (its steps held, its withdrawal signed: Ed25519 on Python's
integers); the section of docs/verify.md each follows is named. It says what it found;
tests/test_verifier.py runs it on every shipped game and test log and compares it with
``shmod audit --json``.

Reading YAML is not part of the specification: :func:`read_log` reads the YAML shmod
writes (a block header, one flow mapping per entry), and the hash chain checks it (a value
read wrong breaks the chain).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# -- reading the log (not part of the specification) ------------------------------------

_INT = re.compile(r"[-+]?[0-9]+\Z")
_BOOLS = {"true": True, "false": False, "yes": True, "no": False, "on": True, "off": False}


def _plain(text: str) -> Any:
    if _INT.match(text):
        return int(text)
    if text.lower() in _BOOLS:
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
    """The header (every field but ``log``) and the entries of a log shmod wrote."""
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


def commitment_text(header: dict[str, Any]) -> str:
    form, secret = header["shmod"], header.get("secret") or {}
    listed = {k: _switch(v) for k, v in (header.get("variants") or {}).items()}
    switches = {k: listed.get(k, default) for k, default in GAME_SWITCHES.items()}
    switches.update({k: listed[k] for k in LAPSE_SWITCHES if listed.get(k, "wait") != "wait"})
    lines = [f"shmod-commitment {form}",
             "players " + " ".join(json_string(str(p)) for p in header["players"]),
             "first_president " + (json_string(str(header["first_president"]))
                                   if "first_president" in header else "drawn"),
             "variants " + " ".join(f"{k}={v}" for k, v in sorted(switches.items()))]
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
    rebalanced = _switch((header.get("variants") or {}).get("rebalanced", "off")) == "on"
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


def latin_word(typed: str) -> str:
    """Section 5.3: the recorded form of a typed word, or ValueError(what refused it)."""
    for char in typed:
        kind = unicodedata.category(char)
        if kind in ("Cn", "Co"):
            raise ValueError("unknown" if kind == "Cn" else "private")
        if kind in ("Cc", "Cf", "Cs", "Zl", "Zp") or any(
                low <= ord(char) <= high for low, high in IGNORABLE):
            raise ValueError("invisible")
    if MARKUP.search(typed):
        raise ValueError("markup")
    out = ""
    for char in unicodedata.normalize("NFKD", typed):
        if unicodedata.category(char).startswith("M"):
            continue
        char = TABLE.get(char, char)
        for c in char:
            if c.isascii() and c.isalnum():
                out += c.lower()
            elif not c.isascii() and unicodedata.category(c)[0] in "LN":
                raise ValueError("not latin")
    if not out:
        raise ValueError("empty")
    if len(out) > 40:
        raise ValueError("long")
    return out


def _confusables() -> dict[int, str]:
    """Section 5.4: confusables.txt 13.0.0 as shmod/forum/lookalike_table.py carries it."""
    text = (ROOT / "shmod" / "forum" / "lookalike_table.py").read_text(encoding="utf-8")
    rows = re.findall(r"\b([0-9A-F]+):([0-9A-F+]+)", text.split('DATA = """', 1)[1])
    return {int(src, 16): "".join(chr(int(c, 16)) for c in dst.split("+")) for src, dst in rows}


ASCII_ROWS = {'"': "''", "%": "\u00ba/\u2080", "0": "O", "1": "l", "I": "l", "`": "'",
              "m": "rn", "|": "l"}
SOFT_DOTTED = "ij\u0456\u0458\u0249\u0268\u029d\u03f3"
_TABLE: dict[int, str] = {}


def format3_key(word: str) -> str:
    """Section 5.4: casefold(skeleton(word))."""
    if word.isascii():
        return "".join(ASCII_ROWS.get(c, c) for c in word).casefold()
    if not _TABLE:
        _TABLE.update(_confusables())
    split = unicodedata.normalize("NFD", word)
    kept = "".join(c for i, c in enumerate(split)
                   if not (c == "\u0307" and i and split[i - 1] in SOFT_DOTTED))
    mapped = "".join(_TABLE.get(ord(c), c) for c in kept)
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
    if not _TABLE:
        _TABLE.update(_confusables())
    for c in typed:
        kind = unicodedata.category(c)
        if kind[0] == "S" or kind in ("Ps", "Pe") or c in "/\\\u00a1":
            return True
        if unicodedata.decomposition(c).split(" ")[0] in ("<font>", "<circle>", "<square>"):
            return True
        if kind[0] == "P" and not c.isascii():
            proto = unicodedata.normalize("NFD", "".join(
                _TABLE.get(ord(x), x) for x in unicodedata.normalize("NFD", c)))
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


# -- section 9: the chain and the checkpoints --------------------------------------------


def header_link(header: dict[str, Any]) -> str:
    published = dict(header)
    if isinstance(published.get("secret"), dict):
        published["secret"] = {k: v for k, v in published["secret"].items() if k != "signing_key"}
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


# Ed25519 (RFC 8032, section 5.1.7: verification), on Python's integers.
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _x_of(y: int, sign: int) -> int | None:
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P:
        return None
    return _P - x if x & 1 != sign else x


def _point(data: bytes) -> tuple[int, int, int, int] | None:
    y = int.from_bytes(data, "little")
    x = _x_of(y & (2**255 - 1), y >> 255)
    return None if x is None else (x, y & (2**255 - 1), 1, x * (y & (2**255 - 1)) % _P)


def _add(p: tuple[int, ...], q: tuple[int, ...]) -> tuple[int, int, int, int]:
    a = (p[1] - p[0]) * (q[1] - q[0]) % _P
    b = (p[1] + p[0]) * (q[1] + q[0]) % _P
    c = 2 * p[3] * q[3] * _D % _P
    d = 2 * p[2] * q[2] % _P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % _P, g * h % _P, f * g % _P, e * h % _P


def _times(n: int, p: tuple[int, ...]) -> tuple[int, ...]:
    out: tuple[int, ...] = (0, 1, 1, 0)
    while n:
        if n & 1:
            out = _add(out, p)
        p, n = _add(p, p), n >> 1
    return out


_BASE = _point((4 * pow(5, _P - 2, _P) % _P).to_bytes(32, "little"))


def ed25519_verify(key: str, message: bytes, signature: str) -> bool:
    """Whether ``signature`` (hex) is ``key``'s (hex) Ed25519 signature of ``message``."""
    try:
        public, signed = bytes.fromhex(key), bytes.fromhex(signature)
    except ValueError:
        return False
    if len(public) != 32 or len(signed) != 64:
        return False
    a, r, s = _point(public), _point(signed[:32]), int.from_bytes(signed[32:], "little")
    if a is None or r is None or s >= _L or _BASE is None:
        return False
    h = int.from_bytes(hashlib.sha512(signed[:32] + public + message).digest(), "little") % _L
    left, right = _times(s, _BASE), _add(r, _times(h, a))
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
                ed25519_verify(key, f"shmod-checkpoint 2\n{commitment_}\n{post}\n{value}\n"
                               .encode(), signature)
        if not good:
            out.problems.append(f"entry {number}: the withdrawal of post {post} is not signed "
                                "with the game's key")


# -- a whole log ---------------------------------------------------------------------------

#: Section 8: what a correction's reshuffle search leaves out.
SKIPPED = {"prod", "posted", "delivered", "withdrawn", "correct", "acknowledge", "moderator", "handover", "takeover",
           "deadline", "backup", "replace", "rename", "remove", "claim"}


class Verified:
    """What the verifier recomputed of one log: ``problems`` (empty when every value is
    the log's) and ``draws``, each value drawn from a seed, as the audit lists them."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.draws: list[dict[str, Any]] = []
        self.commitment = ""
        self.checkpoints = 0
        self.withdrawals = 0


def verify(text: str, audited: list[dict[str, Any]] | None = None) -> Verified:
    """Recompute everything docs/verify.md specifies of the log ``text``. ``audited``:
    the audit's ``draws``, whose lapse labels and options (the game's state: round,
    phase, seat, targets) are taken as given and every value recomputed."""
    header, entries = read_log(text)
    out = Verified()
    secret = header.get("secret") or {}
    out.commitment = commitment(header)
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
    seed, source = secret.get("seed"), "secret.seed"
    if header.get("deal") != "players" and seed is not None:
        roles, deck, _first = deal(header, seed)
        if [secret["roles"][p] for p in header["players"]] != roles:
            out.problems.append("the roles are not the seed's")
        if "".join(secret["deck"]) != deck:
            out.problems.append("the deck is not the seed's")
        out.draws += [{"what": "roles", "entry": None, "seed": seed, "label": "roles",
                       "value": roles},
                      {"what": "deck", "entry": None, "seed": seed, "label": "deck",
                       "value": deck}]
    _replay(header, entries, seed, source, audited or [], out)
    return out


def _checkpoints(header: dict[str, Any], entries: list[dict[str, Any]], heads: list[str],
                 out: Verified) -> None:
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
        out.checkpoints += 1
        if not ok:
            out.problems.append(f"post {post}: checkpoint {mark[:32]} is not the log's")


def _replay(header: dict[str, Any], entries: list[dict[str, Any]], seed: str | None,
            source: str, audited: list[dict[str, Any]], out: Verified) -> None:
    """Sections 5.3 to 8, entry by entry: names, words, reshuffles, lapses, corrections."""
    form = header["shmod"]
    names = [str(p) for p in header["players"]]
    lapses = {d["entry"]: d for d in audited if d["what"] == "lapse"}
    voided: set[int] = set()
    changes: list[tuple[int, int, str]] = []  # (entry, seat, new name): section 1
    words: dict[int, tuple[int, str]] = {}  # seat -> (entry, word)
    dealt = None
    game_seed = seed if header.get("deal") != "players" else None
    found: list[dict[str, Any]] = []  # (entry, draw) in log order, voided ones dropped later
    kinds = [str(e.get("kind")) for e in entries]
    for number, entry in enumerate(entries, 1):
        kind = kinds[number - 1]
        if kind == "correct":
            now = {int(n) for n in entry["entries"]}
            for later in range(min(now) + 1, number):
                if kinds[later - 1] != "reshuffle" or later in voided or later in now:
                    continue
                before = next((n for n in range(later - 1, 0, -1) if n not in voided and (
                    n in now or kinds[n - 1] not in SKIPPED)), None)
                if before in now:
                    now.add(later)
            voided |= now
            names = [str(p) for p in header["players"]]
            for at, seat, name in changes:
                if at not in voided:
                    names[seat] = name
            for seat, (at, _word) in list(words.items()):
                if at in voided and dealt is None:
                    del words[seat]
            continue
        if kind in ("replace", "rename"):
            changes.append((number, names.index(str(entry["target"])), str(entry["name"])))
            names[changes[-1][1]] = changes[-1][2]
        elif kind == "word" and dealt is None:
            seat = names.index(str(entry["by"]))
            words.setdefault(seat, (number, str(entry["word"])))
            if len(words) == len(names):
                dealt = number
                game_seed = _words_deal(header, [words[s][1] for s in range(len(names))],
                                        names, number, out)
        elif kind == "reshuffle" and game_seed is not None:
            found.append({"what": "reshuffle", "entry": number, "seed": game_seed,
                          "deck": "".join(entry["deck"])})
        elif kind == "lapse" and entry.get("choice") is not None:
            found.append(_lapse(form, game_seed, number, entry, lapses.get(number), names))
    k = 0
    for draw in found:
        if draw["entry"] in voided:
            continue
        if draw["what"] == "reshuffle":
            k += 1
            deck = draw.pop("deck")
            draw.update(label=f"reshuffle-{k}", value=pile(deck.count("L"), deck.count("F"),
                                                          draw["seed"], f"reshuffle-{k}"))
            if draw["value"] != deck:
                out.problems.append(f"entry {draw['entry']}: reshuffle {deck} is not "
                                    f"{draw['value']}")
        if "problem" in draw:
            out.problems.append(f"entry {draw['entry']}: {draw.pop('problem')}")
        out.draws.append(draw)
    if any(number in voided for number in lapses):
        out.problems.append("the audit lists a voided lapse")


def _words_deal(header: dict[str, Any], words: list[str], names: list[str], entry: int,
                out: Verified) -> str:
    form, secret = header["shmod"], header["secret"]
    if form >= 4 and not all(RECORDED.match(w) for w in words):
        out.problems.append(f"a recorded word is not a-z and 0-9: {words}")
    message = words_message(form, words, names if form == 1 else None)
    seed = hmac256(str(secret["seed"]), message)
    roles, deck, first = deal(header, seed)
    out.draws.append({"what": "words", "entry": entry, "seed": str(secret["seed"]),
                      "message": message, "value": seed})
    out.draws += [{"what": "roles", "entry": entry, "seed": seed, "label": "roles",
                   "value": roles},
                  {"what": "deck", "entry": entry, "seed": seed, "label": "deck", "value": deck}]
    if "first_president" not in header:
        out.draws.append({"what": "first President", "entry": entry, "seed": seed,
                          "label": "first-president", "value": first})
    return seed


def _lapse(form: int, seed: str | None, number: int, entry: dict[str, Any],
           audited: dict[str, Any] | None, names: list[str]) -> dict[str, Any]:
    """Section 7: one random choice. The label's round, phase and seat, and the options,
    are the game's state, taken from the audit; the label's form, the draw, and the name
    the choice records are recomputed."""
    draw: dict[str, Any] = {"what": "lapse", "entry": number, "seed": seed}
    if audited is None or seed is None:
        draw["problem"] = "the audit lists no draw for this lapse"
        return draw
    label = str(audited["label"])
    keys = [str(o["key"]) for o in audited["options"]]
    if form == 1:
        expected = f"lapse-{number}"
    else:
        parts = re.fullmatch(r"lapse/round-([1-9][0-9]*)/(discard|enact|power)/"
                             r"(none|investigate|special_election|execute)/seat-([1-9][0-9]*)",
                             label)
        expected = label if parts and (parts.group(3) == "none") == (parts.group(2) != "power") \
            else "a label of section 7"
    key, numbers = lapse_choice(form, seed, label, keys)
    records = key if key in ("Liberal", "Fascist") or form < 3 else \
        names[int(key.removeprefix("seat-")) - 1]
    draw.update(label=label, keys=keys, numbers=numbers, value=records)
    if label != expected:
        draw["problem"] = f"the label {label} is not {expected}"
    elif records != entry["choice"]:
        draw["problem"] = f"the draw gives {records}, the log records {entry['choice']}"
    return draw
