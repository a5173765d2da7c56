"""A run folder whose run.json or journal is damaged is a data error (exit 1, one line),
not a usage error (exit 2, kept for a path that names no run folder at all)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.runfolder import JOURNAL, RunDataError, RunFolderError, read_run


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("damaged") / "r"
    code, text = _invoke("run", "--game", "trump7", "-n", "20", "-j", "1", "--batch-size",
                         "10", "-s", "random", "-q", "-o", str(out))
    assert code == 0, text
    return out


def _broken_json(out: Path) -> str:
    (out / "run.json").write_text("{broken")
    return "unreadable"


def _wrong_format(out: Path) -> str:
    meta = json.loads((out / "run.json").read_text())
    meta["format"] = "something-else/9"
    (out / "run.json").write_text(json.dumps(meta))
    return "is not a"


def _missing_key(out: Path) -> str:
    meta = json.loads((out / "run.json").read_text())
    del meta["plan"]
    (out / "run.json").write_text(json.dumps(meta))
    return "missing 'plan'"


def _bad_journal_line(out: Path) -> str:
    (out / JOURNAL).write_text("not json\n")
    return "is not a chunk entry"


DAMAGE = [_broken_json, _wrong_format, _missing_key, _bad_journal_line]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__.strip("_"))
def test_damage_is_a_data_error_for_every_reader(finished: Path, tmp_path: Path,
                                                 damage) -> None:
    out = Path(shutil.copytree(finished, tmp_path / "r"))
    said = damage(out)
    with pytest.raises(RunDataError, match=said):
        read_run(out)
    for args in (("check", str(out)),
                 ("run", "--resume", str(out), "-j", "1", "-q"),
                 ("report", str(out), "--out", str(tmp_path / "rep")),
                 ("replay", "--run", str(out), "--game-id", "0")):
        code, text = _invoke(*args)
        assert code == 1, (args, code, text)
        assert said in text and "Traceback" not in text, (args, text)
        assert len(text.strip().splitlines()) == 1, (args, text)


def test_a_damaged_comparison_is_a_data_error_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "c"
    code, text = _invoke("compare", "random", "random", "--game", "trump7", "-n", "4",
                         "-j", "1", "-o", str(out))
    assert code == 0, text
    _broken_json(out)
    code, text = _invoke("compare", "--resume", str(out), "-j", "1")
    assert code == 1 and "unreadable" in text and "Traceback" not in text, text


def test_a_path_naming_no_run_folder_stays_a_usage_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RunFolderError) as exc:
        read_run(empty)
    assert not isinstance(exc.value, RunDataError)
    for args in (("check", str(empty)), ("run", "--resume", str(empty), "-j", "1", "-q"),
                 ("report", str(empty), "--out", str(tmp_path / "rep"))):
        code, text = _invoke(*args)
        assert code == 2, (args, code, text)
        assert "Traceback" not in text
