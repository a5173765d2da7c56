"""Chunk files store every column as required (no definition levels to encode: about a
tenth of a chunk's encoding time), and a folder whose older chunks declared their columns
nullable, as versions before this one wrote them, still verifies and reads as one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from trixsim.reports.tables import batches, open_run

from trixsim import arrow
from trixsim.cli import cli
from trixsim.runfolder import digest, parquet_options, read_run, write_run_json
from trixsim.runner import RunConfig, run


def test_table_declares_its_columns_required() -> None:
    t = arrow.table({"game": arrow.ints(np.arange(3), np.int64),
                     "won": arrow.bools(np.array([True, False, True])),
                     "name": arrow.dictionary(np.zeros(3, dtype=np.int8), ["a"])})
    assert [f.nullable for f in t.schema] == [False, False, False]
    assert t.column("game").to_pylist() == [0, 1, 2]


def test_table_refuses_a_column_with_nulls() -> None:
    with pytest.raises(ValueError, match="column x holds 1 nulls"):
        arrow.table({"x": pa.array([1, None, 3], type=pa.int8())})


@pytest.mark.parametrize("game", ["trix", "trump7"])
def test_chunk_files_store_every_column_as_required(tmp_path: Path, game: str) -> None:
    out = tmp_path / "run"
    run(RunConfig(game=game, games=20, seed=5, lineups=("heuristic",), batch_size=10), out)
    files = sorted(out.glob("*/*.parquet"))
    assert files
    for f in files:
        schema = pq.ParquetFile(f).schema  # the Parquet schema, as other readers see it
        assert [schema.column(i).max_definition_level for i in range(len(schema))] \
            == [0] * len(schema), f


def _as_before(path: Path) -> None:
    """Rewrite a chunk file as versions before required columns wrote it: the same rows
    and options, every field nullable."""
    t = pq.read_table(path)
    t = t.cast(pa.schema([f.with_nullable(True) for f in t.schema]))
    pq.write_table(t, path, row_group_size=max(t.num_rows, 1), **parquet_options(t.schema))


def test_a_folder_with_older_nullable_chunks_checks_and_reads_as_one(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(RunConfig(game="trix", games=40, seed=5, lineups=("heuristic",), batch_size=20), out)
    want = {t: pq.read_table(out / t) for t in ("contracts", "games")}
    meta = read_run(out)
    first = meta["chunks"][0]
    for t in ("contracts", "games"):
        path = out / first[f"{t}_file"]
        _as_before(path)
        assert pq.ParquetFile(path).schema.column(0).max_definition_level == 1
        first["sha256"][t], first["bytes"][t] = digest(path), path.stat().st_size
    write_run_json(out, meta)

    res = CliRunner().invoke(cli, ["check", str(out)])
    assert res.exit_code == 0, res.output
    folder = open_run(out)
    for t, table in want.items():
        cols = [f.name for f in table.schema if not pa.types.is_dictionary(f.type)]
        got = list(batches(folder, t, cols))
        for c in cols:
            assert np.array_equal(np.concatenate([b[c] for b in got]),
                                  table.column(c).to_numpy()), (t, c)
    res = CliRunner().invoke(cli, ["report", str(out), "-o", str(tmp_path / "report")])
    assert res.exit_code == 0, res.output
