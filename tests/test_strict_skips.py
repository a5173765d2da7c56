"""A skip for a missing package fails the suite under TRIXSIM_STRICT_SKIPS (as in CI)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

PLUGIN = (Path(__file__).parent / "strict_skips.py").read_text()

TESTS = """
import pytest

def test_needs_a_package():
    pytest.importorskip("no_such_package_trixsim")

@pytest.mark.optional
def test_may_skip():
    pytest.skip("no browser here")

def test_passes():
    pass
"""

MODULE_SKIP = """
import pytest
pytest.importorskip("no_such_package_trixsim")

def test_never_runs():
    pass
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(PLUGIN)
    pytester.makeini("[pytest]\nmarkers =\n    optional: may skip\n")
    pytester.makepyfile(test_one=TESTS, test_two=MODULE_SKIP)
    return pytester


def test_skips_pass_without_the_variable(suite: pytest.Pytester, monkeypatch) -> None:
    monkeypatch.delenv("TRIXSIM_STRICT_SKIPS", raising=False)
    res = suite.runpytest()
    res.assert_outcomes(passed=1, skipped=3)
    assert res.ret == 0


def test_missing_packages_fail_under_strict_skips(suite: pytest.Pytester, monkeypatch) -> None:
    monkeypatch.setenv("TRIXSIM_STRICT_SKIPS", "1")
    res = suite.runpytest("--continue-on-collection-errors")
    res.assert_outcomes(passed=1, skipped=1, failed=1, errors=1)
    assert res.ret != 0
    assert suite.runpytest().ret != 0  # a module skipped at import stops the run
    res.stdout.fnmatch_lines(["*TRIXSIM_STRICT_SKIPS*no_such_package_trixsim*"])


def test_ci_sets_strict_skips() -> None:
    script = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "export TRIXSIM_STRICT_SKIPS=1" in script
