"""Players matched across games by name (docs/stats.md, "Players across games"): case,
spaces, accents and look-alike letters folded, then the aliases of players who changed
names."""
from __future__ import annotations

from functools import lru_cache

from shmod.base.errors import BadInput


@lru_cache(maxsize=4096)  # a forum's names recur in every game; a skeleton costs ~0.5 ms
def fold(name: str) -> str:
    """``name`` as players are matched across games: spaces made one, accents dropped,
    every character that is not ASCII replaced by what it looks like
    (:func:`looks_like`), then case folded: ``Zoë`` and ``ZOE`` match, ``Ann`` and
    ``Аnn`` with a Cyrillic А, ``ANN`` and ``ΑΝΝ`` in Greek capitals."""  # noqa: RUF002
    text = " ".join(name.split())
    if text.isascii():
        return text.casefold()
    text = _unaccented(text, "NFD")
    if not text.isascii():
        text = _unaccented("".join(c if c.isascii() else looks_like(c) for c in text))
    return text.casefold()


def looks_like(char: str) -> str:
    """What a character that is not ASCII looks like, in its case or out of it, as
    :func:`shmod.forum.names.looks` compares names in both orders: the ASCII it stands for
    when it is a style of it (a full-width Ａ, a bold 𝟏); else its UTS #39 prototype as
    written (Greek Ν is N and ν is v, Cyrillic В is B; a capital whose prototype is ``l``,
    the letter I, l and 1 share, is a capital I: Greek Ι), or once its case is folded
    (a Cyrillic capital Д as its small д)."""  # noqa: RUF002
    from shmod.forum.names import skeleton

    shape = skeleton(char)
    plain = _unaccented(char)
    if plain and plain.isascii() and skeleton(plain) == shape:
        return plain
    if shape.isascii():
        return "I" if shape == "l" and char.isupper() else shape
    return skeleton(char.casefold())


def _unaccented(text: str, form: str = "NFKD") -> str:
    """``text`` in Unicode ``form`` (NFKD: compatibility characters as what they stand
    for; NFD) without its combining marks."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize(form, text)  # type: ignore[arg-type]
                   if not unicodedata.combining(c))


def accent_fold(name: str) -> str:
    """``name`` with only case, spaces and accents folded: two names that :func:`fold`
    joins but this does not were joined because they look alike."""
    text = " ".join(name.split())
    return (text if text.isascii() else _unaccented(text)).casefold()


class Aliases:
    """Players who changed names: folded old name -> folded name it is counted under."""

    def __init__(self, pairs: dict[str, str] | None = None) -> None:
        self.pairs = pairs or {}

    @classmethod
    def read(cls, path: str) -> Aliases:
        """An alias file: one ``OLD=NEW`` a line (split at the first ``=``); blank lines and
        lines starting with ``#`` ignored (a name may hold ``#``); chains (``A=B``,
        ``B=C``) followed to their end."""
        from shmod.log.logfile import read_bytes

        data, _ = read_bytes(path, 1024 * 1024, "no such alias file")
        pairs: dict[str, str] = {}
        lines: dict[str, int] = {}
        for number, raw in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            old, sep, new = line.partition("=")
            if not sep or not old.strip() or not new.strip():
                raise BadInput(f"{path}:{number}: an alias is OLD=NEW (the old name, the new "
                               f"one), not {line!r}")
            key = fold(old)
            if key in pairs and pairs[key] != fold(new):
                raise BadInput(f"{path}:{number}: {old.strip()!r} already has an alias "
                               f"(line {lines[key]})")
            pairs[key], lines[key] = fold(new), number
        for key in pairs:
            seen = [key]
            while pairs.get(seen[-1], seen[-1]) != seen[-1]:
                seen.append(pairs[seen[-1]])
                if seen[-1] in seen[:-1]:
                    raise BadInput(f"{path}:{lines[key]}: the aliases go round in a circle: "
                                   + " = ".join(seen))
        return cls({key: cls._end(pairs, key) for key in pairs})

    @staticmethod
    def _end(pairs: dict[str, str], key: str) -> str:
        while pairs.get(key, key) != key:
            key = pairs[key]
        return key

    def key(self, name: str) -> str:
        """The key ``name`` is counted under."""
        folded = fold(name)
        return self.pairs.get(folded, folded)


__all__ = ["Aliases", "accent_fold", "fold", "looks_like"]
