"""Play many games in parallel processes and write the outcome tables as Parquet datasets.

A run plays every game index ``first_game .. first_game + games - 1`` once per lineup (a
seating of four strategy specs) on the same deals, of the game run.json names. The work is
cut into chunks of consecutive game indices of one lineup; each worker process plays a
chunk and writes its own Parquet files (one per outcome table of the game: Trix's
``contracts/`` and ``games/``, trump7's ``games/``), named so that reading a dataset in file
order gives the rows in (lineup, game, contract) order; a worker on another machine (a
Dask cluster, see ``trixsim.backend``) sends the files' bytes back and the main process
writes them. A chunk is a pure function of (seed, lineup, game range), so the tables are
the same row for row whatever the worker count, chunk size, start method or backend.
``run.json`` lists the plan and every finished chunk; each chunk is listed as it is placed
(a line appended to the folder's journal, folded into run.json when the run stops: see
``trixsim.runfolder.JOURNAL``), so an interrupted run, even a killed one, keeps what it
finished listed and ``resume`` completes the rest.
"""

from __future__ import annotations

import functools
import logging
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trixsim import __version__
from trixsim.chunks import chunk_data, play_chunk, play_chunk_first, rows_text
from trixsim.chunks import seats_of as _seats
from trixsim.cutpoints import cut
from trixsim.folders import FolderLock, create_folder, kind_of, write_marker
from trixsim.loading import split_specs
from trixsim.pool import (
    Backend,
    LocalBackend,
    TwoStep,
    WorkerDied,
    default_start_method,
    no_interrupts,
    sigterm_interrupts,
)
from trixsim.runfolder import (
    FORMAT,
    Chunk,
    CompareSettings,
    Damage,
    RunFolderError,
    RunMeta,
    chunk_name,
    chunk_tables,
    damaged_chunks,
    game_name,
    list_chunk,
    new_meta,
    place_chunk,
    read_run,
    remove_temp_files,
    tables_of,
    unlisted_files,
    write_run_json,
)
from trixsim.warmup import Notice, warm_up

log = logging.getLogger("trixsim.run")
LEGACY_FORMAT = "trixsim-run/1"
"""Runs of this format go on writing chunks without the columns format 2 added."""


class RunError(RuntimeError):
    """A run that stopped before finishing (its finished chunks are kept)."""


@dataclass(frozen=True)
class RunConfig:
    """What to play: ``games`` deals from index ``first_game``, once per lineup."""

    games: int
    seed: int
    lineups: tuple[str, ...]
    game: str = field(kw_only=True)
    """The registered name of the game played (``trixsim.games.get_game``)."""
    batch_size: int = 10_000
    workers: int = 1
    first_game: int = 0
    rotate: bool = False
    start_method: str = field(default_factory=default_start_method)


def expand_lineups(lineups: Sequence[str], rotate: bool) -> list[list[str]]:
    """Each lineup as four seat specs; with ``rotate`` also its three rotations
    (A,B,C,D then B,C,D,A, C,D,A,B, D,A,B,C), without repeating a seating of one lineup
    (lineups given twice are played twice: a comparison of a strategy with itself)."""
    out: list[list[str]] = []
    for line in lineups:
        seats = split_specs(line)
        if len(seats) == 1:
            seats = seats * 4
        if len(seats) != 4:
            raise ValueError(f"a lineup needs 1 or 4 strategies, got {len(seats)}: {line!r}")
        rotations: list[list[str]] = []
        for r in range(4 if rotate else 1):
            rotated = [seats[(s + r) % 4] for s in range(4)]
            if rotated not in rotations:
                rotations.append(rotated)
        out += rotations
    return out


_MIN_CHUNK = 2000
"""Smaller chunks are split no further for balance: a batch pays a fixed cost per step."""


def plan(cfg: RunConfig, n_lineups: int,
         limit: int | None = None) -> list[tuple[int, int, int]]:
    """The chunks (lineup, start, stop): at most ``batch_size`` games each, and about four
    per worker when the games allow, so that the workers finish together; at most
    ``limit`` games each where the strategies seated ask for it (``chunk_limit``)."""
    per_lineup = max(1, math.ceil(4 * cfg.workers / n_lineups))
    size = max(1, min(cfg.batch_size, max(_MIN_CHUNK, math.ceil(cfg.games / per_lineup))))
    if limit is not None:
        size = max(1, min(size, limit))
    end = cfg.first_game + cfg.games
    return [(lu, a, min(a + size, end)) for lu in range(n_lineups)
            for a in range(cfg.first_game, end, size)]


