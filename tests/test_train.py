"""``trixsim train`` and the learned ``expert`` policy: loading weights, compiled and
batched answers alike and fair, reproducible data, resume that checks what it trusts,
Ctrl-C keeping finished iterations."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from trixsim.strategies import _expert_kernels as K
from trixsim.strategies.expert import (
    LINEAR_FORMAT,
    ExpertPolicy,
    heuristic_params,
    policy_vector,
    read_model,
    start_weights,
    write_model,
)
from trixsim.strategies.expert_training.data import collect, features
from trixsim.strategies.expert_training.trainee import TRAINEE

from trixsim import learned
from trixsim.cli import cli
from trixsim.loading import StrategyLoadError, load_strategy
from trixsim.pool import LocalBackend
from trixsim.testing import check_policy
from trixsim.train import TrainConfig, TrainError, train

SMALL = TrainConfig(teacher="heuristic", seed=3, iterations=2, deals=10, verify=50, steps=30,
                    hidden=8)


def _weights(seed: int, hidden: int = 8) -> learned.Weights:
    gen = np.random.default_rng(seed)
    m, f = K.N_MODELS, K.N_FEATURES
    return {"u": gen.normal(size=(m, f)), "W": gen.normal(size=(m, f, hidden)),
            "b": gen.normal(size=(m, hidden)), "v": gen.normal(size=(m, hidden))}


def _same(a: learned.Weights, b: learned.Weights) -> bool:
    return set(a) == set(b) and all(np.array_equal(a[k], b[k]) for k in a)


def test_expert_loads_weights_from_a_file_and_refuses_bad_ones(tmp_path: Path) -> None:
    path = tmp_path / "model.npz"
    write_model(path, _weights(1))
    for name in ("expert-policy", "expert"):  # the policy, and the search rolled out with it
        s = load_strategy(f"{name}@{path}", "trix")
        assert _same(s.weights, _weights(1))
    wrong = {**_weights(1), "b": np.zeros((K.N_MODELS, 3))}  # 8 hidden units, 3 biases
    write_model(tmp_path / "wrong.npz", wrong)
    with pytest.raises(StrategyLoadError, match="not an expert model"):
        load_strategy(f"expert@{tmp_path / 'wrong.npz'}", "trix")
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(StrategyLoadError, match="not an expert model"):
        load_strategy(f"expert@{tmp_path / 'bad.npz'}", "trix")
    with pytest.raises(StrategyLoadError, match="not found"):
        load_strategy(f"expert@{tmp_path / 'none.npz'}", "trix")
    with pytest.raises(StrategyLoadError, match="takes no data file"):
        load_strategy(f"heuristic@{path}", "trix")


def test_expert_policy_plays_as_its_methods_and_fairly(tmp_path: Path) -> None:
    # check_policy: the compiled policy answers as the methods, whatever the hidden cards
    s = ExpertPolicy()
    s.weights = _weights(2)
    check_policy(s, games=6, seed=4)


def test_a_linear_model_file_of_before_plays_as_hidden_width_zero(tmp_path: Path) -> None:
    u = _weights(5)["u"]
    with open(tmp_path / "old.npz", "wb") as f:
        np.savez_compressed(f, format=np.array(LINEAR_FORMAT), weights=u)
    w = read_model(tmp_path / "old.npz")
    assert _same(w, learned.linear(u)) and w["W"].shape == (K.N_MODELS, K.N_FEATURES, 0)
    d = collect("heuristic", None, 6, 0, 1)
    vec = np.concatenate([policy_vector(w), heuristic_params()])
    for i in range(0, len(d["action"]), 5):
        s, hand, lg = d["rows"][i], int(d["hand"][i]), int(d["legal"][i])
        f = np.empty(K.N_FEATURES)
        acts = [a for a in range(33) if (lg >> a) & 1]
        m = K.model_of(s)
        top = None
        for a in acts:  # the linear score, as the models of before computed it
            K.candidate_features(s, hand, a, K.trix_excluded(s), K.H.heuristic_decide(
                s, lg, hand, heuristic_params()), f)
            z = float(u[m] @ f)
            if top is None or z > top[0]:
                top = (z, a)
        assert K.best_action(s, hand, lg, vec) == top[1]


def test_the_compiled_scores_are_the_fit_s_scores() -> None:
    d = collect("heuristic", None, 7, 0, 1)
    t = features(d)
    w = _weights(4, hidden=16)
    vec = np.concatenate([policy_vector(w), heuristic_params()])
    h, nz = np.empty(16), np.empty(K.N_FEATURES, dtype=np.int64)
    model = t["model"][t["group"]]
    for j in range(0, len(model), 11):
        want = learned.scores(t["X"][j:j + 1], w, int(model[j]))[0]
        assert abs(K.score(vec, int(model[j]), t["X"][j], h, nz) - want) < 1e-9


def test_untrained_weights_play_exactly_as_heuristic() -> None:
    from trixsim.games.trix import GAME
    from trixsim.sim import play_batch

    s = ExpertPolicy()
    s.weights = start_weights(16)  # a hidden layer that weighs nothing yet
    ids = np.arange(30)
    for path in ("compiled", "stepwise"):
        a = play_batch([s] * 4, 8, ids, path=path, game=GAME)
        b = play_batch([load_strategy("heuristic", "trix")] * 4, 8, ids, path=path, game=GAME)
        assert np.array_equal(a.data, b.data)


def test_the_data_of_a_job_depend_only_on_its_deals() -> None:
    whole = collect("heuristic", None, 5, 0, 6)
    halves = [collect("heuristic", None, 5, 0, 3), collect("heuristic", None, 5, 3, 6)]
    for k in whole:
        assert np.array_equal(whole[k], np.concatenate([h[k] for h in halves]))
    # the labels are the teacher's answers: heuristic labelling its own play agrees
    assert len(whole["action"]) > 1000


def test_training_learns_the_teacher_and_verifies_each_iteration(tmp_path: Path) -> None:
    out = tmp_path / "t"
    hist = train(SMALL, out, LocalBackend(1), trainee=TRAINEE, log=lambda s: None)
    assert [h["iteration"] for h in hist] == [0, 1]
    assert (out / "model.npz").stat().st_size < 5_000_000
    assert (out / "strength.png").exists() and (out / "agreement.png").exists()
    # the model must have learnt much of heuristic's card play
    assert hist[-1]["agreement_after_fit"]["general"][0] > 0.6
    v = hist[-1]["verify"]
    assert v["lo"] <= v["mean"] <= v["hi"] and v["deals"][1] - v["deals"][0] == 50
    meta = json.loads((out / "train.json").read_text())
    assert meta["config"]["teacher"] == "heuristic" and "trixsim train" in meta["command"]
    s = load_strategy(f"expert-policy@{out / 'model.npz'}", "trix")
    assert s.weights["W"].shape == (K.N_MODELS, K.N_FEATURES, SMALL.hidden)


def test_resume_retrains_what_no_longer_matches_and_refuses_other_settings(
        tmp_path: Path) -> None:
    out = tmp_path / "t"
    one = TrainConfig(**{**SMALL.__dict__, "iterations": 1})
    first = train(one, out, LocalBackend(1), trainee=TRAINEE, log=lambda s: None)
    with pytest.raises(TrainError, match="other settings"):
        train(TrainConfig(**{**SMALL.__dict__, "seed": 9}), out, LocalBackend(1),
              resume=True, trainee=TRAINEE)
    with pytest.raises(TrainError, match="not empty"):
        train(SMALL, out, LocalBackend(1), trainee=TRAINEE)
    both = train(SMALL, out, LocalBackend(1), resume=True, log=lambda s: None,
                 trainee=TRAINEE)
    assert both[0] == first[0] and len(both) == 2
    # a data file changed behind its back: that iteration and the next are trained again
    data = out / "data" / "001.npz"
    data.write_bytes(data.read_bytes() + b"x")
    said: list[str] = []
    again = train(SMALL, out, LocalBackend(1), resume=True, log=said.append,
                  trainee=TRAINEE)
    assert again[1]["data_sha256"] == both[1]["data_sha256"]  # the same data, made again
    assert any("trained again" in s for s in said)


def test_cli_ctrl_c_keeps_finished_iterations(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import trixsim.train as T

    calls = {"n": 0}
    real = T.fit

    def fit_then_stop(*a, **k):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(T, "fit", fit_then_stop)
    out = tmp_path / "t"
    args = ["train", str(out), "--teacher", "heuristic", "--iterations", "2", "--deals",
            "10", "--verify", "50", "--steps", "10", "--seed", "3"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 130, r.output
    assert "finished iterations are kept" in r.output and "Traceback" not in r.output
    assert len(json.loads((out / "history.json").read_text())) == 1
    monkeypatch.setattr(T, "fit", real)
    r = CliRunner().invoke(cli, [*args, "--resume"])
    assert r.exit_code == 0, r.output
    assert len(json.loads((out / "history.json").read_text())) == 2


def test_cli_refuses_a_bad_teacher_and_a_used_folder(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["train", str(tmp_path / "x"), "--teacher", "nosuch"])
    assert r.exit_code == 2 and "--teacher" in r.output and "Traceback" not in r.output
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "keep.txt").write_text("mine")
    r = CliRunner().invoke(cli, ["train", str(tmp_path / "used"), "--teacher", "heuristic"])
    assert r.exit_code == 2 and "not empty" in r.output
    assert (tmp_path / "used" / "keep.txt").read_text() == "mine"


@pytest.mark.slow
def test_data_are_the_same_whatever_the_worker_count(tmp_path: Path) -> None:
    one = TrainConfig(**{**SMALL.__dict__, "iterations": 1, "deals": 20})
    a = train(one, tmp_path / "a", LocalBackend(1), trainee=TRAINEE, log=lambda s: None)
    b = train(one, tmp_path / "b", LocalBackend(2), trainee=TRAINEE, log=lambda s: None)
    assert a[0]["data_sha256"] == b[0]["data_sha256"]
    assert a[0]["weights_sha256"] == b[0]["weights_sha256"]
    assert a[0]["verify"] == b[0]["verify"]


@pytest.mark.slow
def test_expert_s_search_plays_as_its_methods_and_fairly() -> None:
    check_policy(load_strategy("expert:worlds=2", "trix"), games=3, seed=2)


def test_log_probabilities_sum_to_one_and_peak_at_the_policy_choice() -> None:
    d = collect("heuristic", None, 6, 0, 1)
    w = np.concatenate([policy_vector(_weights(3)), heuristic_params()])
    for i in range(0, len(d["action"]), 7):
        s, hand, lg = d["rows"][i], int(d["hand"][i]), int(d["legal"][i])
        acts = [a for a in range(33) if (lg >> a) & 1]
        lp = np.array([K.action_log_prob(s, hand, lg, a, w) for a in acts])
        assert abs(np.exp(lp).sum() - 1) < 1e-9
        assert acts[int(np.argmax(lp))] == K.best_action(s, hand, lg, w)


def test_the_bundled_model_is_the_one_its_provenance_names() -> None:
    import hashlib

    from trixsim.strategies.expert import BUNDLED_MODEL

    doc = json.loads(BUNDLED_MODEL.with_suffix(".json").read_text())
    assert hashlib.sha256(BUNDLED_MODEL.read_bytes()).hexdigest() == doc["sha256"]
    assert doc["iterations"][-1]["weights_sha256"] == doc["sha256"]
    assert "trixsim train" in doc["trained_by"]["command"]
    assert BUNDLED_MODEL.stat().st_size < 5_000_000
    assert _same(ExpertPolicy().weights, read_model(BUNDLED_MODEL))
    assert _same(load_strategy("expert", "trix").weights, read_model(BUNDLED_MODEL))
