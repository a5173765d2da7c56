"""``trixsim tune``: SPSA on duplicate deals, exact resume, the verification, bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

from trixsim import tune as lib
from trixsim.cli import _Group
from trixsim.commands import tune as tune_cmd
from trixsim.loading import find_class, load_strategy

BAD_START = "heuristic:declare_margin=30,trix_by_pick=6"
"""Clearly bad: about 40 points per game worse than the defaults. (A margin above 50 means
never declaring K♥: a plateau on which no parameter change is seen, so no local method can
leave it; the default bounds end at 60 for that reason.)"""
BOUNDS = ["--param", "declare_margin=-100:60", "--param", "trix_by_pick=1:6"]


@pytest.fixture(scope="module")
def app() -> click.Group:
    """A CLI group with the tune command: the CLI's own group class (its usage errors are one
    line), a fresh one, so that the real ``cli`` is left as it is."""
    group = _Group("trixsim")
    tune_cmd.register(group)
    return group


def invoke(app: click.Group, *args: object) -> click.testing.Result:
    return CliRunner().invoke(app, ["tune", *(str(a) for a in args)])


def history(out: Path) -> list[dict[str, str]]:
    with open(out / "history.csv", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.slow  # about 20 s: 240,000 games and 5,000 for the verification
def test_bad_start_is_tuned_towards_better_values_and_verified(app: click.Group,
                                                               tmp_path: Path) -> None:
    out = tmp_path / "t"
    res = invoke(app, BAD_START, *BOUNDS, "--budget", 8 * 100 * 300, "--seed", 1,
                 "--deals-per-iteration", 100, "--verify-deals", 1000, "--out", out)
    assert res.exit_code == 0, res.output
    rows = history(out)
    assert len(rows) == 300 and [int(r["iteration"]) for r in rows] == list(range(300))
    assert rows[-1]["deals"] == str(300 * 100)
    # the margin falls to where declaring pays (the defaults' -20 or below)
    final = load_strategy(f"heuristic@{out}/best.toml", "trix")
    assert final.declare_margin < 0 and final.trix_by_pick <= 6
    assert isinstance(final.trix_by_pick, int)
    verdict = json.loads((out / "verdict.json").read_text())
    gain = verdict["tuned_minus_start"]
    assert verdict["better"] and gain["hi"] < 0 < gain["hi"] - gain["lo"]
    assert verdict["deals"] == 1000 and verdict["seed"] == 1 + lib.VERIFY_SEED_OFFSET
    assert verdict["tuned"]["declare_margin"] == final.declare_margin
    assert "better than the starting ones" in res.output
    assert f"heuristic@{out}/best.toml" in res.output
    for png in ("trajectories.png", "gain.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    state = json.loads((out / "state.json").read_text())
    assert state["iteration"] == 300 and state["settings"]["spec"] == BAD_START


def _small(out: Path, *extra: object) -> list[object]:
    return [BAD_START, *BOUNDS, "--budget", 8 * 20 * 12, "--deals-per-iteration", 20,
            "--verify-deals", 50, "--seed", 3, "--out", out, *extra]


def test_resume_after_an_interruption_gives_the_uninterrupted_results(
        app: click.Group, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = tmp_path / "whole"
    res = invoke(app, *_small(whole))
    assert res.exit_code == 0, res.output
    cut = tmp_path / "cut"
    iterate = lib.iterate

    def stop_at_5(tuner: lib.Tuner, k: int, *args: object):
        if k == 5:
            raise KeyboardInterrupt
        return iterate(tuner, k, *args)

    monkeypatch.setattr(lib, "iterate", stop_at_5)
    res = invoke(app, *_small(cut))
    assert res.exit_code == 130, res.output
    assert "--resume" in res.output and len(history(cut)) == 5
    assert json.loads((cut / "state.json").read_text())["iteration"] == 5
    assert not (cut / "verdict.json").exists()
    monkeypatch.setattr(lib, "iterate", iterate)
    # a row written just before the state was replaced is dropped on resume
    with open(cut / "history.csv", "a") as fh:
        fh.write("5,120,1.0,0.5,1.0,1.0,1.0,1.0\n")
    res = invoke(app, BAD_START, "--out", cut, "--resume")
    assert res.exit_code == 0, res.output
    for name in ("history.csv", "tuned.toml", "verdict.json"):
        assert (cut / name).read_text() == (whole / name).read_text(), name
    assert json.loads((cut / "state.json").read_text()) == \
        json.loads((whole / "state.json").read_text())
    assert len(history(cut)) == 12
    # a resume with other settings is refused, nothing changes
    res = invoke(app, BAD_START, "--out", cut, "--resume", "--seed", 4)
    assert res.exit_code == 2 and "seed" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_tuned_toml_loads_back_with_the_tuned_values(app: click.Group,
                                                     tmp_path: Path) -> None:
    out = tmp_path / "t"
    res = invoke(app, *_small(out))
    assert res.exit_code == 0, res.output
    text = (out / "tuned.toml").read_text()
    assert text.startswith('strategy = "heuristic"\n') and "[params]" in text
    verdict = json.loads((out / "verdict.json").read_text())
    for spec in (f"heuristic@{out}/tuned.toml", str(out / "tuned.toml")):
        s = load_strategy(spec, "trix")
        assert s.name == "heuristic"
        assert s.declare_margin == verdict["tuned"]["declare_margin"]
        assert s.trix_by_pick == verdict["tuned"]["trix_by_pick"]
        assert type(s.trix_by_pick) is int
        assert s.farcha_by_rank is True and s.lead_guard == 21.506  # untouched ones kept
    # the verification is the duplicate design: with the start as opponent, start - start = 0
    assert verdict["start_minus_against"]["mean"] == 0.0
    assert verdict["tuned_minus_start"] == verdict["tuned_minus_against"]


@pytest.mark.parametrize(("spec", "args", "needle"), [
    ("heuristic", ["--param", "declare_margin=5:1"], "LO must be below HI"),
    ("heuristic", ["--param", "declare_margin=3:3"], "LO must be below HI"),
    ("heuristic", ["--param", "declare_margin=5"], "is not NAME=LO:HI"),
    ("heuristic", ["--param", "declare_margin=a:b"], "is not NAME=LO:HI"),
    ("heuristic", ["--param", "trix_by_pick=1.5:4"], "must be integers"),
    ("heuristic", ["--param", "nope=0:1"], "has no parameter 'nope'"),
    ("heuristic", ["--param", "farcha_by_rank=0:1"], "is bool, not int or float"),
    ("pimc", ["--param", "ties=0:1"], "is str, not int or float"),
    ("heuristic", ["--param", "declare_margin=-10:10"], "outside its bounds"),
    ("heuristic", ["--budget", "10"], "too small for one iteration"),
    ("heuristic", ["--budget", "799", "--deals-per-iteration", "100"], "too small"),
    ("random", [], "has no int or float parameter"),
    ("pimc", ["--param", "worlds=0:30"], "must be at least 1"),
    ("nosuchbot", [], "unknown strategy"),
])
def test_bad_input_is_one_line_exit_2(app: click.Group, tmp_path: Path, spec: str,
                                      args: list[str], needle: str) -> None:
    out = tmp_path / "t"
    full = [spec, *args, "--out", out]
    if "--budget" not in args:
        full += ["--budget", 10_000]
    res = invoke(app, *full)
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and needle in lines[0], res.output
    assert not out.exists()


def test_existing_folder_needs_resume(app: click.Group, tmp_path: Path) -> None:
    out = tmp_path / "t"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    res = invoke(app, "heuristic", "--budget", 10_000, "--out", out)
    assert res.exit_code == 2 and "already exists" in res.output
    assert len(res.output.strip().splitlines()) == 1
    res = invoke(app, "heuristic", "--out", out, "--resume")
    assert res.exit_code == 2 and "not a tuning folder" in res.output
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    res = invoke(app, "heuristic", "--out", tmp_path / "none", "--resume")
    assert res.exit_code == 2 and "nothing to resume" in res.output


def test_default_bounds_cover_every_numeric_parameter() -> None:
    heuristic = find_class("heuristic", "trix")
    bounds = lib.default_bounds(heuristic)
    numeric = [n for n, p in heuristic.params.items() if p.type in (int, float)]
    assert list(bounds) == numeric and "farcha_by_rank" not in bounds
    assert bounds["trix_by_pick"] == (1, 6)
    for n, (lo, hi) in bounds.items():
        assert lo <= heuristic.params[n].default <= hi
    # a variant inherits the table; another strategy gets default ± max(1, |default|)
    assert lib.default_bounds(find_class("heuristic-declare", "trix"))["trix_by_pick"] == (1, 6)
    pimc = lib.default_bounds(find_class("pimc", "trix"))
    assert pimc["worlds"] == (1, 48) and pimc["win_bonus"] == (0.0, 600.0)
    assert "ties" not in pimc and "rollout" not in pimc
    # a starting value outside the default bounds widens them
    settings = lib.plan("heuristic:declare_margin=300", None, 10_000, 100, 0, 100, None,
                        game="trix")
    assert settings.wander == lib.WANDER
    assert settings.params["declare_margin"] == [-100.0, 300.0]
    assert settings.iterations == 10_000 // 800


def test_int_parameters_play_rounded_and_distinct_at_a_bound() -> None:
    settings = lib.plan(BAD_START, {"declare_margin": (-100, 300), "trix_by_pick": (1, 6)},
                        8 * 100 * 50, 100, 0, 10, None, game="trix")
    tuner = lib.Tuner(settings)
    assert list(tuner.theta0()) == [30.0, 6.0]
    assert tuner.values(np.array([12.3, 4.5])) == {"declare_margin": 12.3, "trix_by_pick": 5}
    for k in (0, 10, 49):
        assert tuner.c_k(k)[1] >= 0.5 and tuner.c_k(k)[0] <= 20.0
    theta, scale, row = lib.iterate(tuner, 0, tuner.theta0(), None)
    assert scale > 0 and row["diff"] != 0.0  # theta± differ although trix_by_pick is at 6
    assert np.all(theta >= tuner.lo) and np.all(theta <= tuner.hi)
    # the draws depend only on (seed, k): the same iteration gives the same row
    assert lib.iterate(tuner, 0, tuner.theta0(), None)[2] == row


def test_against_another_opponent_measures_the_start_on_the_same_deals(tmp_path: Path) -> None:
    result = lib.tune(BAD_START, {"declare_margin": (-100, 300)}, 8 * 20 * 3, tmp_path / "t",
                      against="heuristic", deals_per_iteration=20, verify_deals=200,
                      plots=False, game="trix")
    v = result.verdict
    assert v["against"] == "heuristic" and v["deals"] == 200
    assert not (tmp_path / "t" / "gain.png").exists()
    # tuned - start is paired by deal: the difference of the two differences
    assert v["tuned_minus_start"]["mean"] == pytest.approx(
        v["tuned_minus_against"]["mean"] - v["start_minus_against"]["mean"])
    # the bad start loses clearly to the default heuristic on the same deals
    assert v["start_minus_against"]["lo"] > 0
    assert len(lib.read_history(tmp_path / "t")) == 3


def test_results_do_not_depend_on_the_number_of_workers(app: click.Group, tmp_path: Path) -> None:
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"j{workers}"
        res = invoke(app, *_small(out), "--workers", workers, "--verify-deals", 600)
        assert res.exit_code == 0, res.output
        outs.append(out)
    for name in ("history.csv", "tuned.toml", "verdict.json", "state.json"):
        assert (outs[0] / name).read_text() == (outs[1] / name).read_text(), name


def test_the_step_size_follows_the_noise() -> None:
    """Noise alone moves a parameter by ``wander`` of its range (one s.d.) over the tuning:
    the root sum of squares of the steps a pure-noise difference of one sigma gives."""
    settings = lib.plan("heuristic", {"lead_guard": (0.0, 60.0), "trix_by_pick": (1, 6)},
                        8 * 10 * 400, 10, 0, 10, None, wander=0.2, game="trix")
    tuner = lib.Tuner(settings)
    steps = np.array([tuner.a_k(k, 7.0) * 7.0 / (2 * tuner.c_k(k))
                      for k in range(settings.iterations)])
    spread = np.sqrt((steps ** 2).sum(axis=0))
    assert spread == pytest.approx([0.2 * 60.0, 0.2 * 5.0])
    # fishtest's schedule: a_k (A + k + 1)^0.602 is constant for a float parameter
    a = [tuner.a_k(k, 7.0)[0] * (tuner.A + k + 1) ** lib.spsa.ALPHA for k in (0, 50, 399)]
    assert a == pytest.approx([a[0]] * 3)
