"""Deal the cards a seat cannot see, from constraints a game supplies: compiled, generic.

A game describes what one seat knows as *holders* (the other seats and, in a game with a
hidden stock, the stock), and per holder how many unknown cards it takes (``need``),
which cards it may take (``allowed``: a seat that showed out of a suit takes none of it),
at most how many of a group of cards it may take (``caps``: trump7's seat that showed out
of a suit and drew since) and which it is known to hold (``fixed``: Trix's declared K♥,
trump7's turned card once drawn). ``deal_hidden`` shares the unknown cards out
accordingly: the fixed cards first, then the rest shuffled, the cards with the fewest
possible holders first, each to a random holder that may take it, weighted by the cards
that holder still needs. It reads nothing but those arrays, so no hidden card can reach
it.

Randomness is a SplitMix64 stream from ``seed`` alone, so a world depends only on the
decision's key and the world's number (reproducible whatever the workers or batches).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.jitcache import guard, sources
from trixsim.rng import mix64

guard(__file__, sources(rng))

MAX_HOLDERS = 8
"""Room for holders in the callers' scratch arrays."""


@njit(cache=True, inline="always")
def next_state(x: np.uint64) -> np.uint64:
    """The next state of a SplitMix64 stream."""
    return x + np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def below(x: np.uint64, n: int) -> int:
    """An integer in [0, n) from a state of the stream (multiply-high)."""
    return int(((mix64(x) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def popcount(mask: int) -> int:
    """Number of set bits of a non-negative int64 mask."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2))
                                                & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


def work_size(n_holders: int, n_groups: int) -> int:
    """Entries of the working space ``deal_into`` needs (for sizing the callers' arrays)."""
    return 128 + n_holders * (2 + max(n_groups, 1))


@njit(cache=True)
def deal_hidden(unknown: int, n_holders: int, need0: np.ndarray, allowed: np.ndarray,
                fixed: np.ndarray, seed: int, out: np.ndarray, groups: np.ndarray,
                caps: np.ndarray) -> bool:
    """Share the cards of ``unknown`` among holders ``0 .. n_holders - 1`` into ``out``
    (a card mask per holder): holder h gets ``need0[h]`` cards, all within
    ``allowed[h]``, at most ``caps[h, g]`` of the cards of ``groups[g]`` (card masks, e.g.
    suits; none: no caps), and every card of ``fixed[h]`` that is unknown (while it still
    needs cards). Returns False if 64 attempts all dead-ended; the last deal then ignores
    ``allowed`` and ``caps`` (the caller may check the world and reject it). Allocates
    its working space; a search dealing many worlds passes its own to ``deal_into``."""
    work = np.empty(128 + n_holders * (2 + max(groups.shape[0], 1)), dtype=np.int64)
    return deal_into(unknown, n_holders, need0, allowed, fixed, seed, out, groups, caps,
                     work)


@njit(cache=True)
def deal_into(unknown: int, n_holders: int, need0: np.ndarray, allowed: np.ndarray,
              fixed: np.ndarray, seed: int, out: np.ndarray, groups: np.ndarray,
              caps: np.ndarray, work: np.ndarray) -> bool:
    """``deal_hidden`` in the caller's working space ``work`` (at least ``work_size``
    int64 entries, any contents): the same deal, nothing allocated."""
    n_groups = groups.shape[0]
    ng = max(n_groups, 1)
    order = work[:64]
    holders_of = work[64:128]  # per shuffled card: how many holders may take it
    need = work[128:128 + n_holders]
    share = work[128 + n_holders:128 + 2 * n_holders]
    taken = work[128 + 2 * n_holders:128 + n_holders * (2 + ng)]  # [h * ng + g]
    x = np.uint64(seed)
    for attempt in range(65):
        relax = attempt == 64
        for h in range(n_holders):
            out[h] = 0
            need[h] = need0[h]
            for g in range(n_groups):
                taken[h * ng + g] = 0
        left = np.int64(unknown)
        for h in range(n_holders):
            f = np.int64(fixed[h]) & left
            while f and need[h] > 0:
                c = f & -f
                f &= f - 1
                out[h] |= c
                need[h] -= 1
                left &= ~c
                for g in range(n_groups):
                    if groups[g] & c:
                        taken[h * ng + g] += 1
        n = 0
        m = left
        while m:  # the cards, shuffled
            c = popcount((m & -m) - 1)
            m &= m - 1
            x = next_state(x)
            j = below(x, n + 1)
            order[n] = order[j]
            order[j] = c
            n += 1
        for i in range(n):
            c = order[i]
            cnt = 0
            for h in range(n_holders):
                if relax or (allowed[h] >> c) & 1:
                    cnt += 1
            holders_of[i] = cnt
        ok = True
        for k in range(1, n_holders + 1):  # fewest possible holders first
            for i in range(n):
                cnt = holders_of[i]
                if cnt != k and not (k == n_holders and cnt == 0):
                    continue
                c = order[i]
                grp = -1
                for g in range(n_groups):
                    if (groups[g] >> c) & 1:
                        grp = g
                total = 0
                for h in range(n_holders):  # each holder's share: its need, if it may
                    e = 0
                    if need[h] > 0 and (relax or ((allowed[h] >> c) & 1 and
                                                  (grp < 0 or taken[h * ng + grp]
                                                   < caps[h, grp]))):
                        e = need[h]
                    share[h] = e
                    total += e
                if total == 0:
                    ok = False
                    break
                x = next_state(x)
                r = below(x, total)
                h = 0  # the first holder whose running share total exceeds r
                acc = 0
                for k2 in range(n_holders):
                    acc += share[k2]
                    h += acc <= r
                out[h] |= np.int64(1) << c
                need[h] -= 1
                if grp >= 0:
                    taken[h * ng + grp] += 1
            if not ok:
                break
        if ok:
            return not relax
    return False


@njit(cache=True)
def shuffle_cards(mask: int, seed: int, out: np.ndarray) -> int:
    """The cards of ``mask`` in a random order into ``out`` (a uniform shuffle from the
    stream of ``seed``); returns how many."""
    x = np.uint64(seed)
    n = 0
    m = np.int64(mask)
    while m:
        c = popcount((m & -m) - 1)
        m &= m - 1
        x = next_state(x)
        j = below(x, n + 1)
        out[n] = out[j]
        out[j] = c
        n += 1
    return n


__all__ = ["MAX_HOLDERS", "below", "deal_hidden", "deal_into", "next_state", "popcount",
           "shuffle_cards", "work_size"]
