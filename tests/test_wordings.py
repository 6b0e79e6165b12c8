"""Issue 45 §3: every public event is worded through tables, one per kind of text (the
thread post's words, the replay's sentence, the voting record's cell), each keyed by the
event's class, as the moves are tabled: a new public event is one row in each, and these
tests fail until it has them.

The public event classes are read from ``shmod.game.events`` and ``shmod.forum.events``
(every subclass of ``Public`` they define), so an event added there without its rows is
caught here; a row's function is called on the events of a shipped game.
"""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from shmod.forum import events as forum_events
from shmod.game import events as game_events
from shmod.game.events import Public
from shmod.log import store
from shmod.texts import forum_texts, game_texts, history, messages, replay_frames
from shmod.texts.formats import Plain
from shmod.texts.views import public_view

ROOT = Path(__file__).resolve().parent.parent
#: Each kind of text's table.
TABLES = {"post": messages.POST_WORDS, "replay": replay_frames.REPLAY_WORDS,
          "history": history.HISTORY_CELLS}


def public_events() -> set[type[Public]]:
    """Every public event class the engine and the forum define."""
    return {cls for module in (game_events, forum_events)
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, Public) and cls is not Public and cls.__module__ == module.__name__}


def test_the_public_events_are_found_in_both_event_modules() -> None:
    found = public_events()
    assert len(found) >= 29, sorted(c.__name__ for c in found)
    assert game_events.RoundBegan in found and forum_events.Claimed in found


@pytest.mark.parametrize("kind", sorted(TABLES))
def test_every_public_event_has_its_row_in_each_kind_of_text(kind: str) -> None:
    table = TABLES[kind]
    missing = sorted(c.__name__ for c in public_events() - set(table))
    extra = sorted(c.__name__ for c in set(table) - public_events())
    assert not missing, f"public events without a {kind} row: {missing}"
    assert not extra, f"{kind} rows for classes that are no public event: {extra}"
    assert all(row is None or callable(row) for row in table.values())


def test_the_post_and_replay_tables_word_every_event_only_the_history_leaves_some_out() -> None:
    assert None not in messages.POST_WORDS.values()
    assert None not in replay_frames.REPLAY_WORDS.values()
    shown = {cls.__name__ for cls, cell in history.HISTORY_CELLS.items() if cell is not None}
    assert {"Tallied", "RoundBegan", "Enacted", "GameOver"} <= shown
    assert "DeadlineSet" not in shown  # a deadline is no election


def test_the_post_words_of_the_game_and_of_the_forum_are_one_table() -> None:
    assert set(game_texts.POST_WORDS).isdisjoint(forum_texts.POST_WORDS)
    assert messages.POST_WORDS == {**game_texts.POST_WORDS, **forum_texts.POST_WORDS}
    for module in (messages, game_texts, replay_frames, history):
        assert not hasattr(module, "event_text")  # the one name that said three things


def test_each_row_words_the_events_of_a_whole_shipped_game() -> None:
    loaded = store.load(str(ROOT / "games" / "forum-10-players.yaml"), cache="off")
    view = public_view(loaded.table)
    kinds = {type(ev) for ev in view.history}
    assert len(kinds) >= 10
    said = [messages.post_words(view, ev, Plain()) for ev in view.history]
    sentences = [replay_frames.event_sentence(view, ev) for ev in view.history]
    assert sum(1 for s in said if s) >= len(view.history) // 2
    assert sum(1 for s in sentences if s) >= len(view.history) // 2
    assert history.elections(view)
