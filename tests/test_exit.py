"""The command line ends its process without the interpreter's teardown (0.16 s with the
compiled kernels loaded), yet with everything a normal exit gives: exit handlers run,
streams flushed, logs complete, the exit status kept, running threads awaited."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_a_run_through_the_entry_point_writes_everything_and_exits_0(tmp_path: Path) -> None:
    out = tmp_path / "r"
    res = subprocess.run([sys.executable, "-m", "trixsim", "run", "--game", "trump7", "-n",
                          "50", "--batch-size", "10", "-j", "1", "-s", "random", "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.rstrip().endswith("(games/, run.json, run.log)")
    assert (out / "run.log").read_text().count("games in") == 5  # the log handler flushed


def test_exit_statuses_survive(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "trixsim", "run", "-n", "5", "-s", "nosuch"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "nosuch" in res.stderr
    res = _python("from trixsim.cli import end_process; print('x', end=''); end_process(1)")
    assert res.returncode == 1 and res.stdout == "x"
    res = _python("from trixsim.cli import end_process; end_process('a message')")
    assert res.returncode == 1 and res.stderr == "a message\n"


def test_exit_handlers_run_and_running_threads_are_awaited() -> None:
    res = _python("import atexit; atexit.register(lambda: print('handler ran'));"
                  "from trixsim.cli import end_process; end_process(0)")
    assert res.returncode == 0 and res.stdout == "handler ran\n"
    res = _python("import threading, time; from trixsim.cli import end_process;"
                  "t = threading.Thread(target=lambda: (time.sleep(0.3), print('thread done')));"
                  "t.start(); end_process(3)")
    assert res.returncode == 3 and res.stdout == "thread done\n"
