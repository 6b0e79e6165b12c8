"""``shmod simulate``: complete random legal games written as ordinary logs."""
from __future__ import annotations

import os
import random
from collections.abc import Iterator

from shmod.audit.random_games import random_game
from shmod.base.errors import BadInput
from shmod.base.plaintext import unsafe
from shmod.forum.house import parse_variants
from shmod.forum.terms import VARIANTS
from shmod.game.house import REBALANCED
from shmod.log import logfile
from shmod.log.store import log_text

#: The most games one ``shmod simulate`` writes: test data at scale, never a runaway that
#: fills the disk (``-n 99999999999999999999`` ran until killed).
MAX_GAMES = 10_000
#: The ``at`` stamp of simulated entries (a fixed value keeps the files reproducible).
SIMULATED_AT = "2026-01-01T00:00:00Z"


def parse_counts(text: str) -> list[int]:
    """Player counts as ``7``, ``5-10`` or ``5,7,9`` (R-COUNT: each 5 to 10)."""
    counts: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, sep, high = part.partition("-")
        try:
            first, last = int(low), int(high) if sep else int(low)
        except ValueError:
            raise BadInput(f"player counts look like 7, 5-10 or 5,7,9, not {text!r}") from None
        counts += range(first, last + 1)
    bad = [n for n in counts if not 5 <= n <= 10]
    if bad or not counts:
        raise BadInput(f"R-COUNT: Secret Hitler takes 5 to 10 players, not {bad or text}")
    return counts


def game_variants(rng: random.Random, fixed: list[str] | None, mixed: bool,
                  players: int) -> list[str]:
    """The variants of one game: ``fixed`` ones, the rest at random when ``mixed``
    (``rebalanced`` only for the player counts it exists for)."""
    chosen = parse_variants(fixed or [])
    given = {item.partition("=")[0].strip() for item in fixed or []}
    if mixed:
        for key, values in VARIANTS.items():
            if key not in given and (key != "rebalanced" or players in REBALANCED):
                chosen[key] = rng.choice(values)
    return [f"{k}={v}" for k, v in chosen.items()]


def simulate(folder: str, count: int, counts: list[int], seed: str, *,
             variants: list[str] | None = None, mixed: bool = False) -> Iterator[str]:
    """Write ``count`` random complete games into ``folder``, yielding each path.

    Player counts cycle through ``counts``; the same ``seed`` writes the same games.
    Existing files are never overwritten.
    """
    if count < 1:
        raise BadInput(f"the number of games must be at least 1, not {count}")
    if count > MAX_GAMES:
        raise BadInput(f"the number of games must be at most {MAX_GAMES:,}, not {count}")
    if unsafe(seed):
        raise BadInput(f"the seed holds a {unsafe(seed)}")
    parse_variants(variants or [])
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise BadInput(f"{folder}: not a folder")
    try:
        os.makedirs(folder, exist_ok=True)
    except RecursionError:  # os.makedirs recurses once per missing folder
        raise BadInput(f"{folder}: cannot create the folder: too many nested folders") from None
    except OSError as err:
        raise BadInput(f"{folder}: cannot create the folder: {err.strerror or err}") from None
    rng = random.Random(seed)
    width = max(4, len(str(count)))
    for number in range(1, count + 1):
        players = counts[(number - 1) % len(counts)]
        sim = random_game(players, rng, variants=game_variants(rng, variants, mixed, players))
        path = os.path.join(folder, f"game-{number:0{width}d}-{players}p.yaml")
        # as published after the game: without the moderator's private key
        logfile.create(path, log_text(logfile.published(sim.header), sim.steps,
                                      at=SIMULATED_AT))
        yield path
