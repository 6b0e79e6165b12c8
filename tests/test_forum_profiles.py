"""Issue 20 §1: posts that render on the reader's forum.

Every kind of text shmod prints (the opening post and every event of a game, whole posts,
whose-move notes, the board, deadline, replacement and correction posts, prods, every PM,
the rules card, the history and the reveal), from whole games, in every output profile,
is read back by a parser configured like that profile's forum engine: phpBB's default
BBCodes (plus the custom ``[spoiler]`` for ``phpbb-spoiler``), XenForo's built-in BB
codes, Discourse's Markdown (CommonMark with its tables, hard line breaks and a model of
its ``[details=…]`` block rule), CommonMark for ``markdown``. Unknown tags stay literal, so
a tag the engine lacks shows up as text. The checks are about structure: no markup left
unrendered, headings are headings, every list ends where it should, a spoiler holds the
reveal and nothing else, tables have a row per election and a column per seat, and no
@mention where the engine notifies them. Then the profiles as a moderator chooses them:
``-f``, ``SHMOD_FORMAT`` and the game's ``forum`` header field (``shmod new --forum``).
"""
from __future__ import annotations

import html
import random
import re
import secrets
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import bbcode
import pytest
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from thread_example import EXAMPLE

from shmod.audit.random_games import random_game
from shmod.forum import deadlines, engine
from shmod.forum.events import Started
from shmod.forum.setup import new_header, parse_setup, start
from shmod.forum.steps import (
    Backup,
    Correct,
    Delivered,
    Lapse,
    Posted,
    Prod,
    Remove,
    Rename,
    Replace,
    SetDeadline,
    Word,
)
from shmod.forum.table import Table as State
from shmod.forum.turns import legal_steps
from shmod.game.events import Drawn, Enacted, GameOver, Handed, PeekResult, Tallied
from shmod.game.steps import Step, Vote
from shmod.game.terms import NOMINATE, OVER
from shmod.log import signing, store
from shmod.log.references import References
from shmod.log.store import chained
from shmod.texts import (
    forum_texts,
    game_texts,
    messages,
    replay_frames,
    replay_post,
    thread_posts,
    views,
)
from shmod.texts.formats import FORMATS, Plain
from shmod.texts.history import elections, history_text
from shmod.texts.reveal import reveal_text

PROFILES = list(FORMATS)
BB_PROFILES = ["bbcode", "phpbb", "phpbb-spoiler", "xenforo"]
MD_PROFILES = ["markdown", "discourse"]
#: Profiles for engines that turn "@name" into a mention that notifies.
MENTIONING = ["discourse", "xenforo"]
HOSTILE = ["[b]Bo[/b]", "*Star*", "@Vorret", "A|B #1", "Ann [url]x", "Eve_"]
WORDS = ["hi @all", "x [b]x", "a *y* b", "plain", "no #1"]  # posted for a deal from the players' words (canonical: markup inside)
#: What players typed, shown as typed: never read as markup.
TYPED = {*HOSTILE, *WORDS, "@Newbie"}
TITLE = "The reveal: every role and every policy"


# -- the engines' parsers -----------------------------------------------------------------


def _literal(name: str, options: dict[str, str], value: str) -> str:
    """A tag the engine would not take (a bad option): its text stays, as on the forum."""
    opts = "".join(f"={v}" if k == name else f" {k}={v}" for k, v in options.items())
    return f"[{name}{opts}]{value}[/{name}]"


def _size(low: int, high: int, big_from: int) -> Callable[..., str]:
    def render(name, value, options, parent, context):  # type: ignore[no-untyped-def]
        size = options.get("size", "")
        if not size.isdigit() or not low <= int(size) <= high:
            return _literal(name, options, value)
        kind = "big" if int(size) >= big_from else "small"
        return f'<span class="{kind}">{value}</span>'
    return render


def _list(types: set[str]) -> Callable[..., str]:
    def render(name, value, options, parent, context):  # type: ignore[no-untyped-def]
        kind = options.get("list")
        if kind is not None and kind not in types:
            return _literal(name, options, value)
        return f"<ol>{value}</ol>" if kind else f"<ul>{value}</ul>"
    return render


def _item(name, value, options, parent, context):  # type: ignore[no-untyped-def]
    return f"<li>{value}</li>" if parent and parent.tag_name == "list" else f"[*]{value}"


def _spoiler(titled: bool) -> Callable[..., str]:
    """``[spoiler]`` (and ``[spoiler=title]`` where the engine takes a title)."""
    def render(name, value, options, parent, context):  # type: ignore[no-untyped-def]
        if options and not titled:
            return _literal(name, options, value)
        summary = html.escape(options.get("spoiler", "Spoiler"))
        return f"<details><summary>{summary}</summary>{value}</details>"
    return render


