"""``trixsim check`` verifies every kind of folder trixsim writes; ``replay --run`` compares
whole rows with the run's tables and says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.runfolder import digest, read_run, write_run_json


def _invoke(*args: object) -> tuple[int, str]:
    res = CliRunner().invoke(cli, [str(a) for a in args])
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("kinds")
    out = {k: base / k for k in ("run", "compare", "tournament", "tune", "report")}
    for args in (["run", "-n", 8, "-s", "heuristic", "-j", 1, "-o", out["run"]],
                 ["compare", "heuristic", "random", "-n", 6, "-j", 1, "--no-plots", "-o",
                  out["compare"]],
                 ["tournament", "heuristic", "random", "-n", 4, "-j", 1, "--no-plots", "-o",
                  out["tournament"]],
                 ["tune", "heuristic", "--param", "declare_margin=-100:60", "--budget", 160,
                  "--deals-per-iteration", 10, "--verify-deals", 20, "-j", 1, "--out",
                  out["tune"]],
                 ["report", out["run"], "-o", out["report"]]):
        code, text = _invoke(*args, *(["-q"] if args[0] != "report" else []))
        assert code == 0, text
    return out


@pytest.mark.parametrize("kind", ["run", "compare", "tournament", "tune", "report"])
def test_check_verifies_every_kind_of_folder(folders: dict[str, Path], kind: str,
                                             tmp_path: Path) -> None:
    code, text = _invoke("check", folders[kind])
    assert code == 0 and "all consistent" in text, text
    copy = tmp_path / kind
    shutil.copytree(folders[kind], copy)
    (copy / "mine.txt").write_text("not trixsim's")  # something trixsim does not write
    code, text = _invoke("check", copy)
    assert code == 1 and "mine.txt" in text, text


def test_check_finds_a_damaged_pair_and_a_broken_tuning(folders: dict[str, Path],
                                                        tmp_path: Path) -> None:
    tour = tmp_path / "tour"
    shutil.copytree(folders["tournament"], tour)
    pair = next(tour.glob("pair-*"))
    victim = next((pair / "games").glob("*.parquet"))
    victim.write_bytes(victim.read_bytes()[:50])
    code, text = _invoke("check", tour)
    assert code == 1 and pair.name in text and "bytes" in text, text
    tune = tmp_path / "tune"
    shutil.copytree(folders["tune"], tune)
    lines = (tune / "history.csv").read_text().splitlines()
    (tune / "history.csv").write_text("\n".join(lines[:-1]) + "\n")
    code, text = _invoke("check", tune)
    assert code == 1 and "history.csv" in text, text


def test_check_refuses_a_folder_trixsim_did_not_write(tmp_path: Path) -> None:
    code, text = _invoke("check", tmp_path)
    assert code == 2 and "not a folder trixsim wrote" in text


def test_replay_compares_whole_rows_and_says_so(folders: dict[str, Path],
                                               tmp_path: Path) -> None:
    code, text = _invoke("replay", "--run", folders["run"], "--game", 3)
    assert code == 0, text
    assert "game 3 (lineup 0) matches the run's tables" in text and "every column" in text
    run = tmp_path / "run"
    shutil.copytree(folders["run"], run)
    meta = read_run(run)
    chunk = meta["chunks"][0]
    path = run / chunk["contracts_file"]
    table = pq.read_table(path).to_pandas()
    row = table.index[table.game == 3][2]
    table.loc[row, "kh_holder_hearts"] = (table.loc[row, "kh_holder_hearts"] + 1) % 8
    import pyarrow as pa

    pq.write_table(pa.Table.from_pandas(table, schema=pq.read_schema(path),
                                        preserve_index=False), path, compression="zstd")
    code, text = _invoke("replay", "--run", run, "--game", 3)
    assert code == 1 and "contract 3" in text and "kh_holder_hearts" in text, text
    # a game whose rows are missing is said to be missing, not skipped
    keep = table[table.game != 3]
    pq.write_table(pa.Table.from_pandas(keep, schema=pq.read_schema(path),
                                        preserve_index=False), path, compression="zstd")
    chunk["sha256"]["contracts"], chunk["bytes"]["contracts"] = digest(path), \
        path.stat().st_size
    write_run_json(run, meta)
    code, text = _invoke("replay", "--run", run, "--game", 3)
    assert code == 1 and "not in the run's contracts table" in text, text
    assert json.loads((run / "run.json").read_text())["chunks"]
