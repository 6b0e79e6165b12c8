"""One log entry as the engine sees it: a :class:`Step`, parsed and checked for form.

The YAML entry is a flat mapping with ``kind`` and the fields below; ``at`` and
``hash`` are bookkeeping the engine ignores. Player fields hold names as seated.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shmod.base.errors import BadInput
from shmod.core.names import tidy
from shmod.core.rules import FASCIST, LIBERAL, parse_policy, parse_vote

#: kind -> (its fields other than kind/at/hash, a one-line description)
KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "nominate": (("by", "chancellor"), "the Presidential Candidate nominates a Chancellor"),
    "vote": (("by", "vote"), "a player's Ja or Nein"),
    "discard": (("by", "policy"), "the President discards one of three policies"),
    "enact": (("by", "policy"), "the Chancellor enacts one of two policies"),
    "veto": (("by", "answer"), "a veto proposal, answer or secret veto vote"),
    "investigate": (("by", "target"), "Investigate Loyalty"),
    "special_election": (("by", "target"), "Call Special Election"),
    "peek": (("by",), "Policy Peek"),
    "execute": (("by", "target"), "Execution"),
    "reshuffle": (("deck",), "a new draw pile, top first"),
    "word": (("by", "word"), "a player's word for the deal (R-DEAL)"),
    "deadline": (("until", "zone"), "the moderator's deadline for the round or the phase "
                 "(UTC; clear: none)"),
    "lapse": (("deadline",), "a deadline has passed: what the house rules say happens "
              "(R-LAPSE)"),
    "prod": (("target",), "the moderator prodded a player by PM (R-STALL)"),
    "remove": (("target", "reason"), "a player nobody can replace leaves the game (R-MODKILL)"),
    "backup": (("name",), "a backup player joins the list, or leaves it (R-BACKUP)"),
    "replace": (("target", "name"), "a new player takes over a seat, role and history"),
    "rename": (("target", "name"), "a player's name corrected (a typo): the same player"),
    "correct": (("entries", "reason"), "voids entries nobody has acted on yet (R-CORRECT)"),
    "posted": (("upto",), "the moderator posted the thread post covering entries up to upto"),
    "acknowledge": (("entries", "reason"), "the moderator acknowledges a deliberate hand edit "
                    "of earlier entries (R-EDIT)"),
}
#: kind -> fields an entry may leave out
OPTIONAL: dict[str, tuple[str, ...]] = {
    "posted": ("checkpoint",),  # the chain head at upto, as the post showed it (R-CHECKPOINT)
    "correct": ("force",),  # voids what a post already showed, or a finished game's step
    "deadline": ("scope",),  # round (the default) or phase
    "lapse": ("choice",),  # the random choice the seed gave (late_choice=random)
    "backup": ("drop",),  # true: the name leaves the list
}
TEXT_FIELDS = ("name", "until", "zone", "reason", "word", "choice")
BOOKKEEPING = ("at", "hash")
VETO_ANSWERS = ("propose", "accept", "refuse", "ja", "nein")
PLAYER_FIELDS = ("by", "chancellor", "target")
MAX_TEXT = 200
#: A checkpoint as posted: 32 hex digits keyed over the log (128 bits), then a 16-digit tag
#: that only the key's holder can make (R-CHECKPOINT; shmod.log.checkpoints). Logs of an
#: earlier shmod hold 32 digits alone.
CHECKPOINT_HEX = 32
TAG_HEX = 16
_HEX = re.compile(f"[0-9a-f]{{{CHECKPOINT_HEX}}}(?:[0-9a-f]{{{TAG_HEX}}})?")


@dataclass(frozen=True, slots=True)
class Step:
    """A parsed entry. Seats are indices into the game's players."""

    kind: str
    by: int | None = None
    target: int | None = None
    policy: str | None = None
    vote: bool | None = None
    answer: str | None = None
    deck: tuple[str, ...] = ()
    text: str | None = None  # replace: the newcomer; deadline: until; correct: the reason;
    # word: the word
    zone: str | None = None  # deadline: the moderator's time zone
    entries: tuple[int, ...] = ()  # correct: the entry numbers voided; acknowledge: edited
    upto: int | None = None
    checkpoint: str | None = None  # posted: the chain head at upto
    force: bool = False  # correct: void what players have already seen
    scope: str | None = None  # deadline: round or phase
    ref: int | None = None  # lapse: the entry number of the deadline it enforces
    at: str | None = None  # lapse: when it was recorded (the entry's at), after the deadline
    drop: bool = False  # backup: the name leaves the list


def seat_number(text: str, count: int) -> int | None:
    """``text`` as a seat number 1..``count`` (R-SEAT), or None when it is not one."""
    if text.isdecimal() and 1 <= int(text) <= count:
        return int(text)
    return None


