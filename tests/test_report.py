"""``trixsim report``: every plot and the summary from a small real run; bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from trixsim.reports.aggregate import aggregate
from trixsim.reports.plots import colour
from trixsim.reports.tables import RunReadError, batches, open_run
from trixsim.reports.trix_sums import sum_runs

from trixsim.cli import cli
from trixsim.commands import report as report_cmd
from trixsim.runner import RunConfig, run

PLOTS = ["overall_mean_total.png", "overall_win_loss.png", "final_totals.png",
         "game_length.png", "contract_heatmap.png", "picker_points_by_pick.png",
         "seventh_pick.png", "declaration_rate.png", "declaration_points_by_hearts.png",
         "kh_lost.png", "trix_pick.png", "trix_results.png", "trix_forced.png",
         "points_by_contract.png"]
LINEUP = "heuristic,random,heuristic-declare,random"
VERDICT_PLOTS = ["verdict_overall.png", "verdict_contracts.png", "verdict_declaration.png",
                 "verdict_trix.png"]


@pytest.fixture(scope="module")
def app() -> click.Group:
    """The CLI with the report command."""
    if "report" not in cli.commands:
        report_cmd.register(cli)
    return cli


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real run: one lineup rotated through the four seats."""
    out = tmp_path_factory.mktemp("runs") / "small"
    run(RunConfig(game="trix", games=40, seed=5, lineups=(LINEUP,), rotate=True, workers=1,
                  batch_size=40), out)
    return out


