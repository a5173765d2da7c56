"""The learned policy's compiled scorer computes ``u·f + v·max(0, Wᵀf + b)`` exactly as
the plain loops do, term by term in the same order, so a faster scorer changes no
decision of ``expert`` or ``expert-policy``."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from trixsim.strategies import _expert_kernels as E
from trixsim.strategies.expert import (
    BUNDLED_MODEL,
    heuristic_params,
    policy_vector,
    read_model,
)

_W = np.concatenate([policy_vector(read_model(BUNDLED_MODEL)), heuristic_params()])


def _plain_score(w: np.ndarray, m: int, f: np.ndarray) -> float:
    """The scorer as plain loops: the linear part, then the hidden units in order."""
    hidden = int(w[0])
    base = 1 + m * E.block_size(hidden)
    bb = base + E.N_FEATURES * hidden
    bv, bu = bb + hidden, bb + 2 * hidden
    h = [float(w[bb + k]) for k in range(hidden)]
    z = 0.0
    for j in range(E.N_FEATURES):
        x = float(f[j])
        if x != 0.0:
            z += float(w[bu + j]) * x
            for k in range(hidden):
                h[k] += x * float(w[base + j * hidden + k])
    for k in range(hidden):
        if h[k] > 0.0:
            z += float(w[bv + k]) * h[k]
    return z


@settings(max_examples=60, deadline=None)
@given(m=st.integers(0, E.N_MODELS - 1),
       nonzero=st.dictionaries(st.integers(0, E.N_FEATURES - 1),
                               st.floats(-8.0, 8.0, allow_nan=False), max_size=24))
def test_the_compiled_score_is_the_plain_loops_to_the_bit(m: int, nonzero: dict) -> None:
    f = np.zeros(E.N_FEATURES)
    for j, x in nonzero.items():
        f[j] = x
    h = np.empty(int(_W[0]))
    assert E.score(_W, m, f, h, np.empty(E.N_FEATURES, dtype=np.int64)) == \
        _plain_score(_W, m, f)
