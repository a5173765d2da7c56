"""Play many games in parallel processes and stream the outcome tables to Parquet.

Games are cut into chunks of consecutive game indices; every chunk is a pure function of
(seed, strategies, its game indices), and chunks are written in index order, so the
tables are identical whatever the worker count or batch size.
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing as mp
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from trixsim import __version__
from trixsim.loading import load_seats
from trixsim.outcomes import OutcomeLog, games_frame
from trixsim.sim import play_batch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunConfig:
    """What to play: ``games`` games from index ``first_game`` with four strategy specs."""

    games: int
    seed: int
    strategies: str
    batch: int = 10_000
    workers: int = 1
    first_game: int = 0


@dataclass
class SeatStats:
    """Running per-seat sums for the summary."""

    label: str
    total: float = 0.0
    total_sq: float = 0.0
    wins: int = 0
    losses: int = 0


@dataclass
class RunSummary:
    """What a run measured: per-seat results and throughput."""

    games: int
    contracts: int
    seconds: float
    seats: list[SeatStats] = field(default_factory=list)

    def mean(self, s: int) -> float:
        """Mean final total of seat s."""
        return self.seats[s].total / max(self.games, 1)

    def stderr(self, s: int) -> float:
        """Standard error of seat s's mean final total."""
        n = max(self.games, 1)
        var = max(self.seats[s].total_sq / n - self.mean(s) ** 2, 0.0)
        return math.sqrt(var / max(n - 1, 1))


_SEATS_CACHE: dict[str, list] = {}


def play_chunk(specs: str, seed: int, start: int, stop: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play games ``start..stop-1``; return their per-contract and per-game tables."""
    if specs not in _SEATS_CACHE:
        _SEATS_CACHE[specs] = load_seats(specs)
    outcomes = OutcomeLog(stop - start)
    st = play_batch(_SEATS_CACHE[specs], seed, range(start, stop), observer=outcomes)
    log.debug("played games %d..%d", start, stop - 1)
    return outcomes.contracts(), games_frame(st)


def _chunk_job(args: tuple[str, int, int, int]) -> tuple[pd.DataFrame, pd.DataFrame]:
    return play_chunk(*args)


def chunks(cfg: RunConfig) -> list[tuple[int, int]]:
    """Consecutive game-index ranges; small enough that every worker gets work."""
    per_worker = math.ceil(cfg.games / max(cfg.workers, 1))
    size = max(1, min(cfg.batch, per_worker))
    end = cfg.first_game + cfg.games
    return [(a, min(a + size, end)) for a in range(cfg.first_game, end, size)]


def _results(cfg: RunConfig) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    jobs = [(cfg.strategies, cfg.seed, a, b) for a, b in chunks(cfg)]
    if cfg.workers > 1 and len(jobs) > 1:
        # load the compiled kernels and strategies' tables once, before forking, so the
        # workers inherit them instead of each loading them again
        play_chunk(cfg.strategies, cfg.seed, cfg.first_game, cfg.first_game + 1)
    if cfg.workers <= 1 or len(jobs) == 1:
        for job in jobs:
            yield _chunk_job(job)
        return
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    with ctx.Pool(min(cfg.workers, len(jobs))) as pool:
        yield from pool.imap(_chunk_job, jobs)


def run(cfg: RunConfig, out_dir: Path, force: bool = False,
        progress: Callable[[int], None] | None = None) -> RunSummary:
    """Play the run and write ``contracts.parquet``, ``games.parquet`` and ``run.json``.

    The tables go to a temporary directory beside ``out_dir`` that replaces it only once
    complete, so an interrupted run leaves nothing half-written and an existing result
    is replaced only with ``force``.
    """
    out_dir = Path(out_dir)
    if out_dir.exists() and not force:
        raise FileExistsError(f"{out_dir} already exists (use --force to replace it)")
    seats = load_seats(cfg.strategies)  # fail fast on bad specs, before any work
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    summary = RunSummary(0, 0, 0.0, [SeatStats(s.label) for s in seats])
    t0 = time.perf_counter()
    try:
        cw = gw = None
        for contracts, games in _results(cfg):
            ct = pa.Table.from_pandas(contracts, preserve_index=False)
            gt = pa.Table.from_pandas(games, preserve_index=False)
            if cw is None:
                cw = pq.ParquetWriter(tmp / "contracts.parquet", ct.schema)
                gw = pq.ParquetWriter(tmp / "games.parquet", gt.schema)
            cw.write_table(ct)
            gw.write_table(gt)
            _accumulate(summary, games)
            if progress:
                progress(len(games))
        if cw is not None:
            cw.close()
            gw.close()
        summary.seconds = time.perf_counter() - t0
        meta = {"version": __version__, "config": asdict(cfg),
                "seats": [getattr(s, "spec", s.label) for s in seats], "games": summary.games,
                "contracts": summary.contracts, "seconds": round(summary.seconds, 3)}
        (tmp / "run.json").write_text(json.dumps(meta, indent=2) + "\n")
        if out_dir.exists():
            old = out_dir.with_name(f".{out_dir.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            out_dir.rename(old)
            tmp.rename(out_dir)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out_dir)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return summary


def _accumulate(summary: RunSummary, games: pd.DataFrame) -> None:
    summary.games += len(games)
    summary.contracts += int(games["contracts"].sum())
    for s, seat in enumerate(summary.seats):
        final = games[f"final_{s}"].to_numpy(dtype=np.float64)
        seat.total += float(final.sum())
        seat.total_sq += float((final ** 2).sum())
        seat.wins += int(games[f"winner_{s}"].sum())
        seat.losses += int(games[f"loser_{s}"].sum())
