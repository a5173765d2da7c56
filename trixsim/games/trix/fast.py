"""Whole games in one compiled loop: the fast path for strategies with compiled policies.

``play_games`` plays each game of a batch from its deal to its end without returning to
Python: the seat to act gets its view (``policy.fill_view``) and its policy's action,
the action is checked and applied by the same rule functions as ``rules.step``
(``step_one``, ``_deal``). The deal, pick and contract-end events (the only ones the
outcome tables read) are emitted by the rules' own emitters into a small buffer that the
tables' consumer (``outcomes.fold_events``) folds in at each game's end, so the contract
rows come out in game order with no sort; if asked, every event is kept for game records.
Same seed, same games and tables as the stepwise loop (``trixsim.sim``), which serves
strategies written in Python; tests play both ways.

``play_out`` plays one game of a state to its end (a search rollout with ``stop_after``
set) and can itself be called from compiled code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.gamekit import game as gamekit
from trixsim.gamekit.events import keep as _keep
from trixsim.gamekit.events import no_events
from trixsim.games.trix import cards, events, outcomes, policy, rules, state, transitions
from trixsim.games.trix.cards import low_card
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.events import EV_WIDTH
from trixsim.games.trix.observation import strategy_subkey
from trixsim.games.trix.outcomes import OutcomeLog, fold_events
from trixsim.games.trix.policy import decision_key, uniform_action, uniform_policy
from trixsim.games.trix.rules import (
    _emit_deal,
    _emit_end,
    _emit_pick,
    _emit_step,
    _is_legal,
    legal_one,
)
from trixsim.games.trix.state import COL, FIRST_PICKER, GAME_ID, PHASE, TURN, GameState, empty
from trixsim.games.trix.transitions import _DEALING, _deal, step_one
from trixsim.games.trix.types import DECLARE, DONE, PASS, PICK, PLACE
from trixsim.jitcache import guard, sources
from trixsim.policykit import unowned
from trixsim.rng import first_picker
from trixsim.strategy import UNIFORM

guard(__file__, sources(cards, rng, events, outcomes, policy, rules, state, transitions),
      tuple(COL.items()), EV_WIDTH, DONE, PASS, PICK, DECLARE, PLACE, _DEALING)

_CONTRACT_NO = COL["contract_no"]
_TRICK_NO = COL["trick_no"]
_OUT_FIRST = COL["out_first"]
_STOP_AFTER = COL["stop_after"]
_PLY = COL["ply"]
_HANDS = COL["hands"]
_NO_EVENTS = no_events(EV_WIDTH)


@njit(cache=True)
def _all_events(S: np.ndarray, g: int, ph: int, t: int, a: int, cn: int, tn: int, out1: int,
                lm: int, ev: np.ndarray, en: np.ndarray) -> None:
    """Every event of a step (``rules._emit_step``), out of line: only records want them,
    and inlined they would slow the loop's hot path."""
    _emit_step(S, g, ph, t, a, cn, tn, out1, lm, ev, en)


@njit(cache=True, nogil=True)
def play_games(S: np.ndarray, draw_first: bool, seed: int, subkey: int, deals: np.ndarray,
               policies, params: np.ndarray, builtin: np.ndarray, folds,
               handle: np.ndarray, err: np.ndarray) -> None:
    """Play every game of ``S`` (rows fresh from ``state.empty``) to its end, filling the
    outcome rows (see ``_play``)."""
    _play(unowned(S), draw_first, seed, subkey, deals, policies, params, builtin, folds, handle,
          False, err)


@njit(cache=True, nogil=True)
def play_games_events(S: np.ndarray, draw_first: bool, seed: int, subkey: int,
                      deals: np.ndarray, policies, params: np.ndarray, builtin: np.ndarray,
                      folds, handle: np.ndarray, err: np.ndarray) -> tuple[np.ndarray, int]:
    """``play_games`` that also keeps every event (for game records); returns them and
    their number."""
    return _play(unowned(S), draw_first, seed, subkey, deals, policies, params, builtin, folds,
                 handle, True, err)


