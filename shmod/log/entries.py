"""The log's field vocabulary: a YAML entry read into a typed step, and written back.

An entry is a flat mapping with ``kind`` and the fields :data:`KINDS` lists (and those
:data:`OPTIONAL` allows); ``at``, ``hash`` and ``mod`` are bookkeeping
(:data:`BOOKKEEPING`). Player fields hold names as seated, read into seats with the game's
:class:`~shmod.forum.names.Seating`. :func:`parse_step` checks an entry's form (not its
legality) and builds its :class:`~shmod.game.steps.Step`; :func:`to_entry` is its inverse.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from typing import Any

from shmod.base import patterns
from shmod.base.errors import BadInput
from shmod.forum.names import Seating
from shmod.forum.steps import (
    Acknowledge,
    Backup,
    Claim,
    Correct,
    Delivered,
    Handover,
    Lapse,
    Moderator,
    Posted,
    Prod,
    Remove,
    Rename,
    Replace,
    SetDeadline,
    Takeover,
    Withdrawn,
    Word,
)
from shmod.forum.terms import CLAIM_ABOUT
from shmod.game.rules import parse_cards, parse_policy, scalar as _scalar, shown as _shown
from shmod.game.steps import (
    Discard,
    Enact,
    Execute,
    Investigate,
    Nominate,
    Peek,
    Reshuffle,
    SpecialElection,
    Step,
    Veto,
    Vote,
)
from shmod.game.terms import LIBERAL, POLICY_NAMES, ROLES, VETO_ANSWERS, VetoAnswer

#: kind -> its step class.
STEPS: dict[str, type[Step]] = {cls.kind: cls for cls in (
    Nominate, Vote, Discard, Enact, Veto, Investigate, SpecialElection, Peek, Execute,
    Reshuffle, Word, SetDeadline, Lapse, Prod, Remove, Backup, Replace, Rename, Correct,
    Posted, Delivered, Withdrawn, Acknowledge, Moderator, Handover, Takeover, Claim)}
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
    "delivered": (("of", "to", "what"), "the moderator delivered an item of the outbox, a PM "
                  "or a post, named by what caused it (R-PM; wrong: to another reader, "
                  "R-MISSENT)"),
    "withdrawn": (("post", "checkpoint", "covered", "withdrawal"), "a post that lost a race "
                  "with another moderator's post of its number, kept by a merge: its "
                  "checkpoint, the identities of the entries it covered, and the mark of the "
                  "withdrawal line the thread shows after it (R-MERGE)"),
    "acknowledge": (("entries", "reason"), "the moderator acknowledges a deliberate hand edit "
                    "of earlier entries (R-EDIT)"),
    "moderator": (("name",), "a moderator joins the game's moderators, or leaves them "
                  "(R-MODERATORS)"),
    "handover": (("name",), "moderation passes to another listed moderator (R-HANDOVER)"),
    "takeover": (("post",), "the incoming moderator checked their copy against the hand-over "
                 "post's checkpoint (R-HANDOVER)"),
    "claim": (("by", "about"), "what a player said in the thread of their session, power or "
              "role (R-CLAIM)"),
}
#: A claim's fields besides ``by`` and ``about`` (R-CLAIM), and which of them each kind of
#: claim needs (``passed`` is the President's, if said): the others it must leave out.
CLAIM_FIELDS = ("round", "cards", "passed", "target", "party", "role")
CLAIM_NEEDS: dict[str, tuple[str, ...]] = {
    "president": ("round", "cards"), "chancellor": ("round", "cards"),
    "investigation": ("round", "target", "party"), "peek": ("round", "cards"),
    "role": ("role",)}
#: kind -> fields an entry may leave out
OPTIONAL: dict[str, tuple[str, ...]] = {
    "posted": ("checkpoint", "short", "outbox"),  # the chain head at upto, as the post
    # showed it (R-CHECKPOINT); short: true, the post said a deadline alone (R-DEADLINE);
    # outbox: true, the log's first post delivered through the outbox (shmod.forum.deliveries)
    "delivered": ("n", "wrong"),  # which of its kind (2, 3, …); wrong: the reader it
    # reached by mistake (R-MISSENT)
    "correct": ("force",),  # voids what a post already showed, or a finished game's step
    "deadline": ("scope",),  # round (the default) or phase
    "lapse": ("choice",),  # the random choice the seed gave (late_choice=random)
    "backup": ("drop",),  # true: the name leaves the list
    "moderator": ("drop",),  # true: the moderator leaves the list
    "claim": CLAIM_FIELDS,  # which, by what the claim is about (CLAIM_NEEDS)
}
TEXT_FIELDS = ("name", "until", "zone", "reason", "word", "choice", "of", "to", "what", "wrong")
#: Fields the engine ignores: when, the hash chain, and the moderator who recorded the
#: entry (``mod``; only in a game that lists its moderators, R-MODERATORS).
BOOKKEEPING = ("at", "hash", "mod")
PLAYER_FIELDS = ("by", "chancellor", "target")
MAX_TEXT = 200
MAX_MOD = 40  # a moderator's name (shmod.forum.moderators)
#: A checkpoint as posted (R-CHECKPOINT; shmod.log.checkpoints): 32 hex digits keyed over
#: the log (128 bits), then in format 2 the moderator's Ed25519 signature (128 digits); in
#: format 1 a 16-digit tag made with the salt, or (an earlier shmod still) nothing.
CHECKPOINT_HEX = 32
TAG_HEX = 16
SIGNATURE_HEX = 128
_HEX = patterns.later(f"[0-9a-f]{{{CHECKPOINT_HEX}}}"
                  f"(?:[0-9a-f]{{{TAG_HEX}}}|[0-9a-f]{{{SIGNATURE_HEX}}})?")
#: The lengths a checkpoint may have, in words.
_FORMS = (f"{CHECKPOINT_HEX + SIGNATURE_HEX} hex digits (or {CHECKPOINT_HEX + TAG_HEX} in a "
          "log of format 1)")


def parse_step(raw: Any, seating: Seating) -> Step:
    """Check one entry's form (not its legality) and turn it into its :class:`Step`."""
    if not isinstance(raw, dict):
        raise BadInput(f"an entry must be a mapping with a 'kind', not {_shown(raw)}")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise BadInput(f"unknown entry kind {_shown(kind)} (known: {', '.join(KINDS)})")
    fields, _ = KINDS[kind]
    optional = OPTIONAL.get(kind, ())
    _check_keys(raw, kind, fields, optional)
    values: dict[str, Any] = {}
    for key, read in _READERS_OF[kind]:
        value = raw[key]
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise BadInput(f"{kind} entry's {key} is {len(value)} characters long (the "
                           f"limit is {MAX_TEXT})")
        if read is not None:
            values[key] = read(value, kind, key, seating)
    if optional:
        values.update(_optional_values(raw, kind, optional))
    if kind == "delivered":
        values.update(_delivery_fields(raw))
    if kind == "withdrawn":
        values.update(_withdrawal_fields(raw))
    mod = raw.get("mod")
    if isinstance(mod, str) and (not mod.strip() or len(mod) > MAX_MOD):
        raise BadInput(f"{kind} entry's mod must name a moderator (1 to {MAX_MOD} characters)")
    if kind == "claim":
        values.update(_claim_fields(raw, values["about"], seating))
    if kind == "lapse":
        at = raw.get("at")
        values["at"] = _utc_text(at) if hasattr(at, "utcoffset") else at
    return STEPS[kind](**values)


