"""``compare --sprt`` shows the log-likelihood ratio against its bounds as it goes and ends
with one line naming the better strategy, as fishtest does."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from trixsim.reports.stats import SPRT

from trixsim.cli import cli
from trixsim.commands.compare import sprt_status


def test_sprt_progress_and_result_lines(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["compare", "heuristic", "random", "-n", "400", "--sprt",
                                   "--round", "40", "--no-plots", "-j", "1", "-q",
                                   "-o", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    status = [ln for ln in lines if re.match(r"[\d,]+ deals: A - B = ", ln)]
    assert status, res.output
    test = SPRT()
    for ln in status:
        assert "LLR A better" in ln and "A worse" in ln
        assert f"bounds ({test.lower:.2f}, {test.upper:.2f})" in ln
        assert len(ln) <= 120, ln
    assert status[-1].endswith(": H1")
    assert lines[-2].startswith("SPRT result: heuristic is better than random: H1 accepted "
                                "after "), lines[-2]
    llr = float(re.search(r"LLR ([\d.]+) >= ", lines[-2]).group(1))
    assert llr >= test.upper


def test_status_line_before_a_decision() -> None:
    d = np.array([-3.0, 1.0, -2.0, 0.5] * 10)
    line = sprt_status(SPRT(effect=20.0), 40, d, None)
    assert line.startswith("40 deals: A - B = -0.9 (s.e. ")
    assert line.endswith(": continue")
