"""The web server: Starlette routes, one WebSocket per browser tab, any number of tables.

Routes: ``/`` and ``/t/{table}`` serve the page (static/index.html; the page reads the
table id from its address), ``/static/*`` its script and style, ``POST /api/tables``
creates a table (``name``, ``game``: any game the server plays, without it the server's
first game, ``Hub.game``; ``listed``: shown in the lobby; its creator gets seat 0 and a
seat token), ``GET /api/games`` lists the games, ``GET /api/lobby`` the listed tables
with open seats (game and free seats only), ``GET /api/strategies?game=NAME`` the
strategy names for the host's bot picker (without ``game``: the first game's), and
``/ws/{table}`` is the table's WebSocket.

WebSocket protocol (JSON objects, each with a ``type``). The client sends ``hello``
(``token``: a seat token kept by the browser, or null) first, then any of ``sit``
(``seat``, ``name``), ``bot`` (``seat``, ``spec``; host only), ``unseat`` (``seat``; host
only), ``act`` (``action``: an action id of the table's game, e.g. in Trix a contract
id, 0/1 for the K♥ declaration, a card 0-31, 32 the trix pass; in trump7 a card 0-51 or
a bid 0-13), ``preselect`` (``card`` or null) and ``last``. The server answers with
``state`` (the seats, the table's ``game_name`` and the whole view of that seat built by
the game's view module, plus the events since its previous state),
``seated`` (``seat``, ``token``), ``last`` (the last trick), ``notice`` and ``error``
(``message``: one line). Every change to a table is followed by a new state to every
tab at it, each built for its own seat (trixsim.serve.wire).

Each table's changes run one at a time under its lock; bots think in a worker thread so
the server keeps answering other tables meanwhile. Each tab has its own send queue, so a
slow browser never holds up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sys
import time
import traceback
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from trixsim.loading import load_strategy
from trixsim.serve.guard import HEADERS, Guard, host_names
from trixsim.serve.hub import Hub
from trixsim.serve.keeper import Keeper
from trixsim.serve.tables import GameTable, Refused
from trixsim.strategy import Strategy

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""Longest client message accepted (characters); every legal one is far shorter."""
MAX_QUEUE = 256
"""Messages waiting for one tab; a tab that falls this far behind is closed."""
MAX_BODY = 4096
"""Largest HTTP request body accepted (bytes)."""
MAX_FRAME = 16 * 1024
"""Largest WebSocket frame the server reads (uvicorn's ws_max_size)."""


@dataclass(frozen=True)
class Limits:
    """What a table allows its bots and clients."""

    think: float = 5.0
    """Seconds a bot may think about one move."""
    tables_per_minute: int = 10
    """New tables one client address may create per minute."""
    origins: frozenset[str] = frozenset()
    """Origins (``https://cards.example``) besides the server's own that may connect."""
    keep_every: float = 0.5
    """Seconds between writes of the unfinished tables' files (changes in between are
    coalesced; a finished game and the server's shutdown are written at once)."""


