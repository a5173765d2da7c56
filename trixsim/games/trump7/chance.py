"""Chance as an explicit input: where trump7's shuffled packs come from.

The state holds no seed. A game's pack order is ``pack_one(seed, game index)``, a pure
function like Trix's deals (``trixsim.rng``), unless the caller imposes packs:
``packs[b]`` (the 52 cards in pack order) for the game at batch position b, -1 where
nothing is imposed. The rules read a pack this way (docs/rules-trump7.md):

- positions 0..27 are dealt one at a time, position i to seat ``(eldest + i) % 4``;
- position 28 is the turned card (its suit is trumps); it is drawn last;
- positions 29..51 are the stock, drawn in that order, then the turned card.

``pack_from`` builds the pack that deals given hands and a given stock, for tests and
replays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from trixsim.rng import hash4, shuffle

STREAM_PACK = 0x7407
"""The ``trixsim.rng`` stream of trump7's packs (Trix's streams are 1-3)."""
_NONE = np.full((0, 52), -1, dtype=np.int64)


@njit(cache=True)
def pack_one(seed: int, game_id: int, out: np.ndarray) -> None:
    """Write game ``game_id``'s shuffled pack (52 card ids) into ``out``: the cards in
    order, shuffled as every game's chance is (``trixsim.rng.shuffle``)."""
    for i in range(52):
        out[i] = i
    shuffle(hash4(seed, STREAM_PACK, game_id, 0), out[:52])


@njit(cache=True)
def packs(seed: int, game_ids: np.ndarray) -> np.ndarray:
    """The packs of many games: a (n, 52) int64 array."""
    out = np.empty((game_ids.shape[0], 52), dtype=np.int64)
    for k in range(game_ids.shape[0]):
        pack_one(seed, game_ids[k], out[k])
    return out


def pack_from(hands: Sequence[Sequence[int]], stock: Sequence[int], eldest: int) -> list[int]:
    """The pack that deals ``hands[s]`` (7 cards each, in the order received) to seat s
    when ``eldest`` receives first, with ``stock`` (24 cards, in drawing order: its last
    card is the turned card, trumps) left over."""
    if len(hands) != 4 or any(len(h) != 7 for h in hands) or len(stock) != 24:
        raise ValueError("a pack needs four hands of 7 cards and a stock of 24")
    pack = [int(hands[(eldest + i) % 4][i // 4]) for i in range(28)]
    pack += [int(stock[-1])] + [int(c) for c in stock[:-1]]
    if sorted(pack) != list(range(52)):
        raise ValueError("the hands and the stock must hold every card exactly once")
    return pack


@dataclass(frozen=True)
class Chance:
    """The seed that keys packs and strategy draws, and optionally imposed packs."""

    seed: int = 0
    packs: np.ndarray = field(default_factory=lambda: _NONE)

    def __post_init__(self) -> None:
        p = np.asarray(self.packs, dtype=np.int64)
        if p.ndim != 2 or p.shape[1] != 52:
            raise ValueError("imposed packs must be a (games, 52) array of card ids")
        for row in p:
            if row[0] >= 0 and sorted(row.tolist()) != list(range(52)):
                raise ValueError("an imposed pack must hold every card 0-51 exactly once")
        object.__setattr__(self, "packs", np.ascontiguousarray(p))

    @staticmethod
    def impose(seed: int, batch: int, packs: dict[int, Sequence[int]]) -> Chance:
        """A chance source imposing ``packs[batch position]`` (others from the seed)."""
        p = np.full((batch, 52), -1, dtype=np.int64)
        for b, pack in packs.items():
            p[b] = pack
        return Chance(seed, p)

    def take(self, idx: np.ndarray) -> Chance:
        """The chance of some games of the batch (imposed packs follow their games)."""
        return self if not len(self.packs) else Chance(self.seed, self.packs[idx])


__all__ = ["STREAM_PACK", "Chance", "pack_from", "pack_one", "packs"]
