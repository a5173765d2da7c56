"""trump7 and trump7-bid behind the ``Game`` interface: the conformance check, the
registry, the loop's two paths and the scalar reference agreeing, the outcome table."""

from __future__ import annotations

import numpy as np
import pytest

from trixsim.games import GAMES, get_game, trump7
from trixsim.games.trump7 import events as ev
from trixsim.games.trump7.chance import Chance, pack_from
from trixsim.games.trump7.fast import play_policies, play_random, scalar_random_games
from trixsim.games.trump7.outcomes import GAME_COLUMNS
from trixsim.games.trump7.policy import lowest_policy, uniform_policy
from trixsim.games.trump7.rules import score
from trixsim.sim import play_batch
from trixsim.strategy import Strategy
from trixsim.testing import check_game


@pytest.mark.parametrize("name", ["trump7", "trump7-bid"])
def test_check_game(name: str) -> None:
    check_game(get_game(name), games=16, seed=5, events=ev.EventLog())


def test_registry_names_both_variants() -> None:
    assert {"trump7", "trump7-bid"} <= set(GAMES)
    plain, bid = get_game("trump7"), get_game("trump7-bid")
    assert (plain.name, bid.name) == ("trump7", "trump7-bid")
    assert [d.name for d in plain.decisions] == ["play"]
    assert [(d.id, d.name, d.method) for d in bid.decisions] == [(0, "play", "play"),
                                                                 (1, "bid", "bid")]
    assert plain.n_actions == 52 and plain.higher_is_better and not plain.bidding
    with pytest.raises(ValueError, match="unknown game 'trump8'"):
        get_game("trump8")


def test_action_names() -> None:
    game = get_game("trump7-bid")
    assert game.action_name(0, 0) == "2C" and game.action_name(0, 51) == "AS"
    assert game.action_name(0, 21) == "10D" and game.action_name(1, 13) == "bid 13"
    assert game.action_name(1, 14) == "14"


@pytest.mark.parametrize("bidding", [False, True])
def test_compiled_random_play_equals_the_scalar_loop(bidding: bool) -> None:
    st, _ = play_random(11, np.arange(100, 400), bidding)
    assert np.array_equal(st.points, scalar_random_games(11, 100, 300, bidding))
    # chunks do not matter: the same games in two batches
    a, _ = play_random(11, np.arange(100, 250), bidding)
    assert np.array_equal(a.data, st.data[:150])


def test_stepwise_and_compiled_paths_give_the_same_games() -> None:
    game = get_game("trump7")
    seats = [Strategy()] * 4
    a = play_batch(seats, 8, range(200), path="stepwise", game=game)
    b = play_batch(seats, 8, range(200), path="compiled", game=game)
    assert np.array_equal(a.data, b.data)


def test_compiled_policies_and_events_match_the_stepwise_rules() -> None:
    """A deterministic compiled policy (lowest legal action) played by the whole-game
    loop gives the states and events of stepping the same choices through ``step``."""
    ids = np.arange(40)
    for bidding in (False, True):
        st, rows, err = play_policies((lowest_policy,) * 4, np.zeros((4, 1)), Chance(2), ids,
                                      bidding, keep_events=True)
        assert err[0] == -1
        log = ev.EventLog()
        ref = trump7.init(2, ids, bidding=bidding, events=log)
        got = [log.rows.copy()]
        legal = trump7.legal_action_mask(ref)
        while legal.any():
            low = np.where(legal > 0, np.bitwise_count((legal & -legal) - 1), 0)
            legal = trump7.step(ref, low.astype(np.int64), legal, events=log)
            got.append(log.rows.copy())
        assert np.array_equal(st.data, ref.data)
        flat = np.concatenate(got)
        per_game = flat[np.argsort(flat[:, 0], kind="stable")]
        assert np.array_equal(rows, per_game)


def test_an_illegal_compiled_action_is_reported() -> None:
    from numba import njit

    from trixsim.games.trix.policy import POLICY_SIG

    @njit(POLICY_SIG)
    def always_51(row, legal, hand, subkey, params, n_params):  # noqa: ANN001, ANN202
        return 51

    _, _, err = play_policies((uniform_policy, always_51, uniform_policy, uniform_policy),
                              np.zeros((4, 1)), Chance(0), np.arange(3), False,
                              builtin=[1, 0, 1, 1])
    assert err[0] == 0 and err[1] == 1 and err[3] == 51


def test_outcome_table() -> None:
    game = get_game("trump7-bid")
    log = game.outcomes(50, lineup=2)
    st = play_batch([Strategy()] * 4, 4, range(50), observer=log, game=game)
    table = log.tables(st, ["random"] * 4)["games"]
    assert table.num_rows == 50
    names = []
    for k in GAME_COLUMNS:
        names += [f"{k.split('..')[0][:-2]}_{s}" for s in range(4)] if ".." in k else [k]
    assert table.column_names == names
    assert set(game.table_schemas) == {"games"}
    d = table.to_pandas()
    pts = d[[f"points_{s}" for s in range(4)]].to_numpy()
    tricks = d[[f"tricks_{s}" for s in range(4)]].to_numpy()
    assert (tricks.sum(axis=1) == 13).all() and (d["lineup"] == 2).all()
    assert np.array_equal(pts, score(tricks, d[[f"bid_{s}" for s in range(4)]].to_numpy(),
                                     d[[f"honours_{s}" for s in range(4)]].to_numpy()))
    assert (d["winner_0"] == (pts[:, 0] == pts.max(axis=1))).all()
    assert (d["dealer"] == d["game"] % 4).all()
    assert set(d["trump"]) <= {"clubs", "diamonds", "hearts", "spades"}


def test_bad_inputs_are_refused_in_one_line() -> None:
    game = get_game("trump7")
    with pytest.raises(ValueError, match="no first picker"):
        game.init(0, [0], first_pickers=[1])
    st = game.init(0, [0, 1])
    with pytest.raises(trump7.IllegalActionError, match="expected 2 actions"):
        game.step(st, np.array([0]))
    with pytest.raises(ValueError, match="every card exactly once"):
        pack_from([[0] * 7] * 4, list(range(24)), 0)
    with pytest.raises(ValueError, match="exactly once"):
        Chance(0, np.zeros((1, 52), dtype=np.int64))
    with pytest.raises(ValueError, match="cover every game"):
        trump7.init(Chance(0, np.arange(52)[None]), [0, 1])


def test_the_audit_catches_points_changed_outside_the_rules() -> None:
    game = get_game("trump7-bid")
    st = game.init(1, np.arange(3))
    audit = game.audit(st)
    legal = game.legal_action_mask(st)
    while legal.any():
        legal = game.step(st, np.array([mask_lowest(int(m)) for m in legal]))
        if legal.any():
            assert audit.after_step(st) == (None, True)
    st.points[1, 2] += 1
    msg, live = audit.after_step(st)
    assert not live and msg is not None and msg.startswith("game 1: points")


def mask_lowest(m: int) -> int:
    return (m & -m).bit_length() - 1 if m else 0
