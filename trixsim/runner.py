"""Play many games in parallel processes and write the outcome tables as Parquet datasets.

A run plays every game index ``first_game .. first_game + games - 1`` once per lineup (a
seating of four strategy specs) on the same deals. The work is cut into chunks of
consecutive game indices of one lineup; each worker process plays a chunk and writes its
own Parquet files (``contracts/`` and ``games/``), named so that reading a dataset in file
order gives the rows in (lineup, game, contract) order. A chunk is a pure function of
(seed, lineup, game range), so the tables are the same row for row whatever the worker
count, chunk size or start method. ``run.json`` lists the plan and every finished chunk,
rewritten atomically after each one, so an interrupted run keeps what it finished and
``resume`` completes the rest.
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing as mp
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq

from trixsim import __version__
from trixsim.engine.rules import winners_losers
from trixsim.loading import load_seats, split_specs
from trixsim.outcomes import OutcomeLog, games_table
from trixsim.sim import play_batch

FORMAT = "trixsim-run/1"
log = logging.getLogger("trixsim.run")


class RunFolderError(ValueError):
    """A folder that is not a (readable) run folder."""


class RunError(RuntimeError):
    """A run that stopped before finishing (its finished chunks are kept)."""


def default_start_method() -> str:
    """``fork`` where the platform has it (workers inherit the loaded kernels and the
    log handler), else ``spawn``; the code is correct under both."""
    return "fork" if "fork" in mp.get_all_start_methods() else "spawn"


@dataclass(frozen=True)
class RunConfig:
    """What to play: ``games`` deals from index ``first_game``, once per lineup."""

    games: int
    seed: int
    lineups: tuple[str, ...]
    batch_size: int = 10_000
    workers: int = 1
    first_game: int = 0
    rotate: bool = False
    start_method: str = field(default_factory=default_start_method)


def expand_lineups(lineups: Sequence[str], rotate: bool) -> list[list[str]]:
    """Each lineup as four seat specs; with ``rotate`` also its three rotations
    (A,B,C,D then B,C,D,A, C,D,A,B, D,A,B,C), without repeating a seating."""
    out: list[list[str]] = []
    for line in lineups:
        seats = split_specs(line)
        if len(seats) == 1:
            seats = seats * 4
        if len(seats) != 4:
            raise ValueError(f"a lineup needs 1 or 4 strategies, got {len(seats)}: {line!r}")
        for r in range(4 if rotate else 1):
            rotated = [seats[(s + r) % 4] for s in range(4)]
            if rotated not in out:
                out.append(rotated)
    return out


_MIN_CHUNK = 2000
"""Smaller chunks are split no further for balance: a batch pays a fixed cost per step."""


def plan(cfg: RunConfig, n_lineups: int) -> list[tuple[int, int, int]]:
    """The chunks (lineup, start, stop): at most ``batch_size`` games each, and about four
    per worker when the games allow, so that the workers finish together."""
    per_lineup = max(1, math.ceil(4 * cfg.workers / n_lineups))
    size = max(1, min(cfg.batch_size, max(_MIN_CHUNK, math.ceil(cfg.games / per_lineup))))
    end = cfg.first_game + cfg.games
    return [(lu, a, min(a + size, end)) for lu in range(n_lineups)
            for a in range(cfg.first_game, end, size)]


def chunk_name(lineup: int, start: int) -> str:
    """File stem of a chunk; lexicographic order is (lineup, game) order."""
    return f"l{lineup:03d}-g{start:012d}"


_SEATS_CACHE: dict[str, list] = {}
_LOG_FORMAT = "%(asctime)s %(processName)s %(message)s"


def _seats(specs: list[str]) -> list:
    key = "\x00".join(specs)
    if key not in _SEATS_CACHE:
        _SEATS_CACHE[key] = load_seats(",".join(specs))
    return _SEATS_CACHE[key]


def play_chunk(out_dir: str, seed: int, lineup: int, specs: list[str], start: int,
               stop: int) -> dict[str, Any]:
    """Play one chunk and write its two Parquet files; returns its entry for run.json."""
    t0 = time.perf_counter()
    outcomes = OutcomeLog(stop - start, lineup)
    st = play_batch(_seats(specs), seed, range(start, stop), observer=outcomes)
    contracts = outcomes.contracts()
    games = games_table(st, lineup, specs)
    name = chunk_name(lineup, start)
    files = {}
    for kind, table in (("contracts", contracts), ("games", games)):
        rel = f"{kind}/{name}.parquet"
        tmp = Path(out_dir) / kind / f".tmp-{name}-{os.getpid()}.parquet"
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, Path(out_dir) / rel)
        files[f"{kind}_file"] = rel
    final = st.totals.astype(np.float64)
    win, lose = winners_losers(st.totals)
    seconds = time.perf_counter() - t0
    log.info("lineup %d games %d..%d: %d contracts in %.2f s", lineup, start, stop - 1,
             contracts.num_rows, seconds)
    return {"lineup": lineup, "start": start, "stop": stop, **files,
            "contracts": contracts.num_rows, "seconds": round(seconds, 3),
            "final_sum": final.sum(axis=0).tolist(),
            "final_sq": (final ** 2).sum(axis=0).tolist(),
            "wins": win.sum(axis=0).tolist(), "losses": lose.sum(axis=0).tolist()}


def _worker_init(log_path: str) -> None:
    """Workers leave Ctrl-C to the main process, which stops the pool. A forked worker
    inherits the run's log handler (multiprocessing-logging forwards its records to the
    main process); a spawned one appends to run.log itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not log.handlers:
        handler = logging.FileHandler(log_path, encoding="utf-8")
        handler.setFormatter(logging.Formatter(_LOG_FORMAT))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


