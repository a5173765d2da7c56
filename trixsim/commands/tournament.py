"""``trixsim tournament SPEC SPEC ...``: every pair on duplicate deals, then a ranking."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import click

from trixsim.commands import interrupted, write_failed
from trixsim.commands.compare import _spec
from trixsim.commands.options import Count, backend_options, game_option, games_bar, open_backend
from trixsim.folders import FolderError, FolderLocked, check_new_output


def register(group: click.Group) -> None:
    """Add ``tournament`` to the CLI group."""

    @group.command("tournament")
    @click.argument("specs", nargs=-1)
    @click.option("--games", "-n", type=Count(min=2), default=1_000,
                  show_default=True, help="Deals per pair (each played in ten lineups).")
    @click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                  help="Seed of the first pair; pair k plays on seed + k.")
    @click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
                  help="Worker processes [default: all cores].")
    @click.option("--out", "-o", type=click.Path(path_type=Path), default=None,
                  help="Tournament folder to write [default: a new folder under runs/].")
    @click.option("--plots/--no-plots", default=True, show_default=True,
                  help="Also write the full plot report to OUT/report/.")
    @click.option("--force", is_flag=True,
                  help="Replace an existing tournament folder (one trixsim created).")
    @click.option("--resume", "resume_dir", type=click.Path(path_type=Path), default=None,
                  help="Finish an interrupted tournament in this folder (its own settings).")
    @click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
    @backend_options(chunks=True)
    @game_option
    def tournament_cmd(specs: tuple[str, ...], games: int, seed: int, workers: int | None,
                       out: Path | None, plots: bool, force: bool, resume_dir: Path | None,
                       quiet: bool, scheduler: str | None, backend: str | None,
                       shared_out: bool, game: str) -> None:
        """Rank strategies by playing every pair of them on duplicate deals.

        Each pair A, B gets a run folder OUT/pair-NN-A-vs-B holding ten lineups on the
        same deals: A in each seat against three B, B in each seat against three A, four A
        and four B (pair NN on seed + NN, so pairs never share games). The ranking gives
        the mean difference matrix (row minus column final total per game, 95% intervals
        over deals; negative: the row is better), each strategy's mean difference to the
        field, and a Bradley-Terry rating on the Elo scale fitted to who did better on
        each deal, with 95% intervals from resampling deals. Writes tournament.json,
        report.md and, with --plots, the full report (verdicts per aspect) in OUT/report/;
        `trixsim report OUT` reads the pairs again. With --scheduler the games are played
        on a Dask cluster (same results).
        """
        # the library (numba, pyarrow, matplotlib) loads only when the command runs
        from trixsim.reports import tournament as lib
        from trixsim.reports import verdict_plots
        from trixsim.reports.report import ReportError, game_title, write_report
        from trixsim.reports.tables import RunReadError
        from trixsim.runner import RunError, RunFolderError
        from trixsim.sim import StrategyError

        if resume_dir is not None:
            out = resume_dir
            try:
                settings = lib.read_settings(out)
            except lib.TournamentError as exc:
                raise click.BadParameter(str(exc), param_hint="--resume") from None
            names = list(settings["strategies"])
            games = int(settings["games"])
        else:
            names = [_spec(s, "SPEC", game) for s in specs]
            if len(names) < 2 or len(set(names)) != len(names):
                raise click.UsageError("give at least two different strategy specs")
            out = out or Path("runs") / f"tournament-{time.strftime('%Y%m%d-%H%M%S')}"
            try:
                check_new_output(out, ("tournament",), force)
            except FolderError as exc:
                raise click.UsageError(str(exc)) from None
        n_pairs = len(names) * (len(names) - 1) // 2
        bar, advance = games_bar(10 * games * n_pairs, quiet)
        where = open_backend(scheduler, backend, workers, shared_out, quiet=quiet)

        def on_pair(done: list[Path]) -> None:
            if not quiet:
                click.echo(f"\npair {len(done)}/{n_pairs} done", err=True)
                for line in lib.standings(done, names):
                    click.echo(line, err=True)

        try:
            with where, bar:
                folders = lib.play(names, games, seed, out, workers or os.cpu_count() or 1,
                                   force=force, command=sys.argv, on_games=advance,
                                   backend=where, resume=resume_dir is not None,
                                   on_pair=on_pair, game=game)
            ranking = lib.read_ranking(folders, names)
            lib.write(ranking, out)
            if plots:
                write_report(folders, out / "report", force=True, strategies=names,
                             title=f"{game_title(lib.read_settings(out).get('game', 'trix'))} "
                                   "tournament: " + ", ".join(names),
                             intro=ranking.doc(),
                             intro_plots=lambda d: verdict_plots.ranking(ranking, d))
        except FolderLocked as exc:
            raise click.ClickException(str(exc)) from None
        except (FolderError, lib.TournamentError) as exc:
            raise click.UsageError(str(exc)) from None
        except (StrategyError, RunError, RunFolderError, RunReadError, ReportError) as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            raise interrupted(out, f"trixsim tournament --resume {shlex.quote(str(out))}"
                              ) from None
        except OSError as exc:
            raise write_failed(out, exc) from None
        click.echo(f"{games:,} deals per pair, {n_pairs} pairs")
        for rank, i in enumerate(ranking.order(), 1):
            f = ranking.vs_field[i]
            click.echo(f"{rank}. {names[i]}: rating {ranking.rating_text(i)}, vs the "
                       f"field {f.mean:.1f} [{f.lo:.1f}, {f.hi:.1f}] points per game")
        for (i, j), (w, lo, t) in ranking.record.items():
            click.echo(f"{names[i]} vs {names[j]}: {names[i]} better on {w:,} deals, "
                       f"{names[j]} on {lo:,}, same on {t:,}")
        if ranking.sweeps:
            click.echo("note: " + ranking.sweep_note().replace("`", ""))
        click.echo(f"written to {out}/ (pair run folders, tournament.json, report.md"
                   f"{', report/' if plots else ''})")

    del tournament_cmd
