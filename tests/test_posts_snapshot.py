"""Snapshots of a full example game's thread (every post, then the reveal) in each format.

The snapshots in ``tests/snapshots/`` were read by eye (and the Markdown and BBCode
rendered to HTML) once. To accept an intended change: ``SHMOD_UPDATE_SNAPSHOTS=1 pytest``.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from thread_example import thread

from shmod.texts.formats import FORMATS

SNAPSHOTS = Path(__file__).parent / "snapshots"
SEPARATOR = "\n\n----- next post -----\n\n"


@pytest.mark.parametrize("name", list(FORMATS))
def test_example_thread_matches_its_snapshot(name):
    posts, _ = thread(FORMATS[name]())
    text = SEPARATOR.join(posts) + "\n"
    path = SNAPSHOTS / f"example_thread.{name}.txt"
    if os.environ.get("SHMOD_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"{path.name} differs; see the module docstring"
