"""The run folder format (``trixsim-run/3``): run.json, chunk files, and their verification.

A run folder holds ``run.json`` (its game, settings, plan, finished chunks), one folder
per outcome table of the game (Trix: ``contracts/`` and ``games/``; trump7: ``games/``)
with one Parquet file per finished chunk, ``run.log`` and this tool's marker and lock
(see ``trixsim.folders``). Each finished chunk is listed with its files, row counts,
byte sizes and SHA-256 digests taken when it was written, so that a reader can trust a
listed chunk only after checking it, and can refuse any table file the run did not list.
This module is the run store: the only one that reads or writes run.json (every command
goes through ``read_run``, ``new_meta``, ``write_run_json`` and ``list_chunk``) and the one
that encodes and places chunk files, so a chunk is the same bytes wherever it was played.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from trixsim.folders import JOURNAL, write_atomic

FORMAT = "trixsim-run/3"
"""Format 3 names the run's game (``game``); its chunks list one file per table of that
game. Format 2 added the cards each seat took and the last trick's taker to Trix's
contracts table (what ``trixsim check`` needs to re-derive every contract's points)."""
FORMATS = ("trixsim-run/1", "trixsim-run/2", FORMAT)
"""Formats this version reads (1 and 2 are Trix runs); a resumed run goes on writing
chunks of its own format."""
LEGACY_GAME = "trix"
"""The game of run folders written before run.json named one (formats 1 and 2)."""
TABLES = ("contracts", "games")
"""Trix's tables (formats 1 and 2); a format-3 run's are its game's (``tables_of``)."""
_TMP = re.compile(r"^\.tmp-")


class Chunk(TypedDict, total=False):
    """A finished chunk as run.json lists it (keys starting with ``_`` travel from a worker
    to the main process and are never written)."""

    lineup: int
    start: int
    stop: int
    games_file: str
    """One ``{table}_file`` per table of the game (Trix also ``contracts_file``)."""
    contracts_file: str
    contracts: int
    """Rows of each table other than ``games`` under the table's name (Trix: contracts)."""
    seconds: float
    final_sum: list[float]
    final_sq: list[float]
    wins: list[int]
    losses: list[int]
    bytes: dict[str, int]
    sha256: dict[str, str]
    _temp: dict[str, str]
    """Temporary files a worker wrote into the run folder (a shared folder)."""
    _data: dict[str, bytes]
    """The encoded files, for the main process to write (a worker that cannot see it)."""


class CompareSettings(TypedDict):
    """What a comparison folder was started with (``trixsim compare``)."""

    a: str
    b: str
    games: int
    round: int
    sprt: dict[str, float] | None


class RunMeta(TypedDict, total=False):
    """The content of run.json: settings, the plan of chunks (lineup, start, stop) and the
    finished chunks; ``compare`` only in comparison folders."""

    format: str
    game: str
    version: str
    command: list[str]
    seed: int
    games: int
    first_game: int
    batch_size: int
    workers: int
    rotate: bool
    requested_lineups: list[str]
    lineups: list[str]
    strategies: dict[str, dict[str, Any]]
    plan: list[list[int]]
    chunks: list[Chunk]
    complete: bool
    seconds: float
    compare: CompareSettings


def new_meta(*, game: str, version: str, command: list[str], seed: int, games: int,
             first_game: int, batch_size: int, workers: int, rotate: bool,
             requested_lineups: list[str], lineups: list[str],
             strategies: dict[str, dict[str, Any]], plan: list[list[int]],
             compare: CompareSettings | None = None) -> RunMeta:
    """The run.json of a new run of ``game``: nothing played yet."""
    meta = RunMeta(format=FORMAT, game=game, version=version, command=command, seed=seed,
                   games=games,
                   first_game=first_game, batch_size=batch_size, workers=workers,
                   rotate=rotate, requested_lineups=requested_lineups, lineups=lineups,
                   strategies=strategies, plan=plan, chunks=[], complete=False, seconds=0.0)
    if compare is not None:
        meta["compare"] = compare
    return meta


def compare_settings(out: Path | str) -> CompareSettings:
    """The settings of a comparison folder; RunFolderError when ``out`` is not one."""
    meta = read_run(out)
    if "compare" not in meta:
        raise RunFolderError(f"{out} is a run folder, not a comparison")
    return meta["compare"]


class RunFolderError(ValueError):
    """A folder that is not a (readable) run folder."""


class RunDataError(RunFolderError):
    """A run folder whose run.json or chunk journal is damaged: a data error (the CLI
    exits 1), where a path naming no run folder at all is a usage error (exit 2)."""


def game_name(meta: RunMeta) -> str:
    """The name of the game a run plays (Trix for folders that predate ``game``)."""
    return str(meta.get("game", LEGACY_GAME))


def game_of(meta: RunMeta) -> Any:
    """The ``Game`` a run plays; RunFolderError when it is not registered here."""
    from trixsim.games import UnknownGameError, get_game

    try:
        return get_game(game_name(meta))
    except UnknownGameError as exc:
        raise RunFolderError(f"run of {exc}") from None


def tables_of(meta: RunMeta) -> tuple[str, ...]:
    """The outcome tables a run's chunks hold, in file order."""
    if meta.get("format") != FORMAT:
        return TABLES
    return tuple(sorted(game_of(meta).table_schemas))


def chunk_tables(chunk: Chunk) -> tuple[str, ...]:
    """The tables a listed chunk has files for."""
    return tuple(sorted(k[:-5] for k in chunk if k.endswith("_file")))


def chunk_name(lineup: int, start: int) -> str:
    """File stem of a chunk; lexicographic order is (lineup, game) order."""
    return f"l{lineup:03d}-g{start:012d}"


def chunk_file(table: str, lineup: int, start: int) -> str:
    """A chunk's file, relative to the run folder."""
    return f"{table}/{chunk_name(lineup, start)}.parquet"


def temp_file(out: Path, table: str, lineup: int, start: int) -> Path:
    """Where a worker writes a chunk's file before the main process lists it."""
    return Path(out) / table / f".tmp-{chunk_name(lineup, start)}-{os.getpid()}.parquet"


STATISTICS = ("game", "lineup")
"""The columns whose row groups carry min/max statistics: the ones readers filter on
(``reports.tables`` skips row groups by game, ``trixsim record`` filters by game and lineup);
statistics on the others cost writing time and no reader uses them."""


def parquet_options(schema: Any) -> dict[str, Any]:
    """How chunk files are written: zstd at its default level; dictionary pages only for
    the dictionary-typed (string) columns; the integer columns other than card masks
    (uint32, random bits that delta coding only spreads) DELTA_BINARY_PACKED, which packs
    their small values in a few bits before zstd sees them; statistics only for
    ``STATISTICS``. Chosen by measurement (README, "Chunk files")."""
    import pyarrow as pa

    strings = [f.name for f in schema if pa.types.is_dictionary(f.type)]
    delta = {f.name: "DELTA_BINARY_PACKED" for f in schema
             if pa.types.is_integer(f.type) and f.type != pa.uint32()}
    return {"compression": "zstd", "use_dictionary": strings or False,
            "column_encoding": delta or None,
            "write_statistics": [c for c in STATISTICS if c in schema.names] or False}


def encode_table(table: Any) -> bytes:
    """A chunk's Arrow table as the bytes of its Parquet file (one row group): the same
    table gives the same bytes in any process, so a chunk's checksum does not depend on
    where it ran."""
    encoder = TableEncoder()
    encoder.add(table)
    return encoder.finish()


class TableEncoder:
    """One Parquet file built a row group at a time (a chunk played in slices): the same
    slices give the same bytes in any process."""

    def __init__(self) -> None:
        self._sink: Any = None
        self._writer: Any = None

    def add(self, table: Any) -> None:
        """Append ``table`` as the file's next row group."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._writer is None:
            self._sink = pa.BufferOutputStream()
            self._writer = pq.ParquetWriter(self._sink, table.schema,
                                            **parquet_options(table.schema))
        self._writer.write_table(table, row_group_size=max(table.num_rows, 1))

    def finish(self) -> bytes:
        """The file's bytes."""
        self._writer.close()
        return self._sink.getvalue().to_pybytes()


def data_digest(data: bytes) -> str:
    """SHA-256 of bytes, hex."""
    return hashlib.sha256(data).hexdigest()


def place_chunk(out: Path | str, chunk: Chunk) -> Chunk:
    """Put a finished chunk's files under their own names, from the temporary files a
    worker wrote in the folder or from the bytes it sent (checked against their recorded
    checksums, written to a temporary file, synced, renamed); returns the entry to list."""
    out = Path(out)
    temps = chunk.pop("_temp", {})
    data = chunk.pop("_data", {})
    for table, tmp in temps.items():
        os.replace(tmp, out / chunk[f"{table}_file"])  # type: ignore[literal-required]
    for table, blob in data.items():
        if data_digest(blob) != chunk["sha256"][table]:
            raise RunDataError(f"chunk lineup {chunk['lineup']} games {chunk['start']}: "
                               f"the {table} file arrived damaged")
        write_atomic(out / chunk[f"{table}_file"], blob,  # type: ignore[literal-required]
                     tmp=temp_file(out, table, chunk["lineup"], chunk["start"]))
    return chunk


def list_chunk(out: Path | str, meta: RunMeta, chunk: Chunk) -> None:
    """List a placed chunk (in ``meta``, chunks kept in (lineup, game) order, and on disk
    in the folder's journal, synced before this returns)."""
    bisect.insort(meta["chunks"], chunk, key=_chunk_order)  # not a sort of every chunk
    line = (json.dumps(chunk, separators=(",", ":")) + "\n").encode()
    fd = os.open(Path(out) / JOURNAL, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW,
                 0o666)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def digest(path: Path) -> str:
    """SHA-256 of a file, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_run_json(out: Path | str, meta: RunMeta) -> None:
    """Write run.json atomically: a temporary file of this process, synced, then renamed;
    on failure the old run.json stays and the temporary file is removed."""
    write_atomic(Path(out) / "run.json", json.dumps(meta, indent=1) + "\n")
    (Path(out) / JOURNAL).unlink(missing_ok=True)  # run.json lists all its lines now


def _journal(path: Path, meta: RunMeta) -> None:
    """Add the chunks of the folder's journal that run.json does not list to ``meta``. A
    last line cut short (the process was killed while appending it) is not a listing:
    its chunk is played again. A journal entry contradicting run.json is an error."""
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return
    except (OSError, UnicodeDecodeError) as exc:
        raise RunDataError(f"{path}: unreadable ({str(exc)[:120]})") from None
    lines = text.split("\n")
    listed = {(c.get("lineup"), c.get("start")): c for c in meta["chunks"]
              if isinstance(c, dict)}
    for number, line in enumerate(lines[:-1], 1):  # the last piece has no newline yet
        try:
            chunk = json.loads(line)
            key = (chunk["lineup"], chunk["start"])
        except (ValueError, TypeError, KeyError, RecursionError):
            raise RunDataError(f"{path}: line {number} is not a chunk entry") from None
        if key in listed:
            if listed[key] != chunk:
                raise RunDataError(f"{path}: line {number} contradicts run.json's entry "
                                   f"for lineup {key[0]} game {key[1]}")
            continue
        listed[key] = chunk
        meta["chunks"].append(chunk)
    meta["chunks"].sort(key=_chunk_order)


def _chunk_order(chunk: Chunk) -> tuple[int, int]:
    """Chunks are listed in (lineup, first game) order."""
    return chunk["lineup"], chunk["start"]


def read_run(out: Path | str) -> RunMeta:
    """The parsed run.json of a run folder; RunFolderError if it is not one."""
    path = Path(out) / "run.json"
    if not Path(out).is_dir():
        raise RunFolderError(f"{out} is not a run folder (no such folder)")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunFolderError(f"{out} is not a run folder (no run.json)") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise RunDataError(f"{path}: unreadable ({str(exc)[:120]})") from None
    if not isinstance(meta, dict) or meta.get("format") not in FORMATS:
        raise RunDataError(f"{path} is not a {FORMAT} file")
    for key in ("seed", "games", "first_game", "lineups", "plan", "chunks"):
        if key not in meta:
            raise RunDataError(f"{path}: missing {key!r}")
    if meta["format"] == FORMAT and not isinstance(meta.get("game"), str):
        raise RunDataError(f"{path}: missing 'game'")
    tables = tables_of(meta)
    for chunk in meta["chunks"]:
        _check_entry(path, chunk, tables)
    if (Path(out) / JOURNAL).is_symlink():
        raise RunDataError(f"{Path(out) / JOURNAL} is a link: not reading or writing "
                           "outside the run folder")
    before = len(meta["chunks"])
    _journal(Path(out) / JOURNAL, meta)
    for chunk in meta["chunks"][before:]:
        _check_entry(path, chunk, tables)
    return meta


def _check_entry(path: Path, chunk: Any, tables: tuple[str, ...]) -> None:
    """A chunk entry names exactly its own files, one per table of the run's game (a
    tampered run.json cannot point a reader at a file outside the run)."""
    try:
        ok = chunk_tables(chunk) == tables and all(
            chunk[f"{t}_file"] == chunk_file(t, chunk["lineup"], chunk["start"])
            for t in tables)
    except (KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise RunDataError(f"{path}: malformed chunk entry {json.dumps(chunk)[:80]}")


@dataclass(frozen=True)
class Damage:
    """A listed chunk that cannot be trusted, and why."""

    chunk: Chunk
    problem: str

    def __str__(self) -> str:
        c = self.chunk
        return (f"chunk lineup {c['lineup']} games {c['start']}..{c['stop'] - 1}: "
                f"{self.problem}")


def verify_chunk(out: Path, chunk: Chunk) -> str | None:
    """Why a listed chunk cannot be trusted (missing, size, checksum, row count), or None."""
    for table in chunk_tables(chunk):
        rel = chunk[f"{table}_file"]
        path = Path(out) / rel
        if not path.is_file():
            return f"{rel} is missing"
        sums = chunk.get("sha256") or {}
        sizes = chunk.get("bytes") or {}
        if table in sizes and path.stat().st_size != sizes[table]:
            return f"{rel} has {path.stat().st_size:,} bytes, {sizes[table]:,} were written"
        if table in sums:
            if digest(path) != sums[table]:
                return f"{rel} does not match the checksum recorded when it was written"
            continue
        rows = _rows(path)  # listed before checksums were recorded: count its rows
        want = chunk["stop"] - chunk["start"] if table == "games" else chunk.get(table, -1)
        if rows is None:
            return f"{rel} is not a readable Parquet file"
        if rows != want:
            return f"{rel} has {rows:,} rows, {want:,} were written"
    return None


def _rows(path: Path) -> int | None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowException, OSError):
        return None


def damaged_chunks(out: Path, meta: RunMeta) -> list[Damage]:
    """Every listed chunk that fails ``verify_chunk``."""
    out = Path(out)
    from concurrent.futures import ThreadPoolExecutor

    chunks = meta["chunks"]
    # reading and hashing release the interpreter lock: a few threads keep disk and cores busy
    with ThreadPoolExecutor(min(4, os.cpu_count() or 1)) as pool:
        problems = list(pool.map(lambda c: verify_chunk(out, c), chunks))
    return [Damage(c, p) for c, p in zip(chunks, problems, strict=True) if p]


def unlisted_files(out: Path, meta: RunMeta, planned_too: bool = False) -> list[str]:
    """Files in the table folders that run.json does not list (temporary files of
    interrupted writes aside). With ``planned_too``, files named after a planned but
    unfinished chunk (which a resume overwrites) are not counted."""
    tables = tables_of(meta)
    listed = {c[f"{t}_file"] for c in meta["chunks"] for t in tables}
    if planned_too:
        listed |= {chunk_file(t, lu, a) for lu, a, _ in meta["plan"] for t in tables}
    found = []
    for table in tables:
        folder = Path(out) / table
        if not folder.is_dir():
            continue
        for f in sorted(folder.iterdir()):
            rel = f"{table}/{f.name}"
            if rel not in listed and not _TMP.match(f.name):
                found.append(rel)
    return found


def remove_temp_files(out: Path, tables: tuple[str, ...] = TABLES) -> None:
    """Delete the temporary chunk files of interrupted writes (this tool's own names) in
    the folders of ``tables``."""
    for table in tables:
        folder = Path(out) / table
        if folder.is_dir():
            for f in folder.glob(".tmp-*.parquet"):
                f.unlink(missing_ok=True)


__all__ = ["FORMAT", "FORMATS", "LEGACY_GAME", "TABLES", "Chunk", "chunk_tables", "game_name",
           "game_of", "tables_of", "CompareSettings", "Damage", "RunDataError", "RunFolderError",
           "RunMeta", "chunk_file", "chunk_name", "compare_settings", "damaged_chunks",
           "JOURNAL", "data_digest", "digest", "encode_table", "list_chunk", "new_meta",
           "parquet_options", "place_chunk", "STATISTICS", "read_run", "TableEncoder",
           "remove_temp_files",
           "temp_file", "unlisted_files", "verify_chunk",
           "write_run_json"]
