"""``shmod repair``: the command side of :mod:`shmod.log.repair`."""

from shmod.cli.app import GameOpt, echo


def repair(log_path: GameOpt) -> None:
    """Move a torn final entry or a step cut off by a crash, whole, to a backup beside the
    log."""
    from shmod.cli import clock, output
    from shmod.log.repair import repair as run

    output.require_open()
    done = run(log_path, at=clock.stamp())
    if done.backup is None:
        echo(f"Nothing to repair: {log_path} loads cleanly ({done.entries} entries).")
        return
    what = "the step cut off, whole" if done.step else "the torn final entry"
    echo(f"Moved {what} (line {done.line}, {done.moved} bytes) to "
         f"{done.backup}; {log_path} now ends with entry {done.entries} and loads cleanly. "
         "Record the interrupted step again if it is still due.")
    output.check(f"{what} was moved to {done.backup}",
                 "`shmod status` shows where the game stands")
