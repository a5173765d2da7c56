"""Every table of one server, by id: creating them (bounded in number), dropping finished
and idle ones, and keeping the unfinished ones on disk across restarts (store.py)."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from trixsim.loading import StrategyLoadError, load_strategy
from trixsim.serve.bots import BotList
from trixsim.serve.store import TableStore
from trixsim.serve.tables import SIT_IN_AFTER, GameTable, Refused
from trixsim.strategy import Strategy


class Hub:
    """Every table of one server, by id."""

    MAX_TABLES = 1000

    def __init__(self, bot_after: float | None = None, records: Path | None = None,
                 stand_in: str = "heuristic", seeds: Iterator[int] | None = None,
                 keep: Path | None = None, clock: Callable[[], float] = time.monotonic,
                 bots: BotList | None = None, sit_in_after: float = SIT_IN_AFTER, *,
                 game: str) -> None:
        self.bot_after, self.records, self.clock = bot_after, records, clock
        self.game = game
        """The server's first game: a new table plays it unless its creator names
        another, and the stand-in and the operator's bots are checked against it."""
        self.bots = BotList(game=game) if bots is None else bots
        self.sit_in_after = sit_in_after
        """The bots a table may seat (the operator's list, for ``game``)."""
        self.stand_in_spec = stand_in
        self.stand_in = load_strategy(stand_in, game)
        self._stand_ins: dict[str, Strategy] = {game: self.stand_in}
        self._bots: dict[str, BotList] = {game: self.bots}
        self.tables: dict[str, GameTable] = {}
        self.seeds = seeds
        """The tables' seeds in turn (tests); by default each is a fresh random one."""
        self.store = None if keep is None else TableStore(keep)
        """Where unfinished tables are kept across restarts (None: in memory only)."""
        self.problems: list[str] = []
        """A line per kept table that could not be restored (its file is left alone)."""
        if self.store is not None:
            restored, self.problems = self.store.load(bot_after, self.stand_in_for, records,
                                                      clock, self.bots_for)
            self.tables = {t.id: t for t in restored}
            for t in restored:
                t.sit_in_after = sit_in_after
            for t in restored:  # a finished game whose record could not be written before
                if t.phase == "over":
                    t.advance()
                    self.save(t)

    def bots_for(self, game: str) -> BotList:
        """The bots a table of ``game`` may seat (the operator's list, for that game)."""
        if game not in self._bots:
            self._bots[game] = self.bots.for_game(game)
        return self._bots[game]

    def stand_in_for(self, game: str) -> Strategy:
        """The stand-in bot of ``game``'s tables: the same spec as the first game's, or
        the game's heuristic when that spec does not play ``game`` (said once on
        stderr)."""
        if game not in self._stand_ins:
            try:
                self._stand_ins[game] = load_strategy(self.stand_in_spec, game)
            except StrategyLoadError as exc:
                print(f"trixsim serve: the stand-in {self.stand_in_spec!r} does not play "
                      f"{game} ({str(exc).splitlines()[0]}); its tables use heuristic",
                      file=sys.stderr, flush=True)
                self._stand_ins[game] = load_strategy("heuristic", game)
        return self._stand_ins[game]

    def games(self) -> list[str]:
        """The games a table may play: the registered ones with table parts."""
        from trixsim.games import game_names, get_game
        from trixsim.table import parts

        out = []
        for name in game_names():
            try:
                parts(get_game(name))
            except Exception:  # a game without table parts (or failing to load)
                continue
            out.append(name)
        return out

    def listed(self) -> list[dict[str, Any]]:
        """The lobby: every table that chose to be listed and still has open seats, with
        its game and free seats (nothing else: no names, seeds or tokens)."""
        return [{"table": t.id, "game": t.game_name, "free": t.free_seats()}
                for t in self.tables.values() if t.listed and t.free_seats()][:100]

    def save(self, table: GameTable) -> None:
        """Keep ``table`` on disk as it is now (a failure is said on stderr, once per
        table, and the table plays on in memory)."""
        if self.store is not None:
            self.keep(table, self.store.text(table))

    def keep(self, table: GameTable, text: str | None) -> bool:
        """Make ``table``'s file hold ``text`` (None: remove it), as ``save`` does; whether
        the disk was touched. Safe in a worker thread (one writer at a time)."""
        if self.store is None:
            return False
        try:
            touched = self.store.put(table.id, text)
            table.keep_error = None
            return touched
        except OSError as exc:
            if table.keep_error is None:
                print(f"trixsim serve: cannot keep table {table.id} on disk: "
                      f"{exc.strerror or exc}", file=sys.stderr, flush=True)
            table.keep_error = str(exc)
            return False

    def create(self, name: Any = None, save: bool = True, game: Any = None,
               listed: Any = False) -> tuple[GameTable, str]:
        """A new table of ``game`` (None: the server's first game) with its creator in
        seat 0: (table, the creator's seat token); listed in the lobby if ``listed``;
        written to disk now unless not ``save`` (the server writes it off its loop)."""
        game = self.game if game is None else game
        if not isinstance(game, str) or game not in self.games():
            raise Refused("a table plays one of: " + ", ".join(self.games()))
        if not isinstance(listed, bool):
            raise Refused("listed is true or false")
        if len(self.tables) >= self.MAX_TABLES:
            self._evict()
        table = GameTable(secrets.token_urlsafe(9), self.bot_after, self.stand_in_for(game),
                          self.records, clock=self.clock, bots=self.bots_for(game),
                          sit_in_after=self.sit_in_after, game_name=game, listed=listed)
        if self.seeds is not None:
            table.seed = next(self.seeds)
        _, token = table.sit(0, name)
        self.tables[table.id] = table
        if save:
            self.save(table)
        return table, token

    def _evict(self) -> None:
        """Drop finished tables, then waiting ones nobody is connected to; a game in
        progress is never dropped (new tables are refused instead)."""
        for tid, t in list(self.tables.items()):
            if t.phase == "over" or (t.phase == "waiting"
                                     and not any(i.online for i in t.seats)):
                del self.tables[tid]
                if self.store is not None:
                    self.store.drop(tid)
                if len(self.tables) < self.MAX_TABLES:
                    return
        if len(self.tables) >= self.MAX_TABLES:
            raise Refused("the server has too many tables; try again later")

    def get(self, table_id: str) -> GameTable | None:
        """The table ``table_id`` (None: no such table)."""
        return self.tables.get(table_id)


__all__ = ["Hub"]
