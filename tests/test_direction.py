"""Every comparison names the better strategy in the game's own direction: lower totals
in Trix, more points in trump7."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from trixsim.reports.compare import Comparison
from trixsim.reports.stats import Estimate

from trixsim.cli import cli
from trixsim.games import get_game


def _comparison(game: str, mean: float) -> Comparison:
    g = get_game(game)
    e = Estimate(100, mean, 1.0)
    return Comparison("A", "B", 100, e, [e] * 4, Estimate(100, 0, 0.01),
                      Estimate(100, 0, 0.01), {}, [], higher_is_better=g.higher_is_better,
                      score_word=g.score_word)


@pytest.mark.parametrize(("game", "mean", "better", "words"), [
    ("trix", -5.0, "A", "lower totals"), ("trix", 5.0, "B", "lower totals"),
    ("trump7", 5.0, "A", "higher points"), ("trump7", -5.0, "B", "higher points"),
])
def test_the_better_side_follows_the_games_direction(game: str, mean: float, better: str,
                                                     words: str) -> None:
    c = _comparison(game, mean)
    assert c.better() == better
    assert c.verdict() == f"{better} is better ({words}) at the 95% level"
    assert _comparison(game, 0.5).better() is None


def test_a_trump7_comparison_runs_in_its_direction(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    res = CliRunner().invoke(cli, ["compare", "--game", "trump7", "random", "random", "-n",
                                   "40", "-j", "1", "-q", "--no-plots", "-o", str(out)])
    assert res.exit_code == 0, res.output
    saved = json.loads((out / "compare.json").read_text())
    assert saved["higher_is_better"] is True and saved["by_contract"] == []
    assert json.loads((out / "run.json").read_text())["game"] == "trump7"
