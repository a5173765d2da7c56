"""Compiled per-game kernels of the ``heuristic`` strategy, looped over the batch: the
contract estimates, the pick, the K♥ declaration, and the compiled policy that joins them
to the card play and trix placements of ``heuristic_play``.

Each kernel takes the observation columns it needs plus a float64 parameter vector (its
layout is the ``P_*`` indices of ``heuristic_params``) and writes one action per game. Cards are
``suit * 8 + rank`` with ranks 7 8 9 J Q K 10 A = 0..7 (trixsim.games.trix.cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trixsim.strategies import heuristic_params, heuristic_play
from trixsim.strategies.heuristic_params import (
    FIXED_ORDER,
    FULL,
    H10,
    HA,
    KH,
    P_BASE,
    P_DECLARE_MARGIN,
    P_DECLARE_MODE,
    P_ORDER_MODE,
    P_OVER_1000,
    P_SEVENTH_WEIGHT,
    P_TRIX_BY_PICK,
    P_TRIX_MIN_SCORE,
    P_TRIX_MODE,
    WIN_BY_ABOVE,
    cards_above,
    cards_below,
    suit_cards,
)
from trixsim.strategies.heuristic_play import place_one, play_one

from trixsim import rng
from trixsim.games.trix import cards, policy
from trixsim.games.trix.cards import DIAMOND_MASK, KH_MASK
from trixsim.games.trix.cards import bit_count as _pc
from trixsim.games.trix.cards import low_card as _low
from trixsim.games.trix.policy import POLICY_SIG, C, param_vector, pick_number, state_row
from trixsim.games.trix.types import (
    DECLARE,
    PICK,
    PLAY,
    TRIX,
)
from trixsim.jitcache import guard, sources

# its compiled code includes the policy helpers and card functions it calls
guard(__file__, sources(cards, rng, policy, heuristic_params, heuristic_play))

# ---------------------------------------------------------------- contract estimates

@njit(cache=True)
def trix_score(hand: int) -> float:
    """How well a hand suits trix: jacks and the cards chained to them count for it,
    cards far from any jack of theirs (stranded 7s and aces) against it."""
    score = 0.0
    for s in range(4):
        m = (hand >> (8 * s)) & 0xFF
        if m == 0:
            continue
        if m & (1 << 3):
            score += 1.0
            up = 4
            while up < 8 and (m >> up) & 1:
                score += 0.8 if up < 7 else 1.2  # a chained ace also gives another turn
                m &= ~(1 << up)
                up += 1
            dn = 2
            while dn >= 0 and (m >> dn) & 1:
                score += 0.8
                m &= ~(1 << dn)
                dn -= 1
            m &= ~(1 << 3)
        for r in range(8):
            if (m >> r) & 1:
                score -= 0.3 * abs(r - 3) if r < 3 else 0.3 * (r - 3)
    return score


@njit(cache=True)
def _costs(hand: int) -> tuple[float, float, float, float, float, float, float]:
    """``estimate_costs`` as a tuple (by contract index), so a decision allocates nothing."""
    t = 0.0
    t_d = 0.0
    t_q = 0.0
    n_d = _pc(hand & DIAMOND_MASK)
    m = np.int64(hand) & FULL
    while m:  # the held cards, in increasing order
        c = _low(m)
        m &= m - 1
        s = c >> 3
        n_s = _pc(hand & suit_cards(s))
        ua = _pc(cards_above(c) & ~hand)
        p = WIN_BY_ABOVE[ua]
        if n_s >= 5:
            p += 0.08 * (n_s - 4)
        low = _pc(cards_below(c) & hand)
        if low > 0 and ua > 0:
            p *= 1.0 - 0.1 * min(low, 3)
        if p > 1.0:
            p = 1.0
        t += p
        if s == 2:
            t_d += p
        if (c & 7) == 4:
            t_q += p
    hearts = hand & 0xFF
    if hand & KH_MASK:
        ua = _pc(cards_above(KH) & ~hand)
        q = 0.25 if ua == 2 else (0.4 if ua == 1 else 0.6)
        q -= 0.06 * min(_pc(hearts & 0x1F), 3)
        if _pc(hearts) == 1:
            q += 0.1
        if q < 0.03:
            q = 0.03
        ray = 100.0 * q
    else:
        ray = 100.0 * (0.3 * ((hand >> HA) & 1) + 0.2 * ((hand >> H10) & 1) + 0.02 * t)
    dineri = 10.0 * (2.5 * t_d + 0.6 * (t - t_d) + 0.1 * n_d)
    damet = 20.0 * (1.2 * t_q + 0.25 * (t - t_q))
    pli = 10.0 * t
    farcha = 100.0 * t / 8.0
    general = dineri + damet + pli + farcha + ray
    return (dineri, damet, pli, farcha, ray, general, 0.0)


@njit(cache=True)
def estimate_costs(hand: int, out: np.ndarray) -> None:
    """Expected points of the holder in each trick contract (undoubled), from the hand:
    the chance of each card winning a trick by the unseen cards above it, long suits
    winning late, and the danger cards (diamonds, queens, K♥) among the likely winners."""
    est = _costs(hand)
    for k in range(7):
        out[k] = est[k]


@njit(cache=True)
def baseline_costs(hands: np.ndarray) -> np.ndarray:
    """Mean of estimate_costs over many hands (the cost of an average hand)."""
    acc = np.zeros(7)
    tmp = np.zeros(7)
    for i in range(hands.shape[0]):
        estimate_costs(np.int64(hands[i]), tmp)
        acc += tmp
    return acc / max(hands.shape[0], 1)


@njit(cache=True)
def want_trix_one(lg: int, hand: int, pick: int, prm: np.ndarray) -> bool:
    """Take trix when legal and the hand scores high enough, or from the deadline pick on."""
    if (lg >> TRIX) & 1:
        return (lg == (1 << TRIX) or pick >= prm[P_TRIX_BY_PICK]
                or trix_score(hand) >= prm[P_TRIX_MIN_SCORE])
    return False


@njit(cache=True)
def want_trix(legal: np.ndarray, hand: np.ndarray, pick: np.ndarray, prm: np.ndarray,
              out: np.ndarray) -> None:
    """want_trix_one over the batch."""
    for i in range(legal.shape[0]):
        out[i] = want_trix_one(np.int64(legal[i]), np.int64(hand[i]), pick[i], prm)


@njit(cache=True)
def order_one(lg: int, hand: int, pick: int, base: np.ndarray, prm: np.ndarray,
              mytotal: int) -> int:
    """The legal non-trix contract whose estimate beats its average by most, with a pull
    towards the costly contracts as the ×4 seventh pick nears, and a penalty for one
    whose expected points (with the picker's multiplier) would take the picker's total
    ``mytotal`` over 1000 and end the game against it (trix only if forced)."""
    if lg == (1 << TRIX):
        return TRIX
    est = _costs(hand)
    f = (pick - 1) / 5.0
    w = prm[P_SEVENTH_WEIGHT] * f * f
    best = -1
    bs = 1e18
    mult = 4.0 if pick == 7 else 2.0
    for k in range(6):
        if (lg >> k) & 1:
            sc = est[k] - base[k] - w * base[k]
            if mytotal + mult * est[k] > 1000.0:
                sc += prm[P_OVER_1000]
            if sc < bs:
                bs = sc
                best = k
    return best


@njit(cache=True)
def order_contracts(legal: np.ndarray, hand: np.ndarray, pick: np.ndarray, base: np.ndarray,
                    prm: np.ndarray, mytotal: np.ndarray, out: np.ndarray) -> None:
    """order_one over the batch."""
    for i in range(legal.shape[0]):
        out[i] = order_one(np.int64(legal[i]), np.int64(hand[i]), pick[i], base, prm,
                           mytotal[i])


@njit(cache=True)
def fixed_order_one(lg: int, order: np.ndarray) -> int:
    """The first legal non-trix contract in a fixed order (trix only if forced)."""
    for k in order:
        if (lg >> k) & 1:
            return k
    return TRIX


@njit(cache=True)
def fixed_order(legal: np.ndarray, order: np.ndarray, out: np.ndarray) -> None:
    """fixed_order_one over the batch."""
    for i in range(legal.shape[0]):
        out[i] = fixed_order_one(np.int64(legal[i]), order)


# ---------------------------------------------------------------- declaration

@njit(cache=True)
def self_take_chance(hand: int, played: int, best: int, trick_n: int) -> float:
    """Chance that the K♥ holder ends up taking it, from hearts held, the cards above the
    king still out, voids to discard it on, and what the first trick already shows."""
    if trick_n > 0:
        led = best >> 3
        if led == 0 and best > KH:
            return 0.02  # a higher heart already wins this trick: drop the king on it
        if led != 0 and (hand & suit_cards(led)) == 0:
            return 0.02  # void in the suit led: discard the king now
    hearts = hand & 0xFF
    ua = _pc(cards_above(KH) & ~hand & ~played)
    q = 0.25 if ua == 2 else (0.45 if ua == 1 else 0.7)
    q -= 0.06 * min(_pc(hearts & 0x1F), 3)
    if _pc(hearts) == 1:
        q += 0.1
        if trick_n > 0 and (best >> 3) == 0:
            q += 0.25  # must play the lone king to a heart trick now
    for s in range(1, 4):
        n = _pc(hand & suit_cards(s))
        if n == 0:
            q -= 0.06
        elif n == 1:
            q -= 0.03
    return min(max(q, 0.02), 0.95)


@njit(cache=True)
def declare_one(hand: int, played: int, best: int, trick_n: int, seat: int, picker: int,
                pick: int, prm: np.ndarray) -> int:
    """Declare when the expected gain 50(1-q) - 100·q·m (m: own multiplier) of declaring
    over keeping quiet exceeds the margin."""
    q = self_take_chance(hand, played, best, trick_n)
    m = 1.0
    if seat == picker:
        m = 4.0 if pick == 7 else 2.0
    gain = 50.0 * (1.0 - q) - 100.0 * q * m
    return 1 if gain > prm[P_DECLARE_MARGIN] else 0


@njit(cache=True)
def declare_kernel(hand: np.ndarray, played: np.ndarray, best: np.ndarray,
                   trick_n: np.ndarray, seat: np.ndarray, picker: np.ndarray,
                   pick: np.ndarray, prm: np.ndarray, out: np.ndarray) -> None:
    """declare_one over the batch."""
    for i in range(hand.shape[0]):
        out[i] = declare_one(np.int64(hand[i]), np.int64(played[i]), best[i], trick_n[i],
                             seat[i], picker[i], pick[i], prm)


# ---------------------------------------------------------------- the compiled policy

_PLAYED, _CONTRACT, _BEST, _TRICK_N = C["played"], C["contract"], C["best_card"], C["trick_n"]
_TRICK_NO, _DECLARED, _PICKER, _DECISION = C["trick_no"], C["declared"], C["picker"], C["decision"]
_SEAT = C["seat"]
_TOTALS = C["totals"]


@njit(cache=True, inline="always")
def heuristic_decide(s: np.ndarray, lg: int, hand: int, prm: np.ndarray) -> int:
    """The heuristic and its variants for one decision, from the state row ``s`` (public
    columns only), the legal mask and the own hand: the same functions as the batched
    methods, the variant chosen by the mode parameters. Search bots roll out with it."""
    d = s[_DECISION]
    if d == PLAY:
        return play_one(lg, hand, s[_PLAYED], s[_CONTRACT], s[_BEST], s[_TRICK_N],
                        s[_TRICK_NO], s[_DECLARED], prm)
    pick = pick_number(s)
    if d == PICK:
        mode = prm[P_TRIX_MODE]
        if mode == 0:
            trix = want_trix_one(lg, hand, pick, prm)
        elif mode == 1:
            trix = (lg >> TRIX) & 1 == 1
        else:
            trix = lg == (1 << TRIX)
        if trix:
            return TRIX
        if prm[P_ORDER_MODE] == 1:
            return fixed_order_one(lg, FIXED_ORDER)
        return order_one(lg, hand, pick, prm[P_BASE:P_BASE + 7], prm, s[_TOTALS + s[_SEAT]])
    if d == DECLARE:
        mode = prm[P_DECLARE_MODE]
        if mode == 1:
            return 0
        if mode == 2:
            return 1
        return declare_one(hand, s[_PLAYED], s[_BEST], s[_TRICK_N], s[_SEAT], s[_PICKER],
                           pick, prm)
    return place_one(lg, hand, s[_PLAYED], prm)


@njit(POLICY_SIG, cache=True)
def heuristic_policy(row: int, lg: int, hand: int, subkey: int, params: int,
                     n_params: int) -> int:
    """``heuristic_decide`` as a compiled policy."""
    return heuristic_decide(state_row(row), lg, hand, param_vector(params, n_params))
