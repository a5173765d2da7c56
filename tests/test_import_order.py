"""Each module a table or a report loads imports on its own, whatever was imported before.

A cycle (a game's narrator -> the terminal package -> its session -> the narrator) used
to make ``import trixsim.games.trix.narrator`` fail in a fresh interpreter, though every
command that imported the terminal first worked.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

ALONE = ["trixsim.games.trix.narrator", "trixsim.games.trix.view",
         "trixsim.games.trump7.narrator", "trixsim.games.trump7.view",
         "trixsim.terminal.names", "trixsim.terminal.session", "trixsim.terminal.text",
         "trixsim.terminal.trump7", "trixsim.table", "trixsim.serve.app"]


@pytest.mark.parametrize("module", ALONE)
def test_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1:]


def test_the_terminal_package_still_offers_its_names() -> None:
    import trixsim.terminal as terminal

    assert terminal.Session.__name__ == "Session" and terminal.QUIT
    with pytest.raises(AttributeError):
        terminal.nothing  # noqa: B018
