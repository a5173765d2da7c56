"""trump7's answer to ``Game.verify_tables``: a chunk's ``games`` table checked by the rules.

Every row on its own: the dealer is the game index % 4; the trump is the turned card's
suit; the 13 tricks are all won (each seat 0-13) and the trump ace, jack and queen's 12
honour points all taken; bids are -1 without the bid and 0-13 with it; each seat's points
are its tricks (or the bid's formula) plus its honours, so without the bid a game's
points add up to 25. The counts of how the game was played (``tallies``; tables written
before them have none) cannot be re-derived without the cards played, but they must fit
the rules: 13 leads, the first by the eldest; tricks led and won within the tricks led
and won; a led trick's points within its trick and the honours; as many ruffs as trumps
played (13 at most with the trumps led), ruffs no more than the chances to ruff, and
ruffs and discards within the cards played to others' leads; honour points lost a sum of
the trump ace, jack and queen, none lost by a seat that won them all. Winners, losers and
run.json's sums are checked by the caller (``trixsim.audit``) from
``Game.winners_losers``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trixsim.games.trump7.cards import N_RANKS, SUIT_WORDS
from trixsim.games.trump7.rules import score
from trixsim.games.trump7.tallies import TALLIES

HONOUR_SUMS = [0, 3, 4, 5, 7, 8, 9, 12]
"""Every sum of the trump honours' points (queen 3, jack 4, ace 5)."""


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
        (~np.isin(honours, HONOUR_SUMS).all(axis=1) | (honours.sum(axis=1) != 12),
         "the honours won are not the trump ace (5), jack (4) and queen (3)"),
        (((bids < 0) | (bids > 13)).any(axis=1) if bidding else (bids != -1).any(axis=1),
         "a bid is not 0-13" if bidding else "a bid in a game without the bid"),
        ((score(tricks, bids, honours) != points).any(axis=1),
         "points are not tricks (or the bid's formula) plus honours"),
    ]
    if not bidding:
        checks.append((points.sum(axis=1) != 25, "points do not add up to 25"))
    if all(f"{name}_0" in g.columns for name in TALLIES):
        eldest = (game % 4 + 1) % 4
        checks += _tally_checks({n: _quad(g, n) for n in TALLIES}, tricks, honours, eldest)
    bad: list[tuple[int, str]] = []
    for broken, what in checks:
        bad += [(int(r), what) for r in np.flatnonzero(broken)[:limit]]
    bad.sort()
    return [f"game {int(game[r])}: {what}" for r, what in bad[:limit]]


def _tally_checks(t: dict[str, np.ndarray], tricks: np.ndarray, honours: np.ndarray,
                  eldest: np.ndarray) -> list[tuple[np.ndarray, str]]:
    """The rows whose counts of play (``tallies``) break the rules, with what is wrong."""
    leads, wins = t["leads"], t["lead_wins"]
    kinds = np.stack([t[k] for k in ("lead_trumps", "lead_aces", "lead_lows")])
    kind_wins = np.stack([t[k] for k in ("lead_trump_wins", "lead_ace_wins",
                                         "lead_low_wins")])
    extra = t["lead_points"] - wins
    follows = 13 - leads
    ruffs, ruff_wins, lost = t["ruffs"], t["ruff_wins"], t["honours_lost"]
    bad_leads = ((leads < 0).any(axis=1) | (leads.sum(axis=1) != 13)
                 | (leads[np.arange(len(eldest)), eldest] < 1))
    bad_wins = ((wins < 0) | (wins > leads) | (wins > tricks)).any(axis=1)
    bad_points = ((extra < 0) | (extra > honours) | ~np.isin(extra, HONOUR_SUMS)).any(axis=1)
    bad_kinds = (((kinds < 0) | (kind_wins < 0) | (kind_wins > kinds)).any(axis=(0, 2))
                 | (kinds.sum(axis=0) > leads).any(axis=1)
                 | (kind_wins.sum(axis=0) > wins).any(axis=1)
                 | (t["lead_aces"].sum(axis=1) > 3))
    bad_ruffs = (((ruff_wins < 0) | (ruff_wins > ruffs) | (ruffs > t["ruff_chances"])
                  | (ruff_wins > tricks - wins) | (t["discards"] < 0)
                  | (ruffs + t["discards"] > follows) | (t["ruff_chances"] > follows)
                  ).any(axis=1)
                 | (ruffs.sum(axis=1) + t["lead_trumps"].sum(axis=1) > 13))
    bad_lost = (~np.isin(lost, HONOUR_SUMS).all(axis=1) | (lost.sum(axis=1) > 12)
                | (lost + honours > 12).any(axis=1))
    return [(bad_leads, "the tricks led do not add up to 13, the eldest leading the first"),
            (bad_wins, "more tricks led and won than led or won"),
            (bad_points, "the points of the tricks led and won are not 1 each plus honours"),
            (bad_kinds, "the leads by kind do not fit the tricks led and won"),
            (bad_ruffs, "the ruffs and discards do not fit the cards played"),
            (bad_lost, "the honour points lost are not the trump ace, jack and queen")]


__all__ = ["verify_games"]
