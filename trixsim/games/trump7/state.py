"""The state of a batch of trump7 games: one int64 row per game, one column (or more) per
field, like Trix's (``trixsim.games.trix.state``).

Hidden information lives only in ``hands`` and ``stock``; every other field is public
(docs/rules-trump7.md, "What each player knows") or derived from public events.
"""

from __future__ import annotations

import numpy as np

from trixsim.games.trump7.chance import Chance

PLAY, BID, DONE = 0, 1, 2
"""Phases: the decision the seat to act must take (PLAY, BID) or DONE."""

FIELDS: tuple[tuple[str, int, int, str], ...] = (
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

COL: dict[str, int] = {}
_off = 0
for _name, _width, _init, _doc in FIELDS:
    COL[_name] = _off
    _off += _width
WIDTH = _off
_INIT_ROW = np.concatenate([np.full(w, v, dtype=np.int64) for _, w, v, _ in FIELDS])


def _field(name: str, width: int, doc: str) -> property:
    off = COL[name]
    if width == 1:
        return property(lambda self: self.data[:, off], doc=doc)
    return property(lambda self: self.data[:, off:off + width], doc=doc)


class GameState:
    """B independent trump7 games; ``data`` is the (B, WIDTH) int64 array the kernels use.
    Fields are named views (``st.hands`` is (B, 4), ``st.trump`` (B,)), all writable."""

    __slots__ = ("chance", "data")

    def __init__(self, data: np.ndarray, chance: Chance | None = None) -> None:
        if data.ndim != 2 or data.shape[1] != WIDTH or data.dtype != np.int64:
            raise ValueError("state data must be a (B, WIDTH) int64 array")
        self.data = data
        self.chance = chance if chance is not None else Chance()

    @property
    def batch_size(self) -> int:
        """Number of games in the batch."""
        return self.data.shape[0]

    @property
    def run_seed(self) -> int:
        """The seed of the batch's chance source (never in ``data``)."""
        return self.chance.seed

    def copy(self) -> GameState:
        """A deep copy (the chance source is immutable and shared)."""
        return GameState(self.data.copy(), self.chance)

    def take(self, idx: np.ndarray) -> GameState:
        """A new state holding only the games at ``idx``."""
        return GameState(np.ascontiguousarray(self.data[idx]), self.chance.take(idx))


for _name, _width, _init, _doc in FIELDS:
    setattr(GameState, _name, _field(_name, _width, _doc))


def empty(chance: Chance, game_ids: np.ndarray, bidding: bool) -> GameState:
    """Initial rows for the given games (not dealt yet); see ``rules.init``."""
    gid = np.asarray(game_ids, dtype=np.int64)
    data = np.tile(_INIT_ROW, (len(gid), 1))
    data[:, COL["game_id"]] = gid
    data[:, COL["bidding"]] = int(bidding)
    return GameState(data, chance)


def initial_row() -> np.ndarray:
    """A fresh row (no game id, no deal), for scalar loops."""
    return _INIT_ROW.copy()


__all__ = ["BID", "COL", "DONE", "FIELDS", "HIDDEN", "PLAY", "WIDTH", "GameState", "empty",
           "initial_row"]
