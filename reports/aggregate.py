"""Streamed aggregates of one or more run folders, keyed by strategy.

One pass over the games tables learns which strategy sits in which seat of every lineup
and sums the per-game results; one pass over the contracts tables sums everything the
plots need (counts, sums and sums of squares, exact-value histograms). Memory depends on
the number of strategies only, never on the number of games.

A strategy is its spec string as recorded in the games table; a contract row's picker,
K♥ holder and other seats get their strategy through their (run, lineup, seat). Every
game's games table gives the final scores (``{score_prefix}_s``) and winners and losers;
the contracts sums are Trix's aspects, made only from runs with a contracts table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from trixsim.reports.tables import RunFolder, RunReadError, batches, decode, game_of_runs

from trixsim.games.trix.types import CONTRACT_NAMES

N_CONTRACTS = len(CONTRACT_NAMES)
RAY, GENERAL, TRIX = (CONTRACT_NAMES.index(c) for c in ("ray", "general", "trix"))
DECLARABLE = (RAY, GENERAL)
TOTAL_MIN, TOTAL_MAX = -1500, 2600  # histogram range of final totals (clipped)
POINTS_MIN, POINTS_MAX = -200, 2400  # histogram range of one contract's points (clipped)
HEARTS = 0xFF  # suit 0 (hearts) holds cards 0..7
JACK_BITS = tuple(1 << (suit * 8 + 3) for suit in range(4))  # rank J = 3
TRIX_RESULTS = (-100, -50, 0)

GAME_COLUMNS = ["lineup", *(f"strategy_{s}" for s in range(4)),
                *(f"winner_{s}" for s in range(4)), *(f"loser_{s}" for s in range(4))]
"""The games table's columns every game has (besides its final scores)."""
CONTRACT_COLUMNS = ["lineup", "picker", "pick", "contract", "forced", "picker_hand", "kh_holder",
                    "declared", "kh_taker", *(f"points_{s}" for s in range(4))]
OPTIONAL_CONTRACT_COLUMNS = ["kh_holder_hearts"]


def _zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, dtype=np.float64)


def _add(target: np.ndarray, index: tuple[np.ndarray, ...], values: np.ndarray | None = None
         ) -> None:
    """``target[index] += values`` with repeated indices summed (values default 1)."""
    flat = np.ravel_multi_index(index, target.shape)
    w = None if values is None else np.asarray(values, dtype=np.float64)
    target += np.bincount(flat, weights=w, minlength=target.size).reshape(target.shape)


def _moments(target: np.ndarray, index: tuple[np.ndarray, ...], x: np.ndarray) -> None:
    """Add counts, sums and sums of squares: ``target`` has a last axis of 3."""
    x = np.asarray(x, dtype=np.float64)
    for k, v in enumerate((None, x, x * x)):
        _add(target, (*index, np.full(x.shape, k, dtype=np.int64)), v)


def popcount8(x: np.ndarray) -> np.ndarray:
    """Number of set bits of values below 256."""
    table = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
    return table[np.asarray(x, dtype=np.int64) & 0xFF]


@dataclass
class Aggregates:
    """All sums the report needs, indexed by strategy id (``strategies[id]`` is its spec)."""

    strategies: list[str] = field(default_factory=list)
    kh_hearts_all_holders: bool = False  # True when the run records every holder's hearts
    higher_is_better: bool = False
    """The runs' game's score direction."""
    score_word: str = "total"
    """What the game calls a final score (Trix: total, trump7: points)."""
    has_contracts: bool = True
    """Whether the runs have Trix's contracts table (its aspects are summed)."""
    # games: [strategy, seat, moment(n, sum, sum of squares)] of final totals; wins/losses
    final: np.ndarray = field(default_factory=lambda: _zeros(0, 4, 3))
    wins: np.ndarray = field(default_factory=lambda: _zeros(0, 4))
    losses: np.ndarray = field(default_factory=lambda: _zeros(0, 4))
    final_hist: np.ndarray = field(default_factory=lambda: _zeros(0, TOTAL_MAX - TOTAL_MIN + 1))
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
    games: int = 0
    contracts: int = 0

    _ARRAYS = ("final", "wins", "losses", "final_hist", "length_hist", "picks", "picker_points",
               "holder", "declared", "kh_games", "kh_lost", "holder_points", "trix_forced",
               "trix_by_pick", "trix_by_jacks", "points_hist")

    def _grow(self, k: int) -> None:
        """Make room for ``k`` strategies."""
        for name in self._ARRAYS:
            a = getattr(self, name)
            if a.shape[0] < k:
                pad = np.zeros((k - a.shape[0], *a.shape[1:]))
                setattr(self, name, np.concatenate([a, pad]))


