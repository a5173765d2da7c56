"""Search from compiled code: sample the hidden cards, build a world, play it out.

Trix's side of the generic compiled search (``trixsim.search``): the constraints its
worlds respect, for bots that search inside a policy (``trixsim.games.trix.policy``;
the public-API counterpart is ``trixsim.games.trix.search``). Everything here reads only
the public columns of a state row and the searching seat's own hand.

- ``sample_hands(s, seat, hand, seed, out)`` deals the cards ``seat`` cannot see to the
  other seats: as many as each still holds, none of a suit a seat has shown out of, none
  that a seat's trix passes show it cannot hold (``trix_excluded``), and a declared K♥
  that is still out to its declarer (``sample_hands_into``: the same in the caller's
  working space, for a search dealing many worlds);
- ``make_world(s, hands, W)`` writes row 0 of ``W`` as the state with those hands, set to
  stop when the current contract ends (``sample_world`` does both, for the driver);
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
from trixsim.games.trix import cards, policy, rules, state, transitions
from trixsim.games.trix.cards import KH_MASK, bit_count
from trixsim.games.trix.rules import _is_legal, legal_one, placeable_one
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.transitions import step_one
from trixsim.games.trix.types import DONE, PASS, PLACE
from trixsim.jitcache import guard, sources
from trixsim.search import deal as deal_module
from trixsim.search.deal import deal_into, work_size

guard(__file__, sources(cards, rng, policy, rules, state, transitions, deal_module),
      tuple(COL.items()), DONE, PASS, PLACE)

FULL = 0xFFFFFFFF
_NO_GROUPS = np.zeros(0, dtype=np.int64)
_NO_CAPS = np.zeros((3, 0), dtype=np.int64)
WORK = 16 + work_size(3, 0)
"""Working space of ``sample_hands_into``."""
_HANDS = COL["hands"]
_PLAYED = COL["played"]
_PLAYED_BY = COL["played_by"]
_VOIDS = COL["voids"]
_DECLARED = COL["declared"]
_STOP_AFTER = COL["stop_after"]
_PHASE = COL["phase"]
_TRIX_LOG = COL["trix_log"]
_TRIX_N = COL["trix_n"]


@njit(cache=True, nogil=True)
def trix_excluded(s: np.ndarray) -> np.ndarray:
    """Per seat, the cards its trix passes this contract show it does not hold: at a pass
    it held nothing placeable then (§11), and cards only leave hands. Read from the public
    trix history (``trix_log``); all zero outside trix."""
    out = np.zeros(4, dtype=np.int64)
    trix_excluded_into(s, out)
    return out


@njit(cache=True, nogil=True)
def trix_excluded_into(s: np.ndarray, out: np.ndarray) -> None:
    """``trix_excluded`` into ``out`` (four entries), nothing allocated."""
    out[:] = 0
    placed = np.int64(0)
    n = s[_TRIX_N]
    for k in range(min(n, 128)):
        b = (np.int64(s[_TRIX_LOG + k // 8]) >> np.int64(8 * (k % 8))) & 0xFF
        seat, a = b >> 6, b & 63
        if a == PASS:
            out[seat] |= placeable_one(placed)
        else:
            placed |= np.int64(1) << a


@njit(cache=True)
def sample_hands(s: np.ndarray, seat: int, hand: int, seed: int, out: np.ndarray) -> bool:
    """Deal the cards ``seat`` cannot see to the other three seats into ``out`` (four
    hand masks; ``out[seat] = hand``), consistently with the public state ``s``: Trix's
    constraints (each seat's cards left, its shown voids and the cards its trix passes
    rule out, a declared K♥ still out with its declarer) handed to the generic dealer
    (``trixsim.search.deal.deal_into``), the other seats in seat order as its holders.
    Returns False if 64 attempts all dead-ended (then the last deal ignores those
    constraints)."""
    return sample_hands_into(s, seat, hand, seed, out, np.empty(WORK, dtype=np.int64))


@njit(cache=True)
def sample_hands_into(s: np.ndarray, seat: int, hand: int, seed: int, out: np.ndarray,
                      work: np.ndarray) -> bool:
    """``sample_hands`` in the caller's working space (``WORK`` int64 entries, any
    contents): the same deal, nothing allocated."""
    unknown = FULL & ~hand & ~np.int64(s[_PLAYED])
    need = work[0:3]
    allowed = work[3:6]
    fixed = work[6:9]
    got = work[9:12]
    voids = np.int64(s[_VOIDS])
    holder = s[_DECLARED]
    excluded = work[12:16]
    trix_excluded_into(s, excluded)
    h = 0
    for p in range(4):
        if p != seat:
            need[h] = 8 - bit_count(np.int64(s[_PLAYED_BY + p]))
            a = FULL & ~excluded[p]
            for suit in range(4):
                if (voids >> (4 * p + suit)) & 1:
                    a &= ~(np.int64(0xFF) << (8 * suit))
            allowed[h] = a
            fixed[h] = KH_MASK if p == holder else 0
            h += 1
    ok = deal_into(unknown, 3, need, allowed, fixed, seed, got, _NO_GROUPS, _NO_CAPS,
                   work[16:])
    h = 0
    for p in range(4):
        if p == seat:
            out[p] = hand
        else:
            out[p] = got[h]
            h += 1
    return ok


@njit(cache=True, inline="always")
def make_world(s: np.ndarray, hands: np.ndarray, W: np.ndarray) -> None:
    """Row 0 of ``W``: the state ``s`` with ``hands``, ending with the current contract."""
    for k in range(WIDTH):
        W[0, k] = s[k]
    for p in range(4):
        W[0, _HANDS + p] = hands[p]
    W[0, _STOP_AFTER] = 1


@njit(cache=True)
def sample_world(s: np.ndarray, seat: int, hand: int, seed: int, prm: np.ndarray,
                 W: np.ndarray, work: np.ndarray) -> None:
    """``sample_hands`` then ``make_world``, in the working space ``work`` (at least
    ``WORK + 4`` int64 entries): the world function of the generic search driver
    (``trixsim.search.pimc``); ``prm`` is unused (Trix's worlds take no parameter)."""
    hands = work[:4]
    sample_hands_into(s, seat, hand, seed, hands, work[4:])
    make_world(s, hands, W)


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


__all__ = ["WORK", "apply", "forced", "legal", "make_world", "sample_hands", "sample_hands_into",
           "sample_world", "trix_excluded", "trix_excluded_into"]
