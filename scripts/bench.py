"""Throughput, as rates and as ratios to a compiled scalar random-play loop timed in the
same run, and whole-process figures for ``trixsim run``.

The reference (``scalar``) is the plainest compiled loop over the rules' own kernels: one
game at a time, uniform random play, no batching, no tables. Each configuration is timed
back to back with it, ``--runs`` rounds, and reported as the median rate (with its range)
and the median of the per-round ratios, so a shared, noisy machine moves both alike.
One small untimed batch is played first, so loading compiled kernels is not timed.

    python scripts/bench.py                         # every in-process configuration
    python scripts/bench.py --config random --games 40000 --runs 5
    python scripts/bench.py --config heuristic --cpu  # by CPU time: steadier when shared
    python scripts/bench.py --process               # whole `trixsim run -j 1` processes
    python scripts/bench.py --process --game trump7 --spec random --workers 2 --games 1e6
    python scripts/bench.py --scaling               # run with 1 and with 2 workers
    python scripts/bench.py --codecs --runs 7       # Parquet codecs for chunk files
    python scripts/bench.py --scaling --dask        # the same through a Dask cluster
    python scripts/bench.py --search                # pimc's decisions per second and times
    python scripts/bench.py --search expert         # any Trix strategy, through its methods
    python scripts/bench.py --search pimc --search pimc:prune=0   # back to back, ratios
    python scripts/bench.py --trump7                # trump7 random play vs its scalar loop
    python scripts/bench.py --trump7 trump7-bid     # the same with the bid
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numba import njit

from trixsim.games import get_game
from trixsim.games.trix.adapter import RandomOneGameBot, adapt
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.outcomes import OutcomeLog
from trixsim.games.trix.policy import key_counter, uniform_action
from trixsim.games.trix.rules import legal_one
from trixsim.games.trix.state import COL, empty
from trixsim.games.trix.transitions import _DEALING, _deal, step_one
from trixsim.games.trix.types import DONE, PASS, PLACE
from trixsim.loading import load_seats
from trixsim.rng import STREAM_STRATEGY, first_picker, hash4
from trixsim.runner import RunConfig, run
from trixsim.sim import play_batch
from trixsim.strategy import Strategy

_PHASE, _TURN, _PLY, _GID, _FP = (COL[k] for k in ("phase", "turn", "ply", "game_id",
                                                   "first_picker"))
_CN = COL["contract_no"]
_INIT = empty(Chance(0), np.zeros(1, dtype=np.int64)).data[0].copy()
_WIDTH = _INIT.shape[0]


@njit(cache=True)
def scalar_loop(seed: int, first: int, games: int) -> int:
    """The reference: ``games`` games, one at a time, uniform random play with
    counter-based keys, straight on the rules' kernels. Returns the contracts played."""
    S = np.zeros((1, _WIDTH), dtype=np.int64)
    no_deals = np.full((0, 28, 4), -1, dtype=np.int64)
    contracts = 0
    for gid in range(first, first + games):
        S[0, :] = _INIT
        S[0, _GID] = gid
        S[0, _FP] = first_picker(seed, gid)
        _deal(S, 0, seed, no_deals)
        while S[0, _PHASE] != DONE:
            lm = legal_one(S, 0)
            if S[0, _PHASE] == PLACE and lm == 0:
                a = PASS
            else:
                a = uniform_action(lm, hash4(seed, STREAM_STRATEGY, gid,
                                                key_counter(S[0, _PLY], S[0, _PHASE])))
            step_one(S, 0, a)
            if S[0, _PHASE] == _DEALING:
                _deal(S, 0, seed, no_deals)
        contracts += S[0, _CN]
    return contracts


def _seats(name: str) -> tuple[Callable[[], list[Strategy]], str]:
    if name == "adapter-random":
        cls = adapt(RandomOneGameBot, name="adapted-random")
        return (lambda: [cls()] * 4), "stepwise"
    base, _, path = name.partition("/")
    specs = {"random": "random", "heuristic": "heuristic",
             "heuristic-vs-random": "heuristic,random,random,random",
             "pimc-vs-heuristic": "pimc,heuristic,heuristic,heuristic"}[base]
    return (lambda: load_seats(specs, "trix")), (path or "compiled")


