"""Duplicate pairing: games on the same deal and seat, played by two different strategies.

Deals depend only on (seed, game index, contract number), so every game with the same seed
and game index, in any lineup of any run, was dealt the same cards. Two such games whose
lineups differ in exactly one seat form a *matched pair*: the only change is that seat's
strategy, A in one game and B in the other, so the difference of that seat's results is
the effect of playing A instead of B, with the luck of the cards cancelled. Lineups that
differ in more seats (``--rotate``) give *seat pairs*: same deal and seat, but other
opponents too; they are used only for strategy pairs that have no matched pair.

Every comparison is reduced to one value per deal (the mean over the pairs of that deal)
and its interval is over deals, the independent unit. Differences are always A − B with A
before B in display order; which sign is better is the game's (``Paired.higher_is_better``):
in Trix lower totals win, so a negative difference means A is better, in trump7 the
opposite. Only the final scores are paired in every game; a game that names an aspects
plug-in (``reports.aspects``) adds the measures it computes from its games table and the
paired values it takes of its own data (Trix: contracts picked, K♥ declaration, trix
timing).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from trixsim.reports.aspects import aspects_of
from trixsim.reports.stats import Estimate, Moments
from trixsim.reports.tables import RunFolder, RunReadError, batches, game_of_runs

from trixsim.loading import split_specs

MATCHED, SEAT = "matched", "seat"

Key = tuple[str, str, str, str, str]  # (a, b, aspect, cell, measure)
TOTAL = ("total", "", "final")
BLOCK_BYTES = 192 << 20
"""About how much memory the games of one block of deals may take while they are paired:
runs are read a block of deals at a time, so a report's memory does not grow with games."""
PER_LINEUP_DEAL, PER_DEAL = 300, 4000
"""Bytes of one lineup's games on one deal in a ``DealTable`` (with a game's own data:
Trix's contracts), and per deal of the pairing (per-deal sums of about 90 keys, two
float64 each, and temporaries over 28 contract numbers for Trix's K♥), as measured on the
peak memory of a report."""


class DuplicateRunError(ValueError):
    """Two inputs hold the same games; the message is one line for the user."""


def run_ids(runs: Sequence[RunFolder]) -> list[str]:
    """Each run's id: its folder name, or parent/name when two inputs share a name."""
    names = [r.path.name for r in runs]
    return [f"{r.path.parent.name}/{r.path.name}" if names.count(r.path.name) > 1
            else r.path.name for r in runs]


def check_duplicates(runs: Sequence[RunFolder]) -> None:
    """Refuse inputs that hold the same games (same folder, or a copy: same seed, same
    lineup and overlapping game indices), which would be counted twice."""
    seen: dict[tuple[int, str], list[tuple[int, int, RunFolder]]] = defaultdict(list)
    paths: dict[object, RunFolder] = {}
    for r in runs:
        key = r.path.resolve()
        if key in paths:
            raise DuplicateRunError(f"{r.path} is given twice: its games would be counted "
                                    "twice")
        paths[key] = r
        lo = int(r.meta.get("first_game", 0))
        hi = lo + int(r.meta.get("games", 0))
        for lineup in dict.fromkeys(r.lineups):
            for a, b, other in seen[(int(r.meta.get("seed", 0)), lineup)]:
                if a < hi and lo < b:
                    raise DuplicateRunError(
                        f"{other.path} and {r.path} hold the same games (seed "
                        f"{r.meta.get('seed')}, lineup {lineup}, games {max(a, lo)}.."
                        f"{min(b, hi) - 1}), as runs on one seed with one lineup do: give "
                        f"each run once, or play one of them again with another seed "
                        f"(--seed {_free_seed(runs)})")
            seen[(int(r.meta.get("seed", 0)), lineup)].append((lo, hi, r))


def _free_seed(runs: Sequence[RunFolder]) -> int:
    """A seed none of the runs used, to suggest."""
    return max(int(r.meta.get("seed", 0)) for r in runs) + 1


