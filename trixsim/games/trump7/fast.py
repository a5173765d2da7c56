"""Whole trump7 games in compiled code: the fast path, and the scalar benchmark loop.

``play_games`` plays each game of a batch from its deal to its end without returning to
Python: the seat to act gets its policy's action (or, for a ``builtin`` seat, a uniform
draw made inline with the same key as ``Strategy``'s random methods; a policy is not
asked when one action is legal), the action is checked and applied by the same kernels
as ``rules.step``. The outcome table is read from the final state, so no events are made
unless asked (game records).

``scalar_random_games`` is the benchmark's reference: the plainest compiled loop over
the same kernels, one game at a time in a single row, uniform random play, no tables.
It plays the very games ``play_games`` plays with four random seats.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from trixsim import choice, policykit, rng
from trixsim.choice import nth_bit, uniform_action
from trixsim.gamekit.events import keep as _keep
from trixsim.games.trump7 import cards, chance, events, policy, rules, state
from trixsim.games.trump7.chance import Chance, pack_one
from trixsim.games.trump7.events import EV_WIDTH
from trixsim.games.trump7.policy import decision_key
from trixsim.games.trump7.rules import (
    deal_game,
    deal_pack,
    emit_deal,
    emit_step,
    is_legal,
    legal_one,
    step_one,
)
from trixsim.games.trump7.state import COL, DONE, GameState, empty, initial_row
from trixsim.jitcache import guard, sources
from trixsim.policykit import strategy_subkey, unowned

guard(__file__, sources(choice, rng, cards, chance, events, policy, policykit, rules, state),
      tuple(COL.items()),
      EV_WIDTH, DONE)

_PHASE, _TURN, _PLY, _GID = COL["phase"], COL["turn"], COL["ply"], COL["game_id"]
_HANDS, _TRICK_NO, _STOCK_N = COL["hands"], COL["trick_no"], COL["stock_n"]
_POINTS, _BIDDING = COL["points"], COL["bidding"]
_NO_PACKS = np.full((0, 52), -1, dtype=np.int64)


@njit(cache=True, inline="always")
def _play(S: np.ndarray, seed: int, subkey: int, packs: np.ndarray, policies,
          params: np.ndarray, builtin: np.ndarray, keep_events: bool,
          err: np.ndarray) -> tuple[np.ndarray, int]:
    """The loop (inlined with a constant ``keep_events``). Each game is played in a
    one-row scratch copy (constant column offsets, as in the scalar loop) and written
    back. An illegal action stops it with ``err`` = (batch position, seat, decision,
    action), that game left before it."""
    pack = np.empty(52, dtype=np.int64)
    ev = np.zeros((4, EV_WIDTH), dtype=np.int64)
    en = np.zeros(1, dtype=np.int64)
    E = np.zeros((4096 if keep_events else 0, EV_WIDTH), dtype=np.int64)
    n_all = np.zeros(1, dtype=np.int64)
    mem = np.empty((1, S.shape[1]), dtype=np.int64)  # the game being played, in one row,
    R = unowned(mem)  # reached without reference counting at each step; ``mem`` keeps it
    row = np.int64(R.ctypes.data)
    n_params = params.shape[1]
    err[0] = -1
    for g in range(S.shape[0]):
        R[0, :] = S[g, :]
        if packs.shape[0] > 0 and packs[g, 0] >= 0:
            pack[:] = packs[g]
        else:
            pack_one(seed, R[0, _GID], pack)
        deal_pack(R, 0, pack)
        if keep_events:
            en[0] = 0
            emit_deal(R, 0, ev, en)
            ev[0, 0] = g
            E = _keep(ev, 1, E, n_all)
        while R[0, _PHASE] != DONE:
            ph = R[0, _PHASE]
            t = R[0, _TURN]
            lm = legal_one(R, 0)
            if builtin[t]:
                a = uniform_action(lm, decision_key(R[0, _GID], R[0, _PLY], subkey))
            elif lm & (lm - 1) == 0:  # one legal action: the policy is not asked
                a = nth_bit(lm, 0)
            else:
                a = policies[t](row, lm, R[0, _HANDS + t], subkey,
                                params.ctypes.data + 8 * t * n_params, n_params)
                if not is_legal(a, lm):
                    err[0], err[1], err[2], err[3] = g, t, ph, a
                    S[g, :] = mem[0, :]
                    return E, n_all[0]
            if keep_events:
                tn, drawn = R[0, _TRICK_NO], R[0, _STOCK_N]
                step_one(R, 0, a)
                en[0] = 0
                emit_step(R, 0, ph, t, a, tn, drawn, ev, en)
                for k in range(en[0]):
                    ev[k, 0] = g
                E = _keep(ev, en[0], E, n_all)
            else:
                step_one(R, 0, a)
        S[g, :] = mem[0, :]  # (read through ``mem``, so it lives as long as ``R`` is used)
    return E, n_all[0]


@njit(cache=True, nogil=True)
def play_games(S: np.ndarray, seed: int, subkey: int, packs: np.ndarray, policies,
               params: np.ndarray, builtin: np.ndarray, err: np.ndarray) -> None:
    """Play every game of ``S`` (fresh rows from ``state.empty``) to its end.
    ``policies[s]`` acts for seat s with ``params[s]``; a ``builtin[s]`` seat plays
    uniformly at random, drawn inline."""
    _play(S, seed, subkey, packs, policies, params, builtin, False, err)


@njit(cache=True, nogil=True)
def play_games_events(S: np.ndarray, seed: int, subkey: int, packs: np.ndarray, policies,
                      params: np.ndarray, builtin: np.ndarray,
                      err: np.ndarray) -> tuple[np.ndarray, int]:
    """``play_games`` that also keeps every event; returns them and their number."""
    return _play(S, seed, subkey, packs, policies, params, builtin, True, err)


def play_policies(policies: tuple, params: np.ndarray, chance_: Chance, game_ids: Any,
                  bidding: bool, builtin: Any = None,
                  keep_events: bool = False) -> tuple[GameState, np.ndarray, np.ndarray]:
    """Play whole games with four compiled policies (``params``: (4, n) float64) or, where
    ``builtin[s]``, uniform random play. Returns the final state, the events if
    ``keep_events`` (else none) and ``err`` (``err[0] < 0``: no illegal action)."""
    st = empty(chance_, np.asarray(game_ids, dtype=np.int64), bidding)
    if len(chance_.packs) not in (0, st.batch_size):
        raise ValueError("imposed packs must cover every game of the batch")
    flags = np.zeros(4, dtype=np.int64) if builtin is None else \
        np.asarray(builtin, dtype=np.int64)
    err = np.full(4, -1, dtype=np.int64)
    args = (st.data, chance_.seed, strategy_subkey(chance_.seed), chance_.packs,
            tuple(policies), np.ascontiguousarray(np.atleast_2d(params), dtype=np.float64),
            flags)
    if keep_events:
        E, n = play_games_events(*args, err)
        return st, E[:n], err
    play_games(*args, err)
    return st, np.zeros((0, EV_WIDTH), dtype=np.int64), err


def play_random(seed: int, game_ids: Any, bidding: bool = False,
                keep_events: bool = False) -> tuple[GameState, np.ndarray]:
    """Whole games with four uniform random seats (the compiled random lineup)."""
    st, ev, _ = play_policies((policy.uniform_policy,) * 4, np.zeros((4, 1)), Chance(seed),
                              game_ids, bidding, builtin=np.ones(4), keep_events=keep_events)
    return st, ev


@njit(cache=True)
def _scalar(seed: int, subkey: int, first: int, games: int, bidding: int, row: np.ndarray,
            out: np.ndarray) -> None:
    S = np.zeros((1, row.shape[0]), dtype=np.int64)
    pack = np.empty(52, dtype=np.int64)
    for k in range(games):
        S[0, :] = row
        S[0, _GID] = first + k
        S[0, _BIDDING] = bidding
        deal_game(S, 0, seed, _NO_PACKS, pack)
        while S[0, _PHASE] != DONE:
            lm = legal_one(S, 0)
            step_one(S, 0, uniform_action(lm, decision_key(S[0, _GID], S[0, _PLY], subkey)))
        for s in range(4):
            out[k, s] = S[0, _POINTS + s]


def scalar_random_games(seed: int, first: int, games: int, bidding: bool = False) -> np.ndarray:
    """The reference loop: games ``first .. first + games - 1`` one at a time, uniform
    random play; returns their (games, 4) final points."""
    out = np.empty((games, 4), dtype=np.int64)
    _scalar(seed, strategy_subkey(seed), first, games, int(bidding), initial_row(), out)
    return out


__all__ = ["play_games", "play_games_events", "play_policies", "play_random",
           "scalar_random_games"]
