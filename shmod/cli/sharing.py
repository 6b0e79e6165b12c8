"""A game shared by several moderators: ``moderators``, ``handover``, ``merge``,
``git-setup`` and ``merge-driver`` (docs/comoderators.md, R-MODERATORS, R-HANDOVER,
R-MERGE). Thin wrappers over :mod:`shmod.forum.moderators`, :mod:`shmod.log.merge` and
:mod:`shmod.log.seen`; the git side is :mod:`shmod.cli.gitsetup`.
"""

from typing import TYPE_CHECKING, Annotated

import typer

from shmod.cli.app import (
    FormatOpt,
    GameOpt,
    echo,
    git_check,
    moderator,
    outbox_line,
    record_step,
    show_sections,
)

if TYPE_CHECKING:
    from shmod.game.steps import Step
    from shmod.log.logfile import LogFile
    from shmod.log.store import Loaded

#: What to do after ``git pull`` refused to merge a log (the file holds yours).
GIT_ADVICE = ("the file holds yours: keep it (`git add {path}`) or take theirs (`git checkout "
              "--theirs {path} && git add {path}`), commit, and record the other copy's steps "
              "again with shmod; or `git merge --abort` and agree with the other moderator first")
#: The same during ``git pull --rebase``: git replays yours on top of theirs, the file
#: holds theirs, and git calls yours "theirs".
REBASE_ADVICE = ("the file holds theirs (a rebase replays your commits on top of theirs): "
                 "keep theirs (`git add {path}`) or take yours (`git checkout --theirs {path} "
                 "&& git add {path}`: during a rebase git calls yours theirs), then `git rebase "
                 "--continue`, and record the other copy's steps again with shmod; or `git "
                 "rebase --abort` and agree with the other moderator first")
#: What to do after ``shmod merge COPY`` refused.
SYNC_ADVICE = ("decide with the other moderator which copy stands, and record the other's "
               "steps again on it")


def moderators(
    log_path: GameOpt,
    names: Annotated[list[str] | None, typer.Argument(
        metavar="[NAME]...", help="Moderators to add (or to drop, with --drop).",
        show_default=False)] = None,
    drop: Annotated[bool, typer.Option("--drop", help="Drop the names instead.")] = False,
    fmt_name: FormatOpt = None,
) -> None:
    """The game's moderators (R-MODERATORS): add NAMEs (a post says so), or --drop them;
    without names, the list and who records now."""
    from shmod.base.errors import BadInput
    from shmod.forum.steps import Moderator
    from shmod.log import store

    if not names:
        from shmod.forum.explain import who_records

        state = store.load(log_path).table
        listed = ", ".join(state.moderators) or "none listed (one moderator: nothing to name)"
        lines = [f"Moderators: {listed}", *who_records(state.moderators, state.handover,
                                                       state.taken)]
        show_sections([("Moderators", "\n".join(lines))])
        return
    me = moderator()

    def make(g: "Loaded") -> "list[Step]":
        steps: list[Step] = [Moderator(name, drop=drop) for name in names]
        if not g.table.moderators and not drop:
            if me is None and len(names) < 2:
                raise BadInput("R-MODERATORS: this game lists no moderator yet: list yourself "
                               "too (shmod moderators YOU NAME), or say who you are with --as "
                               "YOU")
            if me is not None and me.strip().casefold() not in {n.strip().casefold()
                                                                 for n in names}:
                steps.insert(0, Moderator(me))
        return steps

    record_step(log_path, fmt_name, make)


def handover(
    log_path: GameOpt,
    name: Annotated[str | None, typer.Argument(
        metavar="[NAME]", help="The listed moderator moderation passes to.")] = None,
    accept: Annotated[str | None, typer.Option(
        "--accept", metavar="LINE",
        help="Take moderation over: the hand-over post's checkpoint line, pasted from the "
             "thread; your copy of the log must give it.")] = None,
    fmt_name: FormatOpt = None,
) -> None:
    """Hand moderation over to another listed moderator: a post for the thread, ending with
    its checkpoint (R-HANDOVER); the incoming moderator takes over with --accept 'LINE'."""
    from shmod.base.errors import BadInput
    from shmod.forum import moderators as listing
    from shmod.forum.steps import Handover

    if (name is None) == (accept is None):
        raise BadInput("give the moderator to hand over to (shmod handover NAME), or the "
                       "hand-over post's checkpoint line to take over (--accept 'LINE')")
    if accept is not None:
        _take_over(log_path, accept)
        return
    assert name is not None

    def make(g: "Loaded") -> "Step":
        found = listing.listed(g.table, name)
        return Handover(found or name.strip())

    record_step(log_path, fmt_name, make)


