"""The learned policy's features and scorer, compiled (numba, ``nogil``).

Every decision is a choice among candidates (a card to play or place, a contract, declare
or not). Each candidate gets a feature vector of ``N_FEATURES`` numbers built from what the
deciding seat may know (the public columns of the state row and its own hand): the things
the heuristic ignores as well as the basics, namely the voids shown, the cards still unseen
per suit, the trick in progress and who can still overtake, a declared K♥, the totals,
and in trix who is known not to hold a card (a pass shows the seat held nothing
placeable then, read from the trix history). A candidate's score comes from its model (one
per trick contract for card play, one for trix placements, one for the pick and one for the
declaration, ``N_MODELS``): a linear part, plus a hidden layer of rectified units when the
model has one (``score`` below). The policy plays the highest-scoring legal candidate (the
lowest on a tie), so it is deterministic and depends only on the observation.

The policy's parameter vector: the hidden layer's width ``H``, then each model's block
(``block_size(H)`` numbers: W, features by H, row-major; b and v, H each; u, the linear
weights, ``N_FEATURES``), then the heuristic's own parameters. With ``H = 0`` a block is
just u: a linear model.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trixsim.strategies import heuristic_kernels as H

from trixsim import policykit, rng
from trixsim.games.trix import cards, rules, worlds
from trixsim.games.trix.cards import bit_count
from trixsim.games.trix.policy import (
    POLICY_SIG,
    C,
    param_vector,
    pick_number,
    state_row,
)
from trixsim.games.trix.state import FIELDS
from trixsim.games.trix.types import DECLARE, PASS, PICK, PLACE, TRIX
from trixsim.games.trix.worlds import trix_excluded
from trixsim.jitcache import guard, sources

guard(__file__, sources(cards, rng, policykit, rules, worlds, H), FIELDS, DECLARE, PASS,
      PICK, PLACE, TRIX)

N_FEATURES = 64
HEUR = N_FEATURES - 1
"""Feature of every candidate: 1 when it is the heuristic's choice (so a model starts from
the heuristic and learns where search plays otherwise)."""
M_PLACE, M_PICK, M_DECLARE = 6, 7, 8
N_MODELS = 9
"""Models 0-5: card play in contract 0-5 (dineri .. general); 6 trix; 7 pick; 8 declare."""

_PLAYED, _PLAYED_BY = C["played"], C["played_by"]
_SEAT, _DECISION, _CONTRACT = C["seat"], C["decision"], C["contract"]
_TRICK_N, _TRICK_NO, _BEST_CARD = C["trick_n"], C["trick_no"], C["best_card"]
_TRICK_CARDS, _VOIDS, _DECLARED = C["trick_cards"], C["voids"], C["declared"]
_TRICKS, _PICKER, _TOTALS = C["tricks"], C["picker"], C["totals"]
_OUT_FIRST, _TRIX_LOG, _TRIX_N = C["out_first"], C["trix_log"], C["trix_n"]
_KH = 5
_DIAMONDS = 0xFF << 16
_QUEENS = (1 << 4) | (1 << 12) | (1 << 20) | (1 << 28)
_JACKS = (1 << 3) | (1 << 11) | (1 << 19) | (1 << 27)
_HIGH = 0xE0E0E0E0  # K, 10, A of every suit
_LOW = 0x07070707  # 7, 8, 9
_FULL = 0xFFFFFFFF


@njit(cache=True, nogil=True, inline="always")
def _suit_bits(mask: int, suit: int) -> int:
    return (mask >> (8 * suit)) & 0xFF


@njit(cache=True, nogil=True)
def model_of(s: np.ndarray) -> int:
    """Which model answers the decision of state row ``s``."""
    d = s[_DECISION]
    if d == PICK:
        return M_PICK
    if d == DECLARE:
        return M_DECLARE
    if d == PLACE:
        return M_PLACE
    return s[_CONTRACT]


@njit(cache=True, nogil=True)
def _play_features(s: np.ndarray, hand: int, c: int, f: np.ndarray) -> None:
    seat = s[_SEAT]
    played = np.int64(s[_PLAYED])
    unseen = _FULL & ~(played | hand)
    suit, r = c >> 3, c & 7
    tn = s[_TRICK_N]
    lead = tn == 0
    best = s[_BEST_CARD]
    led = best >> 3 if not lead else suit
    wins = (not lead) and suit == led and c > best
    f[0] = 1.0
    f[1 + r] = 1.0
    f[9] = 1.0 if suit == 2 else 0.0
    f[10] = 1.0 if r == 4 else 0.0
    f[11] = 1.0 if c == _KH else 0.0
    f[12] = 1.0 if lead else 0.0
    f[13] = 1.0 if wins else 0.0
    f[14] = 1.0 if wins and tn == 3 else 0.0
    us = _suit_bits(unseen, suit)
    higher = bit_count(us >> (r + 1))
    lower = bit_count(us & ((1 << r) - 1))
    f[15] = higher / 8.0
    f[16] = lower / 8.0
    f[17] = bit_count(_suit_bits(hand, suit)) / 8.0
    f[18] = bit_count(us) / 8.0
    diam = 0
    queens = 0
    kh = 0
    for k in range(tn):
        x = s[_TRICK_CARDS + k]
        diam += (x >> 3) == 2
        queens += (x & 7) == 4
        kh += x == _KH
    w = 1.0 if (wins or lead) else 0.0
    f[19] = w * diam / 4.0
    f[20] = w * queens / 4.0
    f[21] = w * kh
    f[22] = s[_TRICK_NO] / 8.0
    f[23] = 1.0 if s[_TRICK_NO] == 7 else 0.0
    voids = np.int64(s[_VOIDS])
    nv = 0
    after_void = 0
    for k in range(1, 4):
        p = (seat + k) % 4
        v = (voids >> (4 * p + led)) & 1
        nv += v
        if k <= 3 - tn:
            after_void += v
    f[24] = nv / 3.0 if lead else 0.0
    f[25] = after_void / 3.0
    kh_out = (played >> _KH) & 1 == 0
    f[26] = 1.0 if s[_DECLARED] >= 0 and kh_out else 0.0
    f[27] = 1.0 if s[_DECLARED] == seat else 0.0
    f[28] = 1.0 if higher == 0 else 0.0
    f[29] = s[_TRICKS + seat] / 8.0
    f[30] = 1.0 if s[_PICKER] == seat else 0.0
    lo = min(min(s[_TOTALS], s[_TOTALS + 1]), min(s[_TOTALS + 2], s[_TOTALS + 3]))
    f[31] = (s[_TOTALS + seat] - lo) / 1000.0
    f[32] = bit_count(unseen & _DIAMONDS) / 8.0
    f[33] = bit_count(unseen & _QUEENS) / 4.0
    f[34] = 1.0 if (unseen >> _KH) & 1 else 0.0
    f[35] = 1.0 if (hand >> _KH) & 1 else 0.0
    f[36] = 1.0 if lead and higher == 0 else 0.0
    disc = (not lead) and suit != led
    f[37] = 1.0 if disc else 0.0
    f[38] = r / 7.0 if disc else 0.0
    f[39] = tn / 3.0
    f[40] = 1.0 if lead and bit_count(_suit_bits(hand, suit)) == 1 else 0.0
    f[41] = r / 7.0
    f[42] = 1.0 if lead and us == 0 else 0.0
    f[43] = 1.0 if s[_TRICK_NO] > 0 and s[_TRICKS + seat] == s[_TRICK_NO] else 0.0
    f[44] = r / 7.0 if wins else 0.0
    f[45] = r / 7.0 if (not lead and not wins and not disc) else 0.0
    f[46] = higher / 8.0 if lead else 0.0
    f[47] = (s[_TRICK_NO] / 8.0) * (r / 7.0)


@njit(cache=True, nogil=True)
def _place_features(s: np.ndarray, hand: int, c: int, excl: np.ndarray, f: np.ndarray) -> None:
    seat = s[_SEAT]
    played = np.int64(s[_PLAYED])
    unseen = _FULL & ~(played | hand)
    suit, r = c >> 3, c & 7
    f[0] = 1.0
    f[1 + r] = 1.0
    f[9] = 1.0 if r == 7 else 0.0
    f[10] = 1.0 if r == 3 else 0.0
    # the cards this placement makes placeable: up and/or down from c
    own_freed = 0
    other_next = 0
    holders = 0
    next_holder = 0
    for d in (-1, 1):
        if r == 3 or (d == 1 and r > 3) or (d == -1 and r < 3):
            q = r + d
            if 0 <= q < 8:
                while 0 <= q < 8 and (hand >> (8 * suit + q)) & 1:
                    own_freed += 1
                    q += d
                nxt = 8 * suit + r + d
                if (unseen >> nxt) & 1:
                    other_next += 1
                    for k in range(1, 4):
                        p = (seat + k) % 4
                        if bit_count(np.int64(s[_PLAYED_BY + p])) < 8 and \
                                not (excl[p] >> nxt) & 1:
                            holders += 1
                            if k == 1:
                                next_holder = 1
    f[11] = own_freed / 4.0
    f[12] = other_next / 2.0
    f[13] = holders / 6.0
    f[14] = float(next_holder)
    f[15] = bit_count(hand) / 8.0
    mn = 8
    for k in range(1, 4):
        p = (seat + k) % 4
        h = 8 - bit_count(np.int64(s[_PLAYED_BY + p]))
        if h > 0:
            mn = min(mn, h)
    f[16] = mn / 8.0
    f[17] = bit_count(_suit_bits(hand, suit)) / 8.0
    f[18] = 1.0 if s[_OUT_FIRST] >= 0 else 0.0
    f[19] = bit_count(_suit_bits(hand, suit)) / 8.0 if r == 3 else 0.0
    f[20] = bit_count(_suit_bits(unseen, suit)) / 8.0
    f[21] = abs(r - 3) / 4.0
    known = 0
    for k in range(1, 4):
        known += bit_count(excl[(seat + k) % 4] & unseen)
    f[22] = known / 24.0
    f[23] = own_freed * 1.0 if r == 7 else 0.0


@njit(cache=True, nogil=True)
def _pick_features(s: np.ndarray, hand: int, k: int, f: np.ndarray) -> None:
    b = 8 * k
    f[b] = 1.0
    f[b + 1] = pick_number(s) / 7.0
    f[b + 2] = bit_count(hand & _DIAMONDS) / 8.0
    f[b + 3] = bit_count(hand & _QUEENS) / 4.0
    f[b + 4] = float((hand >> _KH) & 1)
    f[b + 5] = bit_count(hand & _HIGH) / 8.0
    f[b + 6] = bit_count(hand & _JACKS) / 4.0
    f[b + 7] = bit_count(hand & _LOW) / 8.0


@njit(cache=True, nogil=True)
def _declare_features(s: np.ndarray, hand: int, a: int, f: np.ndarray) -> None:
    if a == 0:
        return
    seat = s[_SEAT]
    hearts = _suit_bits(hand, 0)
    f[0] = 1.0
    f[1] = bit_count(hearts) / 8.0
    f[2] = bit_count(hearts & 0xC0) / 2.0  # 10, A of hearts
    f[3] = pick_number(s) / 7.0
    f[4] = 1.0 if s[_PICKER] == seat else 0.0
    f[5] = s[_TRICK_N] / 3.0
    f[6] = bit_count(hearts & 0x1F) / 5.0  # low hearts below the king
    f[7] = 1.0 if s[_TRICK_N] > 0 and (s[_BEST_CARD] >> 3) == 0 else 0.0


@njit(cache=True, nogil=True)
def candidate_features(s: np.ndarray, hand: int, a: int, excl: np.ndarray, heur: int,
                       f: np.ndarray) -> None:
    """Fill ``f`` (zeroed here) with the features of action ``a`` in state row ``s``
    (``heur``: the heuristic's choice there)."""
    f[:] = 0.0
    d = s[_DECISION]
    if d == PICK:
        _pick_features(s, hand, a, f)
    elif d == DECLARE:
        _declare_features(s, hand, a, f)
    elif d == PLACE:
        _place_features(s, hand, a, excl, f)
    else:
        _play_features(s, hand, a, f)
    f[HEUR] = 1.0 if a == heur else 0.0


@njit(cache=True, nogil=True, inline="always")
def block_size(hidden: int) -> int:
    """Numbers per model in the parameter vector, for a hidden layer of ``hidden`` units."""
    return N_FEATURES * hidden + 2 * hidden + N_FEATURES


@njit(cache=True, nogil=True)
def heuristic_part(w: np.ndarray) -> np.ndarray:
    """The heuristic's parameters, after the models in the policy's vector ``w``."""
    return w[1 + N_MODELS * block_size(int(w[0])):]


@njit(cache=True, nogil=True, inline="always")
def score(w: np.ndarray, m: int, f: np.ndarray, h: np.ndarray, nz: np.ndarray) -> float:
    """Model ``m``'s score of features ``f``: ``u·f + v·max(0, Wᵀf + b)`` (``h``: scratch
    of the hidden layer's width, ``nz``: integer scratch of ``N_FEATURES``). Features are
    mostly zero, so only the rows of W of the nonzero ones are read: their indices are
    gathered first (one pass of branches, then a loop without any), and each row is taken
    as a slice, whose indices numba knows to be in range, so the compiler vectorises the
    hidden layer's sums (with an index into the whole vector it could not: each access had
    a branch for negative indices). The sums are the same, term by term and in the same
    order, so the score is too, to the bit."""
    hidden = h.shape[0]
    base = 1 + m * block_size(hidden)
    bb = base + N_FEATURES * hidden
    bv = bb + hidden
    bu = bv + hidden
    n = 0
    for j in range(N_FEATURES):
        if f[j] != 0.0:
            nz[n] = j
            n += 1
    bias = w[bb:bb + hidden]
    for k in range(hidden):
        h[k] = bias[k]
    z = 0.0
    for i in range(n):
        j = nz[i]
        x = f[j]
        z += w[bu + j] * x
        row = w[base + j * hidden:base + (j + 1) * hidden]
        for k in range(hidden):
            h[k] += x * row[k]
    v = w[bv:bv + hidden]
    for k in range(hidden):
        hk = h[k]
        z += v[k] * (hk if hk > 0.0 else 0.0)  # no branch to mispredict; adds ±0 where off
    return z


@njit(cache=True, nogil=True)
def best_action(s: np.ndarray, hand: int, legal: int, w: np.ndarray) -> int:
    """The legal action with the highest score under the policy's vector ``w`` (see the
    module's docstring); the lowest such on a tie."""
    m = model_of(s)
    heur = H.heuristic_decide(s, legal, hand, heuristic_part(w))
    d = s[_DECISION]
    excl = trix_excluded(s) if d == PLACE else np.zeros(4, dtype=np.int64)
    f = np.empty(N_FEATURES, dtype=np.float64)
    h = np.empty(int(w[0]), dtype=np.float64)
    nz = np.empty(N_FEATURES, dtype=np.int64)
    best, best_score = -1, -np.inf
    n = 2 if d == DECLARE else (7 if d == PICK else 32)
    for a in range(n):
        if not (legal >> a) & 1:
            continue
        candidate_features(s, hand, a, excl, heur, f)
        v = score(w, m, f, h, nz)
        if v > best_score:
            best, best_score = a, v
    return best


@njit(POLICY_SIG, cache=True, nogil=True)
def expert_policy(row: int, legal: int, hand: int, subkey: int, params: int,
                  n_params: int) -> int:
    """The compiled policy: the best legal candidate under the weights in ``params``."""
    return best_action(state_row(row), hand, legal, param_vector(params, n_params))


@njit(cache=True, nogil=True)
def batch_actions(rows: np.ndarray, hands: np.ndarray, legal: np.ndarray, w: np.ndarray,
                  out: np.ndarray) -> None:
    """``best_action`` for every row (the strategy's batched methods)."""
    for i in range(rows.shape[0]):
        out[i] = best_action(rows[i], hands[i], legal[i], w)


@njit(cache=True, nogil=True)
def count_candidates(legal: np.ndarray, decisions: np.ndarray) -> int:
    """Total legal candidates over the decisions (sizes ``fill_features``)."""
    n = 0
    for i in range(legal.shape[0]):
        lim = 2 if decisions[i] == DECLARE else (7 if decisions[i] == PICK else 32)
        n += bit_count(legal[i] & ((np.int64(1) << lim) - 1))
    return n


@njit(cache=True, nogil=True)
def fill_features(rows: np.ndarray, hands: np.ndarray, legal: np.ndarray,
                  actions: np.ndarray, hp: np.ndarray, X: np.ndarray, group: np.ndarray,
                  chosen: np.ndarray, model: np.ndarray) -> None:
    """The training table: one row of ``X`` per legal candidate of every decision, with
    its decision's index (``group``), whether it was the action taken (``chosen``) and
    the decision's model (``hp``: the heuristic's parameters)."""
    j = 0
    f = np.empty(N_FEATURES, dtype=np.float64)
    for i in range(rows.shape[0]):
        s = rows[i]
        d = s[_DECISION]
        excl = trix_excluded(s) if d == PLACE else np.zeros(4, dtype=np.int64)
        model[i] = model_of(s)
        heur = H.heuristic_decide(s, legal[i], hands[i], hp)
        n = 2 if d == DECLARE else (7 if d == PICK else 32)
        for a in range(n):
            if not (legal[i] >> a) & 1:
                continue
            candidate_features(s, hands[i], a, excl, heur, f)
            for k in range(N_FEATURES):
                X[j, k] = f[k]
            group[j] = i
            chosen[j] = a == actions[i]
            j += 1


@njit(cache=True, nogil=True)
def action_log_prob(s: np.ndarray, hand: int, legal: int, a: int, w: np.ndarray) -> float:
    """The model's log-probability of action ``a`` (softmax of the scores over the legal
    candidates): how likely the model finds a seat's actual play, for weighting sampled
    worlds by the other seats' plays (``expert``'s inference)."""
    d = s[_DECISION]
    n = 2 if d == DECLARE else (7 if d == PICK else 32)
    if a < 0 or a >= n or not (legal >> a) & 1:
        return -np.inf
    m = model_of(s)
    heur = H.heuristic_decide(s, legal, hand, heuristic_part(w))
    excl = trix_excluded(s) if d == PLACE else np.zeros(4, dtype=np.int64)
    f = np.empty(N_FEATURES, dtype=np.float64)
    h = np.empty(int(w[0]), dtype=np.float64)
    nz = np.empty(N_FEATURES, dtype=np.int64)
    top, tot, mine = -np.inf, 0.0, 0.0
    for b in range(n):
        if not (legal >> b) & 1:
            continue
        candidate_features(s, hand, b, excl, heur, f)
        v = score(w, m, f, h, nz)
        if b == a:
            mine = v
        if v > top:  # log-sum-exp in one pass: rescale what was summed
            tot = tot * np.exp(top - v) + 1.0
            top = v
        else:
            tot += np.exp(v - top)
    return mine - top - np.log(tot)
