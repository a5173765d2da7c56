"""``trixsim run``: play many games in parallel and write the outcome tables to Parquet."""

from __future__ import annotations

import errno
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from trixsim.commands import folder_failed, interrupted, write_failed
from trixsim.commands.options import (
    Count,
    backend_options,
    default_lineup,
    game_option,
    open_backend,
)
from trixsim.folders import FolderError, FolderLocked, check_new_output

if TYPE_CHECKING:
    from trixsim.pool import Backend
    from trixsim.runner import RunConfig, RunSummary, RunWriter

DEFAULT_STRATEGIES = "heuristic"
"""Trix's default lineup (another game's: its heuristic if it has one, else random)."""


def fresh_out(kind: str = "run") -> Path:
    """A new folder under runs/ named after the kind and the current time."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path("runs") / f"{kind}-{stamp}"
    k = 1
    while out.exists():
        k += 1
        out = Path("runs") / f"{kind}-{stamp}-{k}"
    return out


def _print_summary(summary: RunSummary, out: Path) -> None:
    from trixsim.games import get_game

    game = get_game(summary.game)
    secs = max(summary.seconds, 1e-9)
    rows = [t for t in sorted(game.table_schemas) if t != "games"]
    if rows:  # Trix: its contracts, as before
        click.echo(f"{summary.games:,} games, {summary.rows:,} {rows[0]} in "
                   f"{summary.seconds:.2f} s ({summary.games / secs:,.0f} games/s, "
                   f"{summary.rows / secs:,.0f} {rows[0]}/s)")
    else:
        click.echo(f"{summary.games:,} games of {game.name} in {summary.seconds:.2f} s "
                   f"({summary.games / secs:,.0f} games/s)")
    better = "higher" if game.higher_is_better else "lower"
    click.echo(f"{'strategy':<40}{'seatings':>10}{'mean ' + game.score_word:>12}"
               f"{'± s.e.':>9}{'won':>8}{'lost':>8}   ({better} is better)")
    for st in summary.strategies.values():
        n = max(st.seatings, 1)
        click.echo(f"{st.spec:<40}{st.seatings:>10,}{st.mean:>12.1f}{st.stderr:>9.1f}"
                   f"{st.wins / n:>8.1%}{st.losses / n:>8.1%}")
    folders = ", ".join(f"{t}/" for t in sorted(game.table_schemas))
    click.echo(f"tables written to {out}/ ({folders}, run.json, run.log)")


def lineup_notes(lineups: tuple[str, ...], rotate: bool) -> list[str]:
    """Notes on lineups that do less than they seem to: one given twice (played twice, the
    same games again) and ``--rotate`` where every lineup is one strategy (nothing to
    rotate)."""
    from trixsim.runner import expand_lineups

    seats = [tuple(expand_lineups([line], False)[0]) for line in lineups]
    notes = []
    for k, lu in enumerate(seats):
        if lu in seats[:k]:
            notes.append(f"lineup {k + 1} ({','.join(lu)}) repeats lineup {seats.index(lu) + 1}"
                         ": it is played twice, on the same deals, and gives the same games")
    if rotate and all(len(set(lu)) == 1 for lu in seats):
        notes.append("--rotate changes nothing when every lineup is one strategy at all four "
                     "seats: each is played once (to compare A with B, rotate a lineup such "
                     "as B,A,A,A)")
    return notes


def _positive(value: int | None, name: str) -> None:
    if value is not None and value <= 0:
        raise click.BadParameter("must be a positive number", param_hint=name)


def register(group: click.Group) -> None:
    """Add ``run`` to the CLI group."""

    @group.command("run")
    @click.option("--games", "-n", type=Count(), default=10_000, show_default=True,
                  help="Number of deals (game indices); each lineup plays every one.")
    @click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                  help="Run seed: deals depend only on (seed, game index, contract number).")
    @click.option("--strategies", "-s", "lineups", multiple=True,
                  help="A lineup: one strategy spec for all seats or four comma-separated "
                       "(seats 0-3). Repeat for several lineups, all on the same deals. "
                       "[default: the game's heuristic, else random]")
    @click.option("--rotate", is_flag=True,
                  help="Also play every lineup with its seats rotated (same deals), so each "
                       "strategy sits in every seat equally often.")
    @click.option("--workers", "-j", type=int, default=None,
                  help="Worker processes [default: all cores].")
    @click.option("--batch-size", type=Count(), default=10_000, show_default=True,
                  help="At most this many games per engine batch and per chunk file "
                       "(chunks are smaller, down to 2,000 games, to give each worker about "
                       "four, and smaller where a seated search asks for it: expert 250); "
                       "results do not depend on it.")
    @click.option("--first-game", type=click.IntRange(0, 2**62), default=0, show_default=True,
                  help="Index of the first game (to extend an earlier run).")
    @click.option("--out", "-o", type=click.Path(path_type=Path), default=None,
                  help="Output folder [default: a new folder under runs/].")
    @click.option("--force", is_flag=True, help="Replace an existing output folder.")
    @click.option("--resume", type=click.Path(path_type=Path), default=None,
                  help="Complete an interrupted run in this folder (its own settings).")
    @click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
    @backend_options(chunks=True)
    @game_option
    @click.pass_context
    def run_cmd(ctx: click.Context, games: int, seed: int, lineups: tuple[str, ...],
                rotate: bool, workers: int | None, batch_size: int, first_game: int,
                out: Path | None, force: bool, resume: Path | None, quiet: bool,
                scheduler: str | None, backend: str | None, shared_out: bool,
                game: str) -> None:
        """Play games bot against bot and write the game's outcome tables.

        Every lineup plays the same deals; the tables go to Parquet datasets in the output
        folder (Trix: contracts/, games/; trump7: games/), with run.json (game, settings,
        lineups, finished chunks) and run.log. Interrupted runs keep their finished
        chunks; --resume completes them.
        With --scheduler the chunks are played on a Dask cluster (same tables).
        """
        # the library (numba, pyarrow) loads only when the command runs
        from trixsim.loading import StrategyLoadError, load_seats
        from trixsim.runner import RunConfig, RunFolderError, RunWriter, expand_lineups, read_run

        _positive(games, "--games")
        _positive(workers, "--workers")
        _positive(batch_size, "--batch-size")
        n_workers = workers or os.cpu_count() or 1
        if resume is not None:
            try:
                read_run(resume)
            except RunFolderError as exc:
                raise folder_failed(exc, "--resume") from None
            with open_backend(scheduler, backend, workers, shared_out, quiet=quiet) as where:
                _go(lambda: RunWriter.reopen(resume), resume, where, quiet)
            return
        lineups = lineups or (default_lineup(game),)
        try:
            seatings = expand_lineups(lineups, rotate)
            for seats in seatings:
                load_seats(",".join(seats), game)
        except (StrategyLoadError, ValueError) as exc:
            raise click.BadParameter(str(exc), param_hint="--strategies") from None
        if len(seatings) > 127:
            raise click.BadParameter("at most 127 lineups", param_hint="--strategies")
        for note in lineup_notes(lineups, rotate):
            click.echo(f"note: {note}", err=True)
        out = out or fresh_out()
        try:
            check_new_output(out, ("run",), force)
        except FolderError as exc:
            raise click.UsageError(str(exc)) from None
        with open_backend(scheduler, backend, workers, shared_out, quiet=quiet) as where:
            cfg = RunConfig(games=games, seed=seed, lineups=lineups, game=game,
                            batch_size=batch_size,
                            workers=where.parallelism if where.remote else n_workers,
                            first_game=first_game, rotate=rotate)
            _go(lambda: _create(cfg, out, force), out, where, quiet)

    del run_cmd


def _create(cfg: RunConfig, out: Path, force: bool) -> RunWriter:
    """The new run folder; a folder that cannot be created is a usage error (nothing is
    written), like any refused output."""
    from trixsim.runner import RunWriter

    try:
        return RunWriter.create(cfg, out, force=force)
    except FolderLocked:
        raise
    except FolderError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise write_failed(out, exc) from None
        raise click.UsageError(f"cannot write {out}: {exc.strerror or exc}") from None


def _go(open_writer: Callable[[], RunWriter], out: Path, backend: Backend, quiet: bool) -> None:
    """Open the run folder, play what is missing with a progress bar on a terminal, and
    turn library errors into one-line messages with the documented exit codes."""
    from trixsim.runner import RunError, RunFolderError
    from trixsim.sim import StrategyError

    try:
        with open_writer() as writer:
            for damage in writer.repaired:
                click.echo(f"{out}: {damage}: playing it again", err=True)
            todo = writer.todo()
            if not todo and writer.meta.get("complete"):
                click.echo(f"{out} is already complete (every chunk verified)")
                return
            summary = _play(writer, todo, backend, quiet)
    except FolderLocked as exc:
        raise click.ClickException(str(exc)) from None
    except RunFolderError as exc:
        raise click.ClickException(str(exc)) from None
    except StrategyError as exc:
        raise click.ClickException(f"{exc} (finished chunks kept in {out})") from None
    except RunError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        raise interrupted(out, f"trixsim run --resume {out}") from None
    except OSError as exc:
        raise write_failed(out, exc) from None
    _print_summary(summary, out)


def compile_notice(stream: TextIO) -> Callable[[str, bool], None]:
    """Show the first run's compilation: a ticking line on a terminal, else two lines."""
    tty = stream.isatty()

    def notice(text: str, replace: bool) -> None:
        if tty:
            stream.write(("\r\x1b[K" if replace else "") + text)
            if text.startswith("compiled"):
                stream.write("\n")
            stream.flush()
        elif not replace or text.startswith("compiled"):
            stream.write(text + "\n")
            stream.flush()
    return notice


def _play(writer: RunWriter, todo: list, backend: Backend, quiet: bool) -> RunSummary:
    """Play the missing chunks, with a progress bar with games/s on a terminal."""
    total = sum(b - a for _, a, b in todo)
    show = sys.stderr.isatty() and not quiet
    if not quiet:
        writer.warm_up(compile_notice(sys.stderr))
    if not show:
        return writer.play(backend=backend)
    bar = click.progressbar(length=total, label="games", file=sys.stderr, show_eta=True,
                            show_pos=True)
    t0 = time.perf_counter()

    def advance(n: int) -> None:
        rate = (bar.pos + n) / max(time.perf_counter() - t0, 1e-9)
        bar.label = f"{rate:,.0f} games/s"
        bar.update(n)

    with bar:
        return writer.play(progress=advance, backend=backend)
