"""Streamed aggregates of one or more run folders, keyed by strategy.

One pass over the games tables learns which strategy sits in which seat of every lineup
and sums the per-game results: final scores (``{score_prefix}_s``) and winners and losers,
as counts, sums and sums of squares and an exact-value histogram of the final scores.
Memory depends on the number of strategies only, never on the number of games. A game's
own aspects (``reports.aspects``) sum what they need themselves.

A strategy is its spec string as recorded in the games table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from trixsim.reports.aspects import aspects_of
from trixsim.reports.tables import RunFolder, RunReadError, batches, decode, game_of_runs

TOTAL_MIN, TOTAL_MAX = -1500, 2600  # histogram range of final totals (clipped)

GAME_COLUMNS = ["lineup", *(f"strategy_{s}" for s in range(4)),
                *(f"winner_{s}" for s in range(4)), *(f"loser_{s}" for s in range(4))]
"""The games table's columns every game has (besides its final scores)."""


def _zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, dtype=np.float64)


def add_counts(target: np.ndarray, index: tuple[np.ndarray, ...],
               values: np.ndarray | None = None) -> None:
    """``target[index] += values`` with repeated indices summed (values default 1)."""
    flat = np.ravel_multi_index(index, target.shape)
    w = None if values is None else np.asarray(values, dtype=np.float64)
    target += np.bincount(flat, weights=w, minlength=target.size).reshape(target.shape)


def add_moments(target: np.ndarray, index: tuple[np.ndarray, ...], x: np.ndarray) -> None:
    """Add counts, sums and sums of squares: ``target`` has a last axis of 3."""
    x = np.asarray(x, dtype=np.float64)
    for k, v in enumerate((None, x, x * x)):
        add_counts(target, (*index, np.full(x.shape, k, dtype=np.int64)), v)


def grow(obj: object, names: Sequence[str], k: int) -> None:
    """Make room for ``k`` strategies in the arrays ``names`` of ``obj`` (first axis)."""
    for name in names:
        a = getattr(obj, name)
        if a.shape[0] < k:
            pad = np.zeros((k - a.shape[0], *a.shape[1:]))
            setattr(obj, name, np.concatenate([a, pad]))


@dataclass
class Aggregates:
    """All sums the report's core needs, indexed by strategy id (``strategies[id]`` is its
    spec)."""

    strategies: list[str] = field(default_factory=list)
    higher_is_better: bool = False
    """The runs' game's score direction."""
    score_word: str = "total"
    """What the game calls a final score (Trix: total, trump7: points)."""
    final_bin: int | None = None
    """The game's bin width of the final-score histogram over its whole range (its aspects'
    ``FINAL_BIN``); None: bins of about 1/80 of the range used."""
    # games: [strategy, seat, moment(n, sum, sum of squares)] of final totals; wins/losses
    final: np.ndarray = field(default_factory=lambda: _zeros(0, 4, 3))
    wins: np.ndarray = field(default_factory=lambda: _zeros(0, 4))
    losses: np.ndarray = field(default_factory=lambda: _zeros(0, 4))
    final_hist: np.ndarray = field(default_factory=lambda: _zeros(0, TOTAL_MAX - TOTAL_MIN + 1))
    games: int = 0

    _ARRAYS = ("final", "wins", "losses", "final_hist")

    def _grow(self, k: int) -> None:
        """Make room for ``k`` strategies."""
        grow(self, self._ARRAYS, k)


def aggregate(runs: Sequence[RunFolder]) -> Aggregates:
    """Stream every run's games table into one ``Aggregates``."""
    game = game_of_runs(runs)
    aspects = aspects_of(game)
    agg = Aggregates(higher_is_better=game.higher_is_better, score_word=game.score_word,
                     final_bin=getattr(aspects, "FINAL_BIN", None))
    index: dict[str, int] = {}
    for run in runs:
        _games(run, agg, index)
    if agg.games == 0:
        raise RunReadError(f"{runs[0].path}: the run holds no games")
    return agg


def lineup_seats(run: RunFolder, b: dict, index: dict[str, int],
                 seats: np.ndarray) -> np.ndarray:
    """The strategy ids ``[game, seat]`` of a games batch (``index``: spec -> id, grown as
    new specs appear), checked against and added to ``seats`` ((lineup, seat) -> id)."""
    lineup = b["lineup"].astype(np.int64)
    ids = np.stack([decode(b[f"strategy_{s}"], index) for s in range(4)], axis=1)
    for s in range(4):
        known = seats[lineup, s]
        if ((known >= 0) & (known != ids[:, s])).any():
            raise RunReadError(f"{run.path}: lineup with two strategies in seat {s}")
        seats[lineup, s] = ids[:, s]
    return ids


def _games(run: RunFolder, agg: Aggregates, index: dict[str, int]) -> None:
    """Sum the games table."""
    seats = np.full((256, 4), -1, dtype=np.int64)
    score = run.score_columns()
    for b in batches(run, "games", [*GAME_COLUMNS, *score]):
        ids = lineup_seats(run, b, index, seats)
        agg.strategies = sorted(index, key=index.__getitem__)
        agg._grow(len(index))
        n = len(ids)
        agg.games += n
        for s in range(4):
            k = ids[:, s]
            seat = np.full(n, s)
            final = b[score[s]].astype(np.float64)
            add_moments(agg.final, (k, seat), final)
            add_counts(agg.wins, (k, seat), b[f"winner_{s}"].astype(np.float64))
            add_counts(agg.losses, (k, seat), b[f"loser_{s}"].astype(np.float64))
            add_counts(agg.final_hist, (k, np.clip(final.astype(np.int64), TOTAL_MIN,
                                                   TOTAL_MAX) - TOTAL_MIN))
