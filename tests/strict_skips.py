"""Under CI a skipped test is a failed test, unless it is declared optional.

A test that skips because a package is missing (``pytest.importorskip``) looks like a pass in
the summary, so a broken install could hide whole files. With ``TRIXSIM_STRICT_SKIPS`` set (as
``.ci/run`` does) every skip fails, at collection or at run time, except in tests marked
``@pytest.mark.optional``: the browser tests without Chromium, for example.
"""

from __future__ import annotations

import os

import pytest

ENV = "TRIXSIM_STRICT_SKIPS"


def _strict() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def _reason(longrepr: object) -> str:
    """The skip reason from a skip report's ``(path, line, reason)``."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _fail(report: pytest.CollectReport | pytest.TestReport) -> None:
    report.outcome = "failed"
    reason = _reason(report.longrepr)
    report.longrepr = (f"skipped, which {ENV} makes a failure (mark the test "
                       f"@pytest.mark.optional if the skip is expected): {reason}")


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    """A module skipped as a whole (``importorskip`` at import) fails under strict skips."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and _strict():
        _fail(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A skipped test fails under strict skips unless marked ``optional``."""
    outcome = yield
    report = outcome.get_result()
    if (report.skipped and _strict() and not hasattr(report, "wasxfail")
            and item.get_closest_marker("optional") is None):
        _fail(report)
