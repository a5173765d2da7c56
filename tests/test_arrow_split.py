"""``arrow.split_rows`` with an ``order`` gives the columns of the rows taken in that
order (the stepwise outcome table sorts its rows this way without copying them first)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from trixsim.arrow import split_rows

LAYOUT = {"a": (0, np.int8), "c": (2, np.int16), "b": (1, np.int64)}


@settings(max_examples=60, deadline=None)
@given(hs.integers(0, 40), hs.randoms(use_true_random=False))
def test_split_rows_in_an_order_equals_taking_the_rows_first(n: int, rnd) -> None:
    rng = np.random.default_rng(rnd.randrange(2**32))
    rows = rng.integers(-100, 100, size=(n, 4), dtype=np.int64)
    order = rng.permutation(n)[: rnd.randrange(n + 1)] if n else np.zeros(0, np.int64)
    got = split_rows(rows, LAYOUT, order)
    want = split_rows(rows[order], LAYOUT)
    assert list(got) == list(want)
    for name in want:
        assert got[name].dtype == want[name].dtype
        assert np.array_equal(got[name], want[name])
    plain = split_rows(rows, LAYOUT)
    assert all(np.array_equal(plain[k], rows[:, LAYOUT[k][0]]) for k in LAYOUT)


def test_a_value_outside_its_columns_type_is_refused() -> None:
    import pytest

    rows = np.array([[1, 2, 3, 0], [-129, 2, 3, 0]], dtype=np.int32)
    with pytest.raises(ValueError, match="int8"):
        split_rows(rows, LAYOUT)
    rows[1, 0] = -128
    assert split_rows(rows, LAYOUT)["a"].tolist() == [1, -128]
    rows[0, 2] = 40000
    with pytest.raises(ValueError, match="int16"):
        split_rows(rows, LAYOUT, np.array([1, 0]))