class Seating:
    """Looks players up by name (any case, any Unicode form), seat number or unique prefix."""

    def __init__(self, players: tuple[str, ...],
                 replaced: Sequence[tuple[int, str, str, int]] = (),
                 renamed: Sequence[tuple[int, str, str, int]] = ()) -> None:
        self.players = players
        self._exact = {tidy(name).casefold(): seat for seat, name in enumerate(players)}
        #: R-REPLACE: a player who left, by name: (seat, entry of the replacement)
        self._former = {tidy(old).casefold(): (seat, entry)
                        for seat, old, _new, entry in replaced}
        #: R-RENAME: a name corrected: (seat, entry of the correction)
        self._renamed = {tidy(old).casefold(): (seat, entry)
                         for seat, old, _new, entry in renamed}

    def seat(self, value: object, *, prefixes: bool = True) -> int:
        """The seat of ``value``; an unknown or ambiguous name lists the candidates."""
        if isinstance(value, bool) or value is None:
            raise BadInput(f"{value!r} is not a player")
        text = tidy(str(value))
        key = text.casefold()
        if key in self._exact:
            return self._exact[key]
        number = seat_number(text, len(self.players))
        if number is not None:
            return number - 1
        if prefixes and key:
            hits = [s for s, name in enumerate(self.players) if name.casefold().startswith(key)]
            if len(hits) == 1:
                return hits[0]
            if hits:
                names = ", ".join(self.players[s] for s in hits)
                raise BadInput(f"{text!r} is ambiguous: it could be {names}")
        if key in self._renamed and key not in self._former:
            seat, entry = self._renamed[key]
            raise BadInput(f"{text} is now called {self.players[seat]} (entry {entry}); name "
                           f"{self.players[seat]} or seat {seat + 1} instead")
        if key in self._former:
            seat, entry = self._former[key]
            raise BadInput(f"{text} was replaced by {self.players[seat]} (entry {entry}); "
                           f"name {self.players[seat]} or seat {seat + 1} instead")
        listing = ", ".join(f"{s + 1}. {n}" for s, n in enumerate(self.players))
        raise BadInput(f"unknown player {text!r} (players: {listing})")


def parse_step(raw: Any, seating: Seating) -> Step:
    """Check one entry's form (not its legality) and turn it into a :class:`Step`."""
    if not isinstance(raw, dict):
        raise BadInput(f"an entry must be a mapping with a 'kind', not {_shown(raw)}")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise BadInput(f"unknown entry kind {_shown(kind)} (known: {', '.join(KINDS)})")
    fields, _ = KINDS[kind]
    optional = OPTIONAL.get(kind, ())
    extra = [str(k) for k in raw
             if k not in fields and k not in optional and k != "kind" and k not in BOOKKEEPING]
    if extra:
        raise BadInput(f"{kind} entry has unknown field(s) {', '.join(extra)}")
    missing = [f for f in fields if f not in raw]
    if missing:
        raise BadInput(f"{kind} entry is missing {', '.join(missing)}")
    for key in BOOKKEEPING:
        if key in raw and not isinstance(raw[key], str):
            if key == "at" and hasattr(raw[key], "isoformat"):
                continue
            raise BadInput(f"{kind} entry's {key} must be a string, not {_shown(raw[key])}")
    values: dict[str, Any] = {"kind": kind}
    for key in fields:
        value = raw[key]
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise BadInput(f"{kind} entry's {key} is {len(value)} characters long (the "
                           f"limit is {MAX_TEXT})")
        if key in PLAYER_FIELDS:
            if isinstance(value, (dict, list)):
                raise BadInput(f"{kind} entry's {key} must be a player, not {_shown(value)}")
            values["by" if key == "by" else "target"] = seating.seat(value, prefixes=False)
        elif key == "policy":
            values["policy"] = parse_policy(_scalar(value, kind, key))
        elif key == "vote":
            values["vote"] = parse_vote(_scalar(value, kind, key))
        elif key == "answer":
            answer = _veto_answer(_scalar(value, kind, key))
            values["answer"] = answer
        elif key == "deck":
            values["deck"] = parse_cards(value)
        elif key in TEXT_FIELDS:
            if key == "until" and hasattr(value, "utcoffset") and hasattr(value, "hour"):
                value = _utc_text(value)  # YAML read an unquoted time as a datetime
            if not isinstance(value, str) or not value.strip():
                raise BadInput(f"{kind} entry's {key} must be a non-empty string")
            values["zone" if key == "zone" else "text"] = value.strip()
        elif key == "entries":  # an acknowledgment may name the header, entry 0 (R-EDIT)
            values["entries"] = _entry_numbers(value, kind, 0 if kind == "acknowledge" else 1)
        elif key in ("upto", "deadline"):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BadInput(f"{kind} entry's {key} must be an entry number, not "
                               f"{_shown(value)}")
            values["upto" if key == "upto" else "ref"] = value
    if "checkpoint" in optional and "checkpoint" in raw:
        value = raw["checkpoint"]
        if not isinstance(value, str) or not _HEX.fullmatch(value):
            raise BadInput(f"{kind} entry's checkpoint must be {CHECKPOINT_HEX + TAG_HEX} hex "
                           f"digits, not {_shown(value)}")
        values["checkpoint"] = value
    for flag in ("force", "drop"):
        if flag in optional and flag in raw:
            if not isinstance(raw[flag], bool):
                raise BadInput(f"{kind} entry's {flag} must be true or false, not "
                               f"{_shown(raw[flag])}")
            values[flag] = raw[flag]
    if "scope" in optional and "scope" in raw:
        values["scope"] = _scalar(raw["scope"], kind, "scope")
        if values["scope"] not in ("round", "phase"):
            raise BadInput(f"{kind} entry's scope must be round or phase, not "
                           f"{_shown(values['scope'])}")
    if "choice" in optional and "choice" in raw:
        values["text"] = str(_scalar(raw["choice"], kind, "choice"))
    if kind == "lapse":
        at = raw.get("at")
        values["at"] = _utc_text(at) if hasattr(at, "utcoffset") else at
    return Step(**values)


