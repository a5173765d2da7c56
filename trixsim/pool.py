"""Worker processes that stop when asked and never outlive the process that started them.

``map_unordered`` runs jobs over a process pool and hands each result to a callback in
the main process as soon as it arrives. On Ctrl-C, SIGTERM or any error it first takes
the results that already arrived, then kills the workers at once (a running job is
abandoned, not awaited) and returns within about a second; a second Ctrl-C during that
short clean-up is ignored rather than left to hang the interpreter. Each worker watches
its parent: if the main process dies (even by kill -9), the worker exits before writing
anything more.

A ``Backend`` says where a command's jobs run; every command takes one, so one option
(``--scheduler``/``--backend``, see ``trixsim.commands.options``) moves them all. This
module's ``LocalBackend`` runs them over local worker processes (or in this process for
one worker); ``trixsim.backend.DaskBackend`` sends them to a Dask cluster.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import os
import signal
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from typing import Any

Job = tuple[Any, ...]


class WorkerDied(RuntimeError):
    """A worker process died (killed, out of memory)."""


_MAIN: int | None = None
"""In a worker: the main process that started it (set once, when the worker starts)."""
_SIBLINGS = 0
"""In a worker: how many worker processes its pool has (itself included)."""


def parent_alive(parent: int) -> bool:
    """Whether the process that started this worker is still its parent."""
    return os.getppid() == parent


def in_worker() -> bool:
    """Whether this process is a worker started by ``map_unordered`` (or
    ``local_executor``)."""
    return _MAIN is not None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def spare_core() -> bool:
    """Whether a helper thread of this process (a chunk's writer) would find a core that
    no other worker of the run keeps busy: in a worker, when its pool has fewer workers
    than there are cores; elsewhere (one worker: the main process plays), when there are
    two cores or more. Where every core plays, a helper thread only takes CPU from play
    and slows it down by contention."""
    busy = _SIBLINGS if _MAIN is not None else 1
    return busy < cores()


def main_process_gone() -> bool:
    """In a worker, whether the main process that started it has died (False elsewhere).
    Compared with the pid noted at start-up: once the parent is gone, ``getppid`` names
    another process, so it cannot be asked afresh."""
    return _MAIN is not None and not parent_alive(_MAIN)


def watch_parent(parent: int, interval: float = 0.2) -> None:
    """Exit this worker as soon as ``parent`` is gone: the kernel kills it where it can
    (Linux), and a watcher thread checks the parent every ``interval`` seconds anyway."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if not parent_alive(parent):
        os._exit(1)

    def watch() -> None:
        stop = threading.Event()
        while not stop.wait(interval):
            if not parent_alive(parent):
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _init_worker(parent: int, init: Callable[..., None] | None, args: Sequence[Any],
                 workers: int = 1) -> None:
    """Leave Ctrl-C to the main process, die with it, then the caller's initialiser."""
    global _MAIN, _SIBLINGS
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _MAIN, _SIBLINGS = parent, workers
    watch_parent(parent)
    if init is not None:
        init(*args)


def map_unordered(fn: Callable[..., Any], jobs: Sequence[Job], workers: int,
                  start_method: str, on_result: Callable[[Any], None],
                  init: Callable[..., None] | None = None, init_args: Sequence[Any] = (),
                  in_flight: int = 2) -> None:
    """Run ``fn(*job)`` for every job over ``workers`` processes and pass each result to
    ``on_result`` in the main process, in completion order.

    A job's exception is raised here (after the workers are stopped); WorkerDied when a
    worker process dies. At most ``in_flight`` jobs per worker are queued at a time.
    """
    ctx = mp.get_context(start_method)
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker,
                               initargs=(os.getpid(), init, tuple(init_args), workers))
    queue = list(jobs)
    pending: set[Future] = set()
    # forked workers start at the first submit; with the objects they inherit frozen, their
    # collections do not walk those objects and copy the pages they sit on (without it a
    # worker's first 10,000 default games took about 0.05 s longer, five alternated runs)
    frozen = start_method == "fork"
    if frozen:
        gc.freeze()
    try:
        while queue or pending:
            while queue and len(pending) < in_flight * workers:
                pending.add(pool.submit(fn, *queue.pop(0)))
                if frozen:
                    gc.unfreeze()
                    frozen = False
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in ready:
                on_result(fut.result())
    except BrokenProcessPool:
        raise WorkerDied("a worker process died (out of memory or killed)") from None
    except BaseException:
        with no_interrupts():
            _harvest(pending, on_result)
        raise
    finally:
        if frozen:
            gc.unfreeze()
        with no_interrupts():
            if pending:
                _kill(pool)
            pool.shutdown(wait=True, cancel_futures=True)


