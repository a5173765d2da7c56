"""Every bundled lineup (pimc aside: its search is not bound to the same games) still gives
the same tables, row for row, through ``run``: digests of the tables' contents taken before
the run's writing and its outcome rows were reworked for speed. Digests are of the rows, not
of the Parquet bytes, so a change of codec or row groups keeps them."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from trixsim.runner import RunConfig, run

CASES = {
    ("trix", "random"): "39d28afe4b63342d1fc67a98",
    ("trix", "heuristic"): "98c94a72a27eb0ece2efc565",
    ("trix", "heuristic-declare"): "bc05f445aa2f2ebe647f51de",
    ("trix", "heuristic-early-trix"): "6fc8d5fac48f6171d31c830d",
    ("trix", "heuristic-fixed-order"): "e59b8232e69e88a4cc845136",
    ("trix", "heuristic-late-trix"): "f347814a1690e9313078c933",
    ("trix", "heuristic-nodeclare"): "63a4bce3ed25c80e048d4894",
    ("trix", "heuristic,random,heuristic-declare,random"): "3ff9e5e8e835a3ea195f5ad0",
    # trump7's: retaken when its games table gained the 56 play-count columns (leads, ruffs,
    # honours lost); every column it had before holds the same values
    ("trump7", "random"): "b908b3664cb80a7b9be1de6a",
    ("trump7", "heuristic"): "a1bdc5706f70ad9c5f4504a5",
    ("trump7", "heuristic,random,random,heuristic"): "2541576673217d05ad4147bd",
    ("trump7-bid", "random"): "0e368e30f5ff2c4652c7b445",
    ("trump7-bid", "heuristic"): "b274e07f572c1c8f81da8958",
}


def table_digests(out: Path) -> str:
    """SHA-256 over every table's rows in file order (column names, types and values;
    not whether a column is declared nullable, which says nothing of its rows)."""
    h = hashlib.sha256()
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        for f in sorted(folder.glob("*.parquet")):
            t = pq.read_table(f)
            schema = pa.schema([field.with_nullable(True) for field in t.schema])
            h.update(f"{folder.name}/{f.name}:{schema.to_string()}".encode())
            h.update(repr(t.to_pydict()).encode())
    return h.hexdigest()[:24]


@pytest.mark.parametrize("game,lineup", list(CASES))
def test_tables_are_unchanged(tmp_path: Path, game: str, lineup: str) -> None:
    out = tmp_path / "run"
    run(RunConfig(game=game, games=60, seed=11, lineups=(lineup,), batch_size=25), out)
    assert table_digests(out) == CASES[(game, lineup)]


@pytest.mark.parametrize("row_group,groups", [(1, {4, 1}), (12, {2, 1})])
@pytest.mark.parametrize("game,lineup", [("trix", "heuristic,random,heuristic-declare,random"),
                                         ("trump7-bid", "heuristic")])
def test_chunks_played_in_slices_give_the_same_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, lineup: str,
        row_group: int, groups: set[int]) -> None:
    """A chunk cut into slices (written while the next slice plays, gathered into row
    groups of at least ``ROW_GROUP`` rows) holds the same rows as one played whole."""
    from trixsim import chunks

    monkeypatch.setattr(chunks, "SLICE", 7)
    monkeypatch.setattr(chunks, "ROW_GROUP", row_group)
    out = tmp_path / "run"
    run(RunConfig(game=game, games=60, seed=11, lineups=(lineup,), batch_size=25), out)
    found = {pq.ParquetFile(f).metadata.num_row_groups for f in out.glob("games/*.parquet")}
    # 25 games: 4 slices of 6-7 (gathered in twos when a row group wants 12 rows); the
    # last chunk's 10 games: 1
    assert found == groups
    assert table_digests(out) == CASES[(game, lineup)]


def test_row_groups_keep_statistics_where_readers_filter(tmp_path: Path) -> None:
    """Row groups carry min/max statistics for game and lineup (what reports and records
    filter on), not for the other columns."""
    out = tmp_path / "run"
    run(RunConfig(game="trix", games=30, seed=3, lineups=("random",), batch_size=30), out)
    meta = pq.ParquetFile(next(out.glob("contracts/*.parquet"))).metadata
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    group = meta.row_group(0)
    with_stats = {n for i, n in enumerate(names)
                  if group.column(i).statistics is not None
                  and group.column(i).statistics.has_min_max}
    assert with_stats == {"game", "lineup"}
    assert group.column(names.index("game")).statistics.min == 0


def test_a_failing_write_stops_the_chunk_and_leaves_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error in the writer thread reaches the run, and nothing of the chunk is left."""
    from trixsim import chunks

    def fail(self: object, table: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(chunks.TableEncoder, "add", fail)
    out = tmp_path / "run"
    with pytest.raises(OSError, match="disk full"):
        run(RunConfig(game="trix", games=30, seed=1, lineups=("random",), batch_size=30), out)
    assert not list(out.glob("*/*.parquet")) and not list(out.glob("*/.tmp-*"))
