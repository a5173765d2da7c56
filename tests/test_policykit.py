"""``policykit``'s pointer views, which the compiled loops and the search driver use to
reach arrays without numba's reference counting."""

from __future__ import annotations

import numpy as np
from numba import njit

from trixsim.policykit import param_vector, unowned


@njit(cache=False)
def _write_through(S: np.ndarray) -> int:
    V = unowned(S)
    V[1, 2] = 7
    return V.shape[0] * 1000 + V.shape[1] + S[1, 2]


@njit(cache=False)
def _sum_params(S: np.ndarray) -> float:
    p = param_vector(S.ctypes.data, S.shape[0])
    return p.sum()


def test_unowned_is_the_same_rows() -> None:
    """The view has the array's shape and writes into its memory."""
    S = np.zeros((3, 5), dtype=np.int64)
    assert _write_through(S) == 3 * 1000 + 5 + 7
    assert S[1, 2] == 7 and S.sum() == 7


def test_param_vector_reads_the_parameters() -> None:
    assert _sum_params(np.array([0.5, 1.5, 2.0])) == 4.0
