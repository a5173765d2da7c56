"""Every comparison names the better strategy in the game's own direction: lower totals
in Trix, more points in trump7."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from trixsim.reports.compare import Comparison
from trixsim.reports.pairing import MATCHED, TOTAL, Paired
from trixsim.reports.stats import Estimate, Moments
from trixsim.reports.tournament import rank
from trixsim.reports.verdicts import summary_rows, verdict

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


# -- verdicts, tournament ranking and tuning take the direction from the game ------------

def _paired(higher: bool, diffs: dict[tuple[str, str], list[float]]) -> Paired:
    """A pairing of strategies whose per-deal A − B final scores are ``diffs``."""
    moments, method, deals = {}, {}, {}
    for (a, b), d in diffs.items():
        m = Moments()
        m.add(np.array(d, dtype=np.float64))
        moments[(a, b, *TOTAL)] = m
        method[(a, b)] = MATCHED
        deals[(a, b)] = np.array(d, dtype=np.float32)
    order = list(dict.fromkeys(s for ab in diffs for s in ab))
    return Paired(order, moments, method, deals, higher)


@pytest.mark.parametrize("higher", [False, True])
def test_verdicts_name_the_better_side_in_either_direction(higher: bool) -> None:
    e = Estimate(50, 3.0, 0.5)  # A scored 3 points more than B per deal
    want = "A" if higher else "B"
    assert verdict(e, "A", "B", higher_is_better=higher).startswith(f"**{want}** by 3.0")
    rows = summary_rows(_paired(higher, {("A", "B"): [2.0, 3.0, 4.0, 3.0]}))
    assert rows[0][-1].startswith(f"**{want}**")


@pytest.mark.parametrize("higher", [False, True])
def test_the_tournament_ranks_in_the_games_direction(higher: bool) -> None:
    # x scores more than y on most deals, y more than z
    rng = np.random.default_rng(1)
    up = list(3 + rng.normal(0, 1, 200))
    p = _paired(higher, {("x", "y"): up, ("y", "z"): up, ("x", "z"): [2 * v for v in up]})
    ranking = rank(p, ["x", "y", "z"], resamples=20)
    order = [ranking.strategies[i] for i in ranking.order()]
    assert order == (["x", "y", "z"] if higher else ["z", "y", "x"])
    wins = ranking.record[(0, 1)]  # x against y: deals x did better on, worse, the same
    assert (wins[0] > wins[1]) == higher
    text = ranking.doc().markdown()
    assert ("higher score" in text) == higher and ("lower score" in text) == (not higher)


@pytest.mark.parametrize(("game", "moves_up"), [("trump7", True), ("trix", False)])
def test_tuning_moves_towards_the_better_side_of_the_game(game: str, moves_up: bool) -> None:
    from trixsim import tune as lib

    settings = lib.plan("heuristic", None, 8 * 10 * 20, 10, 0, 10, None, game=game)
    tuner = lib.Tuner(settings)
    theta = (tuner.lo + tuner.hi) / 2
    delta = np.ones(len(tuner.names), dtype=np.int64)
    # theta+ (every parameter up) scored 5 points more than theta- on every deal
    new, _, _ = tuner.update(0, theta, delta, np.full(10, 5.0), 1.0)
    assert ((new > theta).all() if moves_up else (new < theta).all())
    gain = {"mean": 1.0, "se": 0.1, "lo": 0.8, "hi": 1.2}  # tuned scores more than start
    assert lib.play.better(gain, tuner.sign > 0) == moves_up


def test_report_of_a_trump7_run_names_the_better_strategy(tmp_path: Path) -> None:
    out, rep = tmp_path / "cmp", tmp_path / "rep"
    res = CliRunner().invoke(cli, ["compare", "--game", "trump7", "heuristic", "random", "-n",
                                   "300", "-j", "1", "-q", "--no-plots", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "heuristic is better (higher points)" in res.output
    res = CliRunner().invoke(cli, ["report", str(out), "-o", str(rep)])
    assert res.exit_code == 0, res.output
    text = (rep / "report.md").read_text()
    assert text.startswith("# trump7 strategy report")
    assert "Higher points are better" in text
    assert "| `heuristic` vs `random` | 300 | matched | **heuristic** by" in text
    assert "Contract ordering" not in text  # Trix's aspects only where there are contracts
    # trump7's own aspects (no bidding without the bid)
    assert "## Trump use" in text and "## Lead choices" in text and "## Bidding" not in text
    assert sorted(p.name for p in rep.glob("*.png")) == [
        "final_totals.png", "overall_mean_total.png", "overall_win_loss.png",
        "trump7_leads.png", "trump7_trumps.png", "verdict_leads.png", "verdict_overall.png",
        "verdict_trumps.png"]


def test_a_report_refuses_runs_of_two_games(tmp_path: Path) -> None:
    for game in ("trix", "trump7"):
        res = CliRunner().invoke(cli, ["run", "--game", game, "-n", "8", "-s", "random",
                                       "-j", "1", "-q", "-o", str(tmp_path / game)])
        assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["report", str(tmp_path / "trix"), str(tmp_path / "trump7"),
                                   "-o", str(tmp_path / "rep")])
    assert res.exit_code == 2
    assert "the runs play different games (trix, trump7)" in res.output
    assert not (tmp_path / "rep").exists()
