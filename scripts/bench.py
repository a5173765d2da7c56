"""Throughput of the engine on one core: contracts and games per second.

Plays complete games in one process (one core) for each configuration, several runs
each, and prints the median rate with its spread. The first run of a process pays the
compiled kernels' load, so one untimed warm-up batch is played first.

    python scripts/bench.py                       # random and heuristic, default sizes
    python scripts/bench.py --games 20000 --runs 5 --config random
"""

from __future__ import annotations

import argparse
import statistics
import time

from trixsim.loading import StrategyLoadError, load_seats
from trixsim.sim import play_batch

CONFIGS = {
    "random": "random",
    "heuristic": "heuristic",
    "heuristic-vs-random": "heuristic,random,random,random",
}


def bench(specs: str, games: int, batch: int, seed: int) -> tuple[float, int]:
    """Seconds and contracts to play ``games`` games in batches of ``batch``."""
    seats = load_seats(specs)
    contracts = 0
    t0 = time.perf_counter()
    for start in range(0, games, batch):
        st = play_batch(seats, seed, range(start, min(start + batch, games)))
        contracts += int(st.contract_no.sum())
    return time.perf_counter() - t0, contracts


def main() -> None:
    """Run the configurations and print one line per configuration."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per run")
    ap.add_argument("--batch", type=int, default=10_000, help="games per engine batch")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per configuration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", action="append", choices=sorted(CONFIGS),
                    help="configurations to time (default: all available)")
    args = ap.parse_args()
    for name in args.config or list(CONFIGS):
        specs = CONFIGS[name]
        try:
            bench(specs, min(200, args.games), min(200, args.batch), args.seed + 999)
        except StrategyLoadError as exc:
            print(f"{name:<22} skipped: {exc}")
            continue
        c_rates, g_rates = [], []
        for r in range(args.runs):
            secs, contracts = bench(specs, args.games, args.batch, args.seed + r)
            c_rates.append(contracts / secs)
            g_rates.append(args.games / secs)
        print(f"{name:<22} {statistics.median(c_rates):>10,.0f} contracts/s "
              f"(min {min(c_rates):,.0f}, max {max(c_rates):,.0f})  "
              f"{statistics.median(g_rates):>8,.0f} games/s  "
              f"[{args.runs} runs x {args.games:,} games, batch {args.batch:,}, one core]")


if __name__ == "__main__":
    main()
