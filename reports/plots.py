"""PNG plots of an ``Aggregates`` (matplotlib, Agg backend: no display needed), and the
helpers every game's own plots use (``reports.aspects``).

Every plot has a title, labelled axes with units, a legend (or a colour bar for heatmaps)
and 95% intervals wherever it shows a mean or a rate. A strategy keeps one colour in every
plot and every report: known strategies have fixed colours and any other spec gets one from
a hash of its text.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams.update({"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11,
                            "xtick.labelsize": 10, "ytick.labelsize": 10,
                            "legend.fontsize": 10, "figure.titlesize": 13,
                            "savefig.bbox": "tight"})
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from trixsim.reports.aggregate import TOTAL_MIN, Aggregates  # noqa: E402
from trixsim.reports.stats import moments_ci, wilson  # noqa: E402

DPI = 100
FIXED_COLOURS: dict[str, str] = {
    "heuristic": "#1f77b4",
    "random": "#7f7f7f",
    "heuristic-nodeclare": "#d62728",
    "heuristic-declare": "#2ca02c",
    "heuristic-early-trix": "#ff7f0e",
    "heuristic-late-trix": "#9467bd",
    "heuristic-fixed-order": "#8c564b",
    "pimc": "#000000",
    "pimc:worlds=8": "#17becf",
}
PALETTE = ("#e377c2", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39",
           "#7b4173", "#3182bd", "#e6550d")
MAX_SERIES = 6  # more strategies than this: one panel per group instead of grouped bars
MIN_N = 20  # means over fewer values are not drawn (their intervals would swamp the plot)


class Sums(Protocol):
    """What the plot helpers need of a game's sums: its strategies, in display order (the
    index of every per-strategy array)."""

    strategies: list[str]


def colour(strategy: str) -> str:
    """The colour of a strategy spec, the same in every plot and every report."""
    if strategy in FIXED_COLOURS:
        return FIXED_COLOURS[strategy]
    return PALETTE[zlib.crc32(strategy.encode()) % len(PALETTE)]


def order(strategies: list[str]) -> list[str]:
    """Strategies in display order: the known ones in a fixed order, then the rest by name."""
    known = list(FIXED_COLOURS)
    return sorted(strategies, key=lambda s: (known.index(s) if s in known else len(known), s))


def legend(ax: Axes, agg: Sums, styles: tuple[tuple[str, str], ...] = (),
            **kw: object) -> None:
    """A legend with every strategy's colour (drawn or not) and optional line styles."""
    handles = [Line2D([], [], color=colour(n), marker="o", ms=3, label=n)
               for n in agg.strategies]
    handles += [Line2D([], [], color="black", ls=ls, label=label) for ls, label in styles]
    if "loc" not in kw:  # outside the axes, on the right: it never covers the data
        kw |= {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0.0}
    ax.legend(handles=handles, fontsize=kw.pop("fontsize", 10), **kw)


def save(fig: Figure, out: Path, name: str) -> str:
    with warnings.catch_warnings():  # a legend outside the axes: bbox "tight" makes room
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout(rect=(0, 0, 1, 0.96) if fig.get_suptitle() else None)
    fig.savefig(out / name, dpi=DPI)
    plt.close(fig)
    return name


def errbar(ax: Axes, x: np.ndarray, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray,
            **kw: object) -> None:
    """Points with asymmetric 95% error bars (NaN cells skipped)."""
    ok = np.isfinite(mean)
    if not ok.any():
        return
    err = np.vstack([mean - lo, hi - mean])[:, ok]
    ax.errorbar(x[ok], mean[ok], yerr=np.maximum(np.nan_to_num(err), 0), capsize=3, **kw)


