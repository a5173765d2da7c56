"""``trixsim tournament``: plays every pair on duplicate deals, ranks, feeds the report."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from trixsim.reports.tables import open_run

from trixsim.cli import COMMANDS, cli
from trixsim.commands import report as report_cmd
from trixsim.commands import tournament as tournament_cmd

SPECS = ("heuristic", "random", "heuristic-declare")


@pytest.fixture(scope="module")
def app() -> click.Group:
    """The CLI with the tournament and report commands."""
    for name, module in (("tournament", tournament_cmd), ("report", report_cmd)):
        if name not in cli.commands:
            module.register(cli)
    return cli


def invoke(app: click.Group, *args: object) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def played(app: click.Group, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A three-strategy tournament of 30 deals per pair."""
    out = tmp_path_factory.mktemp("t") / "tour"
    res = invoke(app, "tournament", *SPECS, "-n", 30, "--seed", 3, "-j", 1, "--out", out)
    assert res.exit_code == 0, res.output
    return out, res.output


def test_tournament_plays_every_pair_and_ranks(played: tuple[Path, str]) -> None:
    out, output = played
    data = json.loads((out / "tournament.json").read_text())
    assert data["strategies"] == list(SPECS) and len(data["pairs"]) == 3
    seeds = set()
    for name in data["pairs"]:
        run = open_run(out / name)
        assert run.complete and run.meta["games"] == 30 and len(run.lineups) == 10
        seeds.add(run.meta["seed"])
    assert seeds == {3, 4, 5}  # pairs never share games
    ranking = data["ranking"]
    ratings = {r["strategy"]: r["rating"] for r in ranking["rating"]}
    assert min(ratings, key=ratings.get) == "random"
    for r in ranking["rating"]:  # null: an end a clean sweep leaves unbounded
        assert r["lo"] is None or r["lo"] < r["rating"]
        assert r["hi"] is None or r["rating"] < r["hi"]
    m = ranking["matrix"]
    assert m[0][0] is None
    assert m[0][1]["mean"] == pytest.approx(-m[1][0]["mean"]) and m[0][1]["mean"] < 0
    assert m[0][1]["deals"] == 30
    lines = output.splitlines()
    lines = lines[lines.index("30 deals per pair, 3 pairs"):]
    assert lines[3].startswith("3. random")
    md = (out / "report.md").read_text()
    assert "| rank | strategy | rating [95%] |" in md
    rep = (out / "report" / "report.md").read_text()
    assert "## Tournament ranking" in rep and "## Summary: which strategy is better" in rep
    assert "](tournament_ranking.png)" in rep
    assert (out / "report" / "tournament_ranking.png").read_bytes()[:4] == b"\x89PNG"


def test_report_reads_a_tournament_folder(app: click.Group, played: tuple[Path, str],
                                          tmp_path: Path) -> None:
    out, _ = played
    res = invoke(app, "report", out, "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    md = (tmp_path / "r" / "report.md").read_text()
    assert "`heuristic` vs `random` | 30 | matched | **heuristic** by" in md


def test_resume_finishes_a_tournament(app: click.Group, played: tuple[Path, str],
                                      tmp_path: Path) -> None:
    out, _ = played
    res = invoke(app, "tournament", "--resume", out, "--no-plots", "-j", 1)
    assert res.exit_code == 0, res.output  # nothing left to play: ranks again
    assert "3. random" in res.output


def test_existing_folder_and_bad_specs_are_one_line_errors(app: click.Group,
                                                           played: tuple[Path, str],
                                                           tmp_path: Path) -> None:
    out, _ = played
    for args, words in (((*SPECS, "--out", out), "already exists"),
                        (("heuristic", "--out", tmp_path / "x"), "at least two"),
                        (("heuristic", "heuristic", "--out", tmp_path / "x"), "at least two"),
                        (("heuristic", "nosuchbot", "--out", tmp_path / "x"), "nosuchbot"),
                        (("--resume", tmp_path, "--no-plots"), "not a tournament folder")):
        res = invoke(app, "tournament", *args, "-n", 2)
        assert res.exit_code == 2, res.output
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert lines[-1].startswith("Error:") and words in lines[-1], res.output
        assert "Traceback" not in res.output
    assert not (tmp_path / "x").exists()


def test_listed_sentence_matches_the_help() -> None:
    assert COMMANDS["tournament"][1].startswith("Rank strategies by playing every pair")
