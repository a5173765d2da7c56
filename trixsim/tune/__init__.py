"""``trixsim tune``: SPSA tuning of a strategy's numeric parameters on duplicate deals, as
fishtest runs SPSA, with a verification of the result on fresh deals.

Iteration k plays deals k*N .. (k+1)*N - 1 (never reused) eight times: theta+ in seat s
and theta- in seat s, s = 0..3, each against the opponent in the other three seats (by
default the start; ``against``); its difference is the per-deal mean over seats of theta+'s
final score minus theta-'s (in the game's direction: lower totals are better in Trix,
higher points in trump7; the game is the tuning's ``game``). This is the verification's
measure:
a 4-player game has no head-to-head result, and theta+ against theta- would also reward
what one side's parameters do to the other side's score.
The arithmetic (gains, schedules, the noise-calibrated learning rate) is in
:mod:`trixsim.tune.spsa`, the games in :mod:`trixsim.tune.play`, the folder's files in
:mod:`trixsim.tune.files` and the plots in :mod:`trixsim.tune.plots`.

A tuned value is never called better without the final check: ``verify_deals`` fresh deals
(seed + 1,000,003, never used while tuning) in ``trixsim compare``'s duplicate design, the
tuned strategy in each seat against the opponent (``against``, by default the start) in the
others and the opponent in all seats; the verdict is the mean difference per game, tuned
minus start, with its 95% interval.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from trixsim.cutpoints import cut
from trixsim.folders import FolderLock, create_folder, kind_of, write_atomic
from trixsim.tune import play
from trixsim.tune.files import (
    FORMAT,
    TuneError,
    best_toml,
    read_history,
    read_state,
    trim_history,
)
from trixsim.tune.spsa import (
    DEALS_PER_ITERATION,
    GAMES_PER_DEAL,
    LEGACY_SETTINGS,
    VERIFY_DEALS,
    WANDER,
    Bounds,
    Settings,
    Tuner,
    check_bounds,
    default_bounds,
    parse_bound,
    plan,
)

VERIFY_SEED_OFFSET = 1_000_003
TUNED, BEST = "tuned.toml", "best.toml"
"""The tuned values' parameter file; best.toml is a copy once the verification shows them
better than the start (load either as ``NAME@DIR/FILE``)."""
PLOT_EVERY = 15.0
"""Seconds between redraws of the plots while a tuning runs."""
Progress = Callable[[int, int, dict[str, Any], float], None]


@dataclass
class TuneResult:
    """What a tuning found: its folder, final values and the verification's verdict."""

    out: Path
    iterations: int
    values: dict[str, Any]
    verdict: dict[str, Any]


def iterate(tuner: Tuner, k: int, theta: np.ndarray, sigma: float | None,
            executor: Executor | None = None) -> tuple[np.ndarray, float, dict[str, Any]]:
    """SPSA iteration k from ``theta``: (new theta, sigma, the history row)."""
    s = tuner.settings
    delta, plus, minus = tuner.perturb(k, theta)
    jobs = [(s.spec, plus, minus, s.against, s.seed, a, b, s.game)
            for a, b in play.pieces(k * s.deals, (k + 1) * s.deals)]
    return tuner.update(k, theta, delta, play.gather(executor, play.pair_diffs, jobs), sigma)


def _open(out: Path, settings: Settings, tuner: Tuner, resume: bool
          ) -> tuple[dict[str, Any], FolderLock]:
    """The folder's state and its lock: a new folder, or the one to resume (checked)."""
    if not resume:
        state = {"format": FORMAT, "settings": asdict(settings), "iteration": 0,
                 "theta": tuner.theta0().tolist(), "sigma": None}
        with create_folder(out, "tune") as (tmp, lock):
            write_atomic(tmp / "state.json", json.dumps(state, indent=1) + "\n")
            trim_history(tmp, tuner.columns(), 0)
        try:
            cut("tuning folder created")
        except BaseException:
            lock.release()
            raise
        return state, lock
    if kind_of(out) != "tune":
        raise TuneError(f"{out} is not a tuning folder trixsim created")
    state = read_state(out)
    stored = state["settings"]
    for key, value in asdict(settings).items():
        before = stored.get(key, LEGACY_SETTINGS.get(key))
        if before != json.loads(json.dumps(value)):
            raise TuneError(f"{out} was started with {key} = {before!r}, not {value!r}")
    return state, FolderLock(out).acquire()


