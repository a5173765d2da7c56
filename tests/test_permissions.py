"""Output folders and files follow the umask, so a team or a web server can read them; the
web table's token files stay the owner's alone."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli


@pytest.fixture
def umask() -> Iterator[Callable[[int], int]]:
    old = os.umask(0o022)
    try:
        yield os.umask
    finally:
        os.umask(old)


def _modes(folder: Path) -> dict[str, int]:
    out = {".": stat.S_IMODE(folder.stat().st_mode)}
    for p in folder.rglob("*"):
        out[str(p.relative_to(folder))] = stat.S_IMODE(p.stat().st_mode)
    return out


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002], ids=["022", "077", "002"])
def test_run_and_report_folders_follow_the_umask(tmp_path: Path, umask, mask: int) -> None:
    umask(mask)
    run_dir, rep = tmp_path / "runs" / "r", tmp_path / "rep"
    res = CliRunner().invoke(cli, ["run", "-n", "6", "-s", "random,heuristic,random,random",
                                   "-j", "1", "-q", "-o", str(run_dir)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["report", str(run_dir), "-o", str(rep)])
    assert res.exit_code == 0, res.output
    for folder in (run_dir, rep):
        for name, mode in _modes(folder).items():
            want = 0o777 & ~mask if (folder / name).is_dir() else 0o666 & ~mask
            assert mode == want, f"{folder.name}/{name}: {oct(mode)}, want {oct(want)}"


def test_token_files_stay_owner_only(tmp_path: Path, umask) -> None:
    """The web table's unfinished tables hold seat tokens: owner-only whatever the umask."""
    from trixsim.folders import write_atomic
    from trixsim.serve.store import TableStore

    umask(0o000)
    store = TableStore(tmp_path / "tables")
    write_atomic(store.path("t1"), "{}", private=True)
    assert stat.S_IMODE(store.folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(store.path("t1").stat().st_mode) == 0o600
