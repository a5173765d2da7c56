"""Read run folders (``trixsim run`` output) column by column, batch by batch.

A report never loads a whole table: it asks for the columns it needs and receives record
batches of a bounded size, so memory stays flat whatever the number of games. Every
problem with a folder (not a run, missing or unreadable Parquet, no games) becomes a
``RunReadError`` with a one-line message naming the folder.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from trixsim.folders import holder
from trixsim.runfolder import (
    RunDataError,
    RunFolderError,
    damaged_chunks,
    game_of,
    read_run,
    tables_of,
    unlisted_files,
)

BATCH_ROWS = 262_144


class RunReadError(ValueError):
    """A run folder that cannot be read; the message is one line for the user."""


class RunDamagedError(RunReadError):
    """A run folder whose files fail verification (a data error, not a usage error)."""


@dataclass(frozen=True)
class RunFolder:
    """A validated run folder: its metadata and the Parquet files of each table."""

    path: Path
    meta: dict
    contracts_files: tuple[Path, ...]
    games_files: tuple[Path, ...]

    @property
    def complete(self) -> bool:
        """Whether every planned chunk was played."""
        return bool(self.meta.get("complete"))

    def incomplete_note(self) -> str | None:
        """A line saying how much of the run is missing, or None when it is complete."""
        if self.complete:
            return None
        done = len(self.meta["chunks"])
        return (f"{self.path} is incomplete: {done} of {len(self.meta['plan'])} planned "
                "chunks played (trixsim run --resume completes it)")

    @property
    def lineups(self) -> list[str]:
        """Lineup strings as recorded in run.json (index = lineup column value)."""
        return list(self.meta.get("lineups", []))

    @property
    def game(self) -> Any:
        """The ``Game`` this run plays (Trix for folders that predate games' names)."""
        return game_of(self.meta)

    def score_columns(self) -> list[str]:
        """The games table's final-score columns, seat 0..3 (``{score_prefix}_s``)."""
        return [f"{self.game.score_prefix}_{s}" for s in range(4)]

    def file_games(self) -> dict[Path, tuple[int, int]]:
        """Each listed table file's game range ``[start, stop)``, from run.json."""
        spans = self.__dict__.get("_spans")
        if spans is None:
            spans = {self.path / c[key]: (c["start"], c["stop"]) for c in self.meta["chunks"]
                     for key in c if key.endswith("_file")}
            self.__dict__["_spans"] = spans
        return spans

    def columns(self, table: str) -> list[str]:
        """Column names of ``table`` ("contracts" or "games")."""
        return list(_dataset(self, table).schema.names)


def open_run(path: Path | str) -> RunFolder:
    """Check that ``path`` is a non-empty run folder whose listed chunks all verify (present,
    size, checksum) and which holds no unlisted table file; list its table files.

    The run.json read here is the snapshot the caller works from: a writer going on later
    changes nothing it reads. While a writer holds the folder, a file named after a planned
    chunk is one it has put in place and not listed yet, so it is left out, not refused."""
    path = Path(path)
    writing = holder(path) is not None  # before and after the read: a writer may end
    try:
        meta = read_run(path)
    except RunDataError as exc:
        raise RunDamagedError(_first_line(exc)) from None
    except RunFolderError as exc:
        raise RunReadError(_first_line(exc)) from None
    writing = writing or holder(path) is not None
    foreign = unlisted_files(path, meta, planned_too=writing)
    if foreign:
        raise RunDamagedError(f"{path}/{foreign[0]} is not listed in run.json: not a file of "
                              "this run (move it away)")
    damage = damaged_chunks(path, meta)
    if damage:
        raise RunDamagedError(f"{path}: {damage[0]} (trixsim run --resume plays it again)")
    chunks = meta["chunks"]
    tables = tables_of(meta)
    cfiles = tuple(path / c["contracts_file"] for c in chunks if "contracts_file" in c)
    gfiles = tuple(path / c["games_file"] for c in chunks)
    if not gfiles:
        raise RunReadError(f"{path}: the run holds no games")
    run = RunFolder(path, meta, cfiles, gfiles)
    try:
        run.game  # noqa: B018 - a run of a game not registered here cannot be read
    except RunFolderError as exc:
        raise RunReadError(f"{path}: {_first_line(exc)}") from None
    for table in ("games", "contracts"):
        if table not in tables:  # a game without a contracts table (trump7)
            continue
        try:
            rows = _dataset(run, table).count_rows()
        except (pa.ArrowException, OSError) as exc:
            raise RunReadError(f"{path}: cannot read the {table} table "
                               f"({_first_line(exc)})") from None
        if rows == 0:
            raise RunReadError(f"{path}: the run holds no games")
    return run


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:200]


def _dataset(run: RunFolder, table: str) -> ds.Dataset:
    files = run.contracts_files if table == "contracts" else run.games_files
    try:
        return ds.dataset([str(f) for f in files], format="parquet")
    except (pa.ArrowException, OSError) as exc:
        raise RunReadError(f"{run.path}: cannot read the {table} table "
                           f"({_first_line(exc)})") from None


