"""``--force`` replaces only files trixsim wrote, checked by content, not by name: chunk files
by the SHA-256 run.json lists, every other file by the size and SHA-256 the folder's marker
records when trixsim last wrote it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.folders import MARKER, FolderLock
from trixsim.runner import read_run


def _invoke(*args: object) -> tuple[int, str]:
    res = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def _run(out: Path, *extra: object) -> tuple[int, str]:
    return _invoke("run", "-n", 20, "-j", 1, "--batch-size", 10, "-s", "random", "-q",
                   "-o", out, *extra)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _refused(code: int, text: str, name: str) -> None:
    assert code == 2, text
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and name in lines[0], text


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run and its report (not to be changed: tests copy them)."""
    base = tmp_path_factory.mktemp("owned")
    assert _run(base / "run")[0] == 0
    code, text = _invoke("report", base / "run", "-o", base / "rep")
    assert code == 0, text
    return base


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


@pytest.mark.parametrize("name", ["run.log", "report.md"])
def test_a_copied_marker_does_not_make_the_users_files_trixsims(
        finished: Path, tmp_path: Path, name: str) -> None:
    """The user's folder holds a marker copied from a run and a file of their own named as
    trixsim names its files: --force keeps it."""
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(finished / "run" / MARKER, mine / MARKER)
    (mine / name).write_text("my own notes\n")
    before = _snapshot(mine)
    _refused(*_run(mine, "--force"), name)
    assert _snapshot(mine) == before


def test_a_copied_report_marker_does_not_cover_another_report(finished: Path,
                                                              tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(finished / "rep" / MARKER, mine / MARKER)
    (mine / "report.md").write_text("# my report\n")
    (mine / "plot.png").write_bytes(b"\x89PNG mine")
    before = _snapshot(mine)
    code, text = _invoke("report", finished / "run", "-o", mine, "--force")
    _refused(code, text, "plot.png")
    assert _snapshot(mine) == before


@pytest.mark.parametrize("name", ["run.log", "run.json"])
def test_a_file_changed_after_trixsim_wrote_it_is_kept(finished: Path, tmp_path: Path,
                                                       name: str) -> None:
    out = _copy(finished / "run", tmp_path / "r")
    with (out / name).open("a") as fh:
        fh.write("\n")
    before = _snapshot(out)
    _refused(*_run(out, "--force"), name)
    assert _snapshot(out) == before


def test_a_chunk_file_is_checked_by_the_checksum_run_json_lists(finished: Path,
                                                                tmp_path: Path) -> None:
    out = _copy(finished / "run", tmp_path / "r")
    chunks = read_run(out)["chunks"]
    first, second = chunks[0]["games_file"], chunks[1]["games_file"]
    shutil.copy(out / second, out / first)  # a Parquet file of the right kind, not this one
    before = _snapshot(out)
    _refused(*_run(out, "--force"), first)
    assert _snapshot(out) == before


def test_a_nested_report_is_checked_too(finished: Path, tmp_path: Path) -> None:
    out = _copy(finished / "run", tmp_path / "r")
    _copy(finished / "rep", out / "report")
    (out / "report" / "index.html").write_text("<p>mine</p>")
    _refused(*_run(out, "--force"), "report/index.html")
    assert (out / "report" / "index.html").read_text() == "<p>mine</p>"


def test_folders_trixsim_wrote_are_replaced(finished: Path, tmp_path: Path) -> None:
    """A run (then resumed), a report and a tournament, as trixsim left them, are replaced
    with --force."""
    out = _copy(finished / "run", tmp_path / "r")
    code, text = _invoke("run", "--resume", out, "-q")
    assert code == 0, text
    code, text = _run(out, "--force", "--seed", 3)
    assert code == 0, text
    assert read_run(out)["seed"] == 3
    rep = _copy(finished / "rep", tmp_path / "rep")
    code, text = _invoke("report", out, "-o", rep, "--force")
    assert code == 0, text
    tour = tmp_path / "t"
    for _ in range(2):
        code, text = _invoke("tournament", "random", "heuristic", "-n", 4, "-j", 1,
                             "--no-plots", "-q", "-o", tour, "--force")
        assert code == 0, text


def test_a_marker_records_what_trixsim_wrote(finished: Path) -> None:
    files = json.loads((finished / "run" / MARKER).read_text())["files"]
    assert set(files) == {"run.json", "run.log"}
    assert all(set(v) == {"bytes", "sha256"} for v in files.values())
    files = json.loads((finished / "rep" / MARKER).read_text())["files"]
    assert {"report.md", "index.html", "verdicts.csv", "lineups.csv"} <= set(files)


def test_a_folder_being_written_is_named_as_such(finished: Path, tmp_path: Path) -> None:
    out = _copy(finished / "run", tmp_path / "r")
    with FolderLock(out, record=False):
        (out / "run.log").write_text("the writer goes on\n")
        code, text = _run(out, "--force")
    assert code == 1 and "is being written by" in text, text


def test_an_old_folder_without_a_record_is_judged_by_names_as_before(
        finished: Path, tmp_path: Path) -> None:
    """Folders written before the marker recorded files: --force replaces them when every
    entry is a name trixsim writes there (the rule that held then), else refuses."""
    out = _copy(finished / "run", tmp_path / "r")
    marker = json.loads((out / MARKER).read_text())
    del marker["files"]
    (out / MARKER).write_text(json.dumps(marker))
    (out / "notes.txt").write_text("mine")
    _refused(*_run(out, "--force"), "notes.txt")
    (out / "notes.txt").unlink()
    code, text = _run(out, "--force", "--seed", 2)
    assert code == 0, text
    assert read_run(out)["seed"] == 2


def test_after_a_kill_the_folder_is_resumed_then_replaced(finished: Path,
                                                          tmp_path: Path) -> None:
    """A run killed (kill -9) after writing run.json and run.log, before recording them:
    --force refuses it, naming them; --resume finishes it and records them; then --force
    replaces it."""
    out = _copy(finished / "run", tmp_path / "r")
    meta = read_run(out)
    last = meta["chunks"].pop()
    meta["complete"] = False
    for key in ("contracts_file", "games_file"):
        (out / last[key]).unlink()
    with FolderLock(out, record=False):  # the killed writer: nothing recorded
        (out / "run.json").write_text(json.dumps(meta, indent=1) + "\n")
        with (out / "run.log").open("a") as fh:
            fh.write("a line written just before the kill\n")
    _refused(*_run(out, "--force"), "run.json")
    code, text = _invoke("run", "--resume", out, "-q")
    assert code == 0 and read_run(out)["complete"], text
    code, text = _run(out, "--force", "--seed", 5)
    assert code == 0, text
    assert read_run(out)["seed"] == 5