class Rate:
    """At most ``per_minute`` events per key in any minute (a sliding window)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.seen: dict[str, list[float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        if len(self.seen) > 10_000:  # forget idle keys
            self.seen = {k: v for k, v in self.seen.items() if v and now - v[-1] < 60}
        times = [t for t in self.seen.get(key, []) if now - t < 60]
        if len(times) >= self.per_minute:
            self.seen[key] = times
            return False
        self.seen[key] = [*times, now]
        return True


@dataclass(eq=False)
class Tab:
    """One open WebSocket: its seat at the table (None until seated) and send queue."""

    ws: WebSocket
    seat: int | None = None
    sub: bool = False
    """Whether the tab is a friend sitting in for the seat's away person."""
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(MAX_QUEUE))
    shown: str | None = None
    """The last state sent, without its events: an unchanged view is not sent again."""
    behind: bool = False
    """The tab stopped reading: its queue overflowed, so it is closed (it reconnects)."""

    def send(self, msg: dict[str, Any]) -> None:
        """Queue ``msg`` for this tab (never blocks). A state that shows this tab nothing
        new is not sent at all: another seat's quiet decision must leave no trace here."""
        if self.behind:
            return
        if msg.get("type") == "state":
            view = json.dumps({k: v for k, v in msg.items() if k != "events"},
                              sort_keys=True, ensure_ascii=False)
            if view == self.shown and not msg.get("events"):
                return
            self.shown = view
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.behind = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self) -> None:
        """Stop the writer (after what is queued)."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.behind = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class Room:
    """The live side of one table: its tabs, its lock and its stand-in timer."""

    def __init__(self, table: GameTable, saved: Callable[[GameTable], None],
                 limits: Limits) -> None:
        self.table, self.saved, self.limits = table, saved, limits
        self.tabs: set[Tab] = set()
        self.lock = asyncio.Lock()
        self.timer: asyncio.Task[None] | None = None
        self.thought: asyncio.Future[int] | None = None
        """A bot's thinking that ran past its limit (abandoned, maybe still running)."""

    def broadcast(self) -> None:
        """Send every tab the table's state as its seat sees it (one build per seat)."""
        built: dict[int | None, dict[str, Any]] = {}
        for tab in sorted(self.tabs, key=lambda t: -1 if t.seat is None else t.seat):
            if tab.seat not in built:
                built[tab.seat] = self.table.state(tab.seat)
            tab.send(built[tab.seat])

    def tell(self, text: str, seat: int | None = None) -> None:
        """A notice to every tab (or to the tabs of ``seat``)."""
        for tab in self.tabs:
            if seat is None or tab.seat == seat:
                tab.send({"type": "notice", "message": text})

    async def advance(self) -> None:
        """Let bots and chosen cards play (bots think in a worker thread, each move
        within the time limit), then tell everyone."""
        t = self.table
        notices: dict[int, str] = {}
        while (step := t.next_bot(notices)) is not None:
            assert t.game is not None
            t.game.act(await self._think(*step))
        t.settle()
        for seat, text in notices.items():  # before the state that shows the change
            self.tell(text, seat)
        self.broadcast()
        self.arm()

    async def _think(self, seat: int, bot: Strategy) -> int:
        """``bot``'s move for ``seat``, thought in a worker thread for at most the time
        limit; past it (or while an earlier thought past its limit still runs) the
        fallback's move, with a notice to the table."""
        g = self.table.game
        assert g is not None
        limit = self.limits.think
        if self.thought is None or self.thought.done():
            think = g.thinker(bot)
            future = asyncio.get_running_loop().run_in_executor(None, think)
            try:
                return await asyncio.wait_for(asyncio.shield(future), limit)
            except TimeoutError:
                self.thought = future
        name = self.table.seats[seat].name
        fallback = self.fallback()
        self.tell(f"{name} (seat {seat}) took longer than {limit:g} s to think: "
                  f"it played {fallback.name}'s move.")
        return g.thinker(fallback)()

    def fallback(self) -> Strategy:
        """The fast strategy that plays for a bot thinking too long: the game's bundled
        heuristic."""
        return _fallback(self.table.game_name)

    def arm(self) -> None:
        """Wake up when an away person's stand-in is due to play for them."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        delay = self.table.wake_in()
        if delay is not None:
            self.timer = asyncio.get_running_loop().create_task(self._wake(delay))

    async def _wake(self, delay: float) -> None:
        await asyncio.sleep(delay + 0.05)
        async with self.lock:
            self.timer = None
            await self.advance()
            self.saved(self.table)


class Server:
    """The hub of tables and their rooms, with the HTTP and WebSocket handlers."""

    def __init__(self, hub: Hub, limits: Limits | None = None) -> None:
        self.hub = hub
        self.limits = Limits() if limits is None else limits
        self.rate = Rate(self.limits.tables_per_minute)
        self.rooms: dict[str, Room] = {}
        self.keeper = Keeper(hub, self.limits.keep_every)

    def room(self, table_id: str) -> Room | None:
        table = self.hub.get(table_id)
        if table is None:
            self.rooms.pop(table_id, None)
            return None
        room = self.rooms.get(table_id)
        if room is None or room.table is not table:
            room = self.rooms[table_id] = Room(table, self.keeper.mark, self.limits)
        return room

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def create(self, request: Request) -> Response:
        who = request.client.host if request.client else "?"
        if not self.rate.allow(who):
            return JSONResponse({"error": "too many new tables from your address; try again "
                                          "in a minute"}, status_code=429)
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                return JSONResponse({"error": "request too large"}, status_code=413)
        try:
            body = json.loads(raw) if raw else {}
        except (ValueError, UnicodeDecodeError, RecursionError):
            return JSONResponse({"error": "send a JSON object, e.g. {\"name\": \"Ann\"}"},
                                status_code=400)
        body = body if isinstance(body, dict) else {}
        try:
            table, token = self.hub.create(body.get("name"), save=False,
                                           game=body.get("game", self.hub.game),
                                           listed=body.get("listed", False))
        except Refused as exc:
            full = "too many tables" in str(exc)
            return JSONResponse({"error": str(exc)}, status_code=503 if full else 400)
        self.keeper.mark(table)
        return JSONResponse({"table": table.id, "seat": 0, "token": token,
                             "link": f"/t/{table.id}"})

    async def strategies(self, request: Request) -> Response:
        game = request.query_params.get("game", self.hub.game)
        if game not in self.hub.games():
            return JSONResponse({"error": "no such game"}, status_code=404)
        bots = self.hub.bots_for(game)
        return JSONResponse({"strategies": bots.names(), "levels": bots.level_list()})

    async def games(self, request: Request) -> Response:
        return JSONResponse({"games": self.hub.games()})

    async def lobby(self, request: Request) -> Response:
        return JSONResponse({"tables": self.hub.listed()},
                            headers={"Cache-Control": "no-store"})

    async def socket(self, ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and not self._same_origin(origin, ws.headers.get("host")):
            await ws.close(code=4403)  # a page of another site (or a rebound name)
            return
        await ws.accept()
        room = self.room(ws.path_params["table"])
        if room is None:
            await ws.send_json({"type": "error", "message": "no such table (its game may be "
                                "over, or the server forgot its tables)", "fatal": True})
            await ws.close(code=4404)
            return
        tab = Tab(ws)
        writer = asyncio.get_running_loop().create_task(self._write(tab))
        try:
            await self._serve(room, tab)
        except WebSocketDisconnect:
            pass
        finally:
            tab.close()
            async with room.lock:
                room.tabs.discard(tab)
                if tab.seat is not None:
                    room.table.disconnected(tab.seat, tab.sub)
                    room.broadcast()
                    room.arm()
            await writer

    def _same_origin(self, origin: str, host: str | None) -> bool:
        """Whether a browser page at ``origin`` may use this server's WebSocket: a page of
        this server (its Host) or one of the allowed origins."""
        if origin in self.limits.origins:
            return True
        scheme, sep, rest = origin.partition("://")
        return bool(sep) and scheme in ("http", "https") and host is not None \
            and rest == host

    async def _write(self, tab: Tab) -> None:
        """Send the tab's queued messages in order until the tab closes; close a tab that
        fell behind (its page reconnects and gets the whole state)."""
        while (msg := await tab.queue.get()) is not None:
            try:
                await tab.ws.send_text(json.dumps(msg, ensure_ascii=False))
            except Exception:  # the socket closed; the reader side cleans up
                return
        if tab.behind:
            with contextlib.suppress(Exception):
                await tab.ws.close(code=1008)

    async def _serve(self, room: Room, tab: Tab) -> None:
        """Read the tab's messages until it closes; answer each (errors to it alone)."""
        greeted = False
        while True:
            message = await tab.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            try:
                msg = _parse(text)
                async with room.lock:
                    if not greeted:
                        if msg["type"] != "hello":
                            raise Refused("say hello first")
                        greeted = True
                        self._hello(room, tab, msg)
                    else:
                        await self._handle(room, tab, msg)
                        self.keeper.mark(room.table)
            except Refused as exc:
                tab.send({"type": "error", "message": str(exc)})
            except Exception as exc:  # a bug must not take the table or the server down
                traceback.print_exc(file=sys.stderr)
                tab.send({"type": "error", "message": f"internal error "
                                                      f"({type(exc).__name__})"})

    def _hello(self, room: Room, tab: Tab, msg: dict[str, Any]) -> None:
        seat, sub = room.table.holder(msg.get("token"))
        room.tabs.add(tab)
        if seat is not None:
            tab.seat, tab.sub = seat, sub
            if room.table.connected(seat, sub):
                self._stand_up(room, seat)
            tab.send(room.table.state(seat, events=False))
            others = [t for t in room.tabs if t is not tab]
            built = {t.seat: room.table.state(t.seat) for t in others}
            for t in others:
                t.send(built[t.seat])
            room.arm()
        else:
            tab.send(room.table.state(None))

    @staticmethod
    def _stand_up(room: Room, seat: int) -> None:
        """The person at ``seat`` is back: the friend sitting in for them stands up (their
        tabs keep watching, unseated, and are told why)."""
        name = room.table.seats[seat].name
        for t in room.tabs:
            if t.seat == seat and t.sub:
                t.seat, t.sub = None, False
                t.send({"type": "notice", "message": f"{name} is back: the seat is theirs "
                                                     "again. Thank you for sitting in."})

    async def _handle(self, room: Room, tab: Tab, msg: dict[str, Any]) -> None:
        t, kind = room.table, msg["type"]
        if kind == "sit":
            if tab.seat is not None:
                raise Refused("you already have a seat")
            seat, token = t.sit(msg.get("seat"), msg.get("name"))
            sub = t.holder(token)[1]  # once the game is on, a friend sitting in
            tab.seat, tab.sub = seat, sub
            t.connected(seat, sub)
            tab.send({"type": "seated", "seat": seat, "token": token})
            if sub:
                info = t.seats[seat]
                room.tell(f"{info.sub_name} sits in for {info.name} (seat {seat}).")
            await room.advance()
        elif kind == "bot":
            t.put_bot(tab.seat, msg.get("seat"), msg.get("spec"))
            await room.advance()
        elif kind == "unseat":
            t.clear_seat(tab.seat, msg.get("seat"))
            room.broadcast()
        elif kind == "act":
            t.act(tab.seat, msg.get("action"))
            await room.advance()
        elif kind == "preselect":
            if tab.seat is not None and msg.get("card") == t.seats[tab.seat].preselect \
                    and not isinstance(msg.get("card"), bool):
                return  # the same choice again: nothing to check, build or send
            t.preselect(tab.seat, msg.get("card"))
            tab.send(t.state(tab.seat))
            for other in room.tabs:  # the seat's other tabs see the choice too
                if other is not tab and other.seat == tab.seat:
                    other.send(t.state(tab.seat, events=False))
        elif kind == "last":
            tab.send(t.last_trick(tab.seat))
            room.broadcast()
        elif kind == "hello":
            raise Refused("already said hello")
        else:
            raise Refused(f"unknown message type {kind!r}"[:120])


