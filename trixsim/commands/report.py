"""``trixsim report RUN_DIR ...``: plots and summaries of one or more run folders."""

from __future__ import annotations

from pathlib import Path

import click

from trixsim.commands import write_failed


def register(group: click.Group) -> None:
    """Add ``report`` to the CLI group."""

    @group.command("report")
    @click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
    @click.option("--out", "-o", type=click.Path(path_type=Path), required=True,
                  help="Report folder to write (e.g. reports/NAME).")
    @click.option("--strategies", "-s", default="",
                  help="Comma-separated strategy specs to show (default: all in the runs).")
    @click.option("--title", default=None,
                  help="Title of the report [default: GAME strategy report].")
    @click.option("--force", is_flag=True, help="Replace an existing report folder.")
    def report_cmd(runs: tuple[Path, ...], out: Path, strategies: str, title: str | None,
                   force: bool) -> None:
        """Write PNG plots, report.md and index.html for the run folders RUNS.

        RUNS are run folders (trixsim run or compare) or tournament folders (their pair
        runs are read). Games on the same deal (same seed and game index) are paired seat
        by seat, so strategies are compared on equal cards: a one-page summary says, per
        aspect (overall, contracts picked, K♥ declaration, trix timing), which strategy
        is better and by how much, with 95% intervals over deals, or that the data cannot
        tell. Then per-run and per-lineup tables, the per-aspect tables, and the
        behaviour of each strategy pooled over its games (results per seat, contract
        ordering, declarations, trix timing, points of every contract). Also writes
        verdicts.csv and lineups.csv. A run given twice (or a copy of it) is refused; an
        incomplete run is reported as such.
        """
        # the library (numba, pyarrow, matplotlib) loads only when the command runs
        from trixsim.loading import split_specs
        from trixsim.reports.report import ReportError, write_report
        from trixsim.reports.tables import RunDamagedError, RunReadError

        notes: list[str] = []
        try:
            files = write_report(runs, out, force=force, title=title, notes=notes,
                                 strategies=split_specs(strategies) if strategies else ())
        except RunDamagedError as exc:
            raise click.ClickException(str(exc)) from None
        except (RunReadError, ReportError) as exc:
            raise click.UsageError(str(exc)) from None
        except OSError as exc:
            raise write_failed(out, exc) from None
        for line in notes:
            click.echo(f"note: {line}")
        click.echo(f"report written to {out}/ ({len(files)} files: index.html, report.md, "
                   f"{sum(f.suffix == '.png' for f in files)} plots)")

    del report_cmd
