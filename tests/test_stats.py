"""``shmod stats`` on hand-made games whose every figure is counted by hand here: results
by team and role, elections, enactments, vote and shot accuracy as secret-hitler.io
defines them, prods, lapses, replacements and removals; names matched with case and
accents folded and through aliases; the ratings against openskill itself."""
from __future__ import annotations

import json
import math
import shutil

import pytest
from scripted import Table
from stats_games import AT, forum, game_three, game_two, head, write

from shmod.audit import forum_stats, played
from shmod.audit.forum_stats import collect
from shmod.audit.players import Aliases, fold
from shmod.audit.ratings import Match, rate
from shmod.base.errors import BadInput
from shmod.game.terms import EXECUTE, INVESTIGATE, SPECIAL


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return forum(tmp_path_factory.mktemp("forum") / "games")


@pytest.fixture(scope="module")
def result(folder):
    return collect(sorted(str(p) for p in folder.rglob("*.yaml")))


def figures(result, key: str) -> dict[str, object]:
    return result.careers[key].to_json()


#: Every figure of every player, counted by hand from the three games above.
BY_HAND = {
    # games, wins, (Liberal games, wins), (Fascist team), (Hitler), elected President,
    # Chancellor, enacted as Chancellor (L, F), votes (counted, Nein), shots (fired, hit),
    # prods, lapses, subbed in, replaced, removed
    "ann": (3, 0, (2, 0), (1, 0), (1, 0), 3, 2, (1, 1), (1, 1), (0, 0), 0, 0, 0, 0, 1),
    "bob": (3, 1, (1, 0), (2, 1), (1, 1), 3, 2, (1, 0), (1, 0), (0, 0), 0, 0, 0, 0, 0),
    "cat": (3, 2, (2, 1), (1, 1), (0, 0), 3, 2, (1, 1), (1, 1), (0, 0), 1, 0, 0, 0, 0),
    "dan": (2, 1, (1, 0), (1, 1), (0, 0), 2, 4, (1, 3), (1, 1), (1, 1), 0, 1, 0, 1, 0),
    "eve": (2, 2, (1, 1), (1, 1), (1, 1), 1, 3, (1, 1), (0, 0), (0, 0), 0, 0, 0, 0, 0),
    "fay": (1, 1, (1, 1), (0, 0), (0, 0), 1, 0, (0, 0), (0, 0), (0, 0), 0, 0, 1, 0, 0),
    "zoe": (1, 0, (1, 0), (0, 0), (0, 0), 1, 1, (0, 1), (1, 0), (0, 0), 0, 1, 0, 0, 0),
}


@pytest.mark.parametrize("key", sorted(BY_HAND))
def test_every_figure_of_every_player_is_the_count_by_hand(result, key):
    (games, wins, liberal, fascist, hitler, president, chancellor, enacted, votes, shots,
     prods, lapses, came_in, left, removed) = BY_HAND[key]
    got = figures(result, key)
    assert (got["games"], got["wins"]) == (games, wins)
    for team, (g, w) in (("liberal", liberal), ("fascist", fascist), ("hitler", hitler)):
        assert (got[team]["games"], got[team]["wins"]) == (g, w), team
    assert (got["elected_president"], got["elected_chancellor"]) == (president, chancellor)
    assert tuple(got["enacted_as_chancellor"].values()) == enacted
    assert (got["vote_accuracy"]["votes"], got["vote_accuracy"]["accurate"]) == votes
    assert (got["shot_accuracy"]["shots"], got["shot_accuracy"]["accurate"]) == shots
    assert (got["prods"], got["lapses"], got["replaced_in"], got["replaced_out"],
            got["removed"]) == (prods, lapses, came_in, left, removed)


def test_the_folder_totals_and_names_by_hand(result):
    assert result.logs == 3 and result.counted == 3 and not result.left_out
    assert result.to_json()["wins_by_players"] == {"5": {"games": 3, "Liberals": 1,
                                                         "Fascists": 2}}
    assert result.by_how == {"hitler_elected": 2, "liberal_policies": 1}
    # Ann and ANN, Zoë and zoe are one player each; the name shown is the latest game's
    assert result.careers["ann"].name == "ANN" and result.careers["zoe"].name == "Zoë"
    assert (result.careers["ann"].first, result.careers["ann"].last) == (
        "2026-01-10T20:00:00Z", "2026-03-10T20:00:00Z")
    assert result.careers["dan"].to_json()["by_players"] == {
        "5": {"games": 2, "wins": 1, "win_rate": 0.5}}
    assert result.careers["bob"].to_json()["by_how"] == {
        "hitler_elected": {"games": 2, "wins": 1, "win_rate": 0.5},
        "liberal_policies": {"games": 1, "wins": 0, "win_rate": 0.0}}


