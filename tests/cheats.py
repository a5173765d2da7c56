"""Strategies that cheat on purpose, for the tests that must catch them: Trix's and
trump7's, each reading cards its seat cannot see."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from trixsim.choice import choose_uniform, count, nth_bit, uniform_action
from trixsim.games.trix.policy import POLICY_SIG, C, policy_key, state_row
from trixsim.games.trix.policy import uniform_action as trix_uniform_action
from trixsim.games.trix.state import COL
from trixsim.games.trump7 import policy as trump7_policy
from trixsim.games.trump7.state import COL as COL7
from trixsim.strategy import Strategy

_SEAT = C["seat"]
_HANDS = COL["hands"]  # a policy must never read these columns: this one does


@njit(POLICY_SIG)  # not cached: numba would not notice a change of what it inlines
def _peeking(row: int, legal: int, hand: int, subkey: int, params: int, n: int) -> int:
    s = state_row(row)
    peek = s[_HANDS + (s[_SEAT] + 1) % 4]  # the next seat's hidden hand
    if legal & peek:
        return trix_uniform_action(legal & peek, policy_key(s, subkey))
    return trix_uniform_action(legal, policy_key(s, subkey))


class Peeker(Strategy):
    """Random in its methods, but its compiled policy reads the next seat's hand."""

    name = "peeker"
    policy = _peeking


# ---------------------------------------------------------------- trump7

_TURN7, _HANDS7, _TRUMP7 = COL7["turn"], COL7["hands"], COL7["trump"]
_STOCK7, _STOCK_N7 = COL7["stock"], COL7["stock_n"]
_HEARTS7 = ((1 << 13) - 1) << 26  # suits ♣ ♦ ♥ ♠, 13 cards each


@njit(POLICY_SIG)
def _peeking7(row: int, legal: int, hand: int, subkey: int, params: int, n: int) -> int:
    s = trump7_policy.state_row(row)
    peek = s[_HANDS7 + (s[_TURN7] + 1) % 4]  # the next seat's hidden hand
    if peek & _HEARTS7:
        return nth_bit(legal, 0)
    return uniform_action(legal, trump7_policy.policy_key(s, subkey))


class Trump7Peeker(Strategy):
    """trump7: random in its methods, but its compiled policy plays its lowest action
    whenever the next seat holds a heart."""

    name = "peeker7"
    game = "trump7"
    policy = _peeking7


@njit(POLICY_SIG)
def _stock_peeking7(row: int, legal: int, hand: int, subkey: int, params: int,
                    n: int) -> int:
    s = trump7_policy.state_row(row)
    k = s[_STOCK_N7]
    if k < 24 and s[_STOCK7 + k] // 13 == s[_TRUMP7]:  # the next card drawn is a trump
        return nth_bit(legal, count(legal) - 1)
    return uniform_action(legal, trump7_policy.policy_key(s, subkey))


class Trump7StockPeeker(Strategy):
    """trump7: random in its methods, but its compiled policy plays its highest action
    whenever the next card of the stock is a trump (the stock's order is hidden)."""

    name = "stock-peeker7"
    game = "trump7"
    policy = _stock_peeking7


class FrameWalker(Strategy):
    """Any game whose state has ``hands`` and a ``play`` decision: a methods-only bot that
    walks up the interpreter's frames to the game state and plays by a hash of the next
    seat's hand, which it cannot see."""

    name = "frame-walker"
    observes = frozenset({"legal", "seat", "key"})
    policy = None

    def play(self, obs: Any) -> np.ndarray:
        """Hashes the next seat's hand into a choice among the legal actions."""
        frame = sys._getframe(1)
        while frame is not None:
            st, idx = frame.f_locals.get("state"), frame.f_locals.get("idx")
            if hasattr(st, "hands") and idx is not None:
                nxt = st.hands[np.asarray(idx), (np.asarray(obs.seat) + 1) % 4]
                out = np.empty(len(obs), dtype=np.int64)
                for i, (legal, h) in enumerate(zip(obs.legal, nxt, strict=True)):
                    acts = [a for a in range(64) if (int(legal) >> a) & 1]
                    out[i] = acts[(int(h) * 2654435761 >> 13) % len(acts)]
                return out
            frame = frame.f_back
        return choose_uniform(obs.legal, obs.key)


class Trump7FrameWalker(FrameWalker):
    """``FrameWalker`` tagged for trump7."""

    name = "frame-walker7"
    game = "trump7"
