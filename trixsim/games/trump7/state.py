"""The state of a batch of trump7 games: one int64 row per game, one column (or more) per
field, in the layout every compiled game shares (``trixsim.gamekit.state``).

Hidden information lives only in ``hands`` and ``stock``; every other field is public
(docs/rules-trump7.md, "What each player knows") or derived from public events.
"""

from __future__ import annotations

import numpy as np

from trixsim.gamekit.state import BatchState, Field, Layout
from trixsim.games.trump7.chance import Chance

PLAY, BID, DONE = 0, 1, 2
"""Phases: the decision the seat to act must take (PLAY, BID) or DONE."""

FIELDS: tuple[Field, ...] = (
    # name, width, initial value, meaning
    ("phase", 1, PLAY, "PLAY or BID (the decision due) or DONE"),
    ("turn", 1, 0, "seat to act"),
    ("trick_n", 1, 0, "cards in the current trick"),
    ("best_card", 1, -1, "card winning the current trick, -1 none"),
    ("best_seat", 1, -1, "seat winning the current trick, -1 none"),
    ("leader", 1, 0, "leader of the current trick"),
    ("trump", 1, -1, "the trump suit (0-3)"),
    ("ply", 1, 0, "decisions taken so far in the game"),
    ("hands", 4, 0, "per seat: cards held (hidden)"),
    ("played", 1, 0, "every card played so far"),
    ("played_by", 4, 0, "per seat: cards it played"),
    ("trick_cards", 4, -1, "current trick in playing order, -1 empty"),
    ("trick_no", 1, 0, "completed tricks (0-13)"),
    ("tricks", 4, 0, "per seat: tricks won"),
    ("honours", 4, 0, "per seat: points of the trump honours in the tricks it won"),
    ("won", 4, 0, "per seat: cards taken in its tricks"),
    ("points", 4, 0, "per seat: points so far (the final points once the game is over)"),
    ("bids", 4, -1, "per seat: its bid, -1 not yet (or no bid in this game)"),
    ("turned", 1, -1, "the turned card (trumps), drawn last"),
    ("turned_holder", 1, -1, "seat that drew the turned card, -1 while in the stock"),
    ("stock_n", 1, 0, "cards drawn from the stock so far (24 - stock_n are left)"),
    ("last_winner", 1, -1, "winner of the last completed trick, -1 none"),
    ("voids", 1, 0, "bit seat*4 + suit: the seat has shown out of that suit"),
    ("trick_log", 13, -1, "completed tricks: leader | cards in play order << 8, 16, 24, "
                          "32; -1 not yet played"),
    ("dealer", 1, 0, "the dealer, game index % 4"),
    ("eldest", 1, 0, "the seat after the dealer: bids first, leads first"),
    ("bidding", 1, 0, "1 in trump7-bid (the bid variant), 0 in trump7"),
    ("game_id", 1, 0, "global game index, the key of all randomness"),
    ("stock", 24, -1, "the stock in drawing order, the turned card last (hidden)"),
)
HIDDEN = ("hands", "stock")

LAYOUT = Layout(FIELDS)
COL: dict[str, int] = LAYOUT.col
WIDTH = LAYOUT.width


class GameState(BatchState):
    """B independent trump7 games; ``data`` is the (B, WIDTH) int64 array the kernels use.
    Fields are named views (``st.hands`` is (B, 4), ``st.trump`` (B,)), all writable."""

    __slots__ = ()
    layout = LAYOUT
    chance_type = Chance


def empty(chance: Chance, game_ids: np.ndarray, bidding: bool) -> GameState:
    """Initial rows for the given games (not dealt yet); see ``rules.init``."""
    data = LAYOUT.rows(game_ids)
    data[:, COL["bidding"]] = int(bidding)
    return GameState(data, chance)


initial_row = LAYOUT.initial_row
"""A fresh row (no game id, no deal), for scalar loops."""


__all__ = ["BID", "COL", "DONE", "FIELDS", "HIDDEN", "LAYOUT", "PLAY", "WIDTH", "GameState",
           "empty", "initial_row"]
