"""A run reuses the arrays of a finished slice (its state rows and Trix's contract rows)
for the next one; the tables built before they were given back must not change."""

from __future__ import annotations

import numpy as np
import pytest

from trixsim.games import get_game
from trixsim.loading import load_seats
from trixsim.sim import play_batch


@pytest.mark.parametrize("game", ["trix", "trump7"])
@pytest.mark.parametrize("batch", [1, 6])
def test_released_arrays_serve_the_next_batch_and_tables_keep_their_rows(
        game: str, batch: int) -> None:
    rules = get_game(game)
    seats = load_seats("random", game)
    log = rules.outcomes(batch)
    st = play_batch(seats, 5, range(batch), observer=log, game=rules)
    tables = log.tables(st, ["random"] * 4)
    before = {name: t.to_pydict() for name, t in tables.items()}
    data = st.data
    held = [getattr(log, "_rows", None)]
    log_release = getattr(log, "release", None)
    if log_release is not None:
        log_release()
    st.release()
    with pytest.raises(TypeError):  # a released state is not used again by mistake
        st.hands.sum()
    log2 = rules.outcomes(batch)
    st2 = play_batch(seats, 6, range(100, 100 + batch), observer=log2, game=rules)
    assert st2.data is data  # the same memory, filled afresh
    if held[0] is not None:
        assert log2._rows is held[0]
    assert {name: t.to_pydict() for name, t in tables.items()} == before
    fresh = rules.outcomes(batch)
    again = play_batch(seats, 6, range(100, 100 + batch), observer=fresh, game=rules)
    assert np.array_equal(again.data, st2.data)
    for name, t in log2.tables(st2, ["random"] * 4).items():
        assert t.equals(fresh.tables(again, ["random"] * 4)[name])
