"""Run a command's jobs on a Dask cluster: ``--scheduler tcp://HOST:PORT`` or ``--backend dask``.

``DaskBackend`` is a ``trixsim.pool.Backend`` over Dask's distributed scheduler: a running
cluster (``dask scheduler`` and ``dask worker`` on any machines that have trixsim
installed), or a local cluster of worker processes started for the command. Jobs are the
same pure functions the local processes run, so the results are the same row for row.
A worker that dies (killed, out of memory, its machine lost) has its jobs run again by the
scheduler on the others; Ctrl-C cancels the jobs not finished and keeps the results that
arrived. Strategy files named in specs (``bots/x.py:Bot``, ``NAME@params.toml``) are sent
with every job (they are small) and loaded on the worker from a copy named after their
content, so a worker never needs the driver's files; installed strategies and import paths
(``package.module:Class``) must be installed on the workers.

Dask is optional: ``pip install 'trixsim[dask]'``.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from trixsim.folders import write_atomic
from trixsim.pool import Backend, Job, LocalBackend, WorkerDied, no_interrupts

INSTALL = "pip install 'trixsim[dask]'"
BACKENDS = ("local", "dask")

Files = dict[str, bytes]
"""Strategy files by the path written in a spec -> their content."""


class BackendError(RuntimeError):
    """A backend that cannot be used (Dask missing, a scheduler that does not answer)."""


def dask_available() -> bool:
    """Whether Dask's distributed scheduler is installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def make_backend(scheduler: str | None = None, backend: str | None = None,
                 workers: int | None = None, shared: bool = False,
                 start_method: str | None = None) -> Backend:
    """The backend the options name: local processes by default; Dask when a scheduler
    address is given (that cluster) or ``backend == "dask"`` (a local cluster of
    ``workers`` processes). BackendError with a one-line reason when it cannot be used."""
    if backend not in (None, *BACKENDS):
        raise BackendError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if scheduler is None and backend in (None, "local"):
        if shared:
            raise BackendError("--shared-out needs a Dask cluster (--scheduler or "
                               "--backend dask)")
        return LocalBackend(workers or os.cpu_count() or 1, start_method)
    if backend == "local":
        raise BackendError("--scheduler sends the games to a Dask cluster: it cannot be "
                           "combined with --backend local")
    if not dask_available():
        raise BackendError(f"the Dask backend needs Dask's distributed scheduler: {INSTALL}")
    return DaskBackend(scheduler, workers, shared)


