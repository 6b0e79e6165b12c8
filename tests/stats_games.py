"""Hand-made games for the stats tests (not a test file): three five-player games whose
every figure ``tests/test_stats.py`` counts by hand, written as logs."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from scripted import Table, full_deck

from shmod.forum.names import Seating
from shmod.forum.steps import Lapse, Prod, Remove, Replace, SetDeadline
from shmod.game.terms import EXECUTE
from shmod.log.store import log_text

AT = "2026-01-01T00:00:00Z"


def head(names: list[str], hitler: str, fascists: list[str], deck: str, created: str,
         variants: dict[str, str] | None = None) -> dict[str, object]:
    roles = {n: "hitler" if n == hitler else "fascist" if n in fascists else "liberal"
             for n in names}
    return {"shmod": 1, "created": created, "players": names, "variants": variants or {},
            "first_president": names[0],
            "secret": {"salt": "5ca1ab1e" * 4, "roles": roles, "deck": full_deck(deck)}}


def game_one(names: tuple[str, ...] = ("Ann", "Bob", "Cat", "Dan", "Eve"),
             created: str = "2026-01-10T20:00:00Z") -> Table:
    """2026-01-10, Ann Bob Cat Liberal, Dan Fascist, Eve Hitler: three Fascist policies,
    then Hitler elected with Ann and Cat voting Nein, Bob Ja (``names`` in those seats)."""
    ann, bob, cat, dan, eve = names
    t = Table(head(list(names), eve, [dan], "F" * 9, created), forum=True)
    t.session(dan, "F", "F")                                     # Ann + Dan
    t.elect(eve, {ann: False, bob: True, cat: True, dan: True, eve: True})
    t.discard("F")
    t.enact("F")                                                 # Bob + Eve
    t.session(dan, "F", "F")                                     # Cat + Dan: peek
    t.power("peek")
    t.elect(eve, {ann: False, bob: True, cat: False, dan: True, eve: True})
    assert t.game.winner == "Fascists"
    return t


def game_two() -> Table:
    """2026-02-10, Ann Hitler, Bob Fascist: Cat prodded; Dan replaced by Fay after two of
    five rounds; five Liberal policies."""
    t = Table(head(["Ann", "Bob", "Cat", "Dan", "Eve"], "Ann", ["Bob"], "LFF" * 5,
                   "2026-02-10T20:00:00Z"), forum=True)
    t.nominate("Cat")
    t.vote("Ann", True)
    t.apply(Prod(target=2))
    for name in ("Bob", "Cat", "Dan", "Eve"):
        t.vote(name, True)
    t.discard("F")
    t.enact("L")                                                 # Ann + Cat
    t.session("Dan", "F", "L")                                   # Bob + Dan
    t.apply(Replace(target=3, name="Fay"))
    t.seating = Seating(t.game.players)
    t.session("Eve", "F", "L")                                   # Cat + Eve
    t.session("Ann", "F", "L")                                   # Fay + Ann
    t.session("Bob", "F", "L")                                   # Eve + Bob
    assert t.game.winner == "Liberals"
    return t


def game_three() -> Table:
    """2026-03-10, ANN Dan Zoë Liberal, Cat Fascist, Bob Hitler, late votes count Nein:
    Dan and Zoë lapse once; Dan (Liberal) executes Cat; ANN is removed; Hitler elected
    with Dan voting Nein, Zoë Ja."""
    t = Table(head(["ANN", "Bob", "Cat", "Dan", "Zoë"], "Bob", ["Cat"], "FFL" * 4,
                   "2026-03-10T20:00:00Z", {"late_vote": "nein"}), forum=True)
    t.session("Dan", "F", "F")                                   # ANN + Dan
    t.nominate("Cat")                                            # Bob + Cat
    t.apply(SetDeadline(until="2026-03-11T20:00:00Z", zone="UTC"))
    deadline = t.state.entries
    for name in ("ANN", "Bob", "Cat"):
        t.vote(name, True)
    t.apply(Lapse(deadline=deadline, at="2026-03-12T20:00:00Z"))
    t.discard("F")
    t.enact("F")
    t.session("ANN", "F", "F")                                   # Cat + ANN: peek
    t.power("peek")
    t.session("Zoë", "F", "F")                                   # Dan + Zoë: execution
    t.power(EXECUTE, "Cat")
    t.apply(Remove(target=0, reason="left the forum"))
    t.elect("Bob", {"Bob": True, "Dan": False, "Zoë": True})     # Zoë + Bob
    assert t.game.winner == "Fascists"
    return t


def write(folder: Path, name: str, t: Table) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(log_text(t.header, t.steps, at=AT))
    return str(path)


def forum(folder: Path) -> Path:
    """The three games in ``folder``: two at the top, one in a subfolder."""
    write(folder, "c.yaml", game_one())
    write(folder, "a.yaml", game_two())
    write(folder / "2026", "b.yaml", game_three())
    return folder



def liberal_win(names: tuple[str, ...], created: str) -> Table:
    """Five players, the first three Liberal, the fourth Fascist, the fifth Hitler (the
    seats of :func:`game_one`): five Liberal policies, one a round, every vote Ja."""
    t = Table(head(list(names), names[4], [names[3]], "LFF" * 5, created), forum=True)
    for round_ in range(5):
        t.session(names[(round_ + 2) % 5], "F", "L")
    assert t.game.winner == "Liberals"
    return t


#: The players of :func:`cheater_forum`: 27 regulars and the one who cheats.
REGULARS = tuple(f"Reg{n:02d}" for n in range(1, 28))
CHEAT = "Cheat"


def cheater_forum(folder: Path, *, unfinished: bool, background: int = 200,
                  seed: int = 43) -> list[str]:
    """A forum of five-player games (issue 43): ``background`` games among 27 regulars of
    planted skill (the Liberals' chance between equals 40 %, each player's skill added to
    their team's log-odds), and 60 games of an honest player, ``Cheat``, with four
    regulars, won 22 and lost 38, on a side dealt at random. ``unfinished``: the 38 losses
    are left unfinished (their last step never recorded). Each game's entries are stamped
    with its creation time, one game a day from 2026-01-01. The paths written."""
    import math
    import random

    rng = random.Random(seed)
    skill = {name: rng.gauss(0, 0.6) for name in REGULARS}
    kinds = ["regulars"] * background + ["cheat"] * 60
    rng.shuffle(kinds)
    wins = set(rng.sample(range(60), 22))
    start = datetime(2026, 1, 1, 20, tzinfo=UTC)
    paths, played = [], 0
    for number, kind in enumerate(kinds):
        created = (start + timedelta(hours=8 * number)).isoformat().replace("+00:00", "Z")
        if kind == "regulars":
            names = rng.sample(REGULARS, 5)
            edge = math.log(0.4 / 0.6) + sum(skill[n] for n in names[:3]) - sum(
                skill[n] for n in names[3:])
            liberals_won, cut = rng.random() < 1 / (1 + math.exp(-edge)), False
        else:
            names = [CHEAT, *rng.sample(REGULARS, 4)]
            rng.shuffle(names)
            won = played in wins
            played += 1
            liberals_won = (names.index(CHEAT) < 3) == won
            cut = unfinished and not won
        t = (liberal_win if liberals_won else game_one)(tuple(names), created)
        path = folder / f"{number:03d}-{kind}.yaml"
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(log_text(t.header, t.steps[:-1] if cut else t.steps, at=created))
        paths.append(str(path))
    return paths
