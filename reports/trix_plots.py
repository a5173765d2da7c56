"""Trix's report plots (part of Trix's report aspects, ``trix_aspects``): each strategy's
game length, contract ordering, K♥ declaration, trix timing and points per contract
(pooled over its games, from ``trix_sums``), and forest plots of the paired verdicts on
them (A − B on the same deals).

Every plot has a title, labelled axes with units, a legend (or a colour bar for heatmaps)
and 95% intervals wherever it shows a mean or a rate; a strategy keeps its colour
(``plots.colour``).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from trixsim.reports import verdict_plots  # noqa: E402
from trixsim.reports.pairing import MATCHED, Paired  # noqa: E402
from trixsim.reports.plots import (  # noqa: E402
    DPI,
    MIN_N,
    cell_ci,
    colour,
    errbar,
    grouped_bars,
    legend,
    per_strategy,
    save,
)
from trixsim.reports.stats import Estimate, wilson  # noqa: E402
from trixsim.reports.trix_sums import (  # noqa: E402
    DECLARABLE,
    N_CONTRACTS,
    POINTS_MIN,
    TRIX,
    TrixSums,
)

from trixsim.games.trix.types import CONTRACT_NAMES  # noqa: E402

PICKS = np.arange(1, 8)


def game_length(agg: TrixSums, out: Path) -> list[str]:
    """Game length in contracts, per strategy at the table."""
    def length(k: int) -> tuple[np.ndarray, np.ndarray] | None:
        h = agg.length_hist[k]
        return (np.arange(h.size)[1:], 100 * h[1:] / h.sum()) if h.sum() else None

    return [per_strategy(
        agg, out, "game_length.png", "Game length (games with the strategy at the table)",
        length, "contracts played (28 = full game; fewer = a total went over 1000)",
        "share of games (%, log scale)", logy=True)]


def contract_ordering(agg: TrixSums, out: Path) -> list[str]:
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
            mean, lo, hi = cell_ci(m[:, 0], m[:, 1], m[:, 2])
            errbar(ax, PICKS + (k - k_all / 2) * 0.05, mean, lo, hi, color=colour(name),
                    label=name, marker="o", ms=3)
        ax.set_title(cname)
        ax.set_xlabel("pick number (7 = ×4)")
        ax.set_ylabel("picker's mean points")
        ax.set_xticks(PICKS)
    axes[1, 3].axis("off")
    legend(axes[1, 3], agg, loc="center", title="picker's strategy")
    fig.suptitle("Picker's mean points by contract and pick number (multipliers included; "
                 f"cells of {MIN_N}+ contracts), 95% intervals")
    names.append(save(fig, out, "picker_points_by_pick.png"))

    fig, ax = plt.subplots(figsize=(9, 4.5))
    grouped_bars(ax, agg, list(CONTRACT_NAMES), lambda k: tuple(
        100 * v for v in wilson(agg.picks[k, 6], agg.picks[k, 6].sum())))
    ax.set_title("Contract left for the seventh (×4) pick, 95% Wilson intervals")
    ax.set_xlabel("contract")
    ax.set_ylabel("share of seventh picks (%)")
    names.append(save(fig, out, "seventh_pick.png"))
    return names


def ray_declaration(agg: TrixSums, out: Path) -> list[str]:
    """Declaration rates, holder's points declared or not by hearts held, K♥ lost."""
    names = []
    labels = [CONTRACT_NAMES[c] for c in DECLARABLE]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    grouped_bars(ax, agg, labels, lambda k: tuple(
        100 * v for v in wilson(agg.declared[k], agg.holder[k])))
    ax.set_title("K♥ declaration rate of the holder, 95% Wilson intervals")
    ax.set_xlabel("contract")
    ax.set_ylabel("declared (% of contracts holding K♥)")
    names.append(save(fig, out, "declaration_rate.png"))

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
            mean, lo, hi = cell_ci(m[:, 0], m[:, 1], m[:, 2])
            errbar(ax, hearts + (2 * w + d - 1.5) * 0.06, mean, lo, hi, color=colour(name),
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
    grouped_bars(ax, agg, groups, lambda k: tuple(100 * v for v in wilson(
        agg.kh_lost[k][:, ::-1].ravel(), agg.kh_games[k][:, ::-1].ravel())))
    ax.set_title("How often the K♥ holder loses K♥ to another seat, 95% Wilson intervals")
    ax.set_xlabel("contract and declaration")
    ax.set_ylabel("K♥ taken by another seat (%)")
    names.append(save(fig, out, "kh_lost.png"))
    return names


def trix_timing(agg: TrixSums, out: Path) -> list[str]:
    """Pick number of trix, trix results by pick and by jacks, forced trix."""
    names = []
    fig, ax = plt.subplots(figsize=(8, 4.5))
    grouped_bars(ax, agg, [str(p) for p in PICKS[:6]], lambda k: tuple(
        100 * v for v in wilson(agg.picks[k, :6, TRIX], agg.picks[k, :, TRIX].sum())))
    ax.set_title("Pick number at which trix is taken, 95% Wilson intervals")
    ax.set_xlabel("pick number (trix is forced at 6 if still unused)")
    ax.set_ylabel("share of trix contracts (%)")
    names.append(save(fig, out, "trix_pick.png"))

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
            errbar(axes[0, col], xs + shift, *cell_ci(n, s, ss), color=colour(name),
                    marker="o", ms=3, label=name)
            p, lo, hi = (np.where(n < MIN_N, np.nan, v) for v in wilson(counts[:, 0], n))
            errbar(axes[1, col], xs + shift, 100 * p, 100 * lo, 100 * hi, color=colour(name),
                    marker="o", ms=3, label=name)
        axes[0, col].set_title(f"Picker's mean trix result by {xlabel.split(' (')[0]}")
        axes[0, col].set_ylabel("mean trix points (−100 / −50 / 0)")
        axes[1, col].set_title(f"Picker out first (−100) by {xlabel.split(' (')[0]}")
        axes[1, col].set_ylabel("out first (% of trix contracts)")
        for row in range(2):
            axes[row, col].set_xlabel(xlabel)
            axes[row, col].set_xticks(xs)
    legend(axes[0, 1], agg)
    fig.suptitle(f"Trix results for the picker (cells of {MIN_N}+ contracts), 95% intervals")
    names.append(save(fig, out, "trix_results.png"))

    fig, ax = plt.subplots(figsize=(7, 4.5))
    grouped_bars(ax, agg, ["trix forced"], lambda k: tuple(
        100 * v for v in wilson(agg.trix_forced[k:k + 1], agg.picks[k, :, TRIX].sum())))
    ax.set_title("How often trix is forced (still unused at pick 6), 95% Wilson intervals")
    ax.set_xlabel("strategy of the picker")
    ax.set_ylabel("forced (% of trix contracts)")
    names.append(save(fig, out, "trix_forced.png"))
    return names


def points_distribution(agg: TrixSums, out: Path) -> list[str]:
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
    legend(axes[0, 0], agg)
    fig.suptitle("Cumulative distribution of points per contract: picker (left, multipliers "
                 "included) and the other seats (right), by the seat's strategy")
    return [save(fig, out, "points_by_contract.png")]



SECTIONS = {"overall": (game_length,), "contract_ordering": (contract_ordering,),
            "ray_declaration": (ray_declaration,), "trix_timing": (trix_timing,),
            "points_distribution": (points_distribution,)}
"""Trix's behaviour plots by the report section they belong to (``overall``: after the
core's overall plots)."""


def behaviour(sums: TrixSums, out: Path) -> dict[str, list[str]]:
    """Every behaviour plot of ``sums`` drawn in ``out``, by section."""
    return {name: [f for fn in fns for f in fn(sums, out)] for name, fns in SECTIONS.items()}


def verdicts(p: Paired, out: Path, chosen: verdict_plots.Chosen) -> list[str]:
    """The forest plots of Trix's paired verdicts (contracts picked, K♥ declaration, trix
    timing) for the ``chosen`` pairs."""
    pairs, labels, colours, note = chosen.pairs, chosen.labels, chosen.colours, chosen.note

    def est(aspect: str, cell: str, measure: str) -> list[Estimate]:
        return chosen.est(p, aspect, cell, measure)

    names = [verdict_plots.forest(
        [(c, est("contract", c, "picker")) for c in (*CONTRACT_NAMES, "all own contracts")],
        labels, colours, f"Contracts picked: A − B picker's points per game from each "
        f"contract it picks itself, 95% intervals {note}", "A − B (points per game)", out,
        "verdict_contracts.png", cols=2)]
    # the declaration's effect only where the pair differs in that seat alone: in a seat
    # only pair the opponents' play is mixed in (as in the summary, which leaves it out)
    matched = [k for k, ab in enumerate(pairs) if p.method[ab] == MATCHED]
    if matched:
        def kh(cell: str) -> list[Estimate]:
            return [p.get(*pairs[k], "kh", cell, "per game") for k in matched]

        names.append(verdict_plots.forest(
            [("all ray/general contracts where they decide differently (the summary's)",
              kh("decisions differ"))]
            + [(f"{w}: {c}", kh(f"{w}: {c}")) for w in ("ray", "general")
               for c in ("only A declares", "only B declares")],
            [labels[k] for k in matched], [colours[k] for k in matched],
            "K♥ declaration: A − B holder's points per game from the ray and general "
            f"contracts where the two decide differently (matched pairs), 95% intervals "
            f"{note}", "A − B (holder's points per game)", out, "verdict_declaration.png"))
    names.append(verdict_plots.forest(
        [("pick number of trix: A − B (picks)", est("trix", "", "pick diff"))]
        + [(f"final total when A takes trix {c.removeprefix('A ')}",
            est("trix", c, "final")) for c in ("A earlier", "A later")],
        labels, colours, "Trix timing: A − B pick number of trix, and A − B final total on "
        f"deals where A takes trix earlier / later than B, 95% intervals {note}",
        "A − B (picks, or points per game)", out, "verdict_trix.png", cols=1))
    return names
