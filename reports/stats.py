"""Statistics for strategy comparisons: means with intervals, Wilson intervals and an SPRT.

Everything here is plain numpy on counts and sums, so the same functions serve a
streamed one-million-game report (sums accumulated batch by batch) and a test on five
numbers. Intervals are two-sided 95% normal-approximation intervals unless stated; the
sample sizes in this project (hundreds of deals at least) make the t correction negligible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)  # 1.959964...


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard error and 95% interval over ``n`` independent units."""

    n: int
    mean: float
    se: float

    @property
    def lo(self) -> float:
        """Lower end of the 95% interval."""
        return self.mean - Z95 * self.se

    @property
    def hi(self) -> float:
        """Upper end of the 95% interval."""
        return self.mean + Z95 * self.se

    def excludes_zero(self) -> bool:
        """Whether 0 lies outside the 95% interval."""
        return self.lo > 0 or self.hi < 0

    def text(self, digits: int = 1) -> str:
        """``mean [lo, hi]`` rounded to ``digits``."""
        return f"{self.mean:.{digits}f} [{self.lo:.{digits}f}, {self.hi:.{digits}f}]"


def estimate(x: np.ndarray) -> Estimate:
    """Mean, standard error (sample s.d. / sqrt(n)) of independent values ``x``."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n == 0:
        return Estimate(0, math.nan, math.nan)
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    return Estimate(n, float(x.mean()), sd / math.sqrt(n))


def json_safe(x: object) -> object:
    """``x`` with infinite and NaN floats replaced by None (strict JSON)."""
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [json_safe(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


@dataclass
class Moments:
    """Count, mean and sum of squared deviations of values seen in parts: the same
    ``Estimate`` as of all values at once, without keeping them (parts merged as Chan et
    al. do, which stays accurate where sums of squares would cancel)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: np.ndarray) -> None:
        """Take in the values ``x``."""
        x = np.asarray(x, dtype=np.float64)
        if x.size == 0:
            return
        nb, mb = x.size, float(x.mean())
        m2b = float(((x - mb) ** 2).sum())
        total = self.n + nb
        delta = mb - self.mean
        self.mean += delta * nb / total
        self.m2 += m2b + delta * delta * self.n * nb / total
        self.n = total

    def estimate(self) -> Estimate:
        """As ``estimate`` of every value taken in."""
        if self.n == 0:
            return Estimate(0, math.nan, math.nan)
        sd = math.sqrt(max(self.m2, 0.0) / (self.n - 1)) if self.n > 1 else math.nan
        return Estimate(self.n, self.mean, sd / math.sqrt(self.n))


def ci_text(mean: float, lo: float, hi: float, digits: int = 1, pct: bool = False) -> str:
    """A mean with its interval as a table cell: ``12.3 [10.1, 14.5]`` (``pct``: times 100
    with a % sign); the mean alone when an end is not finite, ``–`` for no mean."""
    if not np.isfinite(mean):
        return "–"
    f = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{f * mean:.{digits}f}{unit}"
    return f"{f * mean:.{digits}f}{unit} [{f * lo:.{digits}f}, {f * hi:.{digits}f}]"


def moments_ci(n: np.ndarray, s: np.ndarray, ss: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and 95% interval ends from counts, sums and sums of squares (any shape).

    Cells with fewer than two values get NaN interval ends (and NaN mean when empty).
    """
    n = np.asarray(n, dtype=np.float64)
    s = np.asarray(s, dtype=np.float64)
    ss = np.asarray(ss, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, s / n, np.nan)
        var = np.where(n > 1, (ss - n * mean * mean) / (n - 1), np.nan)
        se = np.sqrt(np.maximum(var, 0.0) / n)
    return mean, mean - Z95 * se, mean + Z95 * se


def wilson(k: np.ndarray | int, n: np.ndarray | int, z: float = Z95
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rate ``k/n`` and its Wilson score interval (good near 0 and 1, unlike the normal one).

    Returns (rate, lo, hi); cells with ``n == 0`` are NaN.
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, np.nan)
        z2 = z * z
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z / (1 + z2 / n) * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return p, np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def deal_differences(a_finals: np.ndarray, b_finals: np.ndarray) -> np.ndarray:
    """Per-deal mean difference of duplicate games.

    ``a_finals[d, s]`` is A's final total in seat ``s`` on deal ``d`` (B in the other
    seats); ``b_finals[d, s]`` the final total of seat ``s`` in the all-B game of the same
    deal. The four seat differences of a deal share its cards, so the deal (their mean) is
    the independent unit.
    """
    a = np.asarray(a_finals, dtype=np.float64)
    b = np.asarray(b_finals, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError("need two (deals, seats) arrays of the same shape")
    return (a - b).mean(axis=1)


@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test on per-deal differences (normal approximation).

    H0: the mean difference is 0. H1: its magnitude is at least ``effect`` points. The test
    runs two one-sided Wald tests, of mu = 0 against mu = +effect and against
    mu = -effect, each at level ``alpha / 2``, with the variance estimated from the
    differences seen so far. It decides H1 when either log-likelihood ratio reaches
    ln((1 - beta) / (alpha / 2)) and H0 when both fall to ln(beta / (1 - alpha / 2)); so
    the chance of declaring a difference when there is none is about ``alpha`` and of
    missing one of size ``effect`` about ``beta``.
    """

    effect: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    min_deals: int = 30

    @property
    def upper(self) -> float:
        """Log-likelihood ratio at which H1 is accepted."""
        return math.log((1 - self.beta) / (self.alpha / 2))

    @property
    def lower(self) -> float:
        """Log-likelihood ratio at or below which H0 is accepted (by both one-sided tests)."""
        return math.log(self.beta / (1 - self.alpha / 2))

    def llr(self, diffs: np.ndarray) -> tuple[float, float]:
        """Log-likelihood ratios of mu = +effect and mu = -effect against mu = 0."""
        x = np.asarray(diffs, dtype=np.float64)
        n = x.size
        if n < 2:
            return 0.0, 0.0
        total = float(x.sum())
        var = float(x.var(ddof=1))
        d = self.effect
        if var <= 0.0:  # identical differences: the data decide outright
            mean = total / n
            plus = math.inf if mean >= d / 2 else -math.inf
            minus = math.inf if mean <= -d / 2 else -math.inf
            return plus, minus
        return (d * total - n * d * d / 2) / var, (-d * total - n * d * d / 2) / var

    def decide(self, diffs: np.ndarray) -> str | None:
        """``"H0"`` (no difference), ``"H1"`` (a difference of at least ``effect``) or None."""
        if np.asarray(diffs).size < self.min_deals:
            return None
        plus, minus = self.llr(diffs)
        if max(plus, minus) >= self.upper:
            return "H1"
        if plus <= self.lower and minus <= self.lower:
            return "H0"
        return None