_LOG_FORMAT = "%(asctime)s %(processName)s %(message)s"


def _worker_log(log_path: str) -> None:
    """Workers append to run.log themselves: a forked one through the handler it
    inherits, a spawned one through its own (each record is one append). No queue to the
    main process, so killing a worker can never leave the main process waiting on one."""
    if not log.handlers:
        handler = logging.FileHandler(log_path, encoding="utf-8")
        handler.setFormatter(logging.Formatter(_LOG_FORMAT))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


@dataclass
class StrategyStats:
    """Running sums of one strategy's results over every seat it occupied."""

    spec: str
    seatings: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    wins: int = 0
    losses: int = 0

    @property
    def mean(self) -> float:
        """Mean final total."""
        return self.total / max(self.seatings, 1)

    @property
    def stderr(self) -> float:
        """Standard error of the mean final total (seatings treated as independent)."""
        n = max(self.seatings, 1)
        var = max(self.total_sq / n - self.mean ** 2, 0.0) * n / max(n - 1, 1)
        return math.sqrt(var / n)


@dataclass
class RunSummary:
    """What a run measured: per-strategy results and throughput."""

    game: str = ""
    """The registered name of the game played."""
    games: int = 0
    rows: int = 0
    """Rows of the tables besides ``games`` (Trix: contracts)."""
    seconds: float = 0.0
    strategies: dict[str, StrategyStats] = field(default_factory=dict)

    def add(self, chunk: Chunk, lineup: list[str]) -> None:
        """Fold one finished chunk in."""
        n = chunk["stop"] - chunk["start"]
        self.games += n
        self.rows += sum(int(chunk.get(t, 0)) for t in chunk_tables(chunk)  # type: ignore[misc]
                         if t != "games")
        for s, spec in enumerate(lineup):
            st = self.strategies.setdefault(spec, StrategyStats(spec))
            st.seatings += n
            st.total += chunk["final_sum"][s]
            st.total_sq += chunk["final_sq"][s]
            st.wins += chunk["wins"][s]
            st.losses += chunk["losses"][s]


