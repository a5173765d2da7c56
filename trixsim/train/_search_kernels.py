"""Compiled kernels of ``expert-search``: Monte-Carlo search rolled out with the learned
policy (a prototype of search with the ``expert`` model as rollout policy and as the model
of the other seats).

For a decision with more than one legal action it deals the hidden cards ``worlds`` times
consistently with what the seat has seen (``worlds.sample_hands``; in trix a deal that
gives a seat a card its passes showed it lacks is drawn again, up to ``RESAMPLE`` times),
plays each legal action in every world and the rest of the contract with the learned
policy for all four seats, and keeps the action with the best mean standing after the
contract (the other seats' mean points minus its own, a bonus for ending the game lowest
and a penalty for ending it highest), as ``pimc`` scores it. Ties go to the learned
policy's own choice. Randomness comes only from the decision's key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.games.trix import cards
from trixsim.games.trix import policy as policy_module
from trixsim.games.trix import worlds as worlds_module
from trixsim.games.trix.cards import bit_count
from trixsim.games.trix.policy import POLICY_SIG, C, param_vector, policy_key, state_row
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.types import DONE
from trixsim.games.trix.worlds import apply, forced, legal, make_world, sample_hands
from trixsim.jitcache import guard, sources
from trixsim.rng import mix64
from trixsim.strategies import _expert_kernels as E

guard(__file__, sources(cards, rng, policy_module, worlds_module, E), tuple(C.items()), DONE)

P_WORLDS, P_WIN, P_LOSE = 0, 1, 2
P_MODEL = 3
RESAMPLE = 16
"""Deals tried per world before one that contradicts a trix pass is kept anyway."""
"""The parameter vector: worlds, win bonus, lose penalty, then the learned policy's vector
(its weights, then the heuristic's parameters)."""

_DECISION, _SEAT = C["decision"], C["seat"]
_POINTS, _TOTALS, _CONTRACT_NO = C["points"], C["totals"], C["contract_no"]
_TURN = C["turn"]
_HANDS = COL["hands"]  # a world is a whole state: every hand in it was sampled


@njit(cache=True, nogil=True)
def _rollout(W: np.ndarray, wp: np.ndarray) -> None:
    """Play world ``W`` to the end of its contract, every seat by the learned policy."""
    while W[0, _DECISION] != DONE:
        a = forced(W)
        if a < 0:
            a = E.best_action(W[0], W[0, _HANDS + W[0, _TURN]], legal(W), wp)
        apply(W, a)


@njit(cache=True, nogil=True)
def _utility(W: np.ndarray, me: int, win: float, lose: float) -> float:
    """The seat's standing after the contract (as ``pimc`` scores it)."""
    others = 0.0
    for p in range(4):
        if p != me:
            others += W[0, _POINTS + p]
    u = others / 3.0 - W[0, _POINTS + me]
    over = W[0, _CONTRACT_NO] >= 28
    mine = W[0, _TOTALS + me]
    lo, hi = mine, mine
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


@njit(cache=True, nogil=True, inline="always")
def _fits(hands: np.ndarray, excl: np.ndarray) -> bool:
    """Whether no seat holds a card its trix passes showed it does not hold."""
    for p in range(4):
        if hands[p] & excl[p]:
            return False
    return True


@njit(cache=True, nogil=True)
def sample_fitting(s: np.ndarray, me: int, hand: int, key: int, excl: np.ndarray,
                   hands: np.ndarray) -> bool:
    """``sample_hands`` into ``hands``, drawn again (up to ``RESAMPLE`` times) while a seat
    gets a card its trix passes showed it lacks (``excl``); whether the deal kept fits."""
    for t in range(RESAMPLE):
        sample_hands(s, me, hand, key, hands)
        if _fits(hands, excl):
            return True
        key = np.int64(mix64(np.uint64(key) + np.uint64(t + 1)))
    return False


@njit(cache=True, nogil=True)
def search_decide(s: np.ndarray, lg: int, hand: int, key: int, prm: np.ndarray) -> int:
    """The action at state row ``s`` (public columns only) for the seat to act."""
    wp = prm[P_MODEL:]
    own = E.best_action(s, hand, lg, wp)
    if bit_count(lg & 0xFFFFFFFF) <= 1:
        return own
    me = s[_SEAT]
    score = np.zeros(33)
    hands = np.zeros(4, dtype=np.int64)
    base = np.zeros((1, WIDTH), dtype=np.int64)
    W = np.zeros((1, WIDTH), dtype=np.int64)
    excl = E.trix_excluded(s)  # trix passes seen: who holds none of which cards
    for w in range(int(prm[P_WORLDS])):
        wkey = np.int64(mix64(np.uint64(key) ^ np.uint64(0x5851F42D4C957F2D * (w + 1))))
        sample_fitting(s, me, hand, wkey, excl, hands)
        make_world(s, hands, base)
        m = lg
        while m:
            a = bit_count((m & -m) - 1)
            m &= m - 1
            for k in range(WIDTH):
                W[0, k] = base[0, k]
            apply(W, a)
            _rollout(W, wp)
            score[a] += _utility(W, me, prm[P_WIN], prm[P_LOSE])
    best, bs = own, score[own]
    m = lg
    while m:
        a = bit_count((m & -m) - 1)
        m &= m - 1
        if score[a] > bs:
            bs = score[a]
            best = a
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
