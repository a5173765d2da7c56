"""A tuning's plots: every parameter's trajectory, and the measured differences."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from trixsim.tune.files import read_history, read_state


def plot(out: Path) -> list[Path]:
    """trajectories.png (a panel per parameter) and gain.png (difference per iteration and
    its running mean) from the folder's history and state."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    settings = read_state(out)["settings"]
    rows = read_history(out)
    it = np.array([r["iteration"] for r in rows]) + 1
    names = list(settings["params"])
    cols = 2 if len(names) > 3 else 1
    nrows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(max(8, 6 * cols), 2.4 * nrows + 0.8),
                             squeeze=False, sharex=True)
    for ax, name in zip(axes.flat, names, strict=False):
        lo, hi = settings["params"][name]
        ax.plot(it, [r[name] for r in rows], color="C0", lw=1.5)
        for y in (lo, hi):
            ax.axhline(y, color="0.6", ls=":", lw=1)
        ax.set(ylim=(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)))
        ax.set_title(name, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(names):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("iteration")
    fig.suptitle(f"SPSA trajectories: {settings['spec']}\n(dotted lines: the bounds)",
                 fontsize=10)
    fig.tight_layout()
    paths = [out / "trajectories.png", out / "gain.png"]
    _save(fig, paths[0])
    plt.close(fig)
    _gain(out, settings, rows, it, paths[1])
    return paths


def _save(fig: object, path: Path) -> None:
    """Save a PNG whole: written beside it, then renamed (the plots are redrawn while a
    tuning runs, and a viewer must never read half a file)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        fig.savefig(tmp, dpi=100, format="png")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _gain(out: Path, settings: dict, rows: list[dict[str, float]], it: np.ndarray,
          path: Path) -> None:
    """gain.png: each iteration's measured difference theta+ - theta- with its moving
    average, and (once verified) the verified gain, tuned - start, with its interval."""
    import json

    import matplotlib.pyplot as plt

    diff = np.array([r["diff"] for r in rows])
    verdict_path = out / "verdict.json"
    verdict = json.loads(verdict_path.read_text()) if verdict_path.exists() else None
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4.2), width_ratios=[4, 1])
    ax.plot(it, diff, ".", color="C0", alpha=0.35, ms=4,
            label="one iteration: theta+ − theta−")
    w = max(1, min(50, diff.size // 10))
    if diff.size >= w:
        ma = np.convolve(diff, np.ones(w) / w, mode="valid")
        ax.plot(it[w - 1:], ma, color="C3", lw=2, label=f"moving average of {w}")
    ax.axhline(0, color="0.3", lw=1)
    ax.set(xlabel="iteration", ylabel="points per game (below 0: theta+ better)")
    ax.set_title(f"SPSA differences while tuning {settings['spec']}", fontsize=11)
    ax.legend(fontsize=9, loc="upper right")
    ax.grid(alpha=0.3)
    bx.axhline(0, color="0.3", lw=1)
    if verdict is not None:
        g = verdict["tuned_minus_start"]
        colour = "C2" if g["hi"] < 0 else ("C3" if g["lo"] > 0 else "0.4")
        bx.errorbar([0], [g["mean"]], yerr=[[g["mean"] - g["lo"]], [g["hi"] - g["mean"]]],
                    fmt="o", color=colour, capsize=6, lw=2, ms=8)
        bx.set_title(f"verified gain\n{verdict['deals']:,} fresh deals", fontsize=10)
        bx.annotate(f"{g['mean']:+.1f}\n[{g['lo']:+.1f}, {g['hi']:+.1f}]", (0, g["mean"]),
                    xytext=(12, 0), textcoords="offset points", va="center", fontsize=9)
    else:
        bx.set_title("not verified yet", fontsize=10)
    bx.set(xlim=(-0.5, 1.5), xticks=[], ylabel="tuned − start, points per game (95%)")
    bx.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
