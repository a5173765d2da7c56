"""Regenerate the example report in reports/example/.

Plays one run on shared deals: each of heuristic's single-aspect variants, and random, sits
in each seat in turn against three heuristic players (lineups V,H,H,H / H,V,H,H / H,H,V,H /
H,H,H,V), and four heuristic players play every deal as the baseline. So every variant is
also compared with heuristic on duplicate deals, with intervals over deals. The run folder
goes to a temporary directory (or --run-dir) and only the report is kept.

    python scripts/make_example_report.py            # 20,000 deals x 25 lineups
    python scripts/make_example_report.py --deals 4000 --out /tmp/example
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from trixsim.reports.compare import read_deals
from trixsim.reports.report import Doc, write_report
from trixsim.reports.stats import estimate
from trixsim.reports.tables import open_run

from trixsim.runner import RunConfig, run

BASE = "heuristic"
VARIANTS = ("heuristic-nodeclare", "heuristic-declare", "heuristic-early-trix",
            "heuristic-late-trix", "heuristic-fixed-order", "random")


def example_lineups() -> list[str]:
    """Each variant in each seat against three heuristic seats, then four heuristic seats."""
    out = []
    for v in VARIANTS:
        for s in range(4):
            seats = [BASE] * 4
            seats[s] = v
            out.append(",".join(seats))
    out.append(",".join([BASE] * 4))
    return out


def duplicate_section(run_dir: Path, deals: int, seed: int, seconds: float) -> Doc:
    """The variants against heuristic on duplicate deals (intervals over deals)."""
    folder = open_run(run_dir)
    lineups = folder.lineups
    base = lineups.index(",".join([BASE] * 4))
    doc = Doc("Each variant against heuristic on duplicate deals")
    doc.p(f"Run: {deals:,} deals (seed {seed}) played in {len(lineups)} lineups, "
          f"{deals * len(lineups):,} games in {seconds:,.0f} s. Each variant sits in seat "
          "0, 1, 2 and 3 against three heuristic players, and four heuristic players play "
          "every deal as the baseline. Difference = the variant's final total minus "
          "heuristic's in the same seat on the same deal, averaged over the four seats; "
          "negative means the variant is better (lower totals win). 95% intervals over "
          "deals.")
    rows = []
    for v in VARIANTS:
        ids = [lineups.index(",".join(BASE if t != s else v for t in range(4)))
               for s in range(4)]
        d = read_deals(folder, (*ids, base))
        diff = estimate(d.diffs())
        win = estimate((d.seat_a(d.wins) - d.wins[4]).mean(axis=1) * 100)
        verdict = ("no significant difference" if not diff.excludes_zero() else
                   "better than heuristic" if diff.mean < 0 else "worse than heuristic")
        rows.append([v, diff.text(), win.text(), verdict])
    doc.table(["variant", "variant − heuristic, final total [95%]",
               "win rate difference (percentage points) [95%]", "verdict"], rows)
    return doc


def main(argv: list[str] | None = None) -> int:
    """Play the run and write the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000, help="deals (each in every lineup)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=Path("reports/example"))
    ap.add_argument("--run-dir", type=Path, default=None,
                    help="keep the run folder here (default: a temporary folder, deleted)")
    ap.add_argument("--reuse", action="store_true",
                    help="report on the run already in --run-dir instead of playing it again")
    args = ap.parse_args(argv)
    if args.reuse and args.run_dir is None:
        ap.error("--reuse needs --run-dir")
    tmp = None if args.run_dir else Path(tempfile.mkdtemp(prefix="trixsim-example-"))
    run_dir = args.run_dir or tmp / "run"
    try:
        t0 = time.perf_counter()
        if args.reuse:
            meta = open_run(run_dir).meta
            args.deals, args.seed, played = meta["games"], meta["seed"], meta["seconds"]
        else:
            cfg = RunConfig(games=args.deals, seed=args.seed,
                            lineups=tuple(example_lineups()), workers=args.workers)
            summary = run(cfg, run_dir, force=True,
                          command=["python", "scripts/make_example_report.py", *sys.argv[1:]])
            played = time.perf_counter() - t0
            print(f"played {summary.games:,} games in {played:.0f} s", file=sys.stderr)
        intro = duplicate_section(run_dir, args.deals, args.seed, played)
        write_report([run_dir], args.out, force=True, intro=intro,
                     title="Example report: heuristic, its single-aspect variants and random")
        print(f"report written to {args.out}/ in {time.perf_counter() - t0:.0f} s total",
              file=sys.stderr)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
