"""What every game's observations share: a read-only bundle of fields, and the gathering
of the requested state columns for the games being decided.

An observation holds private arrays, no reference to the state. ``gather`` copies the
named columns of some games' rows into one new buffer per call, so a field (a view of
that buffer) can reach only what was gathered with it. ``gather_own`` does the same and,
in the same compiled pass, writes into separate arrays the columns the game needs to
build other fields (the seat to act, the phase...), the deciding seat's own hand and
every seat's hand size: the other seats' hands are read there and never copied out, so
no field can reach them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, NamedTuple

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
                    f"strategy's `observes` (and to this decision's set in its "
                    f"`observes_by_decision`, if it has one)") from None
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


def _layout(columns: Columns, names: Iterable[str]) -> tuple[list[int],
                                                           list[tuple[str, int, int]]]:
    """The state columns of the fields ``names`` (those in ``columns``), and where each
    field starts in the gathered buffer and how wide it is."""
    cols: list[int] = []
    layout: list[tuple[str, int, int]] = []
    for name in names:
        if name in columns:
            col, width, _ = columns[name]
            layout.append((name, len(cols), width))
            cols.extend(range(col, col + width))
    return cols, layout


def _fields(got: np.ndarray, layout: list[tuple[str, int, int]]) -> dict[str, np.ndarray]:
    """Each field as a view of the column-major buffer ``got``."""
    return {name: got[at] if width == 1 else got[at:at + width].T
            for name, at, width in layout}


def gather(data: np.ndarray, idx: np.ndarray, columns: Columns,
           names: Iterable[str]) -> dict[str, np.ndarray]:
    """The fields ``names`` (those of them in ``columns``) of the games at ``idx``: one
    compiled gather into a new column-major buffer, each field a view of it (a length-n
    array, or (n, width) for a field of several columns)."""
    cols, layout = _layout(columns, names)
    got = np.empty((len(cols), len(idx)), dtype=np.int64)
    _gather(data, np.asarray(idx, dtype=np.int64), np.array(cols, dtype=np.int64), got)
    return _fields(got, layout)


@njit(cache=True, inline="always")
def _popcount(x: int) -> int:
    """Set bits of a card mask (a hand holds a handful: one turn each)."""
    c = 0
    while x != 0:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _gather_own(data: np.ndarray, idx: np.ndarray, cols: np.ndarray, extra: np.ndarray,
                seat_col: int, viewer: np.ndarray, hands_col: int, hand: bool,
                n_sizes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                       np.ndarray]:
    """One pass over the games at ``idx``, into new arrays: the public columns
    (column-major), the ``extra`` columns, the seat (``viewer``'s, else the seat to act),
    its own hand (if ``hand``) and the hand sizes of ``n_sizes`` seats."""
    n = idx.shape[0]
    out = np.empty((cols.shape[0], n), dtype=np.int64)
    ex = np.empty((extra.shape[0], n), dtype=np.int64)
    seats = np.empty(n, dtype=np.int64)
    own = np.empty(n if hand else 0, dtype=np.int64)
    sizes = np.empty((n, n_sizes), dtype=np.int64)
    for i in range(n):
        g = idx[i]
        for j in range(cols.shape[0]):
            out[j, i] = data[g, cols[j]]
        for j in range(extra.shape[0]):
            ex[j, i] = data[g, extra[j]]
        s = viewer[i] if viewer.shape[0] > 0 else data[g, seat_col]
        seats[i] = s
        if hand:
            own[i] = data[g, hands_col + s]
        for k in range(n_sizes):
            sizes[i, k] = _popcount(data[g, hands_col + k])
    return out, ex, seats, own, sizes


class Gathered(NamedTuple):
    """What ``gather_own`` returns: the public fields by name, the extra columns (one row
    each, in the order asked), each game's seat, its own hand and the (n, seats) hand
    sizes (None where not asked)."""

    fields: dict[str, np.ndarray]
    extra: np.ndarray
    seats: np.ndarray
    hand: np.ndarray | None
    sizes: np.ndarray | None


class Plan(NamedTuple):
    """What ``gather_own`` copies, worked out once per set of fields (see ``plan``)."""

    cols: np.ndarray
    layout: list[tuple[str, int, int]]
    extra: np.ndarray


def plan(columns: Columns, names: Iterable[str], extra: Sequence[int]) -> Plan:
    """The gather of the public fields ``names`` (those in ``columns``) and of the
    ``extra`` state columns, for ``gather_own``: a game makes it once per set of fields."""
    cols, layout = _layout(columns, names)
    return Plan(np.array(cols, dtype=np.int64), layout, np.array(extra, dtype=np.int64))


def gather_own(data: np.ndarray, idx: np.ndarray, what: Plan, seat_col: int,
               hands_col: int, n_hands: int, hand: bool, sizes: bool,
               viewer: np.ndarray | None = None) -> Gathered:
    """``gather`` of the plan's public fields, and in the same compiled pass its extra
    columns, the seat (``viewer``'s where given, else the column ``seat_col``: the seat
    to act), its own hand from the ``n_hands`` hand columns at ``hands_col`` (``hand``)
    and every seat's hand size (``sizes``), each into an array of its own: no field is
    a view of anything holding a hand."""
    cols, layout, extra = what
    view = _NO_VIEWER if viewer is None else np.ascontiguousarray(viewer, dtype=np.int64)
    got, ex, seats, own, counts = _gather_own(
        data, np.asarray(idx, dtype=np.int64), cols, extra, seat_col, view, hands_col, hand,
        n_hands if sizes else 0)
    return Gathered(_fields(got, layout), ex, seats, own if hand else None,
                    counts if sizes else None)


_NO_VIEWER = np.zeros(0, dtype=np.int64)


def own_hand(data: np.ndarray, idx: np.ndarray, hands_col: int,
             seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each game's ``seats`` hand, every seat's hand (n, 4)) of the games at ``idx``,
    gathered apart from any public field; the second must not reach an observation
    (``gather_own`` does both in the public fields' pass and copies no other hand)."""
    hands = gather(data, idx, {"hands": (hands_col, 4, "")}, ("hands",))["hands"]
    return hands[np.arange(len(hands)), seats].copy(), hands


__all__ = ["Columns", "Gathered", "Observation", "Plan", "gather", "gather_own", "own_hand",
           "plan"]
