"""The fair-setup commitment (docs/verify.md, docs/audit.md): the exact bytes, and
verification."""
import hashlib
import json
import random

import pytest

from shmod.audit import log_audit
from shmod.audit.random_games import random_game
from shmod.base.errors import BadInput
from shmod.base.records import replace
from shmod.forum import commitment
from shmod.forum.events import Started
from shmod.forum.log_formats import FORMATS
from shmod.forum.setup import new_header, parse_setup
from shmod.log import logfile, signing
from shmod.log.store import load, log_text, new_game

AT = "2026-01-01T00:00:00Z"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Zoë"]


#: RFC 8032's first Ed25519 test key pair (private, public): a key anyone can check.
KEYS = ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")


def setup(seed="s1", salt="00ff"):
    return parse_setup(new_header(PLAYERS, seed=seed, salt=salt, created=AT, keys=KEYS))


def _bytes(s, version: int) -> bytes:
    return (
        f'shmod-commitment {version}\n'
        'players "Ann" "Bob" "Cy" "Dee" "Zoë"\n'
        f'first_president "{PLAYERS[s.first]}"\n'
        'variants eva_braun=off first_president=random rebalanced=off term5=alive '
        'tracker_reset=enactment veto=rulebook\n'
        f'roles {" ".join(s.roles)}\n'
        f'deck {"".join(s.deck)}\n'
        'seed "s1"\n'
        'salt "00ff"\n'
    ).encode()


def test_the_bytes_are_the_documented_ones():
    s = setup()
    assert s.format.number == 5 and s.seed_source == "supplied"
    expected = (_bytes(s, 5) + f'moderator_key "{KEYS[1]}"\n'.encode()
                + b"seed_source supplied\n" + b"first_chosen false\n")
    assert commitment.canonical_bytes(s) == expected
    assert commitment.commitment(s) == hashlib.sha256(expected).hexdigest()
    assert signing.public_key(KEYS[0]) == KEYS[1]
    # Format 5 frames who chose the seed, and whether the moderator chose the first
    # President (issue 45): another answer is another commitment.
    drawn = replace(s, seed_source="drawn")
    assert commitment.canonical_bytes(drawn) == expected.replace(b"supplied", b"drawn")
    chosen = replace(s, first_chosen=True)
    assert commitment.canonical_bytes(chosen) == expected.replace(b"chosen false",
                                                                  b"chosen true")
    # Logs of formats 2 to 4 have the same lines under their version, without the seed's
    # source: the version pins the format (its words deal and lapse draws), so one
    # commitment cannot serve two.
    expected = _bytes(s, 4) + f'moderator_key "{KEYS[1]}"\n'.encode()
    for form in (2, 3, 4):
        other = replace(s, format=FORMATS[form])
        assert commitment.canonical_bytes(other) == expected.replace(b"commitment 4",
                                                                     f"commitment {form}".encode())
        assert commitment.commitment(other) != commitment.commitment(s)
    # A log of format 1 (an earlier shmod) keeps version 1, byte for byte: no key line.
    old = replace(s, format=FORMATS[1], moderator_key=None, signing_key=None)
    assert commitment.canonical_bytes(old) == _bytes(s, 1)
    assert commitment.commitment(old) == \
        "9c210a0001e8730783dee37bfee1a9e1ac876bc809b99fca194ed4febfd590c2"  # as before format 2


def test_the_key_is_committed_and_a_keyless_header_says_so():
    s = setup()
    other = replace(s, moderator_key="00" * 32)
    assert "not the one committed" in commitment.verify(other, commitment.commitment(s))
    keyless = parse_setup(new_header(PLAYERS, seed="s1", salt="00ff", created=AT))
    assert commitment.canonical_bytes(keyless).endswith(
        b'salt "00ff"\nmoderator_key none\nseed_source supplied\nfirst_chosen false\n')


