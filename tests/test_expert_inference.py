"""``expert``'s inference: a sampled world is the likeliest-weighted of ``infer`` candidate
deals, by how likely the learned policy makes the other seats' actions of the contract.
The likelihood is the policy's log-probabilities of exactly those actions, -inf for a deal
that could not have played them; worlds drawn this way put the hidden cards where they
really are more often than pimc's worlds; ``infer=1`` is pimc's worlds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from trixsim.strategies import _expert_kernels as E
from trixsim.strategies import _expert_search_kernels as S

from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import init, legal_action_mask, step
from trixsim.games.trix.replay import contract_start, n_moves, replay_action
from trixsim.games.trix.rules import legal_one
from trixsim.games.trix.state import COL, WIDTH
from trixsim.games.trix.transitions import step_one
from trixsim.games.trix.types import DONE, PLACE
from trixsim.games.trix.worlds import sample_world
from trixsim.loading import load_seats, load_strategy
from trixsim.search.pimc import SAMPLE_WORK
from trixsim.sim import decide

_HANDS, _TURN = COL["hands"], COL["turn"]


def _states(seed: int, games: int, spec: str = "expert-policy"):
    """Every state of games played by ``spec`` in the four seats, at a decision."""
    seats = load_seats(spec, "trix")
    st = init(seed, range(games))
    legal = legal_action_mask(st)
    while (st.phase != DONE).any():
        for s in st.data:
            if s[COL["phase"]] != DONE:
                yield s.copy()
        legal = step(st, decide(st, seats, legal, game=TRIX_RULES), legal)


def _params(infer: int) -> np.ndarray:
    return np.ascontiguousarray(
        load_strategy(f"expert:infer={infer}", "trix").policy_params(), dtype=np.float64)


def _public(s: np.ndarray) -> np.ndarray:
    """The row as the deciding seat sees it: the other hands zeroed."""
    p = s.copy()
    for q in range(4):
        if q != s[_TURN]:
            p[_HANDS + q] = 0
    return p


def test_the_likelihood_is_the_policy_s_log_probabilities_of_the_others_actions() -> None:
    wp = _params(4)[S.P_MODEL:]
    R = np.zeros((1, WIDTH), dtype=np.int64)
    checked = 0
    for s in _states(3, 4):
        if n_moves(s) < 2 or checked > 300:
            continue
        me = int(s[_TURN])
        hands = s[_HANDS:_HANDS + 4].copy()
        got = S.history_log_lik(_public(s), me, hands, wp, R)
        # the long way: replay, and add each other seat's real choice's log-probability
        want, k = 0.0, 0
        contract_start(s, hands, R)
        while True:
            a, _, k = replay_action(s, R, k)
            if a < 0:
                break
            lm = legal_one(R, 0)
            t = int(R[0, _TURN])
            if t != me and bin(lm).count("1") > 1:
                want += E.action_log_prob(R[0].copy(), int(R[0, _HANDS + t]), lm, a, wp)
            step_one(R, 0, a)
        assert np.isfinite(got) and got <= 0.0
        assert got == pytest.approx(want, abs=1e-9)
        checked += 1
    assert checked > 300


def test_a_deal_that_could_not_have_played_the_history_is_impossible() -> None:
    wp = _params(4)[S.P_MODEL:]
    R = np.zeros((1, WIDTH), dtype=np.int64)
    impossible = 0
    for s in _states(4, 4):
        if n_moves(s) < 10 or s[COL["phase"]] == PLACE:
            continue
        me = int(s[_TURN])
        a, b = (me + 1) % 4, (me + 2) % 4
        pa, pb = int(s[COL["played_by"] + a]), int(s[COL["played_by"] + b])
        if not pa or not pb:
            continue
        # give a the cards b played and b those a played, as if they had held them
        hands = s[_HANDS:_HANDS + 4].copy()
        hands[a], hands[b] = hands[a] | pb & ~pa, hands[b] | pa & ~pb
        hands[a] &= ~pa | pb
        hands[b] &= ~pb | pa
        t = _public(s)
        t[COL["played_by"] + a], t[COL["played_by"] + b] = pb, pa
        if S.history_log_lik(t, me, hands, wp, R) == -np.inf:
            impossible += 1
    assert impossible > 50


def _script():
    """``scripts/inference_accuracy.py``, which measures what the README reports."""
    path = Path(__file__).resolve().parents[1] / "scripts" / "inference_accuracy.py"
    spec = importlib.util.spec_from_file_location("inference_accuracy_under_test", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_inference_finds_the_hidden_cards_more_often_than_pimc_s_worlds() -> None:
    acc = _script()
    states = acc.positions("expert-policy", 5, 6, 9, 7, False)
    assert len(states) > 100
    plain, inferred = acc.placed_right(1, states, 8), acc.placed_right(8, states, 8)
    assert inferred > plain + 0.02, (plain, inferred)


def test_one_candidate_is_pimc_s_world() -> None:
    prm = _params(1)
    W = np.zeros((1, WIDTH), dtype=np.int64)
    V = np.zeros((1, WIDTH), dtype=np.int64)
    work = np.zeros(SAMPLE_WORK, dtype=np.int64)
    for i, s in enumerate(list(_states(6, 2))[::40]):
        me, p = int(s[_TURN]), _public(s)
        S._sample(p, me, int(s[_HANDS + me]), i, prm, W, work)
        sample_world(p, me, int(s[_HANDS + me]), i, prm, V, work)
        assert (W == V).all()


@pytest.mark.parametrize("spec", ["expert:infer=0", "expert:sharp=-1"])
def test_bad_inference_parameters_are_refused_in_one_line(spec: str) -> None:
    from trixsim.loading import StrategyLoadError

    with pytest.raises(StrategyLoadError, match="infer|sharp") as e:
        load_strategy(spec, "trix")
    assert "\n" not in str(e.value)


@pytest.mark.slow
def test_expert_with_inference_plays_fairly_and_as_its_methods() -> None:
    """The re-dealing checks: the same answer whatever the hidden cards (inference reads
    only the public history and the seat's own hand), on the compiled and stepwise paths."""
    from trixsim.testing import check_policy

    check_policy(load_strategy("expert:worlds=2,infer=8", "trix"), games=3, seed=4)
