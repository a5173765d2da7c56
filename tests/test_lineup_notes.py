"""`run` says when a lineup is given twice, and when --rotate has nothing to rotate."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from trixsim.cli import cli


def _run(tmp_path: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["run", "-n", "4", "-j", "1", "-q", *args,
                                   "-o", str(tmp_path / "r")])
    return res.exit_code, res.output


def test_a_lineup_given_twice_gets_a_note(tmp_path: Path) -> None:
    code, out = _run(tmp_path, "-s", "random", "-s", "random,random,random,random")
    assert code == 0, out
    assert "note: lineup 2 (random,random,random,random) repeats lineup 1" in out


def test_rotate_on_a_lineup_of_one_strategy_gets_a_note(tmp_path: Path) -> None:
    code, out = _run(tmp_path, "-s", "random", "--rotate")
    assert code == 0, out
    assert "note: --rotate changes nothing when every lineup is one strategy" in out


def test_no_note_for_a_plain_design(tmp_path: Path) -> None:
    code, out = _run(tmp_path, "-s", "random", "-s", "heuristic,random,random,random",
                     "--rotate")
    assert code == 0, out
    assert "note:" not in out
