"""Keeping tables on disk without holding up the server: files are written in a worker
thread, only when their text changed, and coalesced.

After each change the server marks its table. A flusher task takes each marked table's
text on the event loop (so it is a consistent picture of the table) and writes the ones
that changed in a worker thread, at most once every ``every`` seconds: a burst of moves
costs one write per table, a no-op message none. A table whose game just ended is
flushed at once (its file goes as soon as the record is written), and ``flush`` writes
whatever is marked when the server shuts down.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from trixsim.serve.hub import Hub
from trixsim.serve.tables import GameTable


class Keeper:
    """The coalescing writer of one server's table files."""

    def __init__(self, hub: Hub, every: float = 0.5) -> None:
        self.hub, self.every = hub, every
        self.marked: dict[str, GameTable] = {}
        self.last = -float("inf")
        """When the last flush began (time.monotonic)."""
        self.task: asyncio.Task[None] | None = None
        self.urgent: asyncio.Event | None = None
        self.lock: asyncio.Lock | None = None
        self.closing = False

    def mark(self, table: GameTable) -> None:
        """``table`` may have changed: write it soon (at once if its game is over)."""
        if self.hub.store is None:
            return
        if self.urgent is None or self.lock is None:
            self.urgent, self.lock = asyncio.Event(), asyncio.Lock()
        self.marked[table.id] = table
        if table.phase == "over":
            self.urgent.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self.urgent is not None
        while self.marked:
            wait = self.last + self.every - time.monotonic()
            if wait > 0 and not self.urgent.is_set() and not self.closing:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.urgent.wait(), wait)
            self.urgent.clear()
            await self.flush()

    async def flush(self) -> None:
        """Write every marked table whose text changed, in a worker thread."""
        store = self.hub.store
        if store is None or self.lock is None:
            return
        async with self.lock:  # one writer at a time
            batch = [(t, store.text(t)) for t in self.marked.values()
                     if self.hub.tables.get(t.id) is t]  # (an evicted table's file is gone)
            self.marked.clear()
            self.last = time.monotonic()
            if batch:
                await asyncio.to_thread(self._write, batch)

    def _write(self, batch: list[tuple[GameTable, str | None]]) -> None:
        for table, text in batch:
            self.hub.keep(table, text)

    async def close(self) -> None:
        """Flush what is marked and stop (the server is shutting down)."""
        self.closing = True
        if self.urgent is not None:
            self.urgent.set()
        if self.task is not None:
            await self.task
        await self.flush()


__all__ = ["Keeper"]
