"""``trixsim.train`` knows no game: the fit works on any number of models, features and
hidden units, the
verification plays whatever game it is given in that game's direction, and Trix's expert
is one ``Trainee`` (its plug-in, ``trixsim.strategies.expert_training``)."""

from __future__ import annotations

import numpy as np
from trixsim.strategies import _expert_kernels as K
from trixsim.strategies.expert_training.trainee import MODEL_NAMES, TRAINEE

from trixsim import learned
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
    w = fit(t, learned.start_weights(2, 4, 0, np.zeros((2, 4))), steps=300, lr=0.05)
    assert w["u"].shape == (2, 4) and w["u"][0, 0] > 0 and w["u"][1, 1] < 0
    got = agreement(t, w)
    assert set(got) == {0, 1} and all(share > 0.9 for share, _ in got.values())
    assert got[0][1] + got[1][1] == 400


def test_the_hidden_layer_learns_what_no_linear_model_can() -> None:
    """The teacher picks the candidate farthest from zero in its first feature: no linear
    score ranks that, a layer of rectified units does."""
    rng = np.random.default_rng(2)
    n = 1500
    X = rng.normal(size=(3 * n, 2))
    chosen = np.zeros(3 * n, dtype=bool)
    chosen[3 * np.arange(n) + np.abs(X[:, 0]).reshape(n, 3).argmax(axis=1)] = True
    t = {"X": X, "group": np.repeat(np.arange(n), 3), "chosen": chosen,
         "model": np.zeros(n, dtype=np.int64)}
    flat = fit(t, learned.start_weights(1, 2, 0, np.zeros((1, 2))), steps=600, lr=0.02)
    deep = fit(t, learned.start_weights(1, 2, 16, np.zeros((1, 2))), steps=600, lr=0.02)
    assert agreement(t, flat)[0][0] < 0.6 < 0.9 < agreement(t, deep)[0][0]
    again = fit(t, learned.start_weights(1, 2, 16, np.zeros((1, 2))), steps=600, lr=0.02)
    assert all(np.array_equal(deep[k], again[k]) for k in deep)  # seeded: the same fit


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
    assert (K.N_MODELS, K.N_FEATURES) == (len(MODEL_NAMES), TRAINEE.n_features)
    w = TRAINEE.start_weights(4)
    assert w["u"].shape == (K.N_MODELS, K.N_FEATURES)
    assert w["W"].shape == (K.N_MODELS, K.N_FEATURES, 4) and not w["v"].any()