def test_unchanged_setup_verifies_and_any_change_fails():
    s = setup()
    hex_ = commitment.commitment(s)
    assert commitment.verify(s, hex_.upper()) is None
    roles = list(s.roles)
    other = next(i for i, r in enumerate(roles) if r != roles[0])
    roles[0], roles[other] = roles[other], roles[0]
    for changed in (replace(s, roles=tuple(roles)),
                    replace(s, seed="s2"),
                    replace(s, salt="00fe"),
                    replace(s, deck=s.deck[1:] + s.deck[:1]),
                    setup(seed="s2")):
        assert "not the one committed" in commitment.verify(changed, hex_)


def test_malformed_commitment_is_refused():
    with pytest.raises(BadInput, match="64 hexadecimal digits"):
        commitment.parse_hex("abc")


@pytest.mark.parametrize("typed", ["{h8}…", "{h8}...", "{h8}", "{h63}"])
def test_a_prefix_of_the_commitment_is_refused_with_why(run, tmp_path, typed):
    path = str(tmp_path / "g.yaml")
    full = new_game(path, PLAYERS, seed="s1", created=AT).setup.commitment
    assert full is not None
    typed = typed.format(h8=full[:8], h63=full[:63])
    digits = len(typed.rstrip(".…"))
    code, out, err = run("audit", path, "-c", typed)
    assert code == 2 and out == ""
    assert err.startswith(f"Error: a commitment is all 64 hexadecimal digits (SHA-256), as "
                          f"`shmod new` printed it; {typed!r} has only {digits}. A prefix is "
                          f"not accepted: a setup whose commitment starts with the same digits "
                          f"can be found by trying many setups")
    assert run("audit", path, "-c", full)[0] == 0
    assert commitment.parse_hex(full.upper()) == full


def test_new_game_publishes_the_commitment_in_its_start_event(tmp_path):
    game = new_game(str(tmp_path / "g.yaml"), PLAYERS, seed="s1", created=AT)
    start = game.table.public[0]
    assert isinstance(start, Started)
    assert start.commitment == commitment.commitment(game.setup)
    again = load(str(tmp_path / "g.yaml")).table.public[0]
    assert isinstance(again, Started) and again.commitment == start.commitment


def test_audit_checks_a_rewritten_game_against_the_commitment():
    """A moderator who redeals and rewrites the whole log keeps a valid chain and legal
    steps, but cannot match the commitment posted at the start."""
    rng = random.Random(5)
    played = random_game(7, rng)
    rewritten = random_game(7, rng)
    posted = commitment.commitment(parse_setup(played.header))
    for sim, ok in ((played, True), (rewritten, False)):
        log = logfile.parse("g.yaml", log_text(sim.header, sim.steps, at=AT).encode())
        report = log_audit.audit_log(log, posted)
        assert report.commitment_ok is ok
        assert report.valid is ok
        if not ok:
            assert [p.kind for p in report.problems] == ["commitment"]


def test_the_example_in_the_docs_is_right():
    """The printf of docs/verify.md's worked example hashes to the commitment it gives,
    docs/audit.md shows the same lines and commitment, and shmod commits to exactly those
    lines for that header."""
    import re
    import shlex
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    doc = (docs / "verify.md").read_text()
    printf = re.search(r"printf '%s\\n' (.*?) \| sha256sum", doc, re.S)
    assert printf
    lines = shlex.split(printf.group(1).replace("\\\n", " "))
    text = "".join(line + "\n" for line in lines).encode()
    claimed = re.search(r"For this example the commitment is\s+`([0-9a-f]{64})`", doc)
    assert claimed and hashlib.sha256(text).hexdigest() == claimed.group(1)
    values = dict(line.split(" ", 1) for line in lines)
    header = {
        "shmod": 4, "created": AT, "players": PLAYERS, "first_president": "Ann",
        "variants": dict(v.split("=") for v in values["variants"].split()),
        "moderator_key": json.loads(values["moderator_key"]),
        "secret": {"seed": json.loads(values["seed"]), "salt": json.loads(values["salt"]),
                   "roles": dict(zip(PLAYERS, values["roles"].split())),
                   "deck": list(values["deck"])},
    }
    assert commitment.canonical_bytes(parse_setup(header)) == text
    shown = (docs / "audit.md").read_text()
    assert text.decode() in shown and claimed.group(1) in shown