CONFIGS = ("random", "random/stepwise", "heuristic", "heuristic/stepwise",
           "heuristic-vs-random", "pimc-vs-heuristic", "adapter-random")


_clock: Callable[[], float] = time.perf_counter
"""What the in-process configurations and their scalar loop are timed by (``--cpu``: the
process's CPU time)."""


def bench(seats: list[Strategy], games: int, batch: int, seed: int,
          path: str) -> tuple[float, int]:
    """Seconds and contracts to play ``games`` games in chunks of ``batch``, outcome
    tables built (as ``trixsim run`` does, without writing them; as there, each chunk's
    state and row arrays are given back for the next)."""
    contracts = 0
    t0 = _clock()
    for start in range(0, games, batch):
        ids = np.arange(start, min(start + batch, games))
        log = OutcomeLog(len(ids))
        st = play_batch(seats, seed, ids, observer=log, path=path, game=get_game("trix"))
        contracts += log.contracts().num_rows
        log.release()  # their arrays serve the next chunk, as a run's writer gives them back
        st.release()
    return _clock() - t0, contracts


def reference(games: int, seed: int) -> float:
    """Contracts per second of the scalar loop."""
    t0 = _clock()
    n = scalar_loop(seed, 0, games)
    return n / (_clock() - t0)


def _line(name: str, rates: list[float], ratios: list[float], unit: str, note: str) -> None:
    print(f"{name:<22} {statistics.median(rates):>10,.0f} {unit} (min {min(rates):,.0f}, "
          f"max {max(rates):,.0f})  {statistics.median(ratios):>5.2f}x scalar "
          f"(rounds {', '.join(f'{x:.2f}' for x in ratios)})  [{note}]")


def in_process(configs: list[str], games: int, batch: int, runs: int, seed: int) -> None:
    """Each configuration back to back with the scalar loop, ``runs`` rounds."""
    scalar_loop(seed, 0, 50)
    ref_games = games
    for name in configs:
        make, path = _seats(name)
        seats = make()
        n = games // {"adapter-random": 50, "pimc-vs-heuristic": 20}.get(name, 1) or 1
        bench(seats, min(200, n), 200, seed + 999, path)
        c_rates, g_rates, ratios = [], [], []
        for r in range(runs):
            ref = reference(ref_games, seed + r)
            secs, contracts = bench(seats, n, batch, seed + r, path)
            c_rates.append(contracts / secs)
            g_rates.append(n / secs)
            ratios.append(c_rates[-1] / ref)
        _line(name, c_rates, ratios, "contracts/s",
              f"{statistics.median(g_rates):,.0f} games/s, {path}, {runs} runs x {n:,} "
              f"games, batch {batch:,}, one core, tables built")


