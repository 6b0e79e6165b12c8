"""The rules as the thread, the PMs and the log say them, over scripted games at a forum's
table (the game's own rule tests, test_rules_*.py, run on the game floor alone): the next
Presidential Candidate on the board while a Special Election is pending (R-SPECIAL), the
secret veto vote's PMs and the prods that offer a veto (R-VETO), and a seeded reshuffle out
of the seed's order reported at its line of the log (R-RESHUFFLE)."""
import random
from datetime import UTC, datetime

import pytest
from test_rules_powers import seven_to_special
from test_rules_veto import to_enact, vetoable

from shmod.audit.random_games import random_game
from shmod.base.errors import LogError
from shmod.game.steps import Reshuffle
from shmod.game.terms import SPECIAL
from shmod.log import store
from shmod.texts import formats, forum_texts, game_texts as texts, views
from shmod.texts.formats import Plain
from shmod.texts.messages import pm_text


def test_board_names_no_next_candidate_while_a_special_election_is_pending():
    """R-SPECIAL: while the President holds the power, the next candidate is theirs to pick."""
    t = seven_to_special(forum=True)
    view = views.public_view(t.state)
    assert view.next_president is None
    board = texts.board_text(view, formats.get("markdown"))  # a line unfolded
    assert "Next Presidential Candidate: chosen by Special Election" in board
    t.power(SPECIAL, "Fay")
    t.elect("Ann")
    assert views.public_view(t.state).next_president == "Dan"


def test_secret_vote_president_pm_does_not_name_the_chancellors_choice():
    t = vetoable("LFF", forum=True, variants={"veto": "secret-vote"})
    to_enact(t, "Bob", "F")
    t.enact("F")
    said = {x.to: pm_text(x, Plain()) for x in t.state.secrets[-2:]}
    assert said["Ann"] == ("You passed the Chancellor Liberal, Fascist. The Chancellor has "
                           "chosen one to enact. Vote in secret: Ja to veto both policies, "
                           "Nein to let the Chancellor's choice stand. The veto needs both Ja.")
    assert said["Bob"].startswith("The Chancellor has chosen to enact Fascist from Liberal, "
                                  "Fascist.")


def test_prod_offers_a_veto_only_while_one_may_be_proposed():
    """R-VETO: not after the President refused it this session, nor under veto=secret-vote."""
    def prod_to_chancellor(t):
        [(to, text)] = forum_texts.prods(views.public_view(t.state), Plain(), datetime.now(UTC))
        assert to == t.chancellor
        return text

    t = vetoable("LFF", forum=True)
    to_enact(t, "Bob", "F")
    assert "or a veto proposal" in prod_to_chancellor(t)
    t.veto("propose")
    t.veto("refuse")
    assert "veto" not in prod_to_chancellor(t)
    t = vetoable("LFF", forum=True, variants={"veto": "secret-vote"})
    to_enact(t, "Bob", "F")
    assert "veto" not in prod_to_chancellor(t)


def test_reshuffle_out_of_seed_order_in_a_log_is_reported_at_its_line(tmp_path):
    sim = next(s for s in (random_game(5, random.Random(n)) for n in range(40))
               if any(isinstance(step, Reshuffle) for step in s.steps))
    index = next(i for i, s in enumerate(sim.steps) if isinstance(s, Reshuffle))
    right = sim.steps[index].deck
    wrong = tuple(sorted(right))
    wrong = wrong if wrong != right else wrong[::-1]
    steps = list(sim.steps)
    steps[index] = Reshuffle(deck=wrong)
    path = tmp_path / "g.yaml"
    text = store.log_text(sim.header, steps, at="2026-01-01T00:00:00Z")
    path.write_text(text)
    line = text.splitlines().index("log:") + 2 + index
    with pytest.raises(LogError, match=rf"g\.yaml:{line}: entry {index + 1}: R-RESHUFFLE: .*order the seed gives") as err:
        store.load(str(path))
    assert err.value.rule == "R-RESHUFFLE"
