"""trump7's report plots: each strategy's bidding, trump use and leads (pooled over its
games), and forest plots of the paired verdicts on them (A − B on the same deals).

One question per figure: how well each strategy's bids match its tricks and what the bid
brings in points; how often it trumps when it can and what it keeps of the trump honours;
what it leads and how those leads fare. Every mean and rate carries its 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from trixsim.reports.pairing import Paired  # noqa: E402
from trixsim.reports.plots import DPI, MIN_N, colour  # noqa: E402
from trixsim.reports.stats import moments_ci, wilson  # noqa: E402
from trixsim.reports.trump7_aspects import KINDS, Key, Pooled, kind_sums  # noqa: E402
from trixsim.reports.verdict_plots import Chosen, forest  # noqa: E402


def _save(fig: plt.Figure, out: Path, name: str) -> str:
    fig.tight_layout()
    fig.savefig(out / name, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return name


def _bars(ax: Axes, strategies: Sequence[str], groups: Sequence[str],
          values: Sequence[Sequence[tuple[float, float, float]]], pct: bool = False) -> None:
    """Grouped bars: one group per ``groups`` entry, one bar per strategy (its colour),
    each (mean, lo, hi); NaN bars are left out."""
    k = len(strategies)
    width = 0.8 / max(k, 1)
    f = 100.0 if pct else 1.0
    for j, name in enumerate(strategies):
        x = np.arange(len(groups)) + (j - (k - 1) / 2) * width
        m = np.array([values[j][g][0] for g in range(len(groups))], dtype=float) * f
        lo = np.array([values[j][g][1] for g in range(len(groups))], dtype=float) * f
        hi = np.array([values[j][g][2] for g in range(len(groups))], dtype=float) * f
        ok = np.isfinite(m)
        ax.bar(x[ok], m[ok], width * 0.92, color=colour(name), label=name)
        err = ok & np.isfinite(lo) & np.isfinite(hi)
        ax.errorbar(x[err], m[err], yerr=[m[err] - lo[err], hi[err] - m[err]], fmt="none",
                    ecolor="black", capsize=3, lw=1)
    ax.set_xticks(np.arange(len(groups)), groups)
    ax.axhline(0, color="black", lw=0.8)
    ax.grid(axis="y", color="0.9")


def _mean(pooled: Pooled, name: str, key: Key) -> tuple[float, float, float]:
    e = pooled.mean(name, key)
    return (e.mean, e.lo, e.hi) if e is not None else (np.nan, np.nan, np.nan)


def bidding(pooled: Pooled, out: Path) -> str:
    """Tricks made against the bid (calibration), and the points the bid won and lost."""
    names = pooled.strategies
    fig, (cal, pts) = plt.subplots(1, 2, figsize=(13, 5.2))
    top = 0
    for name in names:
        c = pooled.calibration[name].astype(np.float64)  # [bid, tricks]
        n = c.sum(axis=1)
        t = np.arange(14, dtype=np.float64)
        mean, lo, hi = moments_ci(n, (c * t).sum(axis=1), (c * t * t).sum(axis=1))
        ok = n >= MIN_N
        if not ok.any():
            continue
        bids = np.flatnonzero(ok)
        top = max(top, int(bids.max()))
        cal.errorbar(bids, mean[ok], yerr=[mean[ok] - lo[ok], hi[ok] - mean[ok]],
                     fmt="o-", color=colour(name), capsize=3, lw=1.5, label=name)
    cal.plot([0, top + 0.5], [0, top + 0.5], "--", color="0.4", lw=1,
             label="tricks = bid (made exactly)")
    cal.set_xlabel(f"bid (bids made by at least {MIN_N} seat-games)")
    cal.set_ylabel("mean tricks made (95% interval)")
    cal.set_title("Tricks made against the bid\n(above the line: under-bid; below: "
                  "over-bid, short)")
    cal.grid(color="0.9")
    cal.legend(loc="upper left")
    keys = [("bidding", "", "won by the bid"), ("bidding", "", "lost by the bid"),
            ("bidding", "", "bid points")]
    values = []
    for name in names:
        row = [_mean(pooled, name, k) for k in keys]
        lost = row[1]
        row[1] = (-lost[0], -lost[2], -lost[1])  # drawn as a loss, below 0
        values.append(row)
    _bars(pts, names, ["won by the bid\n(made: + the bid)", "lost by the bid\n(2 a trick "
                       "short)", "net: points from\nthe bid"], values)
    pts.set_ylabel("points per game (95% interval)")
    pts.set_title("What the bid brings: points won and lost per game")
    pts.legend()
    fig.suptitle("Bidding: how well each strategy's bids match its tricks, and what they "
                 "earn (pooled over its seats and games)")
    return _save(fig, out, "trump7_bidding.png")


def trumps(pooled: Pooled, out: Path) -> str:
    """How often each strategy trumps when it can (and how often that wins), and the
    trump honour points it wins and loses."""
    names = pooled.strategies
    fig, (use, hon) = plt.subplots(1, 2, figsize=(13, 5.2))
    shares = []
    for name in names:
        row = []
        for num, den in (("ruffs", "ruff_chances"), ("ruff_wins", "ruffs")):
            r, lo, hi, n = pooled.share(name, num, den)
            row.append((r, lo, hi))
        shares.append(row)
    _bars(use, names, ["trumped when it could\n(void in a side suit, holding a trump)",
                       "its ruffs that won the trick"], shares, pct=True)
    use.set_ylim(0, 100)
    use.set_ylabel("% (95% interval)")
    use.set_title("Trumping against discarding")
    use.legend()
    keys = [("trump use", "", "honours won"), ("trump use", "", "honours lost"),
            ("trump use", "", "honour balance")]
    values = []
    for name in names:
        row = [_mean(pooled, name, k) for k in keys]
        lost = row[1]
        row[1] = (-lost[0], -lost[2], -lost[1])
        values.append(row)
    _bars(hon, names, ["honour points won", "own honour points lost\n(played into "
                       "another's trick)", "won − lost"], values)
    hon.set_ylabel("points per game (95% interval)")
    hon.set_title("Trump honours (ace 5, jack 4, queen 3)")
    hon.legend()
    fig.suptitle("Trump use: when each strategy trumps, and what it keeps of the trump "
                 "honours (pooled over its seats and games)")
    return _save(fig, out, "trump7_trumps.png")


def leads(pooled: Pooled, out: Path) -> str:
    """What each strategy leads (shares of its leads) and how often each kind wins."""
    names = pooled.strategies
    fig, (mix, won) = plt.subplots(1, 2, figsize=(13, 0.5 * len(names) + 4.6),
                                   gridspec_kw={"width_ratios": [1, 1.2]})
    shades = ("#d62728", "#2ca02c", "#9467bd", "#bcbd22")
    y = np.arange(len(names))[::-1]
    for yy, name in zip(y, names, strict=True):
        n, _ = kind_sums(pooled, name)
        total = sum(n)
        left = 0.0
        for k, (label, shade) in enumerate(zip(KINDS, shades, strict=True)):
            share = 100 * n[k] / total if total else 0.0
            mix.barh(yy, share, left=left, color=shade, edgecolor="white",
                     label=label if yy == y[0] else None)
            if share >= 7:
                mix.text(left + share / 2, yy, f"{share:.0f}%", ha="center", va="center",
                         color="white", fontsize=10)
            left += share
    mix.set_yticks(y, names)
    mix.set_xlim(0, 100)
    mix.set_xlabel("% of the strategy's leads")
    mix.set_title("What it leads")
    mix.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    values = []
    for name in names:
        n, w = kind_sums(pooled, name)
        row = []
        for k in range(len(KINDS)):
            if n[k]:
                r, lo, hi = wilson(int(w[k]), int(n[k]))
                row.append((float(r), float(lo), float(hi)))
            else:
                row.append((np.nan, np.nan, np.nan))
        values.append(row)
    _bars(won, names, [k.replace(" side", "\nside") for k in KINDS], values, pct=True)
    won.set_ylim(0, 100)
    won.set_ylabel("% of those leads won by the leader (95% interval)")
    won.set_title("How each kind of lead fares")
    won.legend()
    fig.suptitle("Lead choices: what each strategy leads and how those leads fare "
                 "(pooled over its seats and games)")
    return _save(fig, out, "trump7_leads.png")


def behaviour(pooled: Pooled, out: Path) -> dict[str, list[str]]:
    """Every behaviour plot, by section."""
    images = {"trump7_trumps": [trumps(pooled, out)], "trump7_leads": [leads(pooled, out)]} \
        if pooled.counted else {}
    if pooled.bidding:
        images["trump7_bidding"] = [bidding(pooled, out)]
    return images


VERDICT_PANELS = (
    ("verdict_bidding.png", "Bidding", (
        ("points from the bid (> 0: A better)", ("bidding", "", "bid points")),
        ("points the bid won (> 0: A better)", ("bidding", "", "won by the bid")),
        ("points the bid lost (< 0: A loses fewer)", ("bidding", "", "lost by the bid")),
        ("|tricks − bid| (< 0: A's bids closer)", ("bidding", "", "miss")))),
    ("verdict_trumps.png", "Trump use", (
        ("honour points won − own lost (> 0: A better)",
         ("trump use", "", "honour balance")),
        ("honour points won (> 0: A better)", ("trump use", "", "honours won")),
        ("own honour points lost (< 0: A loses fewer)", ("trump use", "", "honours lost")),
        ("share of chances it trumped (> 0: A trumps more)",
         ("trump use", "", "ruff share")))),
    ("verdict_leads.png", "Lead choices", (
        ("points per trick led (> 0: A better)", ("leads", "", "points per lead")),
        ("share of its leads won (> 0: A wins more)", ("leads", "", "lead win share")),
        ("share of trump leads", ("leads", "trump", "share")),
        ("share of low side card leads", ("leads", "low side card", "share")))),
)


def verdicts(p: Paired, out: Path, chosen: Chosen) -> list[str]:
    """One forest plot per aspect with data: A − B on the same deals, per game."""
    names = []
    for name, title, panels in VERDICT_PANELS:
        ests = [(label, chosen.est(p, *key)) for label, key in panels]
        if not any(e.n > 1 for _, es in ests for e in es):
            continue
        names.append(forest(ests, chosen.labels, chosen.colours,
                            f"{title}: A − B per game on the same deals and seats, 95% "
                            f"intervals over deals {chosen.note}",
                            "A − B (per game; shares as fractions)", out, name))
    return names


__all__ = ["behaviour", "bidding", "leads", "trumps", "verdicts"]
