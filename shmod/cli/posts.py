"""``shmod post``, ``pm``, ``reveal``, ``history`` and ``board``: text to paste (or a picture
to attach), hints on stderr."""

from typing import TYPE_CHECKING, Annotated

import typer

from shmod.cli.app import (
    FormatOpt,
    GameOpt,
    echo,
    framed,
    git_check,
    moderator,
    show_sections,
    showing,
)
from shmod.cli.completion import player_names

if TYPE_CHECKING:
    from shmod.log.store import Loaded
    from shmod.texts.formats import Plain
    from shmod.texts.thread_posts import Post


def _hint(text: str) -> None:
    echo(text, err=True)


def post(
    log_path: GameOpt,
    fmt_name: FormatOpt = None,
    mark: Annotated[bool, typer.Option(
        "--mark", hidden=True,
        help="(Every post is recorded; kept for old scripts.)")] = False,
    preview: Annotated[bool, typer.Option(
        "--preview",
        help="Show what the next post would say, without recording it (not for pasting: it has "
             "no checkpoint).")] = False,
    again: Annotated[int | None, typer.Option(
        "--again", metavar="N", help="Print post N again, exactly as it was.")] = None,
    list_posts: Annotated[bool, typer.Option("--list", help="List the posts made so far.")] = False,
    board: Annotated[bool, typer.Option(
        "--board/--no-board",
        help="End with the board state.")] = True,
    images: Annotated[str | None, typer.Option(
        "--images", metavar="DIR",
        help="Also write the post's board as a picture into DIR (post-N-entry-M.svg, and .png "
             "with the images extra), to attach.")] = None,
) -> None:
    """The next thread post: every public step not yet posted, recorded as posted (R-THREAD)."""
    from shmod.log import store
    from shmod.texts import formats, thread_posts

    loaded = store.load(log_path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    if list_posts:
        rows = thread_posts.listing(loaded)
        for number, first, upto in rows:
            echo(f"post {number}: entries {first} to {upto}")
        if not rows:
            _hint("No post has been made yet.")
        return
    if again is not None:
        made = thread_posts.earlier_post(loaded, again, fmt, board=board)
        _post_images(loaded, made, images)  # a folder it cannot write: refused before the post
        _hint(f"Post {made.number} (entries {made.first} to {made.upto}), as posted:")
        echo(made.text)
        return
    if preview or not thread_posts.news(loaded.table, asked=True):
        from shmod.cli import clock

        shown = thread_posts.preview(loaded, fmt, clock.now(), board=board)
        if shown is not None:
            _hint("What the next post would say (nothing recorded):")
            echo(shown)
            return
        _hint(f"Nothing new since the last post (entry {thread_posts.last_posted(loaded.table)}); "
              "`shmod post --again N` prints an earlier post.")
        progress = thread_posts.vote_progress(loaded, fmt)
        if progress:
            _hint("Still coming in; this note may be posted (it is not a numbered post):")
            echo(progress)
        return
    from shmod.base.errors import BadInput, OutputLost
    from shmod.cli import clock, output

    output.require_open()
    if images is not None:  # what could not be written is refused before recording
        _check_images(images, _picture(len(loaded.table.posts) + 1, loaded.table.entries))
    git_check(log_path)
    marked = thread_posts.mark_next(log_path, fmt, board=board, at=clock.stamp(),
                                    moderator=moderator())
    echo(marked.text)
    _hint(f"Post {marked.number} (entries {marked.first} to {marked.upto}), recorded as "
          "posted: paste it as it is.")
    done, how = (f"post {marked.number} was recorded as posted",
                 f"`shmod post --again {marked.number}` prints it")
    if images is not None and marked.upto > loaded.table.entries:
        loaded = store.load(log_path)  # another shmod recorded a step since: draw the post's board
    try:
        if images is not None:
            _folder(images)
        _post_images(loaded, marked, images)
    except BadInput as failed:
        raise OutputLost(f"{done}, but its pictures could not be written ({failed}); do not "
                         f"record it again: {how} (with --images DIR, its pictures)") from None
    output.check(done, how)
    _sent(log_path, marked.number)


def _sent(path: str, number: int) -> None:
    """Post ``number``, printed whole, recorded as delivered (R-PM): it leaves the outbox."""
    from shmod.cli import clock, output
    from shmod.cli.app import outbox_line
    from shmod.cli.outbox import deliver
    from shmod.log import outbox, store

    reason = output.whole()
    loaded = store.load(path)
    if reason:
        _hint(f"Post {number} is not recorded as delivered ({reason}): `shmod send thread` "
              "gives it again.")
    else:
        item = next(i for i in outbox.items(loaded, pending=False) if i.post == number)
        loaded = deliver(path, item, clock.now())
    outbox_line(loaded)


def _folder(path: str) -> None:
    """Create the folder ``path`` if it is missing; refuse one that cannot be written."""
    import os

    from shmod.base.errors import BadInput

    try:
        os.makedirs(path, exist_ok=True)
    except RecursionError:  # os.makedirs recurses once per missing folder
        raise BadInput(f"cannot write into {path}: too many nested folders") from None
    except OSError as err:
        raise BadInput(f"cannot write into {path}: {err.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write into {path}: permission denied")


def _picture(number: int, upto: int) -> str:
    """The pictures' name (without .svg or .png) for post ``number`` up to entry ``upto``."""
    return f"post-{number}-entry-{upto}"


def _check_images(folder: str, name: str) -> None:
    """``post --images DIR``, before anything is recorded (nothing is created either): DIR
    or the folder it would be made in must be a folder shmod can write into, and neither
    picture's name may hold what shmod never writes over (a folder, a FIFO or a device, a
    game log or a link to one: :func:`shmod.log.outfiles.check`)."""
    import os

    from shmod.base.errors import BadInput
    from shmod.log import outfiles

    existing = os.path.abspath(folder)
    while not os.path.lexists(existing) and os.path.dirname(existing) != existing:
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise BadInput(f"cannot write into {folder}: {existing} is not a folder; nothing was "
                       "recorded")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write into {folder}: permission denied; nothing was recorded")
    for ending in (".svg", ".png"):
        try:
            outfiles.check(os.path.join(folder, name + ending))
        except BadInput as err:
            raise BadInput(f"{err}; nothing was recorded") from None


def _post_images(loaded: "Loaded", post: "Post", folder: str | None) -> None:
    """``post --images DIR``: the board the post shows, as pictures named for the post."""
    if folder is None:
        return
    import os

    from shmod.base.errors import BadInput
    from shmod.log import outfiles
    from shmod.texts import board_image, thread_posts, views
    from shmod.texts.catalog import get as language

    state = (loaded.table if post.upto >= loaded.table.entries
             else thread_posts.state_at(loaded, post.upto))
    view = views.public_view(state)
    lang = language(loaded.setup.language)
    base = os.path.join(folder, _picture(post.number, post.upto))
    outfiles.write(base + ".svg", board_image.svg(view, lang).encode())
    written = [base + ".svg"]
    try:
        picture = board_image.png(view, lang)
    except BadInput as missing:  # without the images extra: the SVG alone
        _hint(str(missing))
    else:
        outfiles.write(base + ".png", picture)
        written.insert(0, base + ".png")
    _hint(f"Attach {' or '.join(written)} to post {post.number}; its alt text: "
          f"{board_image.describe(view, lang)}")


def pm(
    log_path: GameOpt,
    player: Annotated[str | None, typer.Argument(
        metavar="NAME", autocompletion=player_names,
        help="Show every PM this player has been sent, each with its subject (its entry on "
             "stderr).")] = None,
    entry: Annotated[int | None, typer.Option(
        "--entry", metavar="N", help="The PMs log entry N caused (0: roles); with NAME, that "
        "player's one PM alone (its subject on stderr).")] = None,
    fmt_name: FormatOpt = None,
) -> None:
    """A player's PMs so far (R-PM); without NAME, the PMs the outbox owes, listed on stderr
    (`shmod send` gives them, one at a time; --show prints them framed)."""
    from shmod.base.errors import BadInput
    from shmod.log import store
    from shmod.texts import formats, pms

    loaded = store.load(log_path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    state = loaded.table
    title = pms.title(log_path, loaded.log.header)
    if player is None:
        _unnamed(loaded, entry, fmt, title)
        return
    chosen = pms.sent_to(state, state.game.players[loaded.seating.seat(player)])
    if entry is not None:
        chosen = [s for s in chosen if s.entry == entry]
        if not chosen:
            raise BadInput(f"entry {entry} sent {player} no PM (`shmod pm {player}` lists "
                           "theirs)")
        if len(chosen) == 1:
            from shmod.texts.messages import pm_text, subject

            _hint(f"PM to {chosen[0].to} (entry {entry}) · subject "
                  f'"{subject(chosen[0], title, fmt)}"')
            echo(pm_text(chosen[0], fmt))
            return
    if not chosen:
        _hint("No PMs.")
    rendered = pms.render(chosen, fmt, title)
    if showing():
        framed(rendered)
    else:  # each PM's heading (its entry, what it is) on stderr, its subject and text here
        show_sections(rendered)


def _unnamed(loaded: "Loaded", entry: int | None, fmt: "Plain", title: str) -> None:
    """``pm`` without a name: the PMs owed (or entry N's), one line each on stderr; with
    ``--show``, each framed on stdout."""
    from shmod.log import outbox
    from shmod.texts import pms

    if entry is not None:
        pms.at_entry(loaded.table, entry)  # an entry the log has, or refused
    every = [item for item in outbox.items(loaded, pending=False)
             if item.secret is not None and (item.entry == entry if entry is not None
                                             else item.owed)]
    if showing():
        framed(pms.render([item.secret for item in every if item.secret], fmt, title))
        return
    what = f"entry {entry} caused" if entry is not None else "the outbox owes"
    if not every:
        _hint(f"No PMs: {what} none.")
        return
    _hint(f"The PMs {what} (each is given alone by `shmod send ITEM`; `shmod pm NAME "
          "--entry N` prints one again):\n" + "\n".join(
              f"  {outbox.handle(item):<14} {item.label()} — {item.about()}"
              + ("" if item.owed else " (delivered)") for item in every))


def unhidden(fmt: "Plain") -> None:
    """Say on stderr that ``fmt``'s engine has no spoiler: what a post reveals is not
    hidden but follows a warning line."""
    if not fmt.hides_spoilers:
        _hint(f"The {fmt.name} profile has no spoiler tag: the reveal is NOT hidden; it "
              "follows a warning line (SPOILER: …). With a spoiler tag on your board, use "
              "that profile (phpbb-spoiler, xenforo, discourse).")


def reveal(
    log_path: GameOpt,
    fmt_name: FormatOpt = None,
    spoiler: Annotated[bool, typer.Option(
        "--spoiler/--no-spoiler",
        help="Wrap it in a spoiler.")] = True,
) -> None:
    """After the game: every role, hand, discard, result and the deck, for the thread."""
    from shmod.log import store
    from shmod.texts import formats, reveal as reveals

    loaded = store.load(log_path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    text = reveals.reveal_text(loaded, fmt, spoiler=spoiler)
    if spoiler:
        unhidden(fmt)
    echo(text)
    if loaded.setup.signing_key is not None:
        _hint("Then publish the log with `shmod publish`: it writes a copy without your "
              "private signing key, which must never be published (with it anyone could "
              "sign checkpoints in your name); players audit that copy with `shmod audit "
              "LOG --thread THREAD`.")


def publish(
    log_path: GameOpt,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE",
        help="Where to write the copy (default: the log's name with .published before "
             ".yaml).")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Publish a game that is not over (it holds every secret).")] = False,
) -> None:
    """After the game: write the log to publish, without the private signing key."""
    from shmod.log.publish import dealt_roles, publish as run

    target, made = run(log_path, output, force=force)
    echo(target)
    roles = (", with the roles the players' words dealt (for anyone recomputing the deal)"
             if dealt_roles(made) else "")
    _hint(f"Wrote {target}: the log without the moderator's private signing key{roles}. Publish "
          "this copy, never the game file itself; anyone can audit it against the thread "
          f"with `shmod audit {target} --thread THREAD`.")


def history(
    log_path: GameOpt,
    fmt_name: FormatOpt = None,
    grid: Annotated[bool, typer.Option(
        "--grid", help="The wide grid instead, a column per seat (too wide for a phone or "
        "an 80-column terminal).")] = False,
    bbcode_table: Annotated[bool, typer.Option(
        "--bbcode-table", help="The grid, and with -f bbcode as a [table] for forums that "
        "have one instead of an aligned [code] block.")] = False,
) -> None:
    """Every election so far: each player's vote in seating order, results, policies, powers;
    then every claim (R-CLAIM), marked true or false once the game is over."""
    from shmod.log import store
    from shmod.texts import claim_texts, formats, views
    from shmod.texts.history import record_text

    loaded = store.load(log_path)
    fmt = formats.chosen(fmt_name, loaded.setup.forum, loaded.setup.language)
    view = views.public_view(loaded.table)
    text = record_text(view, fmt, claim_texts.truth(loaded.table), grid=grid,
                       bbcode_table=bbcode_table)
    _hint("Post in the thread (the voting record):")
    echo(text)


def board(
    log_path: GameOpt,
    png: Annotated[str | None, typer.Option(
        "--png", metavar="FILE",
        help="Write the board as PNG (needs the images extra: pip install "
             "'shmod[images]').")] = None,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE",
        help="Write the board as SVG.")] = None,
    entry: Annotated[int | None, typer.Option(
        "--entry", metavar="N",
        help="The board as it stood after log entry N.")] = None,
) -> None:
    """The board as a picture for the thread; prints its alt text (public information only)."""
    from shmod.base.errors import BadInput
    from shmod.log import outfiles, store
    from shmod.texts import board_image, thread_posts, views
    from shmod.texts.catalog import get as language

    if png is None and svg is None:
        raise BadInput("name a picture to write: --png FILE and/or --svg FILE")
    for path, kind in ((png, "png"), (svg, "svg")):
        if path is not None and not path.lower().endswith(f".{kind}"):
            raise BadInput(f"--{kind} {path!r}: the picture is {kind.upper()}, so its file "
                           f"name must end in .{kind} (a forum and a browser go by the "
                           "name's ending)")
    loaded = store.load(log_path)
    if entry is not None and not 0 <= entry <= loaded.table.entries:
        raise BadInput(f"there is no entry {entry}: the log has entries 0 to "
                       f"{loaded.table.entries}")
    state = loaded.table if entry is None else thread_posts.state_at(loaded, entry)
    view = views.public_view(state)
    lang = language(loaded.setup.language)
    for path, make in ((png, board_image.png), (svg, board_image.svg)):
        if path is not None:
            made = make(view, lang)
            outfiles.write(path, made.encode() if isinstance(made, str) else made)
            _hint(f"Wrote {path}")
    echo(board_image.describe(view, lang))


def require_ending(option: str, path: str, kind: str, endings: tuple[str, ...]) -> None:
    """Refuse ``path`` for a file of ``kind`` unless its name ends in one of ``endings``:
    a forum and a browser go by the ending, and a slip (``-o games/friday.yaml``) must
    never write a page or a picture over a game log."""
    from shmod.base.errors import BadInput

    if not path.lower().endswith(endings):
        raise BadInput(f"{option} {path!r}: the file is {kind}, so its name must end in "
                       f"{' or '.join(endings)} (a forum and a browser go by the name's "
                       "ending)")
