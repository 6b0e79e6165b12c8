"""git for a shared game (``shmod git-setup``, docs/comoderators.md): the repository's
``.gitattributes`` names shmod's merge driver for the logs, its config defines the driver
(``merge.shmod.driver``: ``shmod merge-driver %O %A %B %P``, as gitattributes(5) says a
driver is called: the result left in ``%A``, exit 0 when merged, non-zero when not) and
says how ``git pull`` joins diverged clones (``pull.rebase=false``, unless the moderator
chose), and three hooks (post-merge, post-checkout, post-rewrite) put every log back to
mode 0600 after git wrote it with the umask's mode. git is run as a program.

What ``git-setup`` reads and writes is checked before the first write: a link or anything
but a regular file at ``.gitattributes``, the clone's config, the hooks folder or a hook
is refused, naming it (never read or written through: a link a co-moderator committed
could lead to a key on this machine, a FIFO would block, ``/dev/zero`` never ends), and
what is read is bounded.

:func:`bypassed` checks, with git's own ``check-attr``, that shmod's driver is the one in
force for a log (a committed ``merge=union`` line would quietly join two copies line by
line); its answer is kept beside the parse cache, keyed by the files git reads attributes
from, its ``HEAD`` and its config, so a command runs git only when one of them changed.
"""
from __future__ import annotations

import json
import os
import stat
import sys
from typing import TYPE_CHECKING

from shmod.base.errors import BadInput
from shmod.log import oslock

if TYPE_CHECKING:
    import subprocess

DRIVER = "shmod"
HOOKS = ("post-merge", "post-checkout", "post-rewrite")
MARK = "# shmod git-setup:"
ATTRIBUTES_LIMIT = 256 * 1024  # a .gitattributes is a few lines
HOOK_LIMIT = 64 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
#: What git's ``check-attr`` said of a log, kept beside the parse cache.
VERDICT = ".gitattr"


