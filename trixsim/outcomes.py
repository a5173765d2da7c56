"""Per-contract and per-game outcome tables, collected while games are played.

``OutcomeLog`` is an engine observer: it notes each pick and declaration as it happens
(one compiled pass over the batch per step) and emits one row per finished contract, with
the engine's summary of that contract (tricks, K♥ taker, trix exits). Tables are pyarrow
Tables with compact types: small integers and dictionary-encoded strings.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from numba import njit

from trixsim.cards import KH_MASK, bit_count
from trixsim.engine import GameState
from trixsim.engine.rules import multiplier, pick_number, winners_losers
from trixsim.jitcache import guard
from trixsim.types import CONTRACT_NAMES, DECLARE, PICK

CONTRACT_COLUMNS: dict[str, str] = {
    "game": "game (deal) index: the deals depend only on the seed, this index and number",
    "lineup": "index of the seating in run.json's lineups",
    "number": "the contract's place in the game, 1-28",
    "picker": "seat that picked the contract (0-3)",
    "pick": "the picker's own pick number, 1-7",
    "contract": "dineri, damet, pli, farcha, ray, general or trix",
    "multiplier": "factor on the picker's own points: 2, 4 on pick 7, 1 in trix",
    "forced": "the picker had one legal choice (trix at pick 6, every pick 7)",
    "picker_hand": "the picker's 8 cards as dealt, a card mask (bit suit*8+rank)",
    "kh_holder": "seat dealt the king of hearts",
    "kh_holder_hearts": "hearts in the K♥ holder's hand as dealt (K♥ included)",
    "declared": "the K♥ holder declared it",
    "kh_taker": "seat that took K♥ in a trick, -1 if nobody did",
    "tricks_played": "tricks played (0 in trix)",
    "tricks_0..tricks_3": "tricks each seat took",
    "points_0..points_3": "points each seat scored (multipliers and -50 included)",
    "totals_0..totals_3": "running totals after the contract (1000 rule applied)",
    "trix_first": "trix: the first seat out (-100), -1 otherwise",
    "trix_second": "trix: the second seat out (-50), -1 otherwise",
}
GAME_COLUMNS: dict[str, str] = {
    "game": "game (deal) index",
    "lineup": "index of the seating in run.json's lineups",
    "strategy_0..strategy_3": "each seat's strategy spec",
    "first_picker": "seat that picked first",
    "contracts": "contracts played (28 unless a total went over 1000)",
    "final_0..final_3": "final totals",
    "winner_0..winner_3": "seat had the lowest final total (ties: all of them)",
    "loser_0..loser_3": "seat had the highest final total (ties: all of them)",
}

# _note compiles in the constants and the multiplier rule it imports: refresh its cache
guard(__file__, PICK, DECLARE, KH_MASK, multiplier.py_func.__code__.co_code)


class OutcomeLog:
    """Collect one row per finished contract for a batch (an engine Observer)."""

    def __init__(self, batch: int, lineup: int = 0) -> None:
        self.lineup = lineup
        self._contract = np.full(batch, -1, dtype=np.int64)
        self._declared = np.zeros(batch, dtype=np.bool_)
        self._holder = np.full(batch, -1, dtype=np.int64)
        self._hearts = np.zeros(batch, dtype=np.int64)
        self._picker = np.full(batch, -1, dtype=np.int64)
        self._pick = np.zeros(batch, dtype=np.int64)
        self._mult = np.zeros(batch, dtype=np.int64)
        self._forced = np.zeros(batch, dtype=np.bool_)
        self._hand = np.zeros(batch, dtype=np.int64)
        self._before = np.zeros(batch, dtype=np.int64)
        self._rows: list[dict[str, np.ndarray]] = []

    def before_step(self, st: GameState, actions: np.ndarray, legal: np.ndarray) -> None:
        """Note picks (the deal's K♥ holder, the picker's hand, whether the pick was
        forced) and declarations about to be applied."""
        _note(st.phase, st.turn, st.hands, pick_number(st), actions, legal, self._contract,
              self._holder, self._hearts, self._declared, self._picker, self._pick,
              self._mult, self._forced, self._hand)
        self._before = st.contract_no.copy()

    def after_step(self, st: GameState) -> None:
        """Emit rows for the contracts that the step finished."""
        done = np.flatnonzero(st.contract_no != self._before)
        if not done.size:
            return
        fin_out = st.fin_out[done]
        self._rows.append({
            "game": st.game_id[done].copy(),
            "number": st.contract_no[done].copy(),
            "picker": self._picker[done],
            "pick": self._pick[done],
            "contract": self._contract[done],
            "multiplier": self._mult[done],
            "forced": self._forced[done],
            "picker_hand": self._hand[done],
            "kh_holder": self._holder[done],
            "kh_holder_hearts": self._hearts[done],
            "declared": self._declared[done],
            "kh_taker": st.fin_kh_taker[done].copy(),
            "tricks_played": st.fin_tricks_played[done].copy(),
            "tricks": st.fin_tricks[done].copy(),
            "points": st.points[done].copy(),
            "totals": st.totals[done].copy(),
            "trix_first": fin_out[:, 0].copy(),
            "trix_second": fin_out[:, 1].copy(),
        })

    def contracts(self) -> pa.Table:
        """The per-contract table, sorted by game and contract number."""
        if not self._rows:
            return contracts_table({k: np.zeros((0, 4) if k in _QUADS else 0, dtype=np.int64)
                                    for k in _CONTRACT_KEYS}, self.lineup)
        cols = {k: np.concatenate([r[k] for r in self._rows]) for k in _CONTRACT_KEYS}
        order = np.lexsort((cols["number"], cols["game"]))
        return contracts_table({k: v[order] for k, v in cols.items()}, self.lineup)


_QUADS = ("tricks", "points", "totals")
_CONTRACT_KEYS = ("game", "number", "picker", "pick", "contract", "multiplier", "forced",
                  "picker_hand", "kh_holder", "kh_holder_hearts", "declared", "kh_taker",
                  "tricks_played", "tricks", "points", "totals", "trix_first", "trix_second")


@njit(cache=True)
def _note(phase: np.ndarray, turn: np.ndarray, hands: np.ndarray, pick_no: np.ndarray,
          actions: np.ndarray, legal: np.ndarray, contract: np.ndarray, holder: np.ndarray,
          hearts: np.ndarray, declared: np.ndarray, picker: np.ndarray, pick: np.ndarray,
          mult: np.ndarray, forced: np.ndarray, hand: np.ndarray) -> None:
    """One pass over the batch: remember each pick (who, which, the pick number, the
    picker's multiplier and hand, whether it was the only choice), the K♥ holder and
    each declaration."""
    for g in range(phase.shape[0]):
        if phase[g] == PICK:
            t = turn[g]
            contract[g] = actions[g]
            picker[g] = t
            pick[g] = pick_no[g]
            mult[g] = multiplier(actions[g], pick_no[g])
            hand[g] = hands[g, t]
            lm = np.int64(legal[g])
            forced[g] = lm != 0 and (lm & (lm - 1)) == 0
            declared[g] = False
            for s in range(4):
                if hands[g, s] & KH_MASK:
                    holder[g] = s
                    hearts[g] = bit_count(hands[g, s] & 0xFF)
        elif phase[g] == DECLARE and actions[g] == 1:
            declared[g] = True


def contracts_table(cols: dict[str, np.ndarray], lineup: int) -> pa.Table:
    """The per-contract Arrow table from column arrays (tricks/points/totals as (n, 4))."""
    n = len(cols["game"])
    arrays: dict[str, pa.Array] = {
        "game": pa.array(cols["game"], pa.int64()),
        "lineup": pa.array(np.full(n, lineup), pa.int8()),
        "number": pa.array(cols["number"], pa.int8()),
        "picker": pa.array(cols["picker"], pa.int8()),
        "pick": pa.array(cols["pick"], pa.int8()),
        "contract": pa.DictionaryArray.from_arrays(
            pa.array(cols["contract"], pa.int8()), pa.array(CONTRACT_NAMES, pa.string())),
        "multiplier": pa.array(cols["multiplier"], pa.int8()),
        "forced": pa.array(cols["forced"], pa.bool_()),
        "picker_hand": pa.array(cols["picker_hand"].astype(np.uint32), pa.uint32()),
        "kh_holder": pa.array(cols["kh_holder"], pa.int8()),
        "kh_holder_hearts": pa.array(cols["kh_holder_hearts"], pa.int8()),
        "declared": pa.array(cols["declared"], pa.bool_()),
        "kh_taker": pa.array(cols["kh_taker"], pa.int8()),
        "tricks_played": pa.array(cols["tricks_played"], pa.int8()),
    }
    for name, typ in (("tricks", pa.int8()), ("points", pa.int16()), ("totals", pa.int16())):
        for s in range(4):
            arrays[f"{name}_{s}"] = pa.array(np.ascontiguousarray(cols[name][:, s]), typ)
    arrays["trix_first"] = pa.array(cols["trix_first"], pa.int8())
    arrays["trix_second"] = pa.array(cols["trix_second"], pa.int8())
    return pa.table(arrays)


def games_table(st: GameState, lineup: int, specs: list[str]) -> pa.Table:
    """The per-game Arrow table of a finished batch (``specs``: the four seats' specs)."""
    n = st.batch_size
    final = st.totals.copy()
    low, high = winners_losers(final)
    arrays: dict[str, pa.Array] = {
        "game": pa.array(st.game_id.copy(), pa.int64()),
        "lineup": pa.array(np.full(n, lineup), pa.int8()),
    }
    for s in range(4):
        arrays[f"strategy_{s}"] = pa.DictionaryArray.from_arrays(
            pa.array(np.zeros(n), pa.int8()), pa.array([specs[s]], pa.string()))
    arrays["first_picker"] = pa.array(st.first_picker.copy(), pa.int8())
    arrays["contracts"] = pa.array(st.contract_no.copy(), pa.int8())
    for s in range(4):
        arrays[f"final_{s}"] = pa.array(np.ascontiguousarray(final[:, s]), pa.int16())
    for s in range(4):
        arrays[f"winner_{s}"] = pa.array(np.ascontiguousarray(low[:, s]), pa.bool_())
    for s in range(4):
        arrays[f"loser_{s}"] = pa.array(np.ascontiguousarray(high[:, s]), pa.bool_())
    return pa.table(arrays)


def expand(columns: dict[str, str]) -> list[str]:
    """Column names with the ``x_0..x_3`` ranges written out."""
    out: list[str] = []
    for name in columns:
        if ".." in name:
            stem = name.split("..")[0].rsplit("_", 1)[0]
            out += [f"{stem}_{s}" for s in range(4)]
        else:
            out.append(name)
    return out
