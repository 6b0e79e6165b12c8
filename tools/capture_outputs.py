"""Capture every output of the installed ``shmod``, one file per command, to check that a
change which should not change behaviour (a rename, a split) changes no byte of it.

    python tools/capture_outputs.py /tmp/capture-before      # on the old tree
    python tools/capture_outputs.py /tmp/capture-after       # on the new tree
    python tools/capture_outputs.py --compare /tmp/capture-before /tmp/capture-after

It runs ``shmod`` next to this Python (or ``--shmod PATH``) as a subprocess with a fixed
clock (``SHMOD_NOW``), ``COLUMNS=100``, no terminal and no cache, through every read-only
command with its main options (each output profile and language where one applies) on a
copy of every shipped game (games/*.yaml) and every test log (tests/logs/*.yaml), and through
whole games of recording commands from an empty folder: the commands of
games/words-dealt-8-players.sh (``SHMOD_SHOW=1``) and a five-player game in each language,
shown or through the outbox. Each file holds the command line, its exit code, stdout,
stderr and any file it wrote. What ``shmod new`` draws afresh (the salt, the signing key) is
made repeatable by a ``sitecustomize`` on ``PYTHONPATH`` that derives ``secrets.token_hex``
and ``secrets.token_bytes`` from a counter, so two captures of one tree are identical; the
temporary folder's path is written ``<work>``. ``--compare`` prints the files that differ,
are missing or are extra, and exits 1 if any.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("plain", "markdown", "bbcode", "phpbb", "phpbb-spoiler", "xenforo", "discourse")
LANGUAGES = ("en", "de", "pl", "qps")
NOW = "2026-12-20T12:00:00Z"
SITECUSTOMIZE = '''\
"""capture_outputs.py: what shmod draws afresh, drawn from a counter (repeatable)."""
import hashlib
import os
import secrets

_count = [0]


def _token_bytes(nbytes=32):
    out = b""
    while len(out) < nbytes:
        _count[0] += 1
        out += hashlib.sha256(b"capture-outputs-%d" % _count[0]).digest()
    return out[:nbytes]


def _token_hex(nbytes=32):
    return _token_bytes(nbytes).hex()


secrets.token_bytes = _token_bytes
secrets.token_hex = _token_hex
if os.environ.get("CAPTURE_LOG_FORMAT"):  # the log format an old script was played under
    from shmod.forum import log_formats
    log_formats.CURRENT = log_formats.FORMATS[int(os.environ["CAPTURE_LOG_FORMAT"])]
'''
FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]


class Capture:
    """Runs shmod in ``work`` and writes one file per command under ``out``."""

    def __init__(self, shmod: str, out: Path, work: Path) -> None:
        self.shmod, self.out, self.work = shmod, out, work
        site = work / "_site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("SHMOD_") and k not in ("PYTHONPATH", "LINES")}
        self.env.update(COLUMNS="100", SHMOD_CACHE="off", PYTHONPATH=str(site),
                        PYTHONHASHSEED="0", LC_ALL="C.UTF-8", TZ="UTC")
        self.count: dict[str, int] = {}

    def clean(self, text: str) -> str:
        return text.replace(str(self.work), "<work>")

    def run(self, group: str, args: list[str], *, cwd: Path, game: str | None = None,
            now: str = NOW, show: bool = False, files: tuple[str, ...] = (),
            log_format: int | None = None) -> subprocess.CompletedProcess[bytes]:
        """Run ``shmod ARGS``; write its exit code, stdout, stderr and the ``files`` it
        wrote (relative to ``cwd``) to ``out/GROUP/NNN-ARGS.txt``."""
        env = dict(self.env, SHMOD_NOW=now)
        if game:
            env["SHMOD_GAME"] = game
        if show:
            env["SHMOD_SHOW"] = "1"
        if log_format:
            env["CAPTURE_LOG_FORMAT"] = str(log_format)
        for name in files:
            (cwd / name).unlink(missing_ok=True)
        done = subprocess.run([self.shmod, *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=120)
        number = self.count[group] = self.count.get(group, 0) + 1
        slug = re.sub(r"[^A-Za-z0-9.=-]+", "_", " ".join(args))[:70].strip("_") or "none"
        target = self.out / group / f"{number:03d}-{slug}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        parts = [f"$ {'SHMOD_SHOW=1 ' if show else ''}SHMOD_NOW={now} shmod {shlex.join(args)}",
                 f"--- exit {done.returncode}",
                 "--- stdout", done.stdout.decode("utf-8", "replace"),
                 "--- stderr", done.stderr.decode("utf-8", "replace")]
        for name in files:
            path = cwd / name
            if not path.exists():
                parts += [f"--- file {name}: not written"]
                continue
            data = path.read_bytes()
            try:
                parts += [f"--- file {name}", data.decode("utf-8")]
            except UnicodeDecodeError:
                parts += [f"--- file {name}: {len(data)} bytes, "
                          f"sha256 {hashlib.sha256(data).hexdigest()}"]
        target.write_text(self.clean("\n".join(parts)), encoding="utf-8")
        return done

    def read_only(self, group: str, folder: Path, log: str, players: list[str], *,
                  full: bool = True) -> None:
        """Every read-only command with its main options on ``folder/log`` (not ``full``:
        each command once, in the game's own profile and language)."""
        formats = FORMATS if full else FORMATS[:1]
        before = (folder / log).read_bytes()

        def run(*args: str, files: tuple[str, ...] = ()) -> None:
            self.run(group, list(args), cwd=folder, game=log, files=files)

        run("status")
        run("history")
        for fmt in formats:
            run("history", "-f", fmt)
        run("history", "--grid")
        run("history", "--grid", "--bbcode-table", "-f", "bbcode")
        run("board")
        run("board", "--entry", "5", "--svg", "board5.svg", files=("board5.svg",))
        run("board", "--svg", "board.svg", files=("board.svg",))
        run("board", "--png", "board.png", files=("board.png",))
        run("rules")
        for fmt in formats[1:]:
            run("rules", "-f", fmt)
        for rule in ("R-VOTE", "R-TERM5", "R-DEAL", "R-LAPSE", "R-NOSUCH"):
            run("rules", rule)
        run("pm")
        run("pm", "--entry", "0")
        for name in players if full else players[:2]:
            run("pm", name)
        run("pm", players[0], "-f", "bbcode")
        run("pm", players[0], "--entry", "0")
        run("pm", "Nobody")
        run("outbox")
        run("outbox", "--all")
        run("send", "--preview")
        run("send", "--preview", "-f", "markdown")
        run("prods", "--preview")
        run("remind")
        run("remind", "-f", "bbcode")
        run("corrections")
        run("moderators")
        run("backup")
        run("reveal")
        for fmt in formats[1:]:
            run("reveal", "-f", fmt)
        run("reveal", "--no-spoiler")
        run("audit", log)
        run("audit", "--json", log)
        run("audit", "--explain", log)
        commitment = re.search(r'^commitment: "?([0-9a-f]{64})', before.decode(), re.M)
        if commitment:
            run("audit", "-c", commitment.group(1), log)
        run("audit", "-c", "0" * 64, log)
        run("replay", log, "--post")
        for fmt in formats[1:]:
            run("replay", log, "--post", "-f", fmt)
        for lang in (LANGUAGES if full else ()):
            run("replay", log, "--post", "-L", lang)
        run("replay", log, "--post", "--public")
        run("replay", log, "-o", "page.html", files=("page.html",))
        run("replay", log, "-o", "page-de.html", "-L", "de", "--public", files=("page-de.html",))
        run("publish", "-o", "published.yaml", files=("published.yaml",))
        run("publish", "--force", "-o", "published.yaml", files=("published.yaml",))
        after = (folder / log).read_bytes()
        if after != before:  # a read-only command changed the log: say so in the capture
            (self.out / group / "LOG-CHANGED.txt").write_text(self.clean(after.decode()))
        # the recording commands that read most, on a throwaway copy
        scratch = f".scratch-{Path(log).name}"
        shutil.copyfile(folder / log, folder / scratch)
        self.run(group, ["prods"], cwd=folder, game=scratch)
        self.run(group, ["outbox", "--settle"], cwd=folder, game=scratch)
        self.run(group, ["post"], cwd=folder, game=scratch)
        self.run(group, ["send"], cwd=folder, game=scratch)
        (folder / scratch).unlink()

    def shipped(self) -> None:
        """The read-only commands on a copy of every shipped game and test log."""
        games = self.work / "shipped"
        (games / "games").mkdir(parents=True)
        logs = [*sorted((ROOT / "games").glob("*.yaml")),
                *sorted((ROOT / "tests/logs").glob("*.yaml"))]
        for path in logs:
            shutil.copyfile(path, games / "games" / path.name)
        for path in logs:
            text = path.read_text(encoding="utf-8")
            block = re.search(r"^players:.*\n((?:- .*\n)+)", text, re.M)
            players = [re.sub(r"\s*#.*", "", line[2:]).strip().strip('"')
                       for line in block.group(1).splitlines()] if block else ["Ada"]
            self.read_only(f"log-{path.stem}", games, f"games/{path.name}", players)
        self.stats(games)

    def stats(self, folder: Path) -> None:
        def run(*args: str, files: tuple[str, ...] = ()) -> None:
            self.run("stats", list(args), cwd=folder, files=files)

        run("stats", "games")
        run("stats", "games", "--json")
        run("stats", "games", "--csv")
        run("stats", "games", "--sort", "rating")
        run("stats", "games", "--min-games", "2")
        run("stats", "games", "--player", "Ada")
        run("stats", "games", "--player", "Ada", "--csv")
        for fmt in FORMATS:
            run("stats", "games", "--post", "-f", fmt)
        for lang in LANGUAGES:
            run("stats", "games", "--post", "-L", lang)
        run("stats", "games", "--png", "stats.png", files=("stats.png",))
        run("stats", "games", "--since", "2026-11-01")

    def general(self) -> None:
        """Help, version, rules without a game, simulate."""
        folder = self.work / "general"
        folder.mkdir()
        self.run("general", ["--version"], cwd=folder)
        self.run("general", ["--help"], cwd=folder)
        listing = subprocess.run([self.shmod, "--help"], env=self.env, capture_output=True,
                                 text=True, stdin=subprocess.DEVNULL).stdout
        commands = re.findall(r"^  ([a-z][a-z-]+)  ", listing, re.M)
        for command in commands:
            self.run("help", [command, "--help"], cwd=folder)
        for rule in ("R-VOTE", "R-SPECIAL", "R-MODERATORS"):
            self.run("general", ["rules", rule], cwd=folder)
        self.run("general", ["nominate", "Bob"], cwd=folder)
        self.run("general", ["status", "-g", "missing.yaml"], cwd=folder)
        sim = [f"sim/{n}" for n in ("game-001.yaml", "game-002.yaml", "game-003.yaml")]
        self.run("general", ["simulate", "sim", "-n", "3", "--seed", "7", "-p", "5-10",
                             "--mixed-variants"], cwd=folder, files=tuple(sim))

    def winter(self) -> None:
        """games/words-dealt-8-players.sh, command by command, in an empty folder."""
        folder = self.work / "winter"
        folder.mkdir()
        game = None
        for line in (ROOT / "games/words-dealt-8-players.sh").read_text().splitlines():
            words = shlex.split(line, comments=True)
            if not words or words[0] == "set":
                continue
            if words[0] == "export":
                name, _, value = words[1].partition("=")
                if name == "SHMOD_GAME":
                    game = value
                continue
            now = words.pop(0).partition("=")[2] if words[0].startswith("SHMOD_NOW=") else NOW
            assert words[0] == "shmod", line
            self.run("game-winter", words[1:], cwd=folder, game=game, now=now, show=True,
                     log_format=4)
        assert game
        self.run("game-winter", ["publish"], cwd=folder, game=game)
        self.read_only("game-winter-final", folder, game,
                       ["Ada", "Bruna", "Chiara", "Ines", "Eun-ji", "Farouk", "Greta", "Hollis"])

    def five(self, lang: str, forum: str, *, show: bool) -> None:
        """A five-player game (seed s1: Ann Hitler, Dan the Fascist) from an empty folder in
        ``lang`` for ``forum``; without ``show``, every item delivered through ``send``."""
        group = f"game-five-{lang}-{forum}{'-show' if show else ''}"
        folder = self.work / group
        folder.mkdir()
        minute = [0]

        def run(*args: str) -> None:
            minute[0] += 7
            day, hour, mins = 23 + minute[0] // 1440, minute[0] // 60 % 24, minute[0] % 60
            now = f"2026-11-{day:02d}T{hour:02d}:{mins:02d}:00Z"
            self.run(group, list(args), cwd=folder, game="games/five.yaml", now=now, show=show)
            if not show and args[0] not in ("status", "outbox", "send", "pm", "history"):
                for _ in range(12):  # deliver what the step owes, one item at a time
                    sent = self.run(group, ["send"], cwd=folder, game="games/five.yaml", now=now)
                    if sent.returncode or b"Nothing is owed" in sent.stderr:
                        break

        def votes(ballot: str) -> None:
            for name in FIVE:
                run("vote", name, ballot)

        run("new", *FIVE, "--seed", "s1", "--guessable", "--first", "Ann", "-L", lang,
            "--forum", forum, "--title", "Five", "-z", "Europe/Warsaw")
        run("deadline", "24h")
        run("remind")
        run("nominate", "Bob")
        run("status")
        votes("ja")
        run("discard", "liberal")
        run("enact", "fascist")
        run("nominate", "Cat")
        run("vote", "Ann", "nein")
        run("status")
        run("prods")
        run("vote", "Bob", "no", "Cat", "no", "Dan", "no")
        run("vote", "Eve", "n")
        run("history")
        run("nominate", "Dan")
        votes("ja")
        run("discard", "L")
        run("enact", "F")
        run("nominate", "Eve")
        votes("ja")
        run("discard", "fascist")
        run("enact", "fascist")
        run("nominate", "Ann")  # refused: R-NOMINATE, the peek comes first
        run("peek")
        run("nominate", "Cat")
        votes("ja")
        run("discard", "liberal")
        run("enact", "fascist")
        run("execute", "ann")
        run("nominate", "Bob")  # refused: the game is over
        run("outbox", "--all")
        run("reveal")
        self.read_only(f"{group}-final", folder, "games/five.yaml", FIVE, full=False)


def capture(out: Path, shmod: str) -> None:
    if out.exists() and any(out.iterdir()):
        sys.exit(f"Error: {out} is not empty")
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="shmod-capture-"))
    try:
        cap = Capture(shmod, out, work)
        cap.general()
        cap.shipped()
        cap.winter()
        cap.five("en", "plain", show=True)
        cap.five("en", "phpbb", show=False)
        cap.five("de", "phpbb", show=True)
        cap.five("pl", "markdown", show=False)
        cap.five("qps", "bbcode", show=True)
    finally:
        shutil.rmtree(work)
    print(f"{sum(1 for _ in out.rglob('*.txt'))} outputs in {out}")


def compare(first: Path, second: Path) -> int:
    names = {p.relative_to(first) for p in first.rglob("*") if p.is_file()}
    others = {p.relative_to(second) for p in second.rglob("*") if p.is_file()}
    differ = sorted(n for n in names & others
                    if (first / n).read_bytes() != (second / n).read_bytes())
    for name in differ:
        print(f"differs: {name}")
    for name in sorted(names - others):
        print(f"only in {first}: {name}")
    for name in sorted(others - names):
        print(f"only in {second}: {name}")
    bad = len(differ) + len(names ^ others)
    print(f"{len(names & others) - len(differ)} identical, {bad} differ or missing")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="*", type=Path,
                        help="the output folder (or two folders with --compare)")
    parser.add_argument("--compare", action="store_true", help="list the files that differ")
    parser.add_argument("--shmod", default=str(Path(sys.executable).parent / "shmod"),
                        help="the shmod to run (default: the one next to this Python)")
    args = parser.parse_args()
    if args.compare:
        if len(args.folder) != 2:
            parser.error("--compare needs two folders")
        return compare(*args.folder)
    if len(args.folder) != 1:
        parser.error("give one output folder")
    capture(args.folder[0], args.shmod)
    return 0


if __name__ == "__main__":
    sys.exit(main())