class TwoStep:
    """A job function that can also run in two steps: ``first(*job)`` does the part that
    must run in the calling thread (playing, on the kernels this thread loaded) and returns
    the rest, a callable giving the job's result (with ``close()`` to abandon it). Called
    whole, it is ``fn(*job)``, as every backend calls it; with one worker and a spare core,
    ``LocalBackend`` runs each job's rest in a helper thread while the next job's first
    step runs, so the playing thread never waits for a chunk's last slices to be encoded,
    checksummed and written."""

    def __init__(self, fn: Callable[..., Any], first: Callable[..., Any]) -> None:
        self.fn, self.first = fn, first

    def __call__(self, *job: Any) -> Any:
        return self.fn(*job)


def _overlapped(fn: TwoStep, jobs: Sequence[Job], on_result: Callable[[Any], None]) -> None:
    """Every job's first step in this thread, its rest in one helper thread while the next
    job's first step runs; each result goes to ``on_result`` here, in job order. On an
    error or Ctrl-C, the job whose rest is running is finished and passed on (it is short:
    a chunk's last encoding and files), the next one abandoned; the helper thread is gone
    when this returns."""
    with ThreadPoolExecutor(1, thread_name_prefix="job-rest") as helper:
        pending: Future | None = None
        rest = None
        try:
            for job in jobs:
                rest = fn.first(*job)
                if pending is not None:  # interrupted while waiting: harvested below
                    result, pending = pending.result(), None
                    on_result(result)
                pending, rest = helper.submit(rest), None
            if pending is not None:
                result, pending = pending.result(), None
                on_result(result)
        except BaseException:
            with no_interrupts():
                if rest is not None:
                    rest.close()
                if pending is not None:
                    _harvest({pending}, on_result, wait_for=True)
            raise


