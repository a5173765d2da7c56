"""The training plots: strength against iterations, and what the model predicts well."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_history(hist: list[dict[str, Any]], out: Path, strategy: str, game: str,
                 start: str = "the start") -> list[Path]:
    """``strength.png`` (the verification per iteration, 95% intervals) and
    ``agreement.png`` (per decision kind, how often the model plays the teacher's choice
    on each iteration's new data: before the fit, i.e. on positions it never trained on,
    and after); the paths written (none without history). ``strategy``: what is trained,
    ``game``: its game (whose direction says which scores are better), ``start``: what
    the start weights are called."""
    if not hist:
        return []
    from trixsim.game import direction
    from trixsim.games import get_game

    better = direction(get_game(game))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    its = [h["iteration"] for h in hist]
    v = [h["verify"] for h in hist]
    opp = v[0]["opponent"]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(its, [e["mean"] for e in v],
                yerr=[[e["mean"] - e["lo"] for e in v], [e["hi"] - e["mean"] for e in v]],
                fmt="o-", capsize=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("iteration")
    ax.set_ylabel(f"points per game vs {opp} ({better} is better)")
    ax.set_title(f"{strategy} against {opp}, fresh duplicate deals, 95% intervals")
    ax.set_xticks(its)
    fig.tight_layout()
    paths = [out / "strength.png"]
    fig.savefig(paths[0], dpi=100)
    plt.close(fig)

    names = list(hist[-1]["agreement_after_fit"])
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / (len(hist) + 2)
    for j, h in enumerate(hist):
        after = h["agreement_after_fit"]
        ax.bar([i + j * width for i in range(len(names))],
               [after.get(n, [0, 0])[0] for n in names], width,
               label=f"iteration {h['iteration']} (fitted)")
    first_before = hist[0]["agreement_new_data_before_fit"]
    if first_before and hist[0]["iteration"] == 0:
        ax.bar([i - width for i in range(len(names))],
               [first_before.get(n, [0, 0])[0] for n in names], width, color="lightgrey",
               label=start)
    last_before = hist[-1]["agreement_new_data_before_fit"]
    if last_before and len(hist) > 1:
        ax.bar([i + len(hist) * width for i in range(len(names))],
               [last_before.get(n, [0, 0])[0] for n in names], width, color="black",
               label=f"iteration {hist[-1]['iteration'] - 1}'s model on iteration "
                     f"{hist[-1]['iteration']}'s positions (unseen)")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(names))])
    ax.set_xticklabels(names)
    ax.set_ylim(0, 1.25)
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel("share of the teacher's choices matched")
    ax.set_title("what the model predicts well (decisions with a choice)")
    ax.legend(fontsize=7, loc="upper center", ncol=3)
    fig.tight_layout()
    paths.append(out / "agreement.png")
    fig.savefig(paths[1], dpi=100)
    plt.close(fig)
    return paths
