"""Plots of the duplicate verdicts: one figure per question, one series per panel.

Each panel is a forest plot: one row per strategy pair (A vs B), the mean A − B per game
with its 95% interval over deals, and a line at 0. Which side is better is the game's: in
Trix, left of the line (A scores fewer points); in trump7, right of it. An interval that
crosses the line means the data cannot tell. Every game gets the overall plot; a game's
aspects plug-in draws its own with ``forest`` on the pairs ``choose`` picks (Trix:
contracts, K♥ declaration, trix timing).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from trixsim.reports.pairing import MATCHED, Paired  # noqa: E402
from trixsim.reports.plots import DPI, colour  # noqa: E402
from trixsim.reports.stats import Estimate  # noqa: E402

Panel = tuple[str, list[Estimate]]


@dataclass
class Chosen:
    """The strategy pairs a verdict plot draws, with their row labels and colours, and the
    note its titles end with."""

    pairs: list[tuple[str, str]]
    labels: list[str]
    colours: list[str]
    note: str

    def est(self, p: Paired, aspect: str, cell: str, measure: str) -> list[Estimate]:
        """The estimate of one measure for each chosen pair."""
        return [p.get(a, b, aspect, cell, measure) for a, b in self.pairs]


def choose(p: Paired, reference: str | None = None, max_pairs: int = 10) -> Chosen:
    """Every pair, or with more than ``max_pairs`` only those with ``reference``."""
    pairs = p.pairs()
    note = "(filled: the interval excludes 0; colour of A)"
    if len(pairs) > max_pairs and reference is not None:
        pairs = [ab for ab in pairs if reference in ab] or pairs
        note = f"(pairs with {reference}; filled: the interval excludes 0; colour of A)"
    labels = [f"{a} vs {b}" + ("" if p.method[(a, b)] == MATCHED else " (seat only)")
              for a, b in pairs]
    return Chosen(pairs, labels, [colour(a) for a, _ in pairs], note)


def forest(panels: list[Panel], labels: list[str], colours: list[str], title: str,
           xlabel: str, out: Path, name: str, cols: int = 2) -> str:
    """A grid of forest plots sharing the pair labels; saves ``name`` in ``out``."""
    panels = [pn for pn in panels if any(e.n > 1 for e in pn[1])] or panels[:1]
    cols = min(cols, len(panels))
    rows = -(-len(panels) // cols)
    height = max(2.2, 0.45 * len(labels) + 1.4)
    width = 5.2 * cols + 3.2
    fig, axes = plt.subplots(rows, cols, figsize=(width, height * rows + 0.9),
                             squeeze=False, sharey=True)
    y = np.arange(len(labels))[::-1]
    for k, (ptitle, ests) in enumerate(panels):
        ax = axes[k // cols, k % cols]
        for yy, e, c in zip(y, ests, colours, strict=True):
            if e.n < 2 or not np.isfinite(e.se):
                ax.text(0, yy, "no data", va="center", ha="center", fontsize=10, color="0.5")
                continue
            sig = e.excludes_zero()
            ax.errorbar([e.mean], [yy], xerr=[[e.mean - e.lo], [e.hi - e.mean]], fmt="o",
                        color=c, ms=7 if sig else 5, mfc=c if sig else "white", capsize=4,
                        lw=1.6)
            big = max(abs(e.lo), abs(e.hi))
            digits = 2 if big < 10 else 1 if big < 100 else 0
            ax.annotate(f"{e.mean:.{digits}f} [{e.lo:.{digits}f}, {e.hi:.{digits}f}]",
                        (e.mean, yy), xytext=(0, 7), textcoords="offset points",
                        ha="center", va="bottom", fontsize=9, color="0.25")
        ax.axvline(0, color="black", lw=1)
        ax.set_title(ptitle, fontsize=12)
        ax.set_xlabel(xlabel, fontsize=11)
        ax.set_yticks(y, labels, fontsize=11)
        ax.tick_params(axis="x", labelsize=10)
        ax.grid(axis="x", color="0.9")
        ax.set_ylim(-0.6, len(labels) - 0.1)
        ax.margins(x=0.12)
    for k in range(len(panels), rows * cols):
        axes[k // cols, k % cols].axis("off")
    text = textwrap.fill(title, int(width * 9))
    fig.suptitle(text, fontsize=13)
    total_h = fig.get_figheight()
    fig.tight_layout(rect=(0, 0, 1, 1 - (0.22 * (text.count("\n") + 1) + 0.05) / total_h))
    fig.savefig(out / name, dpi=DPI)
    plt.close(fig)
    return name


def draw(p: Paired, out: Path, reference: str | None = None,
         max_pairs: int = 10) -> dict[str, list[str]]:
    """The overall verdict plot; {} when no pair of strategies shares deals. With more
    than ``max_pairs`` pairs only those with ``reference`` are drawn (the tables have all).
    A game's own verdict plots are its aspects plug-in's (``verdict_plots``)."""
    if not p.pairs():
        return {}
    chosen = choose(p, reference, max_pairs)
    labels, colours, note = chosen.labels, chosen.colours, chosen.note
    better = "> 0" if p.higher_is_better else "< 0"
    summary = forest([("final score", chosen.est(p, "total", "", "final"))], labels, colours,
                     f"A − B final score per game on the same deals, 95% intervals {note}",
                     f"A − B (points per game; {better}: A better)", out,
                     "verdict_overall.png")
    return {"verdict_summary": [summary]}


def ranking(r: object, out: Path) -> list[str]:
    """A tournament's ratings (forest) and its mean difference matrix (annotated heatmap)."""
    order = r.order()
    names = [r.strategies[i] for i in order]
    k = len(names)
    fig, (ax, hm) = plt.subplots(1, 2, figsize=(7 + 1.1 * k, max(3.5, 0.55 * k + 2)),
                                 gridspec_kw={"width_ratios": [1, 1.3]})
    y = np.arange(k)[::-1]
    ends = np.concatenate([r.rating, r.rating_lo, r.rating_hi])
    ends = ends[np.isfinite(ends)]
    pad = 0.15 * max(1.0, float(ends.max() - ends.min()))
    left, right = float(ends.min()) - pad, float(ends.max()) + pad
    for yy, i in zip(y, order, strict=True):
        c = colour(r.strategies[i])
        # an end a clean sweep leaves open runs to the edge with an arrow head
        lo, hi = r.rating_lo[i], r.rating_hi[i]
        ax.hlines(yy, lo if np.isfinite(lo) else left, hi if np.isfinite(hi) else right,
                  color=c, lw=1.6)
        for end, edge, mark in ((lo, left, "<"), (hi, right, ">")):
            if np.isfinite(end):
                ax.plot([end], [yy], "|", color=c, ms=9, mew=1.6)
            else:
                ax.plot([edge], [yy], mark, color=c, ms=8)
        ax.plot([r.rating[i]], [yy], "o", color=c, ms=7)
    ax.set_xlim(left, right)
    ax.set_ylim(-0.6, k - 0.4)
    ax.set_yticks(y, names, fontsize=11)
    ax.axvline(0, color="0.6", lw=1)
    open_end = not (np.isfinite(r.rating_lo).all() and np.isfinite(r.rating_hi).all())
    ax.set_xlabel("Bradley-Terry rating (Elo points, mean 0)" + (
        "\narrow: interval open (a clean sweep: too few deals)" if open_end else ""),
        fontsize=11)
    ax.set_title("Rating, 95% intervals (higher is better)", fontsize=12)
    ax.grid(axis="x", color="0.9")
    m = np.full((k, k), np.nan)
    for a, i in enumerate(order):
        for b, j in enumerate(order):
            e = r.matrix[i][j]
            if e is not None:
                m[a, b] = e.mean
    lim = max(1.0, float(np.nanmax(np.abs(m))) if np.isfinite(m).any() else 1.0)
    im = hm.imshow(m, cmap="RdBu_r", vmin=-lim, vmax=lim)
    for a, i in enumerate(order):
        for b, j in enumerate(order):
            e = r.matrix[i][j]
            if e is not None:
                hm.text(b, a, f"{e.mean:.0f}\n±{e.hi - e.mean:.0f}", ha="center",
                        va="center", fontsize=10,
                        color="white" if abs(e.mean) > 0.6 * lim else "black")
    hm.set_xticks(range(k), names, rotation=30, ha="right", fontsize=10)
    hm.set_yticks(range(k), names, fontsize=10)
    hm.set_xlabel("B (column)", fontsize=11)
    hm.set_ylabel("A (row)", fontsize=11)
    hm.set_title("A − B final score per game (" + ("red" if r.higher_is_better else "blue")
                 + ": A better)", fontsize=12)
    fig.colorbar(im, ax=hm, label="A − B (points per game)")
    fig.tight_layout()
    fig.savefig(out / "tournament_ranking.png", dpi=DPI)
    plt.close(fig)
    return ["tournament_ranking.png"]


__all__ = ["Chosen", "choose", "draw", "forest", "ranking"]
