"""Self-play data for imitation of Trix's ``expert``: every decision of some deals,
labelled by the teacher, and the candidates' features the fit reads.

A job plays deals ``start .. stop-1`` of a seed with the same strategy in all four seats:
the teacher itself in the first iteration, the current model afterwards (the states the
learner reaches, labelled by the teacher: imitation with the learner's own mistakes in the
data). At every decision the teacher is asked what it would play; its answer is the label,
and the seat's public state row, hand and legal mask are kept. Every random choice is keyed
by (seed, deal, decision), so a job's data depend only on its arguments: the same data in
whatever order, on whatever worker. ``features`` turns the decisions into every legal
candidate's features (``_expert_kernels``, compiled), as the ``expert`` scores them.
"""

from __future__ import annotations

import numpy as np
from trixsim.strategies import _expert_kernels as K

from trixsim.games.trix import GAME
from trixsim.games.trix.observation import Observation
from trixsim.loading import load_strategy
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.train.fit import Candidates, Decisions

KEYS = ("rows", "hand", "legal", "action", "game")
"""The decisions' arrays: ``rows`` (n, WIDTH) public state rows, ``hand``, ``legal``,
``action`` (the teacher's) and ``game`` (the deal), one entry per decision."""


class _Labeller(Strategy):
    """Plays ``actor`` and records, for every decision, the teacher's answer."""

    name = "labeller"
    game = "trix"
    observes = None
    policy = None

    def __init__(self, teacher: Strategy, actor: Strategy | None) -> None:
        self.teacher = teacher
        self.actor = actor
        self.kept: list[tuple[np.ndarray, ...]] = []

    def _ask(self, method: str, obs: Observation) -> np.ndarray:
        label = np.asarray(getattr(self.teacher, method)(obs), dtype=np.int64)
        self.kept.append((obs.state_rows(), np.asarray(obs.hand, dtype=np.int64),
                          np.asarray(obs.legal, dtype=np.int64), label,
                          np.asarray(obs.game, dtype=np.int64)))
        if self.actor is None:
            return label
        return np.asarray(getattr(self.actor, method)(obs), dtype=np.int64)

    def pick(self, obs: Observation) -> np.ndarray:
        return self._ask("pick", obs)

    def declare(self, obs: Observation) -> np.ndarray:
        return self._ask("declare", obs)

    def play(self, obs: Observation) -> np.ndarray:
        return self._ask("play", obs)

    def place(self, obs: Observation) -> np.ndarray:
        return self._ask("place", obs)


def collect(teacher: str, actor: str | None, seed: int, start: int, stop: int) -> Decisions:
    """The labelled decisions of deals ``start .. stop-1`` (sorted by deal, then in the
    order they were taken). ``actor``: the spec that plays (None: the teacher)."""
    lab = _Labeller(load_strategy(teacher, GAME.name),
                    None if actor is None else load_strategy(actor, GAME.name))
    play_batch([lab] * 4, seed, np.arange(start, stop, dtype=np.int64), game=GAME,
               path="stepwise")
    if not lab.kept:
        raise ValueError("no decisions were played")
    parts = [np.concatenate(col) for col in zip(*lab.kept, strict=True)]
    order = np.argsort(parts[4], kind="stable")
    return {k: np.ascontiguousarray(p[order]) for k, p in zip(KEYS, parts, strict=True)}


def features(d: Decisions) -> Candidates:
    """The candidates of every decision with their features (compiled)."""
    n = K.count_candidates(d["legal"], d["rows"][:, K._DECISION].copy())
    X = np.zeros((n, K.N_FEATURES), dtype=np.float64)
    group = np.zeros(n, dtype=np.int64)
    chosen = np.zeros(n, dtype=np.bool_)
    model = np.zeros(len(d["legal"]), dtype=np.int64)
    from trixsim.strategies.expert import heuristic_params

    K.fill_features(d["rows"], d["hand"], d["legal"], d["action"], heuristic_params(), X,
                    group, chosen, model)
    return {"X": X, "group": group, "chosen": chosen, "model": model}
