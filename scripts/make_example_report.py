"""Regenerate the example report in reports/example/.

Plays two things and reports on both together:

1. a tournament of the strongest bundled bots that fit a small machine, ``pimc:worlds=8``,
   ``heuristic`` and ``random`` (every pair on duplicate deals, see ``trixsim tournament``);
2. one run on shared deals in which each of heuristic's single-aspect variants, and random,
   sits in each seat in turn against three heuristic players (V,H,H,H / H,V,H,H / H,H,V,H /
   H,H,H,V), with four heuristic players on every deal as the baseline. Two such lineups
   differ in one seat, so every pair of them is a matched duplicate comparison.

The run folders go to a temporary directory (or --run-dir / --tournament-dir, kept) and
only the report is kept.

    python scripts/make_example_report.py --workers 1     # 20,000 + 2,000 deals per pair
    python scripts/make_example_report.py --deals 4000 --pimc-deals 300 --out /tmp/example
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
from trixsim.reports import tournament, verdict_plots
from trixsim.reports.report import Doc, write_report
from trixsim.reports.tables import open_run

from trixsim.runner import RunConfig, run

BASE = "heuristic"
TOURNAMENT = ("pimc:worlds=8", "heuristic", "random")
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


def how_made(deals: int, seed: int, seconds: float, pimc_deals: int, pimc_seed: int,
             pimc_seconds: float, command: str) -> Doc:
    """What was played, with the wall times."""
    doc = Doc("How this example was made")
    doc.p(f"`{command}` played (1) a tournament of "
          f"{', '.join(f'`{s}`' for s in TOURNAMENT)}: every pair on {pimc_deals:,} "
          f"duplicate deals in ten lineups (seeds {pimc_seed}, {pimc_seed + 1}, "
          f"{pimc_seed + 2}), {pimc_seconds:,.0f} s; and (2) one run of {deals:,} deals "
          f"(seed {seed}) in {len(example_lineups())} lineups: each of heuristic's "
          "single-aspect variants and `random` in each seat against three `heuristic` "
          f"players, and four `heuristic` players, {seconds:,.0f} s. Any two of these "
          "lineups that differ in one seat make a matched duplicate comparison, so every "
          "variant is compared with `heuristic` and with every other variant on the same "
          "cards. Play times (one worker process) on a 2-core machine shared with other "
          "work.")
    return doc


def main(argv: list[str] | None = None) -> int:
    """Play the run and write the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000, help="deals (each in every lineup)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=Path("reports/example"))
    ap.add_argument("--pimc-deals", type=int, default=2_000,
                    help="deals per pair of the tournament")
    ap.add_argument("--pimc-seed", type=int, default=11)
    ap.add_argument("--run-dir", type=Path, default=None,
                    help="keep the run folder here (default: a temporary folder, deleted)")
    ap.add_argument("--tournament-dir", type=Path, default=None,
                    help="keep the tournament folder here (default: a temporary folder)")
    ap.add_argument("--reuse", action="store_true",
                    help="report on the folders already in --run-dir and --tournament-dir "
                         "instead of playing them again")
    args = ap.parse_args(argv)
    if args.reuse and (args.run_dir is None or args.tournament_dir is None):
        ap.error("--reuse needs --run-dir and --tournament-dir")
    tmp = Path(tempfile.mkdtemp(prefix="trixsim-example-"))
    run_dir = args.run_dir or tmp / "run"
    tour_dir = args.tournament_dir or tmp / "tournament"
    command = ["python", "scripts/make_example_report.py", *(argv or sys.argv[1:])]
    try:
        t0 = time.perf_counter()
        if args.reuse:
            meta = open_run(run_dir).meta
            args.deals, args.seed, played = meta["games"], meta["seed"], meta["seconds"]
            settings = tournament.read_settings(tour_dir)
            args.pimc_deals, args.pimc_seed = settings["games"], settings["seed"]
            folders = tournament.pair_folders(tour_dir)
            pimc_played = sum(open_run(f).meta["seconds"] for f in folders)
        else:
            folders = tournament.play(TOURNAMENT, args.pimc_deals, args.pimc_seed, tour_dir,
                                      workers=args.workers, force=True, command=command,
                                      game="trix")
            pimc_played = time.perf_counter() - t0
            print(f"tournament played in {pimc_played:.0f} s", file=sys.stderr)
            t1 = time.perf_counter()
            cfg = RunConfig(game="trix", games=args.deals, seed=args.seed,
                            lineups=tuple(example_lineups()), workers=args.workers)
            summary = run(cfg, run_dir, force=True, command=command)
            played = time.perf_counter() - t1
            print(f"played {summary.games:,} games in {played:.0f} s", file=sys.stderr)
        ranking = tournament.read_ranking(folders, TOURNAMENT)
        made_by = " ".join(open_run(run_dir).meta.get("command", command))
        intro = how_made(args.deals, args.seed, played, args.pimc_deals, args.pimc_seed,
                         pimc_played, made_by)
        rank_doc = ranking.doc()
        intro.blocks += [("h", 3, rank_doc.title), *rank_doc.blocks]
        write_report([*folders, run_dir], args.out, force=True, intro=intro,
                     intro_plots=lambda d: verdict_plots.ranking(ranking, d),
                     title="Example report: pimc:worlds=8, heuristic, heuristic's "
                           "single-aspect variants and random")
        print(f"report written to {args.out}/ in {time.perf_counter() - t0:.0f} s total",
              file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
