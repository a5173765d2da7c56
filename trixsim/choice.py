"""Uniform random choice among the set bits of action masks: the base strategy's answer
to any decision of any game (masks up to 63 actions)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def nth_bit(mask: int, n: int) -> int:
    """The n-th set bit (0-based, ascending) of a mask; -1 if it has fewer than n+1."""
    m = np.int64(mask)
    k = 0
    while m != 0:
        low = m & -m
        if k == n:
            c = 0
            while low > 1:
                low >>= 1
                c += 1
            return c
        m ^= low
        k += 1
    return -1


@njit(cache=True)
def choose_uniform(masks: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Per row, an action (a set bit of the mask) uniform among the mask's set bits, drawn
    from the uint64 key's high half by multiply-high; -1 for an empty mask."""
    out = np.empty(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        m = np.int64(masks[i])
        cnt = 0
        x = m
        while x != 0:
            x &= x - 1
            cnt += 1
        if cnt == 0:
            out[i] = -1
        else:
            r = np.int64(((keys[i] >> np.uint64(32)) * np.uint64(cnt)) >> np.uint64(32))
            out[i] = nth_bit(m, r)
    return out


__all__ = ["choose_uniform", "nth_bit"]