@functools.cache
def _fallback(game: str) -> Strategy:
    """The bundled heuristic of ``game`` (the fallback of its slow bots)."""
    return load_strategy("heuristic", game)


def _parse(text: Any) -> dict[str, Any]:
    """A client message as a dict with a string ``type``; Refused if it is none."""
    if not isinstance(text, str):
        raise Refused("send text messages (JSON objects)")
    if len(text) > MAX_MESSAGE:
        raise Refused("message too long")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("a message must be a JSON object") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refused("a message must be a JSON object with a \"type\"")
    return msg


def create_app(hub: Hub, limits: Limits | None = None,
               hosts: frozenset[str] | None = None) -> Starlette:
    """The Starlette application serving ``hub``'s tables; ``hosts``: the host names it
    answers to (None: any, e.g. behind a reverse proxy that checks them)."""
    server = Server(hub, limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await server.keeper.close()  # the last state of every table on disk

    app = Starlette(lifespan=lifespan, routes=[
        Route("/", server.page),
        Route("/t/{table}", server.page),
        Route("/api/tables", server.create, methods=["POST"]),
        Route("/api/strategies", server.strategies),
        Route("/api/games", server.games),
        Route("/api/lobby", server.lobby),
        WebSocketRoute("/ws/{table}", server.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.add_middleware(Guard, hosts=hosts)
    app.state.server = server
    return app


__all__ = ["HEADERS", "MAX_BODY", "MAX_FRAME", "MAX_MESSAGE", "MAX_QUEUE", "STATIC", "Limits",
           "Server", "create_app", "host_names"]  # (HEADERS, host_names: from guard.py)