def test_a_replaced_seat_shares_the_game_by_acts():
    t = game_two()
    parts = played.parts(t.state)
    dan, fay = (p for p in parts if p.seat == 3)
    # rounds 1-2 (a nomination, five votes, a discard, an enactment each) of five rounds
    assert (dan.name, dan.share, dan.left, dan.came_in) == ("Dan", 16 / 40, True, False)
    assert (fay.name, fay.share, fay.left, fay.came_in) == ("Fay", 24 / 40, False, True)
    assert all(p.share == 1.0 for p in parts if p.seat != 3)


def test_vote_accuracy_follows_secret_hitler_io():
    """From the Hitler zone (3 Fascist policies before the vote) a government with a
    Fascist-team President or Hitler as Chancellor is dangerous; from the veto zone (5)
    any Fascist-team member makes it so. A Liberal's Nein on a dangerous government is
    accurate, a Ja is not; Fascists' votes and other governments are not counted; shot
    accuracy counts a Liberal President's executions that hit the Fascist team."""
    t = Table(head(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], "Gus", ["Eve", "Fay"],
                   "FFL" * 5, AT), forum=True)
    t.session("Eve", "F", "F")                # F0: Ann + Eve (below the Hitler zone)
    t.session("Cat", "F", "F")                # F1: Bob + Cat, investigation
    t.power(INVESTIGATE, "Ann")
    t.session("Eve", "F", "F")                # F2: Cat + Eve, special election
    t.power(SPECIAL, "Dan")
    t.session("Fay", "F", "F")                # F3: Dan + Fay (a Fascist, not Hitler): safe
    t.power(EXECUTE, "Ann")                   # a Liberal's shot that missed
    t.fail("Cat")                             # F4: Dan + Cat, all Nein: Liberals only
    t.elect("Bob", {"Bob": True, "Cat": False, "Dan": False, "Eve": True, "Fay": True,
                    "Gus": True})             # F4: Eve (Fascist President) + Bob: dangerous
    t.discard("F")
    t.enact("F")
    _reshuffle_if_due(t)
    t.power(EXECUTE, "Fay")                   # a Fascist's shot: not counted
    t.elect("Dan", {"Bob": False, "Cat": False, "Dan": True, "Eve": True,
                    "Gus": True})             # F5: Gus (Hitler) + Dan: dangerous
    assert t.game.winner is None
    parts = {p.name: p for p in played.parts(t.state)}
    votes = {name: (p.votes, p.good_votes) for name, p in parts.items()}
    assert votes == {"Ann": (0, 0), "Bob": (2, 1), "Cat": (2, 2), "Dan": (2, 1),
                     "Eve": (0, 0), "Fay": (0, 0), "Gus": (0, 0)}
    shots = {name: (p.shots, p.good_shots) for name, p in parts.items() if p.shots}
    assert shots == {"Dan": (1, 0)}


def _reshuffle_if_due(t: Table) -> None:
    if t.game.phase == "reshuffle":
        t.reshuffle()


def test_the_veto_zone_makes_a_fascist_chancellor_dangerous():
    t = Table(head(["Ann", "Bob", "Cat", "Dan", "Eve"], "Eve", ["Dan"], "FFL" * 5, AT), forum=True)
    t.session("Bob", "F", "F")                # Ann + Bob
    t.session("Cat", "F", "F")                # Bob + Cat
    t.session("Dan", "F", "F")                # Cat + Dan: peek
    t.power("peek")
    t.session("Ann", "F", "F")                # F3: Dan (Fascist) + Ann, all Ja: dangerous
    t.power(EXECUTE, "Cat")
    t.elect("Bob", {"Ann": False, "Bob": True, "Dan": True, "Eve": True})  # F4: Eve (Hitler)
    t.discard("F")
    t.enact("F")
    _reshuffle_if_due(t)
    t.power(EXECUTE, "Bob")
    t.elect("Dan", {"Ann": True, "Dan": True, "Eve": True})  # F5: Ann + Dan (Fascist)
    parts = {p.name: p for p in played.parts(t.state)}
    votes = {name: (p.votes, p.good_votes) for name, p in parts.items()}
    assert votes == {"Ann": (3, 1), "Bob": (2, 0), "Cat": (1, 0), "Dan": (0, 0),
                     "Eve": (0, 0)}
    assert all(p.shots == 0 for p in parts.values())


