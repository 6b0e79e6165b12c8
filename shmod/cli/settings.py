"""A forum's house rules in one file: ``shmod.toml`` in the folder of the game logs
(docs/settings.md).

The file is read with the standard library's ``tomllib`` by ``shmod new`` (from the folder
of ``-g``) and ``shmod stats`` (from the first folder named), never searched for upward.
It holds the defaults of every new game (forum, language, time zone, who deals, a custom
board, the moderators, the variant switches), named presets that change some of them
(``[preset.NAME]``, chosen with ``shmod new --preset NAME``), and the settings of
``shmod stats`` (``[stats]``). The whole file is checked whenever it is read: a syntax
error is said at ``tomllib``'s line and column, an unknown key or a bad value by its
dotted path; nothing is written then.

A value of ``new`` comes from, in this order of precedence: a flag, the preset, the file,
the default. The log records every value used, so a game never depends on the file
after ``new``.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from shmod.base.errors import BadInput
from shmod.base.records import Record

FILE = "shmod.toml"
#: A settings file larger than this is refused (a forum's house rules fit in a few lines).
LIMIT = 256 * 1024


class Value(Record):
    """A setting's value and where it came from: ``flag``, ``preset NAME``, ``file``,
    ``default``."""

    value: Any
    source: str


class Settings(Record):
    """A checked settings file: its path, the defaults of new games, the presets, the
    stats' settings (each a mapping from the file, checked)."""

    path: str
    game: dict[str, Any]
    presets: dict[str, dict[str, Any]]
    stats: dict[str, Any]


