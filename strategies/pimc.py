"""``pimc``: perfect-information Monte-Carlo search over sampled hidden hands.

At every decision with more than one legal action (card play, trix placement, the K♥
declaration, the contract choice; ``search`` chooses which), it deals the cards it cannot
see ``worlds`` times, consistently with everything it has seen (cards played, the suits
each seat has shown out of, the cards a seat's trix passes show it lacks, a declared K♥
still with its declarer), plays each legal action in every world and the rest of the
contract with a fast rollout policy for all four seats, and takes the action with the
best mean standing after the contract: the others' mean points minus its own, with a bonus
for ending the game lowest and a penalty for ending it highest (a move that pushes its own
total over 1000 is a disaster, pushing the leader over is not). Ties go to the lowest
action id. From the eighth world on, an action that trails the best by more than
``prune`` standard errors (of the per-world differences, with a floor) is played in no
further world, and the search ends when one action is left; ``prune=0`` plays every action
in every world. All of it runs in compiled code (``strategies/_pimc_kernels.py``) on both
paths, with the same choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from trixsim.strategies.heuristic import HeuristicStrategy

from trixsim.games.trix.observation import Observation
from trixsim.games.trix.types import DECISION_NAMES
from trixsim.search.settings import search_bits
from trixsim.strategy import Param, Strategy, overrides_below

_DECISIONS = {name: i for i, name in enumerate(DECISION_NAMES[:4])}


class PimcStrategy(Strategy):
    """Monte-Carlo search over sampled worlds, rolled out with the heuristic."""

    name = "pimc"
    game = "trix"
    description = ("Monte-Carlo search: samples the hidden hands, plays each legal action "
                   "to the end of the contract in every world, keeps the best on average")
    params = {
        "worlds": Param(24, "sampled deals of the hidden cards per decision", limit=(1, 256),
                        bounds=(1, 48)),
        "rollout": Param("heuristic", "policy for every seat after the action: heuristic "
                                      "or random"),
        "search": Param("pick+declare+play+place",
                        "decisions searched, joined by + (the others are the heuristic's)"),
        "win_bonus": Param(300.0, "value of ending the game with the lowest total",
                        bounds=(0.0, 600.0)),
        "lose_penalty": Param(600.0, "cost of ending the game with the highest total",
                        bounds=(0.0, 1200.0)),
        "ties": Param("lowest", "equal scores go to the lowest action id (lowest) or to the "
                                "heuristic's choice when it is among them (heuristic); never "
                                "to chance"),
        "prune": Param(2.0, "after 8 worlds and at each half as many more, drop the actions "
                            "that trail the best by more than this many standard errors "
                            "(0: play every action in every world)", bounds=(0.0, 4.0)),
    }
    observes = None  # the whole public state row, for the compiled kernel
    policy = None  # the search kernel, imported (and on a first run compiled) on first use

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        self._search_bits = search_bits(self, _DECISIONS)
        if not self.prune >= 0:
            raise ValueError(f"parameter 'prune' of strategy 'pimc' must be at least 0, "
                             f"got {self.prune}")

    @property
    def chunk_games(self) -> int | None:
        """A run's chunks of at most 240,000 / ``worlds`` games (10,000 at the default 24
        worlds, about 2 minutes of one core with four pimc seats; 1,200 at 200 worlds), so
        an interrupted run loses minutes of search, not the better part of an hour."""
        return max(100, 240_000 // self.worlds)

    def policy_params(self) -> np.ndarray:
        """Worlds, rollout, searched decisions, bonus, penalty, tie rule, pruning, then the
        heuristic's vector."""
        head = np.array([self.worlds, 0 if self.rollout == "heuristic" else 1,
                         self._search_bits, self.win_bonus, self.lose_penalty,
                         1 if self.ties == "heuristic" else 0, self.prune], dtype=float)
        return np.concatenate([head, HeuristicStrategy().policy_params()])

    def compiled(self) -> tuple[Any, np.ndarray] | None:
        """The search kernel as a compiled policy, unless a subclass overrides a method.
        Loaded here rather than at import, so that runs without a pimc seat never compile
        it (strategy discovery imports every bundled module)."""
        if overrides_below(type(self), PimcStrategy):
            return None
        from trixsim.strategies import _pimc_kernels as K

        return K.pimc_policy, np.ascontiguousarray(self.policy_params(), dtype=np.float64)

    def _decide(self, obs: Observation) -> np.ndarray:
        from trixsim.strategies import _pimc_kernels as K

        out = np.empty(len(obs), dtype=np.int64)
        K.pimc_batch(obs.state_rows(), obs.legal, obs.hand, obs.key,
                     self.policy_params(), out)
        return out

    def pick(self, obs: Observation) -> np.ndarray:
        """Search the contract choice."""
        return self._decide(obs)

    def declare(self, obs: Observation) -> np.ndarray:
        """Search the K♥ declaration."""
        return self._decide(obs)

    def play(self, obs: Observation) -> np.ndarray:
        """Search the card to play."""
        return self._decide(obs)

    def place(self, obs: Observation) -> np.ndarray:
        """Search the trix card to place."""
        return self._decide(obs)
