"""The report's advice is right for the designs people run: lineups of one strategy each get
no verdict and the command that gives one; two runs on one seed get a hint about --seed."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.runner import RunConfig, run


def _report(*args: object) -> object:
    return CliRunner().invoke(cli, ["report", *map(str, args)])


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`-s random -s heuristic --rotate`: two lineups, each one strategy at four seats."""
    out = tmp_path_factory.mktemp("runs") / "single"
    run(RunConfig(game="trix",
                  games=40, seed=0, lineups=("random", "heuristic"), rotate=True, workers=1,
                  batch_size=40), out)
    return out


def test_lineups_of_one_strategy_get_the_command_that_works(single: Path,
                                                            tmp_path: Path) -> None:
    res = _report(single, "-o", tmp_path / "rep")
    assert res.exit_code == 0, res.output
    note = next(line for line in res.output.splitlines() if "No verdict" in line)
    assert "one strategy at all four places" in note
    assert "Play the strategies on one seed" not in (tmp_path / "rep" / "report.md").read_text()
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "are not a comparison" in md
    command = re.search(r"(trixsim run [^(]*?--rotate)", note).group(1)
    assert command == "trixsim run -n 40 -s random -s heuristic,random,random,random --rotate"
    args = shlex.split(command)[1:] + ["-j", "1", "-q", "-o", str(tmp_path / "fixed")]
    assert CliRunner().invoke(cli, args).exit_code == 0
    res = _report(tmp_path / "fixed", "-o", tmp_path / "rep2")
    assert res.exit_code == 0 and "No verdict" not in res.output
    md = (tmp_path / "rep2" / "report.md").read_text()
    assert re.search(r"\| `random` vs `heuristic` \| 40 \| matched \|", md) or \
        re.search(r"\| `heuristic` vs `random` \| 40 \| matched \|", md), md


def test_two_runs_on_one_seed_suggest_another_seed(single: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    run(RunConfig(game="trix",
                  games=20, seed=0, lineups=("random",), workers=1, batch_size=20), other)
    res = _report(single, other, "-o", tmp_path / "rep")
    assert res.exit_code == 2
    assert "hold the same games" in res.output and "--seed 1" in res.output
    assert not (tmp_path / "rep").exists()
