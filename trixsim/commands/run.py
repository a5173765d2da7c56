"""``trixsim run``: play many games in parallel and write outcome tables to Parquet."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import click

from trixsim.loading import StrategyLoadError, load_seats
from trixsim.runner import RunConfig, RunSummary, run
from trixsim.sim import StrategyError

DEFAULT_STRATEGIES = "heuristic,random,random,random"


def _print_summary(summary: RunSummary) -> None:
    click.echo(f"{summary.games:,} games, {summary.contracts:,} contracts in "
               f"{summary.seconds:.2f} s ({summary.contracts / max(summary.seconds, 1e-9):,.0f} "
               f"contracts/s, {summary.games / max(summary.seconds, 1e-9):,.0f} games/s)")
    click.echo(f"{'seat':<5}{'strategy':<32}{'mean total':>12}{'± s.e.':>9}{'won':>8}{'lost':>8}")
    for s, seat in enumerate(summary.seats):
        n = max(summary.games, 1)
        click.echo(f"{s:<5}{seat.label:<32}{summary.mean(s):>12.1f}{summary.stderr(s):>9.1f}"
                   f"{seat.wins / n:>8.1%}{seat.losses / n:>8.1%}")


def register(group: click.Group) -> None:
    """Add ``run`` to the CLI group."""

    @group.command("run")
    @click.option("--games", "-n", type=int, default=10_000, show_default=True,
                  help="Number of complete games to play.")
    @click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                  help="Run seed: deals depend only on (seed, game index, contract number).")
    @click.option("--strategies", "-s", default=DEFAULT_STRATEGIES, show_default=True,
                  help="One strategy spec for all seats, or four comma-separated (seats 0-3).")
    @click.option("--workers", "-j", type=int, default=None,
                  help="Worker processes [default: all cores].")
    @click.option("--batch", type=int, default=10_000, show_default=True,
                  help="Games per engine batch (results do not depend on it).")
    @click.option("--first-game", type=click.IntRange(0, 2**62), default=0, show_default=True,
                  help="Index of the first game (to extend an earlier run).")
    @click.option("--out", "-o", type=click.Path(path_type=Path), default=Path("trixsim-run"),
                  show_default=True, help="Output directory for the Parquet tables.")
    @click.option("--force", is_flag=True, help="Replace an existing output directory.")
    @click.option("--verbose", "-v", is_flag=True, help="Log progress of every chunk.")
    def run_cmd(games: int, seed: int, strategies: str, workers: int | None, batch: int,
                first_game: int, out: Path, force: bool, verbose: bool) -> None:
        """Play GAMES games bot against bot and write per-contract and per-game tables."""
        if games <= 0:
            raise click.BadParameter("must be a positive number of games", param_hint="--games")
        if batch <= 0:
            raise click.BadParameter("must be positive", param_hint="--batch")
        if workers is not None and workers <= 0:
            raise click.BadParameter("must be positive", param_hint="--workers")
        if out.exists() and not force:
            raise click.UsageError(f"{out} already exists (use --force to replace it)")
        if out.exists() and not out.is_dir():
            raise click.UsageError(f"{out} exists and is not a directory")
        try:
            load_seats(strategies)
        except StrategyLoadError as exc:
            raise click.BadParameter(str(exc), param_hint="--strategies") from None
        if verbose:
            import multiprocessing_logging

            logging.basicConfig(level=logging.DEBUG, format="%(processName)s %(message)s")
            multiprocessing_logging.install_mp_handler()
        cfg = RunConfig(games=games, seed=seed, strategies=strategies, batch=batch,
                        workers=workers or os.cpu_count() or 1, first_game=first_game)
        show = sys.stderr.isatty() and not verbose
        bar = click.progressbar(length=games, label="playing", file=sys.stderr,
                                show_eta=True, show_pos=True) if show else None
        try:
            if bar is None:
                summary = run(cfg, out, force=force)
            else:
                with bar:
                    summary = run(cfg, out, force=force, progress=bar.update)
        except StrategyError as exc:
            raise click.ClickException(str(exc)) from None
        except OSError as exc:
            raise click.UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
        _print_summary(summary)
        click.echo(f"tables written to {out}/ (contracts.parquet, games.parquet, run.json)")

    del run_cmd
