"""``trixsim tune SPEC``: SPSA tuning of a strategy's numeric parameters on duplicate deals."""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from trixsim.commands import Interrupted, write_failed
from trixsim.commands.options import Count, backend_options, game_option, open_backend
from trixsim.commands.run import fresh_out
from trixsim.folders import FolderError, FolderLocked

if TYPE_CHECKING:
    from trixsim.pool import Backend

_STORED = {"budget": "budget", "seed": "seed", "deals": "deals", "verify_deals": "verify_deals",
           "against": "against", "wander": "wander", "game": "game"}
"""Command-line option -> the setting of state.json it must match on --resume."""


def register(group: click.Group) -> None:
    """Add ``tune`` to the CLI group."""

    @group.command("tune")
    @click.argument("spec")
    @click.option("--param", "-p", "param_texts", multiple=True, metavar="NAME=LO:HI",
                  help="A parameter to tune and its bounds; repeat for several "
                       "[default: every int and float parameter, with default bounds].")
    @click.option("--budget", "-n", type=Count(min=1), default=None,
                  help="Games to play while tuning (8 per deal per iteration; the "
                       "verification's games come on top). Required unless --resume.")
    @click.option("--out", "-o", type=click.Path(path_type=Path), default=None,
                  help="The tuning folder to create (or to continue, with --resume) "
                       "[default: a new folder under runs/].")
    @click.option("--against", default=None,
                  help="The opponents (three seats) while tuning and in the final "
                       "verification [default: SPEC as given].")
    @click.option("--seed", type=click.IntRange(0, 2**62), default=0, show_default=True,
                  help="Seed of the tuning's deals and perturbations (the verification uses "
                       "seed + 1,000,003).")
    @click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
                  help="Worker processes [default: all cores]; the results do not depend on "
                       "it.")
    @click.option("--resume", is_flag=True,
                  help="Continue the interrupted tuning in --out (options not given are taken "
                       "from it; those given must match it).")
    @click.option("--deals-per-iteration", "deals", type=Count(min=2), default=None,
                  help="Deals per SPSA iteration, each played 8 times. [default: 1000]")
    @click.option("--verify-deals", type=Count(min=2), default=None,
                  help="Fresh deals for the final verification (5 games each, 9 with "
                       "--against). [default: 10000]")
    @click.option("--wander", type=click.FloatRange(0, 1, min_open=True), default=None,
                  help="How far noise alone may move a parameter over the whole tuning, as a "
                       "fraction of its range (one standard deviation); sets the learning "
                       "rate. [default: 0.1]")
    @click.option("--method", type=click.Choice(["spsa"]), default="spsa", show_default=True,
                  help="The tuning method (SPSA as fishtest runs it; the only one so far).")
    @click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
    @backend_options()
    @game_option
    @click.pass_context
    def tune_cmd(ctx: click.Context, spec: str, param_texts: tuple[str, ...],
                 budget: int | None, out: Path | None, against: str | None, seed: int,
                 workers: int | None, resume: bool, deals: int | None,
                 verify_deals: int | None, wander: float | None, method: str,
                 quiet: bool, scheduler: str | None, backend: str | None,
                 game: str) -> None:
        """Tune a strategy's numeric parameters with SPSA on duplicate deals.

        Every iteration perturbs all tuned parameters at once by ±c_k (random signs) and
        plays the same fresh deals eight times: theta+ and theta- in each seat, against the
        opponent (--against, by default SPEC) in the other three. The difference of their
        scores in the same seat (in the game's direction: lower is better in Trix, higher
        in trump7) moves theta towards the better side, with
        fishtest's schedules (c_k = c/(k+1)^0.101, a_k = a/(A+k+1)^0.602, A = 10% of the
        iterations, c = (hi-lo)/20); the rate a is set so that noise alone would move a
        parameter by about --wander of its range over the whole tuning.

        At the end, the tuned values are checked against the starting ones (or --against)
        on fresh duplicate deals, as trixsim compare does; the tuned values are called
        better only when the 95% interval of the difference lies on the better side of
        zero.

        Writes OUT (default: a new folder under runs/) with history.csv, state.json,
        tuned.toml (the tuned values, load it as NAME@OUT/tuned.toml; copied to best.toml
        when the verification shows them better), verdict.json, and trajectories.png and
        gain.png (redrawn as the tuning goes). A tuned value on a bound is flagged. An
        interrupted tuning continues with
        --resume and gives the same results as an uninterrupted one. With --scheduler the
        games are played on a Dask cluster (same results).
        """
        from trixsim import tune as lib
        from trixsim.loading import StrategyLoadError

        given = {k: v for k, v in (("budget", budget), ("seed", seed), ("deals", deals),
                                   ("verify_deals", verify_deals), ("against", against),
                                   ("wander", wander), ("game", game))
                 if ctx.get_parameter_source(k) == ParameterSource.COMMANDLINE}
        try:
            params: Any = None
            if param_texts:
                params = {}
                for text in param_texts:
                    name, lo, hi = lib.parse_bound(text)
                    params[name] = (lo, hi)
            if resume:
                if out is None:
                    raise click.UsageError("--resume needs --out, the folder to continue")
                if not out.exists():
                    raise click.BadParameter(f"{out} does not exist: nothing to resume",
                                             param_hint="--out")
                stored = lib.read_state(out)["settings"]
                if params is None:
                    params = {k: tuple(v) for k, v in stored["params"].items()}
                args = {k: given.get(k, stored.get(v, lib.LEGACY_SETTINGS.get(v)))
                        for k, v in _STORED.items()}
            else:
                if budget is None:
                    raise click.UsageError("Missing option '--budget'.")
                out = out or fresh_out("tune")
                if out.exists() or out.is_symlink():
                    raise click.UsageError(f"{out} already exists (continue a tuning there "
                                           "with --resume, or choose another --out)")
                args = {"budget": budget, "seed": seed, "against": against,
                        "deals": deals or lib.DEALS_PER_ITERATION,
                        "verify_deals": verify_deals or lib.VERIFY_DEALS,
                        "wander": wander or lib.WANDER, "game": game}
            settings = lib.plan(spec, params, args["budget"], args["deals"], args["seed"],
                                args["verify_deals"], args["against"], args["wander"],
                                game=args["game"])
        except (lib.TuneError, StrategyLoadError) as exc:
            raise click.UsageError(str(exc)) from None
        where = open_backend(scheduler, backend, workers or os.cpu_count() or 1, quiet=quiet)
        with where:
            _run(lib, settings, params, out, resume, quiet, where)

    del tune_cmd


