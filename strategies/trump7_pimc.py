"""trump7's ``pimc``: perfect-information Monte-Carlo search over sampled worlds.

At every card play (and, in trump7-bid, every bid) with more than one legal action, it
deals the cards it cannot see ``worlds`` times consistently with what it has seen (its
hand, the cards played, the suits each seat failed to follow and what it drew since, the
turned card with the seat that drew it, the stock's unseen order; see
``trixsim.games.trump7.worlds``), plays each legal action in every world and the rest of
the game with a rollout policy for all four seats, and takes the action with the most
points on average. The search is the generic driver Trix's ``pimc`` uses
(``trixsim.search.pimc``); only the worlds, the rollout and the utility are trump7's
(``strategies/_trump7_pimc_kernels.py``).

The bid is searched like a card: each bid 0-13 is tried in the same worlds, the others
bid and everyone plays by the rollout policy, and the bid's score is what it would have
earned. With the heuristic's play (which ignores the bids) that is the bid with the best
expected score over the distribution of tricks the rollouts win.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from trixsim.strategies.trump7_heuristic import Trump7Heuristic

from trixsim.games.trump7.observation import PUBLIC, Observation
from trixsim.games.trump7.state import BID, PLAY, WIDTH
from trixsim.search.settings import search_bits
from trixsim.strategy import Param, Strategy, overrides_below

_SEARCH = {"play": PLAY, "bid": BID}


class Trump7Pimc(Strategy):
    """Monte-Carlo search over sampled worlds, rolled out with the heuristic."""

    name = "pimc"
    game = "trump7"
    description = ("Monte-Carlo search: samples the hidden hands and the stock's order, "
                   "plays each legal card to the end of the game in every world, keeps "
                   "the best on average")
    params = {
        "worlds": Param(24, "sampled deals of the hidden cards per decision", limit=(1, 256),
                        bounds=(1, 48)),
        "rollout": Param("heuristic", "policy for every seat after the action: heuristic "
                                      "or random"),
        "search": Param("play+bid", "decisions searched, joined by + (the others are the "
                                    "heuristic's); bid counts only in trump7-bid"),
        "win_bonus": Param(0.0, "value added to a world where the seat ends with the most "
                                "points",
                        bounds=(0.0, 10.0)),
        "ties": Param("lowest", "equal scores go to the lowest action id (lowest) or to the "
                                "heuristic's choice when it is among them (heuristic)"),
    }
    observes = frozenset({"legal", "hand", "key", *PUBLIC})
    policy = None  # the search kernel, imported (and on a first run compiled) on first use

    def __init__(self, **values: object) -> None:
        super().__init__(**values)
        self._search_bits = search_bits(self, _SEARCH)

    def heuristic_params(self) -> np.ndarray:
        """The rollout heuristic's vector (its defaults)."""
        return Trump7Heuristic().policy_params()

    def policy_params(self) -> np.ndarray:
        """Worlds, rollout, searched decisions, win bonus, tie rule, then the heuristic's
        vector."""
        head = np.array([self.worlds, 0 if self.rollout == "heuristic" else 1,
                         self._search_bits, self.win_bonus,
                         1 if self.ties == "heuristic" else 0], dtype=float)
        return np.concatenate([head, self.heuristic_params()])

    def compiled(self) -> tuple[Any, np.ndarray] | None:
        """The search kernel as a compiled policy, unless a subclass overrides a method.
        Loaded here rather than at import, so that runs without a pimc seat never compile
        it (strategy discovery imports every bundled module)."""
        if overrides_below(type(self), Trump7Pimc, Trump7BidPimc):
            return None
        from trixsim.strategies import _trump7_pimc_kernels as K

        return K.pimc_policy, np.ascontiguousarray(self.policy_params(), dtype=np.float64)

    def _decide(self, obs: Observation) -> np.ndarray:
        """Each game's action from its public state rebuilt from the observation."""
        from trixsim.strategies import _trump7_pimc_kernels as K

        n = len(obs)
        rows = np.zeros((n, WIDTH), dtype=np.int64)
        for name, (col, width, _) in PUBLIC.items():
            rows[:, col:col + width] = np.asarray(getattr(obs, name)).reshape(n, width)
        out = np.empty(n, dtype=np.int64)
        K.pimc_rows(rows, np.ascontiguousarray(obs.legal, dtype=np.int64),
                    np.ascontiguousarray(obs.hand, dtype=np.int64),
                    np.ascontiguousarray(obs.key).view(np.int64),
                    np.ascontiguousarray(self.policy_params(), dtype=np.float64), out)
        return out

    def play(self, obs: Observation) -> np.ndarray:
        """Search the card to play."""
        return self._decide(obs)


class Trump7BidPimc(Trump7Pimc):
    """The same search in trump7-bid, the bid searched too."""

    name = "pimc"
    game = "trump7-bid"
    description = ("Monte-Carlo search: tries every bid and every legal card in sampled "
                   "worlds, played out by the heuristic, keeps the best on average")
    policy = None

    def heuristic_params(self) -> np.ndarray:
        """The rollout heuristic's vector (trump7-bid's defaults, the bid's included)."""
        from trixsim.strategies.trump7_heuristic import Trump7BidHeuristic

        return Trump7BidHeuristic().policy_params()

    def bid(self, obs: Observation) -> np.ndarray:
        """Search the bid."""
        return self._decide(obs)


__all__ = ["Trump7BidPimc", "Trump7Pimc"]
