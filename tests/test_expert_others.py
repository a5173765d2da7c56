"""``expert``'s two learned models: its own seat plays by its policy in the rollouts, the
other seats by the model of how they play (``strategies/expert_others.npz``), which also
weighs the worlds; ``others=own`` predicts them with the seat's own weights (the expert
of before). The bundled model is the one its provenance names."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from trixsim.strategies import _expert_search_kernels as S
from trixsim.strategies.expert import (
    BUNDLED_MODEL,
    BUNDLED_OTHERS,
    heuristic_params,
    policy_vector,
    read_model,
)

from trixsim.loading import StrategyLoadError, load_strategy


def _vector(path) -> np.ndarray:
    return np.concatenate([policy_vector(read_model(path)), heuristic_params()])


def _prm(spec: str) -> np.ndarray:
    return np.ascontiguousarray(load_strategy(spec, "trix").policy_params(), dtype=np.float64)


def test_the_parameter_vector_holds_the_seat_s_policy_then_the_others_model() -> None:
    prm = _prm("expert")
    assert np.array_equal(S.own_model(prm), _vector(BUNDLED_MODEL))
    assert np.array_equal(S.others_model(prm), _vector(BUNDLED_OTHERS))
    own = _prm("expert:others=own")
    assert np.array_equal(S.own_model(own), _vector(BUNDLED_MODEL))
    assert np.array_equal(S.others_model(own), _vector(BUNDLED_MODEL))
    # the head is the same but for where the others' model starts
    assert np.array_equal(prm[:S.P_OTHERS], own[:S.P_OTHERS])


def test_others_own_is_refused_only_for_unknown_values() -> None:
    load_strategy("expert:others=own", "trix")
    with pytest.raises(StrategyLoadError, match="others") as e:
        load_strategy("expert:others=human", "trix")
    assert "\n" not in str(e.value)


def test_the_bundled_others_model_is_the_one_its_provenance_names() -> None:
    doc = json.loads(BUNDLED_OTHERS.with_suffix(".json").read_text())
    assert hashlib.sha256(BUNDLED_OTHERS.read_bytes()).hexdigest() == doc["sha256"]
    assert doc["iterations"][-1]["weights_sha256"] == doc["sha256"]
    assert doc["trained_by"]["command"].startswith("trixsim train ")
    assert doc["trained_by"]["config"]["teacher"] == "pimc"
    assert BUNDLED_OTHERS.stat().st_size < 5_000_000