def _bb_parser(extra: dict[str, Callable[..., str]], *, size: Callable[..., str],
               lists: set[str], tables: bool = False) -> bbcode.Parser:
    """A parser that knows exactly these tags; any other stays literal text."""
    parser = bbcode.Parser(install_defaults=False, replace_links=False, replace_cosmetic=False)
    for tag, element in (("b", "strong"), ("i", "em"), ("u", "u")):
        parser.add_simple_formatter(tag, f"<{element}>%(value)s</{element}>")
    parser.add_formatter("color", lambda n, v, o, p, c: f'<span class="color">{v}</span>')
    parser.add_formatter("size", size)
    parser.add_formatter("list", _list(lists), transform_newlines=False, strip=True,
                         swallow_trailing_newline=True)
    parser.add_formatter("*", _item, newline_closes=True, transform_newlines=False,
                         same_tag_closes=True, strip=True)
    parser.add_simple_formatter("quote", "<blockquote>%(value)s</blockquote>", strip=True,
                                swallow_trailing_newline=True)
    parser.add_simple_formatter("code", "<pre>%(value)s</pre>", render_embedded=False,
                                transform_newlines=False, swallow_trailing_newline=True,
                                replace_cosmetic=False)
    for tag in ("url", "email", "img"):
        parser.add_simple_formatter(tag, "<a>%(value)s</a>", replace_links=False)
    if tables:
        for tag in ("table", "tr", "th", "td"):
            parser.add_simple_formatter(tag, f"<{tag}>%(value)s</{tag}>")
    for tag, render in extra.items():
        parser.add_formatter(tag, render)
    return parser


#: phpBB 3.3 as installed (phpbb/textformatter/s9e/factory.php, default_definitions):
#: b, i, u, color, size (a percentage, 1 to max_post_font_size = 200), list (1, a, A, i,
#: I), *, quote, code, url, email, img; attachment and flash need an upload or a board
#: switch. No s, center, spoiler, table.
PHPBB = _bb_parser({}, size=_size(1, 200, 101), lists={"1", "a", "A", "i", "I"})
PHPBB_SPOILER = _bb_parser({"spoiler": _spoiler(titled=False)}, size=_size(1, 200, 101),
                           lists={"1", "a", "A", "i", "I"})
#: XenForo 2's built-in BB codes: size 1 to 7 (4 the text's own), [SPOILER] with or
#: without a title, [TABLE], and more shmod does not write (s, font, center, plain, …).
XENFORO = _bb_parser({"spoiler": _spoiler(titled=True), "s": lambda n, v, o, p, c: f"<s>{v}</s>"},
                     size=_size(1, 7, 5), lists={"1"}, tables=True)
#: The generic profile: the stock tags, no [spoiler] (docs/posts.md; issue 33 §3: a
#: board without one showed ``[spoiler=…]`` as text and hid nothing).
GENERIC_BB = _bb_parser({}, size=_size(1, 200, 101), lists={"1", "a", "A", "i", "I"})


