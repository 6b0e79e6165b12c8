"""``shmod outbox`` and ``shmod send``: every PM and post the game owes, given one at a
time to the right place (R-PM, R-MISSENT; docs/posts.md, "The outbox").

``send`` writes one item's body alone on stdout (its address and a PM's subject on
stderr), or puts it on the clipboard (``--copy``), and records the delivery only once it
was written and flushed; on a terminal it walks the outbox, an item at a time, each
recorded when the moderator says it was sent. Thin wrappers over :mod:`shmod.log.outbox`
(which items, in which order) and :mod:`shmod.texts.outbox_texts` (what they say).
"""

from typing import TYPE_CHECKING, Annotated

import typer

from shmod.base.errors import ShmodError
from shmod.cli.app import FormatOpt, GameOpt, echo, moderator, outbox_line
from shmod.cli.completion import player_names

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from shmod.forum.steps import Delivered
    from shmod.game.steps import Step
    from shmod.log.outbox import Item
    from shmod.log.store import Loaded
    from shmod.texts.formats import Plain
    from shmod.texts.outbox_texts import Text

ItemArg = Annotated[str | None, typer.Argument(
    metavar="[ITEM]", autocompletion=player_names,
    help="Which item: ENTRY:NAME as `shmod outbox` lists it (ENTRY:thread a post), a "
         "player's name (their oldest owed PM), thread (the oldest owed post) or withdrawal "
         "(the oldest owed withdrawal line); default: the next one owed.")]


def _hint(text: str) -> None:
    echo(text, err=True)