def _take_over(game: str, line: str) -> None:
    """``handover --accept LINE``: the copy must give the hand-over post's checkpoint."""
    from shmod.base.errors import RuleBroken
    from shmod.cli import clock, output
    from shmod.forum import moderators as listing
    from shmod.forum.steps import Takeover
    from shmod.log import checkpoints, store

    claims = [c for c in checkpoints.find(line) if c.signed and c.post is not None]
    if len(claims) != 1:
        raise RuleBroken("R-HANDOVER", "paste the hand-over post's checkpoint line as the "
                         "thread shows it (Log checkpoint: post N · … · …), and only that line")
    claim = claims[0]
    assert claim.post is not None
    output.require_open()

    def make(g: "Loaded") -> "Step":
        posts, state = g.table.posts, g.table
        if claim.post is not None and claim.post > len(posts):
            raise RuleBroken("R-HANDOVER", f"your copy of the log has posts up to post "
                             f"{len(posts)}, not post {claim.post}: it lacks the hand-over; "
                             "get the other moderator's copy first (git pull, or the synced "
                             "file), then run this again")
        post = listing.handover_post(state)
        if post is None or state.taken:
            raise RuleBroken("R-HANDOVER", "your copy of the log records no hand-over waiting "
                             "to be taken over")
        if claim.post != post:
            raise RuleBroken("R-HANDOVER", f"that line is post {claim.post}'s; the hand-over "
                             f"was announced in post {post}: paste that post's line")
        setup = g.setup
        judged = checkpoints.judge(claim, setup.salt, g.heads, posts, key=setup.moderator_key,
                                   commitment=checkpoints.game_commitment(setup))
        if not judged.genuine:
            raise RuleBroken("R-HANDOVER", "that line's signature does not verify under the "
                             "game's key: it is not the line the hand-over post ends with "
                             "(a typo, or another game's)")
        if not judged.matches:
            raise RuleBroken("R-HANDOVER", f"your copy of the log does not give post {post}'s "
                             "checkpoint: it is not the log the hand-over was posted from; get "
                             "the other moderator's copy, and take over on it")
        return Takeover(post)

    git_check(game)
    done = store.record(game, make, at=clock.stamp(), post=False, moderator=moderator())
    state = done.loaded.table
    holder = state.handover[1] if state.handover else "?"
    show_sections([], [("Taken over", f"your copy gives the hand-over post's checkpoint: {holder} "
                        "moderates now (recorded as entry "
                        f"{state.entries})")])
    output.check("the take-over was recorded", "`shmod moderators` shows who moderates")


def merge(
    log_path: GameOpt,
    copy: Annotated[str | None, typer.Argument(
        metavar="[COPY]", help="Another copy of the game's log (a synced folder's conflicted "
        "copy, a backup) to merge into it.")] = None,
    mine: Annotated[bool, typer.Option(
        "--mine", help="Merge back what this terminal last wrote to the log.")] = False,
    forget: Annotated[bool, typer.Option(
        "--forget", help="Leave out what this terminal wrote and the log no longer holds: "
        "the next step is recorded on the log as it is.")] = False,
) -> None:
    """Join another copy of the log into it, without losing or reordering a step (R-MERGE);
    --mine: what this terminal last wrote; --forget: leave that out on purpose."""
    from shmod.base.errors import BadInput
    from shmod.log import logfile, seen

    if sum((copy is not None, mine, forget)) != 1:
        raise BadInput("give one of: the other copy's file, --mine, or --forget")
    git_check(log_path)
    if forget:
        remembered = seen.recall(log_path)
        seen.forget(log_path)
        what = (f"what this terminal last wrote ({len(remembered['ids'])} entries)"
                if remembered else "nothing (this terminal remembered nothing of this log)")
        show_sections([], [("Forgotten", f"{what}; the next step is recorded on {log_path} "
                                         "as it is")])
        return
    if mine:
        data = seen.mine(log_path)
        if data is None:
            raise BadInput(f"this terminal remembers nothing it wrote to {log_path} (the cache is "
                           "off, or it never recorded on this log here)")
        where = f"{log_path} (as this terminal last wrote it)"
        labels = ("the log", "what this terminal last wrote")
    else:
        import os

        assert copy is not None
        data, _ = logfile.read_bytes(copy, logfile.MAX_BYTES, "no such file")
        where = copy
        labels = ("the log", os.path.basename(copy))
    echo(join(log_path, logfile.parse(where, data), SYNC_ADVICE, labels), err=True)
    from shmod.log import store

    outbox_line(store.load(log_path))  # what the merged log owes: one outbox for both


