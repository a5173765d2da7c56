"""The event buffer compiled rules write into, and what every game's events share.

A game's compiled ``init`` and ``step`` write one int64 row per event, ``[batch position,
kind, seat, a number of the game's choosing, payload ...]``, ``width`` columns in all, at
most ``per_step`` events per game per call. Nobody asking costs nothing: without a log
the kernels get ``no_events(width)``, a buffer of no rows, and write none. A game's events
module subclasses ``EventLog`` with its width and room, and decodes rows into small
immutable ``Event`` objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numba import njit


class EventLog:
    """A reusable buffer for the events of one ``init`` or ``step`` call; a subclass sets
    ``width`` (columns per row) and ``per_step`` (most events per game per call)."""

    width: ClassVar[int]
    per_step: ClassVar[int]

    def __init__(self, kinds: frozenset[int] | None = None) -> None:
        self._buf = np.zeros((0, self.width), dtype=np.int64)
        self._n = np.zeros(1, dtype=np.int64)
        self.kinds = kinds
        """The event kinds wanted (None: all). The rules may then leave out the others,
        so that a reader of a few kinds (the outcome tables) does not pay for every
        card; they may still write some that were not asked for."""

    def prepare(self, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """Empty the log and return (buffer, counter) large enough for one call."""
        need = self.per_step * batch + 1
        if self._buf.shape[0] < need:
            self._buf = np.zeros((need, self.width), dtype=np.int64)
        self._n[0] = 0
        return self._buf, self._n

    @property
    def rows(self) -> np.ndarray:
        """The events of the last call, one row each, in the order they happened per game."""
        return self._buf[:int(self._n[0])]

    def __len__(self) -> int:
        return int(self._n[0])


_NONE: dict[int, np.ndarray] = {}


def no_events(width: int) -> np.ndarray:
    """The buffer kernels get when nobody asks for events: no rows, so none are written
    (one per width, made once)."""
    if width not in _NONE:
        _NONE[width] = np.zeros((0, width), dtype=np.int64)
    return _NONE[width]


def buffers(events: Any, batch: int, width: int, per_step: int,
            game: str) -> tuple[np.ndarray, np.ndarray]:
    """The event buffer and counter for one call of ``game``'s rules (empty ones when
    ``events`` is None). Any log whose ``prepare(batch)`` gives int64 rows of ``width``
    columns, ``per_step`` per game, will do; another is refused (ValueError) before a
    kernel could write past it."""
    if events is None:
        return no_events(width), np.zeros(1, dtype=np.int64)
    E, n = events.prepare(batch)
    if E.ndim != 2 or E.shape[1] != width or E.shape[0] < per_step * batch or \
            E.dtype != np.int64:
        raise ValueError(f"an event log for {game} needs ({per_step} x batch, {width}) "
                         "int64 rows")
    return E, n


@njit(cache=True)
def keep(ev: np.ndarray, k: int, E: np.ndarray, n_all: np.ndarray) -> np.ndarray:
    """Append the scratch events ``ev[:k]`` of a whole-game loop to the kept events ``E``
    (``n_all[0]`` of them so far), growing the buffer; returns the buffer."""
    m = n_all[0]
    if m + k > E.shape[0]:
        bigger = np.empty((max(2 * E.shape[0], m + k + 1024), ev.shape[1]), dtype=np.int64)
        bigger[:m] = E[:m]
        E = bigger
    E[m:m + k] = ev[:k]
    n_all[0] = m + k
    return E


@dataclass(frozen=True)
class Event:
    """Something that happened in one game (``game``: its global index)."""

    game: int


def quad(r: list[int], at: int) -> tuple[int, int, int, int]:
    """Four consecutive payload values of a raw event row (one per seat)."""
    return (r[at], r[at + 1], r[at + 2], r[at + 3])


__all__ = ["Event", "EventLog", "buffers", "keep", "no_events", "quad"]