def tune(spec: str, params: Bounds | None, budget: int, out: Path, against: str | None = None,
         seed: int = 0, workers: int = 1, deals_per_iteration: int = DEALS_PER_ITERATION,
         verify_deals: int = VERIFY_DEALS, resume: bool = False,
         progress: Progress | None = None, wander: float = WANDER, plots: bool = True,
         executor: Executor | None = None, plot_every: float = PLOT_EVERY, *,
         game: str) -> TuneResult:
    """Tune ``spec``'s parameters ``params`` in ``game`` (name -> (lo, hi); None: every
    numeric one with its default bounds) with SPSA for ``budget`` games into the new
    folder ``out``, then verify the result. With ``resume``, continue the tuning in
    ``out`` (the arguments must be the ones it was started with).
    ``progress(done, iterations, values, diff)`` is called after every iteration; with
    ``plots`` the plots are redrawn every ``plot_every`` seconds while it runs and at the
    end. The tuned values are in tuned.toml, and in
    best.toml too when the verification shows them better than the start. Games are played
    over ``workers`` local processes, or over ``executor`` when given (a cluster's); the
    results are the same either way."""
    from trixsim.pool import local_executor, no_interrupts, sigterm_interrupts

    out = Path(out)
    plotted = time.monotonic()
    settings = plan(spec, params, budget, deals_per_iteration, seed, verify_deals, against,
                    wander, game=game)
    tuner = Tuner(settings)
    state, lock = _open(out, settings, tuner, resume)
    try:
        trim_history(out, tuner.columns(), state["iteration"])
        theta = np.array(state["theta"], dtype=np.float64)
        sigma = state["sigma"]
        with (sigterm_interrupts(),
              local_executor(workers if executor is None else 1) as local,
              open(out / "history.csv", "a", newline="", encoding="utf-8") as hist):
            ex = executor or local
            writer = csv.writer(hist, lineterminator="\n")
            for k in range(state["iteration"], settings.iterations):
                theta, sigma, row = iterate(tuner, k, theta, sigma, ex)
                state = {**state, "iteration": k + 1, "theta": theta.tolist(), "sigma": sigma}
                cut("iteration played")
                with no_interrupts():  # the cuts in here stand for a kill -9
                    writer.writerow([repr(row[c]) for c in tuner.columns()])
                    hist.flush()
                    cut("history row written")
                    write_atomic(out / TUNED, best_toml(
                        tuner.target, tuner.all_values(tuner.final_values(theta))))
                    cut("tuned.toml written")
                    write_atomic(out / "state.json", json.dumps(state, indent=1) + "\n")
                cut("iteration written")
                if progress is not None:
                    progress(k + 1, settings.iterations, tuner.values(theta), row["diff"])
                if plots and time.monotonic() - plotted >= plot_every:
                    _plot(out)  # the plots grow as the tuning goes
                    plotted = time.monotonic()
            values = tuner.final_values(theta)
            verdict = verify(tuner, values, ex)
            verdict["on_bound"] = on_bound(tuner, values)
            verdict["file"] = BEST if verdict["better"] else TUNED
            if not verdict["better"]:
                verdict["verdict"] += f"; so the tuned values are in {TUNED}, not {BEST}"
            write_atomic(out / "verdict.json", json.dumps(verdict, indent=1) + "\n")
            cut("verdict written")
            if verdict["better"]:
                write_atomic(out / BEST, (out / TUNED).read_text(encoding="utf-8"))
            else:
                (out / BEST).unlink(missing_ok=True)  # (one trixsim wrote: a tuning folder)
        if plots:
            _plot(out)
    finally:
        lock.release()
    return TuneResult(out, settings.iterations, values, verdict)


def _plot(out: Path) -> None:
    from trixsim.tune.plots import plot

    plot(out)


def on_bound(tuner: Tuner, values: dict[str, Any]) -> list[str]:
    """The tuned parameters that ended on (within 1% of the range of) one of their bounds:
    the best value may lie beyond it."""
    names = []
    for n, lo, hi in zip(tuner.names, tuner.lo, tuner.hi, strict=True):
        tol = 0.01 * (hi - lo)
        if values[n] <= lo + tol or values[n] >= hi - tol:
            names.append(n)
    return names


def verify(tuner: Tuner, values: dict[str, Any], executor: Executor | None = None
           ) -> dict[str, Any]:
    """The tuned values against the opponent on fresh duplicate deals (see the module
    docstring); with an opponent other than the start, the start is measured on the same
    deals too and the verdict is tuned minus start, paired by deal."""
    s = tuner.settings
    seed = s.seed + VERIFY_SEED_OFFSET
    jobs = [(s.spec, values, s.against, seed, a, b, s.game)
            for a, b in play.pieces(0, s.verify_deals)]
    d = play.gather(executor, play.verify_diffs, jobs, axis=1)
    gain = play.estimate(d[0] - d[1])
    return {"deals": s.verify_deals, "seed": seed, "tuned": values, "start": s.spec,
            "against": s.against or s.spec, "tuned_minus_against": play.estimate(d[0]),
            "start_minus_against": play.estimate(d[1]), "tuned_minus_start": gain,
            "better": play.better(gain, tuner.sign > 0),
            "verdict": play.verdict_text(gain, tuner.sign > 0)}


__all__ = ["BEST", "DEALS_PER_ITERATION", "FORMAT", "GAMES_PER_DEAL",
           "LEGACY_SETTINGS", "PLOT_EVERY", "TUNED", "VERIFY_DEALS", "VERIFY_SEED_OFFSET",
           "WANDER", "Bounds",
           "Settings", "TuneError", "TuneResult", "Tuner", "check_bounds", "default_bounds",
           "iterate", "on_bound", "parse_bound", "plan", "read_history", "read_state", "tune",
           "verify"]