def aggregate(runs: Sequence[RunFolder]) -> Aggregates:
    """Stream every run's games then contracts tables into one ``Aggregates``."""
    game = game_of_runs(runs)
    agg = Aggregates(higher_is_better=game.higher_is_better, score_word=game.score_word,
                     has_contracts=all(r.has_contracts for r in runs))
    index: dict[str, int] = {}
    agg.kh_hearts_all_holders = agg.has_contracts and all(
        "kh_holder_hearts" in r.columns("contracts") for r in runs)
    for run in runs:
        seats = _games(run, agg, index)
        if agg.has_contracts:
            _contracts(run, agg, seats)
    if agg.games == 0:
        raise RunReadError(f"{runs[0].path}: the run holds no games")
    return agg


def _games(run: RunFolder, agg: Aggregates, index: dict[str, int]) -> np.ndarray:
    """Sum the games table; return the strategy id of each (lineup, seat)."""
    seats = np.full((256, 4), -1, dtype=np.int64)
    score = run.score_columns()
    extra = ["contracts"] if run.has_contracts else []
    for b in batches(run, "games", [*GAME_COLUMNS, *score, *extra]):
        lineup = b["lineup"].astype(np.int64)
        ids = np.stack([decode(b[f"strategy_{s}"], index) for s in range(4)], axis=1)
        agg.strategies = sorted(index, key=index.__getitem__)
        agg._grow(len(index))
        for s in range(4):
            known = seats[lineup, s]
            if ((known >= 0) & (known != ids[:, s])).any():
                raise RunReadError(f"{run.path}: lineup with two strategies in seat {s}")
            seats[lineup, s] = ids[:, s]
        n = len(lineup)
        agg.games += n
        length = np.clip(b["contracts"].astype(np.int64), 0, 28) if extra else None
        for s in range(4):
            k = ids[:, s]
            seat = np.full(n, s)
            final = b[score[s]].astype(np.float64)
            _moments(agg.final, (k, seat), final)
            _add(agg.wins, (k, seat), b[f"winner_{s}"].astype(np.float64))
            _add(agg.losses, (k, seat), b[f"loser_{s}"].astype(np.float64))
            _add(agg.final_hist, (k, np.clip(final.astype(np.int64), TOTAL_MIN, TOTAL_MAX)
                                  - TOTAL_MIN))
            if length is None:  # Trix's game length (in contracts) only
                continue
            # game length once per game for each strategy at the table
            first = np.ones(n, dtype=bool)
            for t in range(s):
                first &= ids[:, t] != k
            _add(agg.length_hist, (k[first], length[first]))
    return seats


def _contracts(run: RunFolder, agg: Aggregates, seats: np.ndarray) -> None:
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
        agg.contracts += len(lineup)
        pp = points[rows, picker]
        _add(agg.picks, (k, pick, contract))
        _moments(agg.picker_points, (k, contract, pick), pp)
        _points_hist(agg, strat, picker, contract, points)
        _declarations(agg, b, strat, contract, points)
        trix = contract == TRIX
        kt, pt = k[trix], pick[trix]
        _add(agg.trix_forced, (kt,), b["forced"][trix].astype(np.float64))
        result = np.searchsorted(np.array(TRIX_RESULTS), pp[trix]).clip(0, 2)
        hand = b["picker_hand"][trix].astype(np.int64)
        jacks = sum(((hand & j) != 0).astype(np.int64) for j in JACK_BITS)
        _add(agg.trix_by_pick, (kt, pt, result))
        _add(agg.trix_by_jacks, (kt, np.asarray(jacks, dtype=np.int64), result))


def _points_hist(agg: Aggregates, strat: np.ndarray, picker: np.ndarray, contract: np.ndarray,
                 points: np.ndarray) -> None:
    for s in range(4):
        role = (picker != s).astype(np.int64)  # 0 = picker, 1 = other
        value = np.clip(points[:, s].astype(np.int64), POINTS_MIN, POINTS_MAX) - POINTS_MIN
        _add(agg.points_hist, (strat[:, s], contract, role, value))


def _declarations(agg: Aggregates, b: dict, strat: np.ndarray, contract: np.ndarray,
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
    _add(agg.holder, (k, which))
    _add(agg.declared, (k, which), dec.astype(np.float64))
    d = dec.astype(np.int64)
    taker = b["kh_taker"][rows].astype(np.int64)
    _add(agg.kh_games, (k, which, d))
    _add(agg.kh_lost, (k, which, d), ((taker >= 0) & (taker != holder)).astype(np.float64))
    if "kh_holder_hearts" in b:
        hearts = b["kh_holder_hearts"][rows].astype(np.int64)
        keep = np.ones(rows.size, dtype=bool)
    else:  # the picker's hand is the only one recorded: keep picker-held K♥
        keep = b["picker"][rows].astype(np.int64) == holder
        hearts = popcount8(b["picker_hand"][rows].astype(np.int64) & HEARTS)
    own = points[rows, holder]
    others = (points[rows].sum(axis=1) - own) / 3
    idx = (k[keep], which[keep], d[keep], np.clip(hearts[keep], 0, 8))
    _moments(agg.holder_points, (*idx, np.zeros(idx[0].size, dtype=np.int64)), own[keep])
    _moments(agg.holder_points, (*idx, np.ones(idx[0].size, dtype=np.int64)),
             (own - others)[keep])
