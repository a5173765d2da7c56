"""Throughput: contracts and games per second on one core, the adapter's cost, and how
``trixsim run`` scales from one worker process to two.

Each engine configuration plays complete games in this process (one core), several runs,
and prints the median rate with its range; one small untimed batch is played first so
that loading the compiled kernels is not timed. ``--scaling`` times the whole run (tables
written) with one and with two workers and prints the ratio of their games per second.

    python scripts/bench.py                         # every engine configuration
    python scripts/bench.py --config random --games 20000 --runs 5
    python scripts/bench.py --scaling --scaling-games 40000
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from trixsim.adapter import RandomOneGameBot, adapt
from trixsim.loading import load_seats
from trixsim.runner import RunConfig, run
from trixsim.sim import play_batch
from trixsim.strategy import Strategy


def _seats(name: str) -> Callable[[], list[Strategy]]:
    if name == "adapter-random":
        cls = adapt(RandomOneGameBot, name="adapted-random")
        return lambda: [cls()] * 4
    specs = {"random": "random", "heuristic": "heuristic",
             "heuristic-vs-random": "heuristic,random,random,random"}[name]
    return lambda: load_seats(specs)


CONFIGS = ("random", "heuristic", "heuristic-vs-random", "adapter-random")


def bench(seats: list[Strategy], games: int, batch: int, seed: int) -> tuple[float, int, int]:
    """Seconds, contracts and decisions to play ``games`` games in batches of ``batch``."""
    contracts = decisions = 0
    t0 = time.perf_counter()
    for start in range(0, games, batch):
        st = play_batch(seats, seed, np.arange(start, min(start + batch, games)))
        contracts += int(st.contract_no.sum())
        decisions += int(st.ply.sum())
    return time.perf_counter() - t0, contracts, decisions


def scaling(games: int, runs: int, seed: int) -> None:
    """Games per second of the default run (four heuristic seats, tables written) with one
    worker and with two, and their ratio (median over ``runs`` alternating pairs)."""
    rates: dict[int, list[float]] = {1: [], 2: []}
    tmp = Path(tempfile.mkdtemp(prefix="trixsim-bench-"))
    try:
        run(RunConfig(games=200, seed=seed, lineups=("heuristic",)), tmp / "warm")
        for r in range(runs):
            for workers in (1, 2):
                cfg = RunConfig(games=games, seed=seed + r, lineups=("heuristic",),
                                workers=workers)
                t0 = time.perf_counter()
                run(cfg, tmp / f"r{r}-{workers}")
                rates[workers].append(games / (time.perf_counter() - t0))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    ratios = [b / a for a, b in zip(rates[1], rates[2], strict=True)]
    print(f"run, 1 worker         {one:>9,.0f} games/s   (min {min(rates[1]):,.0f}, "
          f"max {max(rates[1]):,.0f})")
    print(f"run, 2 workers        {two:>9,.0f} games/s   (min {min(rates[2]):,.0f}, "
          f"max {max(rates[2]):,.0f})")
    print(f"2 workers / 1 worker  {statistics.median(ratios):>9.2f}x  (pairs: "
          f"{', '.join(f'{x:.2f}' for x in ratios)}) [{runs} runs x {games:,} games, "
          f"four heuristic seats, tables written]")


def main() -> None:
    """Time the configurations and print one line for each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per run")
    ap.add_argument("--batch", type=int, default=10_000, help="games per engine batch")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per configuration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", action="append", choices=CONFIGS,
                    help="configuration(s) to time (default: all)")
    ap.add_argument("--scaling", action="store_true",
                    help="time `trixsim run` with 1 and 2 workers instead")
    ap.add_argument("--scaling-games", type=int, default=40_000,
                    help="games per scaling run")
    args = ap.parse_args()
    if args.scaling:
        scaling(args.scaling_games, args.runs, args.seed)
        return
    per_decision: dict[str, float] = {}
    for name in args.config or CONFIGS:
        seats = _seats(name)()
        games = args.games if name != "adapter-random" else max(1, args.games // 50)
        bench(seats, min(200, games), 200, args.seed + 999)
        c_rates, g_rates, us = [], [], []
        for r in range(args.runs):
            secs, contracts, decisions = bench(seats, games, args.batch, args.seed + r)
            c_rates.append(contracts / secs)
            g_rates.append(games / secs)
            us.append(secs / decisions * 1e6)
        per_decision[name] = statistics.median(us)
        print(f"{name:<20} {statistics.median(c_rates):>9,.0f} contracts/s "
              f"(min {min(c_rates):,.0f}, max {max(c_rates):,.0f})  "
              f"{statistics.median(g_rates):>7,.0f} games/s  "
              f"{per_decision[name]:>6.2f} µs/decision  "
              f"[{args.runs} runs x {games:,} games, batch {args.batch:,}, one core]")
    if "adapter-random" in per_decision and "random" in per_decision:
        ratio = per_decision["adapter-random"] / per_decision["random"]
        print(f"adapter cost: {per_decision['adapter-random']:.2f} µs per decision, "
              f"{ratio:.1f}x the batched random strategy")


if __name__ == "__main__":
    main()
