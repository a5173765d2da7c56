"""Trix's re-deals consistent with the public history, for the fair-play checks (the
kit's ``check_fair_play`` through ``TrixGame.redeal_pairs``, and ``check_game_engine``).

For a decision of seat ``t``, what ``t`` cannot see is where the other seats' unplayed
cards lie. A re-deal gives those cards out again, each seat keeping its number of cards,
so that the contract's public history is unchanged: every pick, card, trix pass and K♥
declaration, in the same order and by the same seats. Shown voids and a declared K♥ guide
the sampling; then the contract is replayed from its deal with the new hands through the
rules (``transitions.step_one``), another seat's K♥ question answered as the history shows (a
declaration) or by keeping quiet, and the re-deal is kept only if every public action is
legal for the same seat at the same moment and the replay stops at the same decision of
``t``. The replay checks what the sampling does not (trix passes, who starts trix, a trix
pick needing a jack). Two such states must look the same to ``t``: same observation, same
answer from a fair strategy. The trix history of the observation (``trix_log``,
``trix_n``) is besides checked against the contract's public placements and passes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from numba import njit

from trixsim import rng
from trixsim.game import Redeals
from trixsim.games.trix import cards, rules, transitions
from trixsim.games.trix.cards import KH_MASK
from trixsim.games.trix.rules import _is_legal, legal_one
from trixsim.games.trix.state import COL, WIDTH, GameState
from trixsim.games.trix.transitions import _DEALING, step_one
from trixsim.games.trix.types import DECISION_NAMES, DECLARE, DONE, GENERAL, PASS, PLACE, RAY
from trixsim.jitcache import guard, sources

guard(__file__, sources(cards, rng, rules, transitions), tuple(COL.items()), DECLARE, DONE,
      _DEALING)

_PHASE, _TURN, _HANDS = COL["phase"], COL["turn"], COL["hands"]
_PLAYED_BY, _VOIDS, _DECLARED = COL["played_by"], COL["voids"], COL["declared"]
_CONTRACT, _TRICK_NO, _CONTRACT_NO = COL["contract"], COL["trick_no"], COL["contract_no"]
_KH = KH_MASK.bit_length() - 1


@dataclass(frozen=True)
class Decision:
    """One decision of a recorded game: where its contract began and what was public since.

    ``start``: the state row at the contract's deal; ``row``: the row at the decision;
    ``public``: (n, 3) int64 rows (seat, decision, action) of the contract's public actions
    before it (a K♥ holder keeping quiet is not one); ``action``: what was answered.
    """

    start: np.ndarray
    row: np.ndarray
    public: np.ndarray
    action: int

    @property
    def seat(self) -> int:
        """The seat deciding."""
        return int(self.row[_TURN])

    def kh_open(self, viewer: int) -> bool:
        """Ray or general, K♥ hidden from ``viewer`` and not declared, first trick: where
        the K♥ question was put to some seats and not (yet) to others."""
        r = self.row
        return (int(r[_CONTRACT]) in (RAY, GENERAL) and int(r[_DECLARED]) < 0
                and int(r[_TRICK_NO]) == 0 and not int(r[_HANDS + viewer]) & KH_MASK
                and any(int(r[_HANDS + s]) & KH_MASK for s in range(4)))


class History:
    """An observer (``play_batch(..., observer=History(n))``) keeping every decision of
    the first ``n`` games of the batch (their state rows before each step and the
    actions), so that each can be re-dealt afterwards."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.rows: list[np.ndarray] = []
        self.actions: list[np.ndarray] = []

    def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
        """Keep the rows and actions of this step."""
        self.rows.append(st.data[:self.games].copy())
        self.actions.append(np.asarray(actions[:self.games], dtype=np.int64).copy())

    def decisions(self) -> list[Decision]:
        """Every decision a strategy was asked (forced trix passes and finished games
        left out), game after game."""
        if not self.rows:
            return []
        return decisions_from(np.stack(self.rows, axis=1), np.stack(self.actions, axis=1))


def decisions_from(rows: np.ndarray, acts: np.ndarray) -> list[Decision]:
    """Every decision a strategy was asked in recorded games (forced trix passes and
    finished games left out), game after game: ``rows`` (games, steps, WIDTH) the state
    rows before each step, ``acts`` (games, steps) the actions applied."""
    out: list[Decision] = []
    for g in range(rows.shape[0]):
        start = 0
        public: list[tuple[int, int, int]] = []
        for k in range(rows.shape[1]):
            r, a = rows[g, k], int(acts[g, k])
            ph = int(r[_PHASE])
            if ph == DONE:
                break
            if k == 0 or r[_CONTRACT_NO] != rows[g, k - 1, _CONTRACT_NO]:
                start, public = k, []
            if not (ph == PLACE and a == PASS):  # a pass is only ever forced
                out.append(Decision(rows[g, start], r, np.array(public, dtype=np.int64)
                                    .reshape(-1, 3), a))
            if ph != DECLARE or a == 1:
                public.append((int(r[_TURN]), ph, a))
    return out