def batches(run: RunFolder, table: str, columns: Sequence[str],
            optional: Sequence[str] = (), games: tuple[int, int] | None = None
            ) -> Iterator[dict[str, np.ndarray]]:
    """Stream ``table`` as dicts of numpy columns, reading only ``columns``.

    Columns in ``optional`` are read when the table has them. Dictionary (string) columns
    come back as ``(codes, values)`` pairs under the key ``name`` so that callers map the
    few distinct values instead of every row. With ``games=(lo, hi)`` only the rows of
    games lo..hi-1 come back (row groups outside are skipped on their statistics).
    Memory stays that of a few batches, however many files.
    """
    dset = _dataset(run, table)
    have = set(dset.schema.names)
    missing = [c for c in columns if c not in have]
    if missing:
        raise RunReadError(f"{run.path}: the {table} table lacks column(s) {', '.join(missing)}")
    wanted = list(columns) + [c for c in optional if c in have]
    read = wanted if games is None or "game" in wanted else [*wanted, "game"]
    files = run.contracts_files if table == "contracts" else run.games_files
    if games is not None:  # chunks outside the games asked for are not even opened
        spans = run.file_games()
        files = tuple(f for f in files if f not in spans
                      or (spans[f][0] < games[1] and spans[f][1] > games[0]))
    held: list[dict[str, Any]] = []
    rows = 0
    try:
        # file by file, row group by row group, in this thread: a scanner reading ahead
        # in the background piles up batches while a slow consumer works (its memory
        # grew with the run's files); small row groups are joined up to BATCH_ROWS rows
        for path in files:
            pf = pq.ParquetFile(path)
            groups = _row_groups(pf, games)
            if not groups:
                continue
            for batch in pf.iter_batches(batch_size=BATCH_ROWS, row_groups=groups,
                                         columns=read, use_threads=False):
                if games is not None:
                    g = batch.column("game").to_numpy(zero_copy_only=False)
                    keep = (g >= games[0]) & (g < games[1])
                    if not keep.all():
                        batch = batch.filter(pa.array(keep))
                if batch.num_rows:
                    held.append({name: _column(batch.column(name)) for name in wanted})
                    rows += batch.num_rows
                if rows >= BATCH_ROWS:
                    yield _join(held)
                    held, rows = [], 0
    except (pa.ArrowException, OSError) as exc:
        raise RunReadError(f"{run.path}: cannot read the {table} table "
                           f"({_first_line(exc)})") from None
    if held:
        yield _join(held)


def _join(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Batches of numpy columns as one (dictionary columns' codes mapped onto the union
    of their values)."""
    if len(parts) == 1:
        return parts[0]
    out: dict[str, Any] = {}
    for name, first in parts[0].items():
        if not isinstance(first, tuple):
            out[name] = np.concatenate([p[name] for p in parts])
            continue
        values = list(first[1])
        if all(p[name][1] == values for p in parts):
            out[name] = (np.concatenate([p[name][0] for p in parts]), values)
            continue
        index = {v: i for i, v in enumerate(values)}
        codes = []
        for p in parts:
            c, vals = p[name]
            remap = np.array([index.setdefault(v, len(index)) for v in vals], dtype=np.int64)
            codes.append(remap[c] if len(remap) else c)
        out[name] = (np.concatenate(codes), list(index))
    return out


def _row_groups(pf: pq.ParquetFile, games: tuple[int, int] | None) -> list[int]:
    """The row groups of ``pf`` that may hold games lo..hi-1 (all without ``games``)."""
    meta = pf.metadata
    every = list(range(meta.num_row_groups))
    if games is None:
        return every
    names = pf.schema_arrow.names
    if "game" not in names:
        return every
    col = names.index("game")
    out = []
    for i in every:
        st = meta.row_group(i).column(col).statistics
        if st is None or not st.has_min_max or (st.min < games[1] and st.max >= games[0]):
            out.append(i)
    return out


def _column(col: pa.Array) -> np.ndarray | tuple[np.ndarray, list[str]]:
    """A numpy array, or (codes, values) for a dictionary or string column."""
    if pa.types.is_dictionary(col.type):
        return (col.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                [str(v) for v in col.dictionary.to_pylist()])
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        enc = col.dictionary_encode()
        return (enc.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                [str(v) for v in enc.dictionary.to_pylist()])
    return col.to_numpy(zero_copy_only=False)


def game_of_runs(runs: Sequence[RunFolder]) -> Any:
    """The one game the runs play; RunReadError when they play different games (their
    scores do not compare)."""
    names = {r.game.name for r in runs}
    if len(names) > 1:
        raise RunReadError("the runs play different games (" + ", ".join(sorted(names))
                           + "): report each game's runs separately")
    return runs[0].game


def decode(col: np.ndarray | tuple[np.ndarray, list[str]], index: dict[str, int]) -> np.ndarray:
    """Map a string column to ids through ``index`` (new values are added to it)."""
    if isinstance(col, tuple):
        codes, values = col
        ids = np.array([index.setdefault(v, len(index)) for v in values], dtype=np.int64)
        return ids[codes] if len(ids) else codes
    raise TypeError("expected a dictionary column")