def test_a_custom_game_counts_no_accuracy(tmp_path):
    t = game_three()
    t.header["custom"] = {"hitler_zone": 3}
    path = write(tmp_path, "custom.yaml", t)
    got = collect([path]).careers["dan"].to_json()
    assert got["games"] == 1 and got["lapses"] == 1
    assert got["vote_accuracy"]["votes"] == got["shot_accuracy"]["shots"] == 0


def test_names_fold_case_spaces_and_accents():
    assert fold("  Zoë   Smith ") == fold("ZOE SMITH") == "zoe smith"
    assert fold("Ångström") == "angstrom" and fold("STRASSE") == fold("straße")


def test_aliases_rename_players_across_games(folder, tmp_path):
    aliases = tmp_path / "aliases.txt"
    aliases.write_text("# players who changed names\nFay = Zoe\n\n  # later:\nzoë=Zed\n")
    got = collect(sorted(str(p) for p in folder.rglob("*.yaml")), Aliases.read(str(aliases)))
    assert "fay" not in got.careers and "zoe" not in got.careers
    zed = got.careers["zed"].to_json()  # Fay in game two, Zoë in game three
    assert (zed["games"], zed["wins"], zed["replaced_in"], zed["lapses"]) == (2, 1, 1, 1)
    assert zed["name"] == "Zoë"  # as written in the latest game


@pytest.mark.parametrize(("text", "error"), [
    ("Ann", "aliases.txt:1: an alias is OLD=NEW"),
    ("=Bob", "aliases.txt:1: an alias is OLD=NEW"),
    ("Ann=Bob\nBob=Cat\nCat=ANN\n", "aliases.txt:1: the aliases go round in a circle: ann = bob = cat = ann"),
    ("Ann=Bob\nann=Cat\n", "aliases.txt:2: 'ann' already has an alias (line 1)"),
])
def test_a_bad_alias_file_is_one_line_naming_its_line(tmp_path, text, error):
    path = tmp_path / "aliases.txt"
    path.write_text(text)
    with pytest.raises(BadInput) as caught:
        Aliases.read(str(path))
    assert str(caught.value).startswith(str(tmp_path / error))


def test_an_alias_may_name_a_player_with_a_hash(tmp_path):
    aliases = tmp_path / "aliases.txt"
    aliases.write_text("A|B #1 = AB\n")
    assert Aliases.read(str(aliases)).key("a|b  #1") == "ab"


def test_two_seats_that_fold_to_one_player_leave_the_game_out(folder, tmp_path):
    aliases = tmp_path / "aliases.txt"
    aliases.write_text("Bob=Cat\n")
    got = collect(sorted(str(p) for p in folder.rglob("*.yaml")), Aliases.read(str(aliases)))
    assert got.counted == 0 and len(got.left_out) == 3
    assert all(o.reason == "two seats are one player once case, accents, look-alike letters "
               "and aliases are folded: Bob, Cat" for o in got.left_out)


def test_a_copied_log_is_counted_once_and_named(folder, tmp_path):
    copy = tmp_path / "copy.yaml"
    shutil.copy(folder / "a.yaml", copy)
    paths = sorted(str(p) for p in folder.rglob("*.yaml"))
    got = collect([*paths, str(copy)])
    assert got.counted == 3 and [(o.path, o.reason) for o in got.left_out] == [
        (str(copy), f"the same log as {folder / 'a.yaml'}, byte for byte: counted once")]


def test_since_keeps_a_season_and_its_ratings(folder):
    paths = sorted(str(p) for p in folder.rglob("*.yaml"))
    got = collect(paths, since=forum_stats.since_time("2026-02-01"))
    assert got.counted == 2 and got.before == 1
    assert figures(got, "ann")["games"] == 2
    only = collect([str(folder / "a.yaml"), str(folder / "2026" / "b.yaml")])
    assert {k: c.rating for k, c in got.careers.items()} == {
        k: c.rating for k, c in only.careers.items()}


