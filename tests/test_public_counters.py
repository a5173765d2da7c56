"""A quiet K♥ holder changes nothing that another seat sees: ``ply`` and the random keys
come from public counters only (docs/rules.md §12), on the stepwise and the compiled path.

The K♥ holder of ray and general is asked, before its first card, whether to declare it.
Keeping quiet is not an event the other seats see, so it must not move ``ply`` (which they
see) nor the keys of their decisions (which they see, and which drive their draws).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tests.conftest import act, deal, table
from trixsim.games import get_game
from trixsim.games.trix import GameState, legal_action_mask, observe
from trixsim.games.trix.fast import call_policy
from trixsim.games.trix.observation import FIELDS, strategy_subkey
from trixsim.games.trix.policy import POLICY_SIG, policy_key, state_row
from trixsim.games.trix.types import DECLARE, PLAY

TRIX_GAME = get_game("trix")

# The same public history in both deals: seat 0 picks ray and leads 7C, seat 1 (no clubs)
# discards 7S, and seat 2 is to play. Only where the K♥ lies differs: with seat 1 (asked
# before its card, it keeps quiet) or with seat 3 (not asked yet). Seat 2's own hand and
# every card shown are the same.
_SEAT0 = "7C 8C 9C JC QC KC 10C AC"
_SEAT2 = "7H 8H 9H JH QH 10H AH AS"
QUIET_BEFORE_ME = deal(_SEAT0, "KH 7S 8S 9S JS QS KS 10S", _SEAT2,
                       "7D 8D 9D JD QD KD 10D AD")
HOLDER_AFTER_ME = deal(_SEAT0, "7D 7S 8S 9S JS QS KS 10S", _SEAT2,
                       "KH 8D 9D JD QD KD 10D AD")


def _at_seat_2(hands: list[int], seed: int = 5) -> GameState:
    """The state where seat 2 is to play its first card of ray, after the history above."""
    st = table(hands, picker=0, seed=seed)
    act(st, "ray", "7C")
    if hands is QUIET_BEFORE_ME:
        assert st.phase[0] == DECLARE and st.turn[0] == 1
        act(st, "quiet")
    act(st, "7S")
    assert st.phase[0] == PLAY and st.turn[0] == 2
    return st


def test_a_quiet_holder_before_me_changes_no_field_of_my_observation() -> None:
    a, b = _at_seat_2(QUIET_BEFORE_ME), _at_seat_2(HOLDER_AFTER_ME)
    idx = np.array([0])
    oa = observe(a, idx, legal_action_mask(a))
    ob = observe(b, idx, legal_action_mask(b))
    differ = [k for k in FIELDS if not np.array_equal(getattr(oa, k), getattr(ob, k))]
    assert differ == []


@njit(POLICY_SIG)  # not cached: numba would not notice a change of policy_key
def _key_policy(row: int, legal: int, hand: int, subkey: int, params: int,
                n_params: int) -> int:
    """Answers with the decision's key (a test probe, not a legal action)."""
    return policy_key(state_row(row), subkey)


def test_a_quiet_holder_before_me_changes_no_compiled_key() -> None:
    keys = []
    for hands in (QUIET_BEFORE_ME, HOLDER_AFTER_ME):
        st = _at_seat_2(hands)
        keys.append(call_policy(_key_policy, st.data, 0, int(legal_action_mask(st)[0]),
                                strategy_subkey(st.run_seed), np.zeros(1)))
    assert keys[0] == keys[1]


def test_the_compiled_key_is_the_observation_key_on_every_decision() -> None:
    """Including the holder's own declaration question, whose key differs from that of
    the card it plays next (two decisions, two draws)."""
    st = table(QUIET_BEFORE_ME, picker=0, seed=9)
    subkey = strategy_subkey(st.run_seed)
    seen = []
    for word in ("ray", "7C", "quiet", "7S"):
        legal = legal_action_mask(st)
        obs = observe(st, np.array([0]), legal)
        got = call_policy(_key_policy, st.data, 0, int(legal[0]), subkey, np.zeros(1))
        assert np.uint64(obs.key[0]).view(np.int64) == got
        seen.append(got)
        act(st, word)
    assert len(set(seen)) == len(seen)


def _views(st: GameState, seat: int) -> dict[str, np.ndarray]:
    obs = observe(st, np.array([0]), legal_action_mask(st), viewer=np.array([seat]))
    return {k: np.asarray(getattr(obs, k)) for k in FIELDS}


def test_a_waiting_seat_sees_no_declaration_question() -> None:
    """While seat 1 decides whether to declare, and after it keeps quiet, the other seats'
    views are those of a deal where seat 1 simply has to play (what a table shows them)."""
    asked = table(QUIET_BEFORE_ME, picker=0, seed=5)
    plain = table(HOLDER_AFTER_ME, picker=0, seed=5)
    act(asked, "ray", "7C")
    act(plain, "ray", "7C")
    assert asked.phase[0] == DECLARE and plain.phase[0] == PLAY
    quiet = asked.copy()
    act(quiet, "quiet")
    for seat in (0, 2, 3):
        want = _views(plain, seat)
        for st in (asked, quiet):
            got = _views(st, seat)
            differ = [k for k in FIELDS if k != "hand" and not np.array_equal(got[k], want[k])]
            assert differ == [], (seat, differ)


def test_at_a_table_a_quiet_answer_changes_no_other_seats_view() -> None:
    """``Table.view`` (what a table shows each player) and ``history_for`` are the same for
    the other seats before the K♥ question, while it is pending and after a quiet answer."""
    from trixsim.loading import load_strategy
    from trixsim.table import Table

    bot = load_strategy("random", "trix")
    table = Table(3, game=TRIX_GAME)
    checked = 0
    while not table.over and checked < 3:
        before = {s: _table_view(table, s) for s in range(4)}
        history = {s: len(table.history_for(s)) for s in range(4)}
        if table.decision == DECLARE:
            holder = table.turn
            table.act(0)  # keeps quiet
            for s in range(4):
                if s != holder:
                    after = _table_view(table, s)
                    assert [k for k in FIELDS if not np.array_equal(before[s][k], after[k])] == []
                    assert len(table.history_for(s)) == history[s]
            checked += 1
            continue
        table.play_bots({table.turn: bot})
    assert checked == 3


def _table_view(table, seat: int) -> dict[str, np.ndarray]:
    view = table.view(seat)
    return {k: np.asarray(getattr(view, k)) for k in FIELDS}
