"""Package discovery for the build; everything else is in pyproject.toml.

Every package under ``trixsim/`` is found, and those under ``strategies/`` and ``reports/``
are installed inside the ``trixsim`` namespace (``package-dir`` in pyproject.toml maps the
folders), so a new package (a game, a strategy folder) ships without being listed.
"""

from setuptools import find_namespace_packages, find_packages, setup

setup(packages=[
    *find_packages(include=["trixsim", "trixsim.*"]),
    # the web table's static files: folders of data, not modules, but packages all the same
    *find_namespace_packages(include=["trixsim.serve.static", "trixsim.serve.static.*"],
                             exclude=["*.__pycache__"]),
    *(f"trixsim.{name}" for name in find_packages(
        include=["strategies", "strategies.*", "reports", "reports.*"])),
])
