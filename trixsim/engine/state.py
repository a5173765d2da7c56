"""The state of a batch of games: a struct of numpy arrays, one row per game."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from trixsim import rng
from trixsim.types import PICK


@dataclass
class GameState:
    """B independent games. Every array has the batch as its first axis.

    Hidden information lives only in ``hands``; everything else is public (RULES.md §12)
    or derivable from public events. Seats index the last axis of (B, 4) arrays.
    """

    seed: int
    game_id: np.ndarray  # int64: global game index, the key of all randomness
    first_picker: np.ndarray  # int8
    contract_no: np.ndarray  # int16: 0-based index of the current contract (0..27)
    used: np.ndarray  # (B, 4) uint8: bit k set when seat has played contract k
    totals: np.ndarray  # (B, 4) int32
    phase: np.ndarray  # int8: the decision the seat to act must take, or DONE
    turn: np.ndarray  # int8: the seat to act
    ply: np.ndarray  # int32: decisions taken so far in the game
    picker: np.ndarray  # int8
    contract: np.ndarray  # int8: -1 until picked
    hands: np.ndarray  # (B, 4) uint32: cards still held (hidden)
    played_by: np.ndarray  # (B, 4) uint32: cards each seat has played/placed this contract
    played: np.ndarray  # uint32: every card played/placed this contract
    won: np.ndarray  # (B, 4) uint32: cards each seat took in completed tricks
    tricks: np.ndarray  # (B, 4) int8: tricks taken this contract
    trick_no: np.ndarray  # int8: completed tricks this contract
    trick_cards: np.ndarray  # (B, 4) int8: current trick in playing order, -1 empty
    trick_n: np.ndarray  # int8: cards in the current trick
    trick_mask: np.ndarray  # uint32: cards in the current trick
    leader: np.ndarray  # int8: leader of the current trick
    best_card: np.ndarray  # int8: card currently winning the trick
    best_seat: np.ndarray  # int8: seat currently winning the trick
    last_winner: np.ndarray  # int8: winner of the last completed trick, -1 none
    declared: np.ndarray  # int8: seat that declared the king of hearts, -1 none
    out_first: np.ndarray  # int8: trix: first seat out, -1 none
    points: np.ndarray  # (B, 4) int32: points of the last finished contract

    @property
    def batch_size(self) -> int:
        """Number of games in the batch."""
        return len(self.game_id)

    def copy(self) -> GameState:
        """A deep copy (arrays copied)."""
        return dataclasses.replace(
            self, **{f.name: getattr(self, f.name).copy() for f in dataclasses.fields(self)
                     if isinstance(getattr(self, f.name), np.ndarray)})

    def take(self, idx: np.ndarray) -> GameState:
        """A new state holding only the games at ``idx``."""
        return dataclasses.replace(
            self, **{f.name: getattr(self, f.name)[idx] for f in dataclasses.fields(self)
                     if isinstance(getattr(self, f.name), np.ndarray)})


def init(seed: int, game_ids: np.ndarray | list[int] | range) -> GameState:
    """New games with the given global indices, dealt and waiting for the first pick."""
    gid = np.asarray(game_ids, dtype=np.int64)
    b = len(gid)

    def z(dtype, *shape: int, fill: int = 0) -> np.ndarray:
        return np.full((b, *shape), fill, dtype=dtype)

    st = GameState(
        seed=int(seed), game_id=gid, first_picker=rng.first_pickers(seed, gid),
        contract_no=z(np.int16), used=z(np.uint8, 4), totals=z(np.int32, 4),
        phase=z(np.int8, fill=PICK), turn=z(np.int8), ply=z(np.int32), picker=z(np.int8),
        contract=z(np.int8, fill=-1), hands=z(np.uint32, 4), played_by=z(np.uint32, 4),
        played=z(np.uint32), won=z(np.uint32, 4), tricks=z(np.int8, 4), trick_no=z(np.int8),
        trick_cards=z(np.int8, 4, fill=-1), trick_n=z(np.int8), trick_mask=z(np.uint32),
        leader=z(np.int8), best_card=z(np.int8), best_seat=z(np.int8),
        last_winner=z(np.int8, fill=-1), declared=z(np.int8, fill=-1),
        out_first=z(np.int8, fill=-1), points=z(np.int32, 4),
    )
    from trixsim.engine.rules import start_contract

    start_contract(st, np.arange(b))
    return st
