"""Compiled kernels of trump7's ``pimc`` (strategies/trump7_pimc.py).

``pimc_decide`` hands a decision with more than one legal action to the generic driver
(``trixsim.search.pimc``) with trump7's functions: worlds from
``trixsim.games.trump7.worlds.sample_world``, rollouts to the end of the game by the
heuristic (``strategies/_trump7_kernels.py``) or uniform random play for every seat, and
the seat's final points as its utility (trump7: higher is better), plus ``win_bonus``
when they are the most at the table. Decisions not searched, and forced ones, are the
heuristic's. Randomness comes only from the decision's key, so the compiled policy and
the strategy's methods make the same choices.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trixsim.strategies import _trump7_kernels as heuristic_kernels
from trixsim.strategies._trump7_kernels import decide_row

from trixsim import policykit, rng
from trixsim.choice import count, uniform_action
from trixsim.games.trump7 import cards, policy, rules, state, worlds
from trixsim.games.trump7.policy import policy_key, state_row
from trixsim.games.trump7.rules import legal_one, step_one
from trixsim.games.trump7.state import COL, DONE, PLAY
from trixsim.games.trump7.worlds import sample_world
from trixsim.jitcache import guard, sources
from trixsim.policykit import POLICY_SIG, param_vector
from trixsim.rng import mix64
from trixsim.search import deal as deal_module
from trixsim.search import pimc as driver_module
from trixsim.search.pimc import MAX_ACTIONS, best_action, specialise

guard(__file__, sources(cards, policy, policykit, rng, rules, state, worlds, deal_module,
                        driver_module, heuristic_kernels), tuple(COL.items()), DONE, PLAY)

# Parameter vector layout.
P_WORLDS = 0
P_ROLLOUT = 1  # 0 heuristic, 1 uniform random
P_SEARCH = 2  # bit per phase searched: 1 << PLAY, 1 << BID
P_WIN = 3  # bonus for ending the game with the most points
P_TIES = 4  # 0: ties go to the lowest action id; 1: to the heuristic's choice if tied
P_HEUR = 5  # the heuristic's own vector follows
N_FIXED = P_HEUR

_PHASE, _TURN, _PLY = COL["phase"], COL["turn"], COL["ply"]
_HANDS, _POINTS = COL["hands"], COL["points"]


@njit(cache=True, inline="always")
def _apply(W: np.ndarray, a: int) -> None:
    step_one(W, 0, a)


@njit(cache=True, inline="always")
def _rollout(W: np.ndarray, prm: np.ndarray, key: int) -> None:
    """Play world ``W`` to the end of the game, every seat by the rollout policy; a card
    that is the only legal one is played without asking the policy (every policy plays
    it)."""
    mode = int(prm[P_ROLLOUT])
    hp = prm[P_HEUR:]
    while W[0, _PHASE] != DONE:
        lm = legal_one(W, 0)
        if W[0, _PHASE] == PLAY and lm & (lm - 1) == 0:
            a = count((lm & -lm) - 1)
        elif mode == 0:
            a = decide_row(W[0], lm, W[0, _HANDS + W[0, _TURN]], hp)
        else:
            a = uniform_action(lm, np.int64(mix64(np.uint64(key) + np.uint64(W[0, _PLY]))))
        step_one(W, 0, a)


@njit(cache=True, inline="always")
def _utility(W: np.ndarray, me: int, prm: np.ndarray) -> float:
    """The seat's final points, plus the bonus when no seat has more."""
    mine = W[0, _POINTS + me]
    u = float(mine)
    top = True
    for p in range(4):
        if W[0, _POINTS + p] > mine:
            top = False
    if top:
        u += prm[P_WIN]
    return u


_scores = specialise(__name__, "_scores", sample=sample_world, apply=_apply,
                     rollout=_rollout, utility=_utility, inline=True)
"""The generic driver (``trixsim.search.pimc``) bound to this game's functions."""


@njit(cache=True, nogil=True)
def pimc_decide(s: np.ndarray, lg: int, hand: int, key: int, prm: np.ndarray) -> int:
    """The action trump7's ``pimc`` takes at state row ``s`` (public columns only) for the
    seat to act, holding ``hand``, with legal mask ``lg`` and decision key ``key``."""
    hp = prm[P_HEUR:]
    if count(lg) <= 1 or not (int(prm[P_SEARCH]) >> s[_PHASE]) & 1:
        return decide_row(s, lg, hand, hp)
    score = np.zeros(MAX_ACTIONS)
    _scores(s, s[_TURN], lg, hand, key, int(prm[P_WORLDS]), prm, score, 0.0, 0.0,
            prm[P_ROLLOUT] == 0)  # no pruning; a world drawn again is not played again
    best = best_action(lg, score)
    if prm[P_TIES] == 1:
        h = decide_row(s, lg, hand, hp)
        if score[h] == score[best]:
            return h
    return best


@njit(POLICY_SIG, cache=True, nogil=True)
def pimc_policy(row: int, lg: int, hand: int, subkey: int, params: int,
                n_params: int) -> int:
    """``pimc_decide`` as a compiled policy (reads the live row's public columns only)."""
    s = state_row(row)
    return pimc_decide(s, lg, hand, policy_key(s, subkey), param_vector(params, n_params))


@njit(cache=True, nogil=True)
def pimc_rows(rows: np.ndarray, legal: np.ndarray, hand: np.ndarray, keys: np.ndarray,
              prm: np.ndarray, out: np.ndarray) -> None:
    """``pimc_decide`` for each rebuilt public row (the strategy's methods)."""
    for g in range(rows.shape[0]):
        out[g] = pimc_decide(rows[g], legal[g], hand[g], keys[g], prm)


__all__ = ["N_FIXED", "P_HEUR", "P_ROLLOUT", "P_SEARCH", "P_TIES", "P_WIN", "P_WORLDS",
           "pimc_decide", "pimc_policy", "pimc_rows"]
