"""Chance as an explicit input: where a batch's deals and first pickers come from.

The state holds no seed. A ``Chance`` gives the engine, for game index g and contract
number k, the deal ``rng.deal_one(seed, g, k)`` and the first picker
``rng.first_picker(seed, g)``, unless the caller imposes deals: ``deals[b, k]`` (four hand
masks) for the game at batch position b, -1 where nothing is imposed. A simulation, a
replayed record or a test can so play any deal it likes, with the same rules code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from trixsim.games.trix.types import N_CONTRACTS

_NONE = np.full((0, N_CONTRACTS, 4), -1, dtype=np.int64)


@dataclass(frozen=True)
class Chance:
    """The seed that keys deals and strategy draws, and optionally imposed deals."""

    seed: int = 0
    deals: np.ndarray = field(default_factory=lambda: _NONE)

    def __post_init__(self) -> None:
        d = np.asarray(self.deals, dtype=np.int64)
        if d.ndim != 3 or d.shape[1:] != (N_CONTRACTS, 4):
            raise ValueError(f"imposed deals must be (games, {N_CONTRACTS}, 4) hand masks")
        object.__setattr__(self, "deals", np.ascontiguousarray(d))

    @staticmethod
    def impose(seed: int, batch: int, deals: dict[tuple[int, int], list[int]]) -> Chance:
        """A chance source imposing ``deals[(batch position, contract number)]``."""
        d = np.full((batch, N_CONTRACTS, 4), -1, dtype=np.int64)
        for (b, k), hands in deals.items():
            d[b, k] = hands
        return Chance(seed, d)

    def take(self, idx: np.ndarray) -> Chance:
        """The chance of some games of the batch (imposed deals follow their games)."""
        return self if not len(self.deals) else Chance(self.seed, self.deals[idx])


__all__ = ["Chance"]
