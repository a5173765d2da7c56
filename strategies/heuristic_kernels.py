"""Compiled per-game kernels of the ``heuristic`` strategy, looped over the batch.

Each kernel takes the observation columns it needs plus a float64 parameter vector (its
layout is the ``P_*`` indices below) and writes one action per game. Cards are
``suit * 8 + rank`` with ranks 7 8 9 J Q K 10 A = 0..7 (trixsim.games.trix.cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.games.trix import cards, policy
from trixsim.games.trix.cards import DIAMOND_MASK, KH_MASK, QUEENS
from trixsim.games.trix.cards import bit_count as _pc
from trixsim.games.trix.cards import high_card as _high
from trixsim.games.trix.cards import low_card as _low
from trixsim.games.trix.policy import POLICY_SIG, C, param_vector, pick_number, state_row
from trixsim.games.trix.types import (
    DAMET,
    DECLARE,
    DINERI,
    FARCHA,
    GENERAL,
    PICK,
    PLAY,
    PLI,
    RAY,
    TRIX,
)
from trixsim.jitcache import guard, sources

# its compiled code includes the policy helpers and card functions it calls
guard(__file__, sources(cards, rng, policy))

# Parameter vector layout (see HeuristicStrategy.params for the meaning of each).
P_DECLARE_MARGIN = 0
P_TRIX_MIN_SCORE = 1
P_TRIX_BY_PICK = 2
P_SEVENTH_WEIGHT = 3
P_FARCHA_SHED_TRICKS = 4
P_LEAD_GUARD = 5
P_PLACE_OWN = 6
P_PLACE_OTHER = 7
P_PLACE_ACE = 8
P_FARCHA_BY_RANK = 9
P_OVER_1000 = 10
N_PARAMS = 11
# The compiled policy's vector adds the variants' modes and the baseline costs.
P_TRIX_MODE = 11  # 0 by hand and deadline, 1 whenever legal, 2 only when forced
P_ORDER_MODE = 12  # 0 by hand estimate, 1 the fixed order FIXED_ORDER
P_DECLARE_MODE = 13  # 0 by estimated gain, 1 never, 2 always
P_BASE = 14  # 7 baseline costs (HeuristicStrategy.baseline_costs)
N_POLICY_PARAMS = P_BASE + 7

FULL = 0xFFFFFFFF
KH = 5  # king of hearts (suit 0, rank K)
H10 = 6
HA = 7
FIXED_ORDER = np.array([GENERAL, RAY, DAMET, DINERI, PLI, FARCHA], dtype=np.int64)
# Rough chance that a card wins a trick, by how many unseen cards of its suit beat it.
WIN_BY_ABOVE = np.array([0.85, 0.55, 0.35, 0.2, 0.12, 0.06, 0.03, 0.01])


@njit(cache=True)
def _suit(s: int) -> int:
    return 0xFF << (8 * s)


@njit(cache=True)
def _above(c: int) -> int:
    """Cards of c's suit above c."""
    return _suit(c >> 3) & ~((np.int64(2) << c) - 1)


@njit(cache=True)
def _below(c: int) -> int:
    """Cards of c's suit below c."""
    return _suit(c >> 3) & ((np.int64(1) << c) - 1)


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
        n_s = _pc(hand & _suit(s))
        ua = _pc(_above(c) & ~hand)
        p = WIN_BY_ABOVE[ua]
        if n_s >= 5:
            p += 0.08 * (n_s - 4)
        low = _pc(_below(c) & hand)
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
        ua = _pc(_above(KH) & ~hand)
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
        if led != 0 and (hand & _suit(led)) == 0:
            return 0.02  # void in the suit led: discard the king now
    hearts = hand & 0xFF
    ua = _pc(_above(KH) & ~hand & ~played)
    q = 0.25 if ua == 2 else (0.45 if ua == 1 else 0.7)
    q -= 0.06 * min(_pc(hearts & 0x1F), 3)
    if _pc(hearts) == 1:
        q += 0.1
        if trick_n > 0 and (best >> 3) == 0:
            q += 0.25  # must play the lone king to a heart trick now
    for s in range(1, 4):
        n = _pc(hand & _suit(s))
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


