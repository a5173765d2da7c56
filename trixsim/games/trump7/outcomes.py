"""trump7's outcome table and the stepwise loop's honesty check.

A game's result is all in its final state (tricks, honour points, bids and points per
seat; the trump, the turned card and who drew it; the 13 tricks played, from which
``tallies`` counts each seat's leads, trumping and lost honours), so ``OutcomeLog`` reads
no events: it builds the per-game ``games`` table from the finished batch, the same
whichever loop played it. ``PointsAudit`` recomputes
every finished game's points from the cards its seats won and their bids.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from trixsim.arrow import bools, constant, dictionary, ints, owned_ints, table
from trixsim.games.trump7.cards import ACE, JACK, N_RANKS, QUEEN, SUIT_WORDS
from trixsim.games.trump7.rules import score, winners_losers
from trixsim.games.trump7.state import DONE, GameState
from trixsim.games.trump7.tallies import TALLIES, tally

GAME_COLUMNS: dict[str, str] = {
    "game": "game (deal) index: the pack depends only on the seed and this index",
    "lineup": "index of the seating in run.json's lineups",
    "strategy_0..strategy_3": "each seat's strategy spec",
    "dealer": "seat that dealt (game index % 4); the next seat bid first and led first",
    "trump": "the trump suit: clubs, diamonds, hearts or spades",
    "turned": "the turned card (card id suit*13+rank, rank 0 = 2)",
    "turned_holder": "seat that drew the turned card (after trick 6)",
    "tricks_0..tricks_3": "tricks each seat won (they sum to 13)",
    "honours_0..honours_3": "points of the trump ace (5), jack (4), queen (3) each seat won",
    "bid_0..bid_3": "each seat's bid, 0-13 (trump7-bid), -1 without the bid",
    "points_0..points_3": "final points: tricks (or the bid's formula) plus honours",
    "winner_0..winner_3": "seat had the most points (ties: all of them)",
    "loser_0..loser_3": "seat had the fewest points (ties: all of them)",
    "leads_0..leads_3": "tricks the seat led (they sum to 13)",
    "lead_wins_0..lead_wins_3": "tricks the seat led and won",
    "lead_points_0..lead_points_3": "points of the tricks the seat led and won (1 each plus "
                                    "the honours in them)",
    "lead_trumps_0..lead_trumps_3": "tricks the seat led with a trump",
    "lead_trump_wins_0..lead_trump_wins_3": "of those, tricks it won",
    "lead_aces_0..lead_aces_3": "tricks the seat led with the ace of a side suit",
    "lead_ace_wins_0..lead_ace_wins_3": "of those, tricks it won",
    "lead_lows_0..lead_lows_3": "tricks the seat led with a low side card (2-9; the other "
                                "leads are 10, J, Q, K of a side suit)",
    "lead_low_wins_0..lead_low_wins_3": "of those, tricks it won",
    "ruffs_0..ruffs_3": "trumps the seat played to a side suit led that it held none of",
    "ruff_wins_0..ruff_wins_3": "of those, tricks it won",
    "ruff_chances_0..ruff_chances_3": "times the seat held none of the side suit led but "
                                      "held a trump (it could trump or discard)",
    "discards_0..discards_3": "cards of neither the suit led nor trumps the seat played "
                              "(it held none of the suit led)",
    "honours_lost_0..honours_lost_3": "points of the trump ace, jack, queen the seat played "
                                      "into a trick another seat won",
}
TABLE_SCHEMAS: dict[str, dict[str, str]] = {"games": GAME_COLUMNS}


class OutcomeLog:
    """Builds a finished batch's outcome tables (``tables(state, specs)``)."""

    def __init__(self, batch: int, lineup: int = 0) -> None:
        self.batch = batch
        self.lineup = lineup

    def tables(self, st: GameState, specs: list[str]) -> dict[str, pa.Table]:
        """The finished batch's tables by name (``games``)."""
        return {"games": games_table(st, self.lineup, specs)}


def games_table(st: GameState, lineup: int, specs: list[str]) -> pa.Table:
    """One row per finished game (see ``GAME_COLUMNS``)."""
    n = st.batch_size
    win, lose = winners_losers(st.points)
    i8 = np.int8
    arrays: dict[str, pa.Array] = {"game": ints(st.game_id, np.int64),
                                   "lineup": constant(lineup, n)}
    code = constant(0, n)
    for s in range(4):
        arrays[f"strategy_{s}"] = dictionary(code, [specs[s]])
    arrays["dealer"] = ints(st.dealer, i8)
    arrays["trump"] = dictionary(st.trump, list(SUIT_WORDS))
    arrays["turned"] = ints(st.turned, i8)
    arrays["turned_holder"] = ints(st.turned_holder, i8)
    for name, col, typ in (("tricks", st.tricks, i8), ("honours", st.honours, i8),
                           ("bid", st.bids, i8), ("points", st.points, np.int16),
                           ("winner", win, None), ("loser", lose, None)):
        for s in range(4):
            arrays[f"{name}_{s}"] = bools(col[:, s]) if typ is None else ints(col[:, s], typ)
    counts = tally(st)  # a new array, one row per column
    for k, name in enumerate(TALLIES):
        for s in range(4):
            arrays[f"{name}_{s}"] = owned_ints(counts[4 * k + s])
    return table(arrays)


def honours_won(won: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """(B, 4) honour points in the cards each seat won (``won``: (B, 4) masks)."""
    base = N_RANKS * np.asarray(trump, dtype=np.int64)[:, None]
    w = np.asarray(won, dtype=np.int64)
    return sum(v * ((w >> (base + r)) & 1) for r, v in ((ACE, 5), (JACK, 4), (QUEEN, 3)))


class PointsAudit:
    """The stepwise loop's check that no game's result was changed outside the rules:
    each game that finishes must show 13 tricks, honours matching the cards its seats
    won, and points matching the rules' formula."""

    def __init__(self, st: GameState) -> None:
        self.checked = st.phase == DONE

    def take(self, idx: np.ndarray) -> PointsAudit:
        """The check of the games at ``idx`` only (the loop dropped finished games)."""
        out = object.__new__(PointsAudit)
        out.checked = self.checked[idx]
        return out

    def put(self, idx: np.ndarray, part: PointsAudit) -> None:
        """Take back the check of the games at ``idx`` from ``part`` (its ``take``)."""
        self.checked[idx] = part.checked

    def after_step(self, st: GameState) -> tuple[str | None, bool]:
        """A message naming the first finished game that broke the rules (or None), and
        whether any game is still being played."""
        done = st.phase == DONE
        new = np.flatnonzero(done & ~self.checked)
        self.checked = done.copy()
        if new.size:
            tricks, hon, pts = st.tricks[new], st.honours[new], st.points[new]
            ok = ((tricks.sum(axis=1) == 13)
                  & (hon == honours_won(st.won[new], st.trump[new])).all(axis=1)
                  & (pts == score(tricks, st.bids[new], hon)).all(axis=1))
            if not ok.all():
                g = int(new[np.flatnonzero(~ok)[0]])
                return (f"game {int(st.game_id[g])}: points {st.points[g].tolist()} do not "
                        f"follow from tricks {st.tricks[g].tolist()}, honours "
                        f"{st.honours[g].tolist()} and bids {st.bids[g].tolist()}: the game "
                        "state was changed outside the rules"), bool((~done).any())
        return None, bool((~done).any())


__all__ = ["GAME_COLUMNS", "TABLE_SCHEMAS", "OutcomeLog", "PointsAudit", "games_table",
           "honours_won"]
