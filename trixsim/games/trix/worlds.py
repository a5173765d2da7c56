"""Search from compiled code: sample the hidden cards, build a world, play it out.

The compiled counterpart of ``trixsim.search`` for bots that search inside a policy
(``trixsim.games.trix.policy``): everything here reads only the public columns of a state
row and the searching seat's own hand.

- ``sample_hands(s, seat, hand, seed, out)`` deals the cards ``seat`` cannot see to the
  other seats: as many as each still holds, none of a suit a seat has shown out of, and a
  declared K♥ that is still out to its declarer;
- ``make_world(s, hands, W)`` writes row 0 of ``W`` as the state with those hands, set to
  stop when the current contract ends;
- ``apply(W, action)`` plays one action for the seat to act (False if illegal), and
  ``forced(W)`` gives the pass a rollout must play without asking (else -1).

A rollout then loops ``forced``/``apply`` with its own policy until ``W[0]``'s decision
column (``policy.C["decision"]``) is ``DONE``; the contract's points are in the world's
``points`` and the totals after it in ``totals`` (see ``strategies/_pimc_kernels.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.games.trix import cards, policy, rules, state
from trixsim.games.trix.cards import KH_MASK, bit_count
from trixsim.games.trix.rules import _is_legal, legal_one, step_one
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.types import DONE, PASS, PLACE
from trixsim.jitcache import guard, sources
from trixsim.rng import mix64

guard(__file__, sources(cards, rng, policy, rules, state), tuple(COL.items()), DONE, PASS,
      PLACE)

FULL = 0xFFFFFFFF
_HANDS = COL["hands"]
_PLAYED = COL["played"]
_PLAYED_BY = COL["played_by"]
_VOIDS = COL["voids"]
_DECLARED = COL["declared"]
_STOP_AFTER = COL["stop_after"]
_PHASE = COL["phase"]
_KH = 5


@njit(cache=True, inline="always")
def _next(x: np.uint64) -> np.uint64:
    """The next state of a SplitMix64 stream."""
    return x + np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _below(x: np.uint64, n: int) -> int:
    """An integer in [0, n) from a state of the stream."""
    return int(((mix64(x) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def sample_hands(s: np.ndarray, seat: int, hand: int, seed: int, out: np.ndarray) -> bool:
    """Deal the cards ``seat`` cannot see to the other three seats into ``out`` (four
    hand masks; ``out[seat] = hand``), consistently with the public state ``s``. The most
    constrained cards go first, each to a random seat that may hold it, weighted by the
    cards it still needs. Returns False if 64 attempts all dead-ended (then the last deal
    ignores the shown voids)."""
    unknown = FULL & ~hand & ~np.int64(s[_PLAYED])
    need0 = np.zeros(4, dtype=np.int64)
    allowed = np.zeros(4, dtype=np.int64)
    voids = np.int64(s[_VOIDS])
    for p in range(4):
        if p != seat:
            need0[p] = 8 - bit_count(np.int64(s[_PLAYED_BY + p]))
            a = FULL
            for suit in range(4):
                if (voids >> (4 * p + suit)) & 1:
                    a &= ~(np.int64(0xFF) << (8 * suit))
            allowed[p] = a
    x = np.uint64(seed)
    order = np.empty(32, dtype=np.int64)
    need = np.zeros(4, dtype=np.int64)
    for attempt in range(65):
        relax = attempt == 64
        for p in range(4):
            out[p] = 0
            need[p] = need0[p]
        out[seat] = hand
        left = unknown
        holder = s[_DECLARED]
        if holder >= 0 and holder != seat and (left & KH_MASK) != 0 and need[holder] > 0:
            out[holder] |= KH_MASK
            need[holder] -= 1
            left &= ~KH_MASK
        n = 0
        m = left
        while m:  # the cards, shuffled
            c = bit_count((m & -m) - 1)
            m &= m - 1
            x = _next(x)
            j = _below(x, n + 1)
            order[n] = order[j]
            order[j] = c
            n += 1
        ok = True
        for k in range(1, 4):  # fewest possible holders first
            for i in range(n):
                c = order[i]
                cnt = 0
                for p in range(4):
                    if p != seat and (relax or (allowed[p] >> c) & 1):
                        cnt += 1
                if cnt != k and not (k == 3 and cnt == 0):
                    continue
                total = 0
                for p in range(4):
                    if p != seat and need[p] > 0 and (relax or (allowed[p] >> c) & 1):
                        total += need[p]
                if total == 0:
                    ok = False
                    break
                x = _next(x)
                r = _below(x, total)
                for p in range(4):
                    if p != seat and need[p] > 0 and (relax or (allowed[p] >> c) & 1):
                        if r < need[p]:
                            out[p] |= np.int64(1) << c
                            need[p] -= 1
                            break
                        r -= need[p]
            if not ok:
                break
        if ok:
            return not relax
    return False


@njit(cache=True, inline="always")
def make_world(s: np.ndarray, hands: np.ndarray, W: np.ndarray) -> None:
    """Row 0 of ``W``: the state ``s`` with ``hands``, ending with the current contract."""
    for k in range(WIDTH):
        W[0, k] = s[k]
    for p in range(4):
        W[0, _HANDS + p] = hands[p]
    W[0, _STOP_AFTER] = 1


@njit(cache=True, inline="always")
def forced(W: np.ndarray) -> int:
    """The action the rules take without asking in world ``W`` (the trix pass), else -1;
    also -1 when the world is over."""
    if W[0, _PHASE] == PLACE and legal_one(W, 0) == 0:
        return PASS
    return -1


@njit(cache=True, inline="always")
def legal(W: np.ndarray) -> int:
    """The legal-action mask of the seat to act in world ``W`` (as a policy gets it)."""
    return legal_one(W, 0)


@njit(cache=True, inline="always")
def apply(W: np.ndarray, action: int) -> bool:
    """Play ``action`` for the seat to act in world ``W`` (False, nothing done, if the
    rules refuse it)."""
    lm = legal_one(W, 0)
    if W[0, _PHASE] == PLACE and lm == 0:
        if action != PASS:
            return False
    elif not _is_legal(W, 0, action, lm):
        return False
    step_one(W, 0, action)
    return True


__all__ = ["apply", "forced", "legal", "make_world", "sample_hands"]