@dataclass
class DealTable:
    """Every game of the runs on one seed in a block of deals (from deal ``first``), by
    (lineup row, deal, seat).

    ``finals`` is NaN where a game was not played. ``extra`` holds the per-seat columns
    a game's aspects plug-in reads, by stem, ``[row, deal, seat]`` (NaN where not
    played); ``data`` its own data of the block (its ``deal_data``, filled by its
    ``read_deals``; None: it has none, or no two games of the block are paired).
    """

    seed: int
    first: int
    lineups: list[tuple[str, ...]]
    runs: list[list[str]]
    finals: np.ndarray
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    data: Any = None

    @property
    def deals(self) -> int:
        """Number of deal indices covered."""
        return self.finals.shape[1]


@dataclass
class LineupStats:
    """One lineup of the runs on one seed: which runs hold it, how many games were played
    in full, and each strategy's mean final total over its seats in a game (moments over
    games)."""

    seed: int
    lineup: tuple[str, ...]
    runs: list[str]
    games: int = 0
    means: dict[str, Moments] = field(default_factory=dict)

    def add(self, finals: np.ndarray) -> None:
        """Take in the final totals [deal, seat] of a block (NaN: not played)."""
        fin = finals.astype(np.float64)
        played = np.isfinite(fin).all(axis=1)
        self.games += int(played.sum())
        for s in dict.fromkeys(self.lineup):
            seats = [k for k in range(4) if self.lineup[k] == s]
            self.means.setdefault(s, Moments()).add(fin[played][:, seats].mean(axis=1))

    def estimates(self) -> list[tuple[str, int, Estimate]]:
        """(strategy, seats it held, its mean final total over games)."""
        return [(s, self.lineup.count(s), m.estimate()) for s, m in self.means.items()]