def _utc_text(when: Any) -> str:
    if when.utcoffset() is not None:
        from datetime import timezone  # only for a time YAML read as a datetime

        when = when.astimezone(timezone.utc)
    return str(when.strftime("%Y-%m-%dT%H:%M:%SZ"))


def _entry_numbers(value: Any, kind: str, least: int = 1) -> tuple[int, ...]:
    items = value if isinstance(value, list) else [value]
    if not items or len(items) > 100 or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= least for n in items):
        raise BadInput(f"{kind} entry's entries must be entry numbers ({least}, {least + 1}, …)")
    return tuple(sorted(set(items)))


def parse_cards(value: Any) -> tuple[str, ...]:
    """A pile as a list (``[F, L, …]``) or a string (``FLF…``), top first."""
    if isinstance(value, str):
        items: list[Any] = [c for c in value if not c.isspace() and c not in ",[]"]
    elif isinstance(value, list):
        items = value
    else:
        raise BadInput(f"a pile must be a list of L and F, not {_shown(value)}")
    if len(items) > 100:
        raise BadInput(f"a pile of {len(items)} policies is too large")
    return tuple(parse_policy(_scalar(c, "pile", "card")) for c in items)


def to_entry(step: Step, players: tuple[str, ...]) -> dict[str, Any]:
    """The YAML mapping for ``step`` (without ``at``/``hash``)."""
    out: dict[str, Any] = {"kind": step.kind}
    for key in KINDS[step.kind][0]:
        if key == "by":
            out[key] = players[step.by]  # type: ignore[index]
        elif key in ("chancellor", "target"):
            out[key] = players[step.target]  # type: ignore[index]
        elif key == "policy":
            out[key] = "liberal" if step.policy == LIBERAL else "fascist"
        elif key == "vote":
            out[key] = "ja" if step.vote else "nein"
        elif key == "answer":
            out[key] = step.answer
        elif key == "deck":
            out[key] = list(step.deck)
        elif key == "zone":
            out[key] = step.zone
        elif key in TEXT_FIELDS:
            out[key] = step.text
        elif key == "entries":
            out[key] = list(step.entries)
        elif key == "upto":
            out[key] = step.upto
        elif key == "deadline":
            out[key] = step.ref
    if step.checkpoint is not None:
        out["checkpoint"] = step.checkpoint
    if step.force:
        out["force"] = True
    if step.scope is not None:
        out["scope"] = step.scope
    if step.kind == "lapse" and step.text is not None:
        out["choice"] = step.text
    if step.drop:
        out["drop"] = True
    return out


def _veto_answer(value: Any) -> str:
    if isinstance(value, bool):
        return "ja" if value else "nein"
    text = str(value).strip().lower()
    aliases = {"yes": "ja", "no": "nein", "agree": "accept", "reject": "refuse", "decline": "refuse"}
    text = aliases.get(text, text)
    if text not in VETO_ANSWERS:
        raise BadInput(f"{value!r} is not a veto answer ({', '.join(VETO_ANSWERS)})")
    return text


def _scalar(value: Any, kind: str, key: str) -> Any:
    if isinstance(value, (dict, list)) or value is None:
        raise BadInput(f"{kind} entry's {key} must be a single value, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = ["FASCIST", "KINDS", "LIBERAL", "Seating", "Step", "parse_step", "to_entry"]
