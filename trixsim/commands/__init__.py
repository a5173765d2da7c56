"""The CLI's subcommands, one module per concern; each exposes ``register(group)``.

Exit codes are the same everywhere: 0 success, 1 a data error (a damaged run, a failing
strategy, a full disk), 2 a usage error (bad options, an output that may not be
replaced; nothing is written), 130 interrupted (Ctrl-C or SIGTERM; finished work kept).
"""

from __future__ import annotations

import errno
from pathlib import Path

import click


class Interrupted(click.ClickException):
    """Ctrl-C or SIGTERM: the command stopped, keeping what it finished (exit 130)."""

    exit_code = 130


def interrupted(out: Path, resume: str) -> Interrupted:
    """The message for an interrupted command that can be resumed with ``resume``."""
    return Interrupted(f"interrupted; the finished chunks are kept in {out}: complete them "
                       f"with `{resume}`")


def write_failed(out: Path, exc: OSError) -> click.ClickException:
    """A failure to write ``out``: a full disk or another I/O error while writing is a data
    error (exit 1) with a clear message."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        if not Path(out).is_dir():
            return click.ClickException(f"the disk is full: {out} was not created (free some "
                                        "space, then run the command again)")
        return click.ClickException(f"the disk is full while writing {out}; the finished "
                                    "chunks are kept and no partial file is left (free some "
                                    "space, then resume)")
    return click.ClickException(f"cannot write {out}: {exc.strerror or exc}")