def search(runs: int, seed: int, specs: Sequence[str] = ("pimc",), games: int = 40) -> None:
    """Decisions per second of Trix strategies (``pimc`` with any parameters, ``expert``,
    a strategy loaded by import path), each through its own methods: decision states
    collected from ``games`` heuristic games (every decision with more than one legal
    action), all of them answered by the strategy at once (one call per kind of
    decision), one core.
    The specs take turns within each round; with several, each line also gives its
    per-round ratio to the first spec's rate. Rates by wall time and by the process's CPU
    time (steadier on a shared machine: time spent waiting for a core is not counted).
    Then, from one more pass with every decision asked alone (the strategy's method called
    with that decision's observation), the time one decision takes: median, 99th
    percentile and worst, as a person at the table waits for it."""
    from trixsim.games.trix import GameState
    from trixsim.sim import decide

    game = get_game("trix")
    states: list[np.ndarray] = []
    legal: list[np.ndarray] = []

    class Collect:
        def before_step(self, st: GameState, actions: np.ndarray, lm: np.ndarray) -> None:
            m = (np.asarray(lm) & 0xFFFFFFFF).astype(np.int64)
            idx = np.flatnonzero((np.bitwise_count(m) > 1) & (st.phase != DONE))
            if idx.size:
                states.append(st.data[idx].copy())
                legal.append(np.asarray(lm)[idx].copy())

    play_batch(load_seats("heuristic", "trix"), seed, range(games), observer=Collect(),
               path="stepwise", game=game)
    chance = Chance(seed)
    big = GameState(np.concatenate(states), chance)
    L = np.concatenate(legal)
    n = big.batch_size
    lineups = [load_seats(spec, "trix")[:1] * 4 for spec in specs]
    for seats in lineups:  # load (and on a first run compile) the kernels, untimed
        decide(big.take(np.arange(20)), seats, L[:20], game)
    wall: list[list[float]] = [[] for _ in specs]
    cpu: list[list[float]] = [[] for _ in specs]
    for _ in range(runs):
        for i, seats in enumerate(lineups):
            t0, c0 = time.perf_counter(), time.process_time()
            decide(big, seats, L, game)
            wall[i].append(n / (time.perf_counter() - t0))
            cpu[i].append(n / (time.process_time() - c0))
    kinds = game.decision(big)
    for i, spec in enumerate(specs):
        ratio = ""
        if i:
            r = [a / b for a, b in zip(cpu[i], cpu[0], strict=True)]
            ratio = (f"  {statistics.median(r):.2f}x {specs[0]} by CPU time (rounds "
                     f"{', '.join(f'{x:.2f}' for x in r)})")
        strategy = lineups[i][0]
        ms = np.empty(n)
        for g in range(n):  # each decision asked alone, its observation made untimed
            obs = game.strategy_view(big, np.array([g]), L[g:g + 1], strategy.observes)
            method = strategy.method_for(game.decisions[kinds[g]].method)
            t0 = time.perf_counter()
            method(obs)
            ms[g] = (time.perf_counter() - t0) * 1e3
        print(f"{spec:<22} {statistics.median(wall[i]):>10,.0f} decisions/s (min "
              f"{min(wall[i]):,.0f}, max {max(wall[i]):,.0f}); by CPU time "
              f"{statistics.median(cpu[i]):,.0f} (min {min(cpu[i]):,.0f}, max "
              f"{max(cpu[i]):,.0f}){ratio}; one decision: median "
              f"{np.median(ms):.3f} ms, 99th percentile {np.percentile(ms, 99):.3f} ms, "
              f"worst {ms.max():.3f} ms  [{n:,} decisions with more than one legal "
              f"action from {games} heuristic games, {runs} runs, one core]")


def trump7(name: str, games: int, batch: int, runs: int, seed: int) -> None:
    """Games per second of a trump7 game's compiled random lineup (``play_batch`` on the
    compiled path in chunks of ``batch``, outcome table built) against trump7's scalar
    reference loop (``scalar_random_games``: one game at a time, one state row, no
    tables), back to back, ``runs`` rounds, one core."""
    from trixsim.games import get_game
    from trixsim.games.trump7.fast import scalar_random_games

    game = get_game(name)
    seats = [Strategy()] * 4

    def batched(games: int, seed: int) -> float:
        t0 = time.perf_counter()
        for start in range(0, games, batch):
            ids = np.arange(start, min(start + batch, games))
            log = game.outcomes(len(ids))
            st = play_batch(seats, seed, ids, observer=log, path="compiled", game=game)
            log.tables(st, ["random"] * 4)
        return games / (time.perf_counter() - t0)

    def scalar(games: int, seed: int) -> float:
        t0 = time.perf_counter()
        scalar_random_games(seed, 0, games, game.bidding)
        return games / (time.perf_counter() - t0)

    scalar(50, seed + 999)
    batched(min(batch, 200), seed + 999)
    rates, ratios = [], []
    for r in range(runs):
        ref = scalar(games, seed + r)
        rates.append(batched(games, seed + r))
        ratios.append(rates[-1] / ref)
    _line(f"{name} random", rates, ratios, "games/s",
          f"compiled path, {runs} runs x {games:,} games, batch {batch:,}, one core, "
          "table built; scalar = trump7's scalar loop")


