"""The Dask backend: `run` and `compare` on a cluster give the same tables as local processes;
strategy files travel to the workers; interruption, worker loss and --resume behave as
locally; without Dask the option says how to install it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.runfolder import read_run, unlisted_files
from trixsim.runner import RunConfig, RunWriter, chunk_data

FIXTURES = Path(__file__).parent / "fixtures"


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


def _files(out: Path) -> dict[str, str]:
    """Every table file of a run folder with its SHA-256."""
    return {f"{t}/{f.name}": hashlib.sha256(f.read_bytes()).hexdigest()
            for t in ("contracts", "games") for f in sorted((out / t).iterdir())}


def _chunks(out: Path) -> list[dict]:
    """run.json's chunk entries without their timings."""
    return [{k: v for k, v in c.items() if k != "seconds"} for c in read_run(out)["chunks"]]


def test_without_dask_the_option_says_how_to_install_it(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    for opts in (["--backend", "dask"], ["--scheduler", "tcp://127.0.0.1:8786"]):
        code, text = _invoke("run", "-n", "10", "-o", str(tmp_path / "r"), *opts)
        assert code == 2, text
        assert "pip install 'trixsim[dask]'" in text
        assert "Traceback" not in text
        assert not (tmp_path / "r").exists()
    code, text = _invoke("compare", "random", "heuristic", "-n", "10", "--backend", "dask",
                         "-o", str(tmp_path / "c"))
    assert code == 2 and "pip install 'trixsim[dask]'" in text


def test_contradictory_backend_options_are_usage_errors(tmp_path: Path) -> None:
    code, text = _invoke("run", "-n", "10", "--shared-out", "-o", str(tmp_path / "r"))
    assert code == 2 and "--shared-out needs a Dask cluster" in text
    code, text = _invoke("run", "-n", "10", "--backend", "local", "--scheduler",
                         "tcp://127.0.0.1:8786", "-o", str(tmp_path / "r"))
    assert code == 2 and "cannot be combined" in text
    assert not (tmp_path / "r").exists()


@pytest.fixture(scope="module")
def cluster():
    """A local Dask cluster of two single-threaded worker processes (its workers run in
    this directory, not in the tests' temporary folders); skipped without Dask."""
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    c = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                     dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"})
    try:
        yield c
    finally:
        c.close()


def test_run_on_a_cluster_writes_the_same_tables(cluster, tmp_path: Path) -> None:
    args = ["run", "-n", "3000", "--seed", "5", "--batch-size", "1000", "-s", "random",
            "-s", "heuristic,random,random,heuristic", "--rotate", "-q"]
    code, text = _invoke(*args, "-j", "2", "-o", str(tmp_path / "local"))
    assert code == 0, text
    code, text = _invoke(*args, "--scheduler", cluster.scheduler_address,
                         "-o", str(tmp_path / "dask"))
    assert code == 0, text
    assert _files(tmp_path / "dask") == _files(tmp_path / "local")
    assert _chunks(tmp_path / "dask") == _chunks(tmp_path / "local")
    assert "(on the cluster)" in (tmp_path / "dask" / "run.log").read_text()
    code, text = _invoke("check", str(tmp_path / "dask"))
    assert code == 0, text
    # workers writing into a folder they share with the driver: the same files again
    code, text = _invoke(*args, "--scheduler", cluster.scheduler_address, "--shared-out",
                         "-o", str(tmp_path / "shared"))
    assert code == 0, text
    assert _files(tmp_path / "shared") == _files(tmp_path / "local")


def test_strategy_files_are_sent_to_the_workers(cluster, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    bots = tmp_path / "bots"
    bots.mkdir()
    for name in ("single_bot.py", "params.toml", "trixsim_fixture_bots.py"):
        shutil.copy(FIXTURES / name, bots / name)
    # relative paths, from a folder the workers (started elsewhere) do not run in
    monkeypatch.chdir(bots)
    assert not Path(os.getcwd(), "..", "..", "single_bot.py").exists()
    lineup = "single_bot.py,params.toml,heuristic,params.toml:margin=30"
    args = ["run", "-n", "800", "--seed", "2", "-s", lineup, "-q"]
    code, text = _invoke(*args, "-j", "1", "-o", str(tmp_path / "local"))
    assert code == 0, text
    code, text = _invoke(*args, "--scheduler", cluster.scheduler_address,
                         "-o", str(tmp_path / "dask"))
    assert code == 0, text
    assert _files(tmp_path / "dask") == _files(tmp_path / "local")


def test_compare_on_a_cluster_gives_the_same_result(cluster, tmp_path: Path) -> None:
    args = ["compare", "random", "heuristic", "-n", "600", "--seed", "4", "--sprt",
            "--round", "200", "--no-plots", "-q"]
    code, text = _invoke(*args, "-j", "1", "-o", str(tmp_path / "local"))
    assert code == 0, text
    code, text = _invoke(*args, "--scheduler", cluster.scheduler_address,
                         "-o", str(tmp_path / "dask"))
    assert code == 0, text
    local = json.loads((tmp_path / "local" / "compare.json").read_text())
    dask = json.loads((tmp_path / "dask" / "compare.json").read_text())
    assert dask == local
    assert _files(tmp_path / "dask") == _files(tmp_path / "local")


def test_interrupted_cluster_run_keeps_chunks_and_resumes(cluster, tmp_path: Path) -> None:
    from trixsim.backend import DaskBackend

    cfg = RunConfig(game="trix", games=4000, seed=9, lineups=("random",), batch_size=500, workers=2)
    code, text = _invoke("run", "-n", "4000", "--seed", "9", "-s", "random", "--batch-size",
                         "500", "-j", "2", "-q", "-o", str(tmp_path / "local"))
    assert code == 0, text
    out = tmp_path / "dask"
    seen: list[int] = []

    def ctrl_c(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with DaskBackend(cluster.scheduler_address) as backend:
        with RunWriter.create(cfg, out) as writer, pytest.raises(KeyboardInterrupt):
            writer.play(progress=ctrl_c, backend=backend)
    meta = read_run(out)
    assert not meta["complete"]
    assert 2 <= len(meta["chunks"]) < len(meta["plan"])
    assert unlisted_files(out, meta) == []
    code, text = _invoke("run", "--resume", str(out), "--scheduler", cluster.scheduler_address,
                         "-q")
    assert code == 0, text
    assert read_run(out)["complete"]
    assert _files(out) == _files(tmp_path / "local")


def test_a_killed_worker_has_its_chunks_played_elsewhere(cluster, tmp_path: Path) -> None:
    from distributed import Client

    from trixsim.backend import DaskBackend

    code, text = _invoke("run", "-n", "8000", "--seed", "3", "--batch-size", "500", "-j", "2",
                         "-q", "-o", str(tmp_path / "local"))
    assert code == 0, text
    with Client(cluster.scheduler_address) as client:
        client.wait_for_workers(2, timeout=60)
        pids = client.run(os.getpid)  # worker address -> process id
    killed: list[int] = []
    cfg = RunConfig(game="trix",
                    games=8000, seed=3, lineups=("heuristic",), batch_size=500, workers=2)
    with DaskBackend(cluster.scheduler_address) as backend:

        def kill_one(n: int) -> None:
            """At the first chunk that finds a worker playing one, kill it (kill -9)."""
            busy = [a for a, keys in backend.client.processing().items() if keys]
            if not killed and busy:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(pids[busy[0]])

        with RunWriter.create(cfg, tmp_path / "dask") as writer:
            writer.play(progress=kill_one, backend=backend)
    assert killed
    with Client(cluster.scheduler_address) as client:
        client.wait_for_workers(2, timeout=60)
        after = client.run(os.getpid)
    assert killed[0] not in after.values()  # it died and its nanny started another
    assert read_run(tmp_path / "dask")["complete"]
    assert _files(tmp_path / "dask") == _files(tmp_path / "local")


def test_cluster_executor_runs_jobs_with_shipped_files(cluster, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The executor a tuning gets: pure jobs, strategy files sent along."""
    from trixsim.backend import DaskBackend

    shutil.copy(FIXTURES / "single_bot.py", tmp_path / "mine.py")
    monkeypatch.chdir(tmp_path)
    specs = ["mine.py", "mine.py", "heuristic", "mine.py"]
    want = chunk_data(1, 0, specs, 0, 200, game="trix")
    with DaskBackend(cluster.scheduler_address) as backend, backend.executor(specs) as ex:
        assert ex is not None
        got = ex.submit(chunk_data, 1, 0, specs, 0, 200, game="trix").result()
    assert got["sha256"] == want["sha256"] and got["_data"] == want["_data"]


def test_tune_on_a_cluster_gives_the_local_results(cluster, tmp_path: Path) -> None:
    """``tune --scheduler``: the same history, best values and verdict as local processes."""
    args = ["heuristic:declare_margin=30,trix_by_pick=6", "--param", "declare_margin=-100:60",
            "--param", "trix_by_pick=1:6", "--budget", str(8 * 20 * 6),
            "--deals-per-iteration", "20", "--verify-deals", "300", "--seed", "3", "-q"]
    code, text = _invoke("tune", *args, "-j", "2", "--out", str(tmp_path / "local"))
    assert code == 0, text
    code, text = _invoke("tune", *args, "--scheduler", cluster.scheduler_address,
                         "--out", str(tmp_path / "dask"))
    assert code == 0, text
    for name in ("history.csv", "tuned.toml", "verdict.json", "state.json"):
        assert ((tmp_path / "dask" / name).read_text()
                == (tmp_path / "local" / name).read_text()), name
