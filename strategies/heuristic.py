"""``heuristic``: a rule-of-thumb player, and single-aspect variants of it.

Each decision is a compiled kernel over the batch (strategies/heuristic_kernels.py, the card
play and placements in strategies/heuristic_play.py, the parameter layout in
strategies/heuristic_params.py):

- pick: take trix when the hand suits it or from pick ``trix_by_pick`` on; otherwise the
  legal contract whose estimated cost for this hand beats that contract's average cost by
  most, pulled towards the costly contracts as the ×4 seventh pick nears;
- declare: declare K♥ when the estimated gain of declaring exceeds ``declare_margin``;
- play: duck under the winning card, shed danger cards when void, lead safe low cards;
- place: free one's own next trix cards, block the others', aces first.

The variants override exactly one method each, which shows the plug-in points:
``declare``, ``wants_trix`` and ``choose_contract``.
"""

from __future__ import annotations

import numpy as np
from trixsim.strategies import heuristic_kernels as K
from trixsim.strategies import heuristic_params as P
from trixsim.strategies.heuristic_play import place_kernel, play_kernel

from trixsim.games.trix.observation import Observation
from trixsim.games.trix.types import TRIX
from trixsim.rng import deal
from trixsim.strategy import Param, Strategy

_BASELINE: np.ndarray | None = None


def baseline_costs() -> np.ndarray:
    """Average estimated cost of each contract over 20,000 fixed random hands (cached)."""
    global _BASELINE
    if _BASELINE is None:
        hands = deal(12345, np.arange(5000, dtype=np.int64), np.zeros(5000, dtype=np.int64))
        _BASELINE = K.baseline_costs(np.ascontiguousarray(hands, dtype=np.int64).ravel())
    return _BASELINE


class HeuristicStrategy(Strategy):
    """Rule-of-thumb play for every decision, with every threshold a parameter."""

    name = "heuristic"
    game = "trix"
    description = ("rule-of-thumb player: picks contracts by hand estimates, declares K♥ "
                   "when safe, ducks and sheds danger cards, blocks in trix")
    # The numeric defaults are tuned: `trixsim tune heuristic --budget 8000000 --seed 1 -j 2`
    # (SPSA, 1,000 iterations of 1,000 duplicate deals against the defaults before it);
    # verified on 10,000 fresh deals, -11.4 points per game [-14.6, -8.2], and by
    # `trixsim compare` on 20,000 deals of seed 31, -12.5 [-14.7, -10.2]. The defaults
    # before: declare_margin -20, trix_min_score 2.5, trix_by_pick 2, seventh_weight 1,
    # farcha_shed_tricks 5, lead_guard 15, place weights 2, 1 and 3, over_1000_penalty 150.
    params = {
        "declare_margin": Param(
            -27.89, "declare K♥ when the estimated gain of declaring, 50(1-q) - 100·q·m points "
                 "(q: chance to take it oneself, m: own multiplier), exceeds this",
            bounds=(-100.0, 60.0)),
        "trix_min_score": Param(
            1.1547, "take trix early when the hand's trix score (jacks and cards chained to "
                 "them count for it, stranded far cards against it) reaches this",
            bounds=(0.0, 6.0)),
        "trix_by_pick": Param(
            1, "take trix whenever legal from this pick number on (it is forced at 6)",
            bounds=(1, 6)),
        "seventh_weight": Param(
            0.0, "pull towards costly contracts as the ×4 seventh pick nears: each "
                 "contract's score drops by this × ((pick-1)/5)² × its average cost",
            bounds=(0.0, 3.0)),
        "farcha_shed_tricks": Param(
            6, "in farcha, play the highest card while fewer tricks than this are done "
               "(early tricks cost nothing; only the last counts)",
            bounds=(0, 8)),
        "lead_guard": Param(
            21.506, "penalty (points) for leading a suit in which one holds a queen or K♥ "
                  "that scores in this contract",
            bounds=(0.0, 60.0)),
        "place_own_weight": Param(
            2.32, "trix: value per own card freed (in chain) by placing a card",
            bounds=(0.0, 6.0)),
        "place_other_weight": Param(
            0.2471, "trix: cost of freeing a next card that someone else holds",
            bounds=(0.0, 4.0)),
        "place_ace_bonus": Param(
            2.551, "trix: bonus for placing an ace (it gives another turn)",
            bounds=(0.0, 10.0)),
        "farcha_by_rank": Param(
            True, "in farcha, shed the highest-ranked card (false: the highest card index, "
                  "which takes a low spade for a high card)"),
        "over_1000_penalty": Param(
            126.51, "score penalty (points) for a contract whose expected points would take "
                   "the picker's total over 1000 and end the game against it",
            bounds=(0.0, 400.0)),
    }
    observes = frozenset({"legal", "hand", "pick", "seat", "picker", "contract", "played",
                          "best_card", "trick_n", "trick_no", "declared", "totals"})
    observes_by_decision = {
        "pick": frozenset({"legal", "hand", "pick", "seat", "totals"}),
        "declare": frozenset({"legal", "hand", "played", "best_card", "trick_n", "seat",
                              "picker", "pick"}),
        "play": frozenset({"legal", "hand", "played", "contract", "best_card", "trick_n",
                           "trick_no", "declared"}),
        "place": frozenset({"legal", "hand", "played"}),
    }

    policy = K.heuristic_policy
    modes: dict[int, int] = {}
    """The compiled policy's variant switches (``P.P_*_MODE``), set by the variants."""

    def policy_params(self) -> np.ndarray:
        """The compiled policy's vector: the parameters, the variant's modes, the baseline."""
        p = np.zeros(P.N_POLICY_PARAMS)
        p[:P.N_PARAMS] = self._prm()
        for k, v in self.modes.items():
            p[k] = v
        p[P.P_BASE:P.P_BASE + 7] = baseline_costs()
        return p

    def _prm(self) -> np.ndarray:
        """The parameters as the kernels' float vector."""
        p = np.zeros(P.N_PARAMS)
        p[P.P_DECLARE_MARGIN] = self.declare_margin
        p[P.P_TRIX_MIN_SCORE] = self.trix_min_score
        p[P.P_TRIX_BY_PICK] = self.trix_by_pick
        p[P.P_SEVENTH_WEIGHT] = self.seventh_weight
        p[P.P_FARCHA_SHED_TRICKS] = self.farcha_shed_tricks
        p[P.P_LEAD_GUARD] = self.lead_guard
        p[P.P_PLACE_OWN] = self.place_own_weight
        p[P.P_PLACE_OTHER] = self.place_other_weight
        p[P.P_PLACE_ACE] = self.place_ace_bonus
        p[P.P_FARCHA_BY_RANK] = float(self.farcha_by_rank)
        p[P.P_OVER_1000] = self.over_1000_penalty
        return p

    # -- pick: trix timing, then contract order (two plug-in points)
    def wants_trix(self, obs: Observation) -> np.ndarray:
        """Per game, whether to take trix now (only where trix is legal)."""
        out = np.zeros(len(obs), dtype=np.bool_)
        K.want_trix(obs.legal, obs.hand, obs.pick, self._prm(), out)
        return out

    def choose_contract(self, obs: Observation) -> np.ndarray:
        """Per game, the legal contract to pick when not taking trix (trix only if forced)."""
        out = np.empty(len(obs), dtype=np.int64)
        mine = obs.totals[np.arange(len(obs)), obs.seat]
        K.order_contracts(obs.legal, obs.hand, obs.pick, baseline_costs(), self._prm(),
                          np.ascontiguousarray(mine), out)
        return out

    def pick(self, obs: Observation) -> np.ndarray:
        """Trix when ``wants_trix``, else ``choose_contract``."""
        return np.where(self.wants_trix(obs), TRIX, self.choose_contract(obs))

    def declare(self, obs: Observation) -> np.ndarray:
        """1 where declaring K♥ is estimated to gain more than ``declare_margin``."""
        out = np.empty(len(obs), dtype=np.int64)
        K.declare_kernel(obs.hand, obs.played, obs.best_card, obs.trick_n, obs.seat,
                         obs.picker, obs.pick, self._prm(), out)
        return out

    def play(self, obs: Observation) -> np.ndarray:
        """Duck, shed, or lead per the contract's danger cards."""
        out = np.empty(len(obs), dtype=np.int64)
        play_kernel(obs.legal, obs.hand, obs.played, obs.contract, obs.best_card,
                    obs.trick_n, obs.trick_no, obs.declared, self._prm(), out)
        return out

    def place(self, obs: Observation) -> np.ndarray:
        """The trix card that frees own cards and blocks others."""
        out = np.empty(len(obs), dtype=np.int64)
        place_kernel(obs.legal, obs.hand, obs.played, self._prm(), out)
        return out


