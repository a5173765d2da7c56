"""Every multi-part command resumes from any instant: each is cut off at every one of its cut
points in turn (``trixsim.cutpoints``: a KeyboardInterrupt raised there, as Ctrl-C or
SIGTERM would), then resumed; the folder must then hold the same files, byte for byte, as
an uninterrupted run's. What legitimately differs is left out of the comparison: run.log
(timestamps), the lock file, the marker's creation time and the sizes and checksums it
records (checked against the files instead), and in run.json the seconds spent
(per chunk and in all) and the command line (a resumed pair records the resuming one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim import cutpoints
from trixsim.cli import cli
from trixsim.folders import LOCK, MARKER
from trixsim.runfolder import digest


def _invoke(*args: object) -> tuple[int, str]:
    res = CliRunner().invoke(cli, [str(a) for a in args])
    return res.exit_code, res.output


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (see the module doc for what is left out or normalised)."""
    out: dict[str, bytes] = {}
    for f in sorted(folder.rglob("*")):
        if f.is_dir() or f.name in ("run.log", LOCK):
            continue
        rel = str(f.relative_to(folder))
        data = f.read_bytes()
        if f.name == MARKER:
            marker = json.loads(data)
            marker.pop("created")
            files = marker.pop("files")
            for name, rec in files.items():  # the record is of the files as they are
                assert rec == {"bytes": (f.parent / name).stat().st_size,
                               "sha256": digest(f.parent / name)}, (rel, name)
            marker["files"] = sorted(files)
            data = json.dumps(marker).encode()
        elif f.name == "run.json":
            meta = json.loads(data)
            meta.pop("seconds", None)
            meta.pop("command", None)
            for c in meta["chunks"]:
                c.pop("seconds", None)
            data = json.dumps(meta, sort_keys=True).encode()
        out[rel] = data
    return out


def _count_cuts(monkeypatch: pytest.MonkeyPatch, args: list[object]) -> tuple[int, list[str]]:
    """Play the command whole, counting its cut points."""
    monkeypatch.setenv(cutpoints.ENV, str(10**9))
    cutpoints.reset()
    code, output = _invoke(*args)
    assert code == 0, output
    return code, list(cutpoints.seen)


def _every_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new: list[object],
               resume: list[object], every: int = 1) -> list[str]:
    """Cut the command ``new`` (OUT standing for its folder) at each cut point (every
    ``every``-th), resume with ``resume``, compare with the whole run; returns the points."""
    def fill(args: list[object], out: Path) -> list[object]:
        return [out if a == "OUT" else a for a in args]

    whole = tmp_path / "whole"
    _, points = _count_cuts(monkeypatch, fill(new, whole))
    want = snapshot(whole)
    assert len(points) >= 3
    for n in range(1, len(points) + 1, every):
        out = tmp_path / f"cut{n}"
        monkeypatch.setenv(cutpoints.ENV, str(n))
        cutpoints.reset()
        code, output = _invoke(*fill(new, out))
        assert code == 130, (n, points[n - 1], output)
        assert "--resume" in output, output
        monkeypatch.delenv(cutpoints.ENV)
        code, output = _invoke(*fill(resume, out))
        assert code == 0, (n, points[n - 1], output)
        got = snapshot(out)
        assert got.keys() == want.keys(), (n, points[n - 1], got.keys() ^ want.keys())
        for name in want:
            assert got[name] == want[name], (n, points[n - 1], name)
    return points


def test_a_run_resumes_from_every_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    points = _every_cut(tmp_path, monkeypatch,
                        ["run", "-n", 20, "-s", "heuristic", "-s", "random", "--seed", 4,
                         "-j", 1, "-o", "OUT", "-q"], ["run", "--resume", "OUT", "-j", 1, "-q"])
    assert points[0] == "run folder created" and "chunk placed" in points


def test_a_comparison_resumes_from_every_cut(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    points = _every_cut(tmp_path, monkeypatch,
                        ["compare", "heuristic", "random", "-n", 12, "--seed", 2, "-j", 1,
                         "--no-plots", "-o", "OUT", "-q"],
                        ["compare", "--resume", "OUT", "-j", 1, "--no-plots", "-q"])
    assert "compare.json written" in points


@pytest.mark.slow
def test_a_sequential_comparison_resumes_from_every_cut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    points = _every_cut(tmp_path, monkeypatch,
                        ["compare", "heuristic", "random", "-n", 30, "--sprt", "--effect",
                         0.01, "--round", 10, "--seed", 2, "-j", 1, "--no-plots", "-o", "OUT",
                         "-q"],
                        ["compare", "--resume", "OUT", "-j", 1, "--no-plots", "-q"])
    assert points.count("plan extended") == 2 and points.count("round read") == 3


@pytest.mark.slow
def test_a_tournament_resumes_from_every_cut(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    points = _every_cut(tmp_path, monkeypatch,
                        ["tournament", "heuristic", "random", "heuristic-nodeclare", "-n", 4,
                         "--seed", 7, "-j", 1, "--no-plots", "-o", "OUT", "-q"],
                        ["tournament", "--resume", "OUT", "-j", 1, "--no-plots", "-q"])
    assert points.count("run folder created") == 3


def test_a_tournament_cut_before_a_pairs_first_chunk_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault seen: a pair folder created, none of its chunks listed yet; every resume
    then failed with 'the run holds no games'."""
    args = ["tournament", "heuristic", "random", "heuristic-nodeclare", "-n", 4, "--seed",
            7, "-j", 1, "--no-plots", "-q"]
    _, points = _count_cuts(monkeypatch, [*args, "-o", tmp_path / "whole"])
    second_pair = [i for i, p in enumerate(points, 1) if p == "run folder created"][1]
    monkeypatch.setenv(cutpoints.ENV, str(second_pair))
    cutpoints.reset()
    out = tmp_path / "cut"
    code, output = _invoke(*args, "-o", out)
    assert code == 130, output
    pair = out / json.loads((out / "tournament.json").read_text())["pairs"][1]
    assert json.loads((pair / "run.json").read_text())["chunks"] == []
    monkeypatch.delenv(cutpoints.ENV)
    code, output = _invoke("tournament", "--resume", out, "-j", 1, "--no-plots", "-q")
    assert code == 0, output
    assert snapshot(out) == snapshot(tmp_path / "whole")


@pytest.mark.slow
def test_a_tuning_resumes_from_every_cut(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    spec = "heuristic:declare_margin=30,trix_by_pick=6"
    points = _every_cut(tmp_path, monkeypatch,
                        ["tune", spec, "--param", "declare_margin=-100:60", "--budget",
                         8 * 10 * 3, "--deals-per-iteration", 10, "--verify-deals", 20,
                         "--seed", 3, "-j", 1, "--out", "OUT", "-q"],
                        ["tune", spec, "--out", "OUT", "--resume", "-j", 1, "-q"])
    assert points.count("history row written") == 3