# ---------------------------------------------------------------- card play

@njit(cache=True)
def _danger(c: int, contract: int, kh_value: float) -> float:
    """Points a card carries to whoever takes it in this contract."""
    v = 0.0
    if contract == DINERI or contract == GENERAL:
        if (c >> 3) == 2:
            v += 10.0
    if contract == DAMET or contract == GENERAL:
        if (c & 7) == 4:
            v += 20.0
    if contract == RAY or contract == GENERAL:
        if c == KH:
            v += kh_value
    return v


@njit(cache=True)
def _danger_mask(contract: int) -> int:
    """The cards ``_danger`` gives points to in this contract, as a mask."""
    m = np.int64(0)
    if contract == DINERI or contract == GENERAL:
        m |= DIAMOND_MASK
    if contract == DAMET or contract == GENERAL:
        m |= QUEENS
    if contract == RAY or contract == GENERAL:
        m |= KH_MASK
    return m


@njit(cache=True)
def _big_danger_mask(contract: int) -> int:
    """The cards ``_danger`` gives 20 points or more in this contract (a queen, the K♥)."""
    m = np.int64(0)
    if contract == DAMET or contract == GENERAL:
        m |= QUEENS
    if contract == RAY or contract == GENERAL:
        m |= KH_MASK
    return m


@njit(cache=True)
def _capture_risk(c: int, contract: int, unseen: int, kh_value: float) -> float:
    """Extra cost of keeping a high card that may later capture a danger card of its suit."""
    v = 0.0
    r = c & 7
    if (contract == DAMET or contract == GENERAL) and r > 4:
        if (unseen >> ((c & ~7) | 4)) & 1:
            v += 10.0
    if (contract == RAY or contract == GENERAL) and (c >> 3) == 0 and r > 5:
        if (unseen >> KH) & 1:
            v += 0.4 * kh_value
    return v


@njit(cache=True)
def _high_rank(m: int) -> int:
    """The card of highest rank in a mask (an ace of any suit before any king; among equal
    ranks the highest suit index)."""
    bc = -1
    m = np.int64(m)
    while m:
        c = _low(m)
        m &= m - 1
        if bc < 0 or (c & 7) >= (bc & 7):
            bc = c
    return bc


@njit(cache=True)
def play_one(lg: int, hand: int, played: int, contract: int, best: int, trick_n: int,
             trick_no: int, declared: int, prm: np.ndarray) -> int:
    """The card to play in one game (see HeuristicStrategy.play)."""
    unseen = FULL & ~hand & ~played
    kh_value = 200.0 if declared >= 0 else 100.0
    early_farcha = contract == FARCHA and trick_no < prm[P_FARCHA_SHED_TRICKS]
    if trick_n > 0 and (lg & _suit(best >> 3)) != 0:
        # following suit
        if early_farcha:
            return _high_rank(lg) if prm[P_FARCHA_BY_RANK] else _high(lg)
        danger = _danger_mask(contract)
        under = lg & ((np.int64(1) << best) - 1)
        if under != 0:
            pick = _high(under)
            dv = 0.0
            m = under & danger  # the others' danger is 0: never above dv
            while m:
                c = _low(m)
                m &= m - 1
                d = _danger(c, contract, kh_value)
                if d > dv:
                    dv = d
                    pick = c
            return pick
        lowest = _low(lg)
        safe = lg & ~danger
        sure = trick_n == 3 or (_above(lowest) & unseen) == 0
        if sure:
            return _high(safe) if safe != 0 else _high(lg)
        return _low(safe) if safe != 0 else lowest
    if trick_n > 0:
        # void in the suit led: shed the most dangerous card
        bc = -1
        bs = -1e18
        m = lg
        while m:
            c = _low(m)
            m &= m - 1
            r = c & 7
            top = 8.0 if (_above(c) & unseen) == 0 else 0.0
            n_s = _pc(hand & _suit(c >> 3))
            sc = (100.0 * _danger(c, contract, kh_value)
                  + 10.0 * _capture_risk(c, contract, unseen, kh_value)
                  + 10.0 * (r + top) + (8 - n_s))
            if sc > bs:
                bs = sc
                bc = c
        return bc
    # leading
    if early_farcha:
        return _high_rank(lg) if prm[P_FARCHA_BY_RANK] else _high(lg)
    guard = prm[P_LEAD_GUARD]
    big = _big_danger_mask(contract)
    bc = -1
    bs = 1e18
    m = lg
    while m:
        c = _low(m)
        m &= m - 1
        s = c >> 3
        us = unseen & _suit(s)
        na = _pc(_above(c) & unseen)
        nb = _pc(_below(c) & unseen)
        d = _danger(c, contract, kh_value)
        if us == 0:
            risk = 100.0  # nobody can follow: I take it, with whatever they discard
        elif na == 0:
            risk = 60.0
        else:
            risk = 10.0 * nb / (na + nb)
        if d > 0.0:
            if na > 0 and nb == 0:
                risk -= 5.0 + 0.1 * d  # someone must beat it: a clean dump
            else:
                risk += d * (1.0 if na == 0 else nb / (na + nb))
        else:
            own_d = hand & _suit(s) & ~(np.int64(1) << c) & big
            if own_d != 0:  # the lowest other card of the suit worth 20 or more
                dc = _low(own_d)
                risk += guard + (10.0 if (_above(dc) & unseen) == 0 else 0.0)
        risk += 0.5 * _pc(hand & _suit(s)) + 0.1 * (c & 7)
        if risk < bs:
            bs = risk
            bc = c
    return bc


