"""The ``heuristic`` strategy's card play (follow, shed or lead by the contract's danger
cards) and trix placements: one game per call (``play_one``, ``place_one``), and looped
over a batch for the strategy's methods. Cards are ``suit * 8 + rank`` with ranks
7 8 9 J Q K 10 A = 0..7 (trixsim.games.trix.cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trixsim.strategies import heuristic_params
from trixsim.strategies.heuristic_params import (
    FULL,
    KH,
    P_FARCHA_BY_RANK,
    P_FARCHA_SHED_TRICKS,
    P_LEAD_GUARD,
    P_PLACE_ACE,
    P_PLACE_OTHER,
    P_PLACE_OWN,
    cards_above,
    cards_below,
    suit_cards,
)

from trixsim.games.trix import cards
from trixsim.games.trix.cards import DIAMOND_MASK, KH_MASK, QUEENS
from trixsim.games.trix.cards import bit_count as _pc
from trixsim.games.trix.cards import high_card as _high
from trixsim.games.trix.cards import low_card as _low
from trixsim.games.trix.types import DAMET, DINERI, FARCHA, GENERAL, RAY
from trixsim.jitcache import guard, sources

# its compiled code includes the card functions and suit masks it calls
guard(__file__, sources(cards, heuristic_params))

@njit(cache=True, inline="always")
def _danger_masks(contract: int) -> tuple[int, int, int]:
    """The cards that carry points to whoever takes them in this contract, by kind: the
    diamonds (10 each), the queens (20 each), the K♥ (its estimated value); a kind the
    contract does not count is an empty mask."""
    return (DIAMOND_MASK if contract == DINERI or contract == GENERAL else 0,
            QUEENS if contract == DAMET or contract == GENERAL else 0,
            KH_MASK if contract == RAY or contract == GENERAL else 0)


@njit(cache=True)
def _danger(c: int, contract: int, kh_value: float) -> float:
    """Points a card carries to whoever takes it in this contract."""
    diamonds, queens, kh = _danger_masks(contract)
    v = 0.0
    if (diamonds >> c) & 1:
        v += 10.0
    if (queens >> c) & 1:
        v += 20.0
    if (kh >> c) & 1:
        v += kh_value
    return v


@njit(cache=True)
def _danger_mask(contract: int) -> int:
    """The cards ``_danger`` gives points to in this contract, as a mask."""
    diamonds, queens, kh = _danger_masks(contract)
    return np.int64(diamonds | queens | kh)


@njit(cache=True)
def _big_danger_mask(contract: int) -> int:
    """The cards ``_danger`` gives 20 points or more in this contract (a queen, the K♥)."""
    _, queens, kh = _danger_masks(contract)
    return np.int64(queens | kh)


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


@njit(cache=True, inline="always")
def play_one(lg: int, hand: int, played: int, contract: int, best: int, trick_n: int,
             trick_no: int, declared: int, prm: np.ndarray) -> int:
    """The card to play in one game (see HeuristicStrategy.play)."""
    unseen = FULL & ~hand & ~played
    kh_value = 200.0 if declared >= 0 else 100.0
    early_farcha = contract == FARCHA and trick_no < prm[P_FARCHA_SHED_TRICKS]
    if trick_n > 0 and (lg & suit_cards(best >> 3)) != 0:
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
        sure = trick_n == 3 or (cards_above(lowest) & unseen) == 0
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
            top = 8.0 if (cards_above(c) & unseen) == 0 else 0.0
            n_s = _pc(hand & suit_cards(c >> 3))
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
        us = unseen & suit_cards(s)
        na = _pc(cards_above(c) & unseen)
        nb = _pc(cards_below(c) & unseen)
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
            own_d = hand & suit_cards(s) & ~(np.int64(1) << c) & big
            if own_d != 0:  # the lowest other card of the suit worth 20 or more
                dc = _low(own_d)
                risk += guard + (10.0 if (cards_above(dc) & unseen) == 0 else 0.0)
        risk += 0.5 * _pc(hand & suit_cards(s)) + 0.1 * (c & 7)
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


@njit(cache=True, inline="always")
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
