"""trump7's aspects of a report (the plug-in ``Trump7Game.report_aspects`` names; see
``reports.aspects``): bidding, trump use and lead choices, from the games table alone.

Every measure is a value per seat and game (``measures``), read from the table's per-seat
columns (tricks, honours, bid, points and the counts of play of
``games/trump7/tallies.py``). The same measures serve twice:

- *paired*: on the same deal and seat, A − B, mean over deals with its 95% interval (the
  core's duplicate pairing); the summary judges, in points where more is better, the
  points the bid added or cost, the trump honour points won less those lost, and the
  points won per trick led;
- *pooled*: per strategy over all its seats and games, whatever the opponents (the
  behaviour sections and their plots, ``trump7_plots``).

A bid's points are ``points - tricks - honours``: the bid tricks again when made (2B +
(T - B) - T = B), minus two per trick short. Shares (how often it trumped when it could,
what share of its leads won) are per game in the paired tables, over all its cards in the
pooled ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from trixsim.reports.pairing import MATCHED, Paired
from trixsim.reports.stats import Moments, wilson
from trixsim.reports.tables import RunFolder, batches, decode
from trixsim.reports.verdicts import verdict

COLUMNS = ("tricks", "honours", "bid", "points", "leads", "lead_wins", "lead_points",
           "lead_trumps", "lead_trump_wins", "lead_aces", "lead_ace_wins", "lead_lows",
           "lead_low_wins", "ruffs", "ruff_wins", "ruff_chances", "discards", "honours_lost")
"""The per-seat column stems of the games table the measures read."""
KINDS = ("trump", "side ace", "high side card", "low side card")
"""What a lead is: a trump, a side suit's ace, its 10, J, Q or K, or its 2-9."""
SUMMARY = (
    ("bidding", ("bidding", "", "bid points"),
     "points per game the bid added or cost (trump7-bid)"),
    ("trump use", ("trump use", "", "honour balance"),
     "trump honour points won less its own honours lost, per game"),
    ("lead choices", ("leads", "", "points per lead"),
     "points won per trick led (1 for a trick won plus its honours)"),
)
"""The summary's verdict columns (the core adds the overall one before them)."""
Key = tuple[str, str, str]


@dataclass(frozen=True)
class Measure:
    """A paired measure: its key, its name in tables and plots, and whether it is in
    points (a verdict in the game's direction) or only describes play."""

    key: Key
    label: str
    points: bool = False


BIDDING = (
    Measure(("bidding", "", "bid points"), "points from the bid", True),
    Measure(("bidding", "", "won by the bid"), "points the bid won (made: +bid)", True),
    Measure(("bidding", "", "lost by the bid"), "points the bid lost (2 a trick short)"),
    Measure(("bidding", "", "bid"), "bid"),
    Measure(("bidding", "", "tricks"), "tricks"),
    Measure(("bidding", "", "miss"), "|tricks − bid|"),
    Measure(("bidding", "", "short"), "share of bids short"),
    Measure(("bidding", "", "over"), "share of bids beaten (more tricks)"),
)
TRUMPS = (
    Measure(("trump use", "", "honour balance"), "honour points won − own lost", True),
    Measure(("trump use", "", "honours won"), "honour points won", True),
    Measure(("trump use", "", "honours lost"), "own honour points lost"),
    Measure(("trump use", "", "ruffs"), "ruffs"),
    Measure(("trump use", "", "ruff share"), "share of chances it trumped"),
    Measure(("trump use", "", "ruff win share"), "share of ruffs that won"),
    Measure(("trump use", "", "discards"), "discards"),
)
LEADS = (
    Measure(("leads", "", "points per lead"), "points per trick led", True),
    Measure(("leads", "", "lead points"), "points of tricks led and won", True),
    Measure(("leads", "", "leads"), "tricks led"),
    Measure(("leads", "", "lead win share"), "share of leads won"),
    *(Measure(("leads", k, "share"), f"share of {k} leads") for k in KINDS),
)
ASPECTS = (("Bidding", BIDDING), ("Trump use", TRUMPS), ("Lead choices", LEADS))


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


