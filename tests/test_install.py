"""The README's two setup commands, run one after the other in one checkout, keep the CLI working.

``pip install .`` followed by ``pip install -e .`` used to break ``trixsim``: the first
install let numba write its kernel cache under ``site-packages/trixsim/**/__pycache__``, the
second install's uninstall left those files behind, and the leftover ``trixsim`` folder (no
``__init__.py``) became a namespace package hiding the editable install. The test replays the
sequence in a copy of the repository, in a fresh virtual environment that borrows the running
interpreter's installed packages, so nothing is downloaded.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import site
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import trixsim

REPO = Path(__file__).resolve().parent.parent


def _can_build_offline() -> bool:
    """Whether setuptools here can build wheels without fetching anything (wheel or >= 70.1)."""
    if importlib.util.find_spec("wheel") is not None:
        return True
    try:
        major, minor = (int(part) for part in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return (major, minor) >= (70, 1)


def _outer_paths() -> list[str]:
    """The running interpreter's package folders (site-packages, PYTHONPATH) without trixsim."""
    candidates = [*site.getsitepackages(), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    if site.ENABLE_USER_SITE:
        candidates.append(site.getusersitepackages())
    paths: list[str] = []
    for entry in candidates:
        if not entry or not os.path.isdir(entry):
            continue
        resolved = Path(entry).resolve()
        if (resolved / "trixsim").exists() or str(resolved) in paths:  # e.g. the repo root
            continue
        paths.append(str(resolved))
    return paths


def _copy_checkout(dest: Path) -> None:
    """Copy the files git tracks or would track (not ignored ones such as .venv) into ``dest``."""
    listing = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True,
    ).stdout.decode()
    for name in filter(None, listing.split("\0")):
        src = REPO / name
        if src.is_file():  # a tracked file deleted in the working tree is skipped
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def _run(cmd: list[str | Path], cwd: Path, env: dict[str, str]) -> str:
    """Run ``cmd``; fail the test with its output if it exits non-zero."""
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, (
        f"{' '.join(map(str, cmd))} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    )
    return proc.stdout


@pytest.mark.slow
@pytest.mark.optional
@pytest.mark.skipif(not _can_build_offline(),
                    reason="setuptools here cannot build wheels offline (needs wheel or >= 70.1)")
@pytest.mark.skipif(sys.platform == "win32", reason="the venv layout below is POSIX")
def test_install_then_editable_install_keeps_cli_working(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    _copy_checkout(checkout)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    site_dir = Path(subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True, capture_output=True, text=True,
    ).stdout.strip())
    # Appended after the venv's own site-packages, so what is installed there wins; the lines
    # are plain folders (their .pth files are not run), so the outer editable trixsim stays out.
    (site_dir / "outer_packages.pth").write_text("\n".join(_outer_paths()) + "\n")

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NUMBA_", "PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env.update(HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1", PIP_NO_CACHE_DIR="1")
    pip = [py, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "-q"]
    cli = venv / "bin" / "trixsim"
    where = [py, "-c", "import trixsim; print(trixsim.__file__)"]

    _run([*pip, "."], checkout, env)
    assert Path(_run(where, tmp_path, env).strip()).is_relative_to(site_dir)
    # the bundled strategies and reports live in the trixsim namespace, not at top level
    namespaced = ("import importlib.util as u, trixsim.strategies.heuristic, trixsim.reports."
                  "report; print(u.find_spec('strategies'), u.find_spec('reports'))")
    assert _run([py, "-I", "-c", namespaced], tmp_path, env).split() == ["None", "None"]
    assert not (site_dir / "strategies").exists() and not (site_dir / "reports").exists()
    _run([cli, "run", "-n", "20", "-j", "1", "-q", "-o", tmp_path / "r1"], tmp_path, env)

    _run([*pip, "-e", "."], checkout, env)
    assert trixsim.__version__ in _run([cli, "--version"], tmp_path, env)
    imported = Path(_run(where, tmp_path, env).strip()).resolve()
    assert imported == (checkout / "trixsim" / "__init__.py").resolve()
    _run([cli, "run", "-n", "4", "-j", "1", "-q", "-o", tmp_path / "r2"], tmp_path, env)
    left = site_dir / "trixsim"
    leftovers = [str(p.relative_to(site_dir)) for p in left.rglob("*")] if left.exists() else []
    assert not leftovers, f"the uninstall left files in site-packages: {sorted(leftovers)[:10]}"
    assert any((tmp_path / "xdg-cache" / "trixsim").rglob("numba-*/**/*.nbi"))  # cached there
