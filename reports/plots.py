"""PNG plots of an ``Aggregates`` (matplotlib, Agg backend: no display needed).

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
from trixsim.reports.aggregate import (  # noqa: E402
    DECLARABLE,
    N_CONTRACTS,
    POINTS_MIN,
    TOTAL_MIN,
    TRIX,
    Aggregates,
)
from trixsim.reports.stats import moments_ci, wilson  # noqa: E402

from trixsim.games.trix.types import CONTRACT_NAMES  # noqa: E402

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
PICKS = np.arange(1, 8)
MAX_SERIES = 6  # more strategies than this: one panel per group instead of grouped bars
MIN_N = 20  # means over fewer values are not drawn (their intervals would swamp the plot)


def colour(strategy: str) -> str:
    """The colour of a strategy spec, the same in every plot and every report."""
    if strategy in FIXED_COLOURS:
        return FIXED_COLOURS[strategy]
    return PALETTE[zlib.crc32(strategy.encode()) % len(PALETTE)]


def order(strategies: list[str]) -> list[str]:
    """Strategies in display order: the known ones in a fixed order, then the rest by name."""
    known = list(FIXED_COLOURS)
    return sorted(strategies, key=lambda s: (known.index(s) if s in known else len(known), s))


def _legend(ax: Axes, agg: Aggregates, styles: tuple[tuple[str, str], ...] = (),
            **kw: object) -> None:
    """A legend with every strategy's colour (drawn or not) and optional line styles."""
    handles = [Line2D([], [], color=colour(n), marker="o", ms=3, label=n)
               for n in agg.strategies]
    handles += [Line2D([], [], color="black", ls=ls, label=label) for ls, label in styles]
    if "loc" not in kw:  # outside the axes, on the right: it never covers the data
        kw |= {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0.0}
    ax.legend(handles=handles, fontsize=kw.pop("fontsize", 10), **kw)


def _save(fig: Figure, out: Path, name: str) -> str:
    with warnings.catch_warnings():  # a legend outside the axes: bbox "tight" makes room
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout(rect=(0, 0, 1, 0.96) if fig.get_suptitle() else None)
    fig.savefig(out / name, dpi=DPI)
    plt.close(fig)
    return name


def _errbar(ax: Axes, x: np.ndarray, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray,
            **kw: object) -> None:
    """Points with asymmetric 95% error bars (NaN cells skipped)."""
    ok = np.isfinite(mean)
    if not ok.any():
        return
    err = np.vstack([mean - lo, hi - mean])[:, ok]
    ax.errorbar(x[ok], mean[ok], yerr=np.maximum(np.nan_to_num(err), 0), capsize=3, **kw)


