"""Per-seat observations: exactly what RULES.md §12 lets a player know, nothing more.

An Observation is built by copying public fields and the acting seat's own hand out of
the state; it holds no reference to the state, so other seats' hidden cards cannot be
reached from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trixsim import rng
from trixsim.engine.rules import pick_number
from trixsim.engine.state import GameState


@dataclass(frozen=True)
class Observation:
    """What the acting seat knows, for ``n`` games at once (one row per game).

    Arrays of shape (n, 4) are indexed by seat. Cards and masks follow trixsim.cards.
    """

    game: np.ndarray  # int64: global game index
    seat: np.ndarray  # int8: the seat deciding
    decision: np.ndarray  # int8: PICK, DECLARE, PLAY or PLACE
    legal: np.ndarray  # uint32: legal actions (see engine.legal_action_mask)
    hand: np.ndarray  # uint32: the seat's own cards
    key: np.ndarray  # uint64: a random key unique to this decision (for reproducible bots)
    contract_no: np.ndarray  # int16: 0-based contract index in the game
    pick: np.ndarray  # int16: the picker's pick number, 1..7
    picker: np.ndarray  # int8
    contract: np.ndarray  # int8: -1 while picking
    used: np.ndarray  # (n, 4) uint8: contracts each seat has already played (bit per id)
    totals: np.ndarray  # (n, 4) int32: running totals
    hand_sizes: np.ndarray  # (n, 4) int8: cards each seat still holds
    played_by: np.ndarray  # (n, 4) uint32: cards each seat played/placed this contract
    played: np.ndarray  # uint32: all cards played/placed this contract
    won: np.ndarray  # (n, 4) uint32: cards each seat took in tricks (seen as played)
    tricks: np.ndarray  # (n, 4) int8: trick counts
    trick_cards: np.ndarray  # (n, 4) int8: the current trick in playing order, -1 empty
    trick_n: np.ndarray  # int8: cards in the current trick
    leader: np.ndarray  # int8: leader of the current trick
    best_card: np.ndarray  # int8: card winning the current trick, -1 if none
    best_seat: np.ndarray  # int8: seat winning the current trick, -1 if none
    declared: np.ndarray  # int8: seat that declared K♥, -1 none
    out_first: np.ndarray  # int8: trix: first seat out, -1 none

    def __len__(self) -> int:
        return len(self.game)

    def select(self, rows: np.ndarray) -> Observation:
        """The observation restricted to some of its rows."""
        return Observation(**{k: v[rows] for k, v in self.__dict__.items()})


def observe(st: GameState, idx: np.ndarray, legal: np.ndarray) -> Observation:
    """The acting seat's observation for the games at ``idx`` (``legal`` is their mask)."""
    seat = st.turn[idx]
    hands = st.hands[idx]
    return Observation(
        game=st.game_id[idx], seat=seat, decision=st.phase[idx], legal=legal,
        hand=hands[np.arange(idx.size), seat],
        key=rng.hash_keys(st.seed, rng.STREAM_STRATEGY, st.game_id[idx], st.ply[idx]),
        contract_no=st.contract_no[idx], pick=pick_number(st, idx), picker=st.picker[idx],
        contract=st.contract[idx], used=st.used[idx], totals=st.totals[idx],
        hand_sizes=np.bitwise_count(hands).astype(np.int8), played_by=st.played_by[idx],
        played=st.played[idx], won=st.won[idx], tricks=st.tricks[idx],
        trick_cards=st.trick_cards[idx], trick_n=st.trick_n[idx], leader=st.leader[idx],
        best_card=st.best_card[idx], best_seat=st.best_seat[idx], declared=st.declared[idx],
        out_first=st.out_first[idx],
    )
