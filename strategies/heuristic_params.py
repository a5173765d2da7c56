"""The ``heuristic`` strategy's parameter vector layout, and the card constants and suit
masks its kernels share (``heuristic_kernels``: contracts, the declaration and the
compiled policy; ``heuristic_play``: card play and trix placements)."""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim.games.trix.types import DAMET, DINERI, FARCHA, GENERAL, PLI, RAY

# Parameter vector layout (see HeuristicStrategy.params for the meaning of each).
P_DECLARE_MARGIN = 0
P_TRIX_MIN_SCORE = 1
P_TRIX_BY_PICK = 2
P_SEVENTH_WEIGHT = 3
P_FARCHA_SHED_TRICKS = 4
P_LEAD_GUARD = 5
P_PLACE_OWN = 6
P_PLACE_OTHER = 7
P_PLACE_ACE = 8
P_FARCHA_BY_RANK = 9
P_OVER_1000 = 10
N_PARAMS = 11
# The compiled policy's vector adds the variants' modes and the baseline costs.
P_TRIX_MODE = 11  # 0 by hand and deadline, 1 whenever legal, 2 only when forced
P_ORDER_MODE = 12  # 0 by hand estimate, 1 the fixed order FIXED_ORDER
P_DECLARE_MODE = 13  # 0 by estimated gain, 1 never, 2 always
P_BASE = 14  # 7 baseline costs (HeuristicStrategy.baseline_costs)
N_POLICY_PARAMS = P_BASE + 7

FULL = 0xFFFFFFFF
KH = 5  # king of hearts (suit 0, rank K)
H10 = 6
HA = 7
FIXED_ORDER = np.array([GENERAL, RAY, DAMET, DINERI, PLI, FARCHA], dtype=np.int64)
# Rough chance that a card wins a trick, by how many unseen cards of its suit beat it.
WIN_BY_ABOVE = np.array([0.85, 0.55, 0.35, 0.2, 0.12, 0.06, 0.03, 0.01])


@njit(cache=True)
def suit_cards(s: int) -> int:
    """The cards of suit s."""
    return 0xFF << (8 * s)


@njit(cache=True)
def cards_above(c: int) -> int:
    """Cards of c's suit above c."""
    return suit_cards(c >> 3) & ~((np.int64(2) << c) - 1)


@njit(cache=True)
def cards_below(c: int) -> int:
    """Cards of c's suit below c."""
    return suit_cards(c >> 3) & ((np.int64(1) << c) - 1)
