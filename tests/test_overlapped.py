"""One worker plays the next chunk while the last one's files are finished
(``pool.TwoStep``): results in job order, nothing lost or left running on an error or
Ctrl-C."""

from __future__ import annotations

import threading

import pytest

from trixsim import pool
from trixsim.pool import LocalBackend, TwoStep


class _Rest:
    def __init__(self, log: list, job: int, fail: bool = False) -> None:
        self.log, self.job, self.fail = log, job, fail

    def __call__(self) -> int:
        self.log.append(("rest", self.job, threading.current_thread().name))
        if self.fail:
            raise OSError(f"disk full in job {self.job}")
        return self.job * 10

    def close(self) -> None:
        self.log.append(("closed", self.job))


def _two_step(log: list, interrupt_at: int = -1, fail_at: int = -1) -> TwoStep:
    def whole(job: int) -> int:
        return job * 10

    def first(job: int) -> _Rest:
        if job == interrupt_at:
            raise KeyboardInterrupt
        log.append(("first", job, threading.current_thread().name))
        return _Rest(log, job, fail=job == fail_at)

    return TwoStep(whole, first)


@pytest.fixture(autouse=True)
def _spare_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "spare_core", lambda: True)


def test_results_come_in_job_order_with_the_rest_in_a_helper_thread() -> None:
    log: list = []
    got: list[int] = []
    LocalBackend(1).map_unordered(_two_step(log), [(j,) for j in range(5)], got.append)
    assert got == [0, 10, 20, 30, 40]
    main = threading.current_thread().name
    assert {who for kind, _, who in log if kind == "first"} == {main}
    assert {who for kind, _, who in log if kind == "rest"} != {main}
    assert not [t for t in threading.enumerate() if t.name.startswith("job-rest")]


def test_ctrl_c_keeps_the_job_being_finished() -> None:
    log: list = []
    got: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        LocalBackend(1).map_unordered(_two_step(log, interrupt_at=3), [(j,) for j in range(5)],
                                      got.append)
    assert got == [0, 10, 20]  # job 2's rest was running when job 3 was interrupted
    assert not [t for t in threading.enumerate() if t.name.startswith("job-rest")]


def test_a_failed_rest_stops_the_jobs_and_abandons_the_next() -> None:
    log: list = []
    got: list[int] = []
    with pytest.raises(OSError, match="job 1"):
        LocalBackend(1).map_unordered(_two_step(log, fail_at=1), [(j,) for j in range(5)],
                                      got.append)
    assert got == [0]
    assert ("closed", 2) in log  # played, then abandoned: its writer is stopped
    assert not any(kind == "first" and job > 2 for kind, job, *_ in log)


def test_a_whole_call_elsewhere() -> None:
    """Without a spare core, or for one job, each job is run whole."""
    log: list = []
    got: list[int] = []
    LocalBackend(1).map_unordered(_two_step(log), [(7,)], got.append)
    assert got == [70] and log == []


def test_ctrl_c_while_waiting_for_a_rest_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C can arrive while this thread waits for the running rest: it is still
    finished and passed on."""
    log: list = []
    got: list[int] = []
    real = pool.Future.result
    calls = {"n": 0}

    def interrupted(self: pool.Future, timeout: float | None = None) -> object:
        calls["n"] += 1
        if calls["n"] == 2:  # waiting for job 1's rest
            raise KeyboardInterrupt
        return real(self, timeout)

    monkeypatch.setattr(pool.Future, "result", interrupted)
    with pytest.raises(KeyboardInterrupt):
        LocalBackend(1).map_unordered(_two_step(log), [(j,) for j in range(5)], got.append)
    assert got == [0, 10]
    assert ("closed", 2) in log
