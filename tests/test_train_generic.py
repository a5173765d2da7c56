"""``trixsim.train`` knows no game: the fit works on any models-by-features weights, the
verification plays whatever game it is given in that game's direction, and Trix's expert
is one ``Trainee`` (its plug-in, ``trixsim.strategies.expert_training``)."""

from __future__ import annotations

import numpy as np
from trixsim.strategies import _expert_kernels as K
from trixsim.strategies.expert_training.trainee import MODEL_NAMES, TRAINEE

from trixsim.pool import LocalBackend
from trixsim.train import Trainee
from trixsim.train.fit import agreement, fit, join
from trixsim.train.verify import deal_diffs, verify


def _choices(n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """``n`` decisions of 3 candidates each over 4 features; the teacher picks the one
    with the largest first feature (model 0) or the smallest second feature (model 1)."""
    X = rng.normal(size=(3 * n, 4))
    group = np.repeat(np.arange(n), 3)
    model = np.arange(n) % 2
    chosen = np.zeros(3 * n, dtype=bool)
    for g in range(n):
        x = X[3 * g:3 * g + 3]
        chosen[3 * g + (int(np.argmax(x[:, 0])) if model[g] == 0
                        else int(np.argmin(x[:, 1])))] = True
    return {"X": X, "group": group, "chosen": chosen, "model": model}


def test_the_fit_learns_any_shape_of_weights() -> None:
    t = _choices(400, np.random.default_rng(1))
    w = fit(t, np.zeros((2, 4)), steps=200)
    assert w.shape == (2, 4) and w[0, 0] > 0 and w[1, 1] < 0
    got = agreement(t, w)
    assert set(got) == {0, 1} and all(share > 0.9 for share, _ in got.values())
    assert got[0][1] + got[1][1] == 400


def test_join_keeps_the_order_given() -> None:
    a = {"action": np.array([1, 2]), "game": np.array([0, 0])}
    b = {"action": np.array([3]), "game": np.array([1])}
    assert join([a, b])["action"].tolist() == [1, 2, 3]


def test_verification_plays_the_game_it_is_given() -> None:
    """trump7 (higher is better): the same strategy against itself differs by nothing, and
    its heuristic gains points against random seats."""
    same = deal_diffs("trump7", "heuristic", "heuristic", 2, 0, 6)
    assert same[0].tolist() == list(range(6)) and not same[1].any()
    est = verify("trump7", "heuristic", "random", 2, 0, 60, LocalBackend(1))
    assert est["mean"] > 0 and est["lo"] <= est["mean"] <= est["hi"]


def test_the_expert_is_one_trainee() -> None:
    assert isinstance(TRAINEE, Trainee) and TRAINEE.game == "trix"
    assert TRAINEE.shape == (K.N_MODELS, K.N_FEATURES) == (len(MODEL_NAMES), K.N_FEATURES)
    w = TRAINEE.start_weights()
    assert w.shape == (K.N_MODELS * K.N_FEATURES,)
