"""The ``trixsim`` command line: a thin click layer over the library.

Each subcommand lives in its own module under trixsim/commands; this module only wires
them together and turns library errors into one-line messages.
"""

from __future__ import annotations

import click

from trixsim import __version__
from trixsim.commands import check, compare, record, report, run, strategies


class _Group(click.Group):
    """A click group whose usage errors print as one line: ``Error: <what is wrong>``."""

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
    """Simulate Trix (32-card variant) bot against bot, record games, compare strategies."""
    ctx.ensure_object(dict)


for _module in (run, record, strategies, compare, report, check):
    _module.register(cli)


def main() -> None:
    """Console-script entry point."""
    cli(obj={})
