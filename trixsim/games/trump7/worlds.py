"""trump7's worlds for search: what a seat's public state says about the hidden cards,
handed to the generic compiled dealer (``trixsim.search.deal``), and a world built from
the deal.

Hidden in trump7 are the other three hands and the order of the stock. A seat knows its
own hand, every card played and by whom, how many cards each seat holds (seven, plus one
a drawing round, minus the cards it played), the turned card (the last of the stock, or
with the seat that drew it), and the suits each seat failed to follow. A void in trump7
is not for ever: a seat that showed out of a suit may draw that suit afterwards. So a
seat that showed out of suit ``x`` at trick ``t`` (its last such trick) holds now at most
as many cards of ``x`` as it drew after trick ``t``, less the cards of ``x`` it played
since: the dealer caps the seat's cards of that suit at that allowance. ``sample_world``
then checks each dealt hand jointly over the seat's voids (the cards of every suit it
showed out of at ``t`` or later came from its draws after ``t``) and deals again (up to
``TRIES`` times) when one breaks it. The bids are public but
say nothing certain about a hand, so they do not constrain the deal (a rollout reads them
as they stand).

Everything here reads the public columns of a state row and the seat's own hand only;
``sample_world`` writes every hidden column of the world (all four hands and all 24 stock
slots), so a live row's hidden cards never reach a world.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.games.trump7 import cards, state
from trixsim.games.trump7.cards import N_RANKS, SUIT_MASK
from trixsim.games.trump7.state import COL, WIDTH
from trixsim.jitcache import guard, sources
from trixsim.rng import mix64
from trixsim.search import deal as deal_module
from trixsim.search.deal import deal_into, popcount, shuffle_cards, work_size

guard(__file__, sources(rng, cards, state, deal_module), tuple(COL.items()))

FULL = (1 << 52) - 1
TRIES = 1024
"""Deals tried for a world before keeping one that breaks the joint void check. Most
worlds fit at the first deal; 32 tries left about one world in 1,800 breaking the check
(31 of 56,000 on trump7-bid positions), 1,024 none of 56,000 (``tests/test_trump7_pimc``);
the cost falls only on the rare tight positions."""
STOCK_HOLDER = 3
"""The stock's place among the dealer's holders, after the three other seats."""
WORK = work_size(4, 4)
"""Working space ``sample_world`` needs."""

_TURN, _PLAYED, _PLAYED_BY = COL["turn"], COL["played"], COL["played_by"]
_HANDS, _STOCK, _STOCK_N = COL["hands"], COL["stock"], COL["stock_n"]
_TURNED, _TURNED_HOLDER = COL["turned"], COL["turned_holder"]
_TRICK_NO, _TRICK_LOG = COL["trick_no"], COL["trick_log"]
_TRICK_N, _TRICK_CARDS, _LEADER = COL["trick_n"], COL["trick_cards"], COL["leader"]


@njit(cache=True, inline="always")
def _suit(suit: int) -> int:
    return np.int64(SUIT_MASK) << (N_RANKS * suit)


@njit(cache=True)
def void_history(s: np.ndarray, last: np.ndarray, since: np.ndarray) -> None:
    """Per seat and suit (``[seat, suit]``): the last trick at which the seat failed to
    follow that suit (``last``, -1 never; the current trick counts) and the cards of that
    suit it played in later tricks (``since``)."""
    for p in range(4):
        for x in range(4):
            last[p, x] = -1
            since[p, x] = 0
    n_done = s[_TRICK_NO]
    for j in range(n_done + 1):
        if j < n_done:
            log = np.int64(s[_TRICK_LOG + j])
            leader = log & 0xFF
            n = 4
        else:
            leader = s[_LEADER]
            n = s[_TRICK_N]
        if n == 0:
            continue
        led = -1
        for k in range(n):
            c = (np.int64(s[_TRICK_LOG + j]) >> (8 * k + 8)) & 0xFF if j < n_done \
                else s[_TRICK_CARDS + k]
            p = (leader + k) % 4
            x = c // N_RANKS
            if k == 0:
                led = x
            elif x != led:
                last[p, led] = j
                since[p, led] = 0  # what it played of the suit before counts no more
            if last[p, x] >= 0 and last[p, x] < j:
                since[p, x] += 1


@njit(cache=True, inline="always")
def draws_after(s: np.ndarray, t: int) -> int:
    """Cards each seat drew after trick ``t`` (one per drawing round; rounds follow tricks
    0-5)."""
    return max(0, min(s[_TRICK_NO], 6) - t)


@njit(cache=True)
def hand_fits(s: np.ndarray, p: int, hand: int, last: np.ndarray, since: np.ndarray) -> bool:
    """Whether seat ``p`` may hold ``hand`` given its voids: for each trick ``t`` at which
    it last showed out of some suit, its cards now held or played since of every suit it
    last showed out of at ``t`` or later number at most its draws after ``t``."""
    for x in range(4):
        t = last[p, x]
        if t < 0:
            continue
        used = 0
        for y in range(4):
            if last[p, y] >= t:
                used += popcount(np.int64(hand) & _suit(y)) + since[p, y]
        if used > draws_after(s, t):
            return False
    return True


@njit(cache=True)
def sample_world(s: np.ndarray, me: int, hand: int, seed: int, prm: np.ndarray,
                 W: np.ndarray, work: np.ndarray) -> None:
    """Row 0 of ``W``: the public state ``s`` with the other hands and the stock's order
    dealt from ``seed``, consistently with what seat ``me``, holding ``hand``, has seen
    (see the module doc). ``work``: working space of at least ``WORK`` int64 entries (any
    contents); ``prm`` is unused (the driver's calling convention)."""
    last = np.empty((4, 4), dtype=np.int64)
    since = np.empty((4, 4), dtype=np.int64)
    void_history(s, last, since)
    stock_n = s[_STOCK_N]
    rounds = stock_n // 4
    turned = s[_TURNED]
    th = s[_TURNED_HOLDER]
    played = np.int64(s[_PLAYED])
    unknown = FULL & ~np.int64(hand) & ~played
    if th < 0:
        unknown &= ~(np.int64(1) << turned)  # still under the stock, the last card drawn
    need = np.zeros(4, dtype=np.int64)
    allowed = np.zeros(4, dtype=np.int64)
    fixed = np.zeros(4, dtype=np.int64)
    got = np.zeros(4, dtype=np.int64)
    seats = np.zeros(3, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    caps = np.full((4, 4), 52, dtype=np.int64)
    for x in range(4):
        suits[x] = _suit(x)
    h = 0
    for p in range(4):
        if p == me:
            continue
        seats[h] = p
        need[h] = 7 + rounds - popcount(np.int64(s[_PLAYED_BY + p]))
        a = np.int64(FULL)
        for x in range(4):
            t = last[p, x]
            if t >= 0:
                caps[h, x] = max(0, draws_after(s, t) - since[p, x])
                if caps[h, x] == 0:
                    a &= ~_suit(x)
        allowed[h] = a
        if p == th:
            fixed[h] = np.int64(1) << turned
        h += 1
    n_stock = 23 - stock_n if stock_n < 24 else 0
    need[STOCK_HOLDER] = n_stock
    allowed[STOCK_HOLDER] = FULL
    x = np.uint64(seed)
    for attempt in range(TRIES):
        x = mix64(x + np.uint64(attempt + 1))
        deal_into(unknown, 4, need, allowed, fixed, np.int64(x), got, suits, caps, work)
        ok = True
        for k in range(3):
            if not hand_fits(s, seats[k], got[k], last, since):
                ok = False
                break
        if ok:
            break
    for k in range(WIDTH):
        W[0, k] = s[k]
    W[0, _HANDS + me] = hand
    for k in range(3):
        W[0, _HANDS + seats[k]] = got[k]
    order = work[:64]
    n = shuffle_cards(got[STOCK_HOLDER], np.int64(mix64(x ^ np.uint64(0xA5A5A5A5))), order)
    for k in range(24):
        W[0, _STOCK + k] = -1
    for k in range(n):
        W[0, _STOCK + stock_n + k] = order[k]
    if stock_n < 24:
        W[0, _STOCK + 23] = turned


__all__ = ["STOCK_HOLDER", "TRIES", "WORK", "draws_after", "hand_fits", "sample_world",
           "void_history"]
