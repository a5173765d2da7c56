"""Where a chunk's tables are written: a writer thread that a run's worker process keeps
for all its chunks, and that any other process stops with the chunk (no thread is left
running in a process that may fork workers later)."""

from __future__ import annotations

import os
import threading

import pytest

from trixsim import chunks, pool


def _writers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("chunk-writer")]


def test_a_chunk_played_in_the_main_process_leaves_no_writer_thread() -> None:
    before = len(_writers())
    entry = chunks.chunk_data(3, 0, ["random"] * 4, 0, 40, game="trump7")
    assert entry["stop"] == 40 and entry["bytes"]["games"] > 0
    assert len(_writers()) == before


def test_a_worker_keeps_one_writer_thread_for_its_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "_MAIN", os.getppid())  # as in a worker map_unordered started
    monkeypatch.setattr(chunks, "_THREADS", {})
    first = chunks.chunk_data(3, 0, ["random"] * 4, 0, 40, game="trump7")
    kept = chunks._THREADS[os.getpid()]
    again = chunks.chunk_data(3, 0, ["random"] * 4, 0, 40, game="trump7")
    assert chunks._THREADS[os.getpid()] is kept
    assert first["sha256"] == again["sha256"]  # the same chunk, the same bytes
    kept.shutdown(wait=True)