class RunWriter:
    """A run folder held open for writing (its lock taken): plays the missing chunks,
    lists each one in run.json as soon as its files are in place, and can extend the plan
    to more games (sequential comparisons play round after round into one folder)."""

    def __init__(self, out: Path, meta: RunMeta, lock: FolderLock) -> None:
        self.out = Path(out)
        self.meta = meta
        self.lock = lock
        self.game = game_name(meta)
        self.lineups = [split_specs(line) for line in meta["lineups"]]
        self.summary = RunSummary(game=self.game)
        self.repaired: list[Damage] = []
        for c in meta["chunks"]:
            self.summary.add(c, self.lineups[c["lineup"]])

    @classmethod
    def create(cls, cfg: RunConfig, out: Path | str, force: bool = False,
               command: list[str] | None = None, kind: str = "run",
               compare: CompareSettings | None = None) -> RunWriter:
        """A new run folder for ``cfg`` (an existing one is replaced only when ``force``
        and this tool created it); appears whole, with its run.json, or not at all."""
        from trixsim.games import get_game

        lineups = expand_lineups(cfg.lineups, cfg.rotate)
        rules = get_game(cfg.game)
        strategies = _describe(lineups, cfg.game)  # loads every lineup: bad specs fail first
        jobs = plan(cfg, len(lineups), chunk_limit(lineups, cfg.game))
        meta = new_meta(game=cfg.game, version=__version__, command=command or sys.argv,
                        seed=cfg.seed,
                        games=cfg.games, first_game=cfg.first_game,
                        batch_size=cfg.batch_size, workers=cfg.workers, rotate=cfg.rotate,
                        requested_lineups=list(cfg.lineups),
                        lineups=[",".join(seats) for seats in lineups],
                        strategies=strategies, plan=[list(j) for j in jobs], compare=compare)
        with create_folder(Path(out), kind, force) as (tmp, lock):
            for table in sorted(rules.table_schemas):
                (tmp / table).mkdir()
            write_run_json(tmp, meta)
        writer = cls(Path(out), meta, lock)
        try:
            cut("run folder created")
        except BaseException:
            lock.release()
            raise
        return writer

    @classmethod
    def reopen(cls, out: Path | str) -> RunWriter:
        """An existing run folder, locked and verified: temporary files of interrupted
        writes are removed, damaged or missing chunks are unlisted (to be played again),
        and a table file the run did not list stops everything (RunFolderError)."""
        out = Path(out)
        read_run(out)
        lock = FolderLock(out).acquire()
        try:
            meta = read_run(out)  # again, now that nobody else writes it
            log_file = out / "run.log"
            if log_file.is_symlink() or (log_file.exists() and not log_file.is_file()):
                raise RunFolderError(f"{log_file} is a link or not a file: not writing the "
                                     "log outside the run folder")
            if kind_of(out) is None:  # written before folders were marked
                write_marker(out, "run")
            foreign = unlisted_files(out, meta, planned_too=True)
            if foreign:
                raise RunFolderError(f"{out}/{foreign[0]} is not listed in run.json: not "
                                     "resuming a folder holding files of another run")
            remove_temp_files(out, tables_of(meta))
            damage = damaged_chunks(out, meta)
            from trixsim.audit import rule_damage  # numba: only when resuming

            damage += rule_damage(out, meta, skip=[d.chunk for d in damage])
            if damage:
                bad = [d.chunk for d in damage]
                meta["chunks"] = [c for c in meta["chunks"] if c not in bad]
                meta["complete"] = False
                for d in damage:
                    log.warning("%s: playing it again", d)
            writer = cls(out, meta, lock)
            writer.repaired = damage
            return writer
        except BaseException:
            lock.release()
            raise

    def todo(self) -> list[tuple[int, int, int]]:
        """Planned chunks not yet listed."""
        done = {(c["lineup"], c["start"], c["stop"]) for c in self.meta["chunks"]}
        return [tuple(j) for j in self.meta["plan"] if tuple(j) not in done]

    def extend(self, games: int, workers: int = 1, batch_size: int = 10_000) -> None:
        """Plan ``games`` more deals for every lineup, after the planned ones."""
        cfg = RunConfig(games=games, seed=self.meta["seed"], lineups=(), game=self.game,
                        workers=workers,
                        batch_size=batch_size,
                        first_game=self.meta["first_game"] + self.meta["games"])
        self.meta["plan"] += [list(j) for j in plan(cfg, len(self.lineups),
                                                    chunk_limit(self.lineups, self.game))]
        self.meta["games"] += games
        self.meta["complete"] = False
        cut("before extending the plan")
        write_run_json(self.out, self.meta)
        cut("plan extended")

    def play(self, workers: int = 1, start_method: str | None = None,
             progress: Callable[[int], None] | None = None,
             notice: Notice | None = None, backend: Backend | None = None) -> RunSummary:
        """Play every missing chunk on ``backend`` (by default ``workers`` local processes
        started with ``start_method``); the run is complete when this returns. ``notice``
        hears about a first-run compilation of the kernels (see ``trixsim.warmup``)."""
        backend = backend or LocalBackend(workers, start_method or default_start_method())
        handler = _start_log(self.out)
        t0 = time.perf_counter()
        before = float(self.meta.get("seconds", 0.0))
        try:
            with sigterm_interrupts():
                self.warm_up(notice)
                self._play(self.todo(), backend, progress)
                cut("every chunk played")
            self.meta["complete"] = True
        finally:
            self.meta["seconds"] = round(before + time.perf_counter() - t0, 3)
            with no_interrupts():
                write_run_json(self.out, self.meta)
                _stop_log(handler)
        self.summary.seconds = self.meta["seconds"]
        return self.summary

    def warm_up(self, notice: Notice | None = None) -> None:
        """Load the kernels for the first chunk to play (compiling them on a first run,
        reported to ``notice``); ``play`` does it too, so calling it is optional."""
        todo = self.todo()
        if todo:
            warm_up(self.lineups[todo[0][0]], self.meta["seed"], self.game, notice)

    def close(self) -> None:
        """Release the folder's lock."""
        self.lock.release()

    def __enter__(self) -> RunWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _finished(self, chunk: Chunk, progress: Callable[[int], None] | None,
                  remote: bool = False) -> None:
        """Put a chunk's files in place and list it in run.json."""
        if remote:  # its worker's log stays on its machine: log it here
            rows = {t: int(chunk.get(t, 0)) for t in chunk_tables(chunk)  # type: ignore[misc]
                    if t != "games"}
            log.info("lineup %d games %d..%d: %s in %.2f s (on the cluster)",
                     chunk["lineup"], chunk["start"], chunk["stop"] - 1,
                     rows_text(rows, chunk["stop"] - chunk["start"]), chunk["seconds"])
        placed = place_chunk(self.out, chunk)
        cut("chunk placed")
        list_chunk(self.out, self.meta, placed)
        cut("chunk listed")
        self.summary.add(chunk, self.lineups[chunk["lineup"]])
        if progress:
            progress(chunk["stop"] - chunk["start"])

    def _play(self, todo: list[tuple[int, int, int]], backend: Backend,
              progress: Callable[[int], None] | None) -> None:
        seed = self.meta["seed"]
        out = str(self.out.resolve() if backend.remote else self.out)  # another cwd there
        if not todo:
            return
        specs = sorted({s for lu, _, _ in todo for s in self.lineups[lu]})
        legacy = self.meta.get("format") == LEGACY_FORMAT  # a format-1 run stays format 1
        if backend.shared:
            jobs = [(out, seed, lu, self.lineups[lu], a, b, legacy) for lu, a, b in todo]
            fn: Callable[..., Chunk] = TwoStep(functools.partial(play_chunk, game=self.game),
                                               functools.partial(play_chunk_first,
                                                                 game=self.game))
        else:  # the workers cannot see the folder: they send the files' bytes
            jobs = [(seed, lu, self.lineups[lu], a, b, legacy) for lu, a, b in todo]
            fn = functools.partial(chunk_data, game=self.game)
        try:
            backend.map_unordered(
                fn, jobs, lambda chunk: self._finished(chunk, progress, backend.remote),
                init=_worker_log, init_args=(str(self.out / "run.log"),), specs=specs)
        except WorkerDied:
            raise RunError("a worker process died (out of memory or killed); the finished "
                           "chunks are kept: complete the run with --resume") from None