class _Group:
    """The runs on one seed, read a block of deals at a time as ``DealTable``s."""

    def __init__(self, seed: int, runs: list[RunFolder], ids: list[str],
                 aspects: Any = None) -> None:
        self.seed, self.runs, self.aspects = seed, runs, aspects
        self.first = min(int(r.meta.get("first_game", 0)) for r in runs)
        self.end = max(int(r.meta.get("first_game", 0)) + int(r.meta.get("games", 0))
                       for r in runs)
        rows: dict[tuple[str, ...], int] = {}
        self.maps = []
        for r in runs:
            m = np.full(256, -1, dtype=np.int64)
            for i, line in enumerate(r.lineups):
                m[i] = rows.setdefault(tuple(split_specs(line)), len(rows))
            self.maps.append(m)
        self.lineups = list(rows)
        self.ids: list[list[str]] = [[] for _ in rows]
        for r, rid, m in zip(runs, ids, self.maps, strict=True):
            for i in range(len(r.lineups)):
                self.ids[m[i]].append(rid)
        matched, seat = lineup_pairs(self.lineups)
        # without any pair only the finals are needed (per-lineup view): skip the rest
        self.paired = bool(matched or seat)
        columns = getattr(aspects, "COLUMNS", ()) if self.paired else ()
        self.columns = list(columns)  # a game plug-in's per-seat columns
        self.own = self.paired and hasattr(aspects, "deal_data")  # and its own data

    def blocks(self, size: int | None = None) -> Iterator[DealTable]:
        """The group's deals in blocks of ``size`` (default: what ``BLOCK_BYTES`` holds)."""
        n = len(self.lineups)
        per = PER_LINEUP_DEAL + 48 * len(self.columns)
        size = size or max(1000, BLOCK_BYTES // (per * n + PER_DEAL))
        for lo in range(self.first, self.end, size):
            yield self.table(lo, min(self.end, lo + size))

    def table(self, lo: int, hi: int) -> DealTable:
        """Every game of deals lo..hi-1."""
        n, g = len(self.lineups), hi - lo
        t = DealTable(self.seed, lo, self.lineups, self.ids,
                      np.full((n, g, 4), np.nan, dtype=np.float32))
        t.extra = {c: np.full((n, g, 4), np.nan, dtype=np.float32) for c in self.columns}
        if self.own:
            t.data = self.aspects.deal_data(n, g)
        for r, m in zip(self.runs, self.maps, strict=True):
            _read_games(r, t, m)
            if self.own:
                self.aspects.read_deals(r, t.data, (lo, hi),
                                        lambda b, r=r, m=m: _rows(r, t, m, b))
        return t


def groups(runs: Sequence[RunFolder], ids: Sequence[str],
           aspects: Any = None) -> list[_Group]:
    """The runs by seed: deals are the same only within a seed (``aspects``: the game's
    aspects plug-in, whose data is read besides the final scores)."""
    by_seed: dict[int, list[int]] = defaultdict(list)
    for k, r in enumerate(runs):
        by_seed[int(r.meta.get("seed", 0))].append(k)
    return [_Group(seed, [runs[k] for k in ks], [ids[k] for k in ks], aspects)
            for seed, ks in by_seed.items()]


def read_pairs(runs: Sequence[RunFolder], ids: Sequence[str], order: Sequence[str],
               keep_deals: bool = False, block: int | None = None
               ) -> tuple[Paired, list[LineupStats]]:
    """Pair the games of the runs (``pair``) and sum up each lineup (``LineupStats``),
    reading a block of deals at a time: memory stays bounded however many games. The
    game's aspects plug-in (if it names one) adds its measures."""
    game = game_of_runs(runs) if runs else None
    aspects = aspects_of(game) if game is not None else None
    pairer = Pairer(order, keep_deals, game.higher_is_better if game is not None else False,
                    aspects)
    stats: list[LineupStats] = []
    for grp in groups(runs, ids, aspects):
        mine = [LineupStats(grp.seed, lineup, grp.ids[r])
                for r, lineup in enumerate(grp.lineups)]
        for t in grp.blocks(block):
            for r, ls in enumerate(mine):
                ls.add(t.finals[r])
            pairer.add(t)
        stats += mine
    return pairer.result(), stats


def _rows(run: RunFolder, t: DealTable, m: np.ndarray, b: dict) -> tuple[np.ndarray, ...]:
    r = m[b["lineup"].astype(np.int64)]
    g = b["game"].astype(np.int64) - t.first
    if (r < 0).any() or (g < 0).any() or (g >= t.deals).any():
        raise RunReadError(f"{run.path}: a game outside the run's lineups or game range")
    return r, g


def _read_games(run: RunFolder, t: DealTable, m: np.ndarray) -> None:
    score = run.score_columns()
    for b in batches(run, "games", ["game", "lineup", *score],
                     games=(t.first, t.first + t.deals)):
        r, g = _rows(run, t, m, b)
        for s in range(4):
            t.finals[r, g, s] = b[score[s]]
    have = set(run.columns("games"))  # a table without a column: it stays missing (NaN)
    cols = [f"{c}_{s}" for c in t.extra if {f"{c}_{s}" for s in range(4)} <= have
            for s in range(4)]
    for b in batches(run, "games", ["game", "lineup", *cols],
                     games=(t.first, t.first + t.deals)) if cols else ():
        r, g = _rows(run, t, m, b)
        for col in cols:
            t.extra[col[:-2]][r, g, int(col[-1])] = b[col]


def lineup_pairs(lineups: Sequence[tuple[str, ...]]
                 ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """(row i, row j, seat) of matched pairs (lineups differing in that seat only) and of
    seat pairs (differing in more seats; all-same-strategy lineups left out, since their
    totals say how a table of one strategy plays, not how one seat does)."""
    matched, seat = [], []
    for i in range(len(lineups)):
        for j in range(i + 1, len(lineups)):
            a, b = lineups[i], lineups[j]
            diff = [s for s in range(4) if a[s] != b[s]]
            if len(diff) == 1:
                matched.append((i, j, diff[0]))
            elif len(set(a)) > 1 and len(set(b)) > 1:
                seat += [(i, j, s) for s in diff]
    return matched, seat


@dataclass
class _Acc:
    """Per-deal sums and weights of each key within one block; their per-deal means."""

    _sum: dict[Key, np.ndarray] = field(default_factory=dict)
    _w: dict[Key, np.ndarray] = field(default_factory=dict)

    def add(self, key: Key, values: np.ndarray, weights: np.ndarray) -> None:
        w = np.asarray(weights, dtype=np.float64)
        v = np.where(w > 0, np.nan_to_num(np.asarray(values, dtype=np.float64)), 0.0)
        if key not in self._sum:
            self._sum[key], self._w[key] = np.zeros(v.size), np.zeros(v.size)
        self._sum[key] += v
        self._w[key] += w

    def flush(self) -> Iterator[tuple[Key, np.ndarray]]:
        """Each key's per-deal means (deals without a weight left out); then empty."""
        for key, w in self._w.items():
            ok = w > 0
            if ok.any():
                yield key, self._sum[key][ok] / w[ok]
        self._sum, self._w = {}, {}


@dataclass
class Paired:
    """Every (a, b, aspect, cell, measure) as moments of its per-deal values, and how each
    pair was paired; with ``keep_deals``, the per-deal A − B totals themselves."""

    order: list[str]
    moments: dict[Key, Moments]
    method: dict[tuple[str, str], str]
    deals: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    higher_is_better: bool = False
    """The game's score direction: whether a positive A − B means A is better."""
    summary: tuple[tuple[str, tuple[str, str, str], str], ...] = ()
    """A game plug-in's summary verdict columns: (name, (aspect, cell, measure), meaning)."""
    aspects: Any = None
    """The game's aspects plug-in (``reports.aspects``), for its hooks on the verdicts."""

    def a_better(self, mean: float) -> bool:
        """Whether an A − B difference of ``mean`` (not 0) favours A in this game."""
        return (mean > 0) == self.higher_is_better

    def pairs(self) -> list[tuple[str, str]]:
        """Strategy pairs (a before b) that could be compared."""
        return sorted(self.method, key=lambda p: (self.order.index(p[0]),
                                                   self.order.index(p[1])))

    def keys(self) -> list[Key]:
        """Every (a, b, aspect, cell, measure) with data."""
        return list(self.moments)

    def get(self, a: str, b: str, aspect: str, cell: str, measure: str) -> Estimate:
        """Mean over deals with its 95% interval (n = 0 when there is nothing)."""
        m = self.moments.get((a, b, aspect, cell, measure))
        return m.estimate() if m is not None else Estimate(0, float("nan"), float("nan"))

    def deal_values(self, a: str, b: str) -> np.ndarray:
        """The per-deal A − B final totals behind ``get(a, b, *TOTAL)`` (kept only when
        paired with ``keep_deals``: the tournament resamples deals)."""
        if (a, b) in self.method and (a, b) not in self.deals:
            raise ValueError("per-deal values were not kept (pair with keep_deals=True)")
        return self.deals.get((a, b), np.zeros(0))


class Pairer:
    """Pairs games block after block of deals; ``result`` gives the ``Paired``."""

    def __init__(self, order: Sequence[str], keep_deals: bool = False,
                 higher_is_better: bool = False, aspects: Any = None) -> None:
        self.order, self.keep = list(order), keep_deals
        self.higher_is_better = higher_is_better
        self.aspects = aspects
        self.rank = {s: k for k, s in enumerate(order)}
        self.moments: dict[str, dict[Key, Moments]] = {MATCHED: {}, SEAT: {}}
        self.deals: dict[str, dict[tuple[str, str], list[np.ndarray]]] = {
            MATCHED: defaultdict(list), SEAT: defaultdict(list)}

    def add(self, t: DealTable) -> None:
        """Pair the games of one block of deals (every deal of it is whole here)."""
        matched, seat = lineup_pairs(t.lineups)
        values = self.aspects.measures(t.extra) if t.extra else {}
        for how, plist in ((MATCHED, matched), (SEAT, seat)):
            by_pair: dict[tuple[str, str], list[tuple[int, int, int]]] = defaultdict(list)
            for i, j, s in plist:
                a, b = t.lineups[i][s], t.lineups[j][s]
                if a not in self.rank or b not in self.rank:
                    continue
                first = self.rank[a] < self.rank[b]
                by_pair[(a, b) if first else (b, a)].append((i, j, s) if first else (j, i, s))
            for (a, b), items in by_pair.items():  # one strategy pair at a time: less memory
                acc = _Acc()
                for i, j, s in items:
                    _pair_values(t, i, j, s, lambda *k, a=a, b=b, acc=acc:
                                 acc.add((a, b, *k[:3]), k[3], k[4]), values, self.aspects)
                for key, means in acc.flush():
                    self.moments[how].setdefault(key, Moments()).add(means)
                    if self.keep and key[2:] == TOTAL:
                        self.deals[how][(a, b)].append(means.astype(np.float32))

    def result(self) -> Paired:
        """Matched pairs where a strategy pair has any, else seat pairs."""
        moments: dict[Key, Moments] = {}
        method: dict[tuple[str, str], str] = {}
        deals: dict[tuple[str, str], np.ndarray] = {}
        for how in (MATCHED, SEAT):
            for key, m in self.moments[how].items():
                if method.setdefault(key[:2], how) == how:
                    moments[key] = m
            for ab, parts in self.deals[how].items():
                if method.get(ab) == how:
                    deals[ab] = np.concatenate(parts)
        summary = tuple(getattr(self.aspects, "SUMMARY", ()))
        return Paired(self.order, moments, method, deals, self.higher_is_better, summary,
                      self.aspects)


def pair(tables: Iterable[DealTable], order: Sequence[str],
         keep_deals: bool = False, higher_is_better: bool = False,
         aspects: Any = None) -> Paired:
    """Pair every table's games and reduce them to per-deal values per strategy pair
    (``aspects``: the game's plug-in, for its own measures)."""
    pairer = Pairer(order, keep_deals, higher_is_better, aspects)
    for t in tables:
        pairer.add(t)
    return pairer.result()


def _pair_values(t: DealTable, i: int, j: int, s: int, add: Callable[..., None],
                 values: dict[tuple[str, str, str], np.ndarray] | None = None,
                 aspects: Any = None) -> None:
    """Per-deal differences of row i (strategy A in seat s) minus row j (B), by aspect
    (``values``: a game plug-in's measures ``[row, deal, seat]``, NaN where undefined;
    ``aspects``: the plug-in, whose ``pair_deals`` pairs its own data ``t.data``)."""
    fa, fb = t.finals[i, :, s].astype(np.float64), t.finals[j, :, s].astype(np.float64)
    ok = (np.isfinite(fa) & np.isfinite(fb)).astype(np.float64)
    diff = fa - fb
    add("total", "", "final", diff, ok)
    for key, v in (values or {}).items():
        va, vb = v[i, :, s], v[j, :, s]
        add(*key, va - vb, ok * (np.isfinite(va) & np.isfinite(vb)))
    if t.data is not None and aspects is not None:
        aspects.pair_deals(t.data, i, j, s, ok, diff, add)


__all__ = ["TOTAL", "DealTable", "DuplicateRunError", "LineupStats", "Paired", "Pairer",
           "check_duplicates", "groups", "lineup_pairs", "pair", "read_pairs", "run_ids"]