@njit(cache=True)
def play_kernel(legal: np.ndarray, hand: np.ndarray, played: np.ndarray,
                contract: np.ndarray, best: np.ndarray, trick_n: np.ndarray,
                trick_no: np.ndarray, declared: np.ndarray, prm: np.ndarray,
                out: np.ndarray) -> None:
    """play_one over the batch."""
    for i in range(legal.shape[0]):
        out[i] = play_one(np.int64(legal[i]), np.int64(hand[i]), np.int64(played[i]),
                          contract[i], best[i], trick_n[i], trick_no[i], declared[i], prm)


# ---------------------------------------------------------------- trix placement

@njit(cache=True)
def _opened(c: int, hand: int, placed: int, step: int) -> tuple[int, int]:
    """Walking from card c by step (+1 up, -1 down) within its suit: how many own cards
    follow in a chain, and whether the first next card (if any) belongs to someone else."""
    own = 0
    r = (c & 7) + step
    base = c & ~7
    first = True
    other = 0
    while 0 <= r < 8:
        n = base | r
        if (placed >> n) & 1:
            break
        if (hand >> n) & 1:
            own += 1
        else:
            if first:
                other = 1
            break
        first = False
        r += step
    return own, other


@njit(cache=True)
def place_one(lg: int, h: int, pl: int, prm: np.ndarray) -> int:
    """Place the card that frees most of one's own next cards and least of the others'
    (an ace also gives another turn); cards that open nothing cost nothing to place."""
    w_own = prm[P_PLACE_OWN]
    w_other = prm[P_PLACE_OTHER]
    w_ace = prm[P_PLACE_ACE]
    bc = -1
    bs = -1e18
    m = lg
    while m:
        c = _low(m)
        m &= m - 1
        r = c & 7
        own = 0
        other = 0
        if r >= 3:
            o, x = _opened(c, h, pl, 1)
            own += o
            other += x
        if r <= 3:
            o, x = _opened(c, h, pl, -1)
            own += o
            other += x
        sc = w_own * own - w_other * other + (w_ace if r == 7 else 0.0) - 0.01 * c
        if sc > bs:
            bs = sc
            bc = c
    return bc


@njit(cache=True)
def place_kernel(legal: np.ndarray, hand: np.ndarray, played: np.ndarray, prm: np.ndarray,
                 out: np.ndarray) -> None:
    """place_one over the batch."""
    for i in range(legal.shape[0]):
        out[i] = place_one(np.int64(legal[i]), np.int64(hand[i]), np.int64(played[i]), prm)


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
