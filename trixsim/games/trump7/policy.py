"""Compiled per-game trump7 policies: how a seat decides inside compiled code.

The calling convention of every game (``trixsim.policykit``): a numba function
with ``POLICY_SIG``, ``(row, legal, hand, subkey, params, n_params) -> action``, that may
read the public columns of its game's state row (``state_row(row)``, columns at
``trixsim.games.trump7.state.COL``; not ``hands`` or ``stock``) and answers the decision
in ``s[COL["phase"]]``: a card in PLAY, a bid 0-13 in BID. ``uniform_policy`` is the
random player; the whole-game loop draws it inline when a seat is ``builtin``.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from trixsim import policykit, rng
from trixsim.choice import count, uniform_action
from trixsim.games.trump7 import cards
from trixsim.games.trump7.state import COL, FIELDS, WIDTH
from trixsim.jitcache import guard, sources
from trixsim.policykit import POLICY_SIG, counter_key, int64_ptr, param_vector

guard(__file__, sources(rng, cards, policykit), FIELDS)

_GAME, _PLY = COL["game_id"], COL["ply"]


@njit(cache=True, inline="always")
def state_row(row: int) -> np.ndarray:
    """The trump7 state row at address ``row`` (a view, valid during the call)."""
    return carray(int64_ptr(row), (WIDTH,))


@njit(cache=True, inline="always")
def decision_key(game: int, ply: int, subkey: int) -> int:
    """The random key of a game's decision at ``ply`` (``Observation.key``): every trump7
    action is public, so the ply is too."""
    return counter_key(game, ply, subkey)


@njit(cache=True, inline="always")
def policy_key(s: np.ndarray, subkey: int) -> int:
    """A policy's random key for this decision (``Observation.key``, as int64)."""
    return counter_key(s[_GAME], s[_PLY], subkey)


@njit(POLICY_SIG, cache=True)
def uniform_policy(row: int, legal: int, hand: int, subkey: int, params: int,
                   n_params: int) -> int:
    """Uniform random among the legal actions (bids or cards)."""
    return uniform_action(legal, policy_key(state_row(row), subkey))


@njit(POLICY_SIG, cache=True)
def lowest_policy(row: int, legal: int, hand: int, subkey: int, params: int,
                  n_params: int) -> int:
    """The lowest legal action (bid 0; the lowest card id): a plain deterministic
    player, for tests of the compiled loop."""
    return count((legal & -legal) - 1)


__all__ = ["POLICY_SIG", "lowest_policy", "param_vector", "policy_key", "state_row",
           "uniform_policy"]
