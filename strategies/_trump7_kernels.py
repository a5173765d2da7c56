"""Compiled decisions of trump7's ``heuristic`` (strategies/trump7_heuristic.py).

One function, ``decide_row``, answers a decision from the public columns of a game's
state row (``trixsim.games.trump7.state.COL``), the seat's own hand and the parameter
vector: the compiled policy calls it on the live row, the strategy's methods on rows
rebuilt from observations, so both paths give the same actions. It never reads
``hands`` or ``stock`` (they are zero in a rebuilt row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import policykit
from trixsim.choice import count
from trixsim.games.trump7 import cards, policy, state
from trixsim.games.trump7.cards import ACE, JACK, N_RANKS, QUEEN, SUIT_MASK
from trixsim.games.trump7.policy import state_row
from trixsim.games.trump7.state import BID, COL
from trixsim.jitcache import guard, sources
from trixsim.policykit import POLICY_SIG, param_vector

guard(__file__, sources(cards, policy, policykit, state), tuple(COL.items()))

(P_BID_TRUMP, P_BID_ACE, P_BID_KING, P_BID_SCALE, P_BID_SHADE, P_TRUMP_THRESHOLD,
 P_OVERTRUMP_RISK, P_HONOUR_GUARD, P_LEAD_TRUMPS, P_LEAD_BOSS) = range(10)
N_PARAMS = 10

_PHASE, _TRUMP, _TRICK_N = COL["phase"], COL["trump"], COL["trick_n"]
_BEST, _TRICK_CARDS, _PLAYED = COL["best_card"], COL["trick_cards"], COL["played"]
_FULL = (np.int64(1) << 52) - 1


@njit(cache=True, inline="always")
def suit_cards(mask: int, suit: int) -> int:
    """The cards of ``suit`` in ``mask``."""
    return np.int64(mask) & (np.int64(SUIT_MASK) << (N_RANKS * suit))


@njit(cache=True)
def lowest(mask: int) -> int:
    """The card of lowest rank in ``mask`` (the lowest suit on a tie); -1 if empty."""
    best, m = -1, np.int64(mask)
    while m:
        c = count((m & -m) - 1)
        m &= m - 1
        if best < 0 or c % N_RANKS < best % N_RANKS:
            best = c
    return best


@njit(cache=True)
def highest(mask: int) -> int:
    """The card of highest rank in ``mask`` (the lowest suit on a tie); -1 if empty."""
    best, m = -1, np.int64(mask)
    while m:
        c = count((m & -m) - 1)
        m &= m - 1
        if best < 0 or c % N_RANKS > best % N_RANKS:
            best = c
    return best


@njit(cache=True, inline="always")
def higher_unseen(card: int, unseen: int) -> int:
    """How many unseen cards of ``card``'s suit outrank it."""
    above = np.int64(SUIT_MASK) & ~((np.int64(1) << (card % N_RANKS + 1)) - 1)
    return count(np.int64(unseen) & (above << (N_RANKS * (card // N_RANKS))))


@njit(cache=True, inline="always")
def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best`` (as the rules decide it)."""
    if card // N_RANKS == best // N_RANKS:
        return card > best
    return card // N_RANKS == trump


@njit(cache=True, inline="always")
def honour(card: int, trump: int) -> int:
    """Points of a trump honour (5, 4, 3), else 0."""
    if card // N_RANKS != trump:
        return 0
    r = card % N_RANKS
    return 5 if r == ACE else 4 if r == JACK else 3 if r == QUEEN else 0


@njit(cache=True)
def bid(hand: int, trump: int, p: np.ndarray) -> int:
    """Tricks announced: trumps, side aces and kings of the seven cards, weighted, scaled
    to the thirteen tricks of a game and shaded down."""
    trumps = count(suit_cards(hand, trump))
    aces = kings = 0
    for s in range(4):
        if s != trump:
            aces += (np.int64(hand) >> (N_RANKS * s + ACE)) & 1
            kings += (np.int64(hand) >> (N_RANKS * s + ACE - 1)) & 1
    est = trumps * p[P_BID_TRUMP] + aces * p[P_BID_ACE] + kings * p[P_BID_KING]
    b = int(np.floor(est * p[P_BID_SCALE] - p[P_BID_SHADE] + 0.5))
    return min(13, max(0, b))


@njit(cache=True)
def lead(legal: int, hand: int, trump: int, unseen: int, p: np.ndarray) -> int:
    """Draw trumps when long in them, else cash a side card nobody can beat, else the
    lowest card of the longest side suit."""
    tr = suit_cards(legal, trump)
    if count(tr) >= p[P_LEAD_TRUMPS]:
        top = highest(tr)
        return top if higher_unseen(top, unseen) == 0 else lowest(tr)
    side = np.int64(legal) & ~tr
    if side == 0:
        return lowest(legal)
    if p[P_LEAD_BOSS] > 0.5:
        boss = -1
        for s in range(4):
            if s == trump:
                continue
            top = highest(suit_cards(side, s))
            if top >= 0 and higher_unseen(top, unseen) == 0 and \
                    (boss < 0 or top % N_RANKS > boss % N_RANKS):
                boss = top
        if boss >= 0:
            return boss
    longest, n_long = -1, -1
    for s in range(4):
        n = count(suit_cards(side, s))
        if s != trump and n > n_long:
            longest, n_long = s, n
    return lowest(suit_cards(side, longest))


@njit(cache=True)
def follow_or_trump(s: np.ndarray, legal: int, hand: int, trump: int, unseen: int,
                    p: np.ndarray) -> int:
    """Second to fourth in a trick: win it cheaply when that is safe, else play low;
    when void, trump it when the trick is worth the risk of an over-trump, saving the
    trump honours from higher unseen trumps, else discard low."""
    n = s[_TRICK_N]
    led = s[_TRICK_CARDS] // N_RANKS
    best = s[_BEST]
    after = 3 - n  # seats still to play after this one
    value = 1
    for k in range(n):
        value += honour(s[_TRICK_CARDS + k], trump)
    follow = suit_cards(legal, led)
    if follow != 0:
        win = np.int64(0)
        m = follow
        while m:
            c = count((m & -m) - 1)
            m &= m - 1
            if beats(c, best, trump):
                win |= np.int64(1) << c
        if win != 0:
            cheap = lowest(win)
            top = highest(win)
            if after == 0:
                return cheap
            if higher_unseen(top, unseen) == 0 and \
                    (honour(top, trump) == 0 or value > 1 or
                     higher_unseen(top, unseen) <= p[P_HONOUR_GUARD]):
                return top  # nobody can take it: it wins
        return lowest(follow)
    tr = suit_cards(legal, trump)
    win = np.int64(0)
    m = tr
    while m:
        c = count((m & -m) - 1)
        m &= m - 1
        if beats(c, best, trump):
            win |= np.int64(1) << c
    if win != 0 and value - after * p[P_OVERTRUMP_RISK] >= p[P_TRUMP_THRESHOLD]:
        cheap = lowest(win)
        if honour(cheap, trump) == 0 or after == 0 or \
                higher_unseen(cheap, unseen) <= p[P_HONOUR_GUARD]:
            return cheap
    side = np.int64(legal) & ~tr
    if side != 0:
        return lowest(side)
    return lowest(legal)


@njit(cache=True)
def decide_row(s: np.ndarray, legal: int, hand: int, p: np.ndarray) -> int:
    """The heuristic's action in the game whose public state row is ``s``."""
    trump = s[_TRUMP]
    if s[_PHASE] == BID:
        return bid(hand, trump, p)
    unseen = _FULL & ~np.int64(s[_PLAYED]) & ~np.int64(hand)
    if s[_TRICK_N] == 0:
        return lead(legal, hand, trump, unseen, p)
    return follow_or_trump(s, legal, hand, trump, unseen, p)


@njit(cache=True)
def decide_rows(rows: np.ndarray, legal: np.ndarray, hand: np.ndarray, p: np.ndarray,
                out: np.ndarray) -> None:
    """``decide_row`` for each row (the strategy's methods)."""
    for g in range(rows.shape[0]):
        out[g] = decide_row(rows[g], legal[g], hand[g], p)


@njit(POLICY_SIG, cache=True)
def heuristic_policy(row: int, legal: int, hand: int, subkey: int, params: int,
                     n_params: int) -> int:
    """The compiled policy: ``decide_row`` on the live state row."""
    return decide_row(state_row(row), legal, hand, param_vector(params, n_params))
