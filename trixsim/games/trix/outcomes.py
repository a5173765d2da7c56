"""Per-contract and per-game outcome tables, collected while games are played.

``OutcomeLog`` reads the engine's events (``trixsim.games.trix.events``), one compiled pass
per step: a deal notes the hands, a pick opens a contract, and its end (which carries the
tricks, the declaration, the K♥ taker and the trix exits) writes one row into
preallocated arrays. Tables are pyarrow
Tables with compact types: small integers and dictionary-encoded strings.
"""

from __future__ import annotations

import threading

import numpy as np
import pyarrow as pa
from numba import carray, njit, types

from trixsim import policykit
from trixsim.arrow import bools, constant, dictionary, ints, owned_ints, split_rows, table
from trixsim.games.trix import cards, rules, transitions
from trixsim.games.trix.cards import KH_MASK, bit_count
from trixsim.games.trix.events import CONTRACT_END, DEAL, EV_WIDTH, PICK
from trixsim.games.trix.rules import winners_losers
from trixsim.games.trix.state import GameState
from trixsim.games.trix.transitions import multiplier
from trixsim.games.trix.types import CONTRACT_NAMES
from trixsim.jitcache import guard, sources
from trixsim.policykit import int32_ptr, int64_ptr

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
    "won_0..won_3": "cards each seat took in tricks, a card mask (0 in trix)",
    "last_trick": "seat that took the last trick played, -1 in trix",
}
LEGACY_COLUMNS = ("won_0", "won_1", "won_2", "won_3", "last_trick")
"""Columns that runs of format trixsim-run/1 do not have (a resumed one goes on without)."""
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

# _consume compiles in the event kinds and the rules it calls: refresh its cache
guard(__file__, sources(cards, rules, transitions, policykit), KH_MASK, DEAL, PICK,
      CONTRACT_END, EV_WIDTH, multiplier.py_func.__code__.co_code)

_QUADS = ("tricks", "points", "totals", "won")
_CONTRACT_KEYS = ("game", "number", "picker", "pick", "contract", "multiplier", "forced",
                  "picker_hand", "kh_holder", "kh_holder_hearts", "declared", "kh_taker",
                  "tricks_played", "tricks", "points", "totals", "trix_first", "trix_second",
                  "won", "last_trick")
_SCALARS = ("picker", "pick", "contract", "multiplier", "forced", "picker_hand", "kh_holder",
            "kh_holder_hearts", "declared", "kh_taker", "tricks_played", "trix_first",
            "trix_second", "last_trick")


_SPARE: list[tuple[np.ndarray, np.ndarray]] = []
"""Row arrays of released logs, for the next log of the same size (at most ``_KEEP``:
beside the slice playing and the two a chunk's writer holds, enough)."""
_KEEP = 2
_SPARE_LOCK = threading.Lock()


def _row_arrays(cap: int) -> tuple[np.ndarray, np.ndarray]:
    """Arrays for ``cap`` contract rows: a released log's (only rows below the count are
    read, and each is written whole), else fresh ones. They are int32: a row starts with
    the game's batch position (not its id, which may need 64 bits), and the hand and
    trick masks are kept as their 32 bits; a contract's row is then 128 bytes instead of
    256, and writing the rows, which outgrow the caches, costs less."""
    with _SPARE_LOCK:
        for k in range(len(_SPARE) - 1, -1, -1):  # the latest: warmest in cache
            if _SPARE[k][0].shape[0] == cap:
                return _SPARE.pop(k)
    return (np.zeros((cap, len(_SCALARS) + 2), dtype=np.int32),  # + position, number
            np.zeros((cap, len(_QUADS), 4), dtype=np.int32))