def _ci(n: np.ndarray, s: np.ndarray, ss: np.ndarray
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and 95% interval, NaN where fewer than MIN_N values."""
    mean, lo, hi = moments_ci(n, s, ss)
    few = np.asarray(n) < MIN_N
    return np.where(few, np.nan, mean), np.where(few, np.nan, lo), np.where(few, np.nan, hi)


def _grouped_bars(ax: Axes, agg: Aggregates, labels: list[str],
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
        _errbar(ax, pos, mean, lo, hi, fmt="none", ecolor="black", elinewidth=1)
    ax.set_xticks(x, labels)
    ax.legend(fontsize=10, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def _bar_facets(ax: Axes, agg: Aggregates, labels: list[str],
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
        _errbar(sub, x.astype(np.float64), mean, lo, hi, fmt="none", ecolor="black",
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
    _legend(ax, agg)


def _per_strategy(agg: Aggregates, out: Path, name: str, title: str,
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
        _legend(ax, agg)
        return _save(fig, out, name)
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
    return _save(fig, out, name)


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
    _grouped_bars(ax, agg, labels, mean_total)
    ax.set_title(f"Mean final {word} by seat, pooled over lineups ({way} is better), "
                 "95% intervals")
    ax.set_xlabel("seat")
    ax.set_ylabel(f"mean final {word} (points)")
    names.append(_save(fig, out, "overall_mean_total.png"))

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, counts, what in ((axes[0], agg.wins, "win"), (axes[1], agg.losses, "loss")):
        def rate(k: int, counts: np.ndarray = counts) -> tuple[np.ndarray, ...]:
            n = np.append(agg.final[k, :, 0], agg.final[k, :, 0].sum())
            return wilson(np.append(counts[k], counts[k].sum()), n)
        _grouped_bars(ax, agg, labels, lambda k, rate=rate: tuple(100 * v for v in rate(k)))
        ax.set_title(f"{what.capitalize()} rate by seat, 95% Wilson intervals")
        ax.set_xlabel("seat")
        ax.set_ylabel(f"{what} rate (% of games)")
    names.append(_save(fig, out, "overall_win_loss.png"))

    # the histogram's used range (Trix's totals span thousands, trump7's points tens)
    used = np.flatnonzero(agg.final_hist.sum(axis=0))
    lo_i, hi_i = (int(used[0]), int(used[-1]) + 1) if used.size else (0, 1)
    bins = max(1, -(-(hi_i - lo_i) // 80))
    if agg.has_contracts:
        bins = 50
        lo_i, hi_i = 0, agg.final_hist.shape[1]
    edges = np.arange(TOTAL_MIN + lo_i, TOTAL_MIN + hi_i + bins, bins)

    def totals(k: int) -> tuple[np.ndarray, np.ndarray] | None:
        h = agg.final_hist[k, lo_i:hi_i]
        if h.sum() == 0:
            return None
        binned = np.add.reduceat(h, np.arange(0, h.size, bins))
        return edges[:binned.size], 100 * binned / h.sum()

    plural = word if word.endswith("s") else word + "s"
    names.append(_per_strategy(
        agg, out, "final_totals.png", f"Distribution of final {plural}", totals,
        f"final {word} (points, bins of {bins})", "share of games (%)", step=True))
    if not agg.has_contracts:  # game length in contracts: Trix's
        return names

    def length(k: int) -> tuple[np.ndarray, np.ndarray] | None:
        h = agg.length_hist[k]
        return (np.arange(h.size)[1:], 100 * h[1:] / h.sum()) if h.sum() else None

    names.append(_per_strategy(
        agg, out, "game_length.png", "Game length (games with the strategy at the table)",
        length, "contracts played (28 = full game; fewer = a total went over 1000)",
        "share of games (%, log scale)", logy=True))
    return names


def contract_ordering(agg: Aggregates, out: Path) -> list[str]:
    """Pick heatmaps, picker's points by contract and pick, the seventh-pick contract."""
    names = []
    k_all = len(agg.strategies)
    cols = min(k_all, 4)
    rows = -(-k_all // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.9 * cols + 2, 3.4 * rows + 0.6),
                             squeeze=False, layout="constrained")
    image = None
    for k, name in enumerate(agg.strategies):
        ax = axes[k // cols, k % cols]
        counts = agg.picks[k]  # [pick, contract]
        share = 100 * counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
        image = ax.imshow(share.T, vmin=0, vmax=100, cmap="viridis", aspect="auto")
        for (p, c), v in np.ndenumerate(share):
            ax.text(p, c, f"{v:.0f}", ha="center", va="center", fontsize=9,
                    color="white" if v < 60 else "black")
        ax.set_title(name, color=colour(name))
        ax.set_xticks(range(7), [str(p) for p in PICKS])
        ax.set_yticks(range(N_CONTRACTS), CONTRACT_NAMES if k % cols == 0 else [], fontsize=10)
        ax.set_xlabel("pick number (1-7)")
        if k % cols == 0:
            ax.set_ylabel("contract")
    for j in range(k_all, rows * cols):
        axes[j // cols, j % cols].axis("off")
    if image is not None:
        fig.colorbar(image, ax=axes, label="share of the picks at this pick number (%)")
    fig.suptitle("Contract taken at each pick number, per strategy (picker's strategy)")
    fig.savefig(out / "contract_heatmap.png", dpi=DPI)
    plt.close(fig)
    names.append("contract_heatmap.png")

    fig, axes = plt.subplots(2, 4, figsize=(15, 7), squeeze=False)
    for c, cname in enumerate(CONTRACT_NAMES):
        ax = axes[c // 4, c % 4]
        for k, name in enumerate(agg.strategies):
            m = agg.picker_points[k, c]
            mean, lo, hi = _ci(m[:, 0], m[:, 1], m[:, 2])
            _errbar(ax, PICKS + (k - k_all / 2) * 0.05, mean, lo, hi, color=colour(name),
                    label=name, marker="o", ms=3)
        ax.set_title(cname)
        ax.set_xlabel("pick number (7 = ×4)")
        ax.set_ylabel("picker's mean points")
        ax.set_xticks(PICKS)
    axes[1, 3].axis("off")
    _legend(axes[1, 3], agg, loc="center", title="picker's strategy")
    fig.suptitle("Picker's mean points by contract and pick number (multipliers included; "
                 f"cells of {MIN_N}+ contracts), 95% intervals")
    names.append(_save(fig, out, "picker_points_by_pick.png"))

    fig, ax = plt.subplots(figsize=(9, 4.5))
    _grouped_bars(ax, agg, list(CONTRACT_NAMES), lambda k: tuple(
        100 * v for v in wilson(agg.picks[k, 6], agg.picks[k, 6].sum())))
    ax.set_title("Contract left for the seventh (×4) pick, 95% Wilson intervals")
    ax.set_xlabel("contract")
    ax.set_ylabel("share of seventh picks (%)")
    names.append(_save(fig, out, "seventh_pick.png"))
    return names


def ray_declaration(agg: Aggregates, out: Path) -> list[str]:
    """Declaration rates, holder's points declared or not by hearts held, K♥ lost."""
    names = []
    labels = [CONTRACT_NAMES[c] for c in DECLARABLE]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    _grouped_bars(ax, agg, labels, lambda k: tuple(
        100 * v for v in wilson(agg.declared[k], agg.holder[k])))
    ax.set_title("K♥ declaration rate of the holder, 95% Wilson intervals")
    ax.set_xlabel("contract")
    ax.set_ylabel("declared (% of contracts holding K♥)")
    names.append(_save(fig, out, "declaration_rate.png"))

    who = "every K♥ holder" if agg.kh_hearts_all_holders else "K♥ held by the picker"
    k_all = len(agg.strategies)
    cols = min(k_all, 3)
    rows = -(-k_all // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols + 2.6, 3.6 * rows + 0.9),
                             squeeze=False, sharex=True, sharey=True)
    hearts = np.arange(9)
    styles = {(0, 1): ("-", "o", "ray, declared"), (0, 0): ("--", "s", "ray, not declared"),
              (1, 1): ("-", "^", "general, declared"),
              (1, 0): ("--", "v", "general, not declared")}
    shades = {0: 1.0, 1: 0.55}
    for k, name in enumerate(agg.strategies):
        ax = axes[k // cols, k % cols]
        for (w, d), (ls, mk, label) in styles.items():
            m = agg.holder_points[k, w, d, :, 1]
            mean, lo, hi = _ci(m[:, 0], m[:, 1], m[:, 2])
            _errbar(ax, hearts + (2 * w + d - 1.5) * 0.06, mean, lo, hi, color=colour(name),
                    alpha=shades[w], ls=ls, marker=mk, ms=5, label=label)
        ax.axhline(0, color="0.6", lw=1)
        ax.set_title(name, color=colour(name))
        if k // cols == rows - 1 or k + cols >= k_all:
            ax.set_xlabel("hearts held by the K♥ holder (cards)")
            ax.tick_params(labelbottom=True)
        if k % cols == 0:
            ax.set_ylabel("holder − others' mean (points)")
    for j in range(k_all, rows * cols):
        axes[j // cols, j % cols].axis("off")
    handles = [Line2D([], [], color="black", ls=ls, marker=mk, alpha=shades[w], label=label)
               for (w, _), (ls, mk, label) in styles.items()]
    fig.legend(handles=handles, loc="upper right", ncols=4, bbox_to_anchor=(1.0, 0.955))
    fig.suptitle(f"Does declaring K♥ pay? Holder's points minus the others' mean, by hearts "
                 f"held ({who}; cells of {MIN_N}+ contracts), 95% intervals")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.75 / fig.get_figheight()))
    fig.savefig(out / "declaration_points_by_hearts.png", dpi=DPI)
    plt.close(fig)
    names.append("declaration_points_by_hearts.png")

    fig, ax = plt.subplots(figsize=(9, 4.5))
    groups = [f"{c}, {'declared' if d else 'not declared'}" for c in labels for d in (1, 0)]
    _grouped_bars(ax, agg, groups, lambda k: tuple(100 * v for v in wilson(
        agg.kh_lost[k][:, ::-1].ravel(), agg.kh_games[k][:, ::-1].ravel())))
    ax.set_title("How often the K♥ holder loses K♥ to another seat, 95% Wilson intervals")
    ax.set_xlabel("contract and declaration")
    ax.set_ylabel("K♥ taken by another seat (%)")
    names.append(_save(fig, out, "kh_lost.png"))
    return names


def trix_timing(agg: Aggregates, out: Path) -> list[str]:
    """Pick number of trix, trix results by pick and by jacks, forced trix."""
    names = []
    fig, ax = plt.subplots(figsize=(8, 4.5))
    _grouped_bars(ax, agg, [str(p) for p in PICKS[:6]], lambda k: tuple(
        100 * v for v in wilson(agg.picks[k, :6, TRIX], agg.picks[k, :, TRIX].sum())))
    ax.set_title("Pick number at which trix is taken, 95% Wilson intervals")
    ax.set_xlabel("pick number (trix is forced at 6 if still unused)")
    ax.set_ylabel("share of trix contracts (%)")
    names.append(_save(fig, out, "trix_pick.png"))

    fig, axes = plt.subplots(2, 2, figsize=(12, 8), squeeze=False)
    for col, (table, xs, xlabel) in enumerate((
            (agg.trix_by_pick[:, :6], PICKS[:6], "pick number"),
            (agg.trix_by_jacks, np.arange(5), "jacks held by the picker (cards)"))):
        for k, name in enumerate(agg.strategies):
            counts = table[k]  # [x, result (-100, -50, 0)]
            n = counts.sum(axis=1)
            s = -100 * counts[:, 0] - 50 * counts[:, 1]
            ss = 10_000 * counts[:, 0] + 2_500 * counts[:, 1]
            shift = (k - len(agg.strategies) / 2) * 0.04
            _errbar(axes[0, col], xs + shift, *_ci(n, s, ss), color=colour(name),
                    marker="o", ms=3, label=name)
            p, lo, hi = (np.where(n < MIN_N, np.nan, v) for v in wilson(counts[:, 0], n))
            _errbar(axes[1, col], xs + shift, 100 * p, 100 * lo, 100 * hi, color=colour(name),
                    marker="o", ms=3, label=name)
        axes[0, col].set_title(f"Picker's mean trix result by {xlabel.split(' (')[0]}")
        axes[0, col].set_ylabel("mean trix points (−100 / −50 / 0)")
        axes[1, col].set_title(f"Picker out first (−100) by {xlabel.split(' (')[0]}")
        axes[1, col].set_ylabel("out first (% of trix contracts)")
        for row in range(2):
            axes[row, col].set_xlabel(xlabel)
            axes[row, col].set_xticks(xs)
    _legend(axes[0, 1], agg)
    fig.suptitle(f"Trix results for the picker (cells of {MIN_N}+ contracts), 95% intervals")
    names.append(_save(fig, out, "trix_results.png"))

    fig, ax = plt.subplots(figsize=(7, 4.5))
    _grouped_bars(ax, agg, ["trix forced"], lambda k: tuple(
        100 * v for v in wilson(agg.trix_forced[k:k + 1], agg.picks[k, :, TRIX].sum())))
    ax.set_title("How often trix is forced (still unused at pick 6), 95% Wilson intervals")
    ax.set_xlabel("strategy of the picker")
    ax.set_ylabel("forced (% of trix contracts)")
    names.append(_save(fig, out, "trix_forced.png"))
    return names


def points_distribution(agg: Aggregates, out: Path) -> list[str]:
    """Per contract, the cumulative distribution of the picker's and the others' points."""
    fig, axes = plt.subplots(N_CONTRACTS, 2, figsize=(12, 2.6 * N_CONTRACTS), squeeze=False)
    values = np.arange(agg.points_hist.shape[-1]) + POINTS_MIN
    for c, cname in enumerate(CONTRACT_NAMES):
        for role, who in enumerate(("picker", "other seats")):
            ax = axes[c, role]
            for k, name in enumerate(agg.strategies):
                h = agg.points_hist[k, c, role]
                if h.sum() == 0:
                    continue
                used = np.flatnonzero(h)
                span = slice(max(used[0] - 1, 0), used[-1] + 1)
                cdf = 100 * np.cumsum(h[span]) / h.sum()
                ax.step(values[span], cdf, where="post", color=colour(name), label=name)
            ax.set_title(f"{cname}: {who}")
            ax.set_xlabel("points for the contract (x: share of contracts with at most x)")
            ax.set_ylabel("cumulative share (%)")
    _legend(axes[0, 0], agg)
    fig.suptitle("Cumulative distribution of points per contract: picker (left, multipliers "
                 "included) and the other seats (right), by the seat's strategy")
    return [_save(fig, out, "points_by_contract.png")]


TRIX_SECTIONS = (contract_ordering, ray_declaration, trix_timing, points_distribution)
"""Trix's aspect plots (runs with a contracts table)."""
SECTIONS = (overall, *TRIX_SECTIONS)


def sections(agg: Aggregates) -> tuple:
    """The plot sections for the runs' game: ``overall`` for every game, Trix's aspects
    where the runs have contracts."""
    return SECTIONS if agg.has_contracts else (overall,)
