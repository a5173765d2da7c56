"""trump7's answer to ``Game.verify_tables``: a chunk's ``games`` table checked by the rules.

Every row on its own: the dealer is the game index % 4; the trump is the turned card's
suit; the 13 tricks are all won (each seat 0-13) and the trump ace, jack and queen's 12
honour points all taken; bids are -1 without the bid and 0-13 with it; each seat's points
are its tricks (or the bid's formula) plus its honours, so without the bid a game's
points add up to 25. Winners, losers and run.json's sums are checked by the caller
(``trixsim.audit``) from ``Game.winners_losers``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trixsim.games.trump7.cards import N_RANKS, SUIT_WORDS
from trixsim.games.trump7.rules import score


def _quad(g: Any, name: str) -> np.ndarray:
    return g[[f"{name}_{s}" for s in range(4)]].to_numpy(np.int64)


def verify_games(g: Any, bidding: bool, limit: int = 10) -> list[str]:
    """The rows of a games table (pandas) that break the rules, one line each (at most
    ``limit``): ``game G: what is wrong``."""
    game = g.game.to_numpy(np.int64)
    tricks, honours = _quad(g, "tricks"), _quad(g, "honours")
    bids, points = _quad(g, "bid"), _quad(g, "points")
    turned = g.turned.to_numpy(np.int64)
    trump = np.array([SUIT_WORDS.index(x) if x in SUIT_WORDS else -1 for x in g.trump],
                     dtype=np.int64)
    checks = [
        (g.dealer.to_numpy(np.int64) != game % 4, "the dealer is not the game index % 4"),
        ((turned < 0) | (turned > 51) | (trump != turned // N_RANKS),
         "the trump is not the turned card's suit"),
        (~np.isin(g.turned_holder.to_numpy(np.int64), [0, 1, 2, 3]),
         "the turned card's holder is not a seat"),
        ((tricks < 0).any(axis=1) | (tricks.sum(axis=1) != 13),
         "the tricks won do not add up to 13"),
        (~np.isin(honours, [0, 3, 4, 5, 7, 8, 9, 12]).all(axis=1) | (honours.sum(axis=1) != 12),
         "the honours won are not the trump ace (5), jack (4) and queen (3)"),
        (((bids < 0) | (bids > 13)).any(axis=1) if bidding else (bids != -1).any(axis=1),
         "a bid is not 0-13" if bidding else "a bid in a game without the bid"),
        ((score(tricks, bids, honours) != points).any(axis=1),
         "points are not tricks (or the bid's formula) plus honours"),
    ]
    if not bidding:
        checks.append((points.sum(axis=1) != 25, "points do not add up to 25"))
    bad: list[tuple[int, str]] = []
    for broken, what in checks:
        bad += [(int(r), what) for r in np.flatnonzero(broken)[:limit]]
    bad.sort()
    return [f"game {int(game[r])}: {what}" for r, what in bad[:limit]]


__all__ = ["verify_games"]
