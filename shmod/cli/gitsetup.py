"""git for a shared game (``shmod git-setup``, docs/comoderators.md): the repository's
``.gitattributes`` names shmod's merge driver for the logs, its config defines the driver
(``merge.shmod.driver``: ``shmod merge-driver %O %A %B %P``, as gitattributes(5) says a
driver is called: the result left in ``%A``, exit 0 when merged, non-zero when not), and
three hooks (post-merge, post-checkout, post-rewrite) put every log back to mode 0600
after git wrote it with the umask's mode. git is run as a program; nothing here reads a
game.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys

from shmod.base.errors import BadInput
from shmod.log import outfiles

DRIVER = "shmod"
HOOKS = ("post-merge", "post-checkout", "post-rewrite")
MARK = "# shmod git-setup:"


def _git(*args: str, cwd: str | None = None, check: bool = True,
         data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, input=data, capture_output=True,
                              timeout=60, check=False)
    except FileNotFoundError:
        raise BadInput("git is not installed (or not on PATH)") from None
    except subprocess.TimeoutExpired:
        raise BadInput(f"git {args[0]} did not answer within a minute") from None
    if check and done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise BadInput(f"git {args[0]}: {said[-1] if said else 'failed'}")
    return done


def top(game: str) -> str:
    """The top folder of the git work tree the log ``game`` is in."""
    folder = game if os.path.isdir(game) else os.path.dirname(os.path.abspath(game))
    if not os.path.isdir(folder):
        raise BadInput(f"{game}: no such folder; name a game log in the moderators' clone "
                       "of the repository")
    done = _git("rev-parse", "--show-toplevel", cwd=folder, check=False)
    if done.returncode != 0:
        raise BadInput(f"{game} is not in a git repository: the moderators share the game "
                       "through a clone of one (docs/comoderators.md)")
    return done.stdout.decode("utf-8", "surrogateescape").strip()


def command() -> str:
    """This shmod as a shell command git can run from anywhere: its absolute path."""
    here = os.path.abspath(sys.argv[0])
    if os.path.basename(here) == "shmod" and os.path.isfile(here) and os.access(here, os.X_OK):
        return shlex.quote(here)
    return f"{shlex.quote(sys.executable)} -m shmod"


def setup(game: str, pattern: str | None) -> list[str]:
    """Write the attributes, the config and the hooks for the repository the log ``game``
    is in (``pattern``: which files are logs; default: the .yaml files beside it); what
    was done, in lines."""
    root = top(game)
    if pattern is None:
        folder = os.path.relpath(os.path.dirname(os.path.realpath(game)), os.path.realpath(root))
        pattern = "*.yaml" if folder == "." else f"/{folder.replace(os.sep, '/')}/*.yaml"
    if not pattern.strip() or any(c in pattern for c in "\n\r\0 \t#"):
        raise BadInput(f"{pattern!r} is not a gitattributes pattern (e.g. games/*.yaml)")
    shmod = command()
    said = [_attributes(root, pattern.strip())]
    _git("config", f"merge.{DRIVER}.name", "shmod game log (R-MERGE)", cwd=root)
    _git("config", f"merge.{DRIVER}.driver", f"{shmod} merge-driver %O %A %B %P", cwd=root)
    said.append(f"git config merge.{DRIVER}.driver: {shmod} merge-driver %O %A %B %P (this "
                "clone only: every moderator runs shmod git-setup in theirs)")
    said += _hooks(root, shmod)
    count = make_private(root)
    said.append(f"{count} game log{'' if count == 1 else 's'} made private (mode 0600). The "
                "repository holds every role and the signing key: keep it private, shared "
                "with the game's moderators only")
    return said


def _attributes(root: str, pattern: str) -> str:
    path = os.path.join(root, ".gitattributes")
    line = f"{pattern} merge={DRIVER}"
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        text = ""
    except OSError as err:
        raise BadInput(f"cannot read {path}: {err.strerror}") from None
    if line in text.splitlines():
        return f".gitattributes already names shmod's merge driver for {pattern}"
    text += ("" if not text or text.endswith("\n") else "\n") + line + "\n"
    outfiles.write(path, text.encode("utf-8"), mode=0o644)  # never through a link
    return f".gitattributes: {line} (commit it, so every clone merges the logs alike)"


def _hooks(root: str, shmod: str) -> list[str]:
    where = _git("rev-parse", "--git-path", "hooks", cwd=root).stdout.decode().strip()
    folder = os.path.join(root, where)
    os.makedirs(folder, exist_ok=True)
    said = []
    body = (f"#!/bin/sh\n{MARK} every game log back to mode 0600 (it holds every role)\n"
            f"{shmod} git-setup --hook -g . || true\n")
    for name in HOOKS:
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as handle:
                old = handle.read()
        except FileNotFoundError:
            old = None
        except OSError:
            old = ""
        if old is not None and MARK not in old:
            said.append(f"hook {name} exists already: add the line `{shmod} git-setup --hook "
                        "-g .` to it yourself")
            continue
        outfiles.write(path, body.encode("utf-8"), mode=0o755)  # never through a link
        os.chmod(path, 0o755)  # whatever the umask: git runs it
    said.append(f"hooks {', '.join(HOOKS)}: the logs are made private after every merge and "
                "checkout")
    return said


def looks_like_log(data: bytes) -> bool:
    """Whether a file is a game log (its header, as shmod writes one or a hand would):
    anything else under the pattern is merged as text."""
    head = data[:4096]
    return head.startswith(b"# shmod game log") or b"\nshmod:" in b"\n" + head


def merge_text(base: str, ours: str, theirs: str, path: str) -> int:
    """git's own text merge for a file that is no log (conflict markers where both
    changed); the exit code git expects of a driver."""
    done = _git("merge-file", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs,
                check=False)
    if done.returncode < 0 or done.returncode > 127:
        raise BadInput(f"git merge-file could not merge {path}")
    return 0 if done.returncode == 0 else 1


def make_private(root: str) -> int:
    """Every tracked game log under the driver's pattern back to mode 0600; how many."""
    files = _git("ls-files", "-z", cwd=root).stdout
    if not files:
        return 0
    attrs = _git("check-attr", "-z", "--stdin", "merge", cwd=root, data=files).stdout
    fields = attrs.split(b"\0")
    count = 0
    for index in range(0, len(fields) - 2, 3):
        name, value = fields[index], fields[index + 2]
        if value != DRIVER.encode():
            continue
        path = os.path.join(root, os.fsdecode(name))
        if os.path.islink(path):  # its target is not the repository's: left as it is
            continue
        try:
            with open(path, "rb") as handle:
                if not looks_like_log(handle.read(4096)):
                    continue
            if os.stat(path).st_mode & 0o077:
                os.chmod(path, 0o600)
            count += 1
        except OSError:
            continue
    return count