def _git(*args: str, cwd: str | None = None, check: bool = True,
         data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    import subprocess

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
    import shlex  # setting up only: a recording command's check never quotes

    here = os.path.abspath(sys.argv[0])
    if os.path.basename(here) == "shmod" and os.path.isfile(here) and os.access(here, os.X_OK):
        return shlex.quote(here)
    return f"{shlex.quote(sys.executable)} -m shmod"


def _git_path(root: str, name: str) -> str:
    """Where git keeps ``name`` (``hooks``, ``config``) for the work tree at ``root``."""
    where = _git("rev-parse", "--git-path", name, cwd=root).stdout
    return os.path.join(root, os.fsdecode(where).strip())


def setup(game: str, pattern: str | None) -> list[str]:
    """Write the attributes, the config and the hooks for the repository the log ``game``
    is in (``pattern``: which files are logs; default: the .yaml files beside it), every
    check made before the first write; what was done, in lines."""
    root = top(game)
    if pattern is None:
        folder = os.path.relpath(os.path.dirname(os.path.realpath(game)), os.path.realpath(root))
        pattern = "*.yaml" if folder == "." else f"/{folder.replace(os.sep, '/')}/*.yaml"
    if not pattern.strip() or any(c in pattern for c in "\n\r\0 \t#"):
        raise BadInput(f"{pattern!r} is not a gitattributes pattern (e.g. games/*.yaml)")
    pattern = pattern.strip()
    # every check first: nothing is written unless all of them pass
    attributes = os.path.join(root, ".gitattributes")
    text = _read(attributes, "the repository's .gitattributes", ATTRIBUTES_LIMIT) or ""
    config = _git_path(root, "config")
    _regular(config, "this clone's git config")  # git config would write through a link
    hooks = _git_path(root, "hooks")
    _folder(hooks, "this clone's hooks folder")
    found = {name: _read(os.path.join(hooks, name), f"git's {name} hook", HOOK_LIMIT)
             for name in HOOKS}
    chosen = {key: _config(root, key) for key in ("pull.rebase", "pull.ff")}
    shmod = command()
    line = f"{pattern} merge={DRIVER}"
    said = []
    if line in text.splitlines():
        said.append(f".gitattributes already names shmod's merge driver for {pattern}")
    else:
        text += ("" if not text or text.endswith("\n") else "\n") + line + "\n"
        from shmod.log import outfiles  # writing only: the check every step makes reads

        outfiles.write(attributes, text.encode("utf-8"), mode=0o644)
        said.append(f".gitattributes: {line} (commit it, so every clone merges the logs alike)")
    _git("config", f"merge.{DRIVER}.name", "shmod game log (R-MERGE)", cwd=root)
    _git("config", f"merge.{DRIVER}.driver", f"{shmod} merge-driver %O %A %B %P", cwd=root)
    said.append(f"git config merge.{DRIVER}.driver: {shmod} merge-driver %O %A %B %P (this "
                "clone only: every moderator runs shmod git-setup in theirs)")
    said.append(_pull(root, chosen))
    said += _hooks(hooks, shmod, found)
    count = make_private(root)
    said.append(f"{count} game log{'' if count == 1 else 's'} made private (mode 0600). The "
                "repository holds every role and the signing key: keep it private, shared "
                "with the game's moderators only")
    wrong = bypassed(game, fresh=True)
    if wrong:
        said.append(f"but {wrong}")
    return said


def _config(root: str, key: str) -> str | None:
    """``key``'s value in git's config as git reads it (every scope), or None when unset."""
    done = _git("config", "--get", key, cwd=root, check=False)
    return os.fsdecode(done.stdout).strip() if done.returncode == 0 else None


def _pull(root: str, chosen: dict[str, str | None]) -> str:
    """``pull.rebase=false`` in this clone's config unless the moderator chose how ``git
    pull`` joins diverged clones (``pull.rebase`` or ``pull.ff``, in any scope): without
    either, git 2.27 and later refuse to pull onto a clone with commits of its own."""
    set_ = {key: value for key, value in chosen.items() if value is not None}
    if set_:
        return ("git config: " + ", ".join(f"{k}={v}" for k, v in set_.items()) + " set "
                "already: left as it is (git pull joins diverged clones that way)")
    _git("config", "pull.rebase", "false", cwd=root)
    return ("git config pull.rebase false: `git pull` merges the other moderator's commits "
            "with yours (this clone only; `git pull --rebase` works too)")


def _hooks(folder: str, shmod: str, found: dict[str, str | None]) -> list[str]:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        raise BadInput(f"cannot create {folder}: {err.strerror or err}") from None
    said = []
    for name in HOOKS:
        old = found[name]
        if old is not None and MARK not in old:
            said.append(f"hook {name} exists already: add the line `{shmod} git-setup --hook "
                        f"--during {name} -g .` to it yourself")
            continue
        body = (f"#!/bin/sh\n{MARK} every game log back to mode 0600 (it holds every role)\n"
                f"{shmod} git-setup --hook --during {name} -g . || true\n")
        path = os.path.join(folder, name)
        from shmod.log import outfiles

        outfiles.write(path, body.encode("utf-8"), mode=0o755)  # never through a link
        os.chmod(path, 0o755)  # whatever the umask: git runs it
    said.append(f"hooks {', '.join(HOOKS)}: the logs are made private after every merge and "
                "checkout")
    return said


def _regular(path: str, what: str) -> os.stat_result | None:
    """What is at ``path`` (None: nothing), refused unless a regular file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise BadInput(f"cannot read {path} ({what}): {err.strerror or err}") from None
    if stat.S_ISLNK(info.st_mode):
        raise BadInput(f"{path} ({what}) is a link: shmod git-setup never reads or writes "
                       "through a link (it may lead to a file of yours outside the repository, "
                       "or to a device); nothing was written. Look at it, remove it and run "
                       "shmod git-setup again")
    if not stat.S_ISREG(info.st_mode):
        raise BadInput(f"{path} ({what}) is not a regular file but {_kind(info.st_mode)}; "
                       "nothing was written. Remove it and run shmod git-setup again")
    return info


def _folder(path: str, what: str) -> None:
    """Refuse a link or anything but a folder at ``path`` (nothing there is fine)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as err:
        raise BadInput(f"cannot read {path} ({what}): {err.strerror or err}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise BadInput(f"{path} ({what}) is {_kind(info.st_mode)}, not a folder; nothing was "
                       "written. Remove it and run shmod git-setup again")


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "a link"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISREG, "a file")):
        if test(mode):
            return name
    return "not a file"