@njit(cache=True, inline="always")
def _play(S: np.ndarray, draw_first: bool, seed: int, subkey: int, deals: np.ndarray,
          policies, params: np.ndarray, builtin: np.ndarray, folds, handle: np.ndarray,
          keep_events: bool, err: np.ndarray) -> tuple[np.ndarray, int]:
    """The loop (inlined into ``play_games`` and ``play_games_events`` with a constant
    ``keep_events``, so the tables-only loop carries no test for it).

    ``policies[s]`` (a tuple of four compiled policies) acts for seat s with
    ``params[s]``; where ``builtin[s]`` is 1 the seat plays uniformly at random, drawn
    inline (the base strategy's policy, without a call). A policy is not asked when one
    action is legal (its only legal answer: a third of a heuristic game's decisions, the
    last trick's cards among them). A game's deal, pick and contract-end events (the only
    ones the outcome rows read) are gathered as it plays and handed at its end to
    ``folds[0]`` (``outcomes.fold_events``, through a function pointer so that it stays
    out of the loop's body) with ``handle`` (an ``OutcomeLog.handle``), so the rows come
    out in game order. With ``keep_events``,
    every event is kept and returned (as ``rules.step`` reports them) with their number,
    and a game's events are folded from there. An illegal action stops the loop with
    ``err`` = (batch position, seat, decision, action), that game's state as it was
    before it (its finished contracts folded).
    """
    ev = np.zeros((8, EV_WIDTH), dtype=np.int64)
    # a game's events for the rows: its first deal, then per contract a pick, an end
    # (two events for the game's last) and the next deal
    G = np.zeros((0 if keep_events else 4 * 28 + 2, EV_WIDTH), dtype=np.int64)
    width = S.shape[1]
    n_params = params.shape[1]
    en = np.zeros(1, dtype=np.int64)
    pick_t = pick_a = pick_lm = 0
    E = np.zeros((4096 if keep_events else 0, EV_WIDTH), dtype=np.int64)
    n_all = np.zeros(1, dtype=np.int64)
    log = np.int64(handle.ctypes.data)
    err[0] = -1
    for g in range(S.shape[0]):
        if draw_first:
            S[g, FIRST_PICKER] = first_picker(seed, S[g, GAME_ID])
        _deal(S, g, seed, deals)
        en[0] = 0
        first = n_all[0]
        if keep_events:
            _emit_deal(S, g, ev, en)
            E = _keep(ev, 1, E, n_all)
        else:
            _emit_deal(S, g, G, en)
        while S[g, PHASE] != DONE:
            ph = S[g, PHASE]
            t = S[g, TURN]
            lm = legal_one(S, g)
            if ph == PLACE and lm == 0:
                a = PASS
            elif builtin[t]:
                a = uniform_action(lm, decision_key(S[g, GAME_ID], S[g, _PLY], ph, subkey))
            elif lm & (lm - 1) == 0:  # one legal action: the policy is not asked
                a = low_card(lm)
            else:
                a = policies[t](S.ctypes.data + 8 * g * width, lm, S[g, _HANDS + t], subkey,
                                params.ctypes.data + 8 * t * n_params, n_params)
                if not _is_legal(S, g, a, lm):
                    err[0], err[1], err[2], err[3] = g, t, ph, a
                    break
            if ph == PICK:
                pick_t, pick_a, pick_lm = t, a, lm
            cn, tn, out1 = S[g, _CONTRACT_NO], S[g, _TRICK_NO], S[g, _OUT_FIRST]
            step_one(S, g, a)
            if keep_events:
                en[0] = 0
                _all_events(S, g, ph, t, a, cn, tn, out1, lm, ev, en)
                if S[g, PHASE] == _DEALING:
                    _deal(S, g, seed, deals)
                    _emit_deal(S, g, ev, en)
                E = _keep(ev, en[0], E, n_all)
            elif S[g, _CONTRACT_NO] != cn:  # the contract ended: its pick (noted), its end
                _emit_pick(S, g, pick_t, pick_a, cn, pick_lm, G, en)
                _emit_end(S, g, cn, G, en)
                if S[g, PHASE] == _DEALING:
                    _deal(S, g, seed, deals)
                    _emit_deal(S, g, G, en)
        if keep_events:
            folds[0](np.int64(E.ctypes.data) + 8 * EV_WIDTH * first, n_all[0] - first, log)
        else:
            folds[0](np.int64(G.ctypes.data), en[0], log)
        if err[0] >= 0:
            break
    return E, n_all[0]


@njit(cache=True)
def play_out(S: np.ndarray, g: int, subkey: int, policies, params: np.ndarray) -> int:
    """Play the current contract of game ``g`` of ``S`` to its end with the seats'
    policies (a search rollout: ``stop_after`` is set, so no deal follows and the game
    ends with the contract; its points are then in ``points``). Returns -1, or the seat
    whose policy chose an illegal action (the game is then left before that action)."""
    S = unowned(S)
    S[g, _STOP_AFTER] = 1
    width = S.shape[1]
    n_params = params.shape[1]
    while S[g, PHASE] != DONE:
        ph = S[g, PHASE]
        t = S[g, TURN]
        lm = legal_one(S, g)
        if ph == PLACE and lm == 0:
            a = PASS
        else:
            a = policies[t](S.ctypes.data + 8 * g * width, lm, S[g, _HANDS + t], subkey,
                            params.ctypes.data + 8 * t * n_params, n_params)
            if not _is_legal(S, g, a, lm):
                return t
        step_one(S, g, a)
    return -1


