"""``trixsim serve``: the web table, for people and bots at any number of tables
(trixsim.serve)."""

from __future__ import annotations

import socket
from pathlib import Path

import click

from trixsim.commands import Interrupted
from trixsim.commands.options import DEFAULT_GAME

DEFAULT_RECORDS = Path("trixsim-tables")
"""Where finished games go unless --records says otherwise (in the current directory)."""


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; a one-line error if it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise click.BadParameter(f"cannot resolve {host!r}: {exc}", param_hint="--host") \
            from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise click.BadParameter(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                                 param_hint="--host/--port") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network interface).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--bot-after", "bot_after", type=click.FloatRange(min=0), default=None,
              metavar="SECONDS",
              help="A bot plays for a person who has been away this long, until they "
                   "return.  [default: the game waits for them]")
@click.option("--stand-in", "stand_in", default="heuristic", show_default=True,
              metavar="SPEC", help="The strategy that plays for an away person.")
@click.option("--records", type=click.Path(path_type=Path), default=DEFAULT_RECORDS,
              show_default=True, metavar="DIR",
              help="Folder for the finished games, one trixsim-record/1 record file "
                   "each (check them with `trixsim replay FILE`).")
@click.option("--forget", is_flag=True,
              help="Keep tables in memory only: a restart ends their games.  [default: "
                   "unfinished tables are kept in RECORDS/unfinished/ and come back when "
                   "the server starts again]")
@click.option("--allow", "allow", multiple=True, metavar="SPEC",
              help="Also let a table's host seat this bot (any strategy spec, files "
                   "included, loaded now; seated by its exact text). Repeatable.  "
                   "[default: the bundled strategies by name, parameters within their "
                   "limits]")
@click.option("--sit-in-after", "sit_in_after", type=click.FloatRange(min=0), default=60.0,
              show_default=True, metavar="SECONDS",
              help="A friend may sit in for a person who has been away this long.")
@click.option("--think-limit", "think_limit", type=click.FloatRange(min=0.05), default=5.0,
              show_default=True, metavar="SECONDS",
              help="A bot thinking longer about one move plays the heuristic's move.")
@click.option("--allow-origin", "origins", multiple=True, metavar="URL",
              help="Also accept table connections from pages of this origin (e.g. "
                   "https://cards.example.org behind a reverse proxy). Repeatable.")
def serve_cmd(host: str, port: int, bot_after: float | None, stand_in: str,
              records: Path, forget: bool, allow: tuple[str, ...], sit_in_after: float,
              think_limit: float, origins: tuple[str, ...]) -> None:
    """Serve web tables where people and bots play Trix or trump7 in the browser.

    Open the printed address, create a table and share its link: others join a free
    seat by it, and the table's creator may seat bots (the bundled strategies, or
    those --allow names). The game starts when four are seated. Exit codes: 0
    stopped, 2 bad options or the address cannot be used, 130 interrupted.
    """
    if records.exists() and not records.is_dir():
        raise click.BadParameter(f"{records} is not a directory", param_hint="--records")
    try:
        records.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.BadParameter(f"cannot create {records}: {exc.strerror or exc}",
                                 param_hint="--records") from None
    try:
        import uvicorn

        from trixsim.loading import StrategyLoadError
        from trixsim.serve.app import MAX_FRAME, Limits, create_app, host_names
        from trixsim.serve.bots import BotList
        from trixsim.serve.hub import Hub
    except ImportError as exc:
        raise click.ClickException(f"the web table needs {exc.name}: pip install "
                                   "starlette uvicorn websockets") from None
    keep = None if forget else records / "unfinished"
    try:
        bots = BotList(allow, game=DEFAULT_GAME)
    except StrategyLoadError as exc:
        raise click.BadParameter(str(exc).splitlines()[0], param_hint="--allow") from None
    try:
        hub = Hub(bot_after=bot_after, records=records, stand_in=stand_in, keep=keep,
                  bots=bots, sit_in_after=sit_in_after, game=DEFAULT_GAME)
    except StrategyLoadError as exc:
        raise click.BadParameter(str(exc), param_hint="--stand-in") from None
    except OSError as exc:
        raise click.BadParameter(f"cannot use {keep}: {exc.strerror or exc}",
                                 param_hint="--records") from None
    for line in hub.problems:
        click.echo(f"not restored (file left as it is): {line}", err=True)
    if hub.tables:
        click.echo(f"{len(hub.tables)} unfinished table(s) restored from {keep}/")
    sock = _bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    kept = "" if keep is None else f", unfinished ones are kept in {keep}/"
    click.echo(f"Serving Trix tables on http://{shown}:{sock.getsockname()[1]}/ "
               f"(finished games go to {records}/{kept}); Ctrl-C stops.")
    limits = Limits(think=think_limit, origins=frozenset(o.rstrip("/") for o in origins))
    app = create_app(hub, limits, host_names(host, origins))
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio",
                            lifespan="on", ws_max_size=MAX_FRAME,
                            ws_per_message_deflate=False, h11_max_incomplete_event_size=16384)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        raise Interrupted("interrupted; the server stopped") from None
    finally:
        sock.close()


def register(group: click.Group) -> None:
    """Add ``serve`` to the CLI group."""
    group.add_command(serve_cmd)
