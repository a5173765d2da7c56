"""The current contract's public history, read from a state row and replayed in a world.

A search that weighs its sampled worlds by how likely they make the other seats' plays
(``expert``'s inference) needs, in each world, the state before every public action of the
contract. A state row carries that history (``docs/rules.md`` §12): the pick, the completed
tricks in ``trick_log``, the trick in progress in ``trick_cards``, and in trix the
placements and passes in ``trix_log``. ``contract_start`` rebuilds the contract as it was
dealt, with a world's hands, and ``replay_action`` gives the action to play next, so that a
caller can loop::

    contract_start(s, hands, R)
    k = 0
    while True:
        a, seat, k = replay_action(s, R, k)
        if a < 0:
            break
        ...               # R[0] is the state before the action, ``seat`` the seat acting
        step_one(R, 0, a)

and ends with ``R[0]`` equal to ``s`` in every column but ``ply`` (``hands`` being the
world's). The K♥ holder's question (§5) is answered as ``s`` shows: a declaration when
``s`` names that seat, else keeping quiet (no public event). A world that cannot have
produced the history makes an action illegal, or hands it to another seat than the
history names (in trix the starter is the first seat holding a jack); ``fits`` says so.
Everything here reads only the public columns of ``s`` and the given hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.games.trix import cards, rules, state, transitions
from trixsim.games.trix.rules import _is_legal
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.transitions import start_contract
from trixsim.games.trix.types import DECLARE, DONE, TRIX
from trixsim.jitcache import guard, sources

guard(__file__, sources(cards, rng, rules, state, transitions), tuple(COL.items()), DECLARE,
      DONE, TRIX)

_PHASE, _TURN, _HANDS = COL["phase"], COL["turn"], COL["hands"]
_PLAYED_BY, _DECLARED, _CONTRACT = COL["played_by"], COL["declared"], COL["contract"]
_USED, _PICKER, _STOP_AFTER = COL["used"], COL["picker"], COL["stop_after"]
_TRICK_LOG, _TRICK_NO, _TRICK_N = COL["trick_log"], COL["trick_no"], COL["trick_n"]
_TRICK_CARDS, _TRIX_LOG, _TRIX_N = COL["trick_cards"], COL["trix_log"], COL["trix_n"]
_LEADER = COL["leader"]


@njit(cache=True, inline="always")
def n_moves(s: np.ndarray) -> int:
    """The public actions of the current contract in ``s``: its pick (once made), then
    every card played or, in trix, every placement and pass."""
    c = s[_CONTRACT]
    if c < 0:
        return 0
    if c == TRIX:
        return 1 + s[_TRIX_N]
    return 1 + 4 * s[_TRICK_NO] + s[_TRICK_N]


@njit(cache=True, inline="always")
def move(s: np.ndarray, k: int) -> tuple[int, int]:
    """Public action ``k`` of the current contract (``0 <= k < n_moves(s)``) and the seat
    that took it."""
    if k == 0:
        return s[_CONTRACT], s[_PICKER]
    k -= 1
    if s[_CONTRACT] == TRIX:
        b = (np.int64(s[_TRIX_LOG + k // 8]) >> np.int64(8 * (k % 8))) & 0xFF
        return b & 63, b >> 6
    t = k // 4
    if t < s[_TRICK_NO]:
        log = np.int64(s[_TRICK_LOG + t])
        return (log >> np.int64(8 * (k % 4) + 8)) & 0xFF, ((log & 0xFF) + k % 4) % 4
    return s[_TRICK_CARDS + k % 4], (s[_LEADER] + k % 4) % 4


@njit(cache=True)
def contract_start(s: np.ndarray, hands: np.ndarray, R: np.ndarray) -> None:
    """Row 0 of ``R``: the current contract of ``s`` as dealt, before its pick, with each
    seat holding ``hands[p]`` plus what it has played this contract; set to stop when the
    contract ends."""
    for k in range(WIDTH):
        R[0, k] = s[k]
    for p in range(4):
        R[0, _HANDS + p] = np.int64(hands[p]) | np.int64(s[_PLAYED_BY + p])
    start_contract(R, 0)
    c = s[_CONTRACT]
    if c >= 0:  # the picker's used contracts as they were before this pick
        R[0, _USED + s[_PICKER]] = np.int64(s[_USED + s[_PICKER]]) & ~(np.int64(1) << c)
    R[0, _STOP_AFTER] = 1


@njit(cache=True, inline="always")
def replay_action(s: np.ndarray, R: np.ndarray, k: int) -> tuple[int, int, int]:
    """The action to play next in ``R`` to follow the history of ``s`` from move ``k``,
    the seat the history says takes it, and the next move's index: the K♥ question
    answered as ``s`` shows (it is no move), else move ``k``. (-1, -1, k) once the history
    is replayed (``R`` then stands at the decision of ``s``)."""
    if R[0, _PHASE] == DECLARE:
        t = R[0, _TURN]
        if k == n_moves(s) and s[_PHASE] == DECLARE and s[_TURN] == t:
            return -1, -1, k  # the question ``s`` is asking
        return (1 if s[_DECLARED] == t else 0), t, k
    if k >= n_moves(s) or R[0, _PHASE] == DONE:
        return -1, -1, k
    a, seat = move(s, k)
    return a, seat, k + 1


@njit(cache=True, inline="always")
def fits(R: np.ndarray, a: int, seat: int, lm: int) -> bool:
    """Whether ``seat`` is the seat to act in ``R`` and may play ``a`` (a trix pass only
    when it must), ``lm`` being ``legal_one(R, 0)`` (a replay needs it again)."""
    return R[0, _TURN] == seat and _is_legal(R, 0, a, lm)
