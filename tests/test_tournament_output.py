"""A tournament shows standings as it goes and deals won/lost/tied per pair, and a clean
sweep on a few deals gets an honest (open) interval, not ``401 [401, 401]``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from trixsim.reports import tournament as lib

from trixsim.cli import cli


def test_a_clean_sweep_has_no_zero_width_interval() -> None:
    wins = np.array([[0.0, 10.0], [0.0, 0.0]])
    rating = lib.bradley_terry(wins)
    # what resampling a clean sweep gives: the same ratings every time
    lo, hi, sweeps = lib._floor(rating, rating.copy(), rating.copy(), {(0, 1): (10, 0, 0)})
    assert sweeps == [(0, 1)]
    assert hi[0] == np.inf and lo[1] == -np.inf
    assert lo[0] < rating[0] - 50 and hi[1] > rating[1] + 50
    # a close pair: the Wilson floor widens a too-narrow interval on both sides
    rating = lib.bradley_terry(np.array([[0.0, 6.0], [4.0, 0.0]]))
    lo, hi, sweeps = lib._floor(rating, rating.copy(), rating.copy(), {(0, 1): (6, 4, 0)})
    assert not sweeps and np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))
    assert np.all(hi - lo > 100)


def test_standings_while_it_runs_and_won_lost_tied(tmp_path: Path) -> None:
    out = tmp_path / "t"
    res = CliRunner().invoke(cli, ["tournament", "heuristic", "random", "heuristic-nodeclare",
                                   "-n", "8", "-j", "1", "--no-plots", "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = res.output
    for k in (1, 2, 3):
        assert f"pair {k}/3 done" in text
    assert text.count("standings so far: 1. heuristic ") == 3
    assert text.index("pair 1/3 done") < text.index("8 deals per pair")
    assert "heuristic vs random: heuristic better on 8 deals, random on 0, same on 0" in text
    data = json.loads((out / "tournament.json").read_text())["ranking"]
    rec = {(r["a"], r["b"]): (r["a_better"], r["b_better"], r["same"]) for r in data["record"]}
    assert all(sum(v) == 8 for v in rec.values()) and len(rec) == 3
    assert ["heuristic", "random"] in data["sweeps"]
    top = re.search(r"1\. heuristic: rating (-?\d+) \[(-?\d+), (∞)\]", text)
    assert top and int(top.group(2)) < int(top.group(1)), text
    assert "note: heuristic did better than random on every one of 8 deals" in text
    md = (out / "report.md").read_text()
    assert "| A | B | deals | A better | B better | same |" in md
