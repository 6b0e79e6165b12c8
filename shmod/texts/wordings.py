"""How a public event is worded, once per kind of text, each kind a table keyed by the
event's class (as the moves are tabled in :mod:`shmod.game.moves` and
:mod:`shmod.forum.moves`): a new public event is one row in each.

The tables: the post words (:data:`shmod.texts.messages.POST_WORDS`, fed by
:mod:`shmod.texts.game_texts` and :mod:`shmod.texts.forum_texts`), the replay's sentence
(:data:`shmod.texts.replay_frames.REPLAY_WORDS`) and the voting record's cell
(:data:`shmod.texts.history.HISTORY_CELLS`). A row may say nothing for one event (``None``
from its function) but every public event has its row in every table
(``tests/test_wordings.py``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shmod.texts.catalog import Language
from shmod.texts.formats import Plain
from shmod.texts.views import PublicView

#: One event's words in a thread post, in ``fmt``'s markup and language (``None``: no
#: words for it); the event argument is the row's class.
PostWords = Callable[[PublicView, Any, Plain], "str | None"]
#: One event as a sentence of the replay (past tense, no instructions), in a language.
ReplayWords = Callable[[PublicView, Any, Language], "str | None"]
