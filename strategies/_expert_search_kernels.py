"""Compiled kernels of ``expert``: Monte-Carlo search rolled out with the learned policy
(``_expert_kernels``), which is also its model of how the other seats play.

It is ``pimc``'s search with two parts swapped. The generic driver
(``trixsim.search.pimc``) deals the hidden cards ``worlds`` times and plays each legal
action and the rest of the contract in every world, dropping the actions that trail by
more than ``prune`` standard errors as pimc does, and the standing after the contract is
``pimc``'s (``_pimc_kernels.standing``: the other seats' mean points minus its own, a
bonus for ending the game lowest, a penalty for ending it highest). The first part
swapped is the rollout: the learned policy for all four seats. Ties go to the learned
policy's own choice. Randomness comes only from the decision's key.

Its worlds are the other part (inference). pimc's worlds keep to what the seat has seen
(voids, trix passes, a declared K♥) but treat every deal that fits as equally likely.
Here each world is the likeliest-weighted of ``infer`` such deals: in each candidate the
contract so far is replayed (``trixsim.games.trix.replay``) and the learned policy gives
the log-probability of every action the other seats took (the pick, each card, each trix
placement, a K♥ holder's declaring or keeping quiet); a candidate is drawn with
probability proportional to ``exp(sharp × log-likelihood)`` (sampling-importance
resampling, drawn by the Gumbel-max trick from the world's key). ``infer`` = 1 is pimc's
worlds.
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
from trixsim.games.trix import replay as replay_module
from trixsim.games.trix import worlds as worlds_module
from trixsim.games.trix.cards import bit_count
from trixsim.games.trix.policy import POLICY_SIG, C, param_vector, policy_key, state_row
from trixsim.games.trix.replay import contract_start, fits, n_moves, replay_action
from trixsim.games.trix.rules import legal_one
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.transitions import step_one
from trixsim.games.trix.types import DONE, PLACE
from trixsim.games.trix.worlds import (
    WORK,
    apply,
    forced,
    legal,
    make_world,
    sample_hands_into,
    sample_world,
)
from trixsim.jitcache import guard, sources
from trixsim.rng import mix64
from trixsim.search import pimc as driver_module
from trixsim.search.pimc import MAX_ACTIONS, SAMPLE_WORK, best_action, specialise

guard(__file__, sources(cards, rng, policy_module, worlds_module, replay_module, E,
                        pimc_kernels, driver_module), tuple(C.items()), DONE, PLACE)

P_WORLDS, P_WIN, P_LOSE, P_PRUNE, P_INFER, P_SHARP = 0, 1, 2, 3, 4, 5
P_MODEL = 6
"""The parameter vector: worlds, win bonus, lose penalty, pruning, candidate deals per
world, sharpness of the weighting, then the learned policy's vector (its models, then the
heuristic's parameters)."""
_CAND = WORK + 4
"""Where the world sampler keeps the best candidate's hands in the driver's working
space (after ``sample_hands_into``'s)."""
_CACHE, _SLOTS = _CAND + 4, 128
"""Then the seats' likelihood terms met in this decision: ``_SLOTS`` keys (seat + 1 in
bits 32 and up, its hand below; 0 empty), then as many values."""
_SCALE = 4294967296.0
_IMPOSSIBLE = -(1 << 62)
"""A term, in units of 2**-32 (so that a sum is exact and does not depend on the order)."""
assert _CACHE + 2 * _SLOTS <= SAMPLE_WORK
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


@njit(cache=True, nogil=True)
def history_log_lik(s: np.ndarray, me: int, hands: np.ndarray, wp: np.ndarray,
                    R: np.ndarray) -> float:
    """How likely the learned policy (vector ``wp``) makes the other seats' actions of the
    contract so far, had they held ``hands`` (plus what they played): the sum of their
    log-probabilities, -inf if the hands could not have played them. ``R`` (1 by the row's
    width) is scratch."""
    per_seat = np.zeros(4)
    seat_log_liks(s, me, hands, wp, R, 0xF & ~(1 << me), per_seat)
    if np.isnan(per_seat).any():
        return -np.inf
    return per_seat.sum()


