"""``scripts/bench.py --search`` times each spec's own strategy (it once timed pimc's
kernel with any spec's parameters, so ``--search expert`` measured pimc)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from trixsim.strategy import Strategy

BENCH = Path(__file__).resolve().parents[1] / "scripts" / "bench.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_under_test", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Probe(Strategy):
    """Plays the lowest legal action and counts the decisions it was asked."""

    name = "probe"
    game = "trix"

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def _low(self, obs) -> np.ndarray:
        self.asked += len(obs)
        m = np.asarray(obs.legal, dtype=np.int64)
        return np.array([(int(x) & -int(x)).bit_length() - 1 for x in m], dtype=np.int64)

    pick = declare = play = place = _low


def test_search_times_the_named_strategy(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    probe = Probe()
    real = bench.load_seats
    monkeypatch.setattr(bench, "load_seats",
                        lambda spec, game: [probe] * 4 if spec == "probe" else real(spec, game))
    bench.search(runs=2, seed=3, specs=["heuristic", "probe"], games=2)
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split()[0] for line in lines] == ["heuristic", "probe"]
    n = int(re.search(r"\[([\d,]+) decisions", lines[1]).group(1).replace(",", ""))
    assert n > 50
    # the warm-up's 20, every decision in each of the two rounds, then each one alone
    assert probe.asked == 20 + 2 * n + n
    assert re.search(r"one decision: median [\d.]+ ms, 99th percentile [\d.]+ ms, worst "
                     r"[\d.]+ ms", lines[1])
    assert "x heuristic by CPU time" in lines[1]
