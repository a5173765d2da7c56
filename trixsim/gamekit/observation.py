"""What every game's observations share: a read-only bundle of fields, and the gathering
of the requested state columns for the games being decided.

An observation holds private arrays, no reference to the state. ``gather`` copies the
named columns of some games' rows into one new buffer per call, so a field (a view of
that buffer) can reach only what was gathered with it: a game gathers its public fields
in one call and any hidden columns it needs (the seat's own hand) in another.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import numpy as np
from numba import njit

Columns = dict[str, tuple[int, int, str]]
"""Field name -> (first column in the state row, width, meaning)."""


class Observation:
    """What a seat knows, for ``n`` games at once (one row per game); read-only. A
    strategy that declares the fields it reads gets only those; reading an undeclared one
    is an error. A game's subclass sets ``FIELDS`` (every field it has) and ``what`` (the
    words naming its observations in messages)."""

    __slots__ = ("_f",)
    FIELDS: ClassVar[tuple[str, ...]] = ()
    what: ClassVar[str] = "observations"

    def __init__(self, fields: dict[str, np.ndarray]) -> None:
        for a in fields.values():
            a.flags.writeable = False
        object.__setattr__(self, "_f", fields)

    def __getattr__(self, name: str) -> np.ndarray:
        try:
            return self._f[name]
        except KeyError:
            if name in self.FIELDS:
                raise AttributeError(
                    f"observation field {name!r} was not requested: add it to the "
                    f"strategy's `observes`") from None
            raise AttributeError(f"{self.what} have no field {name!r}") from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("observations are read-only")

    def __len__(self) -> int:
        return len(self._f["legal"])

    def __contains__(self, name: str) -> bool:
        return name in self._f

    def select(self, rows: np.ndarray) -> Observation:
        """The observation restricted to some of its games."""
        return type(self)({k: v[rows] for k, v in self._f.items()})


@njit(cache=True)
def _gather(data: np.ndarray, idx: np.ndarray, cols: np.ndarray, out: np.ndarray) -> None:
    """``out[j, i] = data[idx[i], cols[j]]``: the requested columns of the games at
    ``idx``, one pass."""
    for i in range(idx.shape[0]):
        g = idx[i]
        for j in range(cols.shape[0]):
            out[j, i] = data[g, cols[j]]


def gather(data: np.ndarray, idx: np.ndarray, columns: Columns,
           names: Iterable[str]) -> dict[str, np.ndarray]:
    """The fields ``names`` (those of them in ``columns``) of the games at ``idx``: one
    compiled gather into a new column-major buffer, each field a view of it (a length-n
    array, or (n, width) for a field of several columns)."""
    cols: list[int] = []
    layout: list[tuple[str, int, int]] = []
    for name in names:
        if name in columns:
            col, width, _ = columns[name]
            layout.append((name, len(cols), width))
            cols.extend(range(col, col + width))
    got = np.empty((len(cols), len(idx)), dtype=np.int64)
    _gather(data, np.asarray(idx, dtype=np.int64), np.array(cols, dtype=np.int64), got)
    return {name: got[at] if width == 1 else got[at:at + width].T
            for name, at, width in layout}


def own_hand(data: np.ndarray, idx: np.ndarray, hands_col: int,
             seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each game's ``seats`` hand, every seat's hand (n, 4)) of the games at ``idx``,
    gathered apart from any public field; the second must not reach an observation."""
    hands = gather(data, idx, {"hands": (hands_col, 4, "")}, ("hands",))["hands"]
    return hands[np.arange(len(hands)), seats].copy(), hands


__all__ = ["Columns", "Observation", "gather", "own_hand"]
