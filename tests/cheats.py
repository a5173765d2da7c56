"""Strategies that cheat on purpose, for the tests that must catch them."""

from __future__ import annotations

from numba import njit

from trixsim.games.trix.policy import POLICY_SIG, C, policy_key, state_row, uniform_action
from trixsim.games.trix.state import COL
from trixsim.strategy import Strategy

_SEAT = C["seat"]
_HANDS = COL["hands"]  # a policy must never read these columns: this one does


@njit(POLICY_SIG)  # not cached: numba would not notice a change of what it inlines
def _peeking(row: int, legal: int, hand: int, subkey: int, params: int, n: int) -> int:
    s = state_row(row)
    peek = s[_HANDS + (s[_SEAT] + 1) % 4]  # the next seat's hidden hand
    if legal & peek:
        return uniform_action(legal & peek, policy_key(s, subkey))
    return uniform_action(legal, policy_key(s, subkey))


class Peeker(Strategy):
    """Random in its methods, but its compiled policy reads the next seat's hand."""

    name = "peeker"
    policy = _peeking
