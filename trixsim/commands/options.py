"""Options shared by the commands that play games: where the games run.

``@backend_options`` adds ``--scheduler`` and ``--backend`` (and, with ``chunks=True``,
``--shared-out``) to a command, and ``open_backend`` turns their values into a
``trixsim.pool.Backend``: local processes by default, a Dask cluster when asked for. The
command then passes the backend to the library (``RunWriter.play``, ``compare``, or a
``concurrent.futures`` executor from ``backend.executor(specs)``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from trixsim.pool import Backend

F = TypeVar("F", bound=Callable[..., Any])


class Count(click.ParamType):
    """A whole number of games written as people write them: ``1000000``, ``1_000_000`` or
    ``1e6`` (``2.5e5`` too, when it is whole), at least ``min`` when one is given."""

    name = "integer"

    def __init__(self, min: int | None = None) -> None:  # noqa: A002 - as click.IntRange
        self.min = min

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int):
            n = value
        else:
            text = str(value).strip()
            try:
                n = int(text)
            except ValueError:
                try:
                    x = float(text.replace("_", ""))
                except ValueError:
                    x = float("nan")
                if not (x == x and x.is_integer() and abs(x) < 2**63):
                    self.fail(f"{value!r} is not a whole number (write 1000000, 1_000_000 "
                              f"or 1e6)", param, ctx)
                n = int(x)
        if self.min is not None and n < self.min:
            self.fail(f"{n} is smaller than the minimum {self.min}", param, ctx)
        return n


def backend_options(chunks: bool = False) -> Callable[[F], F]:
    """Add ``--scheduler`` and ``--backend`` to a command (their values arrive as the
    ``scheduler`` and ``backend`` arguments); with ``chunks``, also ``--shared-out``
    (argument ``shared_out``) for commands that write run folders."""

    def decorate(fn: F) -> F:
        if chunks:
            fn = click.option(
                "--shared-out", is_flag=True,
                help="With Dask: the output folder is at the same path on every worker "
                     "(a shared file system), so workers write the chunk files there "
                     "themselves instead of sending them back.")(fn)
        fn = click.option(
            "--backend", type=click.Choice(["local", "dask"]), default=None,
            help="Where the games run: local worker processes, or Dask (the cluster of "
                 "--scheduler, else a local one of --workers processes; needs "
                 "trixsim[dask]).  [default: local, or dask with --scheduler]")(fn)
        fn = click.option(
            "--scheduler", metavar="tcp://HOST:PORT", default=None,
            help="Send the games to the running Dask cluster of this scheduler (see "
                 "`dask scheduler` and `dask worker`); the results are the same as "
                 "locally.")(fn)
        return fn

    return decorate


def open_backend(scheduler: str | None, backend: str | None, workers: int | None,
                 shared_out: bool = False, *, quiet: bool = True) -> Backend:
    """The backend the options name (connected, or its local cluster started); a usage
    error (exit 2, one line) when it cannot be used: Dask not installed (with the command
    that installs it), an unreachable scheduler, contradictory options. Unless ``quiet``,
    a remote backend is named on stderr, so that people see where their games go."""
    from trixsim.backend import BackendError, make_backend

    if scheduler is not None and "://" not in scheduler and ":" not in scheduler:
        raise click.BadParameter("give the scheduler's address as tcp://HOST:PORT",
                                 param_hint="--scheduler")
    try:
        where = make_backend(scheduler, backend, workers, shared_out)
    except BackendError as exc:
        raise click.UsageError(str(exc)) from None
    if where.remote and not quiet:
        click.echo(f"playing on {where.describe()}", err=True)
    return where


def games_bar(games: int, quiet: bool) -> tuple[ContextManager[Any], Callable[[int], None]]:
    """A progress bar of ``games`` on a terminal (nothing when ``quiet`` or piped), and
    the callback that advances it by a number of finished games."""
    if quiet or not sys.stderr.isatty():
        return contextlib.nullcontext(), lambda n: None
    bar = click.progressbar(length=games, label="games", file=sys.stderr, show_pos=True)
    return bar, bar.update


__all__ = ["Count", "backend_options", "games_bar", "open_backend"]


DEFAULT_GAME = "trix"
"""The game a command plays when ``--game`` is not given (the command line's default only:
the library always names its game)."""


def _check_game(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from trixsim.games import UnknownGameError, get_game

    try:
        get_game(value)
    except UnknownGameError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return value


def game_option(f: F) -> F:
    """Add ``--game NAME`` (a registered game; default trix) to a command."""
    return click.option("--game", "game", default=DEFAULT_GAME, show_default=True,
                        metavar="NAME", callback=_check_game,
                        help="The game: a name registered in trixsim.games (trix, trump7, "
                             "trump7-bid, ...).")(f)


def default_lineup(game: str) -> str:
    """The strategy a command seats when none is named: the game's ``heuristic`` when it
    has one, else ``random``."""
    from trixsim.strategy_find import strategy_exists

    return "heuristic" if strategy_exists("heuristic", game) else "random"