@njit(cache=True, nogil=True)
def seat_log_liks(s: np.ndarray, me: int, hands: np.ndarray, wp: np.ndarray,
                  R: np.ndarray, seats: int, out: np.ndarray) -> None:
    """``out[p]``, for each seat ``p`` of the mask ``seats`` (never ``me``): the learned
    policy's log-probability of that seat's actions of the contract so far, had it held
    ``hands[p]`` (plus what it played); -inf if it could not have played them. A seat's
    actions and what it knew at each are public, so its term depends on its own hand
    alone (which lets a search reuse it for every world that gives the seat that hand)."""
    for p in range(4):
        out[p] = 0.0
    contract_start(s, hands, R)
    k = 0
    while True:
        a, seat, k = replay_action(s, R, k)
        if a < 0:
            return
        t = R[0, _TURN]
        lm = legal_one(R, 0)
        if not fits(R, a, seat, lm):
            # the seat to act holds what it could not have (a card of a suit it did not
            # follow, a jack before trix's starter): its term is -inf; the others' terms
            # are cut short, so not known (NaN)
            for p in range(4):
                if (seats >> p) & 1:
                    out[p] = -np.inf if p == t else np.nan
            return
        if ((seats >> t) & 1 and out[t] > -np.inf and lm & (lm - 1) != 0
                and not (R[0, _DECISION] == PLACE and lm == 0)):
            out[t] += E.action_log_prob(R[0], R[0, _HANDS + t], lm, a, wp)
        step_one(R, 0, a)


@njit(cache=True, nogil=True, inline="always")
def _gumbel(key: int) -> float:
    """A standard Gumbel draw from a 64-bit key."""
    u = (np.float64(mix64(np.uint64(key)) >> np.uint64(11)) + 0.5) / 9007199254740992.0
    return -np.log(-np.log(u))


@njit(cache=True, nogil=True, inline="always")
def _slot(work: np.ndarray, key: int) -> int:
    """The cache slot of ``key`` (a seat and its hand): where it is, or the empty slot it
    would take (-1 when the cache is full)."""
    h = np.int64(mix64(np.uint64(key)) >> np.uint64(40)) & (_SLOTS - 1)
    for i in range(_SLOTS):
        j = (h + i) & (_SLOTS - 1)
        if work[_CACHE + j] == key or work[_CACHE + j] == 0:
            return j
    return -1


@njit(cache=True, inline="always")
def _sample(s: np.ndarray, me: int, hand: int, wkey: int, prm: np.ndarray, W: np.ndarray,
            work: np.ndarray) -> None:
    """The driver's world sampler: pimc's world for ``infer`` = 1 (or before the pick),
    else the candidate drawn by likelihood (see the module doc). A seat's term of the
    likelihood depends on its hand alone; the terms met are kept in the driver's working
    space (zeroed at each decision), quantised to 2**-32 whether reused or not, so reuse
    changes no draw."""
    n = int(prm[P_INFER])
    if n <= 1 or n_moves(s) == 0:
        sample_world(s, me, hand, wkey, prm, W, work)
        return
    hands = work[:4]
    best = work[_CAND:_CAND + 4]
    R = np.empty((1, WIDTH), dtype=np.int64)
    per_seat = np.zeros(4)
    slots = np.zeros(4, dtype=np.int64)
    keys = np.zeros(4, dtype=np.int64)
    wp = prm[P_MODEL:]
    sharp = prm[P_SHARP]
    top = -np.inf
    for j in range(n):
        seed = wkey if j == 0 else np.int64(mix64(np.uint64(wkey) + np.uint64(j)))
        sample_hands_into(s, me, hand, seed, hands, work[4:])
        need = 0
        for p in range(4):
            slots[p] = -1
            if p == me:
                continue
            keys[p] = (np.int64(p + 1) << np.int64(32)) | np.int64(hands[p])
            slots[p] = _slot(work, keys[p])
            if slots[p] < 0 or work[_CACHE + slots[p]] != keys[p]:
                need |= 1 << p
        if need:
            seat_log_liks(s, me, hands, wp, R, need, per_seat)
        ll = 0
        for p in range(4):
            if p == me:
                continue
            i = slots[p]
            if (need >> p) & 1:
                known = not np.isnan(per_seat[p])
                q = _IMPOSSIBLE if per_seat[p] == -np.inf or not known \
                    else np.int64(np.round(per_seat[p] * _SCALE))
                if i >= 0 and known:
                    work[_CACHE + i] = keys[p]
                    work[_CACHE + _SLOTS + i] = q
            else:
                q = work[_CACHE + _SLOTS + i]
            if q == _IMPOSSIBLE or ll == _IMPOSSIBLE:
                ll = _IMPOSSIBLE
            else:
                ll += q
        g = -np.inf if ll == _IMPOSSIBLE else sharp * (ll / _SCALE) \
            + _gumbel(wkey ^ (0x2545F4914F6CDD1D * (j + 1)))
        if j == 0 or g > top:
            top = g
            for p in range(4):
                best[p] = hands[p]
    make_world(s, best, W)


_scores = specialise(__name__, "_scores", sample=_sample, apply=pimc_kernels._apply,
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
