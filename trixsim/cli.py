"""The ``trixsim`` command line: a thin click layer over the library.

Each subcommand lives in its own module under trixsim/commands; this module only wires
them together and turns library errors into one-line messages.

The subcommand modules are imported lazily, only when their command runs (or its
``--help`` is asked for): the library behind them loads numba, pyarrow, pandas and
matplotlib, which took over a second before ``trixsim --help`` could print anything.
The command listing of ``trixsim --help`` is built from the COMMANDS table instead.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import sys
import threading
from gettext import gettext
from typing import NoReturn

import click

from trixsim import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("check", "Verify FOLDER, any folder trixsim writes; changes nothing."),
    "compare": ("compare", "Compare strategy A with strategy B on duplicate deals."),
    "play": ("play", "Play Trix or trump7 at the terminal, you against three bots."),
    "record": ("record", "Play games and write each one as a record (one JSON line): "
                         "Trix's trixsim-transcript/1, or the trixsim-record/1 envelope "
                         "of any game (--format)."),
    "replay": ("record", "Check every record of FILE against the rules engine, or show one "
                         "game."),
    "report": ("report", "Write PNG plots, report.md and index.html for the run folders "
                         "RUNS."),
    "run": ("run", "Play games bot against bot and write the game's outcome tables."),
    "serve": ("serve", "Serve web tables where people and bots play Trix or trump7 in the "
              "browser."),
    "tournament": ("tournament", "Rank strategies by playing every pair of them on "
                                 "duplicate deals."),
    "train": ("train", "Train expert's learned policy by expert iteration."),
    "tune": ("tune", "Tune a strategy's numeric parameters with SPSA on duplicate deals."),
    "strategies": ("strategies", "List the strategies of a game (--game): bundled ones and "
                                 "those installed through the 'trixsim.strategies' entry "
                                 "point, with their descriptions and parameters."),
}
"""Command name -> (its module in trixsim.commands, the first sentence of its help).

The sentence is all click uses for the command listing, so the listing is the same as
with the commands loaded (tests/test_startup.py checks that it matches their help)."""

# click >= 8.4 suggests close command names ("Did you mean 'run'?") from the loaded
# commands only; older versions raise a plain UsageError and suggest nothing.
_NoSuchCommand: type[click.UsageError] | tuple[()] = getattr(
    click.exceptions, "NoSuchCommand", ())


def _listed(name: str) -> click.Command:
    """A stand-in for command ``name`` in the listing: its name and short help only."""
    return click.Command(name, help=COMMANDS[name][1])


class _Group(click.Group):
    """A click group whose usage errors print as one line: ``Error: <what is wrong>``.

    Its commands come from the COMMANDS table: a command's module is imported, and its
    commands registered, the first time the command is looked up to run.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, loaded or not, sorted as click sorts them."""
        return sorted(set(self.commands) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``, importing its module on first use (None: unknown)."""
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module = importlib.import_module(f"trixsim.commands.{COMMANDS[cmd_name][0]}")
            loaded = click.Group()
            module.register(loaded)
            for name, cmd in loaded.commands.items():
                self.commands.setdefault(name, cmd)
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's lookup, with "Did you mean" suggestions from unloaded commands too."""
        try:
            return super().resolve_command(ctx, args)
        except _NoSuchCommand as exc:  # suggest from every command, loaded or not
            raise _NoSuchCommand(exc.command_name, exc.message,
                                 possibilities=self.list_commands(ctx), ctx=exc.ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command listing, as click writes it, without importing unloaded commands."""
        commands = [(name, self.commands[name] if name in self.commands else _listed(name))
                    for name in self.list_commands(ctx)]
        commands = [(name, cmd) for name, cmd in commands if not cmd.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section(gettext("Commands")):
                formatter.write_dl([(name, cmd.get_short_help_str(limit))
                                    for name, cmd in commands])

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            exc.ctx = None  # drop the usage/help lines click would print before the error
            raise


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trixsim")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Simulate card games bot against bot (Trix by default; trump7 and any registered game
    with --game), record games, compare and tune strategies, play at a table."""
    ctx.ensure_object(dict)


def main() -> None:
    """Console-script entry point. Once the command has finished (its files closed, its
    exit handlers run, no other thread left), the process ends without the interpreter's
    teardown of every module, which with the compiled kernels loaded took 0.16 s: 5% of a
    1,000,000-game trump7 run."""
    try:
        cli(obj={})
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    end_process(code)


def end_process(code: object) -> NoReturn:
    """Exit with ``code`` (as ``sys.exit`` reads it) after the exit handlers and a flush of
    the standard streams, skipping the interpreter's teardown; where a thread besides this
    one is still running, exit the usual way, which waits for it."""
    if any(t is not threading.current_thread() and not t.daemon
           for t in threading.enumerate()):
        sys.exit(code)  # type: ignore[arg-type]
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing left to tell
            stream.flush()
    os._exit(code)
