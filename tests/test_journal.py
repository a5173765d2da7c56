"""Listing a chunk appends one line to the run folder's journal instead of rewriting run.json.

Before, every placed chunk rewrote the whole run.json (pretty-printed by Python's pure
encoder, synced): a 1,000,000-game trump7 run's main process spent about a second of CPU on
100 rewrites beside two busy workers, and the cost grew with the square of the chunks (a
100,000,000-game run lists 10,000). These tests hold the journal to what run.json promised:
every placed chunk listed at once, a torn line is no listing, nothing outside the folder is
written, a finished run's run.json lists everything.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.runfolder import JOURNAL, RunFolderError, list_chunk, read_run


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    out = tmp_path / "r"
    code, text = _invoke("run", "--game", "trump7", "-n", "40", "-j", "1", "--batch-size",
                         "10", "-s", "random", "-q", "-o", str(out))
    assert code == 0, text
    return out


def _unlist_last_two(out: Path) -> tuple[list[dict], dict]:
    """Take the last two chunks out of run.json (as if listed only in the journal)."""
    meta = json.loads((out / "run.json").read_text())
    tail = meta["chunks"][-2:]
    meta["chunks"] = meta["chunks"][:-2]
    meta["complete"] = False
    (out / "run.json").write_text(json.dumps(meta, indent=1) + "\n")
    return tail, meta


def test_a_finished_run_leaves_no_journal_and_lists_every_chunk(finished: Path) -> None:
    assert not (finished / JOURNAL).exists()
    meta = json.loads((finished / "run.json").read_text())
    assert [c["start"] for c in meta["chunks"]] == [0, 10, 20, 30] and meta["complete"]


def test_listing_appends_a_line_and_leaves_run_json_as_it_was(finished: Path) -> None:
    tail, meta = _unlist_last_two(finished)
    before = (finished / "run.json").read_bytes()
    for chunk in tail:
        list_chunk(finished, meta, chunk)
    assert (finished / "run.json").read_bytes() == before
    lines = (finished / JOURNAL).read_text().splitlines()
    assert [json.loads(x) for x in lines] == tail
    assert read_run(finished)["chunks"] == meta["chunks"]
    assert _invoke("check", str(finished))[0] == 0


def test_a_torn_last_line_is_not_a_listing_and_resume_plays_it_again(finished: Path) -> None:
    whole = pd.read_parquet(finished / "games")
    tail, _ = _unlist_last_two(finished)
    line = json.dumps(tail[0], separators=(",", ":")) + "\n"
    torn = json.dumps(tail[1], separators=(",", ":"))[:40]  # killed while appending it
    (finished / JOURNAL).write_text(line + torn)
    assert [c["start"] for c in read_run(finished)["chunks"]] == [0, 10, 20]
    code, text = _invoke("run", "--resume", str(finished), "-j", "1", "-q")
    assert code == 0, text
    assert not (finished / JOURNAL).exists()
    assert [c["start"] for c in read_run(finished)["chunks"]] == [0, 10, 20, 30]
    pd.testing.assert_frame_equal(pd.read_parquet(finished / "games"), whole)


def test_a_line_contradicting_run_json_is_refused(finished: Path) -> None:
    meta = json.loads((finished / "run.json").read_text())
    wrong = dict(meta["chunks"][0], seconds=meta["chunks"][0]["seconds"] + 1)
    (finished / JOURNAL).write_text(json.dumps(wrong) + "\n")
    with pytest.raises(RunFolderError, match="contradicts run.json"):
        read_run(finished)
    code, text = _invoke("check", str(finished))
    assert code == 1 and "contradicts" in text and "Traceback" not in text  # a data error


def test_a_line_naming_a_file_outside_the_run_is_refused(finished: Path) -> None:
    tail, _ = _unlist_last_two(finished)
    (finished / JOURNAL).write_text(json.dumps(dict(tail[0], games_file="../x.parquet")) + "\n"
                                    + json.dumps(tail[1]) + "\n")
    with pytest.raises(RunFolderError):
        read_run(finished)


def test_a_journal_that_is_a_link_is_refused_and_never_written(finished: Path,
                                                             tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("")
    (finished / JOURNAL).symlink_to(elsewhere)
    with pytest.raises(RunFolderError, match="is a link"):
        read_run(finished)
    code, text = _invoke("run", "--resume", str(finished), "-j", "1", "-q")
    assert code == 1 and "is a link" in text  # a data error, as a damaged run.json
    meta = json.loads((finished / "run.json").read_text())
    with pytest.raises(OSError):
        list_chunk(finished, meta, meta["chunks"][0])
    assert elsewhere.read_text() == ""
