"""Per-contract and per-game outcome tables, collected while games are played.

``OutcomeLog`` is an engine observer: it notes each pick and declaration as it happens and
emits one row per finished contract, vectorised over the batch, so it costs a few array
operations per step whatever the batch size.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from trixsim.cards import KH_MASK
from trixsim.engine import GameState
from trixsim.engine.rules import pick_number, winners_losers
from trixsim.types import CONTRACT_NAMES, DECLARE, PICK

CONTRACT_COLUMNS: dict[str, str] = {
    "game_id": "global game index (the deal depends only on seed, game_id and number)",
    "number": "the contract's place in the game, 1-28",
    "picker": "seat that picked the contract (0-3)",
    "pick": "the picker's own pick number, 1-7 (7 = the forced, quadrupled last pick)",
    "contract": "dineri, damet, pli, farcha, ray, general or trix",
    "kh_holder": "seat dealt the king of hearts",
    "declared": "seat that declared the king of hearts, -1 if nobody did",
    "points_0..points_3": "points each seat scored for the contract (multipliers, -50 included)",
    "totals_0..totals_3": "running totals after the contract (after the 1000 rule)",
}
GAME_COLUMNS: dict[str, str] = {
    "game_id": "global game index",
    "first_picker": "seat that picked first",
    "contracts": "contracts played (28 unless a total went over 1000)",
    "final_0..final_3": "final totals",
    "winner_0..winner_3": "seat had the lowest final total (ties: all of them)",
    "loser_0..loser_3": "seat had the highest final total (ties: all of them)",
}


class OutcomeLog:
    """Collect one row per finished contract for a batch (an engine Observer)."""

    def __init__(self, batch: int) -> None:
        self._contract = np.full(batch, -1, dtype=np.int8)
        self._declared = np.full(batch, -1, dtype=np.int8)
        self._holder = np.full(batch, -1, dtype=np.int8)
        self._picker = np.full(batch, -1, dtype=np.int8)
        self._pick = np.zeros(batch, dtype=np.int8)
        self._before = np.zeros(batch, dtype=np.int64)
        self._rows: list[dict[str, np.ndarray]] = []

    def before_step(self, st: GameState, actions: np.ndarray) -> None:
        """Note picks (and the deal's K♥ holder) and declarations about to be applied."""
        _note(st.phase, st.turn, st.hands, pick_number(st), actions, self._contract,
              self._holder, self._declared, self._picker, self._pick)
        self._before = st.contract_no.copy()

    def after_step(self, st: GameState) -> None:
        """Emit rows for the contracts that the step finished."""
        done = np.flatnonzero(st.contract_no != self._before)
        if not done.size:
            return
        number = st.contract_no[done]  # 1-based number of the finished contract
        self._rows.append({
            "game_id": st.game_id[done].copy(),
            "number": number.astype(np.int8),
            "picker": self._picker[done].copy(),
            "pick": self._pick[done].copy(),
            "contract": self._contract[done].copy(),
            "kh_holder": self._holder[done].copy(),
            "declared": self._declared[done].copy(),
            "points": st.points[done].astype(np.int16),
            "totals": st.totals[done].astype(np.int16),
        })

    def contracts(self) -> pd.DataFrame:
        """The per-contract table, sorted by game and contract number."""
        if not self._rows:
            return contracts_frame({k: np.zeros((0, 4) if k in ("points", "totals") else 0,
                                                dtype=np.int16) for k in
                                    ("game_id", "number", "picker", "pick", "contract",
                                     "kh_holder", "declared", "points", "totals")})
        cols = {k: np.concatenate([r[k] for r in self._rows]) for k in self._rows[0]}
        order = np.lexsort((cols["number"], cols["game_id"]))
        return contracts_frame({k: v[order] for k, v in cols.items()})


@njit(cache=True)
def _note(phase: np.ndarray, turn: np.ndarray, hands: np.ndarray, pick_no: np.ndarray,
          actions: np.ndarray, contract: np.ndarray, holder: np.ndarray, declared: np.ndarray,
          picker: np.ndarray, pick: np.ndarray) -> None:
    """One pass over the batch: remember each pick (who, which, the pick number), the
    K♥ holder of the deal and each declaration."""
    for g in range(phase.shape[0]):
        if phase[g] == PICK:
            contract[g] = actions[g]
            picker[g] = turn[g]
            pick[g] = pick_no[g]
            declared[g] = -1
            for s in range(4):
                if hands[g, s] & KH_MASK:
                    holder[g] = s
        elif phase[g] == DECLARE and actions[g] == 1:
            declared[g] = turn[g]


def contracts_frame(cols: dict[str, np.ndarray]) -> pd.DataFrame:
    """The per-contract DataFrame from column arrays (points/totals as (n, 4))."""
    df = pd.DataFrame({
        "game_id": cols["game_id"].astype(np.int64),
        "number": cols["number"].astype(np.int8),
        "picker": cols["picker"].astype(np.int8),
        "pick": cols["pick"].astype(np.int8),
        "contract": pd.Categorical.from_codes(cols["contract"].astype(np.int8),
                                              categories=list(CONTRACT_NAMES)),
        "kh_holder": cols["kh_holder"].astype(np.int8),
        "declared": cols["declared"].astype(np.int8),
    })
    for s in range(4):
        df[f"points_{s}"] = cols["points"][:, s].astype(np.int16)
    for s in range(4):
        df[f"totals_{s}"] = cols["totals"][:, s].astype(np.int16)
    return df


def games_frame(st: GameState) -> pd.DataFrame:
    """The per-game table of a finished batch."""
    final = st.totals.astype(np.int16)
    df = pd.DataFrame({
        "game_id": st.game_id.copy(),
        "first_picker": st.first_picker.astype(np.int8),
        "contracts": st.contract_no.astype(np.int8),
    })
    low, high = winners_losers(final)
    for s in range(4):
        df[f"final_{s}"] = final[:, s]
    for s in range(4):
        df[f"winner_{s}"] = low[:, s]
    for s in range(4):
        df[f"loser_{s}"] = high[:, s]
    return df
