"""``expert-search``: Monte-Carlo search with the learned ``expert`` policy as the rollout
policy and the model of the other seats (a prototype, see ``_search_kernels`` beside this
module; not bundled: load it by import path)::

    trixsim compare \
        trixsim.strategies.expert_training.search:ExpertSearchStrategy@DIR/model.npz pimc

searches with the weights of a ``trixsim train`` folder (without ``@``: the bundled ones).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from trixsim.strategies.expert import ExpertStrategy

from trixsim.games.trix.observation import Observation
from trixsim.strategy import Param


class ExpertSearchStrategy(ExpertStrategy):
    """Search over sampled worlds, rolled out with the learned policy."""

    name = "expert-search"
    description = ("Monte-Carlo search like pimc, rolled out with the learned expert policy "
                   "for every seat (prototype)")
    params = {
        "worlds": Param(24, "sampled deals of the hidden cards per decision", limit=(1, 256)),
        "win_bonus": Param(300.0, "value of ending the game with the lowest total"),
        "lose_penalty": Param(600.0, "cost of ending the game with the highest total"),
    }
    policy = None  # the search kernel, imported on first use

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        if self.worlds < 1:
            raise ValueError(f"parameter 'worlds' of strategy 'expert-search' must be at "
                             f"least 1, got {self.worlds}")

    def policy_params(self) -> np.ndarray:
        """Worlds, bonus, penalty, then the learned policy's vector."""
        head = np.array([self.worlds, self.win_bonus, self.lose_penalty], dtype=float)
        return np.concatenate([head, super().policy_params()])

    def compiled(self) -> tuple[Any, np.ndarray] | None:
        """The search kernel as a compiled policy (imported, and compiled, on first use)."""
        for cls in type(self).__mro__:
            if cls is ExpertSearchStrategy:
                break
            if any(callable(v) and k != "__init__" for k, v in cls.__dict__.items()):
                return None
        from trixsim.strategies.expert_training import _search_kernels as K

        return K.search_policy, np.ascontiguousarray(self.policy_params(), dtype=np.float64)

    def _answer(self, obs: Observation) -> np.ndarray:
        from trixsim.strategies.expert_training import _search_kernels as K

        out = np.empty(len(obs), dtype=np.int64)
        K.search_batch(obs.state_rows(), np.ascontiguousarray(obs.legal, dtype=np.int64),
                       np.ascontiguousarray(obs.hand, dtype=np.int64),
                       np.ascontiguousarray(obs.key), self.policy_params(), out)
        return out
