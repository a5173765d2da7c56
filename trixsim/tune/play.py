"""The games a tuning plays: SPSA's duplicate pairs and the final verification, in this
process or spread over worker processes (or any ``concurrent.futures`` executor).

Each job is a pure function of strings and numbers (strategy specs, parameter values, seed,
deal range), so a job gives the same per-deal array wherever it runs; a tuning assembles the
arrays in deal order, so its results do not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor, Future
from functools import lru_cache
from typing import Any

import numpy as np

from trixsim.loading import build, load_strategy, parse_spec
from trixsim.strategy import Strategy

Values = dict[str, Any]
PIECE = 250
"""Deals per job (a worker's share of an iteration or of the verification)."""


@lru_cache(maxsize=16)
def _base(spec: str, game: str) -> Strategy:
    return load_strategy(spec, game)


def strategy(spec: str, values: Values | None, game: str) -> Strategy:
    """``spec`` (a strategy of ``game``) with ``values`` instead of its own (cached per
    process)."""
    base = _base(spec, game)
    if not values:
        return base
    cls = type(base)
    return build(cls, {**{k: getattr(base, k) for k in cls.params}, **values},
                 parse_spec(spec).target or cls.name)


def _scores(seats: list[Strategy], seed: int, ids: np.ndarray, game: str) -> np.ndarray:
    """(deals, 4) final scores of the deals ``ids`` played by ``seats`` in ``game``."""
    from trixsim.games import get_game
    from trixsim.sim import play_batch

    rules = get_game(game)
    return rules.final_scores(play_batch(seats, seed, ids, game=rules)).astype(np.float64)


def pair_diffs(spec: str, plus: Values, minus: Values, against: str | None, seed: int,
               start: int, stop: int, game: str) -> np.ndarray:
    """Per deal of ``start .. stop-1``: the mean over seats s of theta+'s final score in
    seat s minus theta-'s in seat s, both against the opponent (``against``, by default the
    start) in the other three seats: the measure the verification uses."""
    opp = strategy(against if against is not None else spec, None, game)
    p, m = strategy(spec, plus, game), strategy(spec, minus, game)
    ids = np.arange(start, stop, dtype=np.int64)
    d = np.zeros(ids.size)
    for seat in range(4):
        seats_p, seats_m = [opp] * 4, [opp] * 4
        seats_p[seat], seats_m[seat] = p, m
        tp = _scores(seats_p, seed, ids, game)[:, seat]
        tm = _scores(seats_m, seed, ids, game)[:, seat]
        d += (tp - tm) / 4
    return d


def verify_diffs(spec: str, tuned: Values, against: str | None, seed: int, start: int,
                 stop: int, game: str) -> np.ndarray:
    """Per deal: (tuned in seat s, the opponent elsewhere) minus (the opponent in all seats),
    averaged over s; row 0 for the tuned values, row 1 for the start (zeros when the
    opponent is the start)."""
    opp = strategy(against if against is not None else spec, None, game)
    players = [strategy(spec, tuned, game),
               None if against is None else strategy(spec, None, game)]
    ids = np.arange(start, stop, dtype=np.int64)
    out = np.zeros((2, ids.size))
    base = _scores([opp] * 4, seed, ids, game)
    for row, who in enumerate(players):
        if who is None:
            continue
        for seat in range(4):
            seats = [opp] * 4
            seats[seat] = who
            tot = _scores(seats, seed, ids, game)[:, seat]
            out[row] += (tot - base[:, seat]) / 4
    return out


def pieces(start: int, stop: int, size: int = PIECE) -> list[tuple[int, int]]:
    """``start .. stop`` cut into ranges of at most ``size`` deals."""
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def gather(executor: Executor | None, fn: Any, jobs: Sequence[tuple[Any, ...]],
           axis: int = -1) -> np.ndarray:
    """The arrays of ``fn(*job)`` joined in job order (in this process when no executor)."""
    if executor is None:
        return np.concatenate([fn(*job) for job in jobs], axis=axis)
    futures: list[Future] = [executor.submit(fn, *job) for job in jobs]
    try:
        return np.concatenate([f.result() for f in futures], axis=axis)
    finally:
        for f in futures:
            f.cancel()


def estimate(x: np.ndarray) -> dict[str, float]:
    """Mean, standard error and 95% interval of per-deal differences."""
    from trixsim.reports.stats import estimate as est

    e = est(x)
    return {"mean": e.mean, "se": e.se, "lo": e.lo, "hi": e.hi}


def better(gain: dict[str, float], higher_is_better: bool) -> bool:
    """Whether the interval of tuned - start lies on the better side of 0 in the game's
    direction."""
    return gain["lo"] > 0 if higher_is_better else gain["hi"] < 0


def verdict_text(gain: dict[str, float], higher_is_better: bool = False) -> str:
    """What the interval of tuned - start allows one to say (in the game's direction)."""
    if gain["hi"] < 0 or gain["lo"] > 0:
        word = "better" if better(gain, higher_is_better) else "worse"
        return f"the tuned parameters are {word} than the starting ones at the 95% level"
    return ("no significant difference at the 95% level: the tuned parameters are not shown "
            "to be better")
