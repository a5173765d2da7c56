"""The state of a batch of Trix games: one int64 row per game, one column (or four) per
field, in the layout every compiled game shares (``trixsim.gamekit.state``):
``st.hands`` is a (B, 4) view, ``st.phase`` a (B,) view, both writable.
"""

from __future__ import annotations

import numpy as np

from trixsim.gamekit.state import BatchState, Field, Layout
from trixsim.games.trix.chance import Chance

FIELDS: tuple[Field, ...] = (
    # name, width, initial value, meaning
    # hot fields first: a trick step touches the first three cache lines of a row
    ("phase", 1, 0, "decision the seat to act must take (PICK..PLACE) or DONE"),
    ("turn", 1, 0, "seat to act"),
    ("trick_n", 1, 0, "cards in the current trick"),
    ("best_card", 1, -1, "card winning the current trick, -1 none"),
    ("best_seat", 1, -1, "seat winning the current trick, -1 none"),
    ("contract", 1, -1, "current contract id, -1 until picked"),
    ("played", 1, 0, "all cards played or placed this contract"),
    ("ply", 1, 0, "public actions so far in the game (a K♥ holder keeping quiet is none)"),
    ("hands", 4, 0, "per seat: cards still held (the only hidden field)"),
    ("played_by", 4, 0, "per seat: cards played or placed this contract"),
    ("trick_cards", 4, -1, "current trick in playing order, -1 empty"),
    ("leader", 1, 0, "leader of the current trick"),
    ("trick_no", 1, 0, "completed tricks this contract"),
    ("declared", 1, -1, "seat that declared the king of hearts, -1 none"),
    ("out_first", 1, -1, "trix: first seat out, -1 none"),
    ("picker", 1, 0, "picker of the current contract"),
    ("won", 4, 0, "per seat: cards taken in completed tricks"),
    ("tricks", 4, 0, "per seat: tricks taken this contract"),
    ("contract_no", 1, 0, "0-based index of the current contract; contracts played once done"),
    ("first_picker", 1, 0, "seat that picked first"),
    ("used", 4, 0, "per seat: bit k set once contract k is used"),
    ("totals", 4, 0, "per seat: running totals"),
    ("points", 4, 0, "per seat: points of the last finished contract"),
    ("last_winner", 1, -1, "winner of the last completed trick, -1 none"),
    ("out_second", 1, -1, "trix: second seat out (the contract then ends), -1 none"),
    # the public history of this contract (docs/rules.md §12), for search and observers
    ("voids", 1, 0, "bit seat*4 + suit: the seat has shown out of that suit this contract"),
    ("trick_log", 8, -1, "completed tricks this contract: leader | cards in play order << "
                         "8, 16, 24, 32; -1 not yet played"),
    ("trix_log", 16, 0, "trix: the contract's moves in order, one byte each (seat << 6 | card, "
                        "or seat << 6 | PASS), byte k in column k // 8 at bits 8 * (k % 8)"),
    ("trix_n", 1, 0, "trix: moves in trix_log"),
    ("stop_after", 1, 0, "search: 1 ends the game when the current contract ends (no deal)"),
    ("game_id", 1, 0, "global game index, the key of all randomness"),
)

LAYOUT = Layout(FIELDS)
COL: dict[str, int] = LAYOUT.col
WIDTH = LAYOUT.width

# Column offsets of the state rows (compile-time constants in the kernels).
GAME_ID = COL["game_id"]
FIRST_PICKER = COL["first_picker"]
CONTRACT_NO = COL["contract_no"]
USED = COL["used"]
TOTALS = COL["totals"]
PHASE = COL["phase"]
TURN = COL["turn"]
PLY = COL["ply"]
PICKER = COL["picker"]
CONTRACT = COL["contract"]
HANDS = COL["hands"]
PLAYED_BY = COL["played_by"]
PLAYED = COL["played"]
WON = COL["won"]
TRICKS = COL["tricks"]
TRICK_NO = COL["trick_no"]
TRICK_CARDS = COL["trick_cards"]
TRICK_N = COL["trick_n"]
LEADER = COL["leader"]
BEST_CARD = COL["best_card"]
BEST_SEAT = COL["best_seat"]
LAST_WINNER = COL["last_winner"]
DECLARED = COL["declared"]
OUT_FIRST = COL["out_first"]
OUT_SECOND = COL["out_second"]
POINTS = COL["points"]
VOIDS = COL["voids"]
TRICK_LOG = COL["trick_log"]
TRIX_LOG = COL["trix_log"]
TRIX_N = COL["trix_n"]
TRIX_LOG_MAX = 8 * FIELDS[[f[0] for f in FIELDS].index("trix_log")][1]
"""Moves the trix log holds: 128, the most a contract can make (a placement, then at most
three passes before the next: four seats never all pass while cards remain)."""
STOP_AFTER = COL["stop_after"]


class GameState(BatchState):
    """B independent games; ``data`` is the (B, WIDTH) int64 array the kernels work on.

    Hidden information lives only in ``hands``; everything else is public (docs/rules.md §12)
    or derivable from public events.
    """

    __slots__ = ()
    layout = LAYOUT
    chance_type = Chance


def empty(chance: Chance, game_ids: np.ndarray) -> GameState:
    """Initial rows for the given games (no deal yet); see ``rules.init``."""
    return GameState(LAYOUT.rows(game_ids), chance)
