"""The CLI's subcommands, one module per concern; each exposes ``register(group)``.

Exit codes are the same everywhere: 0 success, 1 a data error (a damaged run, a failing
strategy, a full disk), 2 a usage error (bad options, an output that may not be
replaced; nothing is written), 130 interrupted (Ctrl-C or SIGTERM; finished work kept).
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from trixsim.runfolder import RunFolderError


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


def folder_failed(exc: RunFolderError, param_hint: str | None = None) -> click.ClickException:
    """A run folder that could not be read: damaged (``RunDataError``) is a data error
    (exit 1); any other path is no run folder, a usage error (exit 2) of the option
    ``param_hint`` where one named it."""
    from trixsim.runfolder import RunDataError  # loaded already by whoever raised it

    if isinstance(exc, RunDataError):
        return click.ClickException(str(exc))
    if param_hint is not None:
        return click.BadParameter(str(exc), param_hint=param_hint)
    return click.UsageError(str(exc))
