"""Trix's streamed sums for the behaviour sections of a report (part of Trix's report
aspects, ``trix_aspects``): contract ordering, K♥ declaration, trix timing, the points of
every contract and the game length, per strategy pooled over its games.

One pass over the games tables learns which strategy sits in which seat of every lineup
(and each game's length in contracts); one pass over the contracts tables sums everything
the sections and plots need (counts, sums and sums of squares, exact-value histograms).
Memory depends on the number of strategies only, never on the number of games. A contract
row's picker, K♥ holder and other seats get their strategy through their (run, lineup,
seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from trixsim.reports.aggregate import add_counts, add_moments, grow, lineup_seats
from trixsim.reports.tables import RunFolder, RunReadError, batches, decode

from trixsim.games.trix.types import CONTRACT_NAMES

N_CONTRACTS = len(CONTRACT_NAMES)
RAY, GENERAL, TRIX = (CONTRACT_NAMES.index(c) for c in ("ray", "general", "trix"))
DECLARABLE = (RAY, GENERAL)
POINTS_MIN, POINTS_MAX = -200, 2400  # histogram range of one contract's points (clipped)
HEARTS = 0xFF  # suit 0 (hearts) holds cards 0..7
JACK_BITS = tuple(1 << (suit * 8 + 3) for suit in range(4))  # rank J = 3
TRIX_RESULTS = (-100, -50, 0)

CONTRACT_COLUMNS = ["lineup", "picker", "pick", "contract", "forced", "picker_hand", "kh_holder",
                    "declared", "kh_taker", *(f"points_{s}" for s in range(4))]
OPTIONAL_CONTRACT_COLUMNS = ["kh_holder_hearts"]


def _zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, dtype=np.float64)


def popcount8(x: np.ndarray) -> np.ndarray:
    """Number of set bits of values below 256."""
    table = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
    return table[np.asarray(x, dtype=np.int64) & 0xFF]


@dataclass
class TrixSums:
    """Trix's sums, indexed by strategy id (``strategies[id]`` is its spec)."""

    strategies: list[str] = field(default_factory=list)
    kh_hearts_all_holders: bool = False  # True when the run records every holder's hearts
    # game length in contracts: [strategy, length], once per game at the table
    length_hist: np.ndarray = field(default_factory=lambda: _zeros(0, 29))
    # contracts: [strategy, pick-1, contract] picks; [strategy, contract, pick-1, moment]
    picks: np.ndarray = field(default_factory=lambda: _zeros(0, 7, N_CONTRACTS))
    picker_points: np.ndarray = field(default_factory=lambda: _zeros(0, N_CONTRACTS, 7, 3))
    # K♥: [strategy, ray/general] holder counts and declarations; [.., declared] lost counts
    holder: np.ndarray = field(default_factory=lambda: _zeros(0, 2))
    declared: np.ndarray = field(default_factory=lambda: _zeros(0, 2))
    kh_games: np.ndarray = field(default_factory=lambda: _zeros(0, 2, 2))
    kh_lost: np.ndarray = field(default_factory=lambda: _zeros(0, 2, 2))
    # [strategy, ray/general, declared, hearts 0-8, which (own, own - others), moment]
    holder_points: np.ndarray = field(default_factory=lambda: _zeros(0, 2, 2, 9, 2, 3))
    # trix: forced picks [strategy]; results [strategy, pick-1, result]; by jacks held
    trix_forced: np.ndarray = field(default_factory=lambda: _zeros(0))
    trix_by_pick: np.ndarray = field(default_factory=lambda: _zeros(0, 7, 3))
    trix_by_jacks: np.ndarray = field(default_factory=lambda: _zeros(0, 5, 3))
    # points per contract: [strategy, contract, role (picker, other), value - POINTS_MIN]
    points_hist: np.ndarray = field(
        default_factory=lambda: _zeros(0, N_CONTRACTS, 2, POINTS_MAX - POINTS_MIN + 1))
    contracts: int = 0
    images: dict[str, list[str]] = field(default_factory=dict)
    """The plots drawn of it, by section (``trix_aspects.behaviour``)."""

    _ARRAYS = ("length_hist", "picks", "picker_points", "holder", "declared", "kh_games",
               "kh_lost", "holder_points", "trix_forced", "trix_by_pick", "trix_by_jacks",
               "points_hist")

    def select(self, names: Sequence[str]) -> TrixSums:
        """The sums of the named strategies only, in that order."""
        idx = [self.strategies.index(n) for n in names]
        out = TrixSums(list(names), self.kh_hearts_all_holders, contracts=self.contracts)
        for a in self._ARRAYS:
            setattr(out, a, getattr(self, a)[idx])
        return out


def sum_runs(runs: Sequence[RunFolder], strategies: Sequence[str]) -> TrixSums:
    """Stream every run's games then contracts tables into one ``TrixSums`` of
    ``strategies`` (in that order)."""
    sums = TrixSums()
    index: dict[str, int] = {}
    sums.kh_hearts_all_holders = all(
        "kh_holder_hearts" in r.columns("contracts") for r in runs)
    for run in runs:
        seats = _games(run, sums, index)
        _contracts(run, sums, seats)
    return sums.select(strategies)


