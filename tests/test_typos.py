"""What a typing newcomer meets: a near-miss strategy name, game counts written as 1e6 or
1_000_000, and the README's word on --batch-size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.runner import RunConfig, plan

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("typo", ["heuristc", "Heuristic", "heuristic-nodeclar"])
def test_an_unknown_strategy_gets_a_did_you_mean(tmp_path: Path, typo: str) -> None:
    res = CliRunner().invoke(cli, ["run", "-n", "10", "-s", typo, "-o", str(tmp_path / "r")])
    assert res.exit_code == 2
    assert "did you mean 'heuristic" in res.output
    assert not (tmp_path / "r").exists()


def test_no_suggestion_for_a_name_like_none() -> None:
    res = CliRunner().invoke(cli, ["run", "-n", "10", "-s", "zzzzzz"])
    assert res.exit_code == 2 and "did you mean" not in res.output


@pytest.mark.parametrize("text", ["1e6", "1_000_000", "1000000", "1.0e6"])
def test_game_counts_as_people_write_them(text: str) -> None:
    from trixsim.commands.options import Count

    assert Count(min=1).convert(text, None, None) == 1_000_000


@pytest.mark.parametrize("args", [
    ["run", "-n", "1e6x"], ["run", "-n", "2.5"], ["compare", "random", "random", "-n", "1e0"],
    ["tournament", "random", "heuristic", "-n", "nan"],
])
def test_bad_game_counts_are_one_line_usage_errors(tmp_path: Path, args: list[str]) -> None:
    res = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "x")])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and not (tmp_path / "x").exists()


def test_run_accepts_1e2_games(tmp_path: Path) -> None:
    out = tmp_path / "r"
    res = CliRunner().invoke(cli, ["run", "-n", "1e2", "--batch-size", "5_0", "-s", "random",
                                   "-j", "1", "-q", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("100 games,")


def test_readme_says_what_batch_size_is() -> None:
    """The default run cuts 10,000 games into 2,000-game chunks on a few workers; the README
    must not say the chunk files hold --batch-size games."""
    cfg = RunConfig(game="trix",
                    games=10_000, seed=0, lineups=("heuristic",), batch_size=10_000, workers=2)
    sizes = {b - a for _, a, b in plan(cfg, 1)}
    assert max(sizes) < cfg.batch_size
    row = next(line for line in README.read_text().splitlines()
               if line.startswith("| `--batch-size"))
    assert re.search(r"at most|up to", row), row
    assert "2,000" in row