def cell_ci(n: np.ndarray, s: np.ndarray, ss: np.ndarray
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and 95% interval, NaN where fewer than MIN_N values."""
    mean, lo, hi = moments_ci(n, s, ss)
    few = np.asarray(n) < MIN_N
    return np.where(few, np.nan, mean), np.where(few, np.nan, lo), np.where(few, np.nan, hi)


def grouped_bars(ax: Axes, agg: Sums, labels: list[str],
                  values: Callable[[int], tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
    """One bar per strategy in each group, with 95% intervals from ``values(k)``.

    With more than MAX_SERIES strategies and several groups, each group gets its own
    small panel inside ``ax`` (one bar per strategy), so no panel holds more than one
    series; ``ax`` keeps the title and axis labels the caller sets."""
    k_all = len(agg.strategies)
    if k_all > MAX_SERIES and len(labels) > 1:
        _bar_facets(ax, agg, labels, values)
        return
    width = 0.8 / max(k_all, 1)
    x = np.arange(len(labels))
    for k, name in enumerate(agg.strategies):
        mean, lo, hi = values(k)
        pos = x - 0.4 + width * (k + 0.5)
        ax.bar(pos, np.nan_to_num(mean), width, color=colour(name), label=name)
        errbar(ax, pos, mean, lo, hi, fmt="none", ecolor="black", elinewidth=1)
    ax.set_xticks(x, labels)
    ax.legend(fontsize=10, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def _bar_facets(ax: Axes, agg: Sums, labels: list[str],
                values: Callable[[int], tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
    """``_grouped_bars`` as one inset panel per group, sharing the y range."""
    k_all = len(agg.strategies)
    cells = [values(k) for k in range(k_all)]
    ax.set_frame_on(False)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.yaxis.labelpad = 38
    ax.xaxis.labelpad = 6
    n = len(labels)
    insets = []
    for g, label in enumerate(labels):
        sub = ax.inset_axes((g / n + 0.01, 0.0, 1 / n - 0.02, 0.93))
        x = np.arange(k_all)
        mean = np.array([c[0][g] for c in cells], dtype=np.float64)
        lo = np.array([c[1][g] for c in cells], dtype=np.float64)
        hi = np.array([c[2][g] for c in cells], dtype=np.float64)
        sub.bar(x, np.nan_to_num(mean), 0.8, color=[colour(s) for s in agg.strategies])
        errbar(sub, x.astype(np.float64), mean, lo, hi, fmt="none", ecolor="black",
                elinewidth=1)
        sub.set_title(label, fontsize=10)
        sub.set_xticks([])
        if g:
            sub.tick_params(labelleft=False)
        insets.append(sub)
    top = max(s.get_ylim()[1] for s in insets)
    bottom = min(s.get_ylim()[0] for s in insets)
    for sub in insets:
        sub.set_ylim(bottom, top)
        sub.grid(axis="y", color="0.9")
    legend(ax, agg)


def per_strategy(agg: Sums, out: Path, name: str, title: str,
                  series: Callable[[int], tuple[np.ndarray, np.ndarray] | None],
                  xlabel: str, ylabel: str, step: bool = False, logy: bool = False) -> str:
    """One line per strategy on one axes, or with more than MAX_SERIES strategies one
    panel per strategy (the others in light grey behind it, for reference)."""
    data = [series(k) for k in range(len(agg.strategies))]

    def line(ax: Axes, xy: tuple[np.ndarray, np.ndarray], **kw: object) -> None:
        if step:
            ax.step(*xy, where="post", **kw)
        else:
            ax.plot(*xy, marker="o", ms=3, **kw)

    k_all = len(agg.strategies)
    if k_all <= MAX_SERIES:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for k, xy in enumerate(data):
            if xy is not None:
                line(ax, xy, color=colour(agg.strategies[k]), label=agg.strategies[k])
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logy:
            ax.set_yscale("log")
        legend(ax, agg)
        return save(fig, out, name)
    cols = 4
    rows = -(-k_all // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols, 3.0 * rows + 0.8),
                             squeeze=False, sharex=True, sharey=True)
    for k, nm in enumerate(agg.strategies):
        ax = axes[k // cols, k % cols]
        for j, xy in enumerate(data):
            if xy is not None and j != k:
                line(ax, xy, color="0.85", lw=1)
        if data[k] is not None:
            line(ax, data[k], color=colour(nm), lw=1.8)
        ax.set_title(nm, color=colour(nm))
        if logy:
            ax.set_yscale("log")
        if k % cols == 0:
            ax.set_ylabel(ylabel)
        if k + cols >= k_all:
            ax.tick_params(labelbottom=True)
    for j in range(k_all, rows * cols):
        axes[j // cols, j % cols].axis("off")
    fig.supxlabel(xlabel)
    fig.suptitle(f"{title} (grey: the other strategies)")
    return save(fig, out, name)


def overall(agg: Aggregates, out: Path) -> list[str]:
    """Mean final total and win/loss rates per strategy and seat; totals; game length."""
    names = []
    labels = ["seat 0", "seat 1", "seat 2", "seat 3", "all seats"]

    def mean_total(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        m = agg.final[k]
        n, s, ss = (np.append(m[:, i], m[:, i].sum()) for i in range(3))
        return moments_ci(n, s, ss)

    word = agg.score_word
    way = "higher" if agg.higher_is_better else "lower"
    fig, ax = plt.subplots(figsize=(8, 4.5))
    grouped_bars(ax, agg, labels, mean_total)
    ax.set_title(f"Mean final {word} by seat, pooled over lineups ({way} is better), "
                 "95% intervals")
    ax.set_xlabel("seat")
    ax.set_ylabel(f"mean final {word} (points)")
    names.append(save(fig, out, "overall_mean_total.png"))

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, counts, what in ((axes[0], agg.wins, "win"), (axes[1], agg.losses, "loss")):
        def rate(k: int, counts: np.ndarray = counts) -> tuple[np.ndarray, ...]:
            n = np.append(agg.final[k, :, 0], agg.final[k, :, 0].sum())
            return wilson(np.append(counts[k], counts[k].sum()), n)
        grouped_bars(ax, agg, labels, lambda k, rate=rate: tuple(100 * v for v in rate(k)))
        ax.set_title(f"{what.capitalize()} rate by seat, 95% Wilson intervals")
        ax.set_xlabel("seat")
        ax.set_ylabel(f"{what} rate (% of games)")
    names.append(save(fig, out, "overall_win_loss.png"))

    # the histogram's used range (Trix's totals span thousands, trump7's points tens)
    used = np.flatnonzero(agg.final_hist.sum(axis=0))
    lo_i, hi_i = (int(used[0]), int(used[-1]) + 1) if used.size else (0, 1)
    bins = max(1, -(-(hi_i - lo_i) // 80))
    if agg.final_bin is not None:  # the game's own bins over the whole range
        bins = agg.final_bin
        lo_i, hi_i = 0, agg.final_hist.shape[1]
    edges = np.arange(TOTAL_MIN + lo_i, TOTAL_MIN + hi_i + bins, bins)

    def totals(k: int) -> tuple[np.ndarray, np.ndarray] | None:
        h = agg.final_hist[k, lo_i:hi_i]
        if h.sum() == 0:
            return None
        binned = np.add.reduceat(h, np.arange(0, h.size, bins))
        return edges[:binned.size], 100 * binned / h.sum()

    plural = word if word.endswith("s") else word + "s"
    names.append(per_strategy(
        agg, out, "final_totals.png", f"Distribution of final {plural}", totals,
        f"final {word} (points, bins of {bins})", "share of games (%)", step=True))
    return names


def sections(agg: Aggregates) -> tuple:
    """The core's plot sections (every game): ``overall``; a game's own plots come from
    its aspects (``reports.aspects``)."""
    return (overall,)