def _check_keys(raw: dict[Any, Any], kind: str, fields: tuple[str, ...],
                optional: tuple[str, ...]) -> None:
    """Refuse an entry with a field its kind does not have, without one it needs, or with
    bookkeeping that is not text (``at`` may be a time YAML read)."""
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


def _player(value: Any, kind: str, key: str, seating: Seating) -> int:
    """A player field (R-SEAT): the seat of the name or number written."""
    if isinstance(value, (dict, list)):
        raise BadInput(f"{kind} entry's {key} must be a player, not {_shown(value)}")
    return seating.seat(value, prefixes=False)


def _text_field(value: Any, kind: str, key: str, seating: Seating) -> str:
    """A text field, stripped (an unquoted ``until`` YAML read as a time: as UTC text)."""
    if key == "until" and hasattr(value, "utcoffset") and hasattr(value, "hour"):
        value = _utc_text(value)  # YAML read an unquoted time as a datetime
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{kind} entry's {key} must be a non-empty string")
    return value.strip()


def _about(value: Any, kind: str, key: str, seating: Seating) -> Any:
    """What a claim is about (R-CLAIM)."""
    about = _scalar(value, kind, key)
    if about not in CLAIM_ABOUT:
        raise BadInput(f"{kind} entry's about must be one of {', '.join(CLAIM_ABOUT)}, "
                       f"not {_shown(about)}")
    return about