class OutcomeLog:
    """Collect one row per finished contract for a batch, from the engine's events."""

    wants_events = True
    event_kinds = frozenset({DEAL, PICK, CONTRACT_END})
    """The only events it reads: the stepwise loop asks the rules for no others."""

    def __init__(self, batch: int, lineup: int = 0) -> None:
        self.lineup = lineup
        # per game, in one 64-byte cache line: its hands as dealt (their 32 bits) and the
        # open contract's columns; the stepwise loop folds a step's events game after
        # game, and each event then reaches one line, not three of two wider arrays
        self._scratch = _lines(batch)
        # a batch's rows take up to 18 MB: mapping fresh pages for them cost the compiled
        # loop about a tenth of its time, so a run reuses a finished slice's
        self._rows, self._quads = _row_arrays(batch * 28)
        self._n = np.zeros(1, dtype=np.int64)
        self._handle = np.zeros(0, dtype=np.int64)
        # the batch's game ids, which the rows' positions name (``handle``, ``events``)
        self._ids, self._ids_of = np.zeros(0, dtype=np.int64), None
        self.in_order = False  # rows already sorted by game and number (the compiled loop)

    def release(self) -> None:
        """Give the row arrays back for a later log of the same size; this log is unusable
        afterwards (a chunk's writer calls it once the tables are built, and they hold
        copies)."""
        rows, quads = self._rows, self._quads
        self._rows = self._quads = None  # type: ignore[assignment]
        if rows is None:
            return
        with _SPARE_LOCK:
            if len(_SPARE) >= _KEEP:  # the oldest goes: the latest is warmest in cache
                _SPARE.pop(0)
            _SPARE.append((rows, quads))

    def handle(self, game_ids: np.ndarray) -> np.ndarray:
        """The addresses of this log's arrays, with the batch size and the rows' capacity,
        as ``fold_events`` reads them: the compiled loop hands it a game's events at the
        game's end. The log keeps the arrays alive while it lives, and a copy of the
        batch's ``game_ids`` for ``contracts``."""
        self._ids, self._ids_of = np.array(game_ids, dtype=np.int64), None
        arrays = (self._scratch, self._rows, self._quads, self._n)
        self._handle = np.array([a.ctypes.data for a in arrays]
                                + [len(self._ids), self._rows.shape[0]], dtype=np.int64)
        return self._handle

    def events(self, st: GameState, rows: np.ndarray) -> None:
        """Fold in the events of one ``init`` or ``step`` (one compiled pass). The batch's
        game ids, which the rows' positions name, are copied once per state (for
        ``contracts``)."""
        if self._ids_of is not st.data:
            self._ids = np.ascontiguousarray(st.game_id)
            self._ids_of = st.data
        _consume(rows, self._scratch, self._rows, self._quads, self._n)

    def tables(self, st: GameState, specs: list[str]) -> dict[str, pa.Table]:
        """The finished batch's tables by name: ``contracts`` and ``games``."""
        return {"contracts": self.contracts(), "games": games_table(st, self.lineup, specs)}

    def contracts(self) -> pa.Table:
        """The per-contract table, sorted by game and contract number."""
        n = int(self._n[0])
        rows, quads = self._rows[:n], self._quads[:n]
        games = self._ids[rows[:, 0]]  # the rows hold batch positions
        order = None if self.in_order else np.lexsort((rows[:, 1], games))
        cols = (split_rows(rows, _ROW_STORED, order)
                | split_rows(quads.reshape(n, -1), _QUAD_STORED, order))
        cols["game"] = games if order is None else games[order]
        for name in _MASKS:  # their 32 bits, kept as int32
            cols[name] = cols[name].view(np.uint32)
        return contracts_table(cols, self.lineup)


_PICKER, _PICK, _CONTRACT, _MULT, _FORCED, _HAND, _HOLDER, _HEARTS, _DECLARED, _KH_TAKER, \
    _PLAYED, _OUT1, _OUT2, _LAST = range(len(_SCALARS))
_N_SCALARS, _N_QUADS = len(_SCALARS), len(_QUADS)
_N_OPEN = _DECLARED
"""The open contract's columns a pick writes (the others come with its end)."""
_LINE = 16
"""int32 values in a game's scratch line: 4 hands and ``_N_OPEN`` columns fit in 64 bytes."""


