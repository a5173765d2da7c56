"""trump7's aspects of a report: what each strategy makes of its tricks, the trump honours
and (trump7-bid) its bids, from the games table alone.

Per strategy, pooled over its seats and games (games treated as independent, as the
report's other behaviour sections): tricks won, honour points won (the trump ace, jack and
queen: 5, 4, 3), and in trump7-bid the bid, the share of bids made (tricks at least the
bid) and the points the bid added or cost against plain trick points (``points - tricks -
honours``), each with its 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from trixsim.reports.stats import Moments, wilson
from trixsim.reports.tables import RunFolder, batches, decode

MEASURES = ("tricks", "honours", "bid", "bid points")


def _sums(runs: Sequence[RunFolder], strategies: Sequence[str]
          ) -> tuple[dict[tuple[str, str], Moments], dict[str, list[int]]]:
    """Per (strategy, measure) the moments over seat-games; per strategy (made, bids)."""
    moments: dict[tuple[str, str], Moments] = {}
    made: dict[str, list[int]] = {s: [0, 0] for s in strategies}
    for run in runs:
        cols = ["lineup", *(f"{w}_{s}" for w in ("strategy", "tricks", "honours", "bid",
                                                 "points") for s in range(4))]
        index: dict[str, int] = {}
        for b in batches(run, "games", cols):
            for s in range(4):
                ids = decode(b[f"strategy_{s}"], index)
                names = sorted(index, key=index.__getitem__)
                tricks = b[f"tricks_{s}"].astype(np.float64)
                hon = b[f"honours_{s}"].astype(np.float64)
                bid = b[f"bid_{s}"].astype(np.float64)
                pts = b[f"points_{s}"].astype(np.float64)
                for k, name in enumerate(names):
                    if name not in made:
                        continue
                    rows = ids == k
                    if not rows.any():
                        continue
                    for measure, x in (("tricks", tricks), ("honours", hon)):
                        moments.setdefault((name, measure), Moments()).add(x[rows])
                    bids = rows & (bid >= 0)
                    if bids.any():
                        moments.setdefault((name, "bid"), Moments()).add(bid[bids])
                        moments.setdefault((name, "bid points"), Moments()).add(
                            (pts - tricks - hon)[bids])
                        made[name][0] += int((tricks[bids] >= bid[bids]).sum())
                        made[name][1] += int(bids.sum())
    return moments, made


def section(doc: Any, runs: Sequence[RunFolder], strategies: Sequence[str]) -> None:
    """Add the trump7 aspects to the report ``doc``."""
    moments, made = _sums(runs, strategies)

    def est(name: str, measure: str) -> str:
        m = moments.get((name, measure))
        return m.estimate().text(2) if m is not None else "–"

    doc.h("Tricks, honours and bids")
    bidding = any(n for n, _ in made.values())
    doc.p("Per strategy, over its seats and games: tricks won and trump honour points won "
          "(ace 5, jack 4, queen 3) per game"
          + ("; the bid, the share of bids made (tricks at least the bid) and the points "
             "the bid added to or cost from plain trick points per game" if bidding else "")
          + ", 95% intervals (games treated as independent).")
    head = ["strategy", "tricks per game", "honour points per game"]
    if bidding:
        head += ["mean bid", "bids made", "points from the bid per game"]
    rows = []
    for name in strategies:
        row = [f"`{name}`", est(name, "tricks"), est(name, "honours")]
        if bidding:
            ok, n = made[name]
            rate = wilson(ok, n) if n else (float("nan"),) * 3
            row += [est(name, "bid"),
                    f"{100 * rate[0]:.1f}% [{100 * rate[1]:.1f}, {100 * rate[2]:.1f}]"
                    if n else "–", est(name, "bid points")]
        rows.append(row)
    doc.table(head, rows)


__all__ = ["MEASURES", "section"]