class DaskBackend(Backend):
    """Jobs on a Dask cluster: the one at ``address``, or a local cluster of ``workers``
    single-threaded worker processes. With ``shared``, workers write chunk files into the
    output folder themselves (it must be at the same path on every worker)."""

    name = "dask"
    remote = True

    def __init__(self, address: str | None = None, workers: int | None = None,
                 shared: bool = False, timeout: float = 10.0) -> None:
        from distributed import Client, LocalCluster

        self.address = address
        self.shared = shared
        self.cluster = None
        try:
            if address is None:
                # its workers leave Ctrl-C (sent to the whole terminal's process group) to
                # this process, which stops them: ignored from birth, and after a restart
                with no_interrupts():
                    self.cluster = LocalCluster(
                        n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                        processes=True, dashboard_address=None, silence_logs=logging.ERROR,
                        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
                self.client = Client(self.cluster, timeout=timeout)
                self.client.register_plugin(_ignore_interrupts(), name="trixsim-no-sigint")
            else:
                self.client = Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError, RuntimeError) as exc:
            self.close()
            where = (f"reach the Dask scheduler at {address}" if address else
                     "start a local Dask cluster")
            raise BackendError(f"cannot {where}: {_first_line(exc)}") from None

    @property
    def parallelism(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def describe(self) -> str:
        where = self.address or "a local cluster"
        n = len(self.client.nthreads())
        return f"Dask at {where}: {n} worker(s), {self.parallelism} thread(s)"

    def map_unordered(self, fn: Callable[..., Any], jobs: Sequence[Job],
                      on_result: Callable[[Any], None], *,
                      init: Callable[..., None] | None = None, init_args: Sequence[Any] = (),
                      specs: Sequence[str] = (), in_flight: int = 2) -> None:
        """Submit the jobs (at most ``in_flight`` per worker thread queued at a time) and
        pass on each result as it arrives; ``init`` is for local processes and not run."""
        from distributed import as_completed
        from distributed.client import FutureCancelledError
        from distributed.scheduler import KilledWorker

        files = collect_files(specs)
        queue = list(jobs)
        queue.reverse()
        pending: set[Any] = set()
        done = as_completed()
        try:
            while queue or pending:
                room = in_flight * self.parallelism - len(pending)
                while queue and room > 0:
                    fut = self.client.submit(run_job, files, fn, queue.pop(), pure=False)
                    pending.add(fut)
                    done.add(fut)
                    room -= 1
                fut = next(done)
                pending.discard(fut)
                on_result(fut.result())
        except KilledWorker:
            _cancel(self.client, pending)
            raise WorkerDied("a chunk's worker died again and again (out of memory or "
                             "killed)") from None
        except FutureCancelledError:
            _cancel(self.client, pending)
            raise WorkerDied("the Dask scheduler cancelled the jobs (it restarted or "
                             "closed)") from None
        except BaseException:
            with no_interrupts():
                for fut in list(pending):
                    if fut.status == "finished":
                        pending.discard(fut)
                        try:
                            on_result(fut.result())
                        except Exception:  # keep what can be kept; an error is raised
                            break
                _cancel(self.client, pending)
            raise

    @contextlib.contextmanager
    def executor(self, specs: Sequence[str] = ()) -> Iterator[Executor | None]:
        """The cluster as a ``concurrent.futures`` executor; its jobs load ``specs``' files
        from the copies sent with them. Unfinished jobs are cancelled on leaving."""
        ex = _ShippingExecutor(self.client, collect_files(specs))
        try:
            yield ex
        finally:
            with no_interrupts():
                ex.shutdown(wait=False)

    def close(self) -> None:
        client = getattr(self, "client", None)
        for thing in (client, self.cluster):
            if thing is not None:
                with contextlib.suppress(Exception):
                    thing.close()
        self.cluster = None


def _ignore_interrupts() -> Any:
    """A worker plugin for a local cluster's workers: Ctrl-C is for the command, which
    stops the cluster itself (without it every worker prints a traceback). Defined here,
    so that it travels by value and needs nothing importable on the worker."""
    from distributed import WorkerPlugin

    class IgnoreInterrupts(WorkerPlugin):
        def setup(self, worker: Any) -> None:
            import signal
            import threading

            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    return IgnoreInterrupts()


class _ShippingExecutor(Executor):
    """``client.get_executor()`` with the strategy files sent along with every job."""

    def __init__(self, client: Any, files: Files) -> None:
        self._files = files
        self._inner = client.get_executor(pure=False)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return self._inner.submit(run_job, self._files, fn, args, kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait)


def _cancel(client: Any, futures: set[Any]) -> None:
    with contextlib.suppress(Exception):
        client.cancel(list(futures))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


# ---------------------------------------------------------------- strategy files

def collect_files(specs: Sequence[str]) -> Files:
    """The content of every local file the specs read (see ``loading.spec_files``)."""
    from trixsim.loading import StrategyLoadError, spec_files

    files: Files = {}
    for spec in dict.fromkeys(specs):
        try:
            names = spec_files(spec)
        except StrategyLoadError:
            continue  # loading it fails the same way on the worker, with its message
        for name in names:
            with contextlib.suppress(OSError):
                files[name] = Path(name).read_bytes()
    return files


def install_files(files: Files) -> None:
    """On a worker: keep a copy of each file, in a folder named after its content, and
    load specs' files from those copies. Strategies cached by spec are dropped when a
    file's content changed (a long-lived cluster serving a strategy being edited)."""
    from trixsim import loading

    if not files:
        return
    root = Path(tempfile.gettempdir()) / f"trixsim-files-{_user()}"
    copies: dict[str, str] = {}
    for name, data in files.items():
        folder = root / hashlib.sha256(data).hexdigest()[:20]
        path = folder / (Path(name).name or "file")
        if not path.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data)
        copies[name] = str(path)
    if loading.use_copies(copies):
        _forget_strategies()


def _forget_strategies() -> None:
    """Drop the strategies this process cached by spec."""
    chunks = sys.modules.get("trixsim.chunks")
    if chunks is not None:
        chunks._SEATS_CACHE.clear()
    for name in ("trixsim.tune.play",):
        cached = getattr(sys.modules.get(name), "_base", None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


def _user() -> str:
    try:
        return str(os.getuid())
    except AttributeError:  # Windows
        return os.environ.get("USERNAME", "user")


def run_job(files: Files, fn: Callable[..., Any], job: Job,
            kwargs: dict[str, Any] | None = None) -> Any:
    """A job on a worker: install the strategy files it needs, then ``fn(*job)``."""
    install_files(files)
    return fn(*job, **(kwargs or {}))


__all__ = ["BACKENDS", "INSTALL", "BackendError", "DaskBackend", "collect_files",
           "dask_available", "install_files", "make_backend", "run_job"]
