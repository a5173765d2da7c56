"""Counter-based randomness: every random draw is a pure function of its coordinates.

A deal depends only on (run seed, game index, contract number), and a strategy's draw only
on (run seed, game index, decision number, stream), so results do not depend on batch
size, worker count or chunking, and two strategies compared on one seed get the same deals.
The mixer is SplitMix64's finaliser over a combination of the coordinates.
"""

from __future__ import annotations

import numpy as np

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_K = [np.uint64(k) for k in (0x9E3779B97F4A7C15, 0xD6E8FEB86659FD93, 0xA0761D6478BD642F,
                              0xE7037ED1A0B428DB, 0x8EBC6AF09C88C6E3)]

STREAM_DEAL = 1
STREAM_FIRST_PICKER = 2
STREAM_STRATEGY = 3


def _mix(x: np.ndarray) -> np.ndarray:
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def hash_keys(seed: int, *coords: np.ndarray | int) -> np.ndarray:
    """A well-mixed uint64 per element from the seed and up to four coordinate arrays."""
    x = _mix(np.asarray([(seed * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64))
    for k, c in zip(_K[1:], coords):
        x = _mix(x ^ (np.asarray(c).astype(np.uint64) * k))
    return x


def uniform_below(keys: np.ndarray, n: np.ndarray | int) -> np.ndarray:
    """Map uint64 keys to integers uniform in [0, n) (n <= 2**32; multiply-high method)."""
    hi = keys >> np.uint64(32)
    return ((hi * np.asarray(n).astype(np.uint64)) >> np.uint64(32)).astype(np.int64)


def first_pickers(seed: int, game_ids: np.ndarray) -> np.ndarray:
    """The seat that picks first in each game, drawn at random."""
    return uniform_below(hash_keys(seed, STREAM_FIRST_PICKER, game_ids), 4).astype(np.int8)


_COL_KEYS = np.arange(32, dtype=np.uint64) * _K[4]
_CARD_IDS = np.arange(32, dtype=np.uint64)
_CHUNK = 4096  # rows per block, so the (rows, 32) temporaries stay in cache


def deal(seed: int, game_ids: np.ndarray, contract_nos: np.ndarray) -> np.ndarray:
    """Uniform deals, a (n, 4) uint32 array of hand masks, one row per (game, contract).

    Each card gets a 42-bit counter-based random key (the card id fills the low bits, so
    keys are distinct); sorting a row's keys gives a uniform permutation, and seat ``s``
    receives the cards at sorted positions ``8s .. 8s+7``.
    """
    n = len(game_ids)
    base = hash_keys(seed, STREAM_DEAL, game_ids, contract_nos)
    out = np.empty((n, 4), dtype=np.uint32)
    for start in range(0, n, _CHUNK):
        b = base[start:start + _CHUNK]
        x = b[:, None] + _COL_KEYS[None, :]
        x ^= x >> np.uint64(30)
        x *= _M1
        x ^= x >> np.uint64(27)
        x *= _M2
        x ^= x >> np.uint64(31)
        x >>= np.uint64(22)
        x <<= np.uint64(5)
        x |= _CARD_IDS[None, :]
        x.sort(axis=1)
        cards = (x & np.uint64(31)).astype(np.uint32)
        bits = (np.uint32(1) << cards).reshape(len(b), 4, 8)
        out[start:start + len(b)] = np.bitwise_or.reduce(bits, axis=2)
    return out
