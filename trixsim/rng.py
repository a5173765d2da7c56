"""Counter-based randomness: every random draw is a pure function of its coordinates.

A deal depends only on (run seed, game index, contract number), and a strategy's draw only
on (run seed, game index, decision number: the public ``ply``, tagged on the K♥ question;
see ``trixsim.games.trix.policy.key_counter``), so results do not depend on batch size,
worker count or chunking, and two strategies compared on one seed get the same deals.
The mixer is SplitMix64's finaliser.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_K0 = np.uint64(0x9E3779B97F4A7C15)
_K1 = np.uint64(0xD6E8FEB86659FD93)
_K2 = np.uint64(0xA0761D6478BD642F)
_K3 = np.uint64(0xE7037ED1A0B428DB)
_K4 = np.uint64(0x8EBC6AF09C88C6E3)

STREAM_DEAL = 1
STREAM_FIRST_PICKER = 2
STREAM_STRATEGY = 3


@njit(cache=True)
def mix64(x: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijective, well-mixing map of 64-bit words."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def hash4(seed: int, stream: int, a: int, b: int) -> np.uint64:
    """One uint64 from a seed, a stream id and two coordinates."""
    x = mix64(np.uint64(seed) * _K0)
    x = mix64(x ^ (np.uint64(stream) * _K1))
    x = mix64(x ^ (np.uint64(a) * _K2))
    return mix64(x ^ (np.uint64(b) * _K3))


@njit(cache=True)
def below(key: np.uint64, n: int) -> int:
    """An integer uniform in [0, n) from a uint64 key (multiply-high; n <= 2**32)."""
    return int(((key >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def hash_keys(seed: int, stream: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """hash4 over arrays of coordinates."""
    out = np.empty(a.shape[0], dtype=np.uint64)
    for i in range(a.shape[0]):
        out[i] = hash4(seed, stream, a[i], b[i])
    return out


@njit(cache=True)
def uniform_below(keys: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``below`` over arrays: integers uniform in [0, n[i])."""
    out = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        out[i] = below(keys[i], n[i])
    return out


@njit(cache=True)
def first_picker(seed: int, game_id: int) -> int:
    """The seat that picks first in a game, drawn at random (docs/rules.md §3)."""
    return below(hash4(seed, STREAM_FIRST_PICKER, game_id, 0), 4)


@njit(cache=True)
def shuffle(base: np.uint64, out: np.ndarray) -> None:
    """Shuffle ``out`` in place, keyed by ``base`` (a ``hash4`` of the game's coordinates):
    every game's chance (trump7's packs; Trix's deals take the same steps in ``deal_one``).

    A Fisher-Yates shuffle, from the last position down; each 64-bit counter-based draw
    gives two 32-bit halves, each mapped to [0, i] by multiply-high (bias below 2**-26 for
    up to 64 items).
    """
    x = np.uint64(0)
    for i in range(out.shape[0] - 1, 0, -1):
        if i & 1:
            x = mix64(base + np.uint64(i) * _K4)
        else:
            x = x << np.uint64(32)
        j = below(x, i + 1)
        t = out[i]
        out[i] = out[j]
        out[j] = t


@njit(cache=True)
def deal_one(seed: int, game_id: int, contract_no: int, out: np.ndarray) -> None:
    """Write one uniform deal into ``out`` (4 hand masks): the 32 cards shuffled
    (``shuffle``), seat ``s`` receiving the cards at positions 8s .. 8s+7.

    ``shuffle``'s steps, written out: its Fisher-Yates fixes position ``i`` at step ``i``
    (nothing later moves it), so the card landing there goes straight into its seat's
    hand and is never stored; the same deals, about a fifth faster (a deal starts every
    contract of every game)."""
    base = hash4(seed, STREAM_DEAL, game_id, contract_no)
    perm = np.arange(32)
    m0 = np.uint32(0)
    m1 = np.uint32(0)
    m2 = np.uint32(0)
    m3 = np.uint32(0)
    x = np.uint64(0)
    for i in range(31, 0, -1):
        if i & 1:
            x = mix64(base + np.uint64(i) * _K4)
        else:
            x = x << np.uint64(32)
        j = below(x, i + 1)
        bit = np.uint32(1) << np.uint32(perm[j])  # the card that lands at position i
        perm[j] = perm[i]
        s = i >> 3
        if s == 3:
            m3 |= bit
        elif s == 2:
            m2 |= bit
        elif s == 1:
            m1 |= bit
        else:
            m0 |= bit
    out[0] = m0 | (np.uint32(1) << np.uint32(perm[0]))
    out[1] = m1
    out[2] = m2
    out[3] = m3


@njit(cache=True)
def deal(seed: int, game_ids: np.ndarray, contract_nos: np.ndarray) -> np.ndarray:
    """Deals for many (game, contract) pairs: a (n, 4) uint32 array of hand masks."""
    out = np.empty((game_ids.shape[0], 4), dtype=np.uint32)
    for i in range(game_ids.shape[0]):
        deal_one(seed, game_ids[i], contract_nos[i], out[i])
    return out
