"""What a resume and a failing write may not do: leave partial files, promise what is not
there, write outside the folder, print a traceback for a lost worker, replace files that
are not trixsim's own."""

from __future__ import annotations

import errno
import json
import pathlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli


def _invoke(*args: object) -> tuple[int, str]:
    res = CliRunner().invoke(cli, [str(a) for a in args])
    return res.exit_code, res.output


def _run(out: Path, *extra: object) -> tuple[int, str]:
    return _invoke("run", "-n", 20, "-s", "heuristic", "-s", "random", "--seed", 1, "-j", 1,
                   "-o", out, "-q", *extra)


def test_a_full_disk_leaves_no_partial_chunk_file(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    real = pathlib.Path.write_bytes
    calls = {"n": 0}

    def write_bytes(self: Path, data: bytes) -> int:
        if self.name.startswith(".tmp-"):
            calls["n"] += 1
            if calls["n"] > 2:  # the second chunk's first file: half written, then full
                real(self, data[:len(data) // 2])
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(pathlib.Path, "write_bytes", write_bytes)
    out = tmp_path / "r"
    code, text = _run(out)
    assert code == 1 and "disk is full" in text and text.count("\n") == 1, text
    assert [f.name for f in out.rglob(".tmp-*")] == []
    monkeypatch.setattr(pathlib.Path, "write_bytes", real)
    assert _invoke("run", "--resume", out, "-j", 1, "-q")[0] == 0


def test_a_full_disk_before_the_folder_exists_promises_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trixsim.folders as folders

    def no_space(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(folders.os, "fsync", no_space)
    code, text = _run(tmp_path / "r")
    assert code == 1 and "disk is full" in text and "was not created" in text, text
    assert "resume" not in text and "finished chunks" not in text
    assert list(tmp_path.iterdir()) == []


def test_resume_does_not_follow_a_linked_run_log(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _run(out)[0] == 0
    meta = json.loads((out / "run.json").read_text())
    meta["chunks"], meta["complete"] = meta["chunks"][:1], False
    (out / "run.json").write_text(json.dumps(meta))
    for f in (out / "contracts").iterdir():
        if f.name != "l000-g000000000000.parquet":
            f.unlink()
    for f in (out / "games").iterdir():
        if f.name != "l000-g000000000000.parquet":
            f.unlink()
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("mine\n")
    (out / "run.log").unlink()
    (out / "run.log").symlink_to(outside)
    code, text = _invoke("run", "--resume", out, "-j", 1, "-q")
    assert code == 1 and "run.log" in text and "link" in text, text
    assert outside.read_text() == "mine\n"


def test_tune_losing_a_worker_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    from concurrent.futures.process import BrokenProcessPool

    import trixsim.tune as tune

    def lost(*args: object, **kwargs: object) -> None:
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr(tune, "iterate", lost)
    code, text = _invoke("tune", "heuristic", "--param", "declare_margin=-100:60",
                         "--budget", 160, "--deals-per-iteration", 10, "--verify-deals", 20,
                         "--out", tmp_path / "t", "-j", 1, "-q")
    assert code == 1 and "worker process died" in text, text
    assert len(text.strip().splitlines()) == 1 and "Traceback" not in text
