"""The trix history in observations: every placement and pass of the contract, in order,
with its seat, checked against an independent record of the actions taken, on the
stepwise and the compiled paths alike."""

from __future__ import annotations

import numpy as np
from numba import njit

from tests.conftest import act, deal, table
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import observe
from trixsim.games.trix.cards import parse_card
from trixsim.games.trix.observation import FIELDS, trix_history
from trixsim.games.trix.policy import POLICY_SIG, C, state_row
from trixsim.games.trix.rules import legal_action_mask
from trixsim.games.trix.types import PASS, PLACE
from trixsim.loading import load_seats
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing import check_policy


class Record:
    """Observer: every trix move (seat, card or PASS) per game and contract, in order, and
    a check of the observation against it before each step."""

    def __init__(self) -> None:
        self.moves: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.checked = 0
        self.passes = 0

    def before_step(self, st, actions, legal) -> None:  # type: ignore[no-untyped-def]
        live = np.flatnonzero(st.phase == PLACE)
        if live.size:
            obs = observe(st, live, legal_action_mask(st)[live])
            seats, acts = trix_history(obs.trix_log, obs.trix_n)
            for i, g in enumerate(live):
                want = self.moves.get((int(st.game_id[g]), int(st.contract_no[g])), [])
                n = len(want)
                assert int(obs.trix_n[i]) == n
                assert list(zip(seats[i, :n].tolist(), acts[i, :n].tolist(),
                                strict=True)) == want
                assert (seats[i, n:] == -1).all() and (acts[i, n:] == -1).all()
                self.checked += 1
        for g in live:
            key = (int(st.game_id[g]), int(st.contract_no[g]))
            self.moves.setdefault(key, []).append((int(st.turn[g]), int(actions[g])))
            self.passes += int(actions[g]) == PASS

    def after_step(self, st) -> None:  # type: ignore[no-untyped-def]
        pass


def test_trix_history_is_a_public_field() -> None:
    assert "trix_log" in FIELDS and "trix_n" in FIELDS


def test_history_matches_every_placement_and_pass() -> None:
    rec = Record()
    play_batch(load_seats("heuristic,random,random,heuristic", "trix"), 4, range(12),
               observer=rec, game=TRIX_RULES)
    assert rec.checked > 500 and rec.passes > 50


def test_a_pass_is_recorded_with_its_seat_and_the_log_empties_next_contract() -> None:
    hands = deal("JH JC JD JS 7H 8H 9H 10H", "QH KH AH 7C 8C 9C 10C QC",
                 "KC AC 7D 8D 9D 10D QD KD", "AD 7S 8S 9S 10S QS KS AS")
    st = table(hands, picker=0)
    act(st, "trix", "JH", "QH")  # seat 0 places J♥, seat 1 Q♥; seat 2 can place nothing
    assert int(st.turn[0]) == 2 and legal_action_mask(st)[0] == 0
    act(st, PASS)
    obs = observe(st, np.array([0]), legal_action_mask(st))
    seats, acts = trix_history(obs.trix_log, obs.trix_n)
    n = int(obs.trix_n[0])
    assert n == 3
    assert list(zip(seats[0, :n].tolist(), acts[0, :n].tolist(), strict=True)) == \
        [(0, parse_card("JH")), (1, parse_card("QH")), (2, PASS)]


def test_a_long_trix_contract_fits_the_log() -> None:
    # the most moves a contract can hold: a placement then at most three passes, 32 times
    rec = Record()
    play_batch(load_seats("random", "trix"), 7, range(40), observer=rec, game=TRIX_RULES)
    longest = max(len(m) for m in rec.moves.values())
    assert longest <= 128


_DECISION, _TRIX_N, _TRIX_LOG = C["decision"], C["trix_n"], C["trix_log"]


@njit(POLICY_SIG, cache=True)
def _by_history(row: int, legal: int, hand: int, subkey: int, params: int, n: int) -> int:
    """Places the legal card chosen by a hash of the trix history; else the lowest."""
    s = state_row(row)
    cards = np.empty(32, dtype=np.int64)
    k = 0
    for c in range(33):
        if c < 32 and (legal >> c) & 1:
            cards[k] = c
            k += 1
    if s[_DECISION] != PLACE:
        return cards[0] if k > 0 else 0
    h = np.int64(s[_TRIX_N])
    for j in range(16):
        h = h * 1000003 + s[_TRIX_LOG + j]
    return cards[(h & 0x7FFFFFFF) % k]


def _by_history_batch(obs) -> np.ndarray:  # type: ignore[no-untyped-def]
    out = np.empty(len(obs), dtype=np.int64)
    log = np.asarray(obs.trix_log)
    for i in range(len(obs)):
        cards = [c for c in range(32) if (int(obs.legal[i]) >> c) & 1]
        h = np.int64(obs.trix_n[i])
        with np.errstate(over="ignore"):
            for j in range(16):
                h = h * np.int64(1000003) + np.int64(log[i, j])
        out[i] = cards[int(h & 0x7FFFFFFF) % len(cards)]
    return out


class ByHistory(Strategy):
    """Test strategy whose trix placements depend on the whole trix history."""

    name = "by-history"
    game = "trix"
    observes = frozenset({"legal", "key", "trix_log", "trix_n"})
    policy = _by_history

    def _lowest(self, obs) -> np.ndarray:  # type: ignore[no-untyped-def]
        legal = np.asarray(obs.legal, dtype=np.int64)
        return np.array([(int(m) & -int(m)).bit_length() - 1 for m in legal], dtype=np.int64)

    def pick(self, obs):  # type: ignore[no-untyped-def]
        return self._lowest(obs)

    def declare(self, obs):  # type: ignore[no-untyped-def]
        return self._lowest(obs)

    def play(self, obs):  # type: ignore[no-untyped-def]
        return self._lowest(obs)

    def place(self, obs):  # type: ignore[no-untyped-def]
        return _by_history_batch(obs)


def test_compiled_policy_and_methods_read_the_same_history() -> None:
    check_policy(ByHistory(), games=20, seed=5)


def test_both_paths_play_the_same_trix() -> None:
    ids = np.arange(20)
    fast = play_batch([ByHistory()] * 4, 3, ids, path="compiled", game=TRIX_RULES)
    slow = play_batch([ByHistory()] * 4, 3, ids, path="stepwise", game=TRIX_RULES)
    assert np.array_equal(fast.data, slow.data)


def test_one_game_bots_see_the_history_as_seat_move_pairs() -> None:
    from trixsim.games.trix.adapter import PerGameStrategy

    rec = Record()
    seen: list[tuple[int, int, list[tuple[int, int]]]] = []

    class Watcher(PerGameStrategy):
        name = "watcher"
        game = "trix"

        def place_one(self, view):  # type: ignore[no-untyped-def]
            seen.append((view.game, view.contract_no, view.trix_history))
            return view.random_action()

    play_batch([Watcher()] * 4, 2, range(3), observer=rec, game=TRIX_RULES)
    assert len(seen) > 20
    # the view is taken before the move it answers: its history is what came before
    for game, cn, hist in seen:
        moves = rec.moves[(game, cn)]
        assert hist == moves[:len(hist)] and moves[len(hist)][1] != PASS
    assert any(len(h) > 10 for _, _, h in seen)