def _games(run: RunFolder, sums: TrixSums, index: dict[str, int]) -> np.ndarray:
    """Each game's length at the table; return the strategy id of each (lineup, seat)."""
    seats = np.full((256, 4), -1, dtype=np.int64)
    cols = ["lineup", *(f"strategy_{s}" for s in range(4)), "contracts"]
    for b in batches(run, "games", cols):
        ids = lineup_seats(run, b, index, seats)
        sums.strategies = sorted(index, key=index.__getitem__)
        grow(sums, TrixSums._ARRAYS, len(index))
        length = np.clip(b["contracts"].astype(np.int64), 0, 28)
        for s in range(4):
            k = ids[:, s]
            # game length once per game for each strategy at the table
            first = np.ones(len(k), dtype=bool)
            for t in range(s):
                first &= ids[:, t] != k
            add_counts(sums.length_hist, (k[first], length[first]))
    return seats


def _contracts(run: RunFolder, sums: TrixSums, seats: np.ndarray) -> None:
    """Sum the contracts table using the (lineup, seat) -> strategy map ``seats``."""
    names: dict[str, int] = {c: i for i, c in enumerate(CONTRACT_NAMES)}
    for b in batches(run, "contracts", CONTRACT_COLUMNS, OPTIONAL_CONTRACT_COLUMNS):
        contract = decode(b["contract"], names)
        if contract.size and contract.max() >= N_CONTRACTS:
            raise RunReadError(f"{run.path}: unknown contract name in the contracts table")
        lineup = b["lineup"].astype(np.int64)
        picker = b["picker"].astype(np.int64)
        pick = np.clip(b["pick"].astype(np.int64), 1, 7) - 1
        points = np.stack([b[f"points_{s}"].astype(np.float64) for s in range(4)], axis=1)
        strat = seats[lineup]  # (n, 4) strategy id of every seat
        if (strat < 0).any():
            raise RunReadError(f"{run.path}: contracts of a lineup missing from the games table")
        rows = np.arange(len(lineup))
        k = strat[rows, picker]
        sums.contracts += len(lineup)
        pp = points[rows, picker]
        add_counts(sums.picks, (k, pick, contract))
        add_moments(sums.picker_points, (k, contract, pick), pp)
        _points_hist(sums, strat, picker, contract, points)
        _declarations(sums, b, strat, contract, points)
        trix = contract == TRIX
        kt, pt = k[trix], pick[trix]
        add_counts(sums.trix_forced, (kt,), b["forced"][trix].astype(np.float64))
        result = np.searchsorted(np.array(TRIX_RESULTS), pp[trix]).clip(0, 2)
        hand = b["picker_hand"][trix].astype(np.int64)
        jacks = sum(((hand & j) != 0).astype(np.int64) for j in JACK_BITS)
        add_counts(sums.trix_by_pick, (kt, pt, result))
        add_counts(sums.trix_by_jacks, (kt, np.asarray(jacks, dtype=np.int64), result))


def _points_hist(sums: TrixSums, strat: np.ndarray, picker: np.ndarray, contract: np.ndarray,
                 points: np.ndarray) -> None:
    for s in range(4):
        role = (picker != s).astype(np.int64)  # 0 = picker, 1 = other
        value = np.clip(points[:, s].astype(np.int64), POINTS_MIN, POINTS_MAX) - POINTS_MIN
        add_counts(sums.points_hist, (strat[:, s], contract, role, value))


def _declarations(sums: TrixSums, b: dict, strat: np.ndarray, contract: np.ndarray,
                  points: np.ndarray) -> None:
    """K♥ holder statistics in ray and general."""
    rows = np.flatnonzero((contract == RAY) | (contract == GENERAL))
    if not rows.size:
        return
    holder = b["kh_holder"][rows].astype(np.int64)
    ok = (holder >= 0) & (holder < 4)
    rows, holder = rows[ok], holder[ok]
    which = (contract[rows] == GENERAL).astype(np.int64)
    k = strat[rows, holder]
    dec = b["declared"][rows].astype(bool)
    add_counts(sums.holder, (k, which))
    add_counts(sums.declared, (k, which), dec.astype(np.float64))
    d = dec.astype(np.int64)
    taker = b["kh_taker"][rows].astype(np.int64)
    add_counts(sums.kh_games, (k, which, d))
    add_counts(sums.kh_lost, (k, which, d),
               ((taker >= 0) & (taker != holder)).astype(np.float64))
    if "kh_holder_hearts" in b:
        hearts = b["kh_holder_hearts"][rows].astype(np.int64)
        keep = np.ones(rows.size, dtype=bool)
    else:  # the picker's hand is the only one recorded: keep picker-held K♥
        keep = b["picker"][rows].astype(np.int64) == holder
        hearts = popcount8(b["picker_hand"][rows].astype(np.int64) & HEARTS)
    own = points[rows, holder]
    others = (points[rows].sum(axis=1) - own) / 3
    idx = (k[keep], which[keep], d[keep], np.clip(hearts[keep], 0, 8))
    add_moments(sums.holder_points, (*idx, np.zeros(idx[0].size, dtype=np.int64)), own[keep])
    add_moments(sums.holder_points, (*idx, np.ones(idx[0].size, dtype=np.int64)),
                (own - others)[keep])
