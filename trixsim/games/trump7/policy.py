"""Compiled per-game trump7 policies: how a seat decides inside compiled code.

The same calling convention as Trix's (``trixsim.games.trix.policy``): a numba function
with ``POLICY_SIG``, ``(row, legal, hand, subkey, params, n_params) -> action``, that may
read the public columns of its game's state row (``state_row(row)``, columns at
``trixsim.games.trump7.state.COL``; not ``hands`` or ``stock``) and answers the decision
in ``s[COL["phase"]]``: a card in PLAY, a bid 0-13 in BID. ``uniform_policy`` is the
random player; the whole-game loop draws it inline when a seat is ``builtin``.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from trixsim import rng
from trixsim.games.trix import policy as trix_policy
from trixsim.games.trix.policy import POLICY_SIG, _int64_ptr, param_vector
from trixsim.games.trump7 import cards
from trixsim.games.trump7.cards import uniform_action
from trixsim.games.trump7.state import COL, FIELDS, WIDTH
from trixsim.jitcache import guard, sources
from trixsim.rng import STREAM_STRATEGY, hash4

guard(__file__, sources(rng, cards, trix_policy), FIELDS)

_GAME, _PLY = COL["game_id"], COL["ply"]


@njit(cache=True, inline="always")
def state_row(row: int) -> np.ndarray:
    """The trump7 state row at address ``row`` (a view, valid during the call)."""
    return carray(_int64_ptr(row), (WIDTH,))


@njit(cache=True, inline="always")
def decision_key(game: int, ply: int, subkey: int) -> int:
    """The random key of a game's decision at ``ply`` (``Observation.key``): every trump7
    action is public, so the ply is too."""
    return np.int64(hash4(subkey, STREAM_STRATEGY, game, ply))


@njit(cache=True, inline="always")
def policy_key(s: np.ndarray, subkey: int) -> int:
    """A policy's random key for this decision (``Observation.key``, as int64)."""
    return decision_key(s[_GAME], s[_PLY], subkey)


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
    return cards.count((legal & -legal) - 1)


__all__ = ["POLICY_SIG", "lowest_policy", "param_vector", "policy_key", "state_row",
           "uniform_policy"]
