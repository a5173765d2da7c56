"""Perfect-information Monte-Carlo search, compiled and generic: one driver every game's
``pimc`` calls with its own functions.

For a decision with legal actions ``lg`` (a mask, at most 64 actions), the driver
samples ``n_worlds`` worlds consistent with what the deciding seat saw and, in every
world, plays each legal action and then the rest of the game (or of whatever span the
game's rollout covers) with the rollout policy for every seat, adding the deciding seat's
utility to the action's score. The game supplies, as compiled functions:

- ``sample(s, me, hand, wkey, prm, W, work)``: write into row 0 of ``W`` a world: the
  public state row ``s`` with the hidden information (the other hands, a hidden stock's
  order) drawn from ``wkey`` consistently with what ``me``, holding ``hand``, has seen;
  ``work`` is working space (``SAMPLE_WORK`` int64 entries, any contents) allocated once
  per decision, so that dealing a world allocates nothing;
- ``apply(W, a)``: play action ``a`` for the seat to act in the world;
- ``rollout(W, prm, wkey)``: play the world to the end of the span the game searches;
- ``utility(W, me, prm)``: the seat's value of the finished world, **higher is better**:
  each game turns its points into that from its own direction (trump7 maximises its
  points, Trix minimises them).

``specialise`` binds them and compiles the driver as a function of the game's kernel
module (the functions are globals of the bound driver, so numba calls them directly
instead of passing function objects around, which it could not cache).

Every world is keyed by the decision's key and the world's number alone (``world_key``),
every action is tried in the same worlds, and the scores are summed in a fixed order, so
the choice depends on nothing but the public state, the hand and the key: the same on the
compiled and the stepwise path, whatever the batch or the workers. ``best_action`` takes
the highest score, ties to the lowest action id.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.jitcache import guard, sources
from trixsim.rng import mix64

guard(__file__, sources(rng))

MAX_ACTIONS = 64
"""Actions are bits of an int64 mask."""
SAMPLE_WORK = 512
"""Entries of the working space the driver lends a game's world sampler."""


@njit(cache=True, inline="always")
def world_key(key: int, w: int) -> int:
    """The key of world ``w`` of the decision keyed ``key``."""
    return np.int64(mix64(np.uint64(key) ^ np.uint64(0x5851F42D4C957F2D * (w + 1))))


@njit(cache=True, inline="always")
def low_bit(m: int) -> int:
    """The index of the lowest set bit of a non-zero int64 mask."""
    x = np.uint64((m & -m) - 1)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2))
                                                & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


def _unbound(*args: object) -> None:
    """Stands for a game function until ``specialise`` binds the game's own."""
    raise TypeError("the search driver was called without a game's functions "
                    "(use trixsim.search.pimc.specialise)")


sample = apply = rollout = utility = _unbound


def _pimc_scores(s: np.ndarray, me: int, lg: int, hand: int, key: int, n_worlds: int,
                 prm: np.ndarray, score: np.ndarray) -> None:
    """Add to ``score[a]`` each legal action's utility for seat ``me``, summed over
    ``n_worlds`` sampled worlds (``score`` has ``MAX_ACTIONS`` entries; see the module
    doc). Worlds are rows as wide as ``s``. ``sample``, ``apply``, ``rollout`` and
    ``utility`` are the game's, bound by ``specialise``."""
    width = s.shape[0]
    base = np.zeros((1, width), dtype=np.int64)
    W = np.zeros((1, width), dtype=np.int64)
    work = np.empty(SAMPLE_WORK, dtype=np.int64)
    for w in range(n_worlds):
        wkey = world_key(key, w)
        sample(s, me, hand, wkey, prm, base, work)
        m = np.int64(lg)
        while m:
            a = low_bit(m)
            m &= m - 1
            for k in range(width):
                W[0, k] = base[0, k]
            apply(W, a)
            rollout(W, prm, wkey)
            score[a] += utility(W, me, prm)


def specialise(module: str, name: str, *, sample: Callable, apply: Callable,
               rollout: Callable, utility: Callable, inline: bool = False) -> Callable:
    """The driver bound to one game's compiled functions, compiled as a function of the
    game's kernel module ``module`` (its ``__name__``) called ``name``: the game's calls
    are direct calls (numba sees them as globals, not values), and the compiled code is
    cached with that module's kernels, so the module's ``jitcache.guard`` (which must
    fingerprint this module's source too) drops it when either changes. ``inline``: numba
    inlines it into its callers (as it does the game's functions marked so)."""
    mod = sys.modules[module]
    code = _pimc_scores.__code__.replace(co_filename=mod.__file__, co_name=name,
                                         co_qualname=name)
    env = dict(_pimc_scores.__globals__)
    env.update(sample=sample, apply=apply, rollout=rollout, utility=utility)
    fn = types.FunctionType(code, env, name)
    fn.__module__ = module
    fn.__qualname__ = name
    fn.__doc__ = _pimc_scores.__doc__
    return njit(cache=True, nogil=True, inline="always" if inline else "never")(fn)


@njit(cache=True)
def best_action(lg: int, score: np.ndarray) -> int:
    """The legal action with the highest score, the lowest id among equals."""
    best = -1
    bs = -1e300
    m = np.int64(lg)
    while m:
        a = low_bit(m)
        m &= m - 1
        if score[a] > bs:  # strict: ties keep the lowest action id
            bs = score[a]
            best = a
    return best


__all__ = ["MAX_ACTIONS", "SAMPLE_WORK", "best_action", "low_bit", "specialise",
           "world_key"]