def kind_counts(c: dict[str, np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Leads and leads won of each kind (``KINDS``): the high side cards are the rest."""
    n = [c["lead_trumps"], c["lead_aces"], None, c["lead_lows"]]
    w = [c["lead_trump_wins"], c["lead_ace_wins"], None, c["lead_low_wins"]]
    n[2] = c["leads"] - n[0] - n[1] - n[3]
    w[2] = c["lead_wins"] - w[0] - w[1] - w[3]
    return n, w  # type: ignore[return-value]


def measures(cols: dict[str, np.ndarray]) -> dict[Key, np.ndarray]:
    """Every measure per seat and game from the columns (any shape, NaN where missing);
    NaN where a measure is not defined (no bid, no chance to trump, no lead)."""
    c = {k: np.asarray(v, dtype=np.float64) for k, v in cols.items()}
    t, h, b, p = c["tricks"], c["honours"], c["bid"], c["points"]
    bid = np.where(b >= 0, b, np.nan)
    made = t >= bid
    out: dict[Key, np.ndarray] = {
        ("bidding", "", "bid points"): p - t - h + 0 * bid,
        ("bidding", "", "won by the bid"): np.where(made, bid, 0.0) + 0 * bid,
        ("bidding", "", "lost by the bid"): np.where(made, 0.0, 2 * (bid - t)) + 0 * bid,
        ("bidding", "", "bid"): bid,
        ("bidding", "", "tricks"): t + 0 * bid,
        ("bidding", "", "miss"): np.abs(t - bid),
        ("bidding", "", "short"): (t < bid) + 0 * bid,
        ("bidding", "", "over"): (t > bid) + 0 * bid,
        ("trump use", "", "honour balance"): h - c["honours_lost"],
        ("trump use", "", "honours won"): h + 0 * c["honours_lost"],
        ("trump use", "", "honours lost"): c["honours_lost"],
        ("trump use", "", "ruffs"): c["ruffs"],
        ("trump use", "", "ruff share"): _ratio(c["ruffs"], c["ruff_chances"]),
        ("trump use", "", "ruff win share"): _ratio(c["ruff_wins"], c["ruffs"]),
        ("trump use", "", "discards"): c["discards"],
        ("leads", "", "points per lead"): _ratio(c["lead_points"], c["leads"]),
        ("leads", "", "lead points"): c["lead_points"],
        ("leads", "", "leads"): c["leads"],
        ("leads", "", "lead win share"): _ratio(c["lead_wins"], c["leads"]),
    }
    n, _ = kind_counts(c)
    for k, x in zip(KINDS, n, strict=True):
        out[("leads", k, "share")] = _ratio(x, c["leads"])
    return out


# ---------------------------------------------------------------- paired: the details

def _label(p: Paired, a: str, b: str) -> str:
    how = "matched" if p.method[(a, b)] == MATCHED else "seat only"
    return f"`{a}` vs `{b}` ({how})"


def details(doc: Any, p: Paired) -> None:
    """Per aspect, the A − B tables behind the summary (measures with no data left out)."""
    pairs = p.pairs()
    if not pairs:
        return
    doc.h("Duplicate comparison by aspect")
    doc.p("A − B per game on the same deals and seats, mean [95% interval over deals]. "
          "Measures in points name the better strategy (more points); the others describe "
          "play (which way is better depends on the hand), as plain differences. Shares "
          "are per game, over the games where both seats had the case (a bid, a chance "
          "to trump, a lead).")
    for title, group in ASPECTS:
        shown = [m for m in group if any(p.get(a, b, *m.key).n for a, b in pairs)]
        if not shown:
            continue
        doc.h(title, 3)
        rows = []
        for a, b in pairs:
            row = [_label(p, a, b)]
            for m in shown:
                e = p.get(a, b, *m.key)
                row.append(verdict(e, a, b, 2, p.higher_is_better) if m.points
                           else e.text(2) if e.n > 1 else "–")
            rows.append(row)
        doc.table(["pair", *(m.label for m in shown)], rows)


# ---------------------------------------------------------------- pooled per strategy

@dataclass
class Pooled:
    """Per strategy, over all its seats and games: each measure's moments, the sums of
    the counts (for shares over all its cards) and, in trump7-bid, games by (bid,
    tricks)."""

    strategies: list[str] = field(default_factory=list)
    moments: dict[tuple[str, Key], Moments] = field(default_factory=dict)
    sums: dict[str, dict[str, float]] = field(default_factory=dict)
    calibration: dict[str, np.ndarray] = field(default_factory=dict)
    images: dict[str, list[str]] = field(default_factory=dict)
    """The plots drawn of it, by section (``behaviour``)."""

    def mean(self, name: str, key: Key) -> Any:
        """The estimate of a measure's mean per seat-game (None: no data)."""
        m = self.moments.get((name, key))
        return m.estimate() if m is not None and m.n else None

    def share(self, name: str, num: str, den: str) -> tuple[float, float, float, int]:
        """(rate, lo, hi, n) of the summed count ``num`` over ``den`` (Wilson)."""
        s = self.sums.get(name, {})
        n = int(s.get(den, 0))
        if n == 0:
            return float("nan"), float("nan"), float("nan"), 0
        r, lo, hi = wilson(int(s.get(num, 0)), n)
        return float(r), float(lo), float(hi), n

    @property
    def counted(self) -> bool:
        """Whether the runs' tables have the counts of play (leads, ruffs, honours lost;
        trump7 tables written before them have none)."""
        return any(s.get("leads", 0) for s in self.sums.values())

    @property
    def bidding(self) -> bool:
        """Whether any bid was made (trump7-bid)."""
        return any(c.sum() for c in self.calibration.values())


def pool(runs: Sequence[RunFolder], strategies: Sequence[str]) -> Pooled:
    """Read every run's games table once and pool each strategy's seat-games."""
    out = Pooled(list(strategies))
    for name in strategies:
        out.sums[name] = {}
        out.calibration[name] = np.zeros((14, 14), dtype=np.int64)
    for run in runs:
        have = set(run.columns("games"))
        stems = [c for c in COLUMNS if all(f"{c}_{s}" in have for s in range(4))]
        cols = ["lineup", *(f"strategy_{s}" for s in range(4)),
                *(f"{c}_{s}" for c in stems for s in range(4))]
        index: dict[str, int] = {}
        for b in batches(run, "games", cols):
            rows = len(b["lineup"])
            ids = np.stack([decode(b[f"strategy_{s}"], index) for s in range(4)], axis=1)
            names = sorted(index, key=index.__getitem__)
            vals = {c: np.stack([b[f"{c}_{s}"] for s in range(4)], axis=1).astype(np.float64)
                    if c in stems else np.full((rows, 4), np.nan) for c in COLUMNS}
            ms = measures(vals)
            for k, name in enumerate(names):
                mine = ids == k
                if name not in out.sums or not mine.any():
                    continue
                for key, v in ms.items():
                    x = v[mine]
                    x = x[np.isfinite(x)]
                    if x.size:
                        out.moments.setdefault((name, key), Moments()).add(x)
                for c in stems:
                    out.sums[name][c] = out.sums[name].get(c, 0) + float(vals[c][mine].sum())
                out.sums[name]["seat-games"] = out.sums[name].get("seat-games", 0) + \
                    int(mine.sum())
                bid, tricks = vals["bid"][mine], vals["tricks"][mine]
                ok = (bid >= 0) & (tricks >= 0)
                np.add.at(out.calibration[name], (bid[ok].astype(np.int64),
                                                  tricks[ok].astype(np.int64)), 1)
    return out


def _pct(r: tuple[float, float, float, int]) -> str:
    if not r[3]:
        return "–"
    return f"{100 * r[0]:.1f}% [{100 * r[1]:.1f}, {100 * r[2]:.1f}]"


def behaviour(runs: Sequence[RunFolder], strategies: Sequence[str],
              out: Path | None = None) -> Pooled:
    """Each strategy's play pooled over its games (``pool``), with its plots drawn in
    ``out`` (``trump7_plots``; none without ``out``)."""
    pooled = pool(runs, strategies)
    if out is not None:
        from trixsim.reports import trump7_plots

        pooled.images = trump7_plots.behaviour(pooled, out)
    return pooled


def section(doc: Any, pooled: Pooled) -> None:
    """Add the behaviour sections (bidding, trump use, lead choices) to ``doc``."""
    strategies, images = pooled.strategies, pooled.images

    def est(name: str, key: Key, digits: int = 2) -> str:
        e = pooled.mean(name, key)
        return e.text(digits) if e is not None else "–"

    doc.p("The sections below pool each strategy over all its seats and games, whatever "
          "the opponents (games treated as independent): per game means and shares over "
          "all its cards, with 95% intervals.")
    if pooled.bidding:
        doc.h("Bidding")
        doc.p("Bid against tricks made: a bid is *made* when the tricks reach it (it then "
              "wins the bid again in points), *short* when they do not (2 points lost a "
              "trick short), *beaten* when the tricks exceed it (those tricks count 1 "
              "each: an under-bid). Points from the bid = points − tricks − honours.")
        rows = []
        for name in strategies:
            rows.append([f"`{name}`", est(name, ("bidding", "", "bid")),
                         est(name, ("bidding", "", "tricks")),
                         _pct(_count_share(pooled, name, "exact")),
                         _pct(_count_share(pooled, name, "short")),
                         _pct(_count_share(pooled, name, "over")),
                         est(name, ("bidding", "", "won by the bid")),
                         est(name, ("bidding", "", "lost by the bid")),
                         est(name, ("bidding", "", "bid points"))])
        doc.table(["strategy", "mean bid", "tricks", "exactly made", "short (over-bid)",
                   "beaten (under-bid)", "points won by the bid", "points lost by the bid",
                   "points from the bid per game"], rows)
        _images(doc, images, "trump7_bidding")
    if not pooled.counted:
        doc.p("The runs' games tables have no counts of play (leads, ruffs, honours lost: "
              "tables written before trump7's format had them), so trump use and lead "
              "choices cannot be shown; play the runs again to see them.")
        return
    doc.h("Trump use")
    doc.p("When it holds none of a side suit led but holds a trump, a seat may trump (a "
          "*ruff*) or discard; honours are the trump ace (5), jack (4) and queen (3), "
          "*lost* when the seat plays one into a trick another seat wins.")
    rows = []
    for name in strategies:
        rows.append([f"`{name}`", est(name, ("trump use", "", "ruffs")),
                     _pct(pooled.share(name, "ruffs", "ruff_chances")),
                     _pct(pooled.share(name, "ruff_wins", "ruffs")),
                     est(name, ("trump use", "", "discards")),
                     est(name, ("trump use", "", "honours won")),
                     est(name, ("trump use", "", "honours lost")),
                     est(name, ("trump use", "", "honour balance"))])
    doc.table(["strategy", "ruffs per game", "trumped when it could", "ruffs that won",
               "discards per game", "honour points won", "own honour points lost",
               "honours won − lost per game"], rows)
    _images(doc, images, "trump7_trumps")
    doc.h("Lead choices")
    doc.p("What each strategy leads, as a share of its leads, and the share of those "
          "leads it won; points per lead = points of the tricks it led and won (1 each "
          "plus their honours) over its leads.")
    rows = []
    for name in strategies:
        row = [f"`{name}`", est(name, ("leads", "", "leads"))]
        row += [_pct(_kind_share(pooled, name, k)) for k in range(len(KINDS))]
        row += [_pct(_kind_won(pooled, name, k)) for k in range(len(KINDS))]
        row.append(est(name, ("leads", "", "points per lead")))
        rows.append(row)
    doc.table(["strategy", "leads per game", *(f"{k} led" for k in KINDS),
               *(f"{k}: won" for k in KINDS), "points per lead"], rows)
    _images(doc, images, "trump7_leads")


_KIND_COLS = (("lead_trumps", "lead_trump_wins"), ("lead_aces", "lead_ace_wins"),
              (None, None), ("lead_lows", "lead_low_wins"))


def kind_sums(pooled: Pooled, name: str) -> tuple[list[float], list[float]]:
    """A strategy's summed leads and leads won of each kind."""
    s = pooled.sums.get(name, {})
    n = [s.get(c, 0.0) if c else 0.0 for c, _ in _KIND_COLS]
    w = [s.get(c, 0.0) if c else 0.0 for _, c in _KIND_COLS]
    n[2] = s.get("leads", 0.0) - n[0] - n[1] - n[3]
    w[2] = s.get("lead_wins", 0.0) - w[0] - w[1] - w[3]
    return n, w


def _kind_share(pooled: Pooled, name: str, k: int) -> tuple[float, float, float, int]:
    n, _ = kind_sums(pooled, name)
    total = int(sum(n))
    return (*map(float, wilson(int(n[k]), total)), total) if total else \
        (float("nan"),) * 3 + (0,)


def _kind_won(pooled: Pooled, name: str, k: int) -> tuple[float, float, float, int]:
    n, w = kind_sums(pooled, name)
    return (*map(float, wilson(int(w[k]), int(n[k]))), int(n[k])) if n[k] else \
        (float("nan"),) * 3 + (0,)


def _count_share(pooled: Pooled, name: str, what: str) -> tuple[float, float, float, int]:
    """Share of a strategy's bids exactly made, short or beaten (from the calibration)."""
    c = pooled.calibration.get(name)
    n = int(c.sum()) if c is not None else 0
    if not n:
        return float("nan"), float("nan"), float("nan"), 0
    bid, tricks = np.indices(c.shape)
    hit = {"exact": tricks == bid, "short": tricks < bid, "over": tricks > bid}[what]
    return (*map(float, wilson(int(c[hit].sum()), n)), n)


def _images(doc: Any, images: dict[str, list[str]], section_name: str) -> None:
    for name in images.get(section_name, []):
        doc.img(name, name.removesuffix(".png").replace("_", " "))


def verdict_plots(p: Paired, out: Path, chosen: Any) -> list[str]:
    """The paired verdicts' forest plots (``trump7_plots``)."""
    from trixsim.reports import trump7_plots

    return trump7_plots.verdicts(p, out, chosen)


__all__ = ["ASPECTS", "COLUMNS", "KINDS", "SUMMARY", "Measure", "Pooled", "behaviour",
           "details", "kind_counts", "kind_sums", "measures", "pool", "section",
           "verdict_plots"]
