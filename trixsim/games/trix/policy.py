"""Compiled per-game policies: how a strategy decides from inside compiled code.

A policy is a numba function with the signature ``POLICY_SIG`` (six int64 in, one out)::

    @njit(POLICY_SIG, cache=True)
    def my_policy(row, legal, hand, subkey, params, n_params):
        s = state_row(row)                 # the game's state row, int64[::1]
        p = param_vector(params, n_params)  # the strategy's float64 parameters
        ...                                # return one legal action (a contract, 0/1, a card)

It decides for the seat to act in one game. It may read the public columns of ``s`` at
``C[name]`` (every field of ``Observation`` that comes from the state: ``s[C["played"]]``,
``s[C["totals"] + seat]``, ``s[C["decision"]]``, ``s[C["seat"]]``, ...), and gets its own
part as arguments: ``legal`` (legal-action mask), ``hand``, and ``subkey`` for
``policy_key(s, subkey)``, the decision's random key (the same uint64 as
``Observation.key``, as int64). ``pick_number(s)`` and ``hand_size(s, seat)`` give the
pick number and the cards a seat holds. It must not read the hands in ``s``: at a real
table those are the other players' cards (``trixsim.testing.check_strategy`` checks that
a policy's answers do not depend on them). ``params`` is the strategy's own vector
(``Strategy.policy_params()``).

The row and the parameters arrive as addresses rather than arrays: a call through a
function pointer with array arguments costs several times more (reference counting) than
the decision itself, and ``state_row`` / ``param_vector`` view them without a copy. Both
are valid only during the call. The whole-game loop (``trixsim.games.trix.fast``) and
search rollouts call policies through a function pointer, so one compiled loop serves
every lineup. A strategy offers one by setting ``policy`` (and ``policy_params``); see
``trixsim.strategy``. Forced trix passes are never asked.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import carray, njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from trixsim import policykit, rng
from trixsim.choice import uniform_action
from trixsim.games.trix import cards
from trixsim.games.trix.cards import bit_count
from trixsim.games.trix.state import COL, FIELDS, WIDTH
from trixsim.games.trix.types import DECLARE
from trixsim.jitcache import guard, sources
from trixsim.policykit import POLICY_SIG, counter_key, param_vector
from trixsim.policykit import int64_ptr as _int64_ptr
from trixsim.rng import STREAM_STRATEGY

DECLARE_TAG = 1 << 32
"""Added to ``ply`` in the key of the K♥ holder's declaration question, so that it and
the card the holder plays next (same ``ply``: keeping quiet is not counted) get two keys."""

guard(__file__, sources(cards, rng, policykit), FIELDS, STREAM_STRATEGY, DECLARE, DECLARE_TAG)

# numba calls function pointers "first-class functions" and flags them experimental; the
# loop relies only on calling them, which is stable
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


C: dict[str, int] = {name: off for name, off in COL.items() if name != "hands"}
C.update(seat=COL["turn"], decision=COL["phase"], game=COL["game_id"])
"""Public columns of a state row, by Observation field name."""

_HANDS = COL["hands"]
_PLY = COL["ply"]
_PHASE = COL["phase"]
_GAME = COL["game_id"]
_CONTRACT_NO = COL["contract_no"]
_PLAYED_BY = COL["played_by"]


@njit(cache=True, inline="always")
def state_row(row: int) -> np.ndarray:
    """The state row at address ``row`` as an int64 array (a view, valid during the call)."""
    return carray(_int64_ptr(row), (WIDTH,))


@njit(cache=True, inline="always")
def key_counter(ply: int, decision: int) -> int:
    """The decision's coordinate in the strategies' random stream: the public ``ply``,
    tagged on the declaration question. Both are public to the seat deciding, and neither
    tells another seat anything (docs/rules.md §12)."""
    return ply + DECLARE_TAG if decision == DECLARE else ply


@njit(cache=True, inline="always")
def decision_key(game: int, ply: int, decision: int, subkey: int) -> int:
    """The random key of a game's ``decision`` at public ``ply`` (``Observation.key``)."""
    return counter_key(game, key_counter(ply, decision), subkey)


@njit(cache=True, inline="always")
def policy_key(s: np.ndarray, subkey: int) -> int:
    """A policy's random key for this decision (``Observation.key``, as int64)."""
    return decision_key(s[_GAME], s[_PLY], s[_PHASE], subkey)


@njit(cache=True, inline="always")
def pick_number(s: np.ndarray) -> int:
    """The picker's own pick number, 1..7."""
    return s[_CONTRACT_NO] // 4 + 1


@njit(cache=True, inline="always")
def hand_size(s: np.ndarray, seat: int) -> int:
    """Cards ``seat`` still holds (8 less those it played: public)."""
    return 8 - bit_count(s[_PLAYED_BY + seat])


@njit(POLICY_SIG, cache=True)
def uniform_policy(row: int, legal: int, hand: int, subkey: int, params: int,
                   n_params: int) -> int:
    """Uniform random among the legal actions (the base strategy's policy; the compiled
    loop draws it inline, without calling it)."""
    return uniform_action(legal, policy_key(state_row(row), subkey))


__all__ = ["C", "DECLARE_TAG", "POLICY_SIG", "decision_key", "hand_size", "key_counter",
           "param_vector", "pick_number", "policy_key", "state_row", "uniform_action",
           "uniform_policy"]