@njit(cache=True)
def play_out_all(S: np.ndarray, subkey: int, policies, params: np.ndarray) -> np.ndarray:
    """``play_out`` for every game of ``S``; returns, per game, -1 or the seat whose
    policy chose an illegal action."""
    bad = np.full(S.shape[0], -1, dtype=np.int64)
    for g in range(S.shape[0]):
        bad[g] = play_out(S, g, subkey, policies, params)
    return bad


def call_policy(policy: Any, S: np.ndarray, g: int, legal: int, subkey: int,
                params: np.ndarray) -> int:
    """Ask one compiled policy for the seat to act in game ``g`` of ``S`` (as the loop
    does), from Python: for checks and tests. The policy travels in a tuple, so numba
    types it as a function pointer: passed alone it would be compiled into this kernel's
    cached code, which does not notice when the policy's own source changes."""
    return _call_policy((policy,), S, g, legal, subkey, params)


@njit(cache=True)
def _call_policy(policies, S: np.ndarray, g: int, legal: int, subkey: int,
                 params: np.ndarray) -> int:
    t = S[g, TURN]
    return policies[0](np.int64(S.ctypes.data) + 8 * g * S.shape[1], legal, S[g, _HANDS + t],
                       subkey, np.int64(params.ctypes.data), params.shape[0])


def play_compiled(policies: tuple, params: np.ndarray, chance: Chance, game_ids: np.ndarray,
                  first_pickers: np.ndarray | None = None, outcomes: OutcomeLog | None = None,
                  keep_events: bool = False) -> tuple[GameState, np.ndarray, np.ndarray]:
    """Play whole games with four compiled policies (``params``: (4, n) float64, row s for
    seat s). Returns the final state, every event if ``keep_events`` (else none) and the
    error vector of ``play_games`` (``err[0] < 0``: no illegal action)."""
    st = empty(chance, np.asarray(game_ids, dtype=np.int64))
    if first_pickers is not None:
        st.first_picker[:] = first_pickers
    log = outcomes if outcomes is not None else OutcomeLog(st.batch_size)
    err = np.full(4, -1, dtype=np.int64)
    builtin = np.array([p is uniform_policy for p in policies], dtype=np.int64)
    args = (st.data, first_pickers is None, chance.seed, strategy_subkey(chance.seed),
            chance.deals, tuple(policies), np.ascontiguousarray(params, dtype=np.float64),
            builtin, (fold_events,), log.handle(st.game_id))
    if keep_events:
        E, n = play_games_events(*args, err)
    else:
        play_games(*args, err)
        E, n = _NO_EVENTS, 0
    log.in_order = bool((np.diff(st.game_id) > 0).all())
    return st, E[:n], err


def resolve(policy: Any) -> Any:
    """A strategy's compiled policy as Trix's loop calls it: the base class's ``UNIFORM``
    marker is Trix's ``uniform_policy``."""
    return uniform_policy if policy is UNIFORM else policy


def compiled_lineup(strategies: Any) -> tuple[tuple, np.ndarray] | None:
    """The four seats' compiled policies and their (4, n) parameter rows, or None unless
    every seat has one (``Strategy.compiled``)."""
    lineup = gamekit.compiled_lineup(strategies, uniform_policy)
    return None if lineup is None else lineup[:2]


def play_lineup(strategies: Any, seed: int, game_ids: Any,
                observer: Any = None) -> GameState | None:
    """Play whole games with the seats' compiled policies (None if a seat has none): an
    OutcomeLog observer is filled in the loop, any other gets every event of the batch
    at the end (game after game). An illegal action raises StrategyError naming the
    strategy, the decision and the game, with the rules' reason."""
    lineup = compiled_lineup(strategies)
    if lineup is None:
        return None
    ids = np.asarray(game_ids, dtype=np.int64)
    outcomes = observer if isinstance(observer, OutcomeLog) else None
    keep = observer is not None and outcomes is None
    st, events, err = play_compiled(lineup[0], lineup[1], Chance(int(seed)), ids,
                                    outcomes=outcomes, keep_events=keep)
    if err[0] >= 0:
        from trixsim.games.trix.game import GAME

        raise gamekit.policy_error(GAME, st, strategies, err)
    if keep:
        observer.events(st, events)
    return st


__all__ = ["call_policy", "compiled_lineup", "play_compiled", "play_games", "play_games_events",
           "play_lineup", "play_out", "play_out_all", "resolve"]