def _trixsim(*args: str) -> float:
    """Wall seconds of one ``trixsim`` process."""
    exe = [sys.executable, "-m", "trixsim"]
    t0 = time.perf_counter()
    subprocess.run([*exe, *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def scalar_rate(game: str, games: int, seed: int) -> float:
    """Games per second of ``game``'s compiled scalar random-play loop (Trix: ``scalar_loop``;
    trump7 and trump7-bid: ``scalar_random_games``), one core."""
    t0 = time.perf_counter()
    if game == "trix":
        scalar_loop(seed, 0, games)
    else:
        from trixsim.games.trump7.fast import scalar_random_games

        scalar_random_games(seed, 0, games, get_game(game).bidding)
    return games / (time.perf_counter() - t0)


def process(games: int, runs: int, seed: int, game: str = "trix",
            specs: Sequence[str] = ("random", "heuristic"), workers: int = 1,
            ref_games: int = 200_000) -> None:
    """Whole ``trixsim run`` processes (``workers`` workers, tables written, start-up and
    exit included) against the game's scalar loop timed just before each (on
    ``ref_games`` games), as games per second, and ``trixsim --help``."""
    tmp = Path(tempfile.mkdtemp(prefix="trixsim-bench-"))
    try:
        scalar_rate(game, 50, seed)
        _trixsim("run", "--game", game, "-n", "200", "-q", "-o", str(tmp / "warm"))
        for spec in specs:
            rates, ratios, walls = [], [], []
            for r in range(runs):
                ref = scalar_rate(game, min(games, ref_games), seed + r)
                out = tmp / f"{spec}-{r}"
                secs = _trixsim("run", "--game", game, "-n", str(games), "-j", str(workers),
                                "-s", spec, "-q", "--seed", str(seed + r), "-o", str(out))
                shutil.rmtree(out, ignore_errors=True)
                walls.append(secs)
                rates.append(games / secs)
                ratios.append(rates[-1] / ref)
            _line(f"{game} run -j {workers} -s {spec}", rates, ratios, "games/s",
                  f"whole process, median wall {statistics.median(walls):.2f} s, {runs} runs "
                  f"x {games:,} games, tables written, {os.cpu_count()} cores; scalar "
                  "loop on one core")
        helps = sorted(_trixsim("--help") for _ in range(max(runs, 5)))
        print(f"trixsim --help         {statistics.median(helps):.3f} s wall "
              f"(min {helps[0]:.3f}, max {helps[-1]:.3f})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def codecs(runs: int, seed: int, game: str = "trix", games: int = 10_000) -> None:
    """Writing and reading one chunk's tables (``games`` default-lineup games) with each
    Parquet codec and encoding, and the bytes per game: how ``runfolder.parquet_options``
    was chosen. Times are the calling thread's CPU seconds (encoding runs beside the play,
    so its CPU is what it takes from a run on busy cores), medians over ``runs`` rounds,
    the candidates taken in turn within each round."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rules = get_game(game)
    log = rules.outcomes(games)
    st = play_batch(load_seats("heuristic", game), seed, range(games), observer=log,
                    game=rules)
    tables = log.tables(st, ["heuristic"] * 4)
    built = []
    for _ in range(runs):  # building them from the played rows, as a chunk's writer does
        c0 = time.process_time()
        log.tables(st, ["heuristic"] * 4)
        built.append(time.process_time() - c0)
    print(f"tables built from the outcome rows: {statistics.median(built) / games * 1e6:.2f} "
          f"us of CPU a game (median of {runs}, {games:,} games)")
    # one row group per table: a chunk's 10,000 games, as a run gathers its slices

    def strings(t: pa.Table) -> list[str]:
        return [f.name for f in t.schema if pa.types.is_dictionary(f.type)]

    from trixsim.runfolder import parquet_options

    cands: dict[str, Callable[[pa.Table], dict]] = {
        "zstd, dictionary pages for every column": lambda t: {"compression": "zstd"},
        "zstd, dictionary pages for strings": lambda t: {
            "compression": "zstd", "use_dictionary": strings(t)},
        "zstd, strings as dictionaries, integers (masks aside) delta-packed, statistics "
        "for game and lineup (used)": lambda t: parquet_options(t.schema),
        "the same with the columns declared nullable (before)": lambda t: parquet_options(
            t.schema),
        "the same at zstd level -3": lambda t: {
            **parquet_options(t.schema), "compression_level": -3},
        "the same with lz4": lambda t: {**parquet_options(t.schema), "compression": "lz4"},
        "the same uncompressed": lambda t: {**parquet_options(t.schema),
                                            "compression": "none"},
        "the same with every integer column delta-packed": lambda t: {
            **parquet_options(t.schema), "column_encoding": {
                f.name: "DELTA_BINARY_PACKED" for f in t.schema if pa.types.is_integer(f.type)}},
        "zstd level 6, dictionary pages for strings": lambda t: {
            "compression": "zstd", "compression_level": 6, "use_dictionary": strings(t)},
        "snappy, dictionary pages for strings": lambda t: {
            "compression": "snappy", "use_dictionary": strings(t)},
        "lz4, dictionary pages for strings": lambda t: {
            "compression": "lz4", "use_dictionary": strings(t)},
        "uncompressed, dictionary pages for strings": lambda t: {
            "compression": "none", "use_dictionary": strings(t)},
    }
    write: dict[str, list[float]] = {n: [] for n in cands}
    read: dict[str, list[float]] = {n: [] for n in cands}
    size: dict[str, int] = {}
    for _ in range(runs):
        for name, opts in cands.items():
            t0 = time.thread_time()
            blobs = []
            for t in tables.values():
                if "nullable" in name:
                    t = t.cast(pa.schema([f.with_nullable(True) for f in t.schema]))
                sink = pa.BufferOutputStream()
                pq.write_table(t, sink, **opts(t))
                blobs.append(sink.getvalue())
            write[name].append(time.thread_time() - t0)
            size[name] = sum(b.size for b in blobs)
            t0 = time.process_time()  # the reader decodes in Arrow's I/O threads too
            for b in blobs:
                pq.read_table(pa.BufferReader(b), use_threads=False)
            read[name].append(time.process_time() - t0)
    rows = sum(t.num_rows for t in tables.values())
    print(f"| codec ({game}, {games:,} heuristic games, {rows:,} rows, {runs} rounds) "
          "| write ms (CPU) | read ms (CPU) | bytes per game |")
    print("|---|---|---|---|")
    for name in cands:
        print(f"| {name} | {statistics.median(write[name]) * 1e3:.0f} | "
              f"{statistics.median(read[name]) * 1e3:.0f} | {size[name] / games:.0f} |")


def scaling(games: int, runs: int, seed: int, dask: bool = False) -> None:
    """Games per second of the default run (four heuristic seats, tables written) with one
    worker and with two, and their ratio (median over ``runs`` alternating pairs). With
    ``dask``, through local Dask clusters of one and of two worker processes (the path
    ``--scheduler`` takes), started once and warmed up before timing."""
    import contextlib

    from trixsim.pool import LocalBackend

    rates: dict[int, list[float]] = {1: [], 2: []}
    tmp = Path(tempfile.mkdtemp(prefix="trixsim-bench-"))
    with contextlib.ExitStack() as stack:
        if dask:
            from trixsim.backend import DaskBackend

            backends = {n: stack.enter_context(DaskBackend(workers=n)) for n in (1, 2)}
        else:
            backends = {n: LocalBackend(n) for n in (1, 2)}
        stack.callback(shutil.rmtree, tmp, ignore_errors=True)
        for n, backend in backends.items():  # kernels loaded in every worker
            run(RunConfig(game="trix",
                          games=400 * n, seed=seed, lineups=("heuristic",), batch_size=200),
                tmp / f"warm{n}", backend=backend)
        for r in range(runs):
            for workers in (1, 2):
                cfg = RunConfig(game="trix", games=games, seed=seed + r, lineups=("heuristic",),
                                workers=workers)
                t0 = time.perf_counter()
                run(cfg, tmp / f"r{r}-{workers}", backend=backends[workers])
                rates[workers].append(games / (time.perf_counter() - t0))
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    ratios = [b / a for a, b in zip(rates[1], rates[2], strict=True)]
    how = "Dask local cluster" if dask else "local processes"
    print(f"run, 1 worker         {one:>9,.0f} games/s   (min {min(rates[1]):,.0f}, "
          f"max {max(rates[1]):,.0f})")
    print(f"run, 2 workers        {two:>9,.0f} games/s   (min {min(rates[2]):,.0f}, "
          f"max {max(rates[2]):,.0f})")
    print(f"2 workers / 1 worker  {statistics.median(ratios):>9.2f}x  (pairs: "
          f"{', '.join(f'{x:.2f}' for x in ratios)}) [{runs} runs x {games:,} games, "
          f"four heuristic seats, tables written, {how}, {os.cpu_count()} cores]")


def main() -> None:
    """Time what was asked and print one line for each configuration."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=lambda x: int(float(x)), default=40_000,
                    help="games per run")
    ap.add_argument("--batch", type=int, default=10_000, help="games per chunk")
    ap.add_argument("--runs", type=int, default=3, help="timed rounds per configuration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", action="append", choices=CONFIGS,
                    help="in-process configuration(s) to time (default: all)")
    ap.add_argument("--cpu", action="store_true",
                    help="in-process configurations and their scalar loop timed by the "
                         "process's CPU time, not wall time (steadier on a shared machine)")
    ap.add_argument("--process", action="store_true",
                    help="time whole `trixsim run --workers 1` processes and --help")
    ap.add_argument("--game", default="trix", choices=("trix", "trump7", "trump7-bid"),
                    help="with --process: the game run")
    ap.add_argument("--spec", action="append",
                    help="with --process: lineup(s) run (default: random and heuristic)")
    ap.add_argument("--workers", type=int, default=1, help="with --process: -j")
    ap.add_argument("--codecs", action="store_true",
                    help="Parquet codecs: write and read times and bytes of one chunk")
    ap.add_argument("--scaling", action="store_true",
                    help="time `trixsim run` with 1 and 2 workers")
    ap.add_argument("--dask", action="store_true",
                    help="with --scaling: through local Dask clusters of 1 and 2 workers")
    ap.add_argument("--search", metavar="SPEC", nargs="?", const="pimc", action="append",
                    help="decisions per second, and the time of one decision, of pimc (or "
                         "any Trix strategy SPEC); repeat to time several back to "
                         "back, with ratios to the first")
    ap.add_argument("--trump7", metavar="GAME", nargs="?", const="trump7",
                    choices=("trump7", "trump7-bid"),
                    help="trump7 (or trump7-bid) random play against its scalar loop")
    args = ap.parse_args()
    global _clock
    if args.cpu:
        _clock = time.process_time
    if args.trump7:
        trump7(args.trump7, args.games, args.batch, args.runs, args.seed)
    if args.codecs:
        codecs(args.runs, args.seed, args.game)
    if args.process:
        process(args.games, args.runs, args.seed, args.game,
                args.spec or ("random", "heuristic"), args.workers)
    if args.scaling:
        scaling(args.games, args.runs, args.seed, args.dask)
    if args.search:
        search(args.runs, args.seed, args.search)
    timed = args.process or args.scaling or args.search or args.trump7 or args.codecs
    if not timed or args.config:
        in_process(args.config or list(CONFIGS), args.games, args.batch, args.runs,
                   args.seed)


if __name__ == "__main__":
    main()
