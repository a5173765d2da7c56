"""Package discovery for the build; everything else is in pyproject.toml.

Every package under ``trixsim/`` is found, and those under ``strategies/`` and ``reports/``
are installed inside the ``trixsim`` namespace (``package-dir`` in pyproject.toml maps the
folders), so a new package (a game, a strategy folder) ships without being listed.
"""

from setuptools import find_packages, setup

setup(packages=[
    *find_packages(include=["trixsim", "trixsim.*"]),
    *(f"trixsim.{name}" for name in find_packages(
        include=["strategies", "strategies.*", "reports", "reports.*"])),
])
