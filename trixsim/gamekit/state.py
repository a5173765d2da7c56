"""A batch of games as one int64 row per game, fields named: the layout every compiled
game shares.

One 2-D array, not many, so compiled rule kernels take a single argument and a game's
whole state sits in a few adjacent cache lines. A game lists its fields (name, width,
initial value, meaning); ``Layout`` gives each its column offset, and a ``BatchState``
subclass gets a named view per field (``st.hands`` a (B, 4) view, ``st.phase`` a (B,)
view, both writable) and keeps the batch's chance source beside the rows, never in them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

Field = tuple[str, int, int, str]
"""(name, width in columns, initial value, meaning) of one field of a state row."""


SPARE = 2
"""Released state arrays a layout keeps for reuse (per process)."""


class Layout:
    """Column offsets of a game's fields: ``col[name]`` the first column, ``width`` the
    row's width, ``initial_row()`` a fresh row, ``rows(game_ids)`` fresh rows with their
    game ids (the field ``game_id`` is required).

    ``rows`` reuses an array a finished batch gave back (``BatchState.release``) when one of
    the same size is spare: a run plays slice after slice of one size, and writing into
    memory already mapped costs a fraction of mapping fresh pages."""

    def __init__(self, fields: tuple[Field, ...]) -> None:
        self.fields = fields
        self.col: dict[str, int] = {}
        off = 0
        for name, width, _, _ in fields:
            self.col[name] = off
            off += width
        self.width = off
        self._init = np.concatenate([np.full(w, v, dtype=np.int64) for _, w, v, _ in fields])
        self._spare: list[np.ndarray] = []
        self._lock = threading.Lock()  # a run's writer thread gives back, its player takes

    def initial_row(self) -> np.ndarray:
        """A fresh row (no game id, nothing dealt), e.g. for scalar loops."""
        return self._init.copy()

    def rows(self, game_ids: np.ndarray) -> np.ndarray:
        """Fresh rows for the given games, ``game_id`` set."""
        gid = np.asarray(game_ids, dtype=np.int64)
        data = self._take(len(gid))
        if data is None:
            data = np.tile(self._init, (len(gid), 1))
        else:
            data[:] = self._init
        data[:, self.col["game_id"]] = gid
        return data

    def _take(self, n: int) -> np.ndarray | None:
        with self._lock:
            for k in range(len(self._spare) - 1, -1, -1):  # the latest: warmest in cache
                if self._spare[k].shape[0] == n:
                    return self._spare.pop(k)
        return None

    def give_back(self, data: np.ndarray) -> None:
        """Keep a batch's array for a later ``rows`` (its owner no longer uses it)."""
        if data.shape[1] != self.width or not (data.flags.c_contiguous
                                               and data.flags.writeable):
            return
        with self._lock:
            if len(self._spare) >= SPARE:  # the oldest goes: the latest is warmest in cache
                self._spare.pop(0)
            self._spare.append(data)


@dataclass(frozen=True)
class SeedChance:
    """The chance source of a game that deals from (seed, game index) alone and imposes
    nothing: its ``seed``, the same for any sub-batch."""

    seed: int = 0

    def take(self, idx: np.ndarray) -> SeedChance:
        """The chance of some games of the batch: the same seed."""
        return self


def _view(off: int, width: int, doc: str) -> property:
    if width == 1:
        return property(lambda self: self.data[:, off], doc=doc)
    return property(lambda self: self.data[:, off:off + width], doc=doc)


class BatchState:
    """B independent games; ``data`` is the (B, width) int64 array the kernels work on,
    ``chance`` the batch's chance source (its ``seed``; ``take(idx)`` for a sub-batch).

    A subclass sets ``layout`` and ``chance_type`` (called with no argument for a default
    source) and gets one named view per field."""

    __slots__ = ("chance", "data")
    layout: ClassVar[Layout]
    chance_type: ClassVar[Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, width, _, doc in cls.layout.fields:
            setattr(cls, name, _view(cls.layout.col[name], width, doc))

    def __init__(self, data: np.ndarray, chance: Any = None) -> None:
        if data.ndim != 2 or data.shape[1] != self.layout.width or data.dtype != np.int64:
            raise ValueError("state data must be a (B, WIDTH) int64 array")
        self.data = data
        self.chance = chance if chance is not None else self.chance_type()

    @property
    def batch_size(self) -> int:
        """Number of games in the batch."""
        return self.data.shape[0]

    @property
    def run_seed(self) -> int:
        """The seed of the batch's chance source (never in ``data``)."""
        return self.chance.seed

    def release(self) -> None:
        """Give the rows back to the layout for a later batch of the same size; this state
        is unusable afterwards (a chunk's writer calls it once the tables are built)."""
        data, self.data = self.data, None
        if data is not None:
            self.layout.give_back(data)

    def copy(self) -> Any:
        """A deep copy (the chance source is immutable and shared)."""
        return type(self)(self.data.copy(), self.chance)

    def take(self, idx: np.ndarray) -> Any:
        """A new state holding only the games at ``idx``."""
        return type(self)(np.ascontiguousarray(self.data[idx]), self.chance.take(idx))


__all__ = ["BatchState", "Field", "Layout", "SeedChance"]