def _number(value: Any, kind: str, key: str, seating: Seating) -> int:
    """An entry's or a post's number."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"{kind} entry's {key} must be an entry number, not {_shown(value)}")
    return value


#: How each field is read from its value (kind, key and seating given for errors and
#: names); a field not listed here is read by its kind's own reader (a withdrawn post's).
_FIELD_READERS: dict[str, Callable[[Any, str, str, Seating], Any]] = {
    **dict.fromkeys(PLAYER_FIELDS, _player),
    "policy": lambda value, kind, key, _s: parse_policy(_scalar(value, kind, key)),
    "vote": lambda value, kind, key, _s: parse_vote(_scalar(value, kind, key)),
    "answer": lambda value, kind, key, _s: parse_veto_answer(_scalar(value, kind, key)),
    "deck": lambda value, _k, _key, _s: parse_cards(value),
    **dict.fromkeys(TEXT_FIELDS, _text_field),
    # an acknowledgment may name the header, entry 0 (R-EDIT)
    "entries": lambda value, kind, _key, _s: _entry_numbers(
        value, kind, 0 if kind == "acknowledge" else 1),
    "about": _about,
    **dict.fromkeys(("upto", "deadline", "post"), _number),
}
#: kind -> each of its fields with its reader (None: the field is left to the kind's own).
_READERS_OF = {kind: tuple((key, _FIELD_READERS.get(key)) for key in fields)
               for kind, (fields, _) in KINDS.items()}


def _optional_values(raw: dict[Any, Any], kind: str, optional: tuple[str, ...]
                     ) -> dict[str, Any]:
    """The optional fields ``raw`` holds of those its kind allows, checked for form."""
    values: dict[str, Any] = {}
    if "checkpoint" in optional and "checkpoint" in raw:
        value = raw["checkpoint"]
        if not isinstance(value, str) or not _HEX.fullmatch(value):
            raise BadInput(f"{kind} entry's checkpoint must be {_FORMS}, not {_shown(value)}")
        values["checkpoint"] = value
    for flag in ("force", "drop", "short", "outbox"):
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
        values["choice"] = str(_scalar(raw["choice"], kind, "choice"))
    return values


def _delivery_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """A delivery's optional fields, checked for form: ``n`` a count from 2 (1 is left out),
    ``wrong`` a reader's name or ``thread`` (R-MISSENT)."""
    values: dict[str, Any] = {}
    if "n" in raw:
        n = raw["n"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 1000:
            raise BadInput(f"delivered entry's n must be a count (2, 3, …), not {_shown(n)}")
        values["n"] = n if n > 1 else None
    if "wrong" in raw:
        wrong = raw["wrong"]
        if not isinstance(wrong, str) or not wrong.strip() or len(wrong) > MAX_TEXT:
            raise BadInput(f"delivered entry's wrong must name a reader, not {_shown(wrong)}")
        values["wrong"] = wrong.strip()
    return values


#: The identities a withdrawn post covered (:func:`shmod.log.chain.identity`): 32 hex
#: digits each, at most this many.
IDENTITY_HEX = 32
MAX_COVERED = 10_000
_IDENTITY = patterns.later(f"[0-9a-f]{{{IDENTITY_HEX}}}")
#: A withdrawal line's mark: a signature (format 2 and later) or a tag (format 1).
_MARK = patterns.later(f"[0-9a-f]{{{SIGNATURE_HEX}}}|[0-9a-f]{{{TAG_HEX}}}")


def _withdrawal_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """A withdrawn post's fields, checked for form: its checkpoint as a post shows one, the
    identities it covered, and its withdrawal line's mark (R-MERGE)."""
    values: dict[str, Any] = {}
    checkpoint, covered, mark = raw["checkpoint"], raw["covered"], raw["withdrawal"]
    if not isinstance(checkpoint, str) or not _HEX.fullmatch(checkpoint) or \
            len(checkpoint) == CHECKPOINT_HEX:
        raise BadInput(f"withdrawn entry's checkpoint must be {_FORMS}, not {_shown(checkpoint)}")
    if not isinstance(covered, list) or len(covered) > MAX_COVERED or not all(
            isinstance(one, str) and _IDENTITY.fullmatch(one) for one in covered):
        raise BadInput(f"withdrawn entry's covered must list entries' identities ({IDENTITY_HEX} "
                       "hex digits each)")
    if not isinstance(mark, str) or not _MARK.fullmatch(mark) or \
            (len(mark) == SIGNATURE_HEX) != (len(checkpoint) == CHECKPOINT_HEX + SIGNATURE_HEX):
        raise BadInput(f"withdrawn entry's withdrawal must be {SIGNATURE_HEX} hex digits (a "
                       f"signature; {TAG_HEX}, a tag, with a checkpoint of format 1), not "
                       f"{_shown(mark)}")
    values.update(checkpoint=checkpoint, covered=tuple(covered), withdrawal=mark)
    return values


def to_entry(step: Step, players: tuple[str, ...]) -> dict[str, Any]:
    """The YAML mapping for ``step`` (without ``at``/``hash``)."""
    out: dict[str, Any] = {"kind": step.kind}
    for key in KINDS[step.kind][0]:
        value = getattr(step, key)
        if key in PLAYER_FIELDS:
            out[key] = players[value]
        elif key == "policy":
            out[key] = "liberal" if value == LIBERAL else "fascist"
        elif key == "vote":
            out[key] = "ja" if value else "nein"
        elif key in ("deck", "entries", "covered"):
            out[key] = list(value)
        else:
            out[key] = value
    if isinstance(step, Claim):
        return {**out, **_claim_entry(step, players)}
    for key in OPTIONAL.get(step.kind, ()):
        value = getattr(step, key)
        if value is not None and value is not False:
            out[key] = value
    return out


def _claim_fields(raw: dict[str, Any], about: str, seating: Seating) -> dict[str, Any]:
    """A claim's fields as its ``about`` needs them, checked for form (R-CLAIM)."""
    needs = CLAIM_NEEDS[about]
    allowed = (*needs, "passed") if about == "president" else needs
    extra = [key for key in CLAIM_FIELDS if key in raw and key not in allowed]
    if extra:
        raise BadInput(f"a claim about {about} has no {', '.join(extra)}")
    missing = [key for key in needs if key not in raw]
    if missing:
        raise BadInput(f"a claim about {about} is missing {', '.join(missing)}")
    values: dict[str, Any] = {}
    for key in allowed:
        if key not in raw:
            continue
        value = raw[key]
        if key == "round":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise BadInput(f"claim entry's round must be a round's number, not "
                               f"{_shown(value)}")
            values[key] = value
        elif key in ("cards", "passed"):
            cards = parse_cards(value)
            if not 1 <= len(cards) <= 3:
                raise BadInput(f"claim entry's {key} must be one to three policies (L or F), "
                               f"not {_shown(value)}")
            values[key] = cards
        elif key == "target":
            if isinstance(value, (dict, list)):
                raise BadInput(f"claim entry's target must be a player, not {_shown(value)}")
            values[key] = seating.seat(value, prefixes=False)
        elif key == "party":
            values[key] = POLICY_NAMES[parse_policy(_scalar(value, "claim", key))]
        else:
            role = str(_scalar(value, "claim", key)).strip().lower()
            if role not in ROLES:
                raise BadInput(f"claim entry's role must be one of {', '.join(ROLES)}, not "
                               f"{_shown(value)}")
            values[key] = role
    return values


def _claim_entry(step: Claim, players: tuple[str, ...]) -> dict[str, Any]:
    """A claim's fields as written: only those it has, policies as letters (``FFL``)."""
    out: dict[str, Any] = {}
    if step.round:
        out["round"] = step.round
    for key in ("cards", "passed"):
        if getattr(step, key):
            out[key] = "".join(getattr(step, key))
    if step.target is not None:
        out["target"] = players[step.target]
    if step.party is not None:
        out["party"] = step.party.lower()
    if step.role is not None:
        out["role"] = step.role
    return out


#: Fields :func:`summary` names before their value (the rest read plainly: vote Cat ja).
_LABELLED = ("chancellor", "upto", "entries", "deadline", "post", "zone", "scope", "round",
             "passed")


def summary(raw: Any, number: int) -> str:
    """Entry ``number`` as the moderator's terminal names it: its kind and fields as written,
    who recorded it and when (``entry 43 (vote Cat ja, recorded by Bob at …)``). For the
    moderator only: a vote's value is no secret to them."""
    if not isinstance(raw, dict):
        return f"entry {number} (not an entry)"
    kind = raw.get("kind")
    fields = KINDS[kind][0] + OPTIONAL.get(kind, ()) if kind in KINDS else ()
    said = []
    for key in fields:
        value = raw.get(key)
        if key in ("checkpoint", "reason", "deck", "covered", "withdrawal") or value is None \
                or value is False:
            continue
        shown = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        said.append(key if value is True else f"{key} {shown}" if key in _LABELLED else shown)
    text = " ".join([str(kind), *said])[:80]
    by = f", recorded by {raw['mod']}" if isinstance(raw.get("mod"), str) else ""
    at = at_text(raw)
    when = f" at {at}" if at else ""
    return f"entry {number} ({text}{by}{when})"


def parse_vote(value: object) -> bool:
    """``ja``/``nein`` (and yes/no, y/n, true/false; YAML's own booleans) to a bool."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("ja", "yes", "y", "j", "true"):
        return True
    if text in ("nein", "no", "n", "false"):
        return False
    raise BadInput(f"{value!r} is not a vote (ja or nein)")


def parse_veto_answer(value: Any) -> VetoAnswer:
    """A veto step's answer (R-VETO), with the aliases yes/no, agree, reject and decline."""
    if isinstance(value, bool):
        return "ja" if value else "nein"
    text = str(value).strip().lower()
    aliases = {"yes": "ja", "no": "nein", "agree": "accept", "reject": "refuse",
               "decline": "refuse"}
    text = aliases.get(text, text)
    for answer in VETO_ANSWERS:
        if text == answer:
            return answer
    raise BadInput(f"{value!r} is not a veto answer ({', '.join(VETO_ANSWERS)})")


def at_text(raw: Any) -> str | None:
    """An entry's ``at`` as UTC text (YAML may have read an unquoted time as a datetime),
    or None where the entry gives none."""
    at = raw.get("at") if isinstance(raw, dict) else None
    if hasattr(at, "utcoffset") and hasattr(at, "hour"):
        return _utc_text(at)
    return at if isinstance(at, str) else None


def _utc_text(when: Any) -> str:
    if when.utcoffset() is not None:
        try:
            when = when.astimezone(UTC)
        except OverflowError:
            raise BadInput(f"time {when} is out of range") from None
    from shmod.forum.deadlines import until_text  # a date in a hand-written entry: rare

    return until_text(when)


def _entry_numbers(value: Any, kind: str, least: int = 1) -> tuple[int, ...]:
    items = value if isinstance(value, list) else [value]
    if not items or len(items) > 100 or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= least for n in items):
        raise BadInput(f"{kind} entry's entries must be entry numbers ({least}, {least + 1}, …)")
    return tuple(sorted(set(items)))


__all__ = ["CHECKPOINT_HEX", "KINDS", "OPTIONAL", "SIGNATURE_HEX", "STEPS", "TAG_HEX", "at_text",
           "parse_step", "parse_veto_answer", "parse_vote", "summary", "to_entry"]