def _read(path: str, what: str, limit: int) -> str | None:
    """The text of the regular file ``path`` (None: nothing there), at most ``limit``
    bytes, never through a link and never waiting on a FIFO."""
    if _regular(path, what) is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | oslock.NONBLOCK | oslock.BINARY)
    except OSError as err:
        raise BadInput(f"cannot read {path} ({what}): {err.strerror or err}; nothing was "
                       "written") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped since it was looked at
            raise BadInput(f"{path} ({what}) is not a regular file; nothing was written")
        data = os.read(fd, limit + 1) if info.st_size <= limit else b""
    except OSError as err:
        raise BadInput(f"cannot read {path} ({what}): {err.strerror or err}") from None
    finally:
        os.close(fd)
    if info.st_size > limit or len(data) > limit:
        raise BadInput(f"{path} ({what}) is larger than {limit // 1024} KiB: not what it should "
                       "be; nothing was written")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path} ({what}) is not UTF-8 text; nothing was written") from None


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


def rebasing(root: str = ".") -> bool:
    """Whether a rebase is under way in the repository at ``root``: git then replays this
    clone's commits on top of the other's, and a merge driver's ``%A`` is the other's."""
    done = _git("rev-parse", "--git-path", "rebase-merge", "--git-path", "rebase-apply",
                cwd=root, check=False)
    if done.returncode != 0:
        return False
    return any(os.path.isdir(os.path.join(root, os.fsdecode(line)))
               for line in done.stdout.splitlines() if line.strip())


def hook(game: str, during: str | None) -> int:
    """What git's hooks run (``git-setup --hook``): the logs made private; how many. Not
    in post-checkout while a rebase is under way: changing a file's mode changes its
    ctime, git's index then holds stale stat data for it, and the rebase's next pick stops
    with "Your local changes … would be overwritten"; post-rewrite, which git runs as the
    rebase ends, makes them private."""
    root = top(game)
    if during == "post-checkout" and rebasing(root):
        return 0
    return make_private(root)


def make_private(root: str) -> int:
    """Every tracked game log back to mode 0600 (those under the driver's pattern, and
    any tracked ``.yaml`` file that reads as a log: a line that points the logs at another
    driver does not make them public); how many."""
    files = _git("ls-files", "-z", cwd=root).stdout
    if not files:
        return 0
    attrs = _git("check-attr", "-z", "--stdin", "merge", cwd=root, data=files).stdout
    fields = attrs.split(b"\0")
    count = 0
    for index in range(0, len(fields) - 2, 3):
        name, value = fields[index], fields[index + 2]
        if value != DRIVER.encode() and not name.endswith(b".yaml"):
            continue
        path = os.path.join(root, os.fsdecode(name))
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):  # a link's target is not the repository's
                continue
            fd = os.open(path, os.O_RDONLY | _NOFOLLOW | oslock.NONBLOCK | oslock.BINARY)
            try:
                head = os.read(fd, 4096)
            finally:
                os.close(fd)
            if not looks_like_log(head):
                continue
            if info.st_mode & 0o077:
                os.chmod(path, 0o600)
            count += 1
        except OSError:
            continue
    return count


def bypassed(game: str, *, fresh: bool = False) -> str | None:
    """What is wrong when the log ``game`` sits in a git clone set up for shmod (its config
    names shmod's driver, or an attribute names it) and git would not merge it with shmod's
    driver: another ``merge`` attribute in force, or no driver defined in this clone. None
    when all is well or the log is not in such a clone. git is asked only when a file it
    reads attributes or config from, or its ``HEAD``, changed since it was last asked
    (``fresh``: ask anyway)."""
    place = _repository(game)
    if place is None:
        return None
    work, key = place
    from shmod.log import parsecache

    if not fresh:
        kept = _kept(parsecache.read_beside(game, VERDICT))
        if kept is not None and kept[0] == key:
            return kept[1]
    said = _ask(game, work)
    blob = json.dumps({"v": 1, "key": key, "said": said}).encode()
    parsecache.write_beside(game, VERDICT, blob)
    return said