class Backend(ABC):
    """Where jobs run. A job is ``fn(*job)`` with a module-level ``fn`` and plain arguments
    (strategy specs travel as strings), and it must be pure: the same job gives the same
    result wherever and however often it runs, so results never depend on the backend."""

    name = "local"
    remote = False
    """Jobs may run on other machines: they cannot write into the run folder unless it is
    ``shared``, and strategy files named in specs are sent to them."""
    shared = True
    """Workers see the output folder at the same path (they write chunk files into it)."""

    @property
    @abstractmethod
    def parallelism(self) -> int:
        """How many jobs run at once (sizes the chunks of a run)."""

    @abstractmethod
    def map_unordered(self, fn: Callable[..., Any], jobs: Sequence[Job],
                      on_result: Callable[[Any], None], *,
                      init: Callable[..., None] | None = None, init_args: Sequence[Any] = (),
                      specs: Sequence[str] = (), in_flight: int = 2) -> None:
        """Run every job and pass each result to ``on_result`` here, in completion order.
        ``specs`` are the strategy specs the jobs load (their files are sent to remote
        workers); ``init(*init_args)`` prepares a local worker process."""

    @abstractmethod
    def executor(self, specs: Sequence[str] = ()) -> contextlib.AbstractContextManager[
            Executor | None]:
        """A ``concurrent.futures`` executor for jobs loading ``specs`` (None: run them in
        this process); its running jobs are abandoned on an error or Ctrl-C."""

    def describe(self) -> str:
        """Where jobs run, in words."""
        return f"{self.parallelism} local process(es)"

    def close(self) -> None:  # noqa: B027 (nothing to release by default)
        """Release what the backend holds (a cluster's connection)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        with no_interrupts():
            self.close()


class LocalBackend(Backend):
    """Local worker processes (``start_method`` as multiprocessing names it), or this
    process when there is one worker or one job."""

    def __init__(self, workers: int = 1, start_method: str | None = None) -> None:
        self.workers = max(1, workers)
        self.start_method = start_method or default_start_method()

    @property
    def parallelism(self) -> int:
        return self.workers

    def map_unordered(self, fn: Callable[..., Any], jobs: Sequence[Job],
                      on_result: Callable[[Any], None], *,
                      init: Callable[..., None] | None = None, init_args: Sequence[Any] = (),
                      specs: Sequence[str] = (), in_flight: int = 2) -> None:
        if self.workers <= 1 or len(jobs) <= 1:
            if isinstance(fn, TwoStep) and len(jobs) > 1 and spare_core():
                _overlapped(fn, jobs, on_result)
            else:
                for job in jobs:
                    on_result(fn(*job))
            return
        map_unordered(fn, jobs, min(self.workers, len(jobs)), self.start_method, on_result,
                      init, init_args, in_flight)

    def executor(self, specs: Sequence[str] = ()) -> contextlib.AbstractContextManager[
            Executor | None]:
        return local_executor(self.workers, self.start_method)


def default_start_method() -> str:
    """``fork`` where the platform has it (workers inherit the loaded kernels and the
    log handler), else ``spawn``; the code is correct under both."""
    return "fork" if "fork" in mp.get_all_start_methods() else "spawn"


@contextlib.contextmanager
def local_executor(workers: int, start_method: str | None = None
                   ) -> Iterator[ProcessPoolExecutor | None]:
    """Worker processes that ignore Ctrl-C and die with this one (None for one worker);
    on an error or interruption the workers are killed at once."""
    if workers <= 1:
        yield None
        return
    ctx = mp.get_context(start_method or default_start_method())
    ex = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker,
                             initargs=(os.getpid(), None, (), workers))
    try:
        yield ex
    except BaseException:
        with no_interrupts():
            _kill(ex)
            ex.shutdown(wait=True, cancel_futures=True)
        raise
    with no_interrupts():
        ex.shutdown(wait=True)


def _harvest(pending: set[Future], on_result: Callable[[Any], None],
             wait_for: bool = False) -> None:
    """Pass on the results that arrived while the main process was stopping (with
    ``wait_for``, once the running ones end)."""
    if wait_for:
        wait(pending)
    for fut in list(pending):
        if fut.done() and not fut.cancelled() and fut.exception() is None:
            pending.discard(fut)
            try:
                on_result(fut.result())
            except Exception:  # keep what can be kept; the first error is already raised
                return


def _kill(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers now (their running jobs are abandoned)."""
    kill = getattr(pool, "kill_workers", None)  # Python 3.14+
    if kill is not None:
        kill()
        return
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            proc.kill()


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def no_interrupts() -> Iterator[None]:
    """Ignore Ctrl-C and SIGTERM for a short clean-up (main thread only)."""
    if not _in_main_thread():
        yield
        return
    old = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def _sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C while the block runs (main thread only)."""
    if not _in_main_thread():
        yield
        return
    old = signal.signal(signal.SIGTERM, _sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


__all__ = ["Backend", "LocalBackend", "TwoStep", "WorkerDied", "default_start_method",
           "in_worker", "local_executor",
           "main_process_gone", "map_unordered", "no_interrupts", "parent_alive",
           "sigterm_interrupts", "watch_parent"]