def _details(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Discourse's block BBCode rule (discourse-markdown-it bbcode-block.js), for
    ``[details=…]``: the opening tag alone on its line, the content up to a line holding
    only ``[/details]`` parsed as blocks; anything else is left to the other rules."""
    def line(n: int) -> str:
        return state.src[state.bMarks[n] + state.tShift[n]:state.eMarks[n]]

    opening = re.fullmatch(r'\[details(?:="([^"]*)"|=([^\]]*))?\]\s*', line(start_line))
    if not opening:
        return False
    depth, close = 0, None
    for n in range(start_line + 1, end_line):
        text = line(n).strip()
        if re.fullmatch(r"\[details(=[^\]]*)?\]", text):
            depth += 1
        elif text == "[/details]":
            if depth == 0:
                close = n
                break
            depth -= 1
    if close is None:
        return False
    if silent:
        return True
    token = state.push("details_open", "details", 1)
    token.meta = {"title": opening.group(1) or opening.group(2) or ""}
    old_max, state.lineMax = state.lineMax, close
    state.md.block.tokenize(state, start_line + 1, close)
    state.lineMax = old_max
    state.push("details_close", "details", -1)
    state.line = close + 1
    return True


def _discourse() -> MarkdownIt:
    """Discourse's Markdown: CommonMark, tables and strikethrough, a newline a line break
    (traditional_markdown_linebreaks off), its typographer (``enable_markdown_typographer``,
    on by default: ``Moderator's`` shows as ``Moderator\u2019s``, ``--`` as a dash), and the
    [details] block."""
    md = MarkdownIt("commonmark", {"breaks": True, "typographer": True}).enable(
        ["table", "strikethrough", "replacements", "smartquotes"])
    md.block.ruler.after("fence", "details", _details,
                         {"alt": ["paragraph", "reference", "blockquote", "list"]})
    md.add_render_rule("details_open", lambda self, tokens, idx, options, env:
                       f"<details><summary>{html.escape(tokens[idx].meta['title'])}</summary>\n")
    md.add_render_rule("details_close", lambda self, tokens, idx, options, env: "</details>\n")
    return md


DISCOURSE = _discourse()
COMMONMARK = MarkdownIt("commonmark").enable("table")  # GFM tables, as Reddit has them
PARSERS: dict[str, Callable[[str], str]] = {
    "bbcode": GENERIC_BB.format, "phpbb": PHPBB.format, "phpbb-spoiler": PHPBB_SPOILER.format,
    "xenforo": XENFORO.format, "discourse": DISCOURSE.render, "markdown": COMMONMARK.render,
}


def to_html(profile: str, text: str) -> ET.Element:
    return ET.fromstring(f"<root>{PARSERS[profile](text)}</root>")


def flat(node: ET.Element) -> str:
    return "".join(node.itertext())


def shown(node: ET.Element) -> str:
    """What a reader sees: the text, less the invisible word joiner after an "@"."""
    return flat(node).replace("\u2060", "")


def text_nodes(root: ET.Element) -> Iterator[str]:
    """Every run of text outside code blocks (a ``[code]`` grid shows what it holds)."""
    for node in root.iter():
        if node.tag != "pre" and node.text:
            yield node.text
        if node.tail:
            yield node.tail


BB_RESIDUE = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.I)
MD_RESIDUE = re.compile(r"\*\*|(?:^|\n)\s*(?:#{1,6} |[-*] |\d+\. |> )|\[/?details|</?(?:details|summary)>")
MENTION = re.compile(r"(?<![\w@])@\w")


def _heading_texts(profile: str, root: ET.Element) -> list[str]:
    """What the engine shows as headings: h3 in Markdown; in BBCode bold in a bigger
    size (phpBB, XenForo: no heading tag) or bold underlined (generic)."""
    if profile in MD_PROFILES:
        return [flat(h) for h in root.iter("h3")]
    if profile == "bbcode":
        return [flat(s) for s in root.iter("strong") if s.find("u") is not None]
    return [flat(s) for s in root.iter("span")
            if s.get("class") == "big" and s.find("strong") is not None]


# -- the texts of whole games ----------------------------------------------------------


@dataclass
class Text:
    """One text shmod printed, and what its structure must show."""

    kind: str
    text: str
    players: tuple[str, ...] = ()
    data: object = None


def _forum_game() -> tuple[dict[str, object], list[Step]]:
    """Hostile names, house rules, a deadline, a replacement by "@Newbie", a discard
    voided (so the Chancellor's PM is retracted), an enactment voided after it was posted,
    and random play to the end."""
    header = new_header(HOSTILE, seed="profiles", salt="s", created="2026-01-01T00:00:00Z",
                        variants=["veto=secret-vote", "eva_braun=on", "term5=seated"])
    state = start(parse_setup(header))
    rng = random.Random(20)
    steps = _apply(state, [SetDeadline(until="2030-01-01T00:00:00Z", zone="Europe/Berlin")])
    steps += _play(state, rng, lambda s: any(isinstance(ev, Tallied) for ev in s.public))
    seat = next(s for s in state.game.living if s not in (state.game.president, state.game.chancellor))
    steps += _apply(state, [Replace(target=seat, name="@Newbie")])
    steps += _play(state, rng, lambda s: s.game.phase == "enact")
    discard = state.entries  # its PM delivered (issue 40), so the voiding retracts it
    steps += _apply(state, _delivered(header, steps, state, discard))
    steps += _apply(state, [Correct(entries=(discard,), reason="typo")])
    steps += _play(state, rng, lambda s: isinstance(s.public[-1], Enacted))
    enacted = state.entries  # posted, then voided all the same: said loudly
    steps += _apply(state, [Posted(upto=enacted),
                            Correct(entries=(enacted,), reason="wrong card", force=True)])
    return header, steps + _play(state, rng, lambda s: False)


def _dealt_by_words() -> tuple[dict[str, object], list[Step]]:
    """Five players dealt from their words (R-DEAL), words such as "@all" and "[b]x"
    among them, then random play to the end (Policy Peek, Execution). A log of format 3,
    which recorded such words (format 4 records only a-z and 0-9)."""
    from shmod.forum.commitment import commitment

    header = new_header(["Ann", "Bob", "Cat", "Dan", "Eve"], seed="words", salt="s",
                        created="2026-01-01T00:00:00Z", deal_by="players")
    header["shmod"] = 3
    header.pop("seed_source", None)  # a field of format 5 only
    header["commitment"] = commitment(parse_setup(header))
    state = start(parse_setup(header))
    steps = _apply(state, [Word(by=seat, word=word) for seat, word in enumerate(WORDS)])
    return header, steps + _play(state, random.Random(3), lambda s: False)


def _absences() -> tuple[dict[str, object], list[Step]]:
    """Seven players under every lapse house rule: a name corrected, deadlines that lapse
    (a nomination, votes, a random discard), a prod, a backup, a removal, a deadline
    cleared, then random play to the end."""
    header = new_header(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65",
                        salt="c2a9f04e7b15d38e96a0f1c4b72d5e08", created="2026-01-01T00:00:00Z",
                        variants=["late_vote=nein", "late_nomination=fail",
                                  "late_choice=random"])
    state = start(parse_setup(header))
    rng = random.Random(19)

    def lapse(state: State) -> list[Step]:
        deadline = SetDeadline(until="2026-01-02T00:00:00Z", zone="Europe/Berlin")
        steps = _apply(state, [deadline])
        lapsed = Lapse(deadline=state.entries, at="2026-01-03T00:00:00Z",
                      choice=deadlines.drawn(state, state.entries + 1))
        return steps + _apply(state, [lapsed])

    steps = _apply(state, [Rename(target=2, name="Cato"),
                           Backup(name="@Backup")])
    steps += lapse(state)  # the nomination
    steps += _play(state, rng, lambda s: s.game.phase == "vote")
    steps += _apply(state, [Vote(by=state.game.living[0], vote=True),
                            Prod(target=state.game.living[1])])
    steps += lapse(state)  # the other votes
    steps += _play(state, rng, lambda s: s.game.phase == "discard")
    steps += lapse(state)  # a random discard
    seat = next(s for s in state.game.living if s not in (state.game.president, state.game.chancellor)
                and state.game.roles[s] != "hitler")
    steps += _apply(state, [Remove(target=seat, reason="left the forum"),
                            SetDeadline(until="2027-01-01T00:00:00Z", zone="UTC"),
                            SetDeadline(until="clear", zone="UTC")])
    return header, steps + _play(state, rng, lambda s: False)


def _delivered(header: dict[str, object], steps: list[Step], state: State,
               entry: int) -> list[Step]:
    """A ``delivered`` entry for each PM entry ``entry`` caused, named as the log written
    from ``steps`` names it (shmod.log.references)."""
    players = header["players"]
    assert isinstance(players, list)
    raws, _ = chained(steps, tuple(players), "", "2026-01-01T00:00:00Z")
    of = References(raws).of(entry)
    return [Delivered(of, s.to, s.kind, entry=entry) for s in state.secrets if s.entry == entry]


def _apply(state: State, steps: list[Step]) -> list[Step]:
    for step in steps:
        engine.apply(state, step)
    return steps


def _play(state: State, rng: random.Random, until: Callable[[State], bool]) -> list[Step]:
    """Random legal steps (elections mostly passing) until ``until`` or the end."""
    done = []
    while state.game.phase != OVER and not until(state):
        options = legal_steps(state)
        yes = [s for s in options if isinstance(s, Vote) and s.vote]
        done += _apply(state, [rng.choice(yes if yes and rng.random() < 0.7 else options)])
    return done


def _texts(game: store.Loaded, steps: list[Step], fmt: Plain) -> list[Text]:
    """Every text of a finished game in ``fmt``, as the moderator would have printed it
    along the way: each event, the whole post at each new round, whose move, the prods,
    then the board, the history, every PM, the rules card and the reveal."""
    state = start(game.setup)
    rules_view = views.public_view(state)
    out = [Text("rules", forum_texts.rules_card(rules_view, fmt), state.game.players, rules_view)]
    now, posted, seen = datetime(2031, 1, 1, tzinfo=UTC), 0, 0
    for step in [None, *steps]:
        if step is not None:
            seen = len(state.public)
            engine.apply(state, step)
        view = views.public_view(state)
        out += [Text(type(ev).__name__, messages.post_words(view, ev, fmt) or "", state.game.players, ev)
                for ev in state.public[seen:]]
        out.append(Text("prompt", game_texts.prompt_text(view, fmt) or ""))
        out.append(Text("reminder", forum_texts.reminder(view, fmt, now) or ""))
        sent = {n: views.player_view(state, n).secrets for n in view.waiting_on}
        out += [Text("prods", text) for _, text in forum_texts.prods(view, fmt, now, sent)]
        if state.game.phase in (NOMINATE, OVER) and len(state.public) > posted:
            out.append(Text("post", thread_posts.render(state, state.public[posted:], fmt)))
            posted = len(state.public)
    view = views.public_view(state)
    out.append(Text("board", game_texts.board_text(view, fmt)))
    out.append(Text("history", history_text(view, fmt), state.game.players, view))
    out += [Text(f"pm:{type(s).__name__}", messages.pm_text(s, fmt), data=s)
            for s in state.secrets]
    out.append(Text("reveal", reveal_text(game, fmt), state.game.players, game))
    made = replay_frames.frames(game, reveal=True)  # shmod replay --post: the game in one post
    out.append(Text("replay-post", replay_post.post_text(made, fmt, title="Friday",
                                                          commitment=game.setup.commitment),
                    tuple(name for name, _ in made.roles), made))
    return out


@pytest.fixture(scope="module")
def games_played(tmp_path_factory) -> list[tuple[store.Loaded, list[Step]]]:  # type: ignore[no-untyped-def]
    """Three finished games: the example thread's seven players (chaos, a veto, every
    power of its board, a reshuffle), six hostile names with house rules and the forum's
    steps, and five players dealt from their words."""
    folder = tmp_path_factory.mktemp("profiles")
    players, seed = EXAMPLE
    example = random_game(players, random.Random(seed))
    played = []
    for n, (header, steps) in enumerate([(example.header, example.steps), _forum_game(),
                                         _dealt_by_words(), _absences()]):
        path = folder / f"g{n}.yaml"
        path.write_text(store.log_text(header, steps, at="2026-01-01T00:00:00Z"))
        played.append((store.load(str(path)), steps))
    return played


@pytest.fixture(scope="module")
def corpus(games_played) -> Callable[[str], list[Text]]:  # type: ignore[no-untyped-def]
    """``corpus(profile)``: every text of the three games in that profile."""
    made: dict[str, list[Text]] = {}

    def texts(profile: str) -> list[Text]:
        if profile not in made:
            made[profile] = [t for game, steps in games_played
                             for t in _texts(game, steps, FORMATS[profile]())]
        return made[profile]
    return texts


def test_the_corpus_has_every_kind_of_text(corpus):
    kinds = {t.kind for t in corpus("plain")}
    assert {"Started", "RoundBegan", "Nominated", "Tallied", "Enacted", "Chaos",
            "VetoProposed", "VetoAnswered", "Vetoed", "Reshuffled", "PowerGranted",
            "Investigated", "SpecialElectionCalled", "Peeked", "Executed", "GameOver",
            "DeadlineSet", "Replaced", "Corrected", "Dealt", "Lapsed", "Removed", "Renamed",
            "reminder", "prompt", "prods", "post", "board", "rules", "history",
            "reveal", "replay-post"} <= kinds, kinds
    assert {"pm:RoleSent", "pm:Drawn", "pm:Handed", "pm:InvestigationResult", "pm:PeekResult",
            "pm:ExecutedNotice", "pm:VetoRequested", "pm:Briefing", "pm:Retraction",
            "pm:RemovedNotice", "pm:LapsePlayed"} <= kinds, kinds


# -- the checks ------------------------------------------------------------------------


def _check_common(profile: str, root: ET.Element, names: set[str]) -> None:
    residue = BB_RESIDUE if profile in BB_PROFILES else MD_RESIDUE
    for text in text_nodes(root):
        if profile in MENTIONING:
            assert not MENTION.search(text), (profile, text)
        text = text.replace("\u2060", "")
        for name in sorted(names, key=len, reverse=True):  # a name shows as it is written
            text = text.replace(name, "")
        assert not residue.search(text), (profile, text)
    for item in root.iter("li"):
        assert item.find(".//br") is None and item.find(".//p") is None, (profile, flat(item))
        assert item.find(".//li") is None and "\n" not in flat(item).strip(), (profile, flat(item))


def _powers_of(view: views.PublicView) -> list[str]:
    from shmod.game.terms import POWER_NAMES

    return [f"Fascist policy {n}: {POWER_NAMES[p] if p else 'no power'}"
            for n, p in enumerate(view.powers, 1)] + \
        [f"Fascist policy {view.fascist_win}: the Fascists win"]


def _outside_lists(root: ET.Element, sentence: str) -> None:
    """``sentence`` is shown, and in no list: the list before it has ended."""
    for found in (*root.iter("ul"), *root.iter("ol")):
        assert sentence not in flat(found), sentence
    assert sentence in flat(root)


def _check_kind(profile: str, text: Text, root: ET.Element) -> None:
    kind, heads = text.kind, _heading_texts(profile, root)
    if isinstance(text.data, Started):
        view_players = list(text.players)
        ordered = root.find(".//ol")
        assert ordered is not None and [shown(li) for li in ordered] == view_players
        assert all(li.find("strong") is not None for li in ordered)
        assert heads == [f"Secret Hitler: {len(view_players)} players"]
        powers = root.find(".//ul")
        assert powers is not None and flat(powers[-1]).endswith("the Fascists win")
        _outside_lists(root, "Liberals win with")
    elif isinstance(text.data, Tallied):
        votes = text.data.votes
        ordered = root.find(".//ol")
        assert ordered is not None and len(ordered) == len(votes)
        _outside_lists(root, "were needed.")
    elif isinstance(text.data, GameOver):
        assert len(heads) == 1 and heads[0].startswith("Game over: the ")
    elif kind in ("board", "post") and profile == "xenforo":  # no quote XenForo would fold
        assert not root.findall(".//blockquote") and "<br" in PARSERS[profile](text.text)
        assert "Draw pile: " in flat(root)  # the board's lines, a line each
    elif kind in ("board", "post"):
        quote = root.findall(".//blockquote")[-1]
        assert quote.findall(".//br") and "Draw pile: " in flat(quote)  # one line each
    elif kind == "rules":
        view = text.data
        powers = _powers_of(view)  # type: ignore[arg-type]
        assert heads == [f"Rules for this game: {len(text.players)} players"]
        lists = root.findall(".//ul")
        assert [flat(li) for li in lists[0]] == powers
        house = [v for v in view.variants if v in game_texts.HOUSE_RULES]
        assert len(lists) == (2 if house else 1)
        if house:
            assert len(lists[1]) == len(house)
        for sentence in ("The Liberals win with", "After ", "Send your votes"):
            _outside_lists(root, sentence)
    elif kind == "history":
        _check_history(profile, text, root)
    elif kind == "reveal":
        _check_reveal(profile, text, root)
    elif kind == "replay-post":
        _check_replay_post(profile, text, root)
    elif isinstance(text.data, (Drawn, Handed, PeekResult)):
        cards = text.data.cards
        bold = [flat(s) for s in root.iter("strong") if flat(s) in ("Liberal", "Fascist")]
        assert bold == [{"L": "Liberal", "F": "Fascist"}[c] for c in cards]


def _check_history(profile: str, text: Text, root: ET.Element) -> None:
    """A block a round (issue 33 §3: no table or code box wider than a phone): who, the
    result, then each ballot's voters in seating order, a lapsed vote marked."""
    view = text.data
    rows = elections(view)  # type: ignore[arg-type]
    assert root.find(".//table") is None and root.find(".//pre") is None
    seen = shown(root)
    for name, was in view.replacing:  # type: ignore[attr-defined]  # both names of a seat
        assert f"{was}→{name}" in seen
    for row in rows:
        assert (f"Round {row.round} · President {row.president} · Chancellor "
                f"{row.chancellor} · {row.result}") in seen
        for ballot, label in ((True, "Ja"), (False, "Nein")):
            names = [f"{n} (no vote by the deadline)" if n in row.late else n
                     for n, vote in row.votes if vote is ballot]
            assert f"{label} ({len(names)}): {', '.join(names) or '—'}" in seen, (label, names)


def _check_reveal(profile: str, text: Text, root: ET.Element) -> None:
    game, fmt = text.data, FORMATS[profile]()
    body = _words(flat(to_html(profile, reveal_text(game, fmt, spoiler=False))))  # type: ignore[arg-type]
    hidden = root.findall(".//details")
    if fmt.hides_spoilers:  # the spoiler holds the whole reveal, and nothing is outside it
        assert len(hidden) == 1, profile
        summary = hidden[0].find("summary")
        assert summary is not None and flat(summary) == ("Spoiler" if profile == "phpbb-spoiler" else TITLE)
        assert _words(flat(hidden[0]).replace(flat(summary), "", 1)) == body
        outside = flat(root).replace(flat(hidden[0]), "").strip()
        assert outside == (TITLE if profile == "phpbb-spoiler" else "")
    else:  # phpBB as installed: nothing can hide it, so a warning comes first
        assert not hidden
        warning = f"SPOILER: {TITLE}. Do not read on if you do not want to see it."
        assert _words(flat(root)) == _words(warning) + body


def _check_replay_post(profile: str, text: Text, root: ET.Element) -> None:
    """The game in one post: its heading, a list item per role and per government (with
    its hands), the voting record as the history's table."""
    made = text.data
    assert isinstance(made, replay_frames.Replay)
    assert _heading_texts(profile, root) == ["Friday: the whole game"]
    lists = [flat(li).replace("\u2060", "") for found in (*root.iter("ul"), *root.iter("ol"))
             for li in found]  # the word joiner after an @ (no mention)
    hidden = made.frames[-1].hidden
    assert hidden is not None
    for name, role in made.roles:
        assert f"{name}: {role}" in lists
    for government in hidden.governments:
        assert government.hidden_line() in lists, government.hidden_line()
    view = made.frames[-1].view
    _check_history(profile, Text("history", "", text.players, view), root)
    # issue 33 §3: what is hidden is hidden as the reveal hides it
    secret = [f"{name}: {role}" for name, role in made.roles] + \
        [g.hidden_line() for g in hidden.governments if " > " in g.hidden_line()]
    spoilers = root.findall(".//details")
    if FORMATS[profile].hides_spoilers:
        assert len(spoilers) == 1
        inside, outside = flat(spoilers[0]), flat(root).replace(flat(spoilers[0]), "")
    else:
        assert not spoilers
        outside, inside = flat(root).split(f"SPOILER: {TITLE}. Do not read on", 1)
    assert all(line in inside.replace("\u2060", "") and line not in outside
               for line in secret)


def _words(text: str) -> str:
    """``text`` without its whitespace, for comparing what two renderings show."""
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("profile", [p for p in PROFILES if p != "plain"])
def test_every_text_renders_with_its_structure(profile, corpus):
    checked = 0
    for text in corpus(profile):
        made = text.text
        if not made:
            continue
        root = to_html(profile, made)
        names = TYPED | set(text.players)
        try:
            _check_common(profile, root, names)
            _check_kind(profile, text, root)
        except AssertionError as problem:
            raise AssertionError(f"{profile} {text.kind}: {problem}\n{made}") from None
        checked += 1
    assert checked > 700


def test_plain_text_has_no_markup_and_its_structure(corpus):
    for text in corpus("plain"):
        made = text.text
        bare = made
        for typed in sorted(TYPED, key=len, reverse=True):
            bare = bare.replace(typed, "")
        assert not re.search(r"\[/?[a-z]+\]|\*\*|<[a-z/]", bare), (text.kind, made)
        if text.kind == "rules":
            lines = made.splitlines()
            bullets = [line for line in lines if line.startswith("- ")]
            assert bullets[:len(_powers_of(text.data))] == [f"- {p}" for p in _powers_of(text.data)]  # type: ignore[arg-type]
            assert lines[0] == f"== Rules for this game: {len(text.players)} players =="
        if text.kind == "reveal":
            assert made.startswith(f"SPOILER: {TITLE}. Do not read on")


# -- one test per profile that failed before this issue -----------------------------


def test_markdown_rules_card_list_ends_before_the_next_sentence(run, tmp_path):
    """The repro: `shmod rules -f markdown` made every later sentence part of the last
    Fascist-track item, and the first four lines one paragraph."""
    path = str(tmp_path / "r1.yaml")
    run("new", "A", "B", "C", "D", "E", "--seed", "r1", "--guessable", "-g", path)
    code, out, _ = run("rules", "-f", "markdown", "-g", path)
    root = to_html("markdown", out)
    assert code == 0 and flat(root.findall(".//li")[-1]) == "Fascist policy 6: the Fascists win"
    first = root.find("p")
    assert first is not None and len(first.findall("br")) == 3  # four lines, one paragraph
    _outside_lists(root, "Send your votes")


def test_phpbb_uses_only_its_default_bbcodes_and_says_the_reveal_is_not_hidden(run, tmp_path):
    path = _finished(tmp_path)
    code, out, err = run("reveal", "-f", "phpbb", "-g", path)
    assert code == 0 and "[spoiler" not in out and out.startswith(f"[b]SPOILER: {TITLE}.")
    assert "NOT hidden" in err
    assert not any(BB_RESIDUE.search(t) for t in text_nodes(to_html("phpbb", out)))
    code, out, _ = run("history", "-f", "phpbb", "-g", path, "--grid")
    assert "[table]" not in out and to_html("phpbb", out).find(".//pre") is not None


def test_phpbb_spoiler_hides_the_reveal_in_the_plain_spoiler_tag(run, tmp_path):
    code, out, err = run("reveal", "-f", "phpbb-spoiler", "-g", _finished(tmp_path))
    assert code == 0 and "[spoiler]" in out and "[spoiler=" not in out and "NOT hidden" not in err
    assert to_html("phpbb-spoiler", out).find(".//details") is not None


def test_xenforo_writes_its_table_and_titled_spoiler(run, tmp_path):
    path = _finished(tmp_path)
    root = to_html("xenforo", run("history", "-f", "xenforo", "-g", path, "--grid")[1])
    assert root.find(".//table") is not None
    assert to_html("xenforo", run("reveal", "-f", "xenforo", "-g", path)[1]).find(
        ".//details/summary").text == TITLE  # type: ignore[union-attr]


def test_discourse_takes_details_a_markdown_table_and_no_mention(run, tmp_path):
    path = str(tmp_path / "d.yaml")
    run("new", "@Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--forum", "discourse")
    code, out, _ = run("post", "--again", "1", "-g", path)
    assert code == 0 and "@\u2060Ann" in out
    assert not any(MENTION.search(t) for t in text_nodes(to_html("discourse", out)))
    finished = _finished(tmp_path)
    reveal = run("reveal", "-f", "discourse", "-g", finished)[1]
    assert reveal.startswith(f'[details="{TITLE}"]\n')
    assert to_html("discourse", reveal).find(".//details") is not None
    assert to_html("discourse", run("history", "-f", "discourse", "-g", finished, "--grid")[1]
                   ).find(".//table") is not None


def test_plain_reveal_warns_before_it(run, tmp_path):
    code, out, err = run("reveal", "-g", _finished(tmp_path))
    assert code == 0 and out.startswith(f"SPOILER: {TITLE}. Do not read on") and "NOT hidden" in err


def _finished(tmp_path: Path) -> str:
    sim = random_game(7, random.Random(357))
    path = tmp_path / "done.yaml"
    path.write_text(store.log_text(sim.header, sim.steps, at="2026-01-01T00:00:00Z"))
    return str(path)


# -- choosing the profile ------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_a_game_started_with_forum_writes_every_text_in_it(run, monkeypatch, tmp_path, profile):
    """`shmod new --forum X` records X in the header; every command that prints texts
    then writes X without -f, exactly as -f X does."""
    monkeypatch.delenv("SHMOD_FORMAT", raising=False)
    fmt, path = FORMATS[profile](), str(tmp_path / "g.yaml")
    code, out, _ = run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "--first", "Ann", "-g", path,
                       "--forum", profile, "--show")
    assert code == 0 and out.startswith("── PM to Ann ")
    assert run("send", "--preview", "-g", path, "-f", profile)[1] in out
    assert f"forum: {profile}" in Path(path).read_text()
    assert store.load(path).setup.forum == profile
    for args in (["post", "--again", "1"], ["pm"], ["pm", "Ann"], ["send", "--preview"],
                 ["send", "thread", "--preview"], ["rules"], ["prods", "--preview"],
                 ["history"]):
        assert run(*args, "-g", path)[1:] == run(*args, "-g", path, "-f", profile)[1:], args
    assert f"Candidate {fmt.bold('Ann')} nominates {fmt.bold('Bob')}" in run(
        "nominate", "Bob", "-g", path, "--show")[1]
    assert "Deadline for this round: " in run("deadline", "48h", "--post", "-g", path, "--show")[1]
    assert run("vote", "Ann", "ja", "-g", path)[0] == 0
    corrected = "".join(run("correct", "-r", "typo", "-g", path)[1:])  # not posted: a hint
    assert "Correction: the moderator mistyped" in corrected  # the terminal's: plain text
    assert f"Welcome! You replace {fmt.bold('Eve')}" in run("replace", "Eve", "Zed", "-g", path,
                                                           "--show")[1]


def test_format_beats_the_environment_which_beats_the_game(run, monkeypatch, tmp_path):
    path = str(tmp_path / "g.yaml")
    run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", path, "--forum", "phpbb")
    monkeypatch.delenv("SHMOD_FORMAT", raising=False)
    first = ["post", "--again", "1", "-g", path]
    assert run(*first)[1].startswith("[size=150][b]Secret Hitler")
    monkeypatch.setenv("SHMOD_FORMAT", "discourse")
    assert run(*first)[1].startswith("### Secret Hitler")
    assert run(*first, "-f", "plain")[1].startswith("== Secret Hitler")
    monkeypatch.delenv("SHMOD_FORMAT")
    bare = str(tmp_path / "bare.yaml")
    run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", bare)
    assert run("post", "--again", "1", "-g", bare)[1].startswith("== Secret Hitler")
    assert "forum:" not in Path(bare).read_text()


def test_unknown_profiles_are_one_line_naming_the_known(run, monkeypatch, tmp_path):
    monkeypatch.delenv("SHMOD_FORMAT", raising=False)
    path = tmp_path / "g.yaml"
    code, out, err = run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", str(path), "--forum", "vbulletin")
    assert code == 2 and not path.exists() and out == ""
    assert err == f"Error: unknown forum 'vbulletin' (choose {', '.join(PROFILES)})\n"
    run("new", "Ann", "Bob", "Cat", "Dan", "Eve", "-g", str(path))
    before = path.read_bytes()
    code, _, err = run("nominate", "Bob", "-g", str(path), "-f", "phpBB")
    assert code == 2 and err.startswith("Error: unknown format 'phpBB' (choose plain, ")
    assert path.read_bytes() == before  # a typo records nothing


def test_a_header_naming_an_unknown_forum_is_refused_by_texts_only(run, monkeypatch, tmp_path):
    """A log from a shmod that knows another engine: it loads and plays with -f, and a
    command that would write in it refuses, before anything is recorded."""
    monkeypatch.delenv("SHMOD_FORMAT", raising=False)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    header = new_header(names, salt=secrets.token_hex(16), created="2026-01-01T00:00:00Z",
                        forum="vbulletin", keys=signing.new_key())
    path = tmp_path / "g.yaml"
    path.write_text(store.log_text(header, [], at="2026-01-01T00:00:00Z"))
    before = path.read_bytes()
    assert run("status", "-g", str(path))[0] == 0
    president = store.load(str(path)).table.game.president
    nominee = names[(president + 1) % 5]
    code, _, err = run("nominate", nominee, "-g", str(path))
    assert code == 2 and "names forum 'vbulletin'" in err and err.count("\n") == 1
    assert path.read_bytes() == before
    assert run("nominate", nominee, "-g", str(path), "-f", "plain")[0] == 0
    del header["forum"]
    header["forum"] = "<b>"
    path.write_text(store.log_text(header, [], at="2026-01-01T00:00:00Z"))
    code, _, err = run("status", "-g", str(path))
    assert code == 2 and "is not the name of a forum engine" in err


def test_the_forum_is_public_and_not_in_the_commitment(tmp_path):
    from shmod.forum import commitment

    plain = new_header(["Ann", "Bob", "Cat", "Dan", "Eve"], seed="c", salt="s", created="x")
    with_forum = new_header(["Ann", "Bob", "Cat", "Dan", "Eve"], seed="c", salt="s", created="x",
                            forum="xenforo")
    assert plain["commitment"] == with_forum["commitment"]
    assert commitment.canonical_bytes(parse_setup(with_forum)) == \
        commitment.canonical_bytes(parse_setup(plain))
    assert "forum" not in with_forum["secret"]  # type: ignore[operator]
