"""Named moments at which a command may be cut off, for the tests of resuming.

Every multi-part command calls ``cut("what")`` between the steps that change its folder
(folder created, chunk placed, chunk listed, round extended, pair created, iteration
written, ...). Normally this does nothing. With ``TRIXSIM_CUT_AT=N`` in the environment
the N-th call (counted from 1 in this process) stops the command as an interruption
would: ``N`` raises KeyboardInterrupt (Ctrl-C, SIGTERM), ``N:kill`` ends the process at
once with status 137 and without any clean-up (kill -9). A test can then resume and
compare the folder with an uninterrupted one; ``reset`` starts the count again.
"""

from __future__ import annotations

import os

ENV = "TRIXSIM_CUT_AT"
_count = 0
seen: list[str] = []
"""The names of the cut points passed since the last ``reset`` (for the tests)."""


def reset() -> None:
    """Start counting cut points from zero."""
    global _count
    _count = 0
    seen.clear()


def cut(where: str) -> None:
    """A moment at which the command may be cut off (see the module doc)."""
    global _count
    spec = os.environ.get(ENV)
    if not spec:
        return
    _count += 1
    seen.append(where)
    at, _, how = spec.partition(":")
    if _count == int(at):
        if how == "kill":
            os._exit(137)
        raise KeyboardInterrupt(f"cut at {where}")


__all__ = ["ENV", "cut", "reset", "seen"]
