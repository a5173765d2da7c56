"""Play one chunk of a run and encode its tables, writing while the games are played.

A chunk (consecutive game indices of one lineup) is played in slices of about
``SLICE`` games. Each played slice goes to a writer thread that builds its outcome tables
and appends them to the chunk's Parquet files while the next slice plays (the whole-game
kernels release the interpreter lock), so on a free core tables and encoding cost little
beyond the last slice; where every core plays (as many workers as cores), the playing
thread writes each slice itself, since a writer thread would only take CPU from play
(about 7% more CPU a game by contention, trump7 random play). A table's slices are
gathered into row groups of at least ``ROW_GROUP`` rows (Trix's contracts: every slice;
a games table: a 10,000-game chunk in one): each column of a row group is compressed in
one call whose fixed cost outweighs a few thousand small values. The slices and row
groups depend only on the chunk's game range, so a chunk gives the same bytes wherever
and however it is played; the games themselves never depend on how a range is cut.

A chunk can be played in two steps (``play_slices``, then calling the ``Played`` it
returns), so that a process playing chunks one after another (one worker) plays the next
while the last one's final slices are encoded and its files written.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np

from trixsim.cutpoints import cut
from trixsim.loading import load_seats
from trixsim.pool import main_process_gone
from trixsim.runfolder import Chunk, TableEncoder, chunk_file, data_digest, temp_file
from trixsim.sim import play_batch

log = logging.getLogger("trixsim.run")
SLICE = 2500
"""Games per slice."""
ROW_GROUP = 10_000
"""Rows gathered (whole slices) before they are written as one row group."""
_SEATS_CACHE: dict[str, list] = {}


def seats_of(specs: list[str], game: str) -> list:
    """The lineup's strategies, loaded once per process."""
    key = game + "\x00" + "\x00".join(specs)
    if key not in _SEATS_CACHE:
        _SEATS_CACHE[key] = load_seats(",".join(specs), game)
    return _SEATS_CACHE[key]


def slices(start: int, stop: int) -> Iterator[tuple[int, int]]:
    """``[start, stop)`` cut into about equal slices of about ``SLICE`` games."""
    n = stop - start
    k = max(1, round(n / SLICE))
    for i in range(k):
        yield start + n * i // k, start + n * (i + 1) // k


WAITING = 2
"""Played slices at most waiting for the writer thread (each holds its outcome arrays)."""
_THREADS: dict[int, ThreadPoolExecutor] = {}


def _writer_thread() -> tuple[ThreadPoolExecutor | None, bool]:
    """A writer thread (None: the slices are written in the playing thread, where no core
    is spare for it), and whether the chunk owns it (and stops it when done). A run's
    worker process keeps one for all its chunks (started on its first; a forked worker
    starts its own, threads do not survive a fork); elsewhere (one worker, Dask) each
    chunk starts its own, so that no thread is left running in a process that may fork
    workers later."""
    from trixsim import pool as workers

    if not workers.spare_core():
        return None, False
    if workers.in_worker():
        pool = _THREADS.get(os.getpid())
        if pool is None:
            pool = _THREADS[os.getpid()] = ThreadPoolExecutor(
                1, thread_name_prefix="chunk-writer")
        return pool, False
    return ThreadPoolExecutor(1, thread_name_prefix="chunk-writer"), True


