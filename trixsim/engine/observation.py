"""Per-seat observations: exactly what RULES.md §12 lets a player know, nothing more.

An Observation copies public fields and the acting seat's own hand out of the state; it
holds no reference to the state, so other seats' hidden cards cannot be reached from it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from trixsim import rng
from trixsim.engine.state import COL, GameState


@dataclass(frozen=True)
class Observation:
    """What the acting seat knows, for ``n`` games at once (one row per game).

    Arrays of shape (n, 4) are indexed by seat; masks follow trixsim.cards (int64 holding
    32-bit card masks).
    """

    game: np.ndarray  # global game index
    seat: np.ndarray  # the seat deciding
    decision: np.ndarray  # PICK, DECLARE, PLAY or PLACE
    legal: np.ndarray  # legal actions (see engine.legal_action_mask)
    hand: np.ndarray  # the seat's own cards
    key: np.ndarray  # uint64: a random key unique to this decision (reproducible bots)
    contract_no: np.ndarray  # 0-based contract index in the game
    pick: np.ndarray  # the picker's pick number, 1..7
    picker: np.ndarray
    contract: np.ndarray  # -1 while picking
    used: np.ndarray  # (n, 4): contracts each seat has already played (bit per id)
    totals: np.ndarray  # (n, 4): running totals
    hand_sizes: np.ndarray  # (n, 4): cards each seat still holds
    played_by: np.ndarray  # (n, 4): cards each seat played/placed this contract
    played: np.ndarray  # all cards played/placed this contract
    won: np.ndarray  # (n, 4): cards each seat took in tricks (seen as played)
    tricks: np.ndarray  # (n, 4): trick counts
    trick_cards: np.ndarray  # (n, 4): the current trick in playing order, -1 empty
    trick_n: np.ndarray  # cards in the current trick
    leader: np.ndarray  # leader of the current trick
    best_card: np.ndarray  # card winning the current trick, -1 if none
    best_seat: np.ndarray  # seat winning the current trick, -1 if none
    declared: np.ndarray  # seat that declared K♥, -1 none
    out_first: np.ndarray  # trix: first seat out, -1 none

    def __len__(self) -> int:
        return len(self.game)

    def select(self, rows: np.ndarray) -> Observation:
        """The observation restricted to some of its rows."""
        return Observation(**{f.name: getattr(self, f.name)[rows] for f in fields(self)})


_PUBLIC_1 = ("contract_no", "picker", "contract", "played", "trick_n", "leader", "best_card",
             "best_seat", "declared", "out_first")
_PUBLIC_4 = ("used", "totals", "played_by", "won", "tricks", "trick_cards")


def observe(st: GameState, idx: np.ndarray, legal: np.ndarray) -> Observation:
    """The acting seat's observation for the games at ``idx`` (``legal`` is their mask)."""
    rows = st.data[idx]
    seat = rows[:, COL["turn"]]
    h0 = COL["hands"]
    hands = rows[:, h0:h0 + 4]
    n = len(idx)
    cols = {k: rows[:, COL[k]] for k in _PUBLIC_1}
    cols.update({k: rows[:, COL[k]:COL[k] + 4] for k in _PUBLIC_4})
    return Observation(
        game=rows[:, COL["game_id"]], seat=seat, decision=rows[:, COL["phase"]],
        legal=np.asarray(legal, dtype=np.int64), hand=hands[np.arange(n), seat],
        key=rng.hash_keys(st.run_seed, rng.STREAM_STRATEGY, rows[:, COL["game_id"]],
                          rows[:, COL["ply"]]),
        pick=cols["contract_no"] // 4 + 1, hand_sizes=np.bitwise_count(hands), **cols,
    )
