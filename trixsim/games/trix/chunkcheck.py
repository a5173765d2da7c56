"""Trix's answer to ``Game.verify_tables``: a chunk's contracts and games tables checked
by the rules (what ``trixsim check`` asks the game).

Each contract's totals are the previous totals plus its points with the 1000 rule, games
end when a total passes 1000 or after 28 contracts, the final totals and contract counts
match each game's last contract, and then every contract row is re-derived
(``trixsim.games.trix.verify.check_rows``): who picked what, the tricks and cards taken,
and each seat's points.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from trixsim.games.trix import rules, transitions
from trixsim.games.trix.transitions import add_points, ends_game
from trixsim.games.trix.types import CONTRACT_NAMES
from trixsim.games.trix.verify import check_rows
from trixsim.jitcache import guard, sources

# _chain compiles in the rules it calls: refresh its cache when they change
guard(__file__, sources(rules, transitions))


def verify_tables(tables: dict[str, Any], start: int, stop: int,
                  rows: dict[str, int]) -> list[str]:
    """Problems of one chunk's Trix tables (pandas frames ``contracts`` and ``games``)."""
    c, g = tables["contracts"], tables["games"]
    if len(c) != rows.get("contracts", -1):
        return ["the tables hold other games or row counts than run.json lists"]
    game = c.game.to_numpy(np.int64)
    number = c.number.to_numpy(np.int64)
    points = c[[f"points_{s}" for s in range(4)]].to_numpy(np.int64)
    totals = c[[f"totals_{s}" for s in range(4)]].to_numpy(np.int64)
    final = g[[f"final_{s}" for s in range(4)]].to_numpy(np.int64)
    played = g.contracts.to_numpy(np.int64)
    row, what = _chain(game, number, points, totals, start, final, played)
    if row >= 0:
        gid = int(game[row]) if what < 2 else start + row
        return [f"game {gid}: {_WHAT[what]}"]
    cols = {name: c[name].to_numpy() for name in c.columns if name != "contract"}
    cols["contract"] = _contract_ids(c.contract)
    return check_rows(cols, g.first_picker.to_numpy(np.int64), start)


def _contract_ids(column: object) -> np.ndarray:
    """A contract column (names, dictionary-encoded) as ids 0-6 (-1 for a name not known)."""
    import pandas as pd

    cat = pd.Categorical(column)
    ids = np.array([CONTRACT_NAMES.index(x) if x in CONTRACT_NAMES else -1
                    for x in cat.categories] + [-1], dtype=np.int64)
    return ids[np.where(cat.codes < 0, len(cat.categories), cat.codes)]


_WHAT = ("totals are not the previous totals plus the contract's points (1000 rule)",
         "contracts out of order or the game goes on after it should have ended",
         "ends before a total passed 1000 or 28 contracts were played",
         "final totals or contract count differ from its last contract")


@njit(cache=True)
def _chain(game: np.ndarray, number: np.ndarray, points: np.ndarray, totals: np.ndarray,
           first: int, final: np.ndarray, played: np.ndarray) -> tuple[int, int]:
    """The first broken row and what is wrong with it (an index into _WHAT), or (-1, -1).
    Rows are in (game, contract number) order, as every chunk file holds them."""
    n_games = final.shape[0]
    last = np.full(n_games, -1, dtype=np.int64)
    for r in range(game.shape[0]):
        k = game[r] - first
        new_game = r == 0 or game[r] != game[r - 1]
        if k < 0 or k >= n_games or number[r] != (1 if new_game else number[r - 1] + 1):
            return r, 1
        if not new_game:
            for s in range(4):
                if ends_game(totals[r - 1, s], 0):
                    return r, 1
        for s in range(4):
            if totals[r, s] != add_points(0 if new_game else totals[r - 1, s], points[r, s]):
                return r, 0
        last[k] = r
    for k in range(n_games):
        r = last[k]
        if r < 0 or number[r] != played[k]:
            return k, 3
        over = ends_game(0, number[r])
        for s in range(4):
            over |= ends_game(totals[r, s], 0)
            if final[k, s] != totals[r, s]:
                return k, 3
        if not over:
            return k, 2
    return -1, -1


__all__ = ["verify_tables"]
