"""Uniform random choice among the set bits of action masks: the base strategy's answer
to any decision of any game (masks up to 63 actions), and the bit kernels every game's
compiled code shares for it (``count``, ``nth_bit``, ``uniform_action``)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def count(mask: int) -> int:
    """Number of set bits of a non-negative int64 mask (any width up to 63 bits)."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2))
                                                & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def nth_bit(mask: int, n: int) -> int:
    """The n-th set bit (0-based, ascending) of a mask; -1 if it has fewer than n + 1."""
    m = np.int64(mask)
    for _ in range(n):
        m &= m - 1
    if m == 0:
        return -1
    return count((m & -m) - 1)


@njit(cache=True, inline="always")
def uniform_action(legal: int, key: int) -> int:
    """An action uniform among the mask's set bits, from the key's high half by
    multiply-high: one game's draw of ``choose_uniform``, for compiled loops."""
    cnt = count(legal)
    r = np.int64(((np.uint64(key) >> np.uint64(32)) * np.uint64(cnt)) >> np.uint64(32))
    return nth_bit(legal, r)


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


__all__ = ["choose_uniform", "count", "nth_bit", "uniform_action"]
