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


@pytest.mark.parametrize("game", ["trix", "trump7"])
def test_where_every_core_plays_the_slices_are_written_in_the_playing_thread(
        monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    # a writer thread beside as many workers as cores only took CPU from play (contention)
    monkeypatch.setattr(chunks, "SLICE", 10)  # four slices, two row groups for Trix
    monkeypatch.setattr(chunks, "_THREADS", {})
    monkeypatch.setattr(pool, "_MAIN", os.getppid())
    monkeypatch.setattr(pool, "_SIBLINGS", 1)
    monkeypatch.setattr(pool, "cores", lambda: 2)
    assert pool.spare_core()
    threaded = chunks.chunk_data(5, 0, ["random"] * 4, 0, 40, game=game)
    assert len(chunks._THREADS) == 1
    chunks._THREADS.popitem()[1].shutdown(wait=True)
    monkeypatch.setattr(pool, "_SIBLINGS", 2)
    assert not pool.spare_core()
    before = len(_writers())
    inline = chunks.chunk_data(5, 0, ["random"] * 4, 0, 40, game=game)
    assert not chunks._THREADS and len(_writers()) == before
    assert inline["sha256"] == threaded["sha256"] and inline["_data"] == threaded["_data"]