def test_a_custom_setup_is_committed_too():
    plain = setup()
    custom = replace(plain, custom={"deck": {"liberal": 7, "fascist": 11}})
    assert b'\ncustom {"deck":{"fascist":11,"liberal":7}}\n' in commitment.canonical_bytes(custom)
    assert commitment.commitment(custom) != commitment.commitment(plain)


# -- issue 45: a chosen first President is said in the log (format 5) -----------------


def test_a_chosen_first_president_is_said_and_committed():
    chosen = new_header(PLAYERS, seed="s1", salt="00ff", created=AT, first="Cy")
    assert chosen["first_chosen"] is True and chosen["first_president"] == "Cy"
    assert parse_setup(chosen).first_chosen
    assert b"first_chosen true\n" in commitment.canonical_bytes(parse_setup(chosen))
    drawn = new_header(PLAYERS, seed="s1", salt="00ff", created=AT)
    seat1 = new_header(PLAYERS, seed="s1", salt="00ff", created=AT, first="Ann",
                       variants=["first_president=seat1"])
    words = new_header(PLAYERS, seed="s1", salt="00ff", created=AT, deal_by="players")
    for header in (drawn, seat1, words):
        assert "first_chosen" not in header
        assert not parse_setup(header).first_chosen
    assert new_header(PLAYERS, seed="s1", salt="00ff", created=AT, first="Bob",
                      deal_by="players")["first_chosen"] is True
    # the header shmod writes reads back with it (shmod new compares the two)
    text = log_text({**chosen, "commitment": commitment.commitment(parse_setup(chosen))}, [],
                    at=AT)
    assert "\nfirst_chosen: true" in text
    assert logfile.parse("g.yaml", text.encode()).header["first_chosen"] is True


def test_a_first_president_nobody_said_was_chosen_must_be_the_seeds():
    """R-FIRST: without first_chosen, a moderator cannot quietly pick the first President
    of a format-5 game: the header must name the seed's draw (a cheater's search over every
    seat finds one only)."""
    drawn = new_header(PLAYERS, seed="s1", salt="00ff", created=AT)
    accepted = []
    for name in PLAYERS:
        header = {**drawn, "first_president": name}
        try:
            parse_setup(header)
            accepted.append(name)
        except BadInput as err:
            assert "R-FIRST" in str(err) and "first_chosen: true" in str(err)
        parse_setup({**header, "first_chosen": True})  # said: accepted
    assert accepted == [drawn["first_president"]]
    words = new_header(PLAYERS, seed="s1", salt="00ff", created=AT, deal_by="players")
    with pytest.raises(BadInput, match="R-FIRST"):
        parse_setup({**words, "first_president": "Bob"})
    for bad in ("yes", 1, "true"):
        with pytest.raises(BadInput, match="first_chosen must be true"):
            parse_setup({**drawn, "first_chosen": bad})
    with pytest.raises(BadInput, match="first_chosen is a field of log format 5"):
        parse_setup({**drawn, "shmod": 4, "seed_source": None, "first_chosen": True})


def test_the_audit_lists_the_first_presidents_draw_unless_chosen(tmp_path):
    for first, listed in ((None, True), ("Dee", False)):
        path = tmp_path / f"{first}.yaml"
        new_game(str(path), PLAYERS, first=first, created=AT)
        draws = log_audit.audit_file(str(path)).to_json()["draws"]
        found = [d for d in draws if d["what"] == "first President"]
        assert bool(found) == listed
        if listed:
            header = logfile.parse(str(path), path.read_bytes()).header
            assert found[0]["entry"] is None
            assert PLAYERS[found[0]["value"] - 1] == header["first_president"]
