"""Issue 40: ``shmod send`` on a real clipboard and a real terminal, through the installed
command.

- ``--copy`` under an X server of the test's own (Xvfb, on a free display number) with
  ``xclip``: the clipboard holds the item's text byte for byte (accents and all), nothing
  is written to stdout, and the delivery is recorded. ``.ci/run`` installs the Debian
  packages ``xvfb xclip xauth`` when they are missing.
- With no system clipboard, the terminal's: the OSC 52 sequence, checked byte for byte
  against its specification (``ESC ] 52 ; c ; <base64 of the UTF-8 text> BEL``, inside
  tmux ``ESC P tmux; <the sequence, each ESC doubled> ESC \\``), written to the terminal
  (a pseudo-terminal here) and never to stdout; a text too long for it is refused and
  nothing is recorded.
- The walk, driven through a pseudo-terminal (the ``pty`` module): each item shown, Enter
  once it is sent records it, Ctrl-C stops with the rest owed and nothing half-recorded;
  with ``--copy``, a PM's subject is copied, then its text.
"""
from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from installed import SHMOD
from terminal import on_a_terminal

from shmod.log import logfile, outbox, store

NOW = "2026-11-23T10:00:00Z"
XVFB, XCLIP = shutil.which("Xvfb"), shutil.which("xclip")
NAMES = ["Zoë", "Łukasz", "Ann", "Bob", "Cat"]

pytestmark = pytest.mark.skipif(not SHMOD.exists(), reason="shmod is not installed here")


def _env(folder: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SHMOD_") and k not in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX")}
    env.update(SHMOD_GAME=str(folder / "g.yaml"), SHMOD_NOW=NOW, SHMOD_CACHE="off",
               COLUMNS="100", **more)
    return env


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    done = subprocess.run([str(SHMOD), "new", *NAMES, "--first", "Ann", "--language", "de",
                           "--title", "Übung"], cwd=tmp_path, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return tmp_path


def _shmod(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(SHMOD), *args], cwd=folder, env=_env(folder, **env),
                          capture_output=True, timeout=60)


def _deliveries(folder: Path) -> list[dict[str, object]]:
    return [e for e in logfile.read(str(folder / "g.yaml")).entries if e["kind"] == "delivered"]


def _body(folder: Path, item: str) -> bytes:
    """The item's text as ``send --preview`` prints it, without the final line feed."""
    shown = _shmod(folder, "send", item, "--preview")
    assert shown.returncode == 0
    return shown.stdout.removesuffix(b"\n")


# -- the system's clipboard: Xvfb and xclip -----------------------------------------------

