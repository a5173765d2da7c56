"""Compiled kernels of ``expert``: Monte-Carlo search rolled out with the learned policy
(``_expert_kernels``), which is also its model of how the other seats play.

It is ``pimc``'s search with one part swapped: the generic driver
(``trixsim.search.pimc``) deals the hidden cards ``worlds`` times (pimc's worlds, which
keep to the voids and the trix passes seen) and plays each legal action and the rest of
the contract in every world, dropping the actions that trail by more than ``prune``
standard errors as pimc does, and the standing after the contract is ``pimc``'s
(``_pimc_kernels.standing``: the other seats' mean points minus its own, a bonus for
ending the game lowest, a penalty for ending it highest). Its own is the rollout: the
learned policy for all four seats. Ties go to the learned policy's own choice.
Randomness comes only from the decision's key.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trixsim.strategies import _expert_kernels as E
from trixsim.strategies import _pimc_kernels as pimc_kernels
from trixsim.strategies._pimc_kernels import PRUNE_FLOOR, standing

from trixsim import rng
from trixsim.games.trix import cards
from trixsim.games.trix import policy as policy_module
from trixsim.games.trix import worlds as worlds_module
from trixsim.games.trix.cards import bit_count
from trixsim.games.trix.policy import POLICY_SIG, C, param_vector, policy_key, state_row
from trixsim.games.trix.state import COL
from trixsim.games.trix.types import DONE
from trixsim.games.trix.worlds import apply, forced, legal, sample_world
from trixsim.jitcache import guard, sources
from trixsim.search import pimc as driver_module
from trixsim.search.pimc import MAX_ACTIONS, best_action, specialise

guard(__file__, sources(cards, rng, policy_module, worlds_module, E, pimc_kernels,
                        driver_module), tuple(C.items()), DONE)

P_WORLDS, P_WIN, P_LOSE, P_PRUNE = 0, 1, 2, 3
P_MODEL = 4
"""The parameter vector: worlds, win bonus, lose penalty, pruning, then the learned
policy's vector (its models, then the heuristic's parameters)."""
_DECISION, _SEAT, _TURN = C["decision"], C["seat"], C["turn"]
_HANDS = COL["hands"]  # a world is a whole state: every hand in it was sampled


@njit(cache=True, inline="always")
def _rollout(W: np.ndarray, prm: np.ndarray, wkey: int) -> None:
    """Play world ``W`` to the end of its contract, every seat by the learned policy."""
    wp = prm[P_MODEL:]
    while W[0, _DECISION] != DONE:
        a = forced(W)
        if a < 0:
            a = E.best_action(W[0], W[0, _HANDS + W[0, _TURN]], legal(W), wp)
        apply(W, a)


@njit(cache=True, inline="always")
def _utility(W: np.ndarray, me: int, prm: np.ndarray) -> float:
    """``pimc``'s standing after the contract, with this strategy's bonus and penalty."""
    return standing(W, me, prm[P_WIN], prm[P_LOSE])


_scores = specialise(__name__, "_scores", sample=sample_world, apply=pimc_kernels._apply,
                     rollout=_rollout, utility=_utility, inline=True)
"""The generic driver (``trixsim.search.pimc``) bound to expert's functions."""


@njit(cache=True, nogil=True)
def search_decide(s: np.ndarray, lg: int, hand: int, key: int, prm: np.ndarray) -> int:
    """The action at state row ``s`` (public columns only) for the seat to act."""
    own = E.best_action(s, hand, lg, prm[P_MODEL:])
    if bit_count(lg & 0xFFFFFFFF) <= 1:
        return own
    score = np.zeros(MAX_ACTIONS)
    # its rollouts are deterministic, so a world drawn again is not played again
    alive = _scores(s, s[_SEAT], lg, hand, key, int(prm[P_WORLDS]), prm, score,
                    prm[P_PRUNE], PRUNE_FLOOR, True)
    best = best_action(alive, score)
    if (alive >> own) & 1 and score[own] == score[best]:
        return own  # ties: the policy's own choice
    return best


@njit(POLICY_SIG, cache=True, nogil=True)
def search_policy(row: int, lg: int, hand: int, subkey: int, params: int,
                  n_params: int) -> int:
    """``search_decide`` as a compiled policy."""
    s = state_row(row)
    return search_decide(s, lg, hand, policy_key(s, subkey), param_vector(params, n_params))


@njit(cache=True, nogil=True)
def search_batch(rows: np.ndarray, legal_: np.ndarray, hand: np.ndarray, keys: np.ndarray,
                 prm: np.ndarray, out: np.ndarray) -> None:
    """``search_decide`` for every game of an observation (the stepwise path)."""
    for i in range(rows.shape[0]):
        out[i] = search_decide(rows[i], np.int64(legal_[i]), np.int64(hand[i]),
                               np.int64(keys[i]), prm)