class _Writer:
    """A chunk's outcome tables built from each played slice and appended to one Parquet
    file per table, in the writer thread, while the next slice plays; also the chunk's
    row counts and the sums of its seats' results."""

    def __init__(self, rules: Any, specs: list[str], legacy: bool) -> None:
        self.rules, self.specs, self.legacy = rules, specs, legacy
        names = sorted(rules.table_schemas)
        self.encoders = {t: TableEncoder() for t in names}
        self.held: dict[str, list[Any]] = {t: [] for t in names}
        self.rows = dict.fromkeys((t for t in names if t != "games"), 0)
        self.sums = np.zeros((4, rules.n_seats), dtype=np.float64)  # final, final², wins, losses
        self.pool, self.owned = _writer_thread()
        self.pending: list[Future] = []
        self.room = threading.Semaphore(WAITING)

    def add(self, outcomes: Any, st: Any) -> None:
        """Queue one played slice (its outcome log and final state); waits while
        ``WAITING`` slices are queued. A failure shows at ``finish``."""
        self.room.acquire()
        if self.pool is None:
            self._slice(outcomes, st)
        else:
            self.pending.append(self.pool.submit(self._slice, outcomes, st))

    def _slice(self, outcomes: Any, st: Any) -> None:
        try:
            tables = outcomes.tables(st, self.specs)
            if self.legacy:
                tables = self.rules.legacy_tables(tables)
            for t in self.rows:
                self.rows[t] += tables[t].num_rows
            scores = self.rules.final_scores(st)
            final = scores.astype(np.float64)
            win, lose = self.rules.winners_losers(scores)
            self.sums += np.stack([final.sum(axis=0), (final ** 2).sum(axis=0),
                                   win.sum(axis=0), lose.sum(axis=0)])
            for used in (outcomes, st):  # their arrays serve the next slices
                release = getattr(used, "release", None)
                if release is not None:
                    release()
            self._write(tables, False)
        finally:
            self.room.release()

    def _write(self, tables: dict[str, Any], last: bool) -> None:
        import pyarrow as pa

        for name, enc in self.encoders.items():
            held = self.held[name]
            if name in tables:
                held.append(tables[name])
            if held and (last or sum(t.num_rows for t in held) >= ROW_GROUP):
                enc.add(held[0] if len(held) == 1 else pa.concat_tables(held))
                held.clear()

    def finish(self) -> dict[str, bytes]:
        """Every file's bytes, once the queued slices are written."""
        if self.pool is None:
            self._write({}, True)
        else:
            self.pending.append(self.pool.submit(self._write, {}, True))
        for fut in self.pending:
            fut.result()
        return {t: enc.finish() for t, enc in self.encoders.items()}

    def close(self) -> None:
        """Drop the queued slices not yet started and wait for the one being written (a
        worker process's thread stays for its next chunk)."""
        for fut in self.pending:
            fut.cancel()
        wait(self.pending)
        if self.owned and self.pool is not None:
            self.pool.shutdown(wait=True)


class Played:
    """A chunk played in this thread whose files its writer thread may still be finishing:
    calling it waits for them and returns the chunk's entry (``chunk_data``'s, or with
    ``out_dir`` written into the folder as ``play_chunk``'s); ``close`` abandons it. So one
    process can play the next chunk while this one's last slices are encoded, checksummed
    and written (the one-worker run's helper thread, ``pool.TwoStep``)."""

    def __init__(self, writer: _Writer, t0: float, lineup: int, start: int, stop: int,
                 out_dir: str | None) -> None:
        self.writer, self.t0 = writer, t0
        self.lineup, self.start, self.stop, self.out_dir = lineup, start, stop, out_dir

    def __call__(self) -> Chunk:
        try:
            data = self.writer.finish()
        finally:
            self.writer.close()
        entry = self._entry(data)
        return entry if self.out_dir is None else _write_temps(self.out_dir, entry)

    def close(self) -> None:
        """Abandon the chunk: its writer thread stops (nothing is written)."""
        self.writer.close()

    def _entry(self, data: dict[str, bytes]) -> Chunk:
        writer, lineup, start, stop = self.writer, self.lineup, self.start, self.stop
        rows, sums = writer.rows, writer.sums
        seconds = time.perf_counter() - self.t0
        log.info("lineup %d games %d..%d: %s in %.2f s", lineup, start, stop - 1,
                 rows_text(rows, stop - start), seconds)
        files = {f"{t}_file": chunk_file(t, lineup, start) for t in data}
        return Chunk(lineup=lineup, start=start, stop=stop, **files, **rows,  # type: ignore[typeddict-item]
                     seconds=round(seconds, 3), final_sum=sums[0].tolist(),
                     final_sq=sums[1].tolist(), wins=sums[2].astype(int).tolist(),
                     losses=sums[3].astype(int).tolist(),
                     bytes={t: len(b) for t, b in data.items()},
                     sha256={t: data_digest(b) for t, b in data.items()}, _data=data)


