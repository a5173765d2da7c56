"""The wheel holds every package of the checkout, found by the build, not listed by hand.

A package listed by hand is easily forgotten (a new game's package once was): the build
finds every package under ``trixsim/``, and those under ``strategies/`` and ``reports/``
as ``trixsim.strategies`` and ``trixsim.reports``. The test builds a wheel from a copy of
the checkout (so no earlier build's leftovers leak in) and compares its packages with the
folders that hold an ``__init__.py``, and checks the web table's static files came too.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from test_install import REPO, _can_build_offline, _copy_checkout


def _packages_in_checkout() -> set[str]:
    """Package folders as installed paths (``strategies/x`` -> ``trixsim/strategies/x``)."""
    found: set[str] = set()
    for top, installed in (("trixsim", "trixsim"), ("strategies", "trixsim/strategies"),
                           ("reports", "trixsim/reports")):
        for init in (REPO / top).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / top).as_posix()
            found.add(installed if rel == "." else f"{installed}/{rel}")
    return found


@pytest.mark.slow
@pytest.mark.skipif(not _can_build_offline(),
                    reason="setuptools here cannot build wheels offline (needs wheel or >= 70.1)")
def test_wheel_holds_every_package_and_the_static_files(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    _copy_checkout(checkout)
    out = tmp_path / "dist"
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "-q", "-w", str(out), "."], cwd=checkout,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = out.glob("trixsim-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    in_wheel = {n.rsplit("/", 1)[0] for n in names if n.endswith("/__init__.py")}
    assert in_wheel == _packages_in_checkout()
    assert "trixsim/games/trump7/rules.py" in names
    for f in (REPO / "trixsim" / "serve" / "static").iterdir():
        assert f"trixsim/serve/static/{f.name}" in names
    assert not any(n.startswith(("strategies/", "reports/", "tests/")) for n in names)
    # the learned expert's shipped weights and their provenance
    assert {"trixsim/strategies/expert_model.npz",
            "trixsim/strategies/expert_model.json"} <= names