def _text(where: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{where}: a text, not {_shown(value)}")
    return value.strip()


def _choice(options: Callable[[], list[str]]) -> Callable[[str, object], str]:
    def check(where: str, value: object) -> str:
        text = _text(where, value)
        known = options()
        if text not in known:
            raise BadInput(f"{where}: {text!r} is not {_either(known)}")
        return text
    return check


def _zone(where: str, value: object) -> str:
    from shmod.forum.deadlines import zone_info

    text = _text(where, value)
    try:
        zone_info(text)
    except BadInput as err:
        raise BadInput(f"{where}: {err}") from None
    return text


def _names(where: str, value: object) -> list[str]:
    if not isinstance(value, list) or not value:
        raise BadInput(f"{where}: a list of names, like [\"Ann\", \"Bob\"], not "
                       f"{_shown(value)}")
    return [_text(f"{where}[{n}]", item) for n, item in enumerate(value)]


def _variants(where: str, value: object) -> dict[str, str]:
    from shmod.forum.terms import VARIANTS

    table = _table(where, value)
    out = {}
    for key, given in table.items():
        if key not in VARIANTS:
            raise BadInput(f"{where}.{key}: unknown variant (known: {', '.join(VARIANTS)})")
        text = {True: "on", False: "off"}[given] if isinstance(given, bool) else given
        if text not in VARIANTS[key]:
            raise BadInput(f"{where}.{key}: {_shown(given)} is not {_either(VARIANTS[key])}")
        out[key] = text
    return out


def _forums() -> list[str]:
    from shmod.texts.formats import FORMATS

    return list(FORMATS)


def _languages() -> list[str]:
    from shmod.texts.catalog import codes

    return codes()


def _deals() -> list[str]:
    from shmod.forum.setup import DEALS

    return list(DEALS)


#: What ``new`` reads from the file and from a preset, each key with its check.
GAME_KEYS: dict[str, Callable[[str, object], Any]] = {
    "forum": _choice(_forums), "language": _choice(_languages), "zone": _zone,
    "deal": _choice(_deals), "custom": _text, "moderators": _names, "variants": _variants,
}


def _days(where: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadInput(f"{where}: a number of days, 1 or more, not {_shown(value)}")
    return value


def _switch(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise BadInput(f"{where}: true or false, not {_shown(value)}")
    return value


#: ``[stats]``: what ``shmod stats`` reads.
STATS_KEYS: dict[str, Callable[[str, object], Any]] = {
    "abandoned_after": _days, "abandoned_cost": _switch,
}


def read(folder: str | Path) -> Settings | None:
    """The settings file in ``folder``, checked whole; None when there is none."""
    path = os.path.join(folder, FILE)
    if not os.path.lexists(path):
        return None
    import tomllib

    from shmod.base.errors import LogError
    from shmod.log.logfile import read_bytes

    try:
        data, _ = read_bytes(path, LIMIT, "no such file")
    except LogError as err:
        raise BadInput(f"{path}: {err.reason}") from None
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise BadInput(f"{path}:{line}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise BadInput(_syntax(path, str(err))) from None
    return _checked(path, raw)


def _syntax(path: str, message: str) -> str:
    """tomllib's message as ``FILE:LINE:COLUMN: what``."""
    import re

    found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if found is None:
        found = re.search(r"\s*\(at end of document\)$", message)
        return f"{path}: {message[:found.start()] if found else message} (at the end)"
    return f"{path}:{found[1]}:{found[2]}: {message[:found.start()]}"


def _checked(path: str, raw: dict[str, Any]) -> Settings:
    """Every key of the file known and every value good, or the first that is not, by
    its dotted path."""
    try:
        game = _keys("", raw, {**GAME_KEYS, "preset": _table, "stats": _table})
        presets = {}
        for name, preset in _table("preset", raw.get("preset", {})).items():
            presets[name] = _keys(f"preset.{name}.", _table(f"preset.{name}", preset),
                                  GAME_KEYS)
        stats = _keys("stats.", _table("stats", raw.get("stats", {})), STATS_KEYS)
    except BadInput as err:
        raise BadInput(f"{path}: {err}") from None
    game.pop("preset", None)
    game.pop("stats", None)
    return Settings(path, game, presets, stats)


def _table(where: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadInput(f"{where}: a table ([{where}] or {{ key = value }}), not "
                       f"{_shown(value)}")
    return value


def _keys(prefix: str, table: dict[str, Any],
          known: dict[str, Callable[[str, object], Any]]) -> dict[str, Any]:
    out = {}
    for key, value in table.items():
        if key not in known:
            raise BadInput(f"{prefix}{key}: unknown key (known here: {', '.join(known)})")
        out[key] = known[key](prefix + key, value)
    return out


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _either(options: list[str] | tuple[str, ...]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    words = list(options)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


# -- shmod new --------------------------------------------------------------------------

#: The values of a new game, each with its default, in the order --show-settings lists them.
DEFAULTS: dict[str, Any] = {"forum": None, "language": "en", "zone": "UTC",
                            "deal": "moderator", "custom": None, "moderators": None}


def for_new(folder: str | Path, preset: str | None,
            flags: dict[str, Any]) -> tuple[Settings | None, dict[str, Value]]:
    """Every value of a new game in ``folder`` (the folder of its log) and where it came
    from: ``flags`` (None where not given; ``variants`` a list of ``KEY=VALUE``) over the
    ``preset`` (a name in the file) over the file over the defaults. A custom board named
    in the file is a path from the file's folder."""
    from shmod.forum.terms import VARIANTS

    settings = read(folder)
    chosen: dict[str, Any] = {}
    if preset is not None:
        if settings is None:
            raise BadInput(f"--preset {preset}: there is no {os.path.join(folder, FILE)} "
                           "(presets are [preset.NAME] tables in it; docs/settings.md)")
        if preset not in settings.presets:
            names = ", ".join(settings.presets) or "none"
            raise BadInput(f"--preset {preset}: no [preset.{preset}] in {settings.path} "
                           f"(its presets: {names})")
        chosen = settings.presets[preset]
    layers = [("default", {**DEFAULTS, "variants": {k: v[0] for k, v in VARIANTS.items()}}),
              ("file", settings.game if settings else {}),
              (f"preset {preset}", chosen),
              ("flag", {**{k: v for k, v in flags.items() if k != "variants"},
                        "variants": _flag_variants(flags.get("variants"))})]
    out: dict[str, Value] = {}
    for source, layer in layers:
        for key, value in layer.items():
            if value is None:
                continue
            if key == "variants":
                for switch, text in value.items():
                    out[f"variants.{switch}"] = Value(text, source)
            elif key == "custom" and source in ("file", f"preset {preset}"):
                out[key] = Value(os.path.join(folder, value), source)
            else:
                out[key] = Value(value, source)
    for key in DEFAULTS:
        out.setdefault(key, Value(None, "default"))
    if out["zone"].source == "flag" and os.environ.get("SHMOD_ZONE") == out["zone"].value:
        out["zone"] = Value(out["zone"].value, "SHMOD_ZONE")
    return settings, {key: out[key] for key in sorted(out, key=_order)}


def _order(key: str) -> tuple[int, str]:
    from shmod.forum.terms import VARIANTS

    if key in DEFAULTS:
        return list(DEFAULTS).index(key), ""
    name = key.removeprefix("variants.")
    return len(DEFAULTS), f"{list(VARIANTS).index(name):03d}" if name in VARIANTS else name


def _flag_variants(items: list[str] | None) -> dict[str, str]:
    """``-V KEY=VALUE`` flags as a mapping (new's header checks them)."""
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise BadInput(f"variant {item!r} is not of the form name=value")
        out[key.strip()] = value.strip()
    return out


def shown(log: str, settings: Settings | None, preset: str | None,
          values: dict[str, Value]) -> str:
    """``shmod new --show-settings``: each value and where it came from."""
    where = f"from {settings.path}" if settings else f"no {os.path.join(Path(log).parent, FILE)}"
    title = f"Settings of a new game at {log} ({where}{f', preset {preset}' if preset else ''}):"
    rows = [(key, _value_text(value.value), value.source) for key, value in values.items()]
    width = [max(len(row[n]) for row in rows) for n in range(2)]
    return "\n".join([title, *(f"  {key:<{width[0]}}  {text:<{width[1]}}  {source}"
                               for key, text, source in rows)]) + "\n"


def _value_text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(value)
    return str(value)


# -- shmod stats ------------------------------------------------------------------------

def for_stats(paths: list[str]) -> tuple[timedelta, bool]:
    """``abandoned_after`` and ``abandoned_cost`` from the settings file of the first
    folder named (a log's own folder, if a log is named first), or their defaults."""
    from shmod.audit.flags import ABANDONED_AFTER

    first = paths[0] if paths else "."
    settings = read(first if os.path.isdir(first) else os.path.dirname(first) or ".")
    stats = settings.stats if settings else {}
    after = stats.get("abandoned_after")
    return (timedelta(days=after) if after is not None else ABANDONED_AFTER,
            bool(stats.get("abandoned_cost", False)))


__all__ = ["DEFAULTS", "FILE", "GAME_KEYS", "STATS_KEYS", "Settings", "Value", "for_new",
           "for_stats", "read", "shown"]