def play_slices(seed: int, lineup: int, specs: list[str], start: int, stop: int,
                legacy: bool = False, *, game: str, out_dir: str | None = None) -> Played:
    """Play one chunk of ``game`` in this thread, its slices handed to the writer as they
    are played; the rest (the last slices' encoding, the checksums and, with ``out_dir``,
    the files) is the returned ``Played``'s. ``legacy``: a chunk of a format-1 (Trix) run,
    without the columns format 2 added (the game's ``legacy_tables`` drops them)."""
    from trixsim.games import get_game

    t0 = time.perf_counter()
    rules = get_game(game)
    seats = seats_of(specs, game)
    writer = _Writer(rules, specs, legacy)
    try:
        for a, b in slices(start, stop):
            outcomes = rules.outcomes(b - a, lineup)
            writer.add(outcomes, play_batch(seats, seed, range(a, b), observer=outcomes,
                                            game=rules))
    except BaseException:
        writer.close()
        raise
    return Played(writer, t0, lineup, start, stop, out_dir)


def chunk_data(seed: int, lineup: int, specs: list[str], start: int, stop: int,
               legacy: bool = False, *, game: str) -> Chunk:
    """Play one chunk of ``game``; returns its run.json entry (sums, sizes, checksums) with
    the bytes of its Parquet files (one per table of the game) under ``_data``, for the
    main process to write (a worker on another machine). The same chunk gives the same
    bytes wherever it is played (see ``play_slices``)."""
    return play_slices(seed, lineup, specs, start, stop, legacy, game=game)()


def rows_text(rows: dict[str, int], games: int) -> str:
    """``1234 contracts`` (rows of the tables besides games), or ``N games``."""
    return ", ".join(f"{n} {t}" for t, n in rows.items()) or f"{games} games"


def play_chunk(out_dir: str, seed: int, lineup: int, specs: list[str], start: int,
               stop: int, legacy: bool = False, *, game: str) -> Chunk:
    """Play one chunk and write its Parquet files into the run folder under temporary
    names; returns its run.json entry (with the temporary paths, sizes and checksums). The
    main process renames the files into place when it lists the chunk, so a file under a
    chunk's own name is always a listed one. In a worker, nothing is written once the
    main process is gone."""
    return play_chunk_first(out_dir, seed, lineup, specs, start, stop, legacy, game=game)()


def play_chunk_first(out_dir: str, seed: int, lineup: int, specs: list[str], start: int,
                     stop: int, legacy: bool = False, *, game: str) -> Played:
    """``play_chunk`` in two steps: the play here, the rest when the result is called."""
    return play_slices(seed, lineup, specs, start, stop, legacy, game=game, out_dir=out_dir)


def _write_temps(out_dir: str, entry: Chunk) -> Chunk:
    """Write a chunk's files under temporary names (see ``play_chunk``)."""
    temps: dict[str, str] = {}
    for table, blob in entry.pop("_data").items():
        if main_process_gone():
            os._exit(1)
        tmp = temp_file(Path(out_dir), table, entry["lineup"], entry["start"])
        try:
            tmp.write_bytes(blob)
        except BaseException:  # a full disk: leave no partial file behind
            tmp.unlink(missing_ok=True)
            for done in temps.values():
                Path(done).unlink(missing_ok=True)
            raise
        temps[table] = str(tmp)
        cut("chunk file written")
    entry["_temp"] = temps
    return entry


__all__ = ["ROW_GROUP", "SLICE", "Played", "chunk_data", "play_chunk", "play_chunk_first",
           "play_slices", "rows_text", "seats_of", "slices"]
