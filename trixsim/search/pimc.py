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
  ``work`` is working space (``SAMPLE_WORK`` int64 entries) allocated and zeroed once
  per decision, so that dealing a world allocates nothing and a sampler may keep what it
  learns about the decision's worlds there from one world to the next;
- ``apply(W, a)``: play action ``a`` for the seat to act in the world;
- ``rollout(W, prm, wkey)``: play the world to the end of the span the game searches;
- ``utility(W, me, prm)``: the seat's value of the finished world, **higher is better**:
  each game turns its points into that from its own direction (trump7 maximises its
  points, Trix minimises them).

``specialise`` binds them and compiles the driver as a function of the game's kernel
module (the functions are globals of the bound driver, so numba calls them directly
instead of passing function objects around, which it could not cache).

Every world is keyed by the decision's key and the world's number alone (``world_key``),
every action is tried in the same worlds (common random numbers: the actions' scores
differ by the actions, not by the luck of their worlds), and the scores are summed in a
fixed order, so the choice depends on nothing but the public state, the hand and the key:
the same on the compiled and the stepwise path, whatever the batch or the workers.
``best_action`` takes the highest score, ties to the lowest action id.

Two savings, both optional:

- **the same world again** (``same_worlds``, for a game whose rollout is a function of the
  world alone, e.g. a deterministic heuristic): late in a hand few deals fit what the seat
  saw, and a world drawn again is not played again; its utilities are those of its first
  draw, so the scores are exactly those of playing it again;
- **pruning** (``prune`` > 0): at checkpoints (after ``PRUNE_FIRST`` worlds, then every
  time the worlds grow by half) an action is dropped when it trails the leader by more
  than ``prune`` standard errors of their per-world differences (paired: the same
  worlds), the variance taken as at least ``floor``² so that a few equal differences do not
  look certain. Dropped actions are played in no further world; the search stops when one
  action is left. ``prune`` = 0 plays every action in every world.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.jitcache import guard, sources
from trixsim.policykit import unowned
from trixsim.rng import mix64

guard(__file__, sources(rng))

MAX_ACTIONS = 64
"""Actions are bits of an int64 mask."""
SAMPLE_WORK = 512
"""Entries of the working space the driver lends a game's world sampler."""
PRUNE_FIRST = 8
"""Worlds played by every action before the first pruning checkpoint."""


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


@njit(cache=True, inline="always")
def row_hash(row: np.ndarray) -> int:
    """A 64-bit hash of an int64 row (to find a world drawn again), in four independent
    lanes so that it costs a few nanoseconds."""
    p = np.uint64(0x100000001B3)
    h0 = np.uint64(0x9E3779B97F4A7C15)
    h1 = np.uint64(0xC2B2AE3D27D4EB4F)
    h2 = np.uint64(0x165667B19E3779F9)
    h3 = np.uint64(0x27D4EB2F165667C5)
    n = row.shape[0]
    k = 0
    while k + 4 <= n:
        h0 = (h0 ^ np.uint64(row[k])) * p
        h1 = (h1 ^ np.uint64(row[k + 1])) * p
        h2 = (h2 ^ np.uint64(row[k + 2])) * p
        h3 = (h3 ^ np.uint64(row[k + 3])) * p
        k += 4
    while k < n:
        h0 = (h0 ^ np.uint64(row[k])) * p
        k += 1
    h = h0 ^ (h1 * np.uint64(3)) ^ (h2 * np.uint64(5)) ^ (h3 * np.uint64(7))
    return np.int64(h ^ (h >> np.uint64(29)))


@njit(cache=True)
def drawn_before(rows: np.ndarray, hashes: np.ndarray, w: int) -> int:
    """The first of worlds ``0 .. w - 1`` equal to world ``w`` (rows of ``rows``, hashes
    in ``hashes``), else -1."""
    for v in range(w):
        if hashes[v] == hashes[w]:
            same = True
            for k in range(rows.shape[1]):
                if rows[v, k] != rows[w, k]:
                    same = False
                    break
            if same:
                return v
    return -1


@njit(cache=True)
def prune_actions(alive: int, score: np.ndarray, U: np.ndarray, n: int, prune: float,
                  floor: float) -> int:
    """The actions of ``alive`` kept after ``n`` worlds (``U[w, a]``: action ``a``'s
    utility in world ``w``; ``score``: their sums): the leader, and every action that does
    not trail it by more than ``prune`` standard errors of the paired differences, the
    variance taken as at least ``floor``²."""
    b = best_action(alive, score)
    m = np.int64(alive)
    while m:
        a = low_bit(m)
        m &= m - 1
        if a == b:
            continue
        mean = (score[b] - score[a]) / n
        if mean <= 0.0:
            continue
        ss = 0.0
        for v in range(n):
            x = U[v, b] - U[v, a] - mean
            ss += x * x
        if mean * mean * n > prune * prune * (ss / (n - 1) + floor * floor):
            alive &= ~(np.int64(1) << a)
    return alive


def _pimc_scores(s: np.ndarray, me: int, lg: int, hand: int, key: int, n_worlds: int,
                 prm: np.ndarray, score: np.ndarray, prune: float, floor: float,
                 same_worlds: bool) -> int:
    """Add to ``score[a]`` each legal action's utility for seat ``me``, summed over the
    worlds it was played in (``score`` has ``MAX_ACTIONS`` entries; see the module doc),
    and return the actions still in the running: ``lg`` unless ``prune`` dropped some;
    those left were played in the same worlds. Worlds are rows as wide as ``s``.
    ``sample``, ``apply``, ``rollout`` and ``utility`` are the game's, bound by
    ``specialise``."""
    width = s.shape[0]
    base = np.zeros((1, width), dtype=np.int64)
    world = np.zeros((1, width), dtype=np.int64)
    W = unowned(world)  # no reference counting at each step of a rollout
    work = np.zeros(SAMPLE_WORK, dtype=np.int64)
    keep = prune > 0.0 or same_worlds
    U = np.empty((n_worlds if keep else 0, MAX_ACTIONS))
    rows = np.empty((n_worlds if same_worlds else 0, width), dtype=np.int64)
    hashes = np.empty(n_worlds if same_worlds else 0, dtype=np.int64)
    alive = np.int64(lg)
    checkpoint = PRUNE_FIRST
    for w in range(n_worlds):
        wkey = world_key(key, w)
        sample(s, me, hand, wkey, prm, base, work)
        v = -1
        if same_worlds:
            for k in range(width):
                rows[w, k] = base[0, k]
            hashes[w] = row_hash(base[0])
            v = drawn_before(rows, hashes, w)
        m = alive
        while m:
            a = low_bit(m)
            m &= m - 1
            if v >= 0:
                u = U[v, a]
            else:
                for k in range(width):
                    W[0, k] = base[0, k]
                apply(W, a)
                rollout(W, prm, wkey)
                u = utility(W, me, prm)
            if keep:
                U[w, a] = u
            score[a] += u
        if prune > 0.0 and w + 1 == checkpoint and w + 1 < n_worlds:
            checkpoint += max(checkpoint // 2, 1)
            alive = prune_actions(alive, score, U, w + 1, prune, floor)
            if alive & (alive - 1) == 0:
                break
    world[0, 0] = 0  # ``world`` is used here, so it stays allocated while ``W`` is used
    return alive


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


__all__ = ["MAX_ACTIONS", "PRUNE_FIRST", "SAMPLE_WORK", "best_action", "drawn_before",
           "low_bit", "prune_actions", "row_hash", "specialise", "world_key"]