def run(cfg: RunConfig, out_dir: Path | str, force: bool = False,
        progress: Callable[[int], None] | None = None, command: list[str] | None = None,
        resume: bool = False, backend: Backend | None = None) -> RunSummary:
    """Play the run into ``out_dir`` (or finish an interrupted one with ``resume``), on
    ``backend`` (by default ``cfg.workers`` local processes)."""
    writer = (RunWriter.reopen(out_dir) if resume else
              RunWriter.create(cfg, out_dir, force=force, command=command))
    with writer:
        return writer.play(cfg.workers, cfg.start_method, progress, backend=backend)


def _describe(lineups: list[list[str]], game: str) -> dict[str, dict[str, Any]]:
    """Each distinct spec with its strategy name and full parameter values (the lineups
    are loaded into the process's cache, where this process's chunks find them)."""
    out: dict[str, dict[str, Any]] = {}
    for seats in lineups:
        for spec, strategy in zip(seats, _seats(seats, game), strict=True):
            out[spec] = {"name": strategy.name, "class": type(strategy).__qualname__,
                         "params": {k: getattr(strategy, k) for k in strategy.params}}
    return out


def chunk_limit(lineups: list[list[str]], game: str) -> int | None:
    """The fewest games a chunk may hold by any seated strategy's ``chunk_games`` (None:
    no strategy asks for a limit)."""
    asked = [s.chunk_games for seats in lineups for s in _seats(seats, game)]
    limits = [n for n in asked if n is not None]
    return min(limits) if limits else None


def _start_log(out: Path) -> logging.Handler:
    """Log the run (workers included) to ``run.log`` in the output folder."""
    handler = logging.FileHandler(out / "run.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter(_LOG_FORMAT))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    return handler


def _stop_log(handler: logging.Handler) -> None:
    for h in list(log.handlers):
        log.removeHandler(h)
        h.close()


__all__ = ["FORMAT", "RunConfig", "RunError", "RunFolderError", "RunSummary", "RunWriter",
           "chunk_data", "chunk_name", "default_start_method", "expand_lineups", "plan",
           "play_chunk", "read_run", "run", "write_run_json"]