def write_run_json(out_dir: Path, meta: dict[str, Any]) -> None:
    """Write a run folder's run.json atomically (a temporary file, then a rename)."""
    path = Path(out_dir) / "run.json"
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(meta, indent=1) + "\n")
    os.replace(tmp, path)


def read_run(out_dir: Path | str) -> dict[str, Any]:
    """The parsed run.json of a run folder; RunFolderError if it is not one."""
    path = Path(out_dir) / "run.json"
    if not Path(out_dir).is_dir():
        raise RunFolderError(f"{out_dir} is not a run folder (no such folder)")
    try:
        meta = json.loads(path.read_text())
    except FileNotFoundError:
        raise RunFolderError(f"{out_dir} is not a run folder (no run.json)") from None
    except (OSError, ValueError) as exc:
        raise RunFolderError(f"{path}: unreadable ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise RunFolderError(f"{path} is not a {FORMAT} file")
    for key in ("seed", "games", "first_game", "lineups", "plan", "chunks"):
        if key not in meta:
            raise RunFolderError(f"{path}: missing {key!r}")
    return meta


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

    games: int = 0
    contracts: int = 0
    seconds: float = 0.0
    strategies: dict[str, StrategyStats] = field(default_factory=dict)

    def add(self, chunk: dict[str, Any], lineup: list[str]) -> None:
        """Fold one finished chunk in."""
        n = chunk["stop"] - chunk["start"]
        self.games += n
        self.contracts += chunk["contracts"]
        for s, spec in enumerate(lineup):
            st = self.strategies.setdefault(spec, StrategyStats(spec))
            st.seatings += n
            st.total += chunk["final_sum"][s]
            st.total_sq += chunk["final_sq"][s]
            st.wins += chunk["wins"][s]
            st.losses += chunk["losses"][s]


def run(cfg: RunConfig, out_dir: Path | str, force: bool = False,
        progress: Callable[[int], None] | None = None, command: list[str] | None = None,
        resume: bool = False) -> RunSummary:
    """Play the run into ``out_dir`` (or finish an interrupted one with ``resume``)."""
    out = Path(out_dir)
    if resume:
        meta = read_run(out)
        lineups = [split_specs(line) for line in meta["lineups"]]
        jobs = [tuple(j) for j in meta["plan"]]
    else:
        lineups = expand_lineups(cfg.lineups, cfg.rotate)
        strategies = _describe(lineups)  # loads every lineup: bad specs fail before writing
        if out.exists():
            if not force:
                raise FileExistsError(f"{out} already exists (use --force to replace it)")
            shutil.rmtree(out) if out.is_dir() else out.unlink()
        jobs = plan(cfg, len(lineups))
        meta = {"format": FORMAT, "version": __version__, "command": command or sys.argv,
                "seed": cfg.seed, "games": cfg.games, "first_game": cfg.first_game,
                "batch_size": cfg.batch_size, "workers": cfg.workers, "rotate": cfg.rotate,
                "requested_lineups": list(cfg.lineups),
                "lineups": [",".join(seats) for seats in lineups],
                "strategies": strategies, "plan": [list(j) for j in jobs],
                "chunks": [], "complete": False, "seconds": 0.0}
    for kind in ("contracts", "games"):
        (out / kind).mkdir(parents=True, exist_ok=True)
        for leftover in (out / kind).glob(".tmp-*"):
            leftover.unlink()
    summary = RunSummary()
    done = {(c["lineup"], c["start"], c["stop"]) for c in meta["chunks"]}
    for c in meta["chunks"]:
        summary.add(c, lineups[c["lineup"]])
    todo = [j for j in jobs if j not in done]
    handler = _start_log(out)
    t0 = time.perf_counter()
    before = float(meta.get("seconds", 0.0))
    try:
        _play(cfg, out, meta, lineups, todo, summary, progress)
        meta["complete"] = True
    finally:
        meta["seconds"] = round(before + time.perf_counter() - t0, 3)
        write_run_json(out, meta)
        _stop_log(handler)
    summary.seconds = meta["seconds"]
    return summary


def _describe(lineups: list[list[str]]) -> dict[str, dict[str, Any]]:
    """Each distinct spec with its strategy name and full parameter values (the lineups
    are loaded into the process's cache, where this process's chunks find them)."""
    out: dict[str, dict[str, Any]] = {}
    for seats in lineups:
        for spec, strategy in zip(seats, _seats(seats), strict=True):
            out[spec] = {"name": strategy.name, "class": type(strategy).__qualname__,
                         "params": {k: getattr(strategy, k) for k in strategy.params}}
    return out


def _play(cfg: RunConfig, out: Path, meta: dict[str, Any], lineups: list[list[str]],
          todo: list[tuple[int, int, int]], summary: RunSummary,
          progress: Callable[[int], None] | None) -> None:
    """Play the missing chunks, recording each in run.json as soon as it is written."""
    seed = meta["seed"]

    def finished(chunk: dict[str, Any]) -> None:
        meta["chunks"].append(chunk)
        meta["chunks"].sort(key=lambda c: (c["lineup"], c["start"]))
        write_run_json(out, meta)
        summary.add(chunk, lineups[chunk["lineup"]])
        if progress:
            progress(chunk["stop"] - chunk["start"])

    write_run_json(out, meta)
    if not todo:
        return
    if cfg.workers <= 1 or len(todo) == 1:
        for lu, a, b in todo:
            finished(play_chunk(str(out), seed, lu, lineups[lu], a, b))
        return
    if cfg.start_method == "fork":
        # load the compiled kernels and strategy tables once; forked workers inherit them
        play_batch(_seats(lineups[todo[0][0]]), seed, [todo[0][1]], observer=OutcomeLog(1))
    ctx = mp.get_context(cfg.start_method)
    pool = ProcessPoolExecutor(min(cfg.workers, len(todo)), mp_context=ctx,
                               initializer=_worker_init, initargs=(str(out / "run.log"),))
    pending: set[Future] = set()
    queue = list(todo)
    try:
        while queue or pending:
            while queue and len(pending) < 2 * cfg.workers:
                lu, a, b = queue.pop(0)
                pending.add(pool.submit(play_chunk, str(out), seed, lu, lineups[lu], a, b))
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in ready:
                finished(fut.result())
    except BrokenProcessPool:
        raise RunError("a worker process died (out of memory or killed); the finished "
                       "chunks are kept: complete the run with --resume") from None
    finally:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _start_log(out: Path) -> logging.Handler:
    """Log the run (workers included) to ``run.log`` in the output folder."""
    handler = logging.FileHandler(out / "run.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter(_LOG_FORMAT))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    try:
        import multiprocessing_logging

        multiprocessing_logging.install_mp_handler(log)
    except (ImportError, RuntimeError):  # logging from workers then goes to their stderr
        pass
    return log.handlers[-1]


def _stop_log(handler: logging.Handler) -> None:
    for h in list(log.handlers):
        log.removeHandler(h)
        h.close()


__all__ = ["FORMAT", "RunConfig", "RunError", "RunFolderError", "RunSummary", "chunk_name",
           "expand_lineups", "plan", "play_chunk", "read_run", "run", "write_run_json"]