def test_ratings_are_openskills_plackett_luce_with_the_sides_advantage(folder):
    """Game one by hand: one five-player game, won by the Fascists, so the Liberals' base
    rate at five is (0 + 1) / (1 + 2) = 1/3 and their advantage c ln(1/2); every seat is
    a newcomer (mu 25 - 25 = 0 above a newcomer's), the Liberals' seats share the
    advantage."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    sigma = model.sigma
    c = math.sqrt(5 * (sigma ** 2 + model.tau ** 2) + 2 * model.beta ** 2)
    shift = c * math.log((1 / 3) / (2 / 3)) / 3
    liberals = [model.rating(mu=shift, sigma=sigma) for _ in range(3)]
    fascists = [model.rating(mu=0, sigma=sigma) for _ in range(2)]
    (ann, bob, cat), (dan, eve) = model.rate([liberals, fascists], ranks=[1, 0])
    first = collect([str(folder / "c.yaml")])  # game one: the Fascists won
    assert first.bases[5].to_json() == {"games": 1, "liberal_wins": 0,
                                        "liberal_base_rate": 0.3333}
    for key, want, offset in zip(("ann", "bob", "cat", "dan", "eve"),
                                 (ann, bob, cat, dan, eve), (25 - shift,) * 3 + (25,) * 2):
        got = first.careers[key].rating
        assert got.mu == pytest.approx(want.mu + offset) and got.sigma == want.sigma
    # the side ratings: the Liberals' Liberal ratings against the Fascists' Fascist ones;
    # overall, with games on one side only, that side's rating
    assert first.careers["ann"].liberal_rating == first.careers["ann"].rating
    assert first.careers["ann"].fascist_rating is None
    assert first.careers["dan"].liberal_rating is None
    assert first.careers["dan"].fascist_rating == first.careers["dan"].rating


def test_a_replaced_seat_is_rated_as_its_occupants_mixed_by_share():
    from openskill.models import PlackettLuce

    from shmod.audit.ratings import Rating, _update

    model = PlackettLuce()
    table = [Rating(30, 5), Rating(20, 7), *(Rating(model.mu, model.sigma) for _ in range(4))]
    match = Match(("", "x"), True, (((0, 0.25), (1, 0.75)), 2), (3, 4, 5))
    _update(model, table, table, match, 0.5)  # an even base rate: no advantage
    seat_mu, seat_sigma = 0.25 * 30 + 0.75 * 20, math.sqrt(0.25 * 25 + 0.75 * 49)
    new = model.rate([[model.rating(seat_mu - 25, seat_sigma), model.rating(0)],
                      [model.rating(0) for _ in range(3)]], ranks=[0, 1])
    for team in new:
        for rating in team:
            rating.mu += 25
    change, factor = new[0][0].mu - seat_mu, new[0][0].sigma ** 2 / seat_sigma ** 2
    assert table[0].mu == pytest.approx(30 + 0.25 * change)
    assert table[1].mu == pytest.approx(20 + 0.75 * change)
    assert table[0].sigma == pytest.approx(5 * math.sqrt(1 - 0.25 * (1 - factor)))
    assert table[1].sigma == pytest.approx(7 * math.sqrt(1 - 0.75 * (1 - factor)))
    assert (table[2].mu, table[2].sigma) == (new[0][1].mu, new[0][1].sigma)  # whole game
    assert (table[3].mu, table[3].sigma) == (new[1][0].mu, new[1][0].sigma)


def test_ratings_do_not_depend_on_the_order_games_are_read(folder):
    paths = sorted(str(p) for p in folder.rglob("*.yaml"))
    forward, backward = collect(paths), collect(paths[::-1])
    def everything(got):
        return json.dumps(sorted((c.to_json() for c in got.careers.values()),
                                 key=lambda c: c["key"]), sort_keys=True)

    assert everything(forward) == everything(backward)
    assert forward.careers["ann"].rating != forward.careers["bob"].rating


def test_the_tracked_player_gets_every_game_and_a_rating_after_each(folder):
    paths = sorted(str(p) for p in folder.rglob("*.yaml"))
    got = collect(paths, player="DAN")
    assert [(r.game.created[:10], r.part.role, forum_stats.result(r.game, r.part))
            for r in got.rows] == [("2026-01-10", "fascist", "won"),
                                   ("2026-02-10", "liberal", "replaced"),
                                   ("2026-03-10", "liberal", "lost")]
    assert [r.rating for r in got.rows] == [p.overall for p in got.history]
    assert got.rows[-1].rating == got.careers["dan"].rating
    ratings = rate(got.matches, len(got.careers), [got.careers["dan"].number])
    assert ratings.history[got.careers["dan"].number] == got.history
