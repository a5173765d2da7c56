"""``trixsim compare A B``: duplicate-deal comparison of two strategies, optionally sequential."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from trixsim.commands import folder_failed, interrupted, write_failed
from trixsim.commands.options import (
    Count,
    backend_options,
    game_option,
    games_bar,
    open_backend,
)
from trixsim.folders import FolderError, FolderLocked, check_new_output

if TYPE_CHECKING:
    import numpy as np


def _spec(value: str, hint: str, game: str) -> str:
    """A single strategy spec of ``game``, checked by loading it."""
    from trixsim.loading import StrategyLoadError, load_strategy, split_specs

    value = value.strip()
    try:
        if len(split_specs(value)) != 1:
            raise click.BadParameter("give one strategy spec", param_hint=hint)
        load_strategy(value, game)
    except StrategyLoadError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None
    return value


def sprt_status(test: Any, deals: int, diffs: np.ndarray, decision: str | None,
                higher_is_better: bool = False) -> str:
    """One progress line of the sequential test: the mean difference, both log-likelihood
    ratios (A better, A worse by the effect, in the game's direction) and the bounds they
    must cross."""
    import numpy as np

    plus, minus = test.llr(diffs)
    if higher_is_better:  # A better is a positive difference
        plus, minus = minus, plus
    se = float(diffs.std(ddof=1) / np.sqrt(diffs.size)) if diffs.size > 1 else float("nan")
    return (f"{deals:,} deals: A - B = {diffs.mean():+.1f} (s.e. {se:.1f}); LLR A better "
            f"{minus:+.2f}, A worse {plus:+.2f}; bounds ({test.lower:.2f}, {test.upper:.2f})"
            f": {decision or 'continue'}")


def sprt_result(a: str, b: str, result: Any) -> str:
    """The test's last line, as fishtest gives it: which strategy is better, or that none
    differs by the effect, or that the test ran out of games."""
    s, d = result.sprt, result.diff
    last = result.rounds[-1] if result.rounds else {"llr_plus": 0.0, "llr_minus": 0.0}
    plus, minus = last["llr_plus"], last["llr_minus"]
    if result.higher_is_better:  # "minus" stands for A better: a positive difference here
        plus, minus = minus, plus
    where = f"after {result.deals:,} deals (A - B = {d.mean:+.1f} [{d.lo:+.1f}, {d.hi:+.1f}])"
    if s["decision"] == "H1":
        better, worse, llr = (a, b, minus) if minus >= plus else (b, a, plus)
        return (f"SPRT result: {better} is better than {worse}: H1 accepted {where}, "
                f"LLR {llr:.2f} >= {s['upper']:.2f}")
    if s["decision"] == "H0":
        return (f"SPRT result: neither is better by {s['effect']:g} points or more: H0 accepted "
                f"{where}, both LLRs <= {s['lower']:.2f}")
    return (f"SPRT result: undecided {where}: LLR A better {minus:+.2f}, A worse {plus:+.2f} "
            f"within ({s['lower']:.2f}, {s['upper']:.2f}); play more with a larger --games")


def register(group: click.Group) -> None:
    """Add ``compare`` to the CLI group."""

    @group.command("compare")
    @click.argument("a", required=False)
    @click.argument("b", required=False)
    @click.option("--games", "-n", type=Count(min=2), default=2_000, show_default=True,
                  help="Deals to play (each in five lineups); with --sprt, the most to play.")
    @click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                  help="Run seed: deals depend only on (seed, game index, contract number).")
    @click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
                  help="Worker processes [default: all cores].")
    @click.option("--sprt", is_flag=True,
                  help="Play in rounds and stop as soon as the sequential test decides.")
    @click.option("--effect", type=click.FloatRange(min=0, min_open=True), default=20.0,
                  show_default=True, help="SPRT: the difference (points per game) H1 asserts.")
    @click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
                  default=0.05, show_default=True,
                  help="SPRT: chance of declaring a difference when there is none.")
    @click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True),
                  default=0.05, show_default=True,
                  help="SPRT: chance of missing a difference of --effect points.")
    @click.option("--round", "round_deals", type=click.IntRange(min=1), default=500,
                  show_default=True, help="SPRT: deals per round between two checks.")
    @click.option("--out", "-o", type=click.Path(path_type=Path), default=None,
                  help="Run folder to write [default: a new folder under runs/].")
    @click.option("--plots/--no-plots", default=True, show_default=True,
                  help="Also write the full plot report to OUT/report/.")
    @click.option("--force", is_flag=True,
                  help="Replace an existing comparison folder (one trixsim created).")
    @click.option("--resume", "resume_dir", type=click.Path(path_type=Path), default=None,
                  help="Finish an interrupted comparison in this folder (its own settings, "
                       "A and B included).")
    @click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
    @backend_options(chunks=True)
    @game_option
    def compare_cmd(a: str | None, b: str | None, games: int, seed: int, workers: int | None,
                    sprt: bool, effect: float, alpha: float, beta: float, round_deals: int,
                    out: Path | None, plots: bool, force: bool, resume_dir: Path | None,
                    quiet: bool, scheduler: str | None, backend: str | None,
                    shared_out: bool, game: str) -> None:
        """Compare strategy A with strategy B on duplicate deals.

        Every deal is played five times on the same cards: A in seat 0, 1, 2 or 3 with B in
        the other seats, and B in all four. The result is A's mean final total minus B's in
        the same seat on the same deals (negative: A is better, since the lowest total
        wins), with a 95% confidence interval over deals (the four seat differences of a
        deal are averaged; deals are independent); the win and loss rates of each with
        Wilson intervals; and the picker's mean points by contract, A picking against B
        picking in the same seats.

        With --sprt, deals are played in rounds of --round and play stops as soon as a
        sequential probability ratio test decides between H0: the mean per-deal
        difference is 0, and H1: its size is at least --effect points (two one-sided Wald
        tests at alpha/2 each, normal approximation with the variance estimated from the
        deals so far). About --alpha of tests on equal strategies end in H1 and about
        --beta of tests with a true difference of --effect end in H0. If --games deals are
        played first, the result is "undecided".

        Writes a run folder (as trixsim run) with compare.json, report.md and, with
        --plots, the full report in report/. With --scheduler the games are played on a
        Dask cluster (same results).
        """
        # the library (numba, pyarrow, matplotlib) loads only when the command runs
        from trixsim.reports import compare as compare_lib
        from trixsim.reports.report import ReportError, game_title, write_report
        from trixsim.reports.stats import SPRT
        from trixsim.reports.tables import RunReadError
        from trixsim.runfolder import RunDataError, game_name, read_run
        from trixsim.runner import RunError, RunFolderError
        from trixsim.sim import StrategyError

        if resume_dir is not None:
            out = resume_dir
            try:
                settings = compare_lib.settings_of(out)
            except RunDataError as exc:
                raise folder_failed(exc) from None
            except (RunFolderError, KeyError):
                raise click.BadParameter(f"{out} is not a comparison folder",
                                         param_hint="--resume") from None
            given = tuple(x.strip() for x in (a, b) if x is not None)
            if given and given != (settings["a"], settings["b"])[:len(given)]:
                raise click.BadParameter(f"{out} compares {settings['a']} with "
                                         f"{settings['b']}", param_hint="--resume")
            a, b = settings["a"], settings["b"]
            sprt = settings["sprt"] is not None
            games = int(settings["games"])
        else:
            if a is None or b is None:
                raise click.UsageError("give the two strategies to compare, A and B")
            a = _spec(a, "A", game)
            b = _spec(b, "B", game)
            out = out or Path("runs") / f"compare-{time.strftime('%Y%m%d-%H%M%S')}"
            try:
                check_new_output(out, ("compare",), force)
            except FolderError as exc:
                raise click.UsageError(str(exc)) from None
        test = SPRT(effect=effect, alpha=alpha, beta=beta) if sprt else None
        n_workers = workers or os.cpu_count() or 1
        bar, advance = games_bar(5 * games, quiet)

        from trixsim.games import get_game

        higher = get_game(game_name(read_run(out)) if resume_dir is not None
                          else game).higher_is_better

        def progress(deals: int, decision: str | None, diffs: np.ndarray) -> None:
            if test is not None:
                click.echo(sprt_status(test, deals, diffs, decision, higher), err=True)

        where = open_backend(scheduler, backend, workers, shared_out, quiet=quiet)
        try:
            with where, bar:
                if resume_dir is not None:
                    result = compare_lib.resume(out, n_workers, progress, advance, where)
                else:
                    result = compare_lib.compare(
                        a, b, games, seed, out, workers=n_workers, force=force, sprt=test,
                        round_deals=round_deals, command=sys.argv, progress=progress,
                        on_games=advance, backend=where, game=game)
            if plots:
                played = game_name(read_run(out))  # a resumed comparison's own game
                write_report([out], out / "report", force=True,
                             title=f"{game_title(played)} strategy report: {a} against {b}",
                             intro=result.doc())
        except FolderLocked as exc:
            raise click.ClickException(str(exc)) from None
        except FolderError as exc:
            raise click.UsageError(str(exc)) from None
        except (StrategyError, RunError, RunFolderError, RunReadError, ReportError) as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            raise interrupted(out, f"trixsim compare --resume {shlex.quote(str(out))}"
                              ) from None
        except OSError as exc:
            raise write_failed(out, exc) from None
        d = result.diff
        click.echo(f"{result.deals:,} deals, {a} (A) against {b} (B)")
        click.echo(f"A - B mean final {result.score_word}: {d.mean:.1f}  95% [{d.lo:.1f}, "
                   f"{d.hi:.1f}]  (s.e. {d.se:.1f}): {result.verdict()}")
        for who, name in (("A", a), ("B", b)):
            r = result.rates[who]
            click.echo(f"{who} {name}: won {100 * r['win'][0]:.1f}% "
                       f"[{100 * r['win'][1]:.1f}, {100 * r['win'][2]:.1f}], lost "
                       f"{100 * r['loss'][0]:.1f}% [{100 * r['loss'][1]:.1f}, "
                       f"{100 * r['loss'][2]:.1f}]")
        if result.sprt is not None:
            s = result.sprt
            click.echo(f"SPRT (H1: |A - B| >= {s['effect']:g}, alpha {s['alpha']:g}, beta "
                       f"{s['beta']:g}): {s['decision']}")
            click.echo(sprt_result(a, b, result))
        click.echo(f"written to {out}/ (run tables, compare.json, report.md"
                   f"{', report/' if plots else ''})")

    del compare_cmd
