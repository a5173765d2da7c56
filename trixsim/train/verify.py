"""Each iteration's check: the model against an opponent on fresh duplicate deals.

Per deal: the model's final score in seat s with the opponent in the other three seats,
minus the opponent's own score in seat s when it holds all four, averaged over s (as
``trixsim compare`` measures A against B); which sign is better is the game's direction
(negative in Trix, where the lowest total wins).
"""

from __future__ import annotations

import numpy as np

from trixsim.pool import Backend
from trixsim.tune.play import estimate

PIECE = 50
"""Deals per verification job."""


def deal_diffs(game: str, model: str, opponent: str, seed: int, start: int,
               stop: int) -> np.ndarray:
    """Per deal of ``start .. stop-1`` of ``game``: model in seat s minus opponent in seat
    s, mean over s (the deal's number first, for ordering)."""
    from trixsim.games import get_game
    from trixsim.loading import load_strategy
    from trixsim.sim import play_batch

    rules = get_game(game)
    a, b = load_strategy(model, game), load_strategy(opponent, game)
    ids = np.arange(start, stop, dtype=np.int64)
    base = rules.final_scores(play_batch([b] * 4, seed, ids, game=rules)).astype(np.float64)
    d = np.zeros(ids.size)
    for s in range(4):
        seats = [b] * 4
        seats[s] = a
        tot = rules.final_scores(play_batch(seats, seed, ids, game=rules)).astype(np.float64)
        d += (tot[:, s] - base[:, s]) / 4
    return np.vstack([ids.astype(np.float64), d])


def verify(game: str, model: str, opponent: str, seed: int, start: int, deals: int,
           backend: Backend) -> dict[str, float]:
    """Mean, standard error and 95% interval of the per-deal differences."""
    jobs = [(game, model, opponent, seed, a, min(a + PIECE, start + deals))
            for a in range(start, start + deals, PIECE)]
    got: list[np.ndarray] = []
    backend.map_unordered(deal_diffs, jobs, got.append, specs=[model, opponent])
    allv = np.concatenate(got, axis=1)
    d = allv[1, np.argsort(allv[0])]
    return estimate(d)