def join(game: str, theirs: "LogFile", advice: str,
         labels: tuple[str, str] = ("yours", "theirs")) -> str:
    """Merge ``theirs`` (a parsed copy) into the log at ``game`` under its lock; what it did."""
    from shmod.log import logfile, merge as merging, seen

    with logfile.locked(game) as fd:
        ours = logfile.read(game)
        merged = merging.merge(ours, theirs, where=game, advice=advice, labels=labels)
        if merged.data != ours.data:
            if merged.data.startswith(ours.data) and not ours.torn:
                logfile.append(fd, merged.data[len(ours.data):].decode("utf-8"), game)
            else:
                logfile.replace(game, merged.data)
    _private(game)
    seen.remember(logfile.parse(game, merged.data))
    return f"{game}: {merged.said()}"


def _private(path: str) -> None:
    """The log back to mode 0600: it holds every role (docs/comoderators.md)."""
    import os

    try:
        os.chmod(path, 0o600)
    except OSError:
        pass


def git_setup(
    log_path: GameOpt,
    pattern: Annotated[str | None, typer.Option(
        "--pattern", metavar="PATTERN",
        help="Which files are game logs, as .gitattributes matches them (default: the .yaml "
             "files in the game's folder).")] = None,
    hook: Annotated[bool, typer.Option(
        "--hook", hidden=True, help="Only make the logs private (what git's hooks run).")] = False,
    during: Annotated[str | None, typer.Option(
        "--during", hidden=True, help="The hook that runs it (with --hook).")] = None,
) -> None:
    """Set up the git repository the game's log is in, for moderators who share it: its
    .gitattributes and git config name shmod's merge driver for the logs, and hooks make
    them private after every merge and checkout (docs/comoderators.md)."""
    from shmod.cli import gitsetup

    if hook:
        gitsetup.hook(log_path, during)
        return
    for line in gitsetup.setup(log_path, pattern):
        echo(line, err=True)


def merge_driver(
    base: Annotated[str, typer.Argument(metavar="BASE", help="git's %O: the common ancestor.")],
    ours: Annotated[str, typer.Argument(
        metavar="OURS", help="git's %A: yours (theirs during a rebase), and where the result "
        "goes.")],
    theirs: Annotated[str, typer.Argument(metavar="THEIRS",
                                          help="git's %B: theirs (yours during a rebase).")],
    path: Annotated[str, typer.Argument(metavar="PATH", help="git's %P: the log's path.")],
) -> None:
    """git's merge driver for game logs (shmod git-setup names it): the merged log in OURS
    and exit 0, or a refusal naming where the copies part and exit 1, both unchanged."""
    from shmod.cli import gitsetup
    from shmod.log import logfile, merge as merging

    read = [logfile.read_bytes(name, logfile.MAX_BYTES, "no such file")[0]
            for name in (base, ours, theirs)]
    if not any(map(gitsetup.looks_like_log, read)):
        raise typer.Exit(gitsetup.merge_text(base, ours, theirs, path))
    mine, other = (logfile.parse(path, data) for data in read[1:])
    if gitsetup.rebasing():  # %A is theirs: git replays yours (%B) on top of it
        merged = merging.merge(mine, other, where=path, advice=REBASE_ADVICE.format(path=path),
                               labels=("theirs", "yours"))
    else:
        merged = merging.merge(mine, other, where=path, advice=GIT_ADVICE.format(path=path))
    if merged.data != read[1]:
        logfile.replace(ours, merged.data)
    echo(f"shmod: {path}: {merged.said()}", err=True)