def _waited(since: str | None, now: "datetime") -> str:
    """``2h 5m``: how long an item has waited since ``since`` (UTC text)."""
    from shmod.base.errors import BadInput
    from shmod.forum.deadlines import utc

    if not since:
        return "?"
    try:
        minutes = int((now - utc(since)).total_seconds() // 60)
    except BadInput:
        return "?"
    if minutes < 1:
        return "just now"
    days, hours, left = minutes // 1440, minutes // 60 % 24, minutes % 60
    return (f"{days}d {hours}h" if days else f"{hours}h {left}m" if hours else f"{left}m")


def _row(game: "Loaded", item: "Item", now: "datetime") -> str:
    """One line of the listing: the handle, what the item is, what caused it and when."""
    from shmod.log import outbox

    about = outbox.covered(game, item) if item.what == outbox.POST else item.about()
    where = f"entry {item.entry}, " if item.made else ""
    line = f"  {outbox.handle(item):<14} {item.label()} — {about} ({where}"
    if item.owed:
        return line + (f"waiting {_waited(item.at, now)})" if item.made else "to make)")
    if item.voided and not item.delivered:
        return line + "its entry was voided: never sent)"
    if not item.delivered:
        return line + "printed before the outbox began)"
    last = item.delivered[-1]
    by = f" by {last.by}" if last.by else ""
    again = f", {len(item.delivered)} times" if len(item.delivered) > 1 else ""
    return line + f"delivered{by} at {last.at or '?'}{again})"


def outbox(
    log_path: GameOpt,
    every: Annotated[bool, typer.Option(
        "--all", help="Also list the items delivered: by whom, when; and any given to the "
        "wrong reader (R-MISSENT).")] = False,
    settle: Annotated[bool, typer.Option(
        "--settle", help="Record every item owed as delivered (for what was sent by hand, "
        "e.g. in a game begun with an earlier shmod).")] = False,
) -> None:
    """What the game owes: every PM and post not yet delivered, in the order to send them (R-PM);
    `shmod send` gives the next."""
    from shmod.cli import clock
    from shmod.log import outbox as items, store

    loaded = store.load(log_path)
    now = clock.now()
    if settle:
        _settle(log_path, loaded, now)
        return
    listed = items.items(loaded)
    owed = [item for item in listed if item.owed]
    shown = listed if every else owed
    if shown:
        echo(("Every item, in the order to send them:" if every
              else "Owed, in the order to send them:") + "\n"
             + "\n".join(_row(loaded, item, now) for item in shown))
    for item in listed if every else ():
        for wrong in item.wrong:
            echo(f"  R-MISSENT: {item.label()} (entry {item.entry}) reached {wrong.wrong} by "
                 f"mistake at {wrong.at or '?'} (entry {wrong.entry})")
    if owed:
        _hint(f"{len(owed)} owed: `shmod send` gives the next ({owed[0].label()}), `shmod send "
              "ITEM` one of them; on a terminal it walks them all.")
    else:
        _hint("Nothing is owed." + ("" if every else " (`shmod outbox --all` lists what was "
                                    "delivered.)"))


def _settle(path: str, loaded: "Loaded", now: "datetime") -> None:
    """``outbox --settle``: every owed item that exists recorded as delivered, at once."""
    from shmod.cli import clock
    from shmod.log import outbox as items, store

    made = [item for item in items.owed(loaded) if item.made]
    if not made:
        _hint("Nothing is owed: nothing to settle.")
        return
    wanted = {_key(item) for item in made}

    def steps(g: "Loaded") -> "list[Step]":
        return [_delivered(item) for item in items.owed(g) if _key(item) in wanted]

    done = store.record(path, steps, at=clock.text(now), post=False, moderator=moderator())
    _hint(f"Recorded {len(done.entries)} item(s) as delivered (sent by hand): "
          + ", ".join(item.label() for item in made))
    outbox_line(done.loaded)


def _key(item: "Item") -> tuple[str, str, str, int]:
    return item.of, item.to, item.what, item.n


def _delivered(item: "Item", wrong: str | None = None) -> "Delivered":
    from shmod.forum.steps import Delivered

    return Delivered(item.of, item.to, item.what, item.n if item.n > 1 else None, wrong,
                     entry=item.entry)


def deliver(path: str, item: "Item", now: "datetime", wrong: str | None = None,
            emit: "Callable[[], None] | None" = None) -> "Loaded":
    """Record that ``item`` reached its reader (or ``wrong``): the item is found again in
    the log as it is now, under its lock. ``emit`` gives the item (writes it, or copies it)
    once every check passed and before the delivery is written: whatever it raises, nothing
    is recorded. Refused as any step is (a copy that lost this terminal's entries, R-MERGE;
    a moderator who does not hold moderation, R-HANDOVER)."""
    from shmod.base.errors import BadInput
    from shmod.cli import clock
    from shmod.log import outbox as items, store

    def step(g: "Loaded") -> "Delivered":
        found = next((i for i in items.items(g, pending=False) if _key(i) == _key(item)),
                     None)
        if found is None:
            raise BadInput(f"{item.label()} (entry {item.entry}) is no longer in the log "
                           "(another shmod changed it): nothing was recorded")
        return _delivered(found, wrong)

    return store.record(path, step, at=clock.text(now), post=False, moderator=moderator(),
                        before_write=None if emit is None else lambda _done: emit()).loaded


class _Checked(ShmodError):
    """A delivery checked and not written (:func:`recordable`)."""


def recordable(path: str, item: "Item", now: "datetime") -> None:
    """Refuse now, before the item is shown, a delivery that could not be recorded once it
    is sent (the walk records it only after the moderator says it was sent)."""
    def stop() -> None:
        raise _Checked

    try:
        deliver(path, item, now, emit=stop)
    except _Checked:
        pass


def _text(loaded: "Loaded", item: "Item", fmt: "Plain", path: str) -> "Text":
    from shmod.texts import outbox_texts, pms

    return outbox_texts.text(loaded, item, fmt, pms.title(path, loaded.log.header))


def _address(item: "Item", text: "Text", loaded: "Loaded") -> str:
    """``PM to Ann · subject "…"`` or ``post 3 for the thread``: where the item goes."""
    from shmod.base.plaintext import one_line
    from shmod.log import outbox

    if item.what == outbox.WITHDRAWAL:
        return f"{item.label()} for the thread: {outbox.covered(loaded, item)}"
    if text.subject is None:
        return f"{item.label()} for the thread ({outbox.covered(loaded, item)})"
    return f'{item.label()} · subject "{one_line(text.subject)}"'


def _made(path: str, fmt: "Plain") -> "tuple[Loaded, Item]":
    """The post not yet made, made and recorded (R-THREAD), as an item of the outbox."""
    from shmod.cli import clock
    from shmod.log import outbox as items, store
    from shmod.texts import thread_posts

    marked = thread_posts.mark_next(path, fmt, at=clock.stamp(), moderator=moderator())
    loaded = store.load(path)
    item = next(i for i in items.items(loaded) if i.what == items.POST and
                i.post == marked.number)
    return loaded, item


def send(
    log_path: GameOpt,
    item: ItemArg = None,
    preview: Annotated[bool, typer.Option(
        "--preview", help="Show the item without recording it as delivered.")] = False,
    copy: Annotated[bool, typer.Option(
        "--copy", help="Put the text on the clipboard instead of stdout: the system's, else "
        "the terminal's (OSC 52, written to /dev/tty).")] = False,
    wrong: Annotated[bool, typer.Option(
        "--wrong", help="Record that ITEM reached the wrong reader (R-MISSENT): the game "
        "goes on, and the item stays owed.")] = False,
    to: Annotated[str | None, typer.Option(
        "--to", metavar="READER", autocompletion=player_names,
        help="The player a wrong delivery reached, or thread.")] = None,
    fmt_name: FormatOpt = None,
) -> None:
    """Give the next item of the outbox (or ITEM): its text alone on stdout, its address
    and a PM's subject on stderr; recorded as delivered once written (R-PM). On a terminal,
    walk the outbox: each item shown (or copied), Enter once it is sent, then the next."""
    import sys

    from shmod.base.errors import BadInput
    from shmod.cli import clock, output
    from shmod.log import outbox as items, store
    from shmod.texts import formats

    loaded = store.load(log_path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    if wrong or to is not None:
        if not (wrong and to and item):
            raise BadInput("a wrong delivery names the item and whom it reached: shmod send "
                           "--wrong ITEM --to NAME (or --to thread)")
        _missent(log_path, loaded, item, to, fmt)
        return
    if not preview and sys.stdin.isatty() and sys.stdout.isatty():
        _walk(log_path, loaded, fmt, item, copy)
        return
    chosen = items.pick(loaded, item, owed_only=preview)
    if chosen is None:
        _hint("Nothing is owed. (`shmod outbox --all` lists what was delivered; `shmod send "
              "ENTRY:NAME` gives an item again.)")
        return
    if not chosen.made and preview:
        from shmod.texts import thread_posts

        shown = thread_posts.preview(loaded, fmt, clock.now())
        _hint("What the next post would say (not made, nothing recorded):")
        echo(shown or "")
        return
    if not preview:
        output.require_open()
    if not chosen.made:
        loaded, chosen = _made(log_path, fmt)
    text = _text(loaded, chosen, fmt, log_path)
    if preview:
        _hint(_address(chosen, text, loaded) + " (preview: nothing recorded)")
        echo(text.body)
        return
    again = _given_before(chosen)
    after = deliver(log_path, chosen, clock.now(), emit=lambda: _give(loaded, chosen, text, copy))
    _hint(f"Recorded {chosen.label()} as delivered{again}.")
    outbox_line(after)


def _give(loaded: "Loaded", chosen: "Item", text: "Text", copy: bool) -> None:
    """Every check passed: the text out (or on the clipboard), before the delivery is
    written; a text that could not be written in full records nothing."""
    from shmod.cli import output

    _hint(_address(chosen, text, loaded))
    if copy:
        from shmod.cli import clipboard
        from shmod.log.outbox import handle

        copied = clipboard.copy(text.body)
        _hint(f"Copied to {copied.where}.")
        if copied.caution:
            _hint(f"{copied.caution} `shmod send {handle(chosen)} --preview` prints it "
                  "(it is recorded as delivered).")
        return
    echo(text.body)
    reason = output.whole()
    if reason:
        from shmod.base.errors import OutputLost

        raise OutputLost(f"nothing was recorded: the text could not be written ({reason}); "
                         f"{chosen.label()} is still owed")


def _given_before(item: "Item") -> str:
    """`` again (delivered before by Bob at …)`` for an item given again."""
    if not item.delivered:
        return " again (counted as sent before the outbox began)" if not item.owed else ""
    last = item.delivered[-1]
    by = f" by {last.by}" if last.by else ""
    return f" again (delivered before{by} at {last.at or '?'})"


def _walk(path: str, loaded: "Loaded", fmt: "Plain", only: str | None, copy: bool) -> None:
    """The outbox, an item at a time, on a terminal: each shown framed (or copied: a PM's
    subject, Enter, its text), Enter once it is sent, which records it, then the next.
    Ctrl-C (or end of input) stops: what is left stays owed, nothing is half-recorded."""
    import signal
    import sys

    from shmod.cli import clock
    from shmod.log import outbox as items, store

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # started where Ctrl-C was ignored
        signal.signal(signal.SIGINT, signal.default_int_handler)  # (a script's `&`): it stops
    given = 0
    try:
        while True:
            if only is None:  # the whole outbox, in order
                chosen = items.pick(loaded, None)
            else:  # the one item named, once
                chosen = None if given else items.pick(loaded, only, owed_only=False)
            if chosen is None:
                break
            left = len(items.owed(loaded))
            if not chosen.made:
                loaded, chosen = _made(path, fmt)
            text = _text(loaded, chosen, fmt, path)
            recordable(path, chosen, clock.now())  # refused now, not once it is sent
            heading = f"── {chosen.label()} ({items.handle(chosen)}) · {left} owed "
            sys.stdout.write(heading + "─" * max(3, 80 - len(heading)) + "\n")
            if copy:
                from shmod.cli import clipboard

                if text.subject is not None:
                    copied = clipboard.copy(text.subject)
                    echo(f"Subject copied to {copied.where}: paste it, then press Enter for "
                         "the text.")
                    input()
                copied = clipboard.copy(text.body)
                if copied.caution:
                    echo(f"{copied.caution} Press Ctrl-C, then run `shmod send` without "
                         "--copy.")
                echo(f"Text copied to {copied.where}: paste it and send it, then press Enter "
                     "(Ctrl-C stops: the rest stays owed).")
            else:
                echo(text.framed())
                sys.stdout.write("─" * 80 + "\n")
                echo(f"Send it ({_address(chosen, text, loaded)}), then press Enter "
                     "(Ctrl-C stops: the rest stays owed).")
            input()
            loaded = deliver(path, chosen, clock.now())
            given += 1
            echo(f"Recorded {chosen.label()} as delivered.\n")
    except (KeyboardInterrupt, EOFError):
        echo("")
        _hint(f"Stopped: {given} delivered; the rest stays owed.")
        outbox_line(store.load(path))
        raise SystemExit(130) from None
    outbox_line(loaded)


def _missent(path: str, loaded: "Loaded", wanted: str, reader: str, fmt: "Plain") -> None:
    """``send --wrong ITEM --to NAME``: recorded honestly (R-MISSENT), and the moderator
    told what the wrong reader learned; the item stays owed."""
    from shmod.base.errors import BadInput
    from shmod.cli import clock
    from shmod.log import outbox as items

    chosen = items.pick(loaded, wanted, owed_only=False)
    if chosen is None or not chosen.made:
        raise BadInput("R-MISSENT: name an item that was made (ENTRY:NAME, as `shmod outbox "
                       "--all` lists it)")
    if reader.strip().lower() == items.THREAD:
        who = items.THREAD
    else:
        who = loaded.table.game.players[loaded.seating.seat(reader)] if reader not in {
            old for _s, old, _n, _e in [*loaded.table.replaced, *loaded.table.renamed]} \
            else reader
    text = _text(loaded, chosen, fmt, path)
    after = deliver(path, chosen, clock.now(), wrong=who)
    learned = "the thread" if who == items.THREAD else who
    _hint(f"R-MISSENT: recorded that {chosen.label()} (entry {chosen.entry}) reached "
          f"{learned} instead of {'the thread' if chosen.to == items.THREAD else chosen.to}. "
          "The game goes on; the audit lists it, and the replay shows it once the game is "
          f"over. {chosen.label()} is still owed (shmod send {items.handle(chosen)}).")
    _hint(f"What {learned} learned:\n{text.framed()}")
    outbox_line(after)
