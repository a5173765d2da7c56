"""``trixsim compare``: duplicate deals, intervals over deals, the sequential test, bad input."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner
from trixsim.reports.compare import compare as compare_game
from trixsim.reports.compare import lineups, read_deals
from trixsim.reports.stats import SPRT
from trixsim.reports.tables import open_run

from trixsim.cli import cli
from trixsim.commands import compare as compare_cmd

compare = functools.partial(compare_game, game="trix")


@pytest.fixture(scope="module")
def app() -> click.Group:
    """The CLI with the compare command."""
    if "compare" not in cli.commands:
        compare_cmd.register(cli)
    return cli


def invoke(app: click.Group, *args: object) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_lineups_put_a_in_each_seat_then_b_everywhere() -> None:
    assert lineups("x", "y") == ("x,y,y,y", "y,x,y,y", "y,y,x,y", "y,y,y,x", "y,y,y,y")


def test_heuristic_beats_random(app: click.Group, tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    res = invoke(app, "compare", "heuristic", "random", "--games", 300, "--seed", 4,
                 "--workers", 1, "--out", out, "--no-plots")
    assert res.exit_code == 0, res.output
    assert "heuristic is better" in res.output
    result = json.loads((out / "compare.json").read_text())
    diff = result["diff"]
    assert result["deals"] == 300 and diff["n"] == 300
    assert diff["hi"] < 0  # heuristic scores fewer points: the interval excludes 0
    assert result["rates"]["A"]["win"][0] > result["rates"]["B"]["win"][0]
    assert result["rates"]["A"]["loss"][0] < result["rates"]["B"]["loss"][0]
    assert {c["contract"] for c in result["by_contract"]} == {
        "dineri", "damet", "pli", "farcha", "ray", "general", "trix"}
    assert "A − B mean final total" in (out / "report.md").read_text()
    # the folder is a run folder: five lineups on the same deals
    folder = open_run(out)
    assert folder.lineups == list(lineups("heuristic", "random"))
    deals = read_deals(folder)
    assert deals.deals == 300
    assert np.allclose(deals.diffs().mean(), diff["mean"])
    # an existing folder is not overwritten without --force
    res = invoke(app, "compare", "heuristic", "random", "--games", 10, "--out", out)
    assert res.exit_code == 2 and "already exists" in res.output


def test_strategy_against_itself_contains_zero(tmp_path: Path) -> None:
    result = compare("heuristic", "heuristic:declare_margin=-27.89", 300, 9,
                     tmp_path / "same")  # the default, spelled out: the same games
    assert result.diff.lo <= 0 <= result.diff.hi
    assert result.verdict() == "no significant difference at the 95% level"


def test_practically_equal_strategies_contain_zero(tmp_path: Path) -> None:
    """A parameter nudge changes some games (the difference is not identically 0) but
    not the strength: the interval still contains 0."""
    result = compare("heuristic", "heuristic:lead_guard=14.0", 300, 9, tmp_path / "near")
    assert result.diff.se > 0
    assert result.diff.lo <= 0 <= result.diff.hi


def test_sprt_stops_early_on_a_large_difference(app: click.Group, tmp_path: Path) -> None:
    out = tmp_path / "seq"
    res = invoke(app, "compare", "heuristic", "random", "--games", 2000, "--sprt",
                 "--round", 100, "--workers", 1, "--out", out, "--no-plots")
    assert res.exit_code == 0, res.output
    result = json.loads((out / "compare.json").read_text())
    assert result["sprt"]["decision"] == "H1"
    assert result["deals"] == 100  # one round was enough
    assert result["sprt"]["effect"] == 20.0 and result["sprt"]["alpha"] == 0.05


def test_sprt_rounds_merge_into_one_run_folder(tmp_path: Path) -> None:
    out = tmp_path / "rounds"
    # an effect so small the test cannot decide in 120 deals: three rounds are played
    test = SPRT(effect=0.01, alpha=0.05, beta=0.05)
    result = compare("heuristic", "heuristic-declare", 120, 2, out, sprt=test, round_deals=40)
    assert result.sprt is not None and result.sprt["decision"] == "undecided"
    assert [r["deals"] for r in result.rounds] == [40, 80, 120]
    meta = json.loads((out / "run.json").read_text())
    assert meta["games"] == 120 and meta["complete"]
    assert len(meta["chunks"]) == 15
    assert read_deals(open_run(out)).deals == 120
    assert not list(tmp_path.glob(".rounds.*"))
    # each round reads only its own deals: the rounds together are the whole run
    whole = read_deals(open_run(out))
    parts = [read_deals(open_run(out), games=(lo, lo + 40)) for lo in (0, 40, 80)]
    for field in ("finals", "wins", "losses"):
        joined = np.concatenate([getattr(p, field) for p in parts], axis=1)
        assert np.array_equal(getattr(whole, field), joined)
    assert result.diff.mean == pytest.approx(whole.diffs().mean())


def test_bad_input(app: click.Group, tmp_path: Path) -> None:
    for args in (("heuristic", "no-such-bot"), ("heuristic,random", "random")):
        res = invoke(app, "compare", *args, "--games", 10, "--out", tmp_path / "x")
        assert res.exit_code == 2, res.output
        assert "Traceback" not in res.output
        assert len([ln for ln in res.output.splitlines() if ln.strip()]) == 1
    assert not (tmp_path / "x").exists()


def test_a_against_itself_is_exactly_zero(app: click.Group, tmp_path: Path) -> None:
    """The A/A sanity check: the same strategy on the same deals plays the same games."""
    out = tmp_path / "aa"
    res = invoke(app, "compare", "heuristic", "heuristic", "--games", 30, "--workers", 1,
                 "--out", out, "--no-plots")
    assert res.exit_code == 0, res.output
    diff = json.loads((out / "compare.json").read_text())["diff"]
    assert diff["mean"] == 0 and diff["lo"] <= 0 <= diff["hi"]
    assert "no significant difference" in res.output


def test_nothing_is_written_on_a_usage_error(app: click.Group, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "data.csv").write_text("1,2")
    res = invoke(app, "compare", "heuristic", "random", "--games", 10, "--out", mine,
                 "--force")
    assert res.exit_code == 2 and "not created by trixsim" in res.output
    assert [p.name for p in mine.iterdir()] == ["data.csv"]
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]


STOPPER = '''
import os
from trixsim.strategy import Strategy


class Stopper(Strategy):
    """Random; raises on games 60 and later while the marker file exists."""
    name = "stopper"
    observes = None

    def play(self, obs):
        if os.path.exists(os.environ["TRIXSIM_TEST_MARKER"]) and (obs.game >= 60).any():
            raise RuntimeError("stopped on purpose")
        return super().play(obs)
'''


def test_an_interrupted_sequential_comparison_resumes_to_the_same_result(
        app: click.Group, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "stopper.py"
    bot.write_text(STOPPER)
    marker = tmp_path / "marker"
    marker.write_text("")
    monkeypatch.setenv("TRIXSIM_TEST_MARKER", str(marker))
    args = ("heuristic", f"{bot}:Stopper", "--games", 120, "--sprt", "--effect", 0.01,
            "--round", 40, "--workers", 1, "--no-plots", "--seed", 3)
    out = tmp_path / "cut"
    res = invoke(app, "compare", *args, "--out", out)
    assert res.exit_code == 1 and "stopped on purpose" in res.output
    assert not (out / "compare.json").exists()
    marker.unlink()
    res = invoke(app, "compare", "heuristic", f"{bot}:Stopper", "--resume", out)
    assert res.exit_code == 0, res.output
    whole = tmp_path / "whole"
    assert invoke(app, "compare", *args, "--out", whole).exit_code == 0
    got, want = (json.loads((d / "compare.json").read_text()) for d in (out, whole))
    assert got == want and got["deals"] == 120 and len(got["rounds"]) == 3
    res = invoke(app, "compare", "random", "heuristic", "--resume", out)
    assert res.exit_code == 2 and "compares heuristic with" in res.output


def test_summing_deals_block_by_block_changes_nothing(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A comparison keeps only A − B per deal and running sums, read a block of deals at a
    time: blocks of 7 deals give what one block gives."""
    import trixsim.reports.compare as cmp

    whole = compare("heuristic", "random", 50, 8, tmp_path / "one")
    monkeypatch.setattr(cmp, "BLOCK_DEALS", 7)
    parts = compare("heuristic", "random", 50, 8, tmp_path / "blocks")
    a, b = whole.to_json(), parts.to_json()
    assert a.keys() == b.keys()
    for key in a:
        assert json.dumps(a[key], sort_keys=True) == json.dumps(b[key], sort_keys=True) or \
            np.allclose(np.array(_numbers(a[key]), dtype=float),
                        np.array(_numbers(b[key]), dtype=float), equal_nan=True), key
    assert whole.deals == parts.deals == 50


def _numbers(x: object) -> list[float]:
    """Every number in a JSON-like value, in order."""
    if isinstance(x, dict):
        return [v for k in sorted(x) for v in _numbers(x[k])]
    if isinstance(x, list | tuple):
        return [v for item in x for v in _numbers(item)]
    return [x] if isinstance(x, int | float) and not isinstance(x, bool) else []