class NoDeclareHeuristic(HeuristicStrategy):
    """heuristic that never declares K♥."""

    name = "heuristic-nodeclare"
    description = "heuristic, but never declares the king of hearts"
    policy = K.heuristic_policy  # speaks for the override below
    modes = {P.P_DECLARE_MODE: 1}

    def declare(self, obs: Observation) -> np.ndarray:
        """Always keep quiet."""
        return np.zeros(len(obs), dtype=np.int64)


class DeclareHeuristic(HeuristicStrategy):
    """heuristic that always declares K♥ when allowed."""

    name = "heuristic-declare"
    description = "heuristic, but always declares the king of hearts when allowed"
    policy = K.heuristic_policy  # speaks for the override below
    modes = {P.P_DECLARE_MODE: 2}

    def declare(self, obs: Observation) -> np.ndarray:
        """Always declare."""
        return np.ones(len(obs), dtype=np.int64)


class EarlyTrixHeuristic(HeuristicStrategy):
    """heuristic that takes trix at the first legal opportunity."""

    name = "heuristic-early-trix"
    description = "heuristic, but takes trix whenever it is legal"
    policy = K.heuristic_policy  # speaks for the override below
    modes = {P.P_TRIX_MODE: 1}

    def wants_trix(self, obs: Observation) -> np.ndarray:
        """Trix wherever legal."""
        return (obs.legal >> TRIX) & 1 == 1


class LateTrixHeuristic(HeuristicStrategy):
    """heuristic that takes trix only when forced."""

    name = "heuristic-late-trix"
    description = "heuristic, but takes trix only when it is the only choice"
    policy = K.heuristic_policy  # speaks for the override below
    modes = {P.P_TRIX_MODE: 2}

    def wants_trix(self, obs: Observation) -> np.ndarray:
        """Trix only where it is the only legal contract."""
        return obs.legal == (1 << TRIX)


FIXED_ORDER = P.FIXED_ORDER


class FixedOrderHeuristic(HeuristicStrategy):
    """heuristic that picks contracts in a fixed order instead of by hand estimate."""

    name = "heuristic-fixed-order"
    description = ("heuristic, but picks contracts in the fixed order general, ray, damet, "
                   "dineri, pli, farcha (trix timing unchanged)")
    policy = K.heuristic_policy  # speaks for the override below
    modes = {P.P_ORDER_MODE: 1}

    def choose_contract(self, obs: Observation) -> np.ndarray:
        """The first legal contract of FIXED_ORDER (trix only if forced)."""
        out = np.empty(len(obs), dtype=np.int64)
        K.fixed_order(obs.legal, FIXED_ORDER, out)
        return out