def _fmt(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                     for k, v in values.items())


LINE = 120
"""The progress line's width at most: it must not wrap on a terminal of 120 columns."""
_BAR = 20
"""Width of the bar itself; with position and time left it takes about 45 columns."""


def progress_bar(n: int, done: int) -> Any:
    """The tuning's progress bar on stderr (label: see ``progress_label``)."""
    bar = click.progressbar(length=n, label=f"iteration {done}/{n}", file=sys.stderr,
                            show_pos=True, show_eta=True, width=_BAR)
    bar.update(done)
    return bar


def progress_label(k: int, total: int, values: dict[str, Any], diff: float) -> str:
    """``iteration k/total, diff ±x: name=v, ...``, cut so that the whole line (label, bar,
    position, time left) fits in ``LINE`` columns."""
    head = f"iteration {k}/{total}, diff {diff:+.1f}: "
    room = LINE - _BAR - 2 * len(str(total)) - 24 - len(head)  # bar, "  k/n  ", time left
    text = _fmt(values)
    return head + (text if len(text) <= room else text[:max(0, room - 1)] + "…")


def _run(lib: Any, settings: Any, params: Any, out: Path, resume: bool, quiet: bool,
         where: Backend) -> None:
    """Tune with a progress bar on a terminal; library errors become one-line messages."""
    from concurrent.futures.process import BrokenProcessPool

    from trixsim.pool import WorkerDied
    from trixsim.sim import IntegrityError, StrategyError

    n = settings.iterations
    done = lib.read_state(out)["iteration"] if resume else 0
    show = sys.stderr.isatty() and not quiet
    bar = progress_bar(n, done) if show else None

    def progress(k: int, total: int, values: dict[str, Any], diff: float) -> None:
        if bar is not None:
            bar.label = progress_label(k, total, values, diff)
            bar.update(1)

    t0 = time.perf_counter()
    again = (f"trixsim tune {shlex.quote(settings.spec)} --game {settings.game} --out "
             f"{shlex.quote(str(out))} --resume")
    try:
        specs = [settings.spec, settings.against or settings.spec]
        with (bar if bar is not None else contextlib.nullcontext(),
              where.executor(specs) as executor):
            result = lib.tune(settings.spec, params, settings.budget, out,
                              against=settings.against, seed=settings.seed,
                              deals_per_iteration=settings.deals,
                              verify_deals=settings.verify_deals, resume=resume,
                              progress=progress, wander=settings.wander, executor=executor,
                              game=settings.game)
    except FolderLocked as exc:
        raise click.ClickException(str(exc)) from None
    except (FolderError, lib.TuneError) as exc:
        raise click.UsageError(str(exc)) from None
    except (StrategyError, IntegrityError) as exc:
        raise click.ClickException(str(exc)) from None
    except (BrokenProcessPool, WorkerDied):
        raise click.ClickException(f"a worker process died (out of memory or killed); the "
                                   f"finished iterations are kept: continue with `{again}`"
                                   ) from None
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; the finished iterations are kept in {out}: "
                          f"continue with `{again}`") from None
    except OSError as exc:
        raise write_failed(out, exc) from None
    secs = time.perf_counter() - t0
    v = result.verdict
    click.echo(f"{result.iterations} iterations of {settings.deals:,} deals "
               f"({result.iterations * settings.deals * lib.GAMES_PER_DEAL:,} games) "
               f"for {settings.spec}; {secs:.1f} s")
    click.echo(f"tuned: {_fmt(result.values)}")
    g = v["tuned_minus_start"]
    click.echo(f"verification on {v['deals']:,} fresh deals (seed {v['seed']}): tuned - start "
               f"= {g['mean']:.1f} per game, 95% [{g['lo']:.1f}, {g['hi']:.1f}]: "
               f"{v['verdict']}")
    if settings.against is not None:
        for key, what in (("tuned_minus_against", "tuned"), ("start_minus_against", "start")):
            e = v[key]
            click.echo(f"  {what} - {settings.against} = {e['mean']:.1f} "
                       f"[{e['lo']:.1f}, {e['hi']:.1f}]")
    for n in v.get("on_bound", []):
        lo, hi = settings.params[n]
        side = "lower" if abs(result.values[n] - lo) <= abs(result.values[n] - hi) else "upper"
        click.echo(f"note: {n} = {result.values[n]:g} ended on its {side} bound "
                   f"({lo:g}:{hi:g}); the best value may lie beyond it: tune again with wider "
                   f"bounds (--param {n}=LO:HI)")
    name = lib.Tuner(settings).target
    file = v.get("file", lib.BEST)
    what = "the tuned strategy" if v["better"] else "the tuned values (not shown better)"
    click.echo(f"written to {out}/ (history.csv, state.json, {file}, verdict.json, "
               f"trajectories.png, gain.png); load {what} as {name}@{out}/{file}")
