"""Each iteration's check: the model against an opponent on fresh duplicate deals.

Per deal: the model's final total in seat s with the opponent in the other three seats,
minus the opponent's own total in seat s when it holds all four, averaged over s (as
``trixsim compare`` measures A against B); negative is better in Trix.
"""

from __future__ import annotations

import numpy as np

from trixsim.pool import Backend
from trixsim.tune.play import estimate

PIECE = 50
"""Deals per verification job."""


def deal_diffs(model: str, opponent: str, seed: int, start: int, stop: int) -> np.ndarray:
    """Per deal of ``start .. stop-1``: model in seat s minus opponent in seat s, mean
    over s (the deal's number first, for ordering)."""
    from trixsim.games.trix import GAME
    from trixsim.loading import load_strategy
    from trixsim.sim import play_batch

    a, b = load_strategy(model, "trix"), load_strategy(opponent, "trix")
    ids = np.arange(start, stop, dtype=np.int64)
    base = GAME.final_scores(play_batch([b] * 4, seed, ids, game=GAME)).astype(np.float64)
    d = np.zeros(ids.size)
    for s in range(4):
        seats = [b] * 4
        seats[s] = a
        tot = GAME.final_scores(play_batch(seats, seed, ids, game=GAME)).astype(np.float64)
        d += (tot[:, s] - base[:, s]) / 4
    return np.vstack([ids.astype(np.float64), d])


def verify(model: str, opponent: str, seed: int, start: int, deals: int,
           backend: Backend) -> dict[str, float]:
    """Mean, standard error and 95% interval of the per-deal differences."""
    jobs = [(model, opponent, seed, a, min(a + PIECE, start + deals))
            for a in range(start, start + deals, PIECE)]
    got: list[np.ndarray] = []
    backend.map_unordered(deal_diffs, jobs, got.append, specs=[model, opponent])
    allv = np.concatenate(got, axis=1)
    d = allv[1, np.argsort(allv[0])]
    return estimate(d)