def sample_hidden(row: np.ndarray, seat: int, gen: np.random.Generator,
                  kh_to: int | None = None, tries: int = 20) -> np.ndarray | None:
    """The other seats' unplayed cards dealt anew (four hand masks; ``seat``'s own hand
    kept), each seat keeping its number of cards, none of a suit it showed out of, a
    declared K♥ with its declarer (or, with ``kh_to``, the K♥ with that seat). None if no
    such deal was found in ``tries`` attempts."""
    hands = [int(h) for h in row[_HANDS:_HANDS + 4]]
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in range(32) if hands[s] >> c & 1]
    voids = int(row[_VOIDS])
    declared = int(row[_DECLARED])
    allowed: dict[int, list[int]] = {}
    for c in pool:
        ok = [s for s in others if hands[s] and not voids >> (4 * s + c // 8) & 1]
        if c == _KH and (kh_to is not None or declared >= 0):
            want = kh_to if kh_to is not None else declared
            ok = [s for s in ok if s == want]
        if not ok:
            return None
        allowed[c] = ok
    for _ in range(tries):
        need = {s: bin(hands[s]).count("1") for s in others}
        order = sorted(pool, key=lambda c: (len(allowed[c]), gen.random()))
        new = dict.fromkeys(others, 0)
        for c in order:
            free = [s for s in allowed[c] if need[s] > 0]
            if not free:
                break
            s = free[int(gen.integers(len(free)))]
            new[s] |= 1 << c
            need[s] -= 1
        else:
            return np.array([new.get(s, hands[s]) if s != seat else hands[s]
                             for s in range(4)], dtype=np.int64)
    return None


@njit(cache=True)
def _replay(start: np.ndarray, hands: np.ndarray, public: np.ndarray, turn: int,
            phase: int) -> tuple[bool, np.ndarray]:
    """Replay a contract from ``start`` with the dealt ``hands`` (at the deal) through the
    rules; whether every public action fits and the game arrives at ``turn``'s ``phase``,
    and the row it arrived at."""
    S = start.reshape(1, -1).copy()
    for s in range(4):
        S[0, _HANDS + s] = hands[s]
    k = 0
    for _ in range(4 * public.shape[0] + 8):
        ph, t = S[0, _PHASE], S[0, _TURN]
        if ph == DONE or ph == _DEALING:
            return False, S[0]
        if k == public.shape[0]:
            if ph == DECLARE and not (phase == DECLARE and t == turn):
                step_one(S, 0, 0)  # a question the history does not show: kept quiet
                continue
            return ph == phase and t == turn, S[0]
        seat, pph, a = public[k, 0], public[k, 1], public[k, 2]
        if ph == DECLARE:
            if pph == DECLARE:  # the history shows this seat declaring here
                if t != seat:
                    return False, S[0]
                step_one(S, 0, 1)
                k += 1
            else:
                step_one(S, 0, 0)
            continue
        if pph != ph or t != seat or not _is_legal(S, 0, a, legal_one(S, 0)):
            return False, S[0]
        step_one(S, 0, a)
        k += 1
    return False, S[0]


REPLAY_REJECT = ("the contract replayed through the rules with the re-dealt hands did not "
                 "keep to the public history (a trix pass, who starts trix, a trix pick "
                 "needing a jack) or stopped elsewhere")
"""Why a sampled re-deal is rejected (``Redeals.reasons``)."""


def redeal(d: Decision, gen: np.random.Generator, kh_to: int | None = None,
           viewer: int | None = None, tries: int = 8,
           tally: Counter[str] | None = None) -> np.ndarray | None:
    """A state row with the same public history as ``d.row`` up to the same decision of
    the same seat, but the cards hidden from ``viewer`` (by default the seat deciding)
    dealt differently; None if none was found. ``tally`` counts the sampled deals the
    replay rejected (under ``REPLAY_REJECT``)."""
    seat = d.seat
    for _ in range(tries):
        hidden = sample_hidden(d.row, seat if viewer is None else viewer, gen, kh_to)
        if hidden is None:
            return None
        if np.array_equal(hidden, d.row[_HANDS:_HANDS + 4]):
            continue
        at_deal = hidden | d.row[_PLAYED_BY:_PLAYED_BY + 4]
        ok, row = _replay(d.start, at_deal, d.public, seat, int(d.row[_PHASE]))
        if ok:
            return row
        if tally is not None:
            tally[REPLAY_REJECT] += 1
    return None


def redeals(d: Decision, gen: np.random.Generator, viewer: int | None = None,
            tally: Counter[str] | None = None) -> list[np.ndarray]:
    """Re-deals of a decision (hiding from ``viewer``, by default the seat deciding): one
    at random and, where the K♥ question may or may not have been put to a seat already
    (``Decision.kh_open``), one with the K♥ at each other seat that may hold it."""
    v = d.seat if viewer is None else viewer
    out = [r for r in [redeal(d, gen, viewer=v, tally=tally)] if r is not None]
    if d.kh_open(v):
        for s in range(4):
            if s != v:
                r = redeal(d, gen, kh_to=s, viewer=v, tally=tally)
                if r is not None:
                    out.append(r)
    return out


def pairs(decisions: list[Decision], gen: np.random.Generator, limit: int | None = None,
          shift: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(original rows, re-dealt rows, viewers) for up to ``limit`` decisions (all of those
    where the K♥ question is open first, then others at random); the viewer of a decision
    is ``shift`` seats after the seat deciding (0: that seat itself)."""
    return _pairs(decisions, gen, limit, shift)[:3]


def _pairs(decisions: list[Decision], gen: np.random.Generator, limit: int | None,
           shift: int, tally: Counter[str] | None = None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """``pairs``, and for each pair the index of its decision in ``decisions``
    (``tally``: see ``redeal``)."""
    view = [(d.seat + shift) % 4 for d in decisions]
    open_ = [d.kh_open(v) for d, v in zip(decisions, view, strict=True)]
    order = np.array([k for k, o in enumerate(open_) if o], dtype=np.int64)
    rest = np.array([k for k, o in enumerate(open_) if not o], dtype=np.int64)
    order = np.concatenate([gen.permutation(order), gen.permutation(rest)])
    if limit is not None:
        order = np.sort(order[:limit])
    a: list[np.ndarray] = []
    b: list[np.ndarray] = []
    viewers: list[int] = []
    picked: list[int] = []
    for k in order.tolist():
        for r in redeals(decisions[k], gen, view[k], tally):
            a.append(decisions[k].row)
            b.append(r)
            viewers.append(view[k])
            picked.append(k)
    if not a:
        empty = np.zeros((0, WIDTH), dtype=np.int64)
        return empty, empty.copy(), np.zeros(0, dtype=np.int64), []
    return np.stack(a), np.stack(b), np.array(viewers, dtype=np.int64), picked


def redeal_pairs(states: list[GameState], actions: list[np.ndarray], gen: np.random.Generator,
                 limit: int | None = None) -> Redeals:
    """``TrixGame.redeal_pairs``: for up to ``limit`` decisions of the recorded games
    (every one where the K♥ question is open first, then others at random), the state as
    played and re-deals of the cards hidden from the seat to act (see ``redeals``), with
    the problems of the observations' trix history (see ``trix_history_problems``)."""
    if not states:
        return Redeals(GameState(np.zeros((0, WIDTH), dtype=np.int64)),
                       GameState(np.zeros((0, WIDTH), dtype=np.int64)),
                       np.zeros(0, dtype=np.int64), ())
    chance = type(states[0].chance)(states[0].run_seed)
    decisions = decisions_from(np.stack([s.data for s in states], axis=1),
                               np.stack([np.asarray(a, dtype=np.int64) for a in actions], axis=1))
    tally: Counter[str] = Counter()
    a, b, viewers, picked = _pairs(decisions, gen, limit, 0, tally)
    sa, sb = GameState(a, chance), GameState(b, chance)
    where = tuple(f"decision {DECISION_NAMES[int(r[_PHASE])]!r} at ply {int(r[COL['ply']])} "
                  f"(seat {int(r[_TURN])})" for r in a)
    problems = trix_history_problems([decisions[k] for k in picked], where)
    return Redeals(sa, sb, viewers, where,
                   asked=len(decisions) if limit is None else min(limit, len(decisions)),
                   rejected=sum(tally.values()),
                   reasons=tuple(f"{n} x {why}" for why, n in tally.items()),
                   problems=tuple(problems))


def trix_history_problems(decisions: list[Decision], where: tuple[str, ...]) -> list[str]:
    """For each decision, a line if the trix history in the deciding seat's observation
    (``trix_log``, ``trix_n``, decoded by ``observation.trix_history``) is not the
    contract's placements and passes in order, with their seats (the public history)."""
    from trixsim.games.trix.game import GAME
    from trixsim.games.trix.observation import trix_history

    if not decisions:
        return []
    st = GameState(np.stack([d.row for d in decisions]))
    idx = np.arange(st.batch_size)
    obs = GAME.strategy_view(st, idx, GAME.legal_action_mask(st),
                             frozenset({"legal", "trix_log", "trix_n"}))
    seats, acts = trix_history(obs.trix_log, obs.trix_n)
    out = []
    for i, d in enumerate(decisions):
        want = [(int(s), int(a)) for s, ph, a in d.public if ph == PLACE]
        n = int(obs.trix_n[i])
        got = list(zip(seats[i, :n].tolist(), acts[i, :n].tolist(), strict=True))
        if got != want or (seats[i, n:] != -1).any():
            out.append(f"game {int(d.row[COL['game_id']])}, {where[i]}: the observation's trix "
                       f"history (trix_log, trix_n) holds {got[:6]}{' ...' if n > 6 else ''} "
                       f"({n} moves) but the contract's placements and passes were "
                       f"{want[:6]}{' ...' if len(want) > 6 else ''} ({len(want)} moves)")
    return out


__all__ = ["Decision", "History", "decisions_from", "pairs", "redeal", "redeal_pairs",
           "redeals", "sample_hidden", "trix_history_problems"]