def _ask(game: str, work: str) -> str | None:
    """git's own answer: which merge attribute is in force for ``game``, and whether this
    clone defines shmod's driver."""
    name = os.path.relpath(os.path.realpath(game), os.path.realpath(work))
    done = _git("check-attr", "merge", "--", name, cwd=work, check=False)
    if done.returncode != 0:
        return None
    value = os.fsdecode(done.stdout).rsplit(": ", 1)[-1].strip()
    defined = _config(work, f"merge.{DRIVER}.driver") is not None
    if value == DRIVER:
        return None if defined else (
            f"{name} is set to merge with shmod's driver, but this clone does not define it: "
            "git pull would join two copies line by line, as text; run shmod git-setup in "
            "this clone")
    if not defined:
        return None  # a clone never set up for shmod: a game kept in git by one moderator
    how = {"unspecified": "no merge attribute names it", "unset": "merge is unset for it (-merge)",
           "set": "merge is set for it"}.get(value, f"an attribute says merge={value} for it")
    return (f"git would not merge {name} with shmod's driver: {how} (a line in a "
            ".gitattributes, or in .git/info/attributes, that comes after shmod's or is "
            f"closer to the file; `git check-attr -a {name}` shows what is in force), so "
            "git pull could join two copies line by line without a rule checked; remove that "
            "line, commit, and run shmod git-setup")


def _repository(game: str) -> tuple[str, list[object]] | None:
    """The work tree the log ``game`` is in and the key of what git's answer depends on:
    the ``.gitattributes`` on the way from the log's folder to the top, the repository's
    ``info/attributes``, ``HEAD`` and config, the user's attributes file; None when the log
    is in no git work tree. Stats only: no git run."""
    folder = os.path.dirname(os.path.realpath(game))
    watched: list[str] = []
    while True:
        watched.append(os.path.join(folder, ".gitattributes"))
        dot = os.path.join(folder, ".git")
        if os.path.lexists(dot):
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    git_dir = _git_dir(dot)
    if git_dir is None:
        return None
    common = git_dir
    pointer = os.path.join(git_dir, "commondir")
    if os.path.isfile(pointer):
        common = os.path.normpath(os.path.join(git_dir, _small(pointer)))
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    watched += [os.path.join(common, "info", "attributes"), os.path.join(git_dir, "HEAD"),
                os.path.join(common, "config"), os.path.join(home, "git", "attributes"),
                os.path.join(os.path.expanduser("~"), ".gitconfig")]
    key: list[object] = [os.path.realpath(game)]
    for path in watched:
        try:
            info = os.stat(path)
            key.append([path, info.st_mtime_ns, info.st_size, info.st_ino])
        except OSError:
            key.append([path, None])
    return folder, key


def _git_dir(dot: str) -> str | None:
    """The git folder ``.git`` is, or names (``gitdir: …`` in a worktree's or submodule's)."""
    if os.path.isdir(dot):
        return dot
    text = _small(dot)
    if not text.startswith("gitdir:"):
        return None
    return os.path.normpath(os.path.join(os.path.dirname(dot), text[7:].strip()))


def _small(path: str) -> str:
    """A small text file's first line (git's pointers), or ''."""
    try:
        fd = os.open(path, os.O_RDONLY | oslock.NONBLOCK | oslock.BINARY)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return ""
            data = os.read(fd, 4096)
        finally:
            os.close(fd)
    except OSError:
        return ""
    return data.decode("utf-8", "replace").splitlines()[0].strip() if data.strip() else ""


def _kept(blob: bytes | None) -> tuple[list[object], str | None] | None:
    if blob is None:
        return None
    try:
        kept = json.loads(blob)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(kept, dict) and kept.get("v") == 1 and isinstance(kept.get("key"), list)
            and (kept.get("said") is None or isinstance(kept.get("said"), str))):
        return None
    return kept["key"], kept["said"]
