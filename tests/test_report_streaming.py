"""Reading run folders for reports: small row groups are joined into full batches, a game
range opens only the chunks that hold it, and every row comes back once, in file order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from trixsim.reports import tables
from trixsim.reports.tables import _join, batches, open_run

from trixsim import chunks
from trixsim.runner import RunConfig, run


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(chunks, "SLICE", 5)  # many small row groups
    out = tmp_path / "run"
    run(RunConfig(game="trix", games=80, seed=3, lineups=("random", "heuristic"),
                  batch_size=20), out)
    return out


def test_batches_join_row_groups_and_keep_every_row(folder: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "BATCH_ROWS", 64)
    r = open_run(folder)
    got = list(batches(r, "games", ["game", "lineup", "strategy_0"]))
    assert all(len(b["game"]) >= 64 for b in got[:-1])
    want = pa.concat_tables([pq.read_table(f) for f in r.games_files])
    assert np.array_equal(np.concatenate([b["game"] for b in got]),
                          want.column("game").to_numpy())
    names = [b["strategy_0"][1][c] for b in got for c in b["strategy_0"][0]]
    assert names == want.column("strategy_0").to_pylist()


def test_a_game_range_opens_only_its_chunks(folder: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    r = open_run(folder)
    opened: list[str] = []
    real = pq.ParquetFile

    def spy(path: object, *a: object, **k: object) -> pq.ParquetFile:
        opened.append(str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(tables.pq, "ParquetFile", spy)
    got = np.concatenate([b["game"] for b in batches(r, "games", ["game"], games=(25, 35))])
    assert sorted(got.tolist()) == sorted(list(range(25, 35)) * 2)  # both lineups
    assert len(opened) == 2  # the chunk of games 20..39 of each lineup, no other


def test_join_maps_codes_onto_the_union_of_values() -> None:
    a = {"x": np.array([1, 2]), "s": (np.array([0, 1]), ["a", "b"])}
    b = {"x": np.array([3]), "s": (np.array([0, 1, 0]), ["c", "a"])}
    j = _join([a, b])
    assert j["x"].tolist() == [1, 2, 3]
    codes, values = j["s"]
    assert [values[c] for c in codes] == ["a", "b", "c", "a", "c"]