def _lines(batch: int) -> np.ndarray:
    """(batch, ``_LINE``) int32 zeros, each row one 64-byte cache line (the start aligned)."""
    raw = np.zeros(batch * _LINE + _LINE, dtype=np.int32)
    skip = (-raw.ctypes.data % 64) // 4
    return raw[skip:skip + batch * _LINE].reshape(batch, _LINE)


@njit(cache=True, inline="always")
def _split_lines(scratch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The scratch lines' two parts: (batch, 4) hands as dealt, (batch, ``_N_OPEN``) the
    open contract's columns."""
    return scratch[:, :4], scratch[:, 4:4 + _N_OPEN]


@njit(cache=True)
def _consume(ev: np.ndarray, scratch: np.ndarray, rows: np.ndarray, quads: np.ndarray,
             n: np.ndarray) -> None:
    """Events to contract rows (``consume_event`` for each)."""
    deal, open_ = _split_lines(scratch)
    for e in range(ev.shape[0]):
        kind = ev[e, 1]
        if kind == DEAL or kind == PICK or kind == CONTRACT_END:
            consume_event(ev, e, deal, open_, rows, quads, n)


@njit(cache=True, inline="always")
def consume_event(ev: np.ndarray, e: int, deal: np.ndarray, open_: np.ndarray,
                  rows: np.ndarray, quads: np.ndarray, n: np.ndarray) -> None:
    """Event ``e`` of ``ev`` to contract rows: a deal notes the hands (and so the K♥
    holder), a pick opens the contract, its end (which carries the tricks, the
    declaration, the K♥ taker and the trix exits) writes the row. Other events change
    nothing here, so the compiled loop emits only these three."""
    g, kind, seat = ev[e, 0], ev[e, 1], ev[e, 2]
    if kind == DEAL:
        for s in range(4):
            deal[g, s] = ev[e, 4 + s]
    elif kind == PICK:
        open_[g, _PICKER] = seat
        open_[g, _CONTRACT] = ev[e, 4]
        open_[g, _PICK] = ev[e, 5]
        open_[g, _FORCED] = ev[e, 6]
        open_[g, _MULT] = multiplier(ev[e, 4], ev[e, 5])
        open_[g, _HAND] = deal[g, seat]
        for s in range(4):
            if deal[g, s] & KH_MASK:
                open_[g, _HOLDER] = s
                open_[g, _HEARTS] = bit_count(deal[g, s] & 0xFF)
    elif kind == CONTRACT_END:
        r = n[0]
        rows[r, 0] = g  # the batch position: ``contracts`` reads the game id
        rows[r, 1] = ev[e, 3] + 1
        for k in range(_DECLARED):
            rows[r, 2 + k] = open_[g, k]
        rows[r, 2 + _DECLARED] = 1 if ev[e, 16] >= 0 else 0
        rows[r, 2 + _KH_TAKER] = ev[e, 17]
        rows[r, 2 + _PLAYED] = ev[e, 18]
        rows[r, 2 + _OUT1] = ev[e, 19]
        rows[r, 2 + _OUT2] = ev[e, 20]
        rows[r, 2 + _LAST] = ev[e, 25]
        for s in range(4):
            quads[r, 0, s] = ev[e, 12 + s]
            quads[r, 1, s] = ev[e, 4 + s]
            quads[r, 2, s] = ev[e, 8 + s]
            quads[r, 3, s] = ev[e, 21 + s]
        n[0] = r + 1


FOLD_SIG = types.void(types.int64, types.int64, types.int64)
"""(events, count, handle) -> None: ``count`` events of width ``EV_WIDTH`` at address
``events`` folded into the log whose ``OutcomeLog.handle`` is at address ``handle``."""


@njit(FOLD_SIG, cache=True)
def fold_events(events: int, count: int, handle: int) -> None:
    """Fold one game's events into a log's rows (``consume_event`` for each). The compiled
    loop calls it through a function pointer at each game's end: folded inline, in the
    loop's own body, the same work slowed the whole loop by a fifth (the compiler laid out
    the hot path worse), against a few percent out of line."""
    h = carray(int64_ptr(handle), (6,))
    batch, cap = h[4], h[5]
    ev = carray(int64_ptr(events), (count, EV_WIDTH))
    deal, open_ = _split_lines(carray(int32_ptr(h[0]), (batch, _LINE)))
    rows = carray(int32_ptr(h[1]), (cap, _N_SCALARS + 2))
    quads = carray(int32_ptr(h[2]), (cap, _N_QUADS, 4))
    n = carray(int64_ptr(h[3]), (1,))
    for e in range(count):
        consume_event(ev, e, deal, open_, rows, quads, n)


_I8, _I16, _U32, _I64 = np.int8, np.int16, np.uint32, np.int64
_ROW_COLUMNS: dict[str, tuple[int, type]] = {
    "game": (0, _I64), "number": (1, _I8),
    **{k: (2 + i, _U32 if k == "picker_hand" else _I8) for i, k in enumerate(_SCALARS)}}
"""Each contract column kept in a row of ``OutcomeLog``'s rows: its place and its type."""
_QUAD_COLUMNS: dict[str, tuple[int, type]] = {
    f"{k}_{s}": (4 * i + s, {"points": _I16, "totals": _I16, "won": _U32}.get(k, _I8))
    for i, k in enumerate(_QUADS) for s in range(4)}
"""The same for the per-seat quads (a row of 16: tricks, points, totals, won)."""
_MASKS = ("picker_hand", "won_0", "won_1", "won_2", "won_3")
"""The columns of 32-bit masks: the row arrays keep their bits as int32."""
_ROW_STORED = {k: (place, np.int32 if k in _MASKS else typ)
               for k, (place, typ) in _ROW_COLUMNS.items() if k != "game"}
_QUAD_STORED = {k: (place, np.int32 if k in _MASKS else typ)
                for k, (place, typ) in _QUAD_COLUMNS.items()}
"""``split_rows``' layouts of the int32 row arrays: the masks as int32 (viewed as uint32
afterwards); the game id is looked up from the position apart."""


def contracts_table(cols: dict[str, np.ndarray], lineup: int) -> pa.Table:
    """The per-contract Arrow table from ``split_rows``' columns (fresh arrays of their
    types, so Arrow takes their memory as it is)."""
    n = len(cols["game"])
    arrays: dict[str, pa.Array] = {"game": owned_ints(cols["game"]),
                                   "lineup": constant(lineup, n)}
    for name in expand(CONTRACT_COLUMNS):
        if name == "contract":
            arrays[name] = dictionary(owned_ints(cols[name]), CONTRACT_NAMES)
        elif name in ("forced", "declared"):
            arrays[name] = bools(cols[name])
        elif name not in arrays:
            arrays[name] = owned_ints(cols[name])
    return table(arrays)


def games_table(st: GameState, lineup: int, specs: list[str]) -> pa.Table:
    """The per-game Arrow table of a finished batch (``specs``: the four seats' specs)."""
    n = st.batch_size
    final = st.totals.copy()
    low, high = winners_losers(final)
    arrays: dict[str, pa.Array] = {
        "game": ints(st.game_id, np.int64),
        "lineup": constant(lineup, n),
    }
    code = constant(0, n)
    for s in range(4):
        arrays[f"strategy_{s}"] = dictionary(code, [specs[s]])
    arrays["first_picker"] = ints(st.first_picker, np.int8)
    arrays["contracts"] = ints(st.contract_no, np.int8)
    for s in range(4):
        arrays[f"final_{s}"] = ints(final[:, s], np.int16)
    for s in range(4):
        arrays[f"winner_{s}"] = bools(low[:, s])
    for s in range(4):
        arrays[f"loser_{s}"] = bools(high[:, s])
    return table(arrays)


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
