"""Replaying the current contract's public history from a state row (``replay``): with
the real hands it rebuilds the state exactly, every action legal for the seat the history
names; with hands that could not have played it, an action is refused."""

from __future__ import annotations

import numpy as np

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import init, legal_action_mask, step
from trixsim.games.trix.replay import contract_start, fits, n_moves, replay_action
from trixsim.games.trix.rules import legal_one
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.transitions import step_one
from trixsim.games.trix.types import DECLARE, DONE, PICK, TRIX
from trixsim.loading import load_seats
from trixsim.sim import decide

_HANDS = COL["hands"]


def _states(seed: int, games: int):
    """Every state of heuristic games at a decision (picks, declarations, cards, trix)."""
    seats = load_seats("heuristic", "trix")
    st = init(seed, range(games))
    legal = legal_action_mask(st)
    while (st.phase != DONE).any():
        yield st.data.copy()
        legal = step(st, decide(st, seats, legal, game=TRIX_RULES), legal)


def _replay(s: np.ndarray, hands: np.ndarray) -> tuple[np.ndarray, list[int], bool]:
    """The replayed row, the seats that acted, and whether every action was legal."""
    R = np.zeros((1, WIDTH), dtype=np.int64)
    contract_start(s, hands, R)
    k, seats, ok = 0, [], True
    while True:
        a, seat, k = replay_action(s, R, k)
        if a < 0:
            break
        seats.append(seat)
        if not fits(R, a, seat, legal_one(R, 0)):
            ok = False
            break
        step_one(R, 0, a)
    return R[0], seats, ok


def test_the_real_hands_replay_to_the_same_state() -> None:
    seen = {"trix": 0, "declare": 0, "quiet": 0, "pick": 0, "late": 0}
    for S in _states(11, 24):
        for s in S:
            if s[COL["phase"]] == DONE:
                continue
            hands = s[_HANDS:_HANDS + 4].copy()
            R, seats, ok = _replay(s, hands)
            assert ok
            same = np.ones(WIDTH, dtype=bool)
            same[[COL["ply"], COL["stop_after"]]] = False
            assert (R[same] == s[same]).all(), np.flatnonzero(R != s)
            assert R[COL["stop_after"]] == 1
            seen["pick"] += s[COL["phase"]] == PICK
            seen["trix"] += s[COL["contract"]] == TRIX and s[COL["trix_n"]] > 0
            seen["declare"] += s[COL["phase"]] == DECLARE
            seen["quiet"] += s[COL["declared"]] < 0 and len(seats) > len(set(seats)) \
                and s[COL["contract"]] in (4, 5) and s[COL["phase"]] != DECLARE
            seen["late"] += n_moves(s) > 25
    assert all(v > 20 for v in seen.values()), seen


def test_hands_that_could_not_have_played_the_history_are_refused() -> None:
    refused = 0
    for S in _states(12, 8):
        for s in S:
            if s[COL["phase"]] == DONE or n_moves(s) < 6 or s[COL["contract"]] == TRIX:
                continue
            hands = s[_HANDS:_HANDS + 4].copy()
            a, b = int(s[COL["turn"]] + 1) % 4, int(s[COL["turn"]] + 2) % 4
            # swap the cards the two seats played: each now held the other's plays
            pa, pb = int(s[COL["played_by"] + a]), int(s[COL["played_by"] + b])
            if pa & 0xFF == pa or pa == pb or pa == 0 or pb == 0:
                continue
            s2 = s.copy()
            s2[COL["played_by"] + a], s2[COL["played_by"] + b] = pb, pa
            _, _, ok = _replay(s2, hands)
            refused += not ok
    assert refused > 20

