"""Compiled kernels of ``pimc``: perfect-information Monte-Carlo search per decision.

For a decision with more than one legal action, ``pimc_decide`` deals the hidden cards
``worlds`` times consistently with what the seat has seen (``worlds.sample_hands``), and
in every world plays each legal action and then the rest of the contract with the rollout
policy for all four seats. Each action is scored by the seat's standing after the
contract, averaged over the worlds: the other seats' mean points minus its own, and, if
the contract ends the game (a total over 1000, or the 28th contract), a bonus for ending
it lowest and a penalty for ending it highest. The best mean wins; ties go to the lowest
action id, or (``ties`` = heuristic) to the heuristic's choice when it is among the best.
With ``prune`` > 0, actions that clearly trail after the first worlds are played in no
more (see ``trixsim.search.pimc``); a world drawn again is not played again (the heuristic's
rollouts depend on the world alone). Randomness comes only from the decision's key, so
the choice is the same on the compiled and the stepwise path.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trixsim.strategies import heuristic_kernels
from trixsim.strategies.heuristic_kernels import heuristic_decide

from trixsim import rng
from trixsim.games.trix import cards, rules, transitions
from trixsim.games.trix import policy as policy_module
from trixsim.games.trix import worlds as worlds_module
from trixsim.games.trix.cards import bit_count, low_card
from trixsim.games.trix.policy import (
    POLICY_SIG,
    C,
    param_vector,
    policy_key,
    state_row,
    uniform_action,
)
from trixsim.games.trix.rules import legal_one
from trixsim.games.trix.state import COL
from trixsim.games.trix.transitions import step_one
from trixsim.games.trix.types import DECLARE, DONE, PASS, PICK, PLACE, PLAY
from trixsim.games.trix.worlds import apply, sample_world
from trixsim.jitcache import guard, sources
from trixsim.rng import mix64
from trixsim.search import deal as deal_module
from trixsim.search import pimc as driver_module
from trixsim.search.pimc import MAX_ACTIONS, best_action, specialise

guard(__file__, sources(cards, rng, policy_module, rules, transitions, worlds_module,
                        heuristic_kernels, deal_module, driver_module),
      tuple(C.items()), DONE, PASS, PLACE)

# Parameter vector layout.
P_WORLDS = 0
P_ROLLOUT = 1  # 0 heuristic, 1 uniform random
P_SEARCH = 2  # bit per decision id (PICK, DECLARE, PLAY, PLACE) that is searched
P_WIN = 3  # bonus for ending the game with the lowest total
P_LOSE = 4  # penalty for ending it with the highest
P_TIES = 5  # 0: ties go to the lowest action id; 1: to the heuristic's choice if tied
P_PRUNE = 6  # standard errors by which an action must trail to be dropped; 0: never
P_HEUR = 7  # the rollout heuristic's own vector follows
N_FIXED = P_HEUR
PRUNE_FLOOR = 80.0
"""Least standard deviation, in points of utility, that pruning assumes for the difference
between two actions over the worlds (a few equal differences are no certainty: a world
where the game ends can swing 900 points)."""

_DECISION, _SEAT = C["decision"], C["seat"]
_POINTS, _TOTALS, _CONTRACT_NO = C["points"], C["totals"], C["contract_no"]
_TURN, _PLY = C["turn"], C["ply"]
_HANDS = COL["hands"]  # a world is a whole state: every hand in it was sampled


@njit(cache=True, inline="always")
def _rollout(W: np.ndarray, prm: np.ndarray, key: int) -> None:
    """Play world ``W`` to the end of its contract, every seat by the rollout policy.
    Lean: one legal mask per step, the rules' step without a second legality check (the
    policies only return legal actions), and no policy asked when only one action is
    legal (about 38% of the heuristic's steps: every policy plays it)."""
    mode = int(prm[P_ROLLOUT])
    hp = prm[P_HEUR:]
    while W[0, _DECISION] != DONE:
        lm = legal_one(W, 0)
        if W[0, _DECISION] == PLACE and lm == 0:
            a = PASS  # the trix pass the rules take without asking
        elif lm & (lm - 1) == 0:
            a = low_card(lm)
        elif mode == 0:
            a = heuristic_decide(W[0], lm, W[0, _HANDS + W[0, _TURN]], hp)
        else:
            a = uniform_action(lm, np.int64(mix64(np.uint64(key) + np.uint64(W[0, _PLY]))))
        step_one(W, 0, a)


@njit(cache=True, inline="always")
def _utility(W: np.ndarray, me: int, prm: np.ndarray) -> float:
    """The seat's standing after the contract (see the module doc): Trix's lower points
    made higher-is-better for the driver."""
    return standing(W, me, prm[P_WIN], prm[P_LOSE])


@njit(cache=True, inline="always")
def standing(W: np.ndarray, me: int, win: float, lose: float) -> float:
    """Seat ``me``'s standing in world ``W`` after its contract: the other seats' mean
    points minus its own, plus ``win`` if the game is over with its total the lowest and
    minus ``lose`` if the highest (also ``expert``'s utility)."""
    others = 0.0
    for p in range(4):
        if p != me:
            others += W[0, _POINTS + p]
    u = others / 3.0 - W[0, _POINTS + me]
    over = W[0, _CONTRACT_NO] >= 28
    lo = W[0, _TOTALS + me]
    hi = lo
    mine = lo
    for p in range(4):
        t = W[0, _TOTALS + p]
        over |= t > 1000
        lo = min(lo, t)
        hi = max(hi, t)
    if over:
        if mine == lo:
            u += win
        if mine == hi:
            u -= lose
    return u


@njit(cache=True, inline="always")
def _apply(W: np.ndarray, a: int) -> None:
    apply(W, a)


_scores = specialise(__name__, "_scores", sample=sample_world, apply=_apply,
                     rollout=_rollout, utility=_utility, inline=True)
"""The generic driver (``trixsim.search.pimc``) bound to this game's functions."""


@njit(cache=True, nogil=True)
def pimc_decide(s: np.ndarray, lg: int, hand: int, key: int, prm: np.ndarray) -> int:
    """The action ``pimc`` takes at state row ``s`` (public columns only) for the seat to
    act, holding ``hand``, with legal mask ``lg`` and decision key ``key``: the generic
    driver (``trixsim.search.pimc``) over Trix's worlds, rollout and utility."""
    hp = prm[P_HEUR:]
    d = s[_DECISION]
    if bit_count(lg & 0xFFFFFFFF) <= 1 or not (int(prm[P_SEARCH]) >> d) & 1:
        return heuristic_decide(s, lg, hand, hp)
    score = np.zeros(MAX_ACTIONS)
    alive = _scores(s, s[_SEAT], lg, hand, key, int(prm[P_WORLDS]), prm, score,
                    prm[P_PRUNE], PRUNE_FLOOR, prm[P_ROLLOUT] == 0)
    best = best_action(alive, score)
    if prm[P_TIES] == 1:
        h = heuristic_decide(s, lg, hand, hp)
        if (alive >> h) & 1 and score[h] == score[best]:
            return h
    return best


@njit(POLICY_SIG, cache=True, nogil=True)
def pimc_policy(row: int, lg: int, hand: int, subkey: int, params: int,
                n_params: int) -> int:
    """``pimc_decide`` as a compiled policy."""
    s = state_row(row)
    return pimc_decide(s, lg, hand, policy_key(s, subkey), param_vector(params, n_params))


@njit(cache=True, nogil=True)
def pimc_batch(rows: np.ndarray, legal_: np.ndarray, hand: np.ndarray, keys: np.ndarray,
               prm: np.ndarray, out: np.ndarray) -> None:
    """``pimc_decide`` for every game of an observation (the stepwise path)."""
    for i in range(rows.shape[0]):
        out[i] = pimc_decide(rows[i], np.int64(legal_[i]), np.int64(hand[i]),
                             np.int64(keys[i]), prm)


__all__ = ["DECLARE", "N_FIXED", "PICK", "PLACE", "PLAY", "PRUNE_FLOOR", "P_HEUR", "P_LOSE",
           "P_PRUNE", "P_ROLLOUT", "P_SEARCH", "P_TIES", "P_WIN", "P_WORLDS", "pimc_batch",
           "pimc_decide", "pimc_policy", "standing"]
