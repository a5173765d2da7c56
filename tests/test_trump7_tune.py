"""Tuning trump7's heuristic: its parameters declare their bounds and tune keeps to them."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from trixsim import tune as lib
from trixsim.loading import find_class
from trixsim.strategy import Param, Strategy

DECLARED = {
    "trump7": {"trump_threshold": (0.0, 8.0), "overtrump_risk": (0.0, 3.0),
               "honour_guard": (0, 3), "lead_trumps": (1, 8), "lead_boss": (0.0, 1.0)},
}
DECLARED["trump7-bid"] = {**DECLARED["trump7"], "bid_trump": (0.0, 1.5),
                          "bid_ace": (0.0, 1.5), "bid_king": (0.0, 1.0),
                          "bid_scale": (0.5, 3.0), "bid_shade": (0.0, 4.0)}


@pytest.mark.parametrize("game", ["trump7", "trump7-bid"])
def test_the_heuristic_declares_bounds_for_every_numeric_parameter(game: str) -> None:
    cls = find_class("heuristic", game)
    bounds = lib.default_bounds(cls)
    assert bounds == DECLARED[game]
    for name, (lo, hi) in bounds.items():
        p = cls.params[name]
        assert lo <= p.default <= hi, name
        assert p.bounds == (lo, hi)
        if p.type is int:
            assert isinstance(lo, int) and isinstance(hi, int), name
    # before the bounds were declared, default ± max(1, |default|) let it go negative
    assert bounds["overtrump_risk"][0] >= 0


def test_declared_bounds_come_before_the_tables_and_the_fallback() -> None:
    class Toy(Strategy):
        name = "heuristic"  # the name of Trix's heuristic: its table must not apply
        params = {"declare_margin": Param(-20.0, "declared", bounds=(-5.0, 5.0)),
                  "other": Param(2.0, "not declared")}

    assert lib.default_bounds(Toy) == {"declare_margin": (-5.0, 5.0), "other": (0.0, 4.0)}


def test_a_short_tuning_stays_inside_the_bounds(tmp_path: Path) -> None:
    """Starting on the lower bounds (no over-trump risk, trump whatever the trick), every
    iterate and the tuned values stay within the declared bounds."""
    out = tmp_path / "t"
    start = "heuristic:overtrump_risk=0.0,trump_threshold=0.0,honour_guard=0"
    result = lib.tune(start, None, 8 * 20 * 12, out, deals_per_iteration=20,
                      verify_deals=100, plots=False, game="trump7")
    bounds = DECLARED["trump7"]
    with open(out / "history.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 12
    for row in rows:
        for name, (lo, hi) in bounds.items():
            assert lo <= float(row[name]) <= hi, (name, row[name])
    for name, value in result.verdict["tuned"].items():
        lo, hi = bounds[name]
        assert lo <= value <= hi