@pytest.fixture
def display():  # type: ignore[no-untyped-def]
    """An X server of the test's own on a free display number: ``:N``."""
    if not (XVFB and XCLIP):
        pytest.skip("Xvfb and xclip are not installed (Debian: xvfb xclip xauth)")
    number = next(n for n in range(91, 400) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                  and not Path(f"/tmp/.X{n}-lock").exists())
    server = subprocess.Popen([XVFB, f":{number}", "-nolisten", "tcp", "-screen", "0",
                               "320x200x8"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):  # a generous guard against a hang, not a time to meet
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            if server.poll() is not None:
                pytest.skip("Xvfb could not start here")
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_copy_puts_the_text_on_the_x_clipboard_byte_for_byte(folder, display):
    text = _body(folder, "0:Zoë")
    assert "Zoë".encode() in text or b"\xc3" in text  # the German role PM, with its letters
    done = _shmod(folder, "send", "0:Zoë", "--copy", DISPLAY=display)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""  # the text went to the clipboard only
    assert b"Copied to the clipboard (xclip)." in done.stderr
    held = subprocess.run([XCLIP, "-selection", "clipboard", "-o"], capture_output=True,
                          env={**os.environ, "DISPLAY": display}, timeout=30)
    assert held.stdout == text
    assert [(e["of"], e["to"]) for e in _deliveries(folder)] == [("header", "Zoë")]


def test_a_post_with_accents_too(folder, display):
    text = _body(folder, "thread")
    done = _shmod(folder, "send", "thread", "--copy", DISPLAY=display)
    assert done.returncode == 0 and done.stdout == b""
    held = subprocess.run([XCLIP, "-selection", "clipboard", "-o"], capture_output=True,
                          env={**os.environ, "DISPLAY": display}, timeout=30)
    assert held.stdout == text and "Łukasz".encode() in text


# -- the terminal's clipboard: OSC 52 ------------------------------------------------------

def _on_a_terminal(folder: Path, command: str, keys: list[tuple[str, bytes]] = (),
                   **env: str) -> tuple[int, bytes]:
    """Run ``command`` (a shell line) on a pseudo-terminal of its own, typing each key once
    the terminal shows its prompt text; what the terminal received, and the exit status."""
    return on_a_terminal(folder, command, {**_env(folder, **env), "TERM": "xterm",
                                           "PATH": f"{SHMOD.parent}:{os.environ['PATH']}"},
                         keys)


SEQUENCE = re.compile(rb"\x1b\]52;c;([A-Za-z0-9+/=]*)\x07")


def test_osc_52_goes_to_the_terminal_never_to_stdout(folder):
    text = _body(folder, "0:Ann")
    code, seen = _on_a_terminal(folder, "shmod send 0:Ann --copy > out.txt")
    assert code == 0, seen
    assert (folder / "out.txt").read_bytes() == b""  # never stdout
    [payload] = SEQUENCE.findall(seen)
    assert base64.b64decode(payload, validate=True) == text  # ESC ] 52 ; c ; base64 BEL
    assert b"Copied to the terminal's clipboard (OSC 52)." in seen
    # OSC 52 cannot be read back: the moderator is told how the text begins, so that a
    # terminal that ignored it (the clipboard still holding the last PM) is caught
    begins = text.split(b"\n")[0][:40].decode().rstrip()
    assert f'if what you paste does not begin "{begins}'.encode() in seen
    assert b"`shmod send 0:Ann --preview` prints it (it is recorded as delivered)." in seen
    assert [(e["of"], e["to"]) for e in _deliveries(folder)] == [("header", "Ann")]


def test_osc_52_inside_tmux_is_wrapped_as_tmux_asks(folder):
    text = _body(folder, "0:Bob")
    code, seen = _on_a_terminal(folder, "shmod send 0:Bob --copy > out.txt",
                                TMUX="/tmp/tmux-0/default,1,0")
    assert code == 0, seen
    wrapped = re.search(rb"\x1bPtmux;\x1b\x1b\]52;c;([A-Za-z0-9+/=]*)\x07\x1b\\", seen)
    assert wrapped and base64.b64decode(wrapped.group(1)) == text
    assert not SEQUENCE.search(seen.replace(wrapped.group(0), b""))  # only the wrapped one


def test_the_sequence_is_the_specifications_and_a_long_text_is_refused(tmp_path, monkeypatch):
    from shmod.base.errors import BadInput
    from shmod.cli import clipboard

    assert clipboard.osc52("Zoë: ja", tmux=False) == b"\x1b]52;c;Wm/DqzogamE=\x07"
    assert clipboard.osc52("x", tmux=True) == b"\x1bPtmux;\x1b\x1b]52;c;eA==\x07\x1b\\"
    tty = tmp_path / "tty"
    tty.write_bytes(b"")
    monkeypatch.setattr(clipboard, "TTY", str(tty))
    monkeypatch.setattr(clipboard, "_system", lambda: None)
    monkeypatch.delenv("TMUX", raising=False)
    copied = clipboard.copy("Zoë: ja")
    assert copied.where == "the terminal's clipboard (OSC 52)"
    assert 'does not begin "Zoë: ja", your terminal did not take it' in copied.caution
    assert tty.read_bytes() == b"\x1b]52;c;Wm/DqzogamE=\x07"
    with pytest.raises(BadInput, match="too long for the terminal's clipboard"):
        clipboard.copy("x" * 80_000)
    assert tty.read_bytes() == b"\x1b]52;c;Wm/DqzogamE=\x07"  # nothing more written


class _LateClipboard:
    """A system clipboard that takes its text a few reads after the copy returned, as
    xclip's and xsel's background process does (or never, with ``late=None``)."""

    def __init__(self, late: int | None) -> None:
        self.late, self.held, self.reads = late, "", 0

    def put(self, text: str) -> None:
        self.wanted, self.reads = text, 0

    def get(self) -> str:
        self.reads += 1
        if self.late is not None and self.reads > self.late:
            self.held = self.wanted
        return self.held


def test_a_clipboard_that_takes_the_text_late_is_read_back_until_it_holds_it(
        tmp_path, monkeypatch):
    from shmod.base.errors import BadInput
    from shmod.cli import clipboard

    monkeypatch.setattr(clipboard, "READ_BACK_PAUSE", 0)
    late = _LateClipboard(late=3)
    monkeypatch.setattr(clipboard, "_system", lambda: ("xclip", late.put, late.get))
    assert clipboard.copy("Zoë: ja") == ("the clipboard (xclip)", "")  # read back: no caution
    assert late.reads == 4
    never = _LateClipboard(late=None)  # the system's clipboard never takes it: the terminal's
    monkeypatch.setattr(clipboard, "_system", lambda: ("xclip", never.put, never.get))
    monkeypatch.setattr(clipboard, "TTY", str(tmp_path / "no-such-dir" / "tty"))
    with pytest.raises(BadInput, match=r"the system clipboard \(xclip\) did not take the "
                                       r"text and there is no terminal"):
        clipboard.copy("Zoë: ja")
    assert never.reads == clipboard.READ_BACKS


def test_a_caution_quotes_the_first_line_cut_to_40_characters():
    from shmod.cli import clipboard

    long = "Your secret role: you are a Liberal. Your party is Liberal.\nYou do not know."
    said = clipboard.caution(long)
    assert 'begin "Your secret role: you are a Liberal. You…",' in said
    assert "Your party" not in said and "You do not know" not in said
    assert 'begin "Ja",' in clipboard.caution("\n  Ja\nmore")


def test_with_no_clipboard_and_no_terminal_nothing_is_recorded(folder):
    done = subprocess.run([str(SHMOD), "send", "--copy"], cwd=folder, env=_env(folder),
                          capture_output=True, timeout=60, start_new_session=True)
    assert done.returncode == 2 and b"there is no terminal to copy through" in done.stderr
    assert _deliveries(folder) == []


# -- the walk -------------------------------------------------------------------------------

PROMPT = "then press Enter"


def test_the_walk_records_each_item_on_enter_and_ctrl_c_leaves_the_rest(folder):
    code, seen = _on_a_terminal(folder, "shmod send", [(PROMPT, b"\r"), (PROMPT, b"\r"),
                                                       (PROMPT, b"\x03")])
    assert code == 130, seen
    assert seen.count(PROMPT.encode()) == 3
    assert "Subject: Übung: ".encode() in seen  # framed with its subject
    assert b"Stopped: 2 delivered; the rest stays owed." in seen
    assert [e["to"] for e in _deliveries(folder)] == ["Zoë", "Łukasz"]  # Ann's: not sent
    left = outbox.owed(store.load(str(folder / "g.yaml")))
    assert [outbox.handle(item) for item in left][:2] == ["0:Ann", "0:Bob"]


def test_ctrl_c_stops_the_walk_even_where_it_was_ignored(folder):
    # a shell that ignores Ctrl-C (as a script's `&` does) hands that on to what it starts
    code, seen = _on_a_terminal(folder, "sh -c 'trap \"\" INT; exec shmod send'",
                                [(PROMPT, b"\r"), (PROMPT, b"\x03")])
    assert code == 130, seen[-500:]
    assert b"Stopped: 1 delivered; the rest stays owed." in seen
    assert [e["to"] for e in _deliveries(folder)] == ["Zoë"]


def test_the_walk_goes_to_the_end_and_copies_subject_then_text(folder):
    steps = []
    for _ in range(5):  # five role PMs: a subject, then a text, each with Enter
        steps += [("then press Enter for the text", b"\r"), ("paste it and send it", b"\r")]
    steps += [("paste it and send it", b"\r")]  # the opening post: its text alone
    code, seen = _on_a_terminal(folder, "shmod send --copy", steps)
    assert code == 0, seen[-2000:]
    payloads = [base64.b64decode(p) for p in SEQUENCE.findall(seen)]
    assert len(payloads) == 11 and payloads[0].startswith("Übung: ".encode())
    assert payloads[1] == _body(folder, "0:Zoë")
    assert seen.count(b"The terminal's clipboard cannot be read back") == 6  # each text's
    assert b"do not send that. Press Ctrl-C, then run `shmod send` without --copy." in seen
    assert len(_deliveries(folder)) == 6 and b"Outbox: nothing owed." in seen
    assert outbox.owed(store.load(str(folder / "g.yaml"))) == []


def test_ctrl_c_while_a_delivery_waits_for_enter_records_nothing_half(folder):
    before = (folder / "g.yaml").read_bytes()
    code, seen = _on_a_terminal(folder, "shmod send", [(PROMPT, b"\x03")])
    assert code == 130 and (folder / "g.yaml").read_bytes() == before
    assert b"Stopped: 0 delivered" in seen