def invoke(app: click.Group, *args: str) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_report_writes_every_plot_and_the_summary(app: click.Group, run_dir: Path,
                                                  tmp_path: Path) -> None:
    out = tmp_path / "rep"
    res = invoke(app, "report", run_dir, "--out", out)
    assert res.exit_code == 0, res.output
    for name in PLOTS:
        data = (out / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
    md = (out / "report.md").read_text()
    page = (out / "index.html").read_text()
    for section in ("Overall", "Contract ordering", "Ray declaration", "Trix timing",
                    "Points per contract"):
        assert f"## {section}" in md and f">{section}" in page
    for name in PLOTS:
        assert f"]({name})" in md and f"src='{name}'" in page
    # the rotated lineup shares deals: the strategies are compared seat by seat
    assert "## Summary: which strategy is better" in md and "seat only" in md
    assert "<nav>" in page and "<code>heuristic</code>" in page and "`heuristic`" not in page
    for name in VERDICT_PLOTS:  # no declaration plot: its pairs are seat only, not matched
        if name != "verdict_declaration.png":
            assert (out / name).read_bytes()[:4] == b"\x89PNG"
    assert not (out / "verdict_declaration.png").exists()
    runs = pd.read_csv(out / "lineups.csv")
    assert set(runs["run_id"]) == {"small"} and len(runs) == 4 * 3
    for spec in ("heuristic", "random", "heuristic-declare"):
        assert f"| {spec} |" in md
    # an existing report is kept without --force, replaced with it; a file trixsim did
    # not write makes it irreplaceable
    old = (out / "report.md").read_text()
    res = invoke(app, "report", run_dir, "--out", out)
    assert res.exit_code == 2 and "already exists" in res.output
    assert (out / "report.md").read_text() == old
    (out / "notes.txt").write_text("x")
    res = invoke(app, "report", run_dir, "--out", out, "--force")
    assert res.exit_code == 2 and "notes.txt" in res.output
    (out / "notes.txt").unlink()
    res = invoke(app, "report", run_dir, "--out", out, "--force", "-s", "heuristic,random")
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text()
    assert "| heuristic |" in md and "| heuristic-declare |" not in md


def test_aggregates_agree_with_the_tables(run_dir: Path) -> None:
    agg = aggregate([open_run(run_dir)])
    trix = sum_runs([open_run(run_dir)], agg.strategies)  # Trix's own aspects
    games = pd.read_parquet(run_dir / "games")
    contracts = pd.read_parquet(run_dir / "contracts")
    assert agg.games == len(games) == 160
    assert trix.contracts == len(contracts) == trix.picks.sum()
    for spec in ("heuristic", "random"):
        k = agg.strategies.index(spec)
        finals = np.concatenate([games.loc[games[f"strategy_{s}"] == spec, f"final_{s}"]
                                 for s in range(4)])
        n, total, _ = agg.final[k].sum(axis=0)
        assert n == finals.size and total / n == pytest.approx(finals.mean())
        wins = sum(games.loc[games[f"strategy_{s}"] == spec, f"winner_{s}"].sum()
                   for s in range(4))
        assert agg.wins[k].sum() == wins
    # every trix contract has one of the three results, and trix is always taken by pick 6
    assert trix.trix_by_pick.sum() == (contracts["contract"] == "trix").sum()
    assert trix.trix_by_pick[:, 6].sum() == 0
    # declarations: only the declare-always variant declares every time it may
    k = trix.strategies.index("heuristic-declare")
    assert (trix.declared[k] == trix.holder[k]).all() and trix.holder[k].sum() > 0
    # each game's length is counted once for every strategy at its table
    assert trix.length_hist.sum() == sum(
        games[[f"strategy_{s}" for s in range(4)]].nunique(axis=1))


def test_tables_read_only_the_columns_asked_for(run_dir: Path) -> None:
    got = list(batches(open_run(run_dir), "contracts", ["lineup", "points_0"]))
    assert got and all(set(b) == {"lineup", "points_0"} for b in got)
    assert sum(len(b["lineup"]) for b in got) == len(pd.read_parquet(run_dir / "contracts"))


def test_colours_are_fixed_per_strategy() -> None:
    assert colour("heuristic") == colour("heuristic") != colour("random")
    assert colour("mybot:x=1") == colour("mybot:x=1")


def _copy(run_dir: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "copy"
    shutil.copytree(run_dir, dst)
    return dst


def _one_line_error(res: object, code: int = 2) -> str:
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), res.output
    return lines[0]


def test_not_a_run_folder(app: click.Group, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    line = _one_line_error(invoke(app, "report", tmp_path / "empty", "--out", tmp_path / "r"))
    assert "not a run folder" in line
    line = _one_line_error(invoke(app, "report", tmp_path / "nope", "--out", tmp_path / "r"))
    assert "not a run folder" in line
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "run.json").write_text("{not json")  # damaged: a data error
    _one_line_error(invoke(app, "report", tmp_path / "bad", "--out", tmp_path / "r"), code=1)
    assert not (tmp_path / "r").exists()


def test_missing_and_corrupt_parquet(app: click.Group, run_dir: Path, tmp_path: Path) -> None:
    """A damaged run is a data error (exit 1) naming the chunk and the fault."""
    bad = _copy(run_dir, tmp_path)
    victim = sorted((bad / "games").glob("*.parquet"))[0]
    victim.unlink()
    line = _one_line_error(invoke(app, "report", bad, "--out", tmp_path / "r"), code=1)
    assert "missing" in line
    shutil.rmtree(bad)
    bad = _copy(run_dir, tmp_path)
    victim = sorted((bad / "contracts").glob("*.parquet"))[0]
    victim.write_bytes(b"this is not parquet" * 10)
    line = _one_line_error(invoke(app, "report", bad, "--out", tmp_path / "r"), code=1)
    assert "contracts/l000-g000000000000.parquet" in line and "bytes" in line
    assert not (tmp_path / "r").exists()


def test_empty_run(app: click.Group, run_dir: Path, tmp_path: Path) -> None:
    bad = _copy(run_dir, tmp_path)
    meta = json.loads((bad / "run.json").read_text())
    meta["chunks"] = []
    (bad / "run.json").write_text(json.dumps(meta))
    for kind in ("contracts", "games"):
        shutil.rmtree(bad / kind)
    line = _one_line_error(invoke(app, "report", bad, "--out", tmp_path / "r"))
    assert "no games" in line
    with pytest.raises(RunReadError):
        open_run(bad)


def test_unknown_strategy(app: click.Group, run_dir: Path, tmp_path: Path) -> None:
    line = _one_line_error(invoke(app, "report", run_dir, "--out", tmp_path / "r",
                                  "-s", "heuristic-late-trix"))
    assert "heuristic-late-trix" in line and "not in the run" in line
    assert not (tmp_path / "r").exists()


def test_the_same_games_given_twice_are_refused(app: click.Group, run_dir: Path,
                                                tmp_path: Path) -> None:
    line = _one_line_error(invoke(app, "report", run_dir, run_dir, "--out", tmp_path / "r"))
    assert "given twice" in line
    copy = _copy(run_dir, tmp_path)
    line = _one_line_error(invoke(app, "report", run_dir, copy, "--out", tmp_path / "r"))
    assert "hold the same games" in line and "seed 5" in line
    assert not (tmp_path / "r").exists()


def test_an_incomplete_run_is_reported_as_such(app: click.Group, run_dir: Path,
                                               tmp_path: Path) -> None:
    part = _copy(run_dir, tmp_path)
    meta = json.loads((part / "run.json").read_text())
    last = meta["chunks"].pop()
    meta["complete"] = False
    (part / "run.json").write_text(json.dumps(meta))
    for key in ("contracts_file", "games_file"):
        (part / last[key]).unlink()
    res = invoke(app, "report", part, "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    assert "note: " in res.output and "is incomplete" in res.output
    md = (tmp_path / "r" / "report.md").read_text()
    assert "**Incomplete run**" in md and "| **incomplete** |" in md


def test_a_run_being_written_is_reported_from_one_snapshot(
        app: click.Group, run_dir: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While the report is drawn, the writer lists more chunks: report.md and the terminal
    note both give the chunk count of the one snapshot the report was made from."""
    import trixsim.reports.report as report_lib

    part = _copy(run_dir, tmp_path)
    full = (part / "run.json").read_text()
    meta = json.loads(full)
    later = meta["chunks"][1:]
    meta["chunks"] = meta["chunks"][:1]
    meta["complete"] = False
    (part / "run.json").write_text(json.dumps(meta))
    aside = tmp_path / "aside"
    aside.mkdir()
    for chunk in later:
        for key in ("contracts_file", "games_file"):
            (part / chunk[key]).rename(aside / Path(chunk[key]).name.replace(".", f"-{key}."))
    real = report_lib.aggregate

    def aggregate_while_the_writer_goes_on(runs: list) -> object:
        for chunk in later:  # the writer places and lists the other chunks
            for key in ("contracts_file", "games_file"):
                (aside / Path(chunk[key]).name.replace(".", f"-{key}.")).rename(
                    part / chunk[key])
        (part / "run.json").write_text(full)
        return real(runs)

    monkeypatch.setattr(report_lib, "aggregate", aggregate_while_the_writer_goes_on)
    res = invoke(app, "report", part, "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    md = (tmp_path / "r" / "report.md").read_text()
    total = len(meta["plan"])
    assert f"1 of {total} planned chunks" in md
    notes = [ln for ln in res.output.splitlines() if "is incomplete" in ln]
    assert notes == [f"note: {part} is incomplete: 1 of {total} planned chunks played "
                     "(trixsim run --resume completes it)"], res.output
    assert json.loads((part / "run.json").read_text())["complete"]  # the run did go on


def test_a_chunk_placed_but_not_yet_listed_by_the_writer_is_left_out(
        app: click.Group, run_dir: Path, tmp_path: Path) -> None:
    """A writer puts a chunk's files in place, then lists it in run.json: a report taken in
    between reads the listed chunks; with no writer, such a file is refused as foreign."""
    from trixsim.folders import FolderLock

    part = _copy(run_dir, tmp_path)
    meta = json.loads((part / "run.json").read_text())
    meta["chunks"] = meta["chunks"][:2]
    meta["complete"] = False
    (part / "run.json").write_text(json.dumps(meta))
    with FolderLock(part):
        res = invoke(app, "report", part, "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    assert f"2 of {len(meta['plan'])} planned chunks" in res.output
    line = _one_line_error(invoke(app, "report", part, "--out", tmp_path / "r2"), code=1)
    assert "is not listed in run.json" in line
