"""Issue 33, step 2: every shipped language's catalog is complete and fits its messages.

For each catalog in shmod/texts/locale (English needs none; the pseudo-language ``qps`` is
made on the fly): no message is untranslated or fuzzy; each translation has its message's
fields (a plural's first form the singular's, its other forms the plural's), ``{on}`` and
``{off}`` in pairs and in order; it keeps its message's lines (a board slot's label may
take a second one); and the compiled catalog shmod reads holds every message of the
template. Last, every message shmod looks up while it renders whole games (posts, PMs,
prods, the rules card, the history, the reveal, the replay and its page, the board
picture, the stats post and chart) is in the template: one the extractor missed (inside an
f-string, or nested in another call's arguments) is English in every language.
"""
from __future__ import annotations

import gettext
import importlib.util
import io
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_catalog_bypass as bypass

from shmod.audit import replay as audit_replay
from shmod.game.terms import OVER
from shmod.log import store
from shmod.texts import board_image, catalog, formats, pms, replay_frames, replay_post
from shmod.texts.history import history_text
from shmod.texts.reveal import reveal_text

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "catalog.py"
SHIPPED = [code for code in catalog.codes() if code not in (catalog.ENGLISH, catalog.PSEUDO)]


def tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("catalog_tool", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOLS = tool()


def fields(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]


def test_languages_are_shipped():
    assert SHIPPED and all((catalog.LOCALE / c / "LC_MESSAGES" / "shmod.mo").is_file()
                           for c in SHIPPED)


@pytest.mark.parametrize("code", SHIPPED)
def test_every_message_is_translated_and_none_is_fuzzy(code):
    po = TOOLS.read(TOOLS.po_path(code), code)
    left = [m.id for m in po if m.id and not TOOLS.done(m)]
    assert left == []


@pytest.mark.parametrize("code", SHIPPED)
def test_each_translation_has_its_messages_fields_marks_and_lines(code):
    po = TOOLS.read(TOOLS.po_path(code), code)
    wrong = []
    for m in po:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for n, form in enumerate(forms):
            english = ids[min(n, len(ids) - 1)]
            marks = [f for f in fields(form) if f in ("on", "off")]
            lines = form.count("\n") - english.count("\n")
            if (sorted(set(fields(form))) != sorted(set(fields(english))) or
                    marks != ["on", "off"] * (len(marks) // 2) or
                    not (lines == 0 or (lines == 1 and m.context == "board slot"))):
                wrong.append((m.id, form))
    assert wrong == []


@pytest.mark.parametrize("code", SHIPPED)
def test_the_compiled_catalog_holds_every_message_of_the_template(code):
    data = (catalog.LOCALE / code / "LC_MESSAGES" / "shmod.mo").read_bytes()
    compiled = gettext.GNUTranslations(io.BytesIO(data))._catalog  # type: ignore[attr-defined]
    template = TOOLS.read(TOOLS.TEMPLATE)
    missing = []
    for m in template:
        if not m.id:
            continue
        singular = m.id[0] if isinstance(m.id, tuple) else m.id
        key = f"{m.context}\x04{singular}" if m.context else singular
        if (key if not isinstance(m.id, tuple) else (key, 0)) not in compiled:
            missing.append(m.id)
    assert missing == []


class Recorder(gettext.NullTranslations):
    """A catalog that answers every message in English and notes what it was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[tuple[str | None, str]] = set()

    def gettext(self, message: str) -> str:
        self.asked.add((None, message))
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.asked.add((None, msgid1))
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        self.asked.add((context, message))
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        self.asked.add((context, msgid1))
        return msgid1 if n == 1 else msgid2


RECORDING = "x-record"


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    made = Recorder()
    catalog._LOADED[RECORDING] = catalog.Language(RECORDING, made)
    yield made
    del catalog._LOADED[RECORDING]


class Asking(bypass.Corpus):
    """The bypass test's games, every text rendered once in every profile."""

    def check(self, entry: bypass.Entry, names: set[str], turn: int) -> None:
        for name in bypass.PROFILES:
            fmt = bypass.profile(name, lang=RECORDING)
            for render in [*bypass.RENDERERS, *bypass.SITUATION, *bypass.FINISHED]:
                for _kind, _text in render(entry, fmt):
                    self.pairs += 1


def test_every_message_looked_up_while_rendering_is_in_the_template(recorder, run, tmp_path):
    made = Asking()
    for path in bypass.shipped():
        game = store.load(str(path))
        bypass.render_game(made, game.log.header, bypass._plan_of(game),
                           pms.title(str(path), game.log.header))
    for played in (bypass.directed_game(), bypass.moderated_game()):
        bypass.render_game(made, played.header, played.plan, "Friday", played.recorder)
    t = catalog.get(RECORDING)
    for path in map(str, bypass.shipped()):
        game = store.load(path)
        over = game.table.game.phase == OVER
        shown = replay_frames.frames(game, reveal=over, lang=t)
        for frame in shown.frames:
            board_image.layout(frame.view, t)
            board_image.describe(frame.view, t)
        for name in formats.FORMATS:
            fmt = formats.get(name, lang=RECORDING)
            history_text(shown.frames[-1].view, fmt)
            replay_post.post_text(shown, fmt, title="Friday", commitment=game.setup.commitment)
            if over:
                reveal_text(game, fmt)
        audit_replay.page(path, language=RECORDING)
    for args in (["--post"], ["--post", "-f", "phpbb"], ["--png", str(tmp_path / "s.png")]):
        code, _, err = run("stats", str(ROOT / "games"), "--language", RECORDING, *args)
        assert code == 0, err
    template = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id)
                for m in TOOLS.read(TOOLS.TEMPLATE) if m.id}
    assert len(recorder.asked) > 400
    # the three the extractor once missed (a prod's subject, the voting record's title, the
    # chart's alt text) are reached
    assert {(None, "a reminder"), (None, "Voting record"),
            (None, "{name} over {n} game from {first} to {last}")} <= recorder.asked
    assert recorder.asked - template == set()


def test_the_check_finds_a_message_the_extractor_missed(recorder):
    catalog.get(RECORDING)._("{n} blue policies", n=2)
    template = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id)
                for m in TOOLS.read(TOOLS.TEMPLATE) if m.id}
    assert recorder.asked - template == {(None, "{n} blue policies")}
