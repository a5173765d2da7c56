"""SPSA's arithmetic for one tuning: bounds, gains, perturbations and the update.

Iteration k draws ``delta`` = ±1 per tuned parameter from a numpy Generator seeded with
(seed, k) and plays ``theta± = centre ± c_k delta`` (the centre is theta moved at most c_k
inside the bounds, so both lie within them and differ by 2 c_k even at a bound). The
measured difference ``diff`` (theta+ minus theta-, points per game) gives the gradient
estimate ``g = diff / (2 c_k delta)`` and the update ``theta -= a_k g`` where lower scores
are better (Trix), ``theta += a_k g`` where higher are (trump7), clipped.

Schedules (fishtest's exponents): ``c_k = c / (k+1)^0.101`` and ``a_k = a / (A+k+1)^0.602``
with A = 10% of the iterations; per parameter c = (hi - lo) / 20 (at least 0.5 for an int
parameter, so that theta+ and theta- play different values). The learning rate ``a`` is set
from the noise: iteration 0 measures the standard error ``sigma`` of one iteration's
difference, and ``a`` is the largest rate at which noise alone (a zero gradient) moves a
parameter by at most ``wander`` x (hi - lo) (one standard deviation) over the whole tuning:
``a = wander (hi - lo) 2 c / (sigma sqrt(S))``, ``S = sum_k ((k+1)^0.101 / (A+k+1)^0.602)^2``.
A real gradient moves the parameter further; a flat one leaves it near where it started.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from trixsim.games import get_game
from trixsim.loading import StrategyLoadError, build, load_strategy, parse_spec
from trixsim.strategy import Strategy
from trixsim.tune.files import TuneError

ALPHA = 0.602
GAMMA = 0.101
WANDER = 0.1
DEALS_PER_ITERATION = 1000
VERIFY_DEALS = 10_000
GAMES_PER_DEAL = 8

Bounds = dict[str, tuple[float, float]]
Values = dict[str, Any]


def _numeric(cls: type[Strategy], name: str) -> bool:
    return cls.params[name].type in (int, float)


def default_bounds(cls: type[Strategy]) -> Bounds:
    """Bounds for every int and float parameter of ``cls``: its ``Param.bounds`` (each strategy
    declares its own: tune knows no strategy's names), else default ± max(1, |default|)."""
    out: Bounds = {}
    for name, p in ((n, p) for n, p in cls.params.items() if _numeric(cls, n)):
        if p.bounds is not None:  # declared with the parameter
            out[name] = (p.bounds[0], p.bounds[1])
        else:
            out[name] = (p.default - max(1, abs(p.default)),
                         p.default + max(1, abs(p.default)))
    return out


def parse_bound(text: str) -> tuple[str, float, float]:
    """``NAME=LO:HI`` as (name, lo, hi); TuneError when malformed."""
    name, eq, rest = text.partition("=")
    lo, colon, hi = rest.partition(":")
    try:
        if not (eq and colon and name.strip()):
            raise ValueError
        return name.strip(), float(lo), float(hi)
    except ValueError:
        raise TuneError(f"--param {text!r} is not NAME=LO:HI (e.g. declare_margin=-100:50)"
                        ) from None


def check_bounds(cls: type[Strategy], params: Bounds | None, who: str) -> Bounds:
    """The parameters to tune with their bounds (all numeric ones by default), checked."""
    params = default_bounds(cls) if params is None else params
    if not params:
        raise TuneError(f"no parameter to tune: strategy {who!r} has no int or float parameter")
    known = ", ".join(n for n in cls.params if _numeric(cls, n)) or "none"
    out: Bounds = {}
    for name, (lo, hi) in params.items():
        if name not in cls.params:
            raise TuneError(f"strategy {who!r} has no parameter {name!r} (numeric "
                            f"parameters: {known})")
        t = cls.params[name].type
        if not _numeric(cls, name):
            raise TuneError(f"parameter {name!r} of {who!r} is {t.__name__}, not int or "
                            f"float: it cannot be tuned (numeric parameters: {known})")
        lo, hi = float(lo), float(hi)
        if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
            raise TuneError(f"bounds of {name!r}: LO must be below HI, got {lo:g}:{hi:g}")
        if t is int and (lo != int(lo) or hi != int(hi)):
            raise TuneError(f"bounds of the int parameter {name!r} must be integers, "
                            f"got {lo:g}:{hi:g}")
        out[name] = (int(lo), int(hi)) if t is int else (lo, hi)
    return out


@dataclass
class Settings:
    """What a tuning was started with (state.json keeps it; a resume must match it)."""

    spec: str
    params: dict[str, list[float]]
    budget: int
    seed: int
    deals: int
    verify_deals: int
    against: str | None
    iterations: int
    wander: float = WANDER
    sigma: float | None = None  # one iteration's standard error; None: measured at k = 0
    game: str = "trix"
    """The game played (tunings from before games had names: Trix)."""


LEGACY_SETTINGS: dict[str, Any] = {"game": "trix"}
"""Settings a state.json from before they existed holds implicitly."""


def plan(spec: str, params: Bounds | None, budget: int, deals: int, seed: int,
         verify_deals: int, against: str | None, wander: float = WANDER,
         sigma: float | None = None, *, game: str) -> Settings:
    """Check a tuning of ``game`` and return its settings (TuneError, StrategyLoadError)."""
    start = load_strategy(spec, game)
    who = parse_spec(spec).target or type(start).name
    bounds = check_bounds(type(start), params, who)
    if params is None:  # default bounds widen to include the starting value
        bounds = {n: (min(lo, getattr(start, n)), max(hi, getattr(start, n)))
                  for n, (lo, hi) in bounds.items()}
    for n, (lo, hi) in bounds.items():
        if not lo <= getattr(start, n) <= hi:
            x = getattr(start, n)
            raise TuneError(f"the starting value {x!r} of {n!r} is outside its bounds "
                            f"{lo:g}:{hi:g}: widen them to include it (--param {n}="
                            f"{min(lo, x):g}:{max(hi, x):g}) or start inside them "
                            f"({who}:{n}={(lo + hi) / 2:g})")
    if deals < 2 or verify_deals < 2:
        raise TuneError("deals per iteration and verification deals must be at least 2")
    if not 0 < wander <= 1:
        raise TuneError(f"--wander must lie in (0, 1], got {wander:g}")
    per = GAMES_PER_DEAL * deals
    if budget < per:
        raise TuneError(f"a budget of {budget:,} games is too small for one iteration "
                        f"({GAMES_PER_DEAL} games x {deals:,} deals = {per:,} games)")
    for n, (lo, hi) in bounds.items():  # the corners must be valid strategies (pimc: worlds)
        for x in (lo, hi):
            try:
                build(type(start), {**{k: getattr(start, k) for k in start.params}, n: x}, who)
            except StrategyLoadError as exc:
                raise TuneError(f"{exc} (give {n!r} other bounds: --param {n}=LO:HI)") from None
    if against is not None:
        load_strategy(against, game)
    return Settings(spec.strip(), {n: list(b) for n, b in bounds.items()}, budget, seed, deals,
                    verify_deals, against, budget // per, wander, sigma, game)


class Tuner:
    """The SPSA arithmetic of one tuning (see the module docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = s = settings
        self.start = load_strategy(s.spec, s.game)
        self.sign = 1.0 if get_game(s.game).higher_is_better else -1.0
        """+1 where higher scores are better: theta moves along the measured gradient."""
        self.cls = type(self.start)
        self.target = parse_spec(s.spec).target or self.cls.name
        self.names = list(s.params)
        self.ints = np.array([self.cls.params[n].type is int for n in self.names])
        self.lo = np.array([s.params[n][0] for n in self.names], dtype=np.float64)
        self.hi = np.array([s.params[n][1] for n in self.names], dtype=np.float64)
        self.c = (self.hi - self.lo) / 20
        self.A = 0.1 * s.iterations
        k = np.arange(s.iterations, dtype=np.float64)
        self.S = float(np.sum(((k + 1) ** GAMMA / (self.A + k + 1) ** ALPHA) ** 2))

    def theta0(self) -> np.ndarray:
        """The starting values (clipped to the bounds)."""
        x = np.array([float(getattr(self.start, n)) for n in self.names])
        return np.clip(x, self.lo, self.hi)

    def c_k(self, k: int) -> np.ndarray:
        """The perturbation sizes of iteration k (at least 0.5 for int parameters)."""
        c = self.c / (k + 1) ** GAMMA
        return np.where(self.ints, np.maximum(c, 0.5), c)

    def a_k(self, k: int, sigma: float) -> np.ndarray:
        """The step gains of iteration k for a per-iteration standard error ``sigma``:
        noise alone moves a parameter by ``wander (hi - lo) u_k / sqrt(S)`` (one standard
        deviation), u_k = (k+1)^0.101 / (A+k+1)^0.602 (so a_k = a / (A+k+1)^0.602)."""
        u = (k + 1) ** GAMMA / (self.A + k + 1) ** ALPHA
        return (self.settings.wander * (self.hi - self.lo) * 2 * self.c_k(k) * u
                / (sigma * math.sqrt(self.S)))

    def values(self, theta: np.ndarray) -> Values:
        """The parameter values a theta plays (ints rounded)."""
        return {n: (math.floor(x + 0.5) if i else float(x))
                for n, x, i in zip(self.names, theta, self.ints, strict=True)}

    def strategy(self, values: Values) -> Strategy:
        """The starting strategy with ``values`` instead."""
        base = {k: getattr(self.start, k) for k in self.cls.params}
        return build(self.cls, {**base, **values}, self.target)

    def perturb(self, k: int, theta: np.ndarray) -> tuple[np.ndarray, Values, Values]:
        """Iteration k's signs and the values theta+ and theta- play."""
        rng = np.random.default_rng([self.settings.seed, k])
        delta = rng.integers(0, 2, size=len(self.names)) * 2 - 1
        ck = self.c_k(k)
        centre = np.clip(theta, self.lo + ck, self.hi - ck)  # theta± stay inside the bounds
        return delta, self.values(centre + ck * delta), self.values(centre - ck * delta)

    def update(self, k: int, theta: np.ndarray, delta: np.ndarray, d: np.ndarray,
               sigma: float | None) -> tuple[np.ndarray, float, dict[str, Any]]:
        """Theta after iteration k measured the per-deal differences ``d``: (new theta,
        sigma, the history row)."""
        diff = float(d.mean())
        se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else 0.0
        if sigma is None:
            sigma = self.settings.sigma or se or 1.0
        ck = self.c_k(k)
        g = diff / (2 * ck * delta)
        new = np.clip(theta + self.sign * self.a_k(k, sigma) * g, self.lo, self.hi)
        row = {"iteration": k, "deals": (k + 1) * self.settings.deals, "diff": diff, "se": se,
               **dict(zip(self.names, new.tolist(), strict=True)),
               **{f"c_{n}": x for n, x in zip(self.names, ck.tolist(), strict=True)}}
        return new, sigma, row

    def columns(self) -> list[str]:
        """history.csv's columns."""
        return ["iteration", "deals", "diff", "se", *self.names, *(f"c_{n}" for n in self.names)]

    def final_values(self, theta: np.ndarray) -> Values:
        """The tuned values as written to best.toml: ints rounded, floats to about 1/10,000
        of their range."""
        out = self.values(theta)
        for n, lo, hi in zip(self.names, self.lo, self.hi, strict=True):
            if isinstance(out[n], float):
                out[n] = round(out[n], max(0, math.ceil(-math.log10((hi - lo) / 1e4))))
        return out

    def all_values(self, values: Values) -> Values:
        """Every parameter of the strategy: the start's, with ``values`` instead."""
        return {**{k: getattr(self.start, k) for k in self.cls.params}, **values}
