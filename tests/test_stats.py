"""Statistics of reports/stats.py against hand-computed values and simulated data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from trixsim.reports.stats import SPRT, Z95, deal_differences, estimate, moments_ci, wilson


def test_estimate_matches_hand_computation() -> None:
    e = estimate(np.array([1.0, 2.0, 3.0, 4.0]))
    # sample variance = (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3; s.e. = sqrt(5/3 / 4)
    assert e.n == 4
    assert e.mean == 2.5
    assert e.se == pytest.approx(math.sqrt(5 / 12))
    assert e.lo == pytest.approx(2.5 - 1.959964 * 0.6454972, abs=1e-5)
    assert e.hi == pytest.approx(3.7651, abs=1e-4)
    assert e.excludes_zero()
    assert not estimate(np.array([-1.0, 0.0, 2.0])).excludes_zero()
    assert Z95 == pytest.approx(1.959964, abs=1e-6)


def test_moments_ci_equals_estimate_from_values() -> None:
    x = np.array([3.0, -1.0, 4.0, 1.0, -5.0, 9.0])
    mean, lo, hi = moments_ci(x.size, x.sum(), (x * x).sum())
    e = estimate(x)
    assert mean == pytest.approx(e.mean)
    assert lo == pytest.approx(e.lo)
    assert hi == pytest.approx(e.hi)


def test_moments_ci_handles_empty_and_single_cells() -> None:
    mean, lo, hi = moments_ci(np.array([0, 1]), np.array([0.0, 7.0]), np.array([0.0, 49.0]))
    assert math.isnan(mean[0]) and mean[1] == 7.0
    assert math.isnan(lo[1]) and math.isnan(hi[1])


def test_wilson_known_values() -> None:
    # 8 successes in 10: the Wilson 95% interval is [0.4902, 0.9433]
    p, lo, hi = wilson(8, 10)
    assert p == pytest.approx(0.8)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    # 0 in 10: [0, 0.2775]; 10 in 10: [0.7225, 1]
    assert wilson(0, 10)[1] == pytest.approx(0.0, abs=1e-12)
    assert wilson(0, 10)[2] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10)[1] == pytest.approx(0.7225, abs=1e-4)
    assert wilson(10, 10)[2] == pytest.approx(1.0)
    # vectorised, and NaN where nothing was observed
    p, lo, hi = wilson(np.array([1, 0]), np.array([2, 0]))
    assert p[0] == 0.5 and math.isnan(p[1])


def test_deal_differences_average_the_seats() -> None:
    a = np.array([[10, 20, 30, 40], [0, 0, 0, 0]])
    b = np.array([[0, 0, 0, 0], [4, 4, 4, 8]])
    assert deal_differences(a, b).tolist() == [25.0, -5.0]
    with pytest.raises(ValueError):
        deal_differences(a, b[:, :3])


def test_sprt_bounds() -> None:
    t = SPRT(effect=20, alpha=0.05, beta=0.05)
    assert t.upper == pytest.approx(math.log(0.95 / 0.025))
    assert t.lower == pytest.approx(math.log(0.05 / 0.975))


def test_sprt_decisions_on_synthetic_data() -> None:
    rng = np.random.default_rng(7)
    t = SPRT(effect=20, alpha=0.05, beta=0.05)
    assert t.decide(rng.normal(0, 100, 2000)) == "H0"
    assert t.decide(rng.normal(40, 100, 2000)) == "H1"
    assert t.decide(rng.normal(-40, 100, 2000)) == "H1"
    assert t.decide(rng.normal(40, 100, 5)) is None  # fewer deals than min_deals
    assert t.decide(np.zeros(100)) == "H0"  # a strategy against itself
    assert t.decide(np.full(100, -30.0)) == "H1"
    # the log-likelihood ratio of +effect rises with a positive mean, the other falls
    plus, minus = t.llr(rng.normal(10, 100, 1000))
    assert plus > minus


def test_sprt_error_rates_are_near_alpha_and_beta() -> None:
    """Sequential runs in rounds of 25 deals: wrong decisions stay rare on both sides."""
    rng = np.random.default_rng(11)
    t = SPRT(effect=20, alpha=0.05, beta=0.05)

    def run(mu: float) -> str | None:
        x = np.empty(0)
        while x.size < 4000:
            x = np.concatenate([x, rng.normal(mu, 120, 25)])
            decision = t.decide(x)
            if decision is not None:
                return decision
        return None

    null = [run(0.0) for _ in range(150)]
    alt = [run(20.0) for _ in range(150)]
    assert null.count("H1") / len(null) < 0.12
    assert alt.count("H0") / len(alt) < 0.12
    assert null.count("H0") > 120 and alt.count("H1") > 120
